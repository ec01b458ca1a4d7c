"""When the server answers for a seat: prompt timeout and turn clock.

* A seat owing a *prompt* (a decision outside its turn) gets the table's prompt
  timeout.  Games may say which seats owe prompts with an optional
  ``prompt_seats(state)``; without it, seats are prompted when several may act
  at once.
* A seat that is *gone* (no connection) gets the prompt timeout for anything it
  owes, counted from when it left or from when it was asked, whichever is later.
* The optional per-table *turn clock* bounds every decision.

Timeouts only run while someone is connected to the table: a table everyone
has left waits for them instead of playing itself to the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


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
