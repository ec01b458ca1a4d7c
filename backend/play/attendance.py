"""Who is at a table on the other workers, and the ``presence`` frames that tell everyone.

Each worker tells the others (the bus) how many spectators and which seats it has connected;
one that falls silent is forgotten, so a killed worker's seats count as away.  The frames are
coalesced: one per ``presence_interval_seconds`` at most, for every change since the last.

Separate from play/master.py because none of it changes the table: the master says when its
own connections changed and adds these counts to its own for the clocks and the frames.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Attendance:
    """The other workers' connections to one table, and when its next presence frame is due."""

    def __init__(self, interval: float, flush: Callable[[bool], None]) -> None:
        """``flush(publish)`` sends the frame, and tells the bus too when ``publish``."""
        # Other workers' connections to this table: origin -> (spectators, seats, when heard).
        self.remote: dict[str, tuple[int, frozenset[str], float]] = {}
        self._interval = interval
        self._flush = flush
        self._timer: asyncio.TimerHandle | None = None
        self._sent = float("-inf")
        self._publish = False

    def total(self, local: tuple[int, frozenset[str]]) -> tuple[int, frozenset[str]]:
        """This worker's ``(spectators, seats)`` with every other worker's added."""
        spectators, seats = local
        for n, remote_seats, _heard in self.remote.values():
            spectators += n
            seats |= remote_seats
        return spectators, seats

    def heard(self, origin: str, spectators: int, connected: list[str]) -> None:
        self.remote[origin] = (int(spectators), frozenset(connected), time.monotonic())

    def forget_silent(self, heard_after: float) -> list[frozenset[str]]:
        """Forget the workers not heard from since ``heard_after``: the seats each held."""
        gone = [origin for origin, (_n, _s, heard) in self.remote.items() if heard < heard_after]
        return [self.remote.pop(origin)[1] for origin in gone]

    def dirty(self, *, local: bool) -> None:
        """Presence changed (``local``: this worker's connections, which the bus must hear of)."""
        self._publish |= local
        if self._timer is not None:
            return  # a flush is already due
        wait = self._sent + self._interval - time.monotonic()
        if wait <= 0:
            self._send()
        else:
            self._timer = asyncio.get_running_loop().call_later(wait, self._send)

    def _send(self) -> None:
        """One presence frame to everyone (and one bus message) for every change since the
        last: at most one per interval, so an audience of n costs O(n) frames per interval
        however many arrive in it (spectators are a count, never a list)."""
        self._timer = None
        self._sent = time.monotonic()
        publish, self._publish = self._publish, False
        self._flush(publish)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
