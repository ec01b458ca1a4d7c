"""Issue 14.1 and 13.5 for Dorasure in real Chromium against the real server: every button of
an action that rolls shows its exact odds ("adventure succeeds: 42.1 %"), the very number the
engine computes from that seat's view, with every outcome's exact fraction in its tooltip;
a step of a movement is taken back with "Take back the last step"; on a phone the Rampaging
Meter is a strip of readable cells."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from backend.games.dorasure.game import GAME

from .helpers import Recorder, api_table, due_seat, finish, hold_seats, seq_of, state_of, wait_seq_above
from .test_dorasure_table import click_space

pytestmark = pytest.mark.e2e

ROLLING = ("adventure", "quest", "spend", "tune", "reroll", "poison", "absorb")


def percent(value: float) -> str:
    return f"{value * 100:.1f} %"


def buttons(page: Any) -> list[dict[str, Any]]:
    """Every action button on the page (the action bar and an open dialog): action, text, title."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#controls button.action, #prompt-dialog[open] button.action')]
            .filter(b => b.dataset.action).map(b => ({action: JSON.parse(b.dataset.action), text: b.textContent, title: b.title}))"""
    )


def check_odds_shown(page: Any) -> int:
    """Each button of a listed action that rolls shows the engine's key odds; returns how many."""
    state = state_of(page)
    seat = due_seat(page)
    shown = 0
    for b in buttons(page):
        engine = GAME.odds(state["view"], seat, b["action"])
        if engine is None:
            assert " %" not in b["text"], b
            continue
        key = engine["key"]
        assert f"{key['label']}: {percent(key['value'])}" in b["text"], (b, key)
        for o in engine["outcomes"]:
            assert f"{o['label']}: {percent(o['value'])} ({o['p']})" in b["title"], (b, o)
        shown += 1
    return shown


def click_action(page: Any, action: dict[str, Any]) -> None:
    before = seq_of(page)
    sel = json.dumps(json.dumps(action, separators=(",", ":"), ensure_ascii=False))
    page.locator(
        f"#controls button.action[data-action={sel}], #prompt-dialog[open] button.action[data-action={sel}]"
    ).first.click()
    wait_seq_above(page, before)


def step_and_take_back(page: Any) -> bool:
    """Pick a die, click a lit hex (one step), then take the step back from the action bar."""
    state = state_of(page)
    steps = [a for a in state["legal"] if a["type"] == "step"]
    if not steps:
        return False
    seat = due_seat(page)
    start = next(h for h in state["view"]["heroes"] if h["id"] == seat)["pos"]
    dice = sorted(state["view"]["movement"]["dice"])
    step = steps[0]
    page.click(f'#controls button.action[data-kind="die"]:text-is("{step["die"]}")')
    before = seq_of(page)
    click_space(page, step["to"])
    wait_seq_above(page, before)
    after = state_of(page)
    if {"type": "undo_step"} not in after["legal"]:
        return False  # that space made the step final (a Fang land), nothing to take back
    assert (
        page.locator('#controls button.action[data-kind="undo_step"]').inner_text()
        == "Take back the last step"
    )
    click_action(page, {"type": "undo_step"})
    back = state_of(page)
    assert next(h for h in back["view"]["heroes"] if h["id"] == seat)["pos"] == start
    assert sorted(back["view"]["movement"]["dice"]) == dice and back["view"]["movement"]["steps"] == 0
    assert {"type": "undo_step"} not in back["legal"]
    assert "takes back the step" in page.locator("#log").inner_text()
    return True


def advance(page: Any) -> None:
    """One listed action towards a roll: walk to a plains or forest space, then adventure."""
    state = state_of(page)
    legal = state["legal"]
    by_type = {a["type"]: a for a in legal}
    for t in ("adventure", "quest"):
        if t in by_type:
            click_action(page, by_type[t])
            return
    moves = [a for a in legal if a["type"] == "move"]
    wild = [a for a in moves if a["to"].startswith(("p", "f"))]
    if wild or moves:
        before = seq_of(page)
        click_space(page, (wild or moves)[0]["to"])
        wait_seq_above(page, before)
        return
    for t in ("spend", "pass", "end_move", "end_turn", "decline", "absorb"):
        if t in by_type:
            click_action(page, by_type[t])
            return
    click_action(page, legal[0])


def test_odds_beside_each_action_that_rolls_and_a_step_taken_back(browser, server, artifacts: Path) -> None:
    table_id, tokens, api = api_table(server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]})
    rec = Recorder()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    rec.attach(context)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    hold_seats(page, server.base_url, api, table_id, tokens)

    undone = False
    shown: dict[str, int] = {}
    for _ in range(80):
        page.wait_for_function(
            "() => window.__dt.table.current && window.__dt.table.mustAct(window.__dt.table.activeSeat)"
        )
        if not undone:
            undone = step_and_take_back(page)
        n = check_odds_shown(page)
        if n:
            kinds = {
                b["action"]["type"]
                for b in buttons(page)
                if GAME.odds(state_of(page)["view"], due_seat(page), b["action"])
            }
            for k in kinds:
                shown[k] = shown.get(k, 0) + 1
            if "adventure" in kinds and "adventure" not in artifacts.name:
                page.screenshot(path=str(artifacts / "dorasure-odds.png"))
        if undone and {"adventure", "spend"} <= set(shown):
            break
        advance(page)
    assert undone, "no movement offered a step to take back"
    assert "adventure" in shown, shown
    assert "spend" in shown, shown
    # On a quiet loopback connection every update's patch fits the view it was made against.
    resyncs = page.evaluate("() => [...window.__dt.table.connections.values()].map((c) => c.resyncs)")
    assert sum(resyncs) == 0, resyncs
    assert not page.js_errors, page.js_errors
    finish(rec, server.base_url, page)


def test_the_meter_is_readable_on_a_phone(browser, server, artifacts: Path) -> None:
    table_id, tokens, api = api_table(server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]})
    rec = Recorder()
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    rec.attach(context)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    hold_seats(page, server.base_url, api, table_id, tokens)
    strip = page.locator(".dragon-strip")
    assert strip.is_visible()
    cells = page.evaluate(
        "() => [...document.querySelectorAll('.dragon-strip .meter-cell')].map(c => c.getBoundingClientRect().toJSON())"
    )
    meter = state_of(page)["view"]["meter"]
    assert len(cells) == 15
    assert min(c["width"] for c in cells) >= 18 and min(c["height"] for c in cells) >= 18, cells
    assert max(c["right"] for c in cells) <= 390
    assert page.locator(".dragon-strip .meter-cell.here").inner_text() == str(meter)
    page.screenshot(path=str(artifacts / "phone-dorasure-meter.png"))
    # Wide screens keep the meter on the map only.
    page.set_viewport_size({"width": 1366, "height": 768})
    assert not strip.is_visible()
    assert not page.js_errors, page.js_errors
    finish(rec, server.base_url, page)
