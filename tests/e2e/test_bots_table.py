"""Issue 12 in real Chromium: one person starts a Dorasure table with two bots from the lobby
(the waiting room's level picker on each free seat), plays a turn by clicking, and the bots,
played by the server's bot runner over the public protocol, play theirs until the person's
hero is due again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server_fixtures import ServerProcess

from .helpers import Recorder, create_table, due_seat, finish, new_player, seq_of, take_seat, wait_live
from .test_dorasure_table import choose_heroes, play_one

pytestmark = pytest.mark.e2e

HEROES = ["ninja", "hunter", "paladin"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, artifacts: Path) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("e2e_bots")
    env = {"DRAGONTABLE_BOT_RUNNERS": "1"}
    srv = ServerProcess(
        f"sqlite:///{tmp / 'e2e.db'}", log_path=artifacts / "e2e-bots-server.log", env=env
    ).start()
    yield srv
    srv.stop()


@pytest.mark.timeout(240)
def test_one_person_and_two_bots_from_the_lobby(browser, server: ServerProcess, artifacts: Path) -> None:
    recorder = Recorder()
    page = new_player(browser, recorder)
    create_table(page, server.base_url, "Hana", "dorasure", lambda p: choose_heroes(p, HEROES))
    take_seat(page, "ninja", "Hana")
    # Two bots: one from a free seat's own picker, the rest with "Fill free seats with bots".
    page.select_option("#bot-level-hunter", "strong")
    page.click('button.add-bot[data-seat="hunter"]')
    page.wait_for_selector('.seat-row.bot[data-seat="hunter"] .badge-bot')
    page.select_option("#fill-level", "steady")
    page.click("#fill-bots")
    page.wait_for_selector('.seat-row.bot[data-seat="paladin"]')
    rows = {seat: page.locator(f'.seat-row[data-seat="{seat}"]').inner_text() for seat in HEROES}
    assert "Strong bot" in rows["hunter"] and "STRONG BOT" in rows["hunter"].upper()
    assert "Steady bot" in rows["paladin"] and "Hana" in rows["ninja"]
    # A bot can be taken off again before the start, and put back.
    page.click('.seat-row[data-seat="paladin"] button.remove-bot')
    page.wait_for_selector('.seat-row[data-seat="paladin"] button.take-seat')
    page.click('button.add-bot[data-seat="paladin"]')
    page.wait_for_selector('.seat-row.bot[data-seat="paladin"]')
    page.screenshot(path=str(artifacts / "bots-waiting-room.png"))
    page.click("#start-table")
    wait_live(page)

    # The Ninja moves first: play the turn by clicking, until the turn is someone else's.
    page.wait_for_function(
        "() => { const t = window.__dt.table; return t.mustAct(t.activeSeat); }", timeout=60000
    )
    assert due_seat(page) == "ninja"
    turn_moves: dict[str, int] = {}
    done = []
    for _ in range(40):
        if due_seat(page) != "ninja":
            break
        done.append(play_one(page, turn_moves))
    assert done and due_seat(page) != "ninja", done
    after_mine = seq_of(page)
    # The bots play the Hunter's and the Paladin's turns; the Ninja is due again.
    page.wait_for_function(
        f"() => {{ const t = window.__dt.table; return t.current.seq > {after_mine} && t.mustAct('ninja'); }}",
        timeout=120000,
    )
    view = page.evaluate("() => window.__dt.table.current.view")
    assert view is not None
    page.screenshot(path=str(artifacts / "bots-table.png"))
    finish(recorder, server.base_url, page)


@pytest.mark.timeout(240)
def test_dorn_against_a_bot_keeper_from_the_lobby(browser, server: ServerProcess) -> None:
    """Dorn alone: take the heroes' seat, fill the Keeper's with a bot, start; the bot Keeper
    plays his steps and the heroes' turn comes to the page."""
    recorder = Recorder()
    page = new_player(browser, recorder)
    create_table(page, server.base_url, "Ada", "dorn")
    take_seat(page, "heroes_1", "Ada")
    page.click("#fill-bots")
    page.wait_for_selector('.seat-row.bot[data-seat="keeper"] .badge-bot')
    page.click("#start-table")
    wait_live(page)
    page.wait_for_function(
        "() => { const t = window.__dt.table; return t.current.seq > 0 && t.mustAct('heroes_1'); }",
        timeout=120000,
    )
    table_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    actions = httpx.get(f"{server.base_url}/api/tables/{table_id}/export").json()["actions"]
    assert actions and all(a["seat"] == "keeper" and a["action_id"].startswith("b") for a in actions)
    finish(recorder, server.base_url, page)
