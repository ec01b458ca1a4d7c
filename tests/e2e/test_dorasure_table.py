"""Dorasure in real Chromium against the real server: two players create and join a
table from the lobby, play several full turns by clicking the board and the
buttons, a third browser watches the same board, one player reloads mid-game and
carries on. The canvas is checked pixel by pixel where the view puts terrain and
tokens, screenshots of each screen go to test-artifacts/, and no request leaves
the server's origin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    Recorder,
    assert_high_dpi,
    canvas_pixels,
    check_resize,
    close,
    create_table,
    due_seat,
    finish,
    hex_rgb,
    new_player,
    seq_of,
    state_of,
    sync_pages,
    take_seat,
    wait_live,
    wait_seq_above,
)

pytestmark = pytest.mark.e2e

HEROES = ["ninja", "hunter"]
FULL_TURNS = 2  # every hero takes at least this many turns


def choose_heroes(page: Any, heroes: list[str]) -> None:
    """Pick the heroes with the lobby's option form (checkboxes, or the JSON field)."""
    if page.locator("#options-json").count():
        page.fill("#options-json", json.dumps({"heroes": heroes}))
        return
    for box in page.locator('input[type=checkbox][data-option="heroes"]').all():
        want = box.get_attribute("value") in heroes
        if box.is_checked() != want:
            box.click()


def click_space(page: Any, node: str) -> None:
    point = page.evaluate("(id) => window.__dt.spaceToPixel(id)", node)
    page.locator("#board").click(position={"x": point["x"], "y": point["y"]})


def play_one(page: Any, turn_moves: dict[str, int]) -> str:
    """Take one listed action by clicking, like a player would. Returns what was done."""
    state = state_of(page)
    seat = due_seat(page)
    legal = state["legal"]
    before = state["seq"]
    moves = [a for a in legal if a["type"] == "move"]
    steps = [a for a in legal if a["type"] == "step"]
    if steps and not turn_moves.get(seat):
        # Die by die: pick a die, only the hexes it pays for light up, click one.
        die = max(a["die"] for a in steps)
        page.click(f'#controls button.action[data-kind="die"]:text-is("{die}")')
        lit = page.evaluate("() => [...window.__dt.renderer.targets.keys()]")
        assert sorted(lit) == sorted({a["to"] for a in steps if a["die"] == die})
        turn_moves[seat] = 1
        click_space(page, lit[0])
        wait_seq_above(page, before)
        return f"step {lit[0]} with {die}"
    if moves:
        # The farthest listed end space walks the hero across the board; click its hex.
        target = moves[(turn_moves.get(seat, 0) * 7) % len(moves)]["to"]
        turn_moves[seat] = turn_moves.get(seat, 0) + 1
        click_space(page, target)
        wait_seq_above(page, before)
        hero = next(h for h in state_of(page)["view"]["heroes"] if h["id"] == seat)
        assert hero["pos"] == target or state_of(page)["view"]["movement"] is None
        return f"move {target}"
    dialog = page.locator("#prompt-dialog[open] button.action")
    if dialog.count():
        dialog.first.click()
        wait_seq_above(page, before)
        return "dialog"
    buttons = page.locator("#controls button.action:not([data-kind=die])")
    kinds = [b.get_attribute("data-kind") for b in buttons.all()]
    for preferred in ("adventure", "rest", "end_move", "end_turn", "pass"):
        if preferred in kinds:
            page.locator(f'#controls button.action[data-kind="{preferred}"]').first.click()
            wait_seq_above(page, before)
            return preferred
    buttons.first.click()
    wait_seq_above(page, before)
    return kinds[0] or "?"


def check_board_pixels(page: Any) -> None:
    """Terrain colours and hero tokens are where the view says (page must show no lit hexes)."""
    info = page.evaluate(
        """async () => {
            const m = await import('/js/games/dorasure.js');
            const r = window.__dt.renderer;
            const heroes = window.__dt.table.current.view.heroes;
            const occupied = new Set(heroes.map(h => h.pos));
            const spaces = r.spaces.filter(s => !occupied.has(s.node) && s.terrain !== 'mountain' && !s.fang_site);
            return {
                size: r.layout.size,
                styles: m.TERRAIN_STYLE,
                spaces: spaces.map(s => ({id: s.id, q: s.q, r: s.r, terrain: r.terrainOf(s), c: r.hexToPixel(s.q, s.r)})),
                tokens: heroes.map(h => ({id: h.id, p: r.tokenPixel(h.id), color: r.heroTokenColor(h.id)})),
            };
        }"""
    )
    size = info["size"]
    seen_terrains = set()
    for space in info["spaces"]:
        # Sample a ring of points inside the hex, clear of labels: most show the terrain's fill.
        pts = [
            {"x": space["c"]["x"] + dx * size, "y": space["c"]["y"] + dy * size}
            for dx, dy in (
                (-0.6, -0.1),
                (0.6, -0.1),
                (0.0, -0.62),
                (-0.45, -0.4),
                (0.45, -0.4),
                (-0.3, 0.05),
                (0.3, 0.05),
            )
        ]
        fill = hex_rgb(info["styles"][space["terrain"]]["fill"])
        hits = sum(close(px, fill, 40) for px in canvas_pixels(page, pts))
        assert hits >= 2, f"{space['id']} ({space['terrain']}) is not drawn in its colour"
        seen_terrains.add(space["terrain"])
    # (The Western Lake is a single space a hero may be standing on; it is checked whenever free.)
    assert {"plains", "forest", "road", "village"} <= seen_terrains
    for token in info["tokens"]:
        p = token["p"]
        assert p is not None, token
        sample = canvas_pixels(page, [{"x": p["x"], "y": p["y"] - size * 0.2}])[0]
        assert close(sample, hex_rgb(token["color"]), 30), f"no {token['id']} token at {p}: {sample}"


def test_dorasure_two_players_and_a_spectator(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    alice = new_player(browser, rec, scale=2)  # high-DPI: the canvas has 2 device pixels per CSS pixel
    bob = new_player(browser, rec)
    carol = new_player(browser, rec)

    table_id = create_table(
        alice,
        server.base_url,
        "Alice",
        "dorasure",
        lambda p: choose_heroes(p, HEROES),
        shot=artifacts / "lobby.png",
    )
    take_seat(alice, "ninja", "Alice")
    invite = alice.input_value("#invite-link")

    bob.goto(invite)
    take_seat(bob, "hunter", "Bob")
    alice.wait_for_selector("#start-table:not([disabled])")
    alice.screenshot(path=str(artifacts / "waiting-room.png"))
    alice.click("#start-table")
    wait_live(alice)
    wait_live(bob)
    assert_high_dpi(alice, 2)

    pages = {"ninja": alice, "hunter": bob}
    moves: dict[str, int] = {}
    done: list[str] = []

    # An attempt the server refuses shows its reason, and nothing changes.
    first = pages[state_of(alice)["to_act"][0]]
    if any(a["type"] == "move" for a in state_of(first)["legal"]):
        before = seq_of(first)
        click_space(first, "m1")  # a mountain: never enterable
        first.wait_for_selector("#action-message[data-kind=error]")
        assert first.inner_text("#action-message").strip()
        assert seq_of(first) == before

    carol.goto(f"{server.base_url}/table/{table_id}?watch=1")
    wait_live(carol)
    alice.wait_for_function("() => document.querySelector('#spectators').textContent.startsWith('1 ')")

    reloaded = False
    for _ in range(200):
        turn = state_of(alice)["view"]["turn"]
        if turn > FULL_TURNS * len(HEROES) or state_of(alice)["view"]["outcome"]:
            break
        # Every browser has the latest update before we look for who must act.
        sync_pages(*pages.values())
        due = [p for seat, p in pages.items() if due_seat(p) == seat]
        assert due, "nobody can act"
        done.append(play_one(due[0], moves))
        if not reloaded and turn >= 2:
            bob.reload()
            wait_live(bob)
            assert seq_of(bob) == seq_of(alice)
            reloaded = True
    assert reloaded and state_of(alice)["view"]["turn"] > FULL_TURNS * len(HEROES), done
    assert sum(d.startswith(("move", "step")) for d in done) >= FULL_TURNS * len(HEROES) - 1, done
    assert any(d.startswith("step") for d in done), done

    # The spectator sees the same board as the players.
    seq = seq_of(alice)
    carol.wait_for_function(f"() => window.__dt.table.current.seq === {seq}")
    view_a, view_c = state_of(alice)["view"], state_of(carol)["view"]
    for key in ("heroes", "meter", "dragon", "mountains", "belk_razed", "turn"):
        assert view_a[key] == view_c[key], key
    assert carol.locator("#controls button.action").count() == 0
    assert carol.inner_text("#log").count("#") >= 3

    check_board_pixels(carol)
    # The board follows the window: smaller window, smaller board, still drawn where the view says.
    check_resize(carol, {"width": 1000, "height": 760}, check_board_pixels)
    # Layout at 1440x960: the hero panels fit under the board; "Your move" shows all its
    # buttons (or scrolls); the latest dice roll is the big one.
    layout = alice.evaluate(
        """() => {
            const block = document.querySelector('.move-block');
            const dice = [...document.querySelectorAll('#dice .dice-roll')].map(r => r.querySelector('.die').getBoundingClientRect().width);
            return {
                panels: document.getElementById('hero-panels').getBoundingClientRect().bottom,
                block: block.getBoundingClientRect().bottom,
                fits: block.scrollHeight <= block.clientHeight + 1,
                scrolls: getComputedStyle(block).overflowY === 'auto',
                dice,
            };
        }"""
    )
    assert layout["panels"] <= 960 and layout["block"] <= 960, layout
    assert layout["fits"] or layout["scrolls"], layout
    assert layout["dice"] and all(w < layout["dice"][0] for w in layout["dice"][1:]), layout
    carol.screenshot(path=str(artifacts / "dorasure-spectator.png"))
    alice.screenshot(path=str(artifacts / "dorasure-player.png"))
    bob.screenshot(path=str(artifacts / "dorasure-player-2.png"))

    finish(rec, server.base_url, alice, bob, carol)
