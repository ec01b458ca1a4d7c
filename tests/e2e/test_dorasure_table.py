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

from .helpers import Recorder, new_player, seq_of, start_server, state_of, table_id_of, take_seat, wait_live

pytestmark = pytest.mark.e2e

HEROES = ["ninja", "hunter"]
FULL_TURNS = 2  # every hero takes at least this many turns


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, artifacts: Path):
    srv = start_server(tmp_path_factory.mktemp("dorasure"), artifacts)
    yield srv
    srv.stop()


def choose_heroes(page: Any, heroes: list[str]) -> None:
    """Pick the heroes with the lobby's option form (checkboxes, or the JSON field)."""
    if page.locator("#options-json").count():
        page.fill("#options-json", json.dumps({"heroes": heroes}))
        return
    for box in page.locator('input[type=checkbox][data-option="heroes"]').all():
        want = box.get_attribute("value") in heroes
        if box.is_checked() != want:
            box.click()


def mine(page: Any) -> str | None:
    """The seat this page must act for now, if any."""
    return page.evaluate(
        "() => { const t = window.__dt.table, d = t.current;"
        " return d && d.to_act.includes(t.activeSeat) && d.legal.length ? t.activeSeat : null; }"
    )


def click_space(page: Any, node: str) -> None:
    point = page.evaluate("(id) => window.__dt.spaceToPixel(id)", node)
    page.locator("#board").click(position={"x": point["x"], "y": point["y"]})


def wait_seq_above(page: Any, seq: int) -> None:
    page.wait_for_function(f"() => window.__dt.table.current.seq > {seq}")


def play_one(page: Any, turn_moves: dict[str, int]) -> str:
    """Take one listed action by clicking, like a player would. Returns what was done."""
    state = state_of(page)
    seat = mine(page)
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


def canvas_pixels(page: Any, points: list[dict[str, float]]) -> list[list[int]]:
    """RGBA of the board canvas at CSS-pixel points (device pixels read through the DPR)."""
    return page.evaluate(
        """(points) => {
            const c = document.getElementById('board');
            const ctx = c.getContext('2d');
            const k = c.width / c.getBoundingClientRect().width;
            return points.map(p => Array.from(ctx.getImageData(Math.round(p.x * k), Math.round(p.y * k), 1, 1).data));
        }""",
        points,
    )


def hex_rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def close(rgba: list[int], rgb: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(rgba[:3], rgb, strict=True))


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
        hits = sum(close(px, fill) for px in canvas_pixels(page, pts))
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
    ctx_a, alice = new_player(browser, rec, scale=2)  # high-DPI: the canvas has 2 device pixels per CSS pixel
    ctx_b, bob = new_player(browser, rec)
    ctx_c, carol = new_player(browser, rec)

    alice.goto(server.base_url + "/")
    alice.fill("#player-name", "Alice")
    alice.select_option("#game-select", "dorasure")
    choose_heroes(alice, HEROES)
    alice.screenshot(path=str(artifacts / "lobby.png"))
    alice.click("#create-table")
    alice.wait_for_url("**/table/**")
    table_id = table_id_of(alice)
    take_seat(alice, "ninja", "Alice")
    invite = alice.input_value("#invite-link")

    bob.goto(invite)
    take_seat(bob, "hunter", "Bob")
    alice.wait_for_selector("#start-table:not([disabled])")
    alice.screenshot(path=str(artifacts / "waiting-room.png"))
    alice.click("#start-table")
    wait_live(alice)
    wait_live(bob)
    width = alice.evaluate(
        "() => [document.getElementById('board').width, document.getElementById('board').getBoundingClientRect().width]"
    )
    assert width[0] == round(width[1] * 2)

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
        latest = max(seq_of(p) for p in pages.values())
        for p in pages.values():
            p.wait_for_function(f"() => window.__dt.table.current.seq >= {latest}")
        due = [p for seat, p in pages.items() if mine(p) == seat]
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
    wide = carol.evaluate("() => document.getElementById('board').getBoundingClientRect().width")
    carol.set_viewport_size({"width": 1000, "height": 760})
    carol.wait_for_function(
        f"() => document.getElementById('board').getBoundingClientRect().width < {wide - 50}"
    )
    check_board_pixels(carol)
    carol.set_viewport_size({"width": 1440, "height": 960})
    carol.wait_for_function(
        f"() => document.getElementById('board').getBoundingClientRect().width > {wide - 5}"
    )
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

    assert rec.foreign(server.base_url) == []
    for page in (alice, bob, carol):
        assert page.js_errors == []
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()
