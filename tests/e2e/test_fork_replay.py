"""Play from here (issue 14.5) in real Chromium: a Dorasure game played to its end opens in the
replay page; at a step where the Ninja is to decide, "Play from here" opens the fork's waiting
room (marked as a fork, linked to the original's replay); the person takes the Ninja, seats a bot
at the Hunter and starts; the forked table shows the original's position at that step, and the
person makes a move in it."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server_fixtures import Api, ServerProcess, finish_game, start_table

from .helpers import Recorder, due_seat, finish, new_player, seq_of, take_seat, wait_live
from .test_dorasure_table import play_one

pytestmark = pytest.mark.e2e
NAME = "Player"  # the name a browser without a player registers under when it forks


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, artifacts: Path) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("e2e_fork")
    srv = ServerProcess(
        f"sqlite:///{tmp / 'e2e.db'}",
        log_path=artifacts / "e2e-fork-server.log",
        env={"DRAGONTABLE_BOT_RUNNERS": "1"},
    ).start()
    yield srv
    srv.stop()


@pytest.mark.timeout(240)
def test_play_from_a_replay_step_into_a_new_table(browser, server: ServerProcess, artifacts: Path) -> None:
    api = Api(server.base_url, "First players")
    original, tokens = start_table(api, "dorasure", {"heroes": ["ninja", "hunter"]})
    # Playwright's sync API owns this thread's event loop: the WebSocket players get their own thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, finish_game(server, original, tokens, seed=7)).result()

    rec = Recorder()
    page = new_player(browser, rec)
    page.goto(f"{server.base_url}/replay/{original}")
    page.wait_for_selector("#replay-slider")
    # The last step is the end of the game: nothing to play on from.
    page.click("#replay-last")
    assert page.is_disabled("#play-from-here")
    # A step a few actions in where the Ninja owes a decision and the game goes on.
    step = page.evaluate(
        """() => window.__dt.replay.frames.findIndex((f, i) => i >= 4 && f.to_act.length === 1
                && f.to_act[0] === 'ninja' && !f.view.outcome)"""
    )
    assert step > 0
    page.click(f'.replay-step[data-index="{step}"]')
    assert page.evaluate("() => window.__dt.replay.index") == step
    heroes_then = page.evaluate("() => window.__dt.replay.frames[window.__dt.replay.index].view.heroes")
    assert page.is_enabled("#play-from-here")
    page.click("#play-from-here")

    # The fork's waiting room: a fork of the original at that step, linked to its replay.
    page.wait_for_url("**/table/*")
    fork_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    assert fork_id != original
    page.wait_for_selector("#fork-origin")
    assert page.inner_text("#fork-origin").strip() == f"Fork of {original} at step {step}"
    assert page.get_attribute("#fork-origin-link", "href") == f"/replay/{original}"
    take_seat(page, "ninja", NAME)
    page.select_option("#bot-level-hunter", "steady")
    page.click('button.add-bot[data-seat="hunter"]')
    page.wait_for_selector('.seat-row.bot[data-seat="hunter"]')
    page.screenshot(path=str(artifacts / "fork-waiting-room.png"))
    page.click("#start-table")
    wait_live(page)

    # The forked table: still marked, at the original's position (same heroes where they stood).
    assert page.inner_text("#fork-origin").strip() == f"Fork of {original} at step {step}"
    view = page.evaluate("() => window.__dt.table.current.view")
    assert [(h["id"], h["pos"], h["hp"], h["level"]) for h in view["heroes"]] == [
        (h["id"], h["pos"], h["hp"], h["level"]) for h in heroes_then
    ]
    assert seq_of(page) == 0
    page.wait_for_function(
        "() => { const t = window.__dt.table; return t.mustAct(t.activeSeat); }", timeout=30000
    )
    assert due_seat(page) == "ninja"
    done = play_one(page, {})
    assert seq_of(page) >= 1, done
    page.screenshot(path=str(artifacts / "fork-table.png"))

    table = httpx.get(f"{server.base_url}/api/tables/{fork_id}").json()
    assert (
        table["status"] == "live" and table["origin"]["table"] == original and table["origin"]["seq"] == step
    )
    assert table["commitment"] and table["seq"] >= 1
    finish(rec, server.base_url, page)
