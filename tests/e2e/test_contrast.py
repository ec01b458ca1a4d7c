"""Issue 13, point 9: every page's text reaches WCAG AA contrast (4.5:1, 3:1 for large text),
checked by axe-core's own rules run in the page (tests/e2e/vendor/axe.min.js, injected inline,
never served to players): the lobby with its lists, the waiting room, a live Dorasure table
with a refusal and the Rules panel open, a spectator, a live Dorn table, the replay, a page
that cannot open, and the small-screen table with each of its tabs. Also checked on every
page: buttons and form fields have names, and ARIA attributes are valid."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO
from .helpers import Recorder, api_table, finish, hold_seats, new_player, play_ws, wait_live

pytestmark = pytest.mark.e2e

AXE = (REPO / "tests" / "e2e" / "vendor" / "axe.min.js").read_text(encoding="utf-8")
RULES = [
    "color-contrast",
    "button-name",
    "label",
    "link-name",
    "aria-valid-attr",
    "aria-valid-attr-value",
    "aria-allowed-attr",
]


def violations(page: Any, name: str, artifacts: Path) -> list[str]:
    """axe's findings on what the page shows now, one line each ("rule: element: why")."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE)
    # Toasts fade in and out: wait until none is fading, so the check reads settled colours.
    page.wait_for_function("() => !document.querySelector('.toast')", timeout=10000)
    page.wait_for_timeout(250)  # and buttons past their .12 s colour transition
    result = page.evaluate(
        "(rules) => axe.run(document, {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']})",
        RULES,
    )
    (artifacts / f"axe-{name}.json").write_text(json.dumps(result["violations"], indent=1), encoding="utf-8")
    out = []
    for v in result["violations"]:
        for node in v["nodes"]:
            out.append(
                f"{v['id']}: {' '.join(node['target'])}: {node['failureSummary'].splitlines()[-1].strip()}"
            )
    return out


def check(page: Any, name: str, artifacts: Path, found: dict[str, list[str]]) -> None:
    found[name] = violations(page, name, artifacts)


def test_every_page_reaches_wcag_aa(browser, server, artifacts: Path) -> None:
    found: dict[str, list[str]] = {}
    rec = Recorder()

    # A finished game (for the lists and the replay) and a live one of each board game.
    race_id, race_tokens, race_api = api_table(server.base_url, "toy", {"players": 2, "target": 3})
    play_ws(server, race_id, race_tokens, 200)
    dora_id, dora_tokens, api = api_table(server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]})
    play_ws(server, dora_id, dora_tokens, 12)
    dorn_id, dorn_tokens, dorn_api = api_table(server.base_url, "dorn", {})

    page = new_player(browser, rec)
    hold_seats(page, server.base_url, api, dora_id, dora_tokens)
    page.wait_for_function("() => document.querySelectorAll('#log .log-group').length > 3")
    check(page, "dorasure-player", artifacts, found)
    page.evaluate("() => window.__dt.table.moves.send({type: 'rest'})")
    page.wait_for_selector("#action-message .rules-link")
    page.click("#action-message .rules-link")
    page.fill("#rules-search", "dragon")
    check(page, "rules-panel", artifacts, found)
    page.keyboard.press("Escape")

    page.goto(server.base_url + "/")
    page.wait_for_selector("#your-tables article.table-row")
    page.select_option("#game-select", "dorn")
    check(page, "lobby", artifacts, found)
    page.set_viewport_size({"width": 390, "height": 844})
    check(page, "lobby-phone", artifacts, found)
    page.set_viewport_size({"width": 1366, "height": 768})

    # A waiting room, and a page that cannot open.
    waiting = api.create_table("toy", {"players": 2})
    page.goto(f"{server.base_url}/table/{waiting['id']}")
    page.wait_for_selector("#invite-link")
    check(page, "waiting-room", artifacts, found)
    page.goto(f"{server.base_url}/table/no-such-table")
    page.wait_for_selector("section.card.waiting .error")
    check(page, "not-found", artifacts, found)

    watcher = new_player(browser, rec)
    watcher.goto(f"{server.base_url}/table/{dora_id}?watch=1")
    wait_live(watcher)
    check(watcher, "dorasure-spectator", artifacts, found)
    hold_seats(watcher, server.base_url, dorn_api, dorn_id, dorn_tokens)
    check(watcher, "dorn-keeper", artifacts, found)
    # The live region names the Keeper's turn and what he may do now, as the buttons do.
    said, labels = watcher.evaluate(
        "() => [document.getElementById('announcer').textContent,"
        " window.__dt.table.moves.legal().map(a => window.__dt.renderer.actionLabel(a))]"
    )
    assert said.startswith("Your turn as Zorkal") and labels and all(label in said for label in labels[:3]), (
        said
    )
    watcher.goto(f"{server.base_url}/replay/{race_id}")
    watcher.wait_for_selector("#replay-slider")
    watcher.click("#replay-last")
    check(watcher, "replay", artifacts, found)
    watcher.goto(f"{server.base_url}/table/{race_id}")
    watcher.wait_for_selector("#open-replay")
    check(watcher, "finished-table", artifacts, found)

    # The small-screen table, every tab.
    watcher.set_viewport_size({"width": 390, "height": 844})
    watcher.goto(f"{server.base_url}/table/{dorn_id}")
    wait_live(watcher)
    for tab in ("heroes", "log", "chat"):
        watcher.click(f"#tab-{tab}")
        check(watcher, f"phone-{tab}", artifacts, found)

    bad = {name: lines for name, lines in found.items() if lines}
    assert not bad, json.dumps(bad, indent=1)
    assert len(found) >= 12
    finish(rec, server.base_url, page, watcher)
