"""What the load generators share: a connection's place in a table's sequence, and futures for
the moment it reaches a given seq (the latency of an action ends when every connection has it)."""

from __future__ import annotations

import asyncio
import time


class SeqTracker:
    """The seq a connection has reached, and who waits for a later one."""

    def __init__(self) -> None:
        self.seq = 0
        self.waiters: dict[int, asyncio.Future[float]] = {}

    def reached(self, seq: int, now: float) -> None:
        """The connection has ``seq`` (and so every earlier one) since ``now``."""
        self.seq = seq
        for s in [s for s in self.waiters if s <= seq]:
            fut = self.waiters.pop(s)
            if not fut.done():
                fut.set_result(now)

    def arrival(self, seq: int) -> asyncio.Future[float]:
        """A future for when this connection has ``seq``: its perf_counter time."""
        fut = asyncio.get_running_loop().create_future()
        if self.seq >= seq:
            fut.set_result(time.perf_counter())
        else:
            self.waiters[seq] = fut
        return fut
