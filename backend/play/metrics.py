"""What the server counts, for ``GET /metrics`` (Prometheus text format).

One ``Metrics`` per app, on its own registry, so that several apps in one process (the
tests) never share or collide.  Only counts and timings: no table id, seat, token or card
ever becomes a label (labels are bounded sets: games, refusal codes, connection kinds).
"""

from __future__ import annotations

import gc
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Seconds: the commit path is milliseconds when healthy, seconds when the disk stalls.
# Fine enough between 1 and 50 ms that a p99 read off them (bench/server_load.py) tells 15 ms from 20.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05,
                   0.1, 0.25, 0.5, 1.0, 2.5, 10.0)  # fmt: skip
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
PAGE_BUCKETS = (0, 10, 100, 250, 500, 1000, 2000, 4000, 8000)
# The players' path is a few milliseconds: finer steps there, so that a percentile read off the
# buckets tells 4 ms from 5 (bench/capacity.py compares it with and without spectators).
SEAT_BUCKETS = (0.0005, 0.001, 0.0015, 0.002, 0.0025, 0.003, 0.004, 0.005, 0.006, 0.008, 0.01, 0.015, 0.02,
                0.05, 0.1, 0.5, 2.5)  # fmt: skip


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.actions = Counter("dragontable_actions_applied", "Actions committed, by game.", ["game"], registry=r)
        self.refused = Counter(
            "dragontable_actions_refused", "Actions refused, by the code the client was told.", ["code"], registry=r
        )
        self.timeouts = Counter(
            "dragontable_timeouts_answered", "Decisions the server answered by default (timeout, clock).", registry=r
        )
        self.commit_seconds = Histogram(
            "dragontable_action_commit_seconds", "From an action's arrival to its durable commit.",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.fanout_seconds = Histogram(
            "dragontable_commit_fanout_seconds", "From a commit to every connection's update queued.",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.seats_seconds = Histogram(
            "dragontable_action_seats_seconds",
            "From an action's arrival to the last seat's update handed to its socket (the players' path).",
            buckets=SEAT_BUCKETS, registry=r,
        )  # fmt: skip
        self.batch_size = Histogram(
            "dragontable_commit_batch_size", "Actions per group commit (one transaction).",
            buckets=BATCH_BUCKETS, registry=r,
        )  # fmt: skip
        self.checkpoint_pages = Histogram(
            "dragontable_checkpoint_pages", "Pages each SQLite checkpoint copied from the WAL (store/checkpoint.py).",
            buckets=PAGE_BUCKETS, registry=r,
        )  # fmt: skip
        self.connections = Gauge(
            "dragontable_connections", "Open table WebSockets, by kind.", ["kind"], registry=r
        )
        self.live_tables = Gauge("dragontable_live_tables", "Tables held in memory by this worker.", registry=r)
        self.bus_messages = Counter(
            "dragontable_bus_messages", "Messages over the bus between workers.", ["direction"], registry=r
        )
        self.gc_pause_seconds = Histogram(
            "dragontable_gc_pause_seconds",
            "Pauses of Python's cyclic garbage collector (every table stands still for each), by generation.",
            ["generation"], buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.db_errors = Counter(
            "dragontable_database_errors", "Commits that failed for a database error (not a conflict).", registry=r
        )
        for kind in ("seat", "spectator"):
            self.connections.labels(kind)
        for direction in ("in", "out"):
            self.bus_messages.labels(direction)
        for generation in ("0", "1", "2"):
            self.gc_pause_seconds.labels(generation)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class GcPauses:
    """Times every pass of the cyclic collector into ``metrics.gc_pause_seconds``, while installed
    (``gc.callbacks``: the process's, so each app installs its own and removes it when it stops).

    A young pass held the event loop for 14–28 ms on average at 1,000 actions/s, about ten of the
    p99's milliseconds (bench/README.md, issue 15 point 2, ninth session): the tail an operator
    should be able to see next to the commit's."""

    def __init__(self, metrics: Metrics) -> None:
        # Bound once: ``labels`` takes the family's lock, which a pass may have interrupted in
        # this very thread (a scrape copying the children); a child's own lock is held only
        # around a float's update, where nothing can start a pass.
        self._by_generation = [metrics.gc_pause_seconds.labels(str(g)) for g in range(3)]
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        # The collector holds the GIL from its start to its stop: no other pass comes between.
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self._by_generation[info["generation"]].observe(time.perf_counter() - self._began)

    def install(self) -> None:
        gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)
