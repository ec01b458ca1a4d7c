"""Dorn in real Chromium against the real server: the Keeper's browser creates the table
from the lobby (two hero seats), a second browser takes both hero seats (hot-seat), and
they play a full Keeper turn and a full heroes' turn by clicking the board and the buttons:
a summon on a lit cell, monsters picked on the board and stepped cell by cell, heroes picked
and moved, every step ended with its button, Blessings answered in their dialog. A third
browser watches the same board. The canvas is checked pixel by pixel where the view puts
cells and figures, screenshots go to test-artifacts/dorn-*.png, and no request leaves the
server's origin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    Recorder,
    assert_high_dpi,
    canvas_pixels,
    check_resize,
    click_cell,
    click_figure,
    close,
    create_table,
    due_seat,
    finish,
    hex_rgb,
    lit_cells,
    new_player,
    selection,
    seq_of,
    state_of,
    sync_pages,
    take_seat,
    wait_live,
    wait_seq_above,
)

pytestmark = pytest.mark.e2e

HERO_SEATS = ["heroes_1", "heroes_2"]


def press(page: Any, kind: str) -> None:
    """Click the first button of a kind, in the controls or in the open dialog."""
    before = seq_of(page)
    in_dialog = f'#prompt-dialog[open] button.action[data-kind="{kind}"]'
    page.wait_for_selector(f'{in_dialog}, #controls button.action[data-kind="{kind}"]')
    dialog = page.locator(in_dialog)
    (dialog if dialog.count() else page.locator(f'#controls button.action[data-kind="{kind}"]')).first.click()
    wait_seq_above(page, before)


def move_figure(page: Any, figure: str, legal: list[dict], steps: int, shot: Path | None = None) -> int:
    """Pick a figure on the board, then click lit cells; the selection stays while it can move."""
    click_figure(page, figure)
    page.wait_for_function(f"() => window.__dt.table.selection === 'fig:{figure}'")
    if shot is not None:
        page.screenshot(path=str(shot))  # the picked figure and its lit cells
    done = 0
    for _ in range(steps):
        state = state_of(page)
        mine = [a for a in state["legal"] if (a.get("hero") or a.get("figure")) == figure and a.get("to")]
        if not mine:
            break
        lit = lit_cells(page)
        assert sorted(map(tuple, lit)) == sorted({tuple(a["to"]) for a in mine}), (
            "lit cells are not the listed moves"
        )
        # Head north, into the labyrinth: the listed cell with the smallest row.
        target = min(lit, key=lambda c: (c[1], c[0]))
        before = state["seq"]
        click_cell(page, target)
        wait_seq_above(page, before)
        view = state_of(page)["view"]
        where = (view["heroes"].get(figure) or view["monsters"].get(figure) or {}).get("cell")
        assert where == target or view["prompt"], (figure, where, target)
        done += 1
    return done


def keeper_step(page: Any, log: list[str], artifacts: Path) -> None:
    """One Keeper decision by clicking: summon on a lit cell, step monsters, place, or end the step."""
    state = state_of(page)
    legal, view = state["legal"], state["view"]
    types = {a["type"] for a in legal}
    before = state["seq"]
    if "place_monster" in types:
        page.wait_for_selector("#prompt-dialog[open]")
        cell = next(a["to"] for a in legal if a["type"] == "place_monster")
        click_cell(page, cell)
        wait_seq_above(page, before)
        log.append(f"placed {cell}")
        return
    if view["phase"] == "K2" and {"summon", "summon_strong"} & types and "summoned" not in log:
        summon = next(a for a in legal if a["type"] in ("summon", "summon_strong"))
        assert summon["to"] in lit_cells(page)
        click_cell(page, summon["to"])
        wait_seq_above(page, before)
        after = state_of(page)["view"]["monsters"]
        assert any(m["cell"] == summon["to"] for m in after.values()), (
            "no monster where the click summoned it"
        )
        log.append("summoned")
        return
    # Monster movement: whatever the action's type ("step" cell by cell or "move" to a cell), it
    # names the figure and the cell it goes to.
    moving = [a for a in legal if isinstance(a.get("figure"), str) and a.get("to")]
    if view["phase"] == "K3" and moving and "stepped" not in log:
        movers = sorted({a["figure"] for a in moving})
        assert move_figure(page, movers[0], legal, 2, artifacts / "dorn-keeper.png") >= 1
        if len(movers) > 1:
            move_figure(page, movers[1], legal, 1)
        log.append("stepped")
        return
    if view["phase"] == "K4" and "attack" in types:
        attack = next(a for a in legal if a["type"] == "attack")
        click_figure(page, attack["figure"])
        click_figure(page, attack["target"])
        wait_seq_above(page, before)
        log.append("declared")
        return
    press(page, "done")
    log.append(f"done {view['phase']}")


def hero_step(page: Any, log: list[str]) -> None:
    """One hero-seat decision by clicking: parries and Blessings in their dialog, moves on the board."""
    seat = due_seat(page)  # (a seat done with a heroes' step may only take it back: it owes nothing)
    state = state_of(page)
    legal, view = state["legal"], state["view"]
    types = {a["type"] for a in legal}
    if view["phase"] == "K4P":
        dialog = page.locator('#prompt-dialog[open] button.action[data-kind="parry"]')
        if dialog.count():
            before = state["seq"]
            dialog.first.click()
            wait_seq_above(page, before)
            log.append(f"{seat} parried")
            return
    if view["phase"] == "H1" and "play_blessing" in types:
        # The Blessing dialog offers the card; this test keeps it for later.
        page.wait_for_selector('#prompt-dialog[open] button.action[data-kind="done"]')
    if view["phase"] == "H2" and "move" in types and f"{seat} moved" not in log:
        hero = sorted({a["hero"] for a in legal if a["type"] == "move"})[0]
        start = view["heroes"][hero]["cell"]
        assert move_figure(page, hero, legal, 1) == 1
        if any(a["type"] == "undo_move" for a in state_of(page)["legal"]):
            # A quiet move is taken back with the picked hero's button (rules/undo.py).
            if selection(page) != f"fig:{hero}":
                click_figure(page, hero)
                page.wait_for_function(f"() => window.__dt.table.selection === 'fig:{hero}'")
            press(page, "undo_move")
            assert state_of(page)["view"]["heroes"][hero]["cell"] == start
            log.append(f"{seat} took a move back")
            # ... and made again: the hero is still picked, its cells lit.
            page.wait_for_function("() => window.__dt.renderer.lit.size > 0")
            before = seq_of(page)
            click_cell(page, min(lit_cells(page), key=lambda c: (c[1], c[0])))
            wait_seq_above(page, before)
            assert state_of(page)["view"]["heroes"][hero]["cell"] != start
        log.append(f"{seat} moved")
        return
    press(page, "done")
    log.append(f"{seat} done {view['phase']}")


def two_hero_seats(page: Any) -> None:
    """The lobby's options form: the seat split of the heroes, over two hero seats."""
    page.select_option("#hero-seat-count", "2")
    split = {
        h: page.locator(f'select.split-seat[data-hero="{h}"]').input_value()
        for h in page.eval_on_selector_all("select.split-seat", "els => els.map(e => e.dataset.hero)")
    }
    assert sorted(set(split.values())) == ["0", "1"], split


def check_board_pixels(page: Any) -> None:
    """Every free cell shows its zone's colour, and every figure is drawn where the view puts it."""
    info = page.evaluate(
        """async () => {
            const m = await import('/js/games/dorn.js');
            const r = window.__dt.renderer;
            const v = window.__dt.table.current.view;
            const busy = new Set(r.figures().map(f => f.cell.join(',')));
            for (const t of v.tokens) busy.add(t.join(','));
            for (const a of Object.values(v.artifacts)) if (a.cell) busy.add(a.cell.join(','));
            for (const s of r.specials) busy.add(s.x + ',' + s.y);
            const cells = [];
            for (let y = 0; y < r.height; y++) for (let x = 0; x < r.width; x++) {
                if (busy.has(x + ',' + y)) continue;
                const zone = r.zoneAt(x, y);
                cells.push({x, y, zone: zone === 'gate' && v.gate_open ? 'floor' : zone, c: r.cellToPixel(x, y)});
            }
            const pos = r.tokenPositions();
            return {
                size: r.cell,
                styles: m.TERRAIN_STYLE,
                cells,
                figures: r.figures().map(f => ({id: f.id, kind: f.kind, cell: f.cell, p: pos.get(f.id), color: r.figureColor(f.id)})),
            };
        }"""
    )
    size = info["size"]
    offsets = ((-0.36, -0.36), (0.36, -0.36), (-0.36, 0.36), (0.36, 0.36), (-0.2, 0.12), (0.28, 0.05))
    seen = set()
    for cell in info["cells"]:
        pts = [{"x": cell["c"]["x"] + dx * size, "y": cell["c"]["y"] + dy * size} for dx, dy in offsets]
        fill = hex_rgb(info["styles"][cell["zone"]]["fill"])
        hits = sum(close(px, fill, 36) for px in canvas_pixels(page, pts))
        assert hits >= 2, f"cell {cell['x']},{cell['y']} ({cell['zone']}) is not drawn in its colour"
        seen.add(cell["zone"])
    assert {
        "wall",
        "floor",
        "trail",
        "argos",
        "crypt",
        "dark_temple",
        "graveyard",
        "black_moor",
        "sewers",
    } <= seen
    assert {"chamber", "throne"} <= seen
    assert info["figures"], "no figure on the board"
    for f in info["figures"]:
        p = f["p"]
        # Inside the token, below its letters: the figure's own colour.
        sample = canvas_pixels(page, [{"x": p["x"] - p["r"] * 0.45, "y": p["y"] + p["r"] * 0.5}])[0]
        assert close(sample, hex_rgb(f["color"]), 40), f"no {f['id']} token at cell {f['cell']}: {sample}"
        # ... and that token sits in the view's cell.
        cx, cy = page.evaluate("([x, y]) => window.__dt.cellToPixel(x, y)", f["cell"]).values()
        assert abs(p["x"] - cx) < size / 2 and abs(p["y"] - cy) < size / 2


def test_dorn_keeper_heroes_and_a_spectator(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    keeper = new_player(browser, rec, scale=2)  # high-DPI canvas
    heroes = new_player(browser, rec)
    watcher = new_player(browser, rec)

    table_id = create_table(
        keeper, server.base_url, "Kim", "dorn", two_hero_seats, shot=artifacts / "dorn-lobby.png"
    )
    table = keeper.evaluate(f"() => fetch('/api/tables/{table_id}').then(r => r.json())")
    assert [s["seat"] for s in table["seats"]] == ["keeper", *HERO_SEATS]
    take_seat(keeper, "keeper", "Kim")

    # One person holds both hero seats (hot-seat).
    heroes.goto(keeper.input_value("#invite-link"))
    for seat in HERO_SEATS:
        take_seat(heroes, seat, "Hana")
    keeper.wait_for_selector("#start-table:not([disabled])")
    keeper.click("#start-table")
    wait_live(keeper)
    wait_live(heroes)
    assert heroes.locator("#seat-tabs button.seat-tab").count() == 2
    assert_high_dpi(keeper, 2)
    assert keeper.locator("section.dice-block").is_hidden()  # Dorn rolls no dice

    # Only the Keeper sees the Ritual hand; each hero seat sees its own Blessing.
    assert "ritual_hand" in state_of(keeper)["view"]
    assert "ritual_hand" not in state_of(heroes)["view"]
    assert keeper.locator(".keeper-card .card-chip.ritual").count() == len(
        state_of(keeper)["view"]["ritual_hand"]
    )
    assert heroes.locator(".blessing-strip").count() == 1

    watcher.goto(f"{server.base_url}/table/{table_id}?watch=1")
    wait_live(watcher)

    log: list[str] = []
    shot = False
    start_k = state_of(keeper)["view"]["k"]
    for _ in range(120):
        # Both browsers (and every held seat) have the latest update before we look at who acts.
        sync_pages(keeper, heroes)
        view = state_of(keeper)["view"]
        if view["k"] > start_k and view["phase"] == "K1" and not view["prompt"]:
            break
        page = next((p for p in (keeper, heroes) if due_seat(p)), None)
        assert page is not None, f"nobody can act: {view['phase']} {log}"
        if page is keeper:
            keeper_step(keeper, log, artifacts)
        else:
            hero_step(heroes, log)
        if "heroes_1 done H1" in log and not shot:
            heroes.screenshot(path=str(artifacts / "dorn-heroes-turn.png"))
            shot = True
    view = state_of(keeper)["view"]
    assert view["k"] == start_k + 1 and view["phase"] == "K1", log
    assert {"summoned", "stepped", "done K1", "done K3"} <= set(log), log
    assert all(f"{s} moved" in log for s in HERO_SEATS), log
    assert any(entry.endswith("took a move back") for entry in log), log
    assert all(any(e.startswith(f"{s} done H3") for e in log) for s in HERO_SEATS), log

    # The spectator sees the same board as the players, and no controls.
    seq = seq_of(keeper)
    watcher.wait_for_function(f"() => window.__dt.table.current.seq === {seq}")
    heroes.wait_for_function(f"() => window.__dt.table.current.seq === {seq}")
    v_k, v_w = state_of(keeper)["view"], state_of(watcher)["view"]
    for key in ("heroes", "monsters", "zorkal", "tokens", "artifacts", "blood", "fill", "k", "day", "phase"):
        if key == "heroes":
            strip = lambda hs: {h: {k: v for k, v in x.items() if k != "cards"} for h, x in hs.items()}  # noqa: E731
            assert strip(v_k[key]) == strip(v_w[key])
        else:
            assert v_k[key] == v_w[key], key
    assert "ritual_hand" not in v_w and "my_blessing" not in v_w
    assert watcher.locator("#controls button.action").count() == 0
    check_board_pixels(watcher)
    check_board_pixels(keeper)

    # The board follows the window and stays pixel-exact.
    check_resize(watcher, {"width": 1100, "height": 800}, check_board_pixels)
    # Board and hero panels both fit a 1440x960 window.
    bottom = watcher.evaluate("() => document.getElementById('hero-panels').getBoundingClientRect().bottom")
    assert bottom <= 960, bottom

    watcher.screenshot(path=str(artifacts / "dorn-spectator.png"))
    heroes.screenshot(path=str(artifacts / "dorn-heroes.png"))
    keeper.screenshot(path=str(artifacts / "dorn-keeper-turn2.png"))

    finish(rec, server.base_url, keeper, heroes, watcher)
