"""Issue 13, point 5, in real Chromium against the real server: Dorn's grid clicks. With Choros
picked, a click on Eleanor (both of this seat, side by side in Argos, where Choros may go) never
moves Choros: it asks whether to pick Eleanor or move Choros there, and "Pick Eleanor" picks
her. A hero of another seat held in the same browser (hot-seat) is never walked onto unasked
either. A click on an empty cell with nothing picked says what to do; an unlisted cell for the
picked hero is sent, and the server's reason is shown. At 1366x768 the board is wide and
readable, with numbered rulers on its edges.

Taking back steps inside one movement needs the engine: Dorn's actions list no undo of a move
(only `take_back_done`), so the client offers none (see the issue 13 report)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import Recorder, click_cell, click_figure, finish, selection, seq_of
from .test_renderer_texts import seat_page, seated_table

pytestmark = pytest.mark.e2e

SPLIT = [["choros", "eleanor"], ["almanor", "gor", "guelin"]]
# The page's own controls (table.js, or the MoveControls it holds): send and select as its buttons do.
CONTROLS = "(window.__dt.table.moves || window.__dt.table)"


def reach_hero_moves(page: Any) -> None:
    """End every step until the heroes' movement: the Keeper's four, then each hero seat's Blessings."""
    for _ in range(12):
        phase = page.evaluate("() => window.__dt.table.current.view.phase")
        if phase == "H2":
            return
        before = seq_of(page)
        page.evaluate(
            """() => {
                const t = window.__dt.table;
                const seat = Object.keys(t.seats).find((s) => t.mustAct(s));
                t.setActiveSeat(seat);
                return (t.moves || t).send({ type: 'done' });
            }"""
        )
        page.wait_for_function(f"() => window.__dt.table.current.seq > {before}")
    raise AssertionError("the heroes' movement never came")


def test_dorn_clicks_pick_own_figures_and_ask(browser: Any, server: Any, artifacts: Path) -> None:
    recorder = Recorder()
    table_id, held = seated_table(
        server.base_url, "dorn", {"split": SPLIT}, {"Ann": ["keeper", "heroes_1", "heroes_2"]}
    )
    page = seat_page(browser, recorder, server.base_url, table_id, *held["Ann"], name="Ann")

    # 1366 x 768: the board takes the width, with cells big enough for 11 px text and rulers on its edges.
    geometry = page.evaluate(
        "() => { const r = window.__dt.renderer; return {w: r.layout.cssWidth, cell: r.cell, wrap: r.canvas.parentElement.clientWidth, rulers: r.layout.rulers()}; }"
    )
    assert geometry["w"] >= 0.85 * geometry["wrap"] and geometry["cell"] >= 26, geometry
    assert [c["n"] for c in geometry["rulers"]["cols"]] == list(range(24))
    assert [r["n"] for r in geometry["rulers"]["rows"]] == list(range(20))

    reach_hero_moves(page)
    page.click('button.seat-tab[data-seat="heroes_1"]')
    view = page.evaluate("() => window.__dt.table.current.view")
    choros, eleanor, almanor = (view["heroes"][h]["cell"] for h in ("choros", "eleanor", "almanor"))
    assert choros[1] == eleanor[1] == almanor[1] == 18, "the heroes start in Argos"

    # Nothing picked: a click on an empty floor cell says what to do.
    click_cell(page, [5, 3])
    page.wait_for_selector("#prompt-dialog[open]")
    assert "Pick a figure first" in page.inner_text("#prompt-dialog h2")
    page.click("#prompt-dialog .dialog-cancel")

    click_figure(page, "choros")
    page.wait_for_function("() => window.__dt.table.selection === 'fig:choros'")
    lit = page.evaluate("() => [...window.__dt.renderer.lit.keys()]")
    assert f"{eleanor[0]},{eleanor[1]}" in lit, "Choros may go to Eleanor's cell"

    # Eleanor is this seat's too: the click asks, it moves nobody.
    before = seq_of(page)
    click_figure(page, "eleanor")
    page.wait_for_selector("#prompt-dialog[open]")
    assert selection(page) == f"ask:choros|eleanor|{eleanor[0]},{eleanor[1]}"
    dialog = page.inner_text("#prompt-dialog")
    assert "pick Eleanor or move Choros there?" in dialog, dialog
    page.screenshot(path=str(artifacts / "clicks-ask.png"))
    assert seq_of(page) == before
    page.click('#prompt-dialog button:text-is("Pick Eleanor")')
    page.wait_for_function("() => window.__dt.table.selection === 'fig:eleanor'")
    assert not page.locator("#prompt-dialog[open]").count()

    # Back to Choros through the question, then a hero of the other seat (hot-seat): still asked.
    click_figure(page, "choros")
    page.wait_for_selector('#prompt-dialog[open] button:text-is("Pick Choros")')
    page.click('#prompt-dialog button:text-is("Pick Choros")')
    page.wait_for_function("() => window.__dt.table.selection === 'fig:choros'")
    click_figure(page, "almanor")
    page.wait_for_selector("#prompt-dialog[open]")
    dialog = page.inner_text("#prompt-dialog")
    assert "played from another seat" in dialog and "Pick Almanor" not in dialog, dialog
    assert seq_of(page) == before

    # Moving there is one of the answers, and it moves Choros.
    page.click('#prompt-dialog button.action[data-kind="move"]')
    page.wait_for_function(f"() => window.__dt.table.current.seq > {before}")
    assert page.evaluate("() => window.__dt.table.current.view.heroes.choros.cell") == almanor

    # An unlisted cell for the picked hero is asked of the server, which says why not.
    page.evaluate("() => { const t = window.__dt.table; (t.moves || t).select('fig:eleanor'); }")
    before = seq_of(page)
    click_cell(page, [0, 0])
    page.wait_for_selector("#action-message[data-kind=error]")
    assert page.inner_text("#action-message").strip()
    assert seq_of(page) == before
    finish(recorder, server.base_url, page)
