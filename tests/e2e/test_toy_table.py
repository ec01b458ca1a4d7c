"""The shared table page end to end on the server's toy game (generic renderer):
lobby → create → invite link → two seats → start → turns by clicking → a
spectator, chat, a reload that resumes the seat, a dropped socket that heals.
The Dorasure board has its own test (test_dorasure_table.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import Recorder, new_player, seq_of, start_server, table_id_of, take_seat, wait_live

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, artifacts: Path):
    srv = start_server(tmp_path_factory.mktemp("toy"), artifacts)
    yield srv
    srv.stop()


def _play_one(page) -> None:
    """Click whatever this seat may do (roll, or cheer when a six asked for it)."""
    before = seq_of(page)
    button = page.locator('button.action[data-kind="roll"], button.action[data-kind="cheer"]').first
    button.click()
    page.wait_for_function(f"() => window.__dt.table.current.seq > {before}")


def _due(page) -> bool:
    return page.evaluate(
        "() => { const t = window.__dt.table, d = t.current; return !!d && d.to_act.includes(t.activeSeat) && d.legal.length > 0; }"
    )


def test_toy_table_flow(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    ctx_a, alice = new_player(browser, rec)
    ctx_b, bob = new_player(browser, rec)
    ctx_c, carol = new_player(browser, rec)

    alice.goto(server.base_url + "/")
    alice.fill("#player-name", "Alice")
    alice.select_option("#game-select", "toy")
    alice.fill('input[data-option="players"]', "2")
    alice.fill('input[data-option="target"]', "80")
    alice.click("#create-table")
    alice.wait_for_url("**/table/**")
    table_id = table_id_of(alice)
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
    pages = [alice, bob]
    for _ in range(6):
        due = [p for p in pages if _due(p)]
        if not due:
            break
        _play_one(due[0])
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
    for _ in range(2):
        due = [p for p in pages if _due(p)]
        if due:
            _play_one(due[0])
    assert seq_of(bob) == seq_of(alice)
    alice.screenshot(path=str(artifacts / "toy-table.png"))

    assert rec.foreign(server.base_url) == []
    for page in (alice, bob, carol):
        assert page.js_errors == []
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()


def test_hot_seat_one_browser_holds_both_seats(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    ctx, page = new_player(browser, rec)
    page.goto(server.base_url + "/")
    page.fill("#player-name", "Solo")
    page.select_option("#game-select", "toy")
    page.fill('input[data-option="players"]', "2")
    page.fill('input[data-option="target"]', "80")
    page.click("#create-table")
    page.wait_for_url("**/table/**")
    take_seat(page, "p1", "Solo")
    take_seat(page, "p2", "Solo")
    page.click("#start-table")
    wait_live(page)
    assert page.locator(".seat-tab").count() == 2
    seats_played = set()
    for _ in range(4):
        # The page shows whichever held seat must act; its tab is marked.
        active = page.evaluate("() => window.__dt.table.activeSeat")
        assert page.get_attribute(f'.seat-tab[data-seat="{active}"]', "aria-selected") == "true"
        assert _due(page)
        seats_played.add(active)
        _play_one(page)
    assert seats_played == {"p1", "p2"}
    assert rec.foreign(server.base_url) == []
    assert page.js_errors == []
    ctx.close()
