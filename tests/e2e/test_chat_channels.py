"""Side-scoped chat in Chromium (issue 14.3; frontend/js/chat.js): a Dorn table of three people
and a spectator. The picker offers each browser only the channels it may write to; a heroes'
side line reaches the other hero and never the Keeper; a private line shows as private; the
spectators' lines stay among the spectators; a reload shows the same lines as before."""

from __future__ import annotations

from typing import Any

import pytest

from backend.engine.registry import get_game
from backend.engine.rng import Rng, seed_from_int
from tests.server_fixtures import Api

from .helpers import Recorder, finish, hold_seats, new_player, wait_live

pytestmark = pytest.mark.e2e

DORN = get_game("dorn")


def say(page: Any, text: str, to: str | None = None) -> None:
    if to is not None:
        page.select_option(".chat-to", to)
    page.fill(".chat-input", text)
    page.click(".chat-form button")
    page.wait_for_selector(f".chat-line:has-text('{text}')")


def lines(page: Any) -> list[str]:
    return page.eval_on_selector_all(".chat-line", "els => els.map(e => e.textContent)")


def choices(page: Any) -> list[str]:
    return page.eval_on_selector_all(".chat-to option", "els => els.map(e => e.value)")


def test_a_side_talks_unheard_by_the_other(browser: Any, server: Any) -> None:
    rec = Recorder()
    options = DORN.sim_options(Rng(seed_from_int(3)), 3, {})
    names = {"keeper": "Kay", "heroes_1": "Ann", "heroes_2": "Bo"}
    people = {seat: Api(server.base_url, name) for seat, name in names.items()}
    tid = people["keeper"].create_table("dorn", options)["id"]
    tokens = {seat: person.join(tid, seat) for seat, person in people.items()}
    people["keeper"].start(tid)
    pages = {}
    for seat, person in people.items():
        pages[seat] = new_player(browser, rec)
        hold_seats(pages[seat], server.base_url, person, tid, {seat: tokens[seat]}, names[seat])
    keeper, ann, bo = pages["keeper"], pages["heroes_1"], pages["heroes_2"]
    watcher = new_player(browser, rec)
    watcher.goto(f"{server.base_url}/table/{tid}?watch=1")
    wait_live(watcher)

    # Each browser is offered what it may write to, and nothing else.
    ann.wait_for_selector(".chat-to option[value=side]", state="attached")
    assert choices(ann) == ["table", "side", "seat:keeper", "seat:heroes_2"]
    assert choices(keeper) == ["table", "side", "seat:heroes_1", "seat:heroes_2"]
    assert choices(watcher) == ["spectators"]
    assert watcher.locator(".chat-to").is_hidden()

    say(ann, "through the bridge", "side")
    bo.wait_for_selector(".chat-line[data-channel='side:heroes']:has-text('through the bridge')")
    assert "[side]" in bo.text_content(".chat-line[data-channel='side:heroes']")
    say(ann, "a word for the Keeper", "seat:keeper")
    keeper.wait_for_selector(".chat-line:has-text('a word for the Keeper')")
    assert "[private, to you]" in keeper.text_content(".chat-line[data-channel='seat:keeper']")
    say(watcher, "go heroes")
    say(ann, "good luck all", "table")
    for page in (keeper, bo, watcher):
        page.wait_for_selector(".chat-line:has-text('good luck all')")

    assert not any("through the bridge" in line for line in lines(keeper))
    assert not any("go heroes" in line for page in (keeper, ann, bo) for line in lines(page))
    assert not any("a word for the Keeper" in line for page in (bo, watcher) for line in lines(page))
    assert not any("through the bridge" in line for line in lines(watcher))

    # A reload shows the same lines, from the server's history.
    before = [line.split(" ", 1)[1] for line in lines(keeper)]
    keeper.reload()
    wait_live(keeper)
    keeper.wait_for_selector(".chat-line:has-text('good luck all')")
    assert [line.split(" ", 1)[1] for line in lines(keeper)] == before

    # The Keeper gives up: the spectators' line reaches the seats, and the replay shows it.
    keeper.evaluate("() => window.__dt.table.connections.get('keeper').act({type: 'surrender'})")
    ann.wait_for_selector(".chat-line[data-channel=spectators]:has-text('go heroes')")
    ann.wait_for_selector(".chat-to option[value=spectators]", state="attached")
    watcher.goto(f"{server.base_url}/replay/{tid}")
    watcher.wait_for_selector("#replay-chat-block .chat-line:has-text('go heroes')")
    shown = " ".join(
        watcher.eval_on_selector_all("#replay-chat-block .chat-line", "els => els.map(e => e.textContent)")
    )
    assert "good luck all" in shown
    assert "through the bridge" not in shown and "a word for the Keeper" not in shown
    finish(rec, server.base_url, keeper, ann, bo, watcher)
