"""Issue 13, point 9: every page's text reaches WCAG AA contrast (4.5:1, 3:1 for large text),
checked by axe-core's own rules run in the page (tests/e2e/vendor/axe.min.js, injected inline,
never served to players): the lobby with its lists at both sizes, the waiting room, a page that
cannot open, the replay and a finished table; a live Dorasure table with a refusal and the
Rules panel open, and its spectator; a live Dorn table, also on a small screen with each of its
tabs. Also checked on every page: buttons, links and form fields have names, and ARIA
attributes are valid. And the live region names the turn and the actions."""

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


class Audit:
    """axe's findings page by page; the test fails with all of them at once."""

    def __init__(self, artifacts: Path) -> None:
        self.artifacts = artifacts
        self.found: dict[str, list[str]] = {}

    def check(self, page: Any, name: str) -> None:
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.add_script_tag(content=AXE)
        # Toasts fade in and out, buttons ease their colours: check what has settled.
        page.wait_for_function("() => !document.querySelector('.toast')", timeout=10000)
        page.wait_for_timeout(250)
        result = page.evaluate(
            "(rules) => axe.run(document, {runOnly: {type: 'rule', values: rules}})", RULES
        )
        # A check that looked at nothing proves nothing: some text was measured, and passed.
        measured = sum(len(p["nodes"]) for p in result["passes"] if p["id"] == "color-contrast")
        assert measured >= 3, f"{name}: axe measured {measured} texts"
        (self.artifacts / f"axe-{name}.json").write_text(
            json.dumps(result["violations"], indent=1), encoding="utf-8"
        )
        self.found[name] = [
            f"{v['id']}: {' '.join(n['target'])}: {n['failureSummary'].splitlines()[-1].strip()}"
            for v in result["violations"]
            for n in v["nodes"]
        ]

    def assert_clean(self, pages: int) -> None:
        bad = {name: lines for name, lines in self.found.items() if lines}
        assert not bad, json.dumps(bad, indent=1)
        assert len(self.found) == pages


def test_lobby_waiting_room_replay_and_errors(browser, server, artifacts: Path) -> None:
    audit = Audit(artifacts)
    race_id, race_tokens, api = api_table(server.base_url, "toy", {"players": 2, "target": 3})
    play_ws(server, race_id, race_tokens, 200)
    waiting = api.create_table("toy", {"players": 2})

    rec = Recorder()
    page = new_player(browser, rec)
    hold_seats(page, server.base_url, api, race_id, race_tokens)  # (the browser is the player of both)
    page.wait_for_selector("#open-replay")
    audit.check(page, "finished-table")
    page.goto(server.base_url + "/")
    page.wait_for_selector("#your-tables article.table-row")
    page.wait_for_selector("#recent-games article.table-row")
    page.select_option("#game-select", "dorn")
    audit.check(page, "lobby")
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#game-select", "dorasure")
    audit.check(page, "lobby-phone")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{server.base_url}/table/{waiting['id']}")
    page.wait_for_selector("#invite-link")
    audit.check(page, "waiting-room")
    page.goto(f"{server.base_url}/table/no-such-table")
    page.wait_for_selector("section.card.waiting .error")
    audit.check(page, "not-found")
    page.goto(f"{server.base_url}/replay/{race_id}")
    page.wait_for_selector("#replay-slider")
    page.click("#replay-last")
    audit.check(page, "replay")
    audit.assert_clean(6)
    finish(rec, server.base_url, page)


def test_dorasure_table_rules_panel_and_spectator(browser, server, artifacts: Path) -> None:
    audit = Audit(artifacts)
    table_id, tokens, api = api_table(server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]})
    play_ws(server, table_id, tokens, 12)

    rec = Recorder()
    page = new_player(browser, rec)
    hold_seats(page, server.base_url, api, table_id, tokens)
    page.wait_for_function("() => document.querySelectorAll('#log .log-group').length > 3")
    audit.check(page, "dorasure-player")
    # A refusal whatever the random table dealt: a hero in a village may rest and one on the
    # plains may adventure, but never both, so the one not offered is refused with its rule.
    page.evaluate(
        "() => { const moves = window.__dt.table.moves;"
        " const offered = new Set(moves.legal().map(a => a.type));"
        " moves.send({type: offered.has('rest') ? 'adventure' : 'rest'}); }"
    )
    page.wait_for_selector("#action-message .rules-link")
    page.click("#action-message .rules-link")
    page.fill("#rules-search", "dragon")
    audit.check(page, "rules-panel")

    watcher = new_player(browser, rec)
    watcher.goto(f"{server.base_url}/table/{table_id}?watch=1")
    wait_live(watcher)
    audit.check(watcher, "dorasure-spectator")
    audit.assert_clean(3)
    finish(rec, server.base_url, page, watcher)


def test_dorn_table_at_both_sizes(browser, server, artifacts: Path) -> None:
    audit = Audit(artifacts)
    table_id, tokens, api = api_table(server.base_url, "dorn", {})

    rec = Recorder()
    page = new_player(browser, rec)
    hold_seats(page, server.base_url, api, table_id, tokens)
    audit.check(page, "dorn-keeper")
    # The live region names the Keeper's turn and what he may do now, as the buttons do.
    said, labels = page.evaluate(
        "() => [document.getElementById('announcer').textContent,"
        " window.__dt.table.moves.legal().map(a => window.__dt.renderer.actionLabel(a))]"
    )
    assert said.startswith("Your turn as Zorkal") and labels and all(label in said for label in labels[:3]), (
        said
    )

    page.set_viewport_size({"width": 390, "height": 844})
    for tab in ("heroes", "log", "chat"):
        page.click(f"#tab-{tab}")
        audit.check(page, f"phone-{tab}")
    audit.assert_clean(4)
    finish(rec, server.base_url, page)
