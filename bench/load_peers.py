"""What bench/server_load.py's load generator is made of: its connections (``Peer``: the seq each
has reached, and for a seat its legal actions), one run's shared phase and pacing, and what the
connections counted while measuring (``Stats``).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from typing import Any

import websockets

from backend.play import patch
from bench.seqwait import SeqTracker

try:
    from orjson import loads
except ImportError:  # pragma: no cover - orjson only speeds up the load generator
    from json import loads


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.tables = 0  # tables started while measuring: the churn the floor never pays
        self.measuring = False
        # What the connections received while measuring: every update frame's size, all bytes.
        self.update_sizes: list[int] = []
        self.bytes = 0

    def summary(self, seconds: float) -> dict[str, Any]:
        lat = sorted(self.latencies)
        pick = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")  # noqa: E731
        sizes = sorted(self.update_sizes)
        return {
            "actions": self.actions,
            "actions_per_s": round(self.actions / seconds, 1),
            "tables_started_per_s": round(self.tables / seconds, 1),
            "p50_ms": round(pick(0.50), 2),
            "p99_ms": round(pick(0.99), 2),
            "update_frame_median_bytes": sizes[len(sizes) // 2] if sizes else 0,
            "update_frames": len(sizes),
            "update_bytes": sum(sizes),
            "all_bytes": self.bytes,
        }


# The head of a fan-out frame: enough for a connection that needs only the seq.
HEAD = re.compile(r'\{"type": ?"(update|bench)", ?"seq": ?(\d+)')
UPDATE = ('{"type":"update"', '{"type": "update"')


class Peer(SeqTracker):
    """One connection of the load generator: tracks the seq it has reached.

    The generator shares the two cores with the server, so it parses only what it
    needs: a seat reads its legal actions and who is to act; a spectator (and every
    floor connection) only the seq at the head of the frame.
    """

    def __init__(self, ws: Any, *, seat: bool = False, stats: Stats | None = None) -> None:
        super().__init__()
        self.ws = ws
        self.seat = seat
        self.stats = stats
        self.doc: Any = None  # a seat's {"v": view, "l": legal, "t": to_act}: what patches apply to
        self.legal: list[Any] = []
        self.to_act: list[str] = []
        self.finished = False
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                stats = self.stats
                if stats is not None and stats.measuring:
                    stats.bytes += len(text)
                    if text.startswith(UPDATE):
                        stats.update_sizes.append(len(text))
                head = None if self.seat else HEAD.match(text)
                if head is not None:
                    self.reached(int(head.group(2)), now)
                    continue
                msg = loads(text)
                kind = msg.get("type")
                if kind in ("welcome", "update") and "view" in msg:
                    self.doc = {"v": msg["view"], "l": msg["legal"], "t": msg["to_act"]}
                    self.legal, self.to_act = msg["legal"], msg["to_act"]
                    self.reached(msg["seq"], now)
                elif kind == "update" and "patch" in msg:
                    self.doc = patch.apply(msg["patch"], self.doc)
                    self.legal, self.to_act = self.doc["l"], self.doc["t"]
                    self.reached(msg["seq"], now)
                elif kind == "finished":
                    self.finished = True
                elif kind == "bench":
                    self.reached(msg["seq"], now)
        except websockets.ConnectionClosed:
            pass


class Phase:
    """Shared by the drivers of one run: who is playing, whether we measure, when to stop."""

    def __init__(self, interval: float = 0.0) -> None:
        self.playing = 0
        self.measuring = False
        self.stop = False
        # Seconds between two actions of one table (0: closed loop, as fast as the server answers).
        self.interval = interval
        # Open: the drivers may act. Closed by ``server_load.py --interleave`` while the other
        # server of the run has its slice (an action in flight still lands).
        self.gate = asyncio.Event()
        self.gate.set()


class Pacer:
    """Spaces one table's actions ``phase.interval`` apart (open loop at a fixed offered rate)."""

    def __init__(self, phase: Phase, rnd: random.Random) -> None:
        self.phase = phase
        self.next_at = time.perf_counter() + rnd.random() * phase.interval  # tables out of step

    async def wait(self) -> None:
        interval = self.phase.interval
        if not interval:
            return
        now = time.perf_counter()
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)
        # Behind schedule (the server is slower than the offered rate): do not try to catch up.
        self.next_at = max(self.next_at, time.perf_counter() - interval) + interval
