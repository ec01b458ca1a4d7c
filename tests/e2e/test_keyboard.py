"""Issue 13, point 9, in real Chromium: one person plays a whole Dorasure turn on a live table
with nothing but the keyboard (page.keyboard). The board takes the focus with Tab; arrow keys
walk its cursor, Tab jumps to the lit hexes and, once every one was offered, leaves the board
for the buttons; Enter on a lit hex moves the hero (the path a click takes). The page's live
region names the targets after each update and the cursor's place after each key, and the
tooltip stands at the cursor. The page is only read here, never driven by script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import Recorder, finish, seq_of
from .test_renderer_texts import dorasure_opening_with_a_move

pytestmark = pytest.mark.e2e

SAID = "() => document.getElementById('announcer').textContent"


def tab_to(page: Any, selector: str, presses: int = 150) -> None:
    """Press Tab until the focused element matches `selector`."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement && document.activeElement.matches(sel)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def said_after(page: Any, key: str, needle: str) -> str:
    """Press `key` and wait for the live region to say `needle`; what it says."""
    page.keyboard.press(key)
    page.wait_for_function(f"() => ({SAID})().includes({needle!r})")
    return page.evaluate(SAID)


def test_a_dorasure_turn_by_keyboard_alone(browser: Any, server: Any, artifacts: Path) -> None:
    recorder = Recorder()

    def tab_to_the_seat(page: Any, hero: str) -> None:
        # Ann holds both heroes: the seat tab of the one on turn, reached and pressed from the keyboard.
        tab_to(page, f'button.seat-tab[data-seat="{hero}"]')
        page.keyboard.press("Enter")

    page, hero, legal = dorasure_opening_with_a_move(browser, recorder, server.base_url, tab_to_the_seat)
    reachable = {a["to"] for a in legal if a["type"] == "move"}

    # The live region names the lit hexes: the board's targets, by name.
    page.wait_for_function(f"() => ({SAID})().includes('lit hex')")
    said = page.evaluate(SAID)
    assert said.startswith("Your turn as") and f"{len(reachable)} lit hex" in said, said

    # The board is reached with Tab and says how it is played.
    tab_to(page, "#board")
    label = page.get_attribute("#board", "aria-label") or ""
    assert "Arrow keys" in label and "Enter" in label, label

    # Arrows put the cursor on the hero's hex and walk the map; each step is said, the tooltip follows.
    first = said_after(page, "ArrowRight", "Enter")
    assert "Here: " in first, first
    east = said_after(page, "ArrowRight", "Enter")
    assert east != first
    tip = page.evaluate(
        """() => { const tip = document.querySelector('.board-tip'); const at = window.__dt.renderer.cursorPixel();
                   const c = document.getElementById('board').getBoundingClientRect(), b = tip.getBoundingClientRect();
                   return { hidden: tip.hidden, dx: b.left - c.left - at.x, dy: b.top - c.top - at.y }; }"""
    )
    assert not tip["hidden"] and 0 < tip["dx"] < 40 and 0 < tip["dy"] < 40, tip

    # Tab (the board keeps the focus) jumps to a lit hex; Enter moves the hero there.
    words = said_after(page, "Tab", "Enter: Move to ")
    assert page.evaluate("() => document.activeElement.id") == "board"
    target = page.evaluate(
        "() => window.__dt.renderer.cursorAct(window.__dt.table.moves.legal(), { selection: window.__dt.table.selection })"
    )
    assert target in legal and target["type"] == "move", (target, words)
    page.screenshot(path=str(artifacts / "keyboard-board.png"))
    before = seq_of(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__dt.table.current.seq > {before}")
    pos = next(h for h in page.evaluate("() => window.__dt.table.current.view.heroes") if h["id"] == hero)[
        "pos"
    ]
    assert pos == target["to"]

    # The rest of the turn: Tab leaves the board once its targets were offered, Enter presses a button.
    for _ in range(12):
        view = page.evaluate("() => window.__dt.table.current.view")
        if view["current"] != hero or view["outcome"]:
            break
        if page.evaluate("() => window.__dt.table.activeSeat") != hero:
            tab_to(page, f'button.seat-tab[data-seat="{hero}"]')
            page.keyboard.press("Enter")
        kinds = page.evaluate(
            "() => [...document.querySelectorAll('#prompt-dialog[open] button.action, #controls button.action')]"
            ".map((b) => b.dataset.kind)"
        )
        kind = next(
            (k for k in ("end_turn", "rest", "pass", "decline", "spend", "absorb", "end_move") if k in kinds),
            kinds[0] if kinds else None,
        )
        assert kind, "no button to press"
        before = seq_of(page)
        tab_to(page, f'button.action[data-kind="{kind}"]')
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => window.__dt.table.current.seq > {before}")
    assert page.evaluate("() => window.__dt.table.current.view.current") != hero, "the turn passed on"
    finish(recorder, server.base_url, page)
