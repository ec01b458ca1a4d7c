"""Issue 13, point 8: the lobby remembers. "Your tables" lists this browser's tables whatever
their status or visibility (a finished one with its replay, a live one whose seat tokens this
browser lost, which it can take back); "Recent games" lists finished public games and their
replays; the public list shows neither unlisted nor finished tables. The hero count's limits
are the options schema's, in the label and in the form's own check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server_fixtures import Api

from .helpers import Recorder, create_table, finish, new_player, play_ws, take_seat, wait_live

pytestmark = pytest.mark.e2e


def short_race(page: Any) -> None:
    page.fill('input[data-option="players"]', "2")
    page.fill('input[data-option="target"]', "3")


def row(page: Any, card: str, table_id: str) -> Any:
    return page.locator(f'#{card} article.table-row[data-table="{table_id}"]')


def test_your_tables_recent_games_and_the_hero_count(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    page = new_player(browser, rec)

    # A short race made in the lobby and played to its end.
    finished_id = create_table(page, server.base_url, "Alice", "toy", short_race)
    take_seat(page, "p1", "Alice")
    take_seat(page, "p2", "Alice")
    page.click("#start-table")
    wait_live(page)
    tokens = page.evaluate(f"() => JSON.parse(localStorage.getItem('dragontable.seats.{finished_id}'))")
    play_ws(server, finished_id, tokens, 200)
    page.wait_for_selector("#open-replay")

    # An unlisted game of the same player, joined from elsewhere (this browser holds no token of it).
    me = page.evaluate("() => JSON.parse(localStorage.getItem('dragontable.player'))")
    auth = {"Authorization": f"Bearer {me['player_token']}"}
    with httpx.Client(base_url=server.base_url, headers=auth) as http:
        made = http.post(
            "/api/tables",
            json={"game": "dorasure", "options": {"heroes": ["ninja", "hunter"]}, "visibility": "unlisted"},
        )
        unlisted_id = made.json()["id"]
        for seat in ("ninja", "hunter"):
            http.post(f"/api/tables/{unlisted_id}/join", json={"seat": seat}).raise_for_status()
        http.post(f"/api/tables/{unlisted_id}/start").raise_for_status()
    # Someone else's open public table.
    bob = Api(server.base_url, "Bob")
    open_id = bob.create_table("toy", {"players": 2})["id"]

    page.goto(server.base_url + "/")
    page.wait_for_selector(f'#your-tables article.table-row[data-table="{finished_id}"]')
    done = row(page, "your-tables", finished_id)
    assert done.get_attribute("data-status") == "finished"
    assert done.locator("a.open-replay").get_attribute("href") == f"/replay/{finished_id}"
    mine = row(page, "your-tables", unlisted_id)
    mine.wait_for()
    assert "unlisted" in mine.inner_text() and mine.locator("button.take-back").count() == 1
    assert row(page, "your-tables", open_id).count() == 0

    page.wait_for_selector(f'#open-tables article.table-row[data-table="{open_id}"]')
    assert row(page, "open-tables", open_id).locator("a:has-text('Join')").count() == 1
    assert row(page, "open-tables", unlisted_id).count() == 0
    assert row(page, "open-tables", finished_id).count() == 0
    recent = row(page, "recent", finished_id)
    recent.wait_for()
    page.screenshot(path=str(artifacts / "lobby-lists.png"), full_page=True)

    # The replay of a finished game is one click from the lobby.
    recent.locator("a.open-replay").click()
    page.wait_for_url(f"**/replay/{finished_id}")
    page.wait_for_selector("#replay-slider")

    # A lost seat token: the lobby takes the seats back and the table resumes them.
    page.goto(server.base_url + "/")
    row(page, "your-tables", unlisted_id).locator("button.take-back").click()
    page.wait_for_url(f"**/table/{unlisted_id}")
    wait_live(page)
    assert page.locator("#seat-tabs button.seat-tab").count() == 2

    # The hero count: the label's limits are the schema's, and so is the form's check.
    page.goto(server.base_url + "/")
    page.select_option("#game-select", "dorasure")
    schema = next(
        g for g in page.evaluate("() => fetch('/api/games').then(r => r.json())") if g["name"] == "dorasure"
    )
    heroes = schema["options_schema"]["properties"]["heroes"]
    limits = f"({heroes['minItems']} to {heroes['maxItems']})"
    legend = page.locator('fieldset[data-option="heroes"] legend')
    assert limits in legend.inner_text() and "2 chosen" in legend.inner_text()
    for box in page.locator('input[data-option="heroes"]').all():
        if box.is_checked():
            box.uncheck()
    assert "0 chosen" in legend.inner_text()
    page.click("#create-table")
    assert f"choose {heroes['minItems']} to {heroes['maxItems']}" in page.inner_text("#create-form .error")
    assert page.url.rstrip("/") == server.base_url
    finish(rec, server.base_url, page)
