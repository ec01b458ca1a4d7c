"""Issue 13, point 3: a turn clock chosen in the lobby counts down from the first decision,
and a player whose tab is in the background is told it is their turn: the title flashes and,
with alerts on, a notification is shown. Also the screen reader's live region says whose turn
it is and what may be done."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import Recorder, create_table, finish, new_player, seq_of, take_seat, wait_live, wait_seq_above

pytestmark = pytest.mark.e2e

# A browser that can be "put in the background" (document.hidden) and that grants notifications,
# counting them: the page's own code is what runs, only the browser's answers are stubbed.
BACKGROUND_TAB = """
(() => {
  window.__hidden = false;
  Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
  Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
  document.hasFocus = () => !window.__hidden;
  window.__notes = [];
  window.Notification = class {
    constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
  };
})();
"""


# The seconds the banner's countdown shows ("⏱ 0:27"), read in the page.
LEFT = (
    "() => { const m = (document.querySelector('#deadline')?.textContent || '').match(/(\\d+):(\\d\\d)/);"
    " return m ? +m[1] * 60 + +m[2] : null; }"
)


def seconds_left(page: Any) -> int:
    return page.evaluate(LEFT)


def blitz(page: Any) -> None:
    page.fill('input[data-option="players"]', "2")
    page.fill('input[data-option="target"]', "80")
    page.select_option("#clock-preset", "blitz")
    # The prompt timeout follows the preset until the host picks one.
    assert page.input_value("#prompt-timeout") == "15"


def test_lobby_clock_counts_down_from_the_first_decision(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    alice = new_player(browser, rec)
    bob = new_player(browser, rec)
    bob.context.add_init_script(BACKGROUND_TAB)

    table_id = create_table(alice, server.base_url, "Alice", "toy", blitz)
    assert "30 s a decision" in alice.inner_text("#table-clocks")
    table = alice.evaluate(f"() => fetch('/api/tables/{table_id}').then(r => r.json())")
    assert table["turn_clock_seconds"] == 30 and table["prompt_timeout_seconds"] == 15
    take_seat(alice, "p1", "Alice")
    bob.goto(alice.input_value("#invite-link"))
    take_seat(bob, "p2", "Bob")
    alice.wait_for_selector("#start-table:not([disabled])")
    alice.click("#start-table")
    wait_live(alice)
    wait_live(bob)

    # Before anyone has acted, both screens count down the first decision.
    assert seq_of(alice) == 0
    # (A page whose seat was not yet connected at the start first shows the absent seat's 15 s
    # prompt timeout; the presence frame of its arrival brings the clock's deadline.)
    for page in (alice, bob):
        page.wait_for_selector("#deadline")
        page.wait_for_function(f"() => ({LEFT})() > 15", timeout=5_000)
        assert 20 <= seconds_left(page) <= 30, page.inner_text("#deadline")
    first = seconds_left(alice)
    alice.wait_for_function(f"() => ({LEFT})() < {first}")
    alice.screenshot(path=str(artifacts / "clock-first-decision.png"))

    # The live region says whose turn it is, and what Alice may do, by name.
    # (The announcer empties the region, then says the text 30 ms later: wait for it.)
    alice.wait_for_function("() => document.getElementById('announcer').innerText.startsWith('Your turn')")
    said = alice.inner_text("#announcer")
    assert said.startswith("Your turn as Player 1") and "Roll" in said, said

    # Bob turns alerts on and puts his tab in the background; Alice's roll makes it his turn.
    bob.click("#alerts-toggle")
    assert bob.inner_text("#alerts-toggle") == "Alerts on"
    bob.evaluate("() => { window.__hidden = true; }")
    title = bob.title()
    before = seq_of(alice)
    alice.click('button.action[data-kind="roll"]')
    wait_seq_above(bob, before)
    bob.wait_for_function("() => document.title.startsWith('● Your turn')")
    notes = bob.evaluate("() => window.__notes")
    assert len(notes) == 1 and "Player 2" in notes[0]["body"], notes
    # Back to the tab: the title stops flashing.
    bob.evaluate("() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }")
    bob.wait_for_function(f"() => document.title === {title!r}")
    bob.wait_for_function("() => document.getElementById('announcer').innerText.includes('Your turn as Player 2')")
    finish(rec, server.base_url, alice, bob)
