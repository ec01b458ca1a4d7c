"""Issue 14.2 in the browser: a refusal names the rule that forbids it, and its link opens the
Rules panel at that rule.

On a live Dorn table an action the rules refuse is sent through the page's own connection (the
board never offers it); the refusal shows the rule as the server cited it (backend/games/dorn/
data/refusals.json), the link is a button reached and pressed from the keyboard, the panel opens
scrolled to that section, highlighted and naming the rule, and Escape gives the focus back.
On a phone the same link is tapped on a Dorasure table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backend.engine import rulerefs
from backend.engine.registry import get_game

from .helpers import Recorder, api_table, finish, hold_seats, new_player
from .test_phone import phone

pytestmark = pytest.mark.e2e


def cited_name(rule: dict[str, str]) -> str:
    """How the page names a rule (rules.js ``citation``)."""
    return rule["ref"] if rule["ref"] == f"Rulebook: {rule['title']}" else f"{rule['ref']}: {rule['title']}"


def refuse(page: Any, game: str, action: dict[str, Any]) -> tuple[str, dict[str, str], Any]:
    """Send ``action`` as the page's active seat; the refusal's code, its rule, and its link."""
    page.evaluate("(a) => window.__dt.table.moves.send(a)", action)
    link = page.locator("#action-message .rules-link")
    link.wait_for()
    code = page.get_attribute("#action-message", "data-code")
    assert code in rulerefs.game_refs(get_game(game)), code  # a rule of the game, not of the table
    rule = rulerefs.refusal_rule(get_game(game), code)
    assert rule is not None
    assert link.inner_text().strip() == cited_name(rule)
    assert link.get_attribute("data-section") == rule["section"]
    assert link.get_attribute("data-ref") == rule["ref"]
    return code, rule, link


def check_open_at(page: Any, rule: dict[str, str]) -> None:
    panel = page.locator("#rules-panel")
    panel.wait_for(state="visible")
    focused = page.locator(f'#rules-panel .rules-section.focus[data-section="{rule["section"]}"]')
    assert focused.count() == 1
    assert page.locator("#rules-panel .rules-section.focus").count() == 1  # only that one is lit
    assert cited_name(rule) in focused.locator(".rules-cite").inner_text()
    assert page.evaluate("() => document.activeElement.dataset.section") == rule["section"]
    box, shown = panel.bounding_box(), focused.bounding_box()
    assert box and shown and box["y"] <= shown["y"] < box["y"] + box["height"], (box, shown)


def test_a_dorn_refusal_opens_the_rules_at_its_rule_from_the_keyboard(
    browser, server, artifacts: Path
) -> None:
    table_id, tokens, api = api_table(server.base_url, "dorn", {})
    rec = Recorder()
    page = new_player(browser, rec)
    hold_seats(page, server.base_url, api, table_id, tokens)

    # No figure called "nobody" attacks anyone: the rules refuse it, whichever seat is active.
    _code, rule, link = refuse(page, "dorn", {"type": "attack", "figure": "nobody", "target": "nobody"})
    link.focus()
    page.keyboard.press("Enter")
    check_open_at(page, rule)
    page.screenshot(path=str(artifacts / "refusal-rule-dorn.png"))
    page.keyboard.press("Escape")
    page.locator("#rules-panel").wait_for(state="hidden")
    assert page.evaluate("() => document.activeElement.classList.contains('rules-link')")

    # The top bar's button still opens the whole panel, with no rule named in it.
    page.click("#open-rules")
    page.locator("#rules-panel").wait_for(state="visible")
    assert page.locator("#rules-panel .rules-cite").count() == 0
    finish(rec, server.base_url, page)


def test_a_dorasure_refusal_on_a_phone_opens_the_rules_at_its_rule(browser, server, artifacts: Path) -> None:
    table_id, tokens, api = api_table(server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]})
    rec = Recorder()
    page = phone(browser, rec)
    hold_seats(page, server.base_url, api, table_id, tokens)

    # Resting is not an answer to the first decision of a turn (the roll's reaction, or the move).
    _code, rule, link = refuse(page, "dorasure", {"type": "rest"})
    link.scroll_into_view_if_needed()
    link.tap()
    check_open_at(page, rule)
    width = page.evaluate("() => document.documentElement.clientWidth")
    panel = page.locator("#rules-panel").bounding_box()
    assert panel and panel["x"] >= 0 and panel["x"] + panel["width"] <= width + 1, (panel, width)
    page.screenshot(path=str(artifacts / "refusal-rule-phone.png"))
    finish(rec, server.base_url, page)
