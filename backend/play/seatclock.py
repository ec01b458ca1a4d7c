"""The seat clock of one live table: who owes a decision and since when, each seat's deadline
and the one timer that wakes the master for them, the bots standing in for absent people
(issue 12, point 5), and the back-off of the server's own timeout answers.

Separate from play/master.py because none of it changes the table: it tells the master *when*
to act for a seat and which seats it may answer for, and the master does that under its lock
like any other action, so there is still one serial master.  The timing rules themselves are
play/timers.py's pure ``seat_deadlines`` and ``SideClock``; this object keeps their inputs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Container, Iterable
from typing import Any

from backend.config import Settings
from backend.engine.core import Game, PromptSeats, TurnClock
from backend.store.repository import TableRecord

from .timers import SideClock, seat_deadlines

log = logging.getLogger("dragontable.play")

# A deadline this close is due now: the event loop may wake the timer a little early.
DUE_SLACK = 0.05


def auto_action_id(seq: int, seat: str, taken: Container[str]) -> str:
    """The id of the server's own answer for ``seat`` at the seq after ``seq``.

    Deterministic, so that workers racing to answer for the same seat commit it once; in
    a namespace clients cannot write (their ids may not contain ':', play/protocol.py).
    An id a client stored before that rule (one of ``taken``) is stepped over, never collided
    with.
    """
    aid = base = f"auto:{seq + 1}:{seat}"
    n = 1
    while aid in taken:
        aid, n = f"{base}:{n}", n + 1
    return aid


class SeatClock:
    """The clocks of one table's seats.  The master calls every method with its lock held
    (the timer's ``on_due`` excepted: it only asks the master to come and look)."""

    def __init__(self, game: Game[Any], settings: Settings, seats: Iterable[str], on_due: Callable[[], None]) -> None:
        self.game = game
        self.settings = settings
        self._prompt_seats = game.prompt_seats if isinstance(game, PromptSeats) else None
        # A game's own per-turn side clock (Dorn's Real Day and Night), when it has one.
        self._turn_clock = game.turn_clock if isinstance(game, TurnClock) else None
        self.side_clock = SideClock()
        self._on_due = on_due
        now = time.time()
        # When each seat owing a decision was asked, and when each seat's person left.
        self.since: dict[str, float] = {}
        self.left_at: dict[str, float] = {seat: now for seat in seats}
        self.to_act: frozenset[str] = frozenset()
        self.deadlines: dict[str, float] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._takeover_due: dict[str, float] = {}
        # The server's own timeout answers that failed to save, and when to try again.
        self._failures = 0
        self._retry_at = 0.0
        # Seats whose time ran out but whose game offers no default at this seq.
        self.no_default: set[str] = set()
        # Takeovers (issue 12): seat -> the level of the bot playing for its absent person.
        self.stand_ins: dict[str, str] = {}

    def deadline(self) -> float | None:
        """The first deadline, as the clients are told it."""
        return round(min(self.deadlines.values()), 3) if self.deadlines else None

    def refresh(self, state: Any, live: bool, actor: str | None) -> None:
        """Who owes a decision now that ``actor`` acted (None: the state was replaced)."""
        now = time.time()
        new = self.game.to_act(state) if live else frozenset()
        # A seat's clock runs from when it was asked; others acting do not reset it.
        self.since = {
            s: (self.since[s] if s in self.to_act and s != actor and s in self.since else now) for s in new
        }
        self.to_act = frozenset(new)
        if self._turn_clock is not None:
            self.side_clock.update(self._turn_clock(state) if live else None, now)

    def moved_on(self) -> None:
        """The table reached its next seq: every seat may be answered for again, at once."""
        self.no_default.clear()
        self._failures, self._retry_at = 0, 0.0

    def reschedule(
        self, record: TableRecord, state: Any, live: bool, presence: tuple[int, frozenset[str]], bots: dict[str, str]
    ) -> None:
        """Every deadline and takeover again, and the timer for the first of them."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        spectators, connected = presence
        # Clocks run while a person is here: a table of bots whose people left waits for them.
        if not live or not (connected - bots.keys() or spectators):
            self.deadlines = {}
            self._takeover_due = {}
            return
        self._takeover_due = self._takeovers_due(record, connected, bots)
        if self._prompt_seats is not None:
            prompted = frozenset(self._prompt_seats(state))
        else:
            prompted = self.to_act if len(self.to_act) > 1 else frozenset()
        self.deadlines = seat_deadlines(
            self.to_act - self.no_default,
            prompted,
            self.since,
            connected,
            self.left_at,
            record.prompt_timeout_seconds,
            record.turn_clock_seconds,
        )
        side_due = self.side_clock.deadline()
        if side_due is not None:
            for seat in (self.to_act & self.side_clock.seats) - self.no_default:
                self.deadlines[seat] = min(self.deadlines.get(seat, side_due), side_due)
        dues = list(self._takeover_due.values())
        if self.deadlines:
            dues.append(max(min(self.deadlines.values()), self._retry_at))
        if dues:
            delay = max(0.0, min(dues) - time.time())
            self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._on_due()

    def late(self, now: float) -> list[str]:
        """The seats whose deadline has come, in seat order."""
        return sorted(s for s, t in self.deadlines.items() if t <= now + DUE_SLACK)

    def takeovers_due(self, now: float) -> list[str]:
        """The away people whose bot is due, in seat order."""
        return [seat for seat, due in sorted(self._takeover_due.items()) if due <= now + DUE_SLACK]

    def _takeovers_due(self, record: TableRecord, connected: frozenset[str], bots: dict[str, str]) -> dict[str, float]:
        """When each away person gets a bot: ``takeover_after_seconds`` after they left (the
        bot waits for the seat's turn; the table hears at once who plays for whom).  None for a
        table whose takeover is off, nor for a bot's own seat."""
        if record.takeover == "off":
            return {}
        after = self.settings.takeover_after_seconds
        now = time.time()
        return {
            s.seat: self.left_at.get(s.seat, now) + after
            for s in record.seats
            if s.player_id is not None
            and s.seat not in connected
            and s.seat not in bots
            and s.seat not in self.stand_ins
        }

    def take_over(self, record: TableRecord, seat: str, bots: dict[str, str], live: bool) -> bool:
        """A bot plays ``seat`` from now on; False when none may (takeover off, a bot's own
        seat, a bot already there, the game not on)."""
        if record.takeover == "off" or seat in self.stand_ins or seat in bots or not live:
            return False
        self.stand_ins[seat] = record.takeover
        return True

    def hand_back(self, seat: str) -> bool:
        """The person is back: False when no bot was playing for them."""
        return self.stand_ins.pop(seat, None) is not None

    def time_up(self, state: Any, seat: str, now: float) -> dict[str, Any] | None:
        """The game's ``time_up`` when ``seat``'s side has spent its turn clock (engine/core.py
        ``TurnClock``): a rule of the game, not an absence, so no bot takes the seat over."""
        due = self.side_clock.deadline()
        if due is None or due > now + DUE_SLACK or seat not in self.side_clock.seats:
            return None
        action: dict[str, Any] = {"type": "time_up"}
        return action if action in self.game.legal_actions(state, seat) else None

    def answer_failed(self, table_id: str, seat: str, seq: int) -> None:
        """A timeout answer that could not be saved is tried again later, never in a loop:
        after a pause that doubles each time, and not at all after ``auto_retry_limit`` tries
        (until the table moves on)."""
        self._failures += 1
        if self._failures >= self.settings.auto_retry_limit:
            log.error("table %s: giving up answering for %s at seq %s", table_id, seat, seq)
            self.no_default.add(seat)
            self._failures = 0
            return
        pause = min(self.settings.auto_retry_max_seconds, 0.25 * 2**self._failures)
        self._retry_at = time.time() + pause

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
