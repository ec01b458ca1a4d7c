"""When the server answers for a seat: prompt timeout and turn clock.

* A seat owing a *prompt* (a decision outside its turn) gets the table's prompt
  timeout.  Games may say which seats owe prompts with an optional
  ``prompt_seats(state)``; without it, seats are prompted when several may act
  at once.
* A seat that is *gone* (no connection) gets the prompt timeout for anything it
  owes, counted from when it left or from when it was asked, whichever is later.
* The optional per-table *turn clock* bounds every decision.
* A game's own *side clock* (``engine/core.py::TurnClock``, Dorn's Real Day and Night) gives a
  side T seconds per turn, counted only while that side owes input (``SideClock``); when they
  are spent, the server sends the game's ``time_up`` for that side's seats.

Timeouts only run while someone is connected to the table: a table everyone
has left waits for them instead of playing itself to the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


def seat_deadlines(
    to_act: Iterable[str],
    prompted: frozenset[str],
    since: Mapping[str, float],
    connected: frozenset[str],
    left_at: Mapping[str, float],
    prompt_timeout: float,
    turn_clock: float | None,
) -> dict[str, float]:
    out: dict[str, float] = {}
    for seat in to_act:
        asked = since.get(seat, 0.0)
        candidates: list[float] = []
        if turn_clock is not None:
            candidates.append(asked + turn_clock)
        if seat in prompted:
            candidates.append(asked + prompt_timeout)
        if seat not in connected:
            candidates.append(max(asked, left_at.get(seat, asked)) + prompt_timeout)
        if candidates:
            out[seat] = min(candidates)
    return out


@dataclass
class SideClock:
    """The time a side has left this turn, from what the game's ``turn_clock(state)`` says after
    every committed action: a new ``turn`` key starts a fresh T; the clock runs only while
    ``running`` (the side owes input; a prompt owed by the other side pauses it).  Kept in
    memory: a restarted server gives the turn a fresh T.

    >>> c = SideClock()
    >>> c.update({"turn": "1:keeper", "seats": ["keeper"], "seconds": 120, "running": True}, 10.0)
    >>> c.deadline()
    130.0
    >>> c.update({"turn": "1:keeper", "seats": ["keeper"], "seconds": 120, "running": False}, 40.0)
    >>> c.deadline() is None, c.left
    (True, 90.0)
    >>> c.update({"turn": "1:keeper", "seats": ["keeper"], "seconds": 120, "running": True}, 100.0)
    >>> c.deadline()
    190.0
    """

    turn: str | None = None
    seats: frozenset[str] = frozenset()
    left: float = 0.0
    since: float | None = None  # when it last started running

    def update(self, clock: Mapping[str, Any] | None, now: float) -> None:
        if clock is None:
            self.turn, self.seats, self.left, self.since = None, frozenset(), 0.0, None
            return
        if clock["turn"] != self.turn:
            self.turn, self.left, self.since = str(clock["turn"]), float(clock["seconds"]), None
        self.seats = frozenset(clock["seats"])
        if self.since is not None and not clock["running"]:
            self.left -= now - self.since
            self.since = None
        elif self.since is None and clock["running"]:
            self.since = now

    def deadline(self) -> float | None:
        """When the side's time runs out, while its clock runs."""
        return None if self.since is None else self.since + max(0.0, self.left)
