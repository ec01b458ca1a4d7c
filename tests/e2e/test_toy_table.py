"""The shared table page end to end on the server's toy game (generic renderer):
lobby → create → invite link → two seats → start → turns by clicking → a
spectator, chat, a reload that resumes the seat, a dropped socket that heals.
The Dorasure board has its own test (test_dorasure_table.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import (
    Recorder,
    create_table,
    due_seat,
    finish,
    new_player,
    seq_of,
    sync_pages,
    take_seat,
    wait_live,
    wait_seq_above,
)

pytestmark = pytest.mark.e2e


def _two_players(page: Any) -> None:
    """The toy game's options form: two seats, a long race."""
    page.fill('input[data-option="players"]', "2")
    page.fill('input[data-option="target"]', "80")


def _play_one(page: Any) -> None:
    """Click whatever this seat may do (roll, or cheer when a six asked for it)."""
    before = seq_of(page)
    page.locator('button.action[data-kind="roll"], button.action[data-kind="cheer"]').first.click()
    wait_seq_above(page, before)


def _play_due(pages: list[Any], turns: int) -> None:
    """Up to `turns` clicks, each by whichever page is due; every page has seen the last one
    when it returns (the clicker hears of its move first, the others a moment later)."""
    for _ in range(turns):
        sync_pages(*pages)
        due = [p for p in pages if due_seat(p)]
        if not due:
            break
        _play_one(due[0])
    sync_pages(*pages)


def test_toy_table_flow(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    alice, bob, carol = (new_player(browser, rec) for _ in range(3))

    table_id = create_table(alice, server.base_url, "Alice", "toy", _two_players)
    take_seat(alice, "p1", "Alice")
    invite = alice.input_value("#invite-link")
    assert invite.endswith(f"/table/{table_id}")

    bob.goto(invite)
    take_seat(bob, "p2", "Bob")
    alice.wait_for_selector("#start-table:not([disabled])")
    alice.click("#start-table")
    wait_live(alice)
    wait_live(bob)

    carol.goto(server.base_url + "/")
    carol.wait_for_selector(f'article.table-row[data-table="{table_id}"]')
    carol.click(f'article.table-row[data-table="{table_id}"] a:has-text("Watch")')
    wait_live(carol)
    carol.wait_for_selector("#watching")
    alice.wait_for_function("() => document.querySelector('#spectators').textContent.startsWith('1 ')")

    alice.fill(".chat-input", "good luck")
    alice.click(".chat-form button")
    carol.wait_for_selector(".chat-line:has-text('good luck')")

    # Several turns by clicking, whoever is due.
    _play_due([alice, bob], 6)
    seq = seq_of(alice)
    assert seq >= 3
    carol.wait_for_function(f"() => window.__dt.table.current.seq === {seq}")
    assert carol.evaluate("() => window.__dt.table.current.view.pos") == alice.evaluate(
        "() => window.__dt.table.current.view.pos"
    )

    # Reload mid-game: the seat resumes from localStorage.
    bob.reload()
    wait_live(bob)
    assert bob.evaluate("() => Object.keys(window.__dt.table.seats)") == ["p2"]
    assert seq_of(bob) == seq

    # A dropped socket heals by itself and resyncs.
    bob.evaluate("() => window.__dt.table.connections.get('p2').simulateDrop()")
    bob.wait_for_selector("#conn-state[data-state=reconnecting]", timeout=5000)
    bob.wait_for_selector("#conn-state[data-state=open]")
    _play_due([alice, bob], 2)
    assert seq_of(bob) == seq_of(alice)
    alice.screenshot(path=str(artifacts / "toy-table.png"))

    # The seat is joined again elsewhere (a lost browser): this browser's token is refused,
    # and the page watches on instead of leaving a dead seat.
    player = bob.evaluate("() => JSON.parse(localStorage.getItem('dragontable.player'))")
    httpx.post(
        f"{server.base_url}/api/tables/{table_id}/join",
        json={"seat": "p2"},
        headers={"Authorization": f"Bearer {player['player_token']}"},
    ).raise_for_status()
    bob.wait_for_selector("#watching")
    bob.wait_for_selector("#conn-state[data-state=open]")
    assert "no longer holds" in bob.inner_text("#action-message")
    assert bob.evaluate(f"() => localStorage.getItem('dragontable.seats.{table_id}')") == "{}"
    assert bob.evaluate("() => window.__dt.table.current.view.pos") is not None

    finish(rec, server.base_url, alice, bob, carol)


def test_hot_seat_one_browser_holds_both_seats(browser, server) -> None:
    rec = Recorder()
    page = new_player(browser, rec)
    create_table(page, server.base_url, "Solo", "toy", _two_players)
    take_seat(page, "p1", "Solo")
    take_seat(page, "p2", "Solo")
    page.click("#start-table")
    wait_live(page)
    assert page.locator(".seat-tab").count() == 2
    seats_played = set()
    for _ in range(4):
        # The page shows whichever held seat must act; its tab is marked.
        active = due_seat(page)
        assert active is not None
        assert page.get_attribute(f'.seat-tab[data-seat="{active}"]', "aria-selected") == "true"
        seats_played.add(active)
        _play_one(page)
    assert seats_played == {"p1", "p2"}

    # The other seat's connection falls a step behind, so the update that makes it due comes
    # as the welcome answering its resync: the page still turns to it.  The mover's click must
    # be a roll: a cheer answering the other's six hands the turn to the cheerer, who stays due.
    while page.locator('button.action[data-kind="cheer"]').count():
        _play_one(page)
    mover = due_seat(page)
    other = ({"p1", "p2"} - {mover}).pop()
    # Both connections hold the last step before one is put behind (under load the other's
    # update may still be on its way: put behind then, it fell two steps back, not one).
    page.wait_for_function(
        "([a, b]) => { const c = window.__dt.table.connections; return c.get(a).lastSeq === c.get(b).lastSeq; }",
        arg=[mover, other],
    )
    resyncs = page.evaluate(
        "(s) => { const c = window.__dt.table.connections.get(s); c.lastSeq -= 1; return c.resyncs; }", other
    )
    _play_one(page)
    page.wait_for_function(
        "(s) => window.__dt.table.activeSeat === s && window.__dt.table.mustAct(s)", arg=other
    )
    assert page.evaluate("(s) => window.__dt.table.connections.get(s).resyncs", other) == resyncs + 1
    assert page.get_attribute(f'.seat-tab[data-seat="{other}"]', "aria-selected") == "true"
    finish(rec, server.base_url, page)
