"""Issue 13, points 1 and 6: every screen shows the whole game's log from the first action
(a reload, a late spectator), with the dice rolled before it arrived; the log stays on the
newest line when the side column is resized, and stays where the reader scrolled up to; and
every line names players and figures as the players see them, never by seat id."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import Recorder, api_table, finish, hold_seats, new_player, play_ws, wait_live

pytestmark = pytest.mark.e2e


def log_state(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
            const log = window.__dt.table.log, el = document.getElementById('log');
            const groups = [...el.querySelectorAll('.log-group')].map(g => Number(g.dataset.seq));
            return {
                known: log.seqs.size, last: log.lastSeq, missing: log.missingBelow(window.__dt.table.current.seq),
                groups, text: el.innerText, fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
                scrollTop: el.scrollTop, scrollable: el.scrollHeight > el.clientHeight + 40,
                dice: document.querySelectorAll('#dice .dice-roll .die').length,
            };
        }"""
    )


def wait_whole_log(page: Any, seq: int) -> dict[str, Any]:
    """The log holds every seq up to `seq`, in order, from the setup's sentences (seq 0) on."""
    page.wait_for_function(
        f"() => window.__dt.table.current.seq >= {seq} && window.__dt.table.log.missingBelow({seq}) < 0"
    )
    state = log_state(page)
    assert state["known"] >= seq + 1 and state["missing"] < 0, state
    assert state["groups"] == sorted(state["groups"]), "the log is out of order"
    # (An action whose events say nothing has no group of its own: the newest group may be a little older.)
    assert state["groups"][0] == 0 and state["last"] == seq and seq - 3 <= state["groups"][-1] <= seq, state
    assert "Joined the table" not in state["text"]
    return state


def test_reload_and_late_spectator_see_the_whole_dorasure_game(browser, server, artifacts: Path) -> None:
    table_id, tokens, api = api_table(server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]})
    seq = play_ws(server, table_id, tokens, 30)

    rec = Recorder()
    alice = new_player(browser, rec)
    hold_seats(alice, server.base_url, api, table_id, tokens)
    first = wait_whole_log(alice, seq)
    assert first["dice"] > 0, "no dice history"

    # A reload: the same whole log, the same dice.
    alice.reload()
    wait_live(alice)
    again = wait_whole_log(alice, seq)
    assert again["groups"] == first["groups"] and again["dice"] == first["dice"]

    # A spectator arriving late: the public log from #1.
    carol = new_player(browser, rec)
    carol.goto(f"{server.base_url}/table/{table_id}?watch=1")
    wait_live(carol)
    watched = wait_whole_log(carol, seq)
    assert watched["dice"] > 0

    # The side column gets shorter (a smaller window): the log stays on the newest line.
    carol.set_viewport_size({"width": 1200, "height": 560})
    seq = play_ws(server, table_id, tokens, 6, seed=8, prefix="x")
    carol.wait_for_function(f"() => window.__dt.table.current.seq >= {seq}")
    carol.wait_for_function(
        "() => { const el = document.getElementById('log'); return el.scrollHeight - el.scrollTop - el.clientHeight < 30; }"
    )
    state = log_state(carol)
    assert state["scrollable"] and state["last"] == seq, state["groups"][-3:]

    # The reader scrolls up to read: new lines no longer pull the log down.
    carol.evaluate(
        "() => { const el = document.getElementById('log'); el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }"
    )
    carol.wait_for_timeout(100)
    seq = play_ws(server, table_id, tokens, 4, seed=9, prefix="y")
    carol.wait_for_function(f"() => window.__dt.table.current.seq >= {seq}")
    assert log_state(carol)["scrollTop"] < 5
    # ... until they scroll back down.
    carol.evaluate("() => { const el = document.getElementById('log'); el.scrollTop = el.scrollHeight; }")
    carol.wait_for_timeout(100)
    seq = play_ws(server, table_id, tokens, 2, seed=10, prefix="z")
    carol.wait_for_function(f"() => window.__dt.table.current.seq >= {seq}")
    carol.wait_for_function(
        "() => { const el = document.getElementById('log'); return el.scrollHeight - el.scrollTop - el.clientHeight < 30; }"
    )
    carol.screenshot(path=str(artifacts / "history-spectator.png"))
    finish(rec, server.base_url, alice, carol)


def test_dorn_log_names_players_not_seat_ids(browser, server) -> None:
    table_id, tokens, api = api_table(server.base_url, "dorn", {"allow_surrender": False}, name="Hana")
    # Random play long enough to reach the heroes' steps, which hero seats end with Done.
    seq = play_ws(server, table_id, tokens, 250, seed=3)
    assert seq == 250

    rec = Recorder()
    page = new_player(browser, rec)
    hold_seats(page, server.base_url, api, table_id, tokens, name="Hana")
    state = wait_whole_log(page, seq)
    # The engine names a seat by its heroes ("The player of Almanor and Choros has finished
    # ..."), and the page turns any seat id a sentence still holds into who sits there.
    assert not re.search(r"\bheroes_\d\b|\bkeeper\b", state["text"]), state["text"]
    labels = page.evaluate("() => window.__dt.table.table.seats.map(s => s.label)")
    done = [line for line in state["text"].splitlines() if "has finished" in line]
    assert done and all("The player of " in line for line in done), done
    # Whatever the sentence, a seat id in it becomes who sits there.
    said = page.evaluate(
        "async () => (await import('/js/words.js')).nameSeats('heroes_1 has finished; keeper waits; Keeper stays.', window.__dt.table.table)"
    )
    assert said == f"Hana ({labels[1]}) has finished; Hana ({labels[0]}) waits; Keeper stays.", said
    # Each entry says who played it: the player and the seat's label.
    titles = page.eval_on_selector_all("#log .log-seq", "els => els.map(e => e.title)")
    assert titles[0] == "the setup", titles[:2]
    assert all(t.startswith(("by Hana (", "answered by default for Hana (")) for t in titles[1:]), titles[:5]
    finish(rec, server.base_url, page)
