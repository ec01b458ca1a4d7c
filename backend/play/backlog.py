"""The updates a connection did not take, as its seat may see them: the last committed steps
(``Applied``) in a ring in memory, the older ones read back from the stored log, and seq 0,
the setup's events.

Separate from play/master.py because it only reads: the master adds every step it commits and
asks here when it welcomes, resyncs or pages the history (``page``); the side spectators'
streams (play/sidewatch.py) read it through ``entries``.
"""

from __future__ import annotations

import asyncio
import marshal
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from backend.engine.core import Event, Game
from backend.store.repository import Repository, TableRecord

from . import protocol
from .record import start_transition


@dataclass(slots=True)
class Applied:
    seq: int
    by: str
    action_id: str
    auto: bool
    events: tuple[Event, ...]


def events_for(events: Iterable[Event], seat: str | None) -> list[dict[str, Any]]:
    """The events ``seat`` may see (None: a spectator), as they are sent."""
    return [e.as_dict() for e in events if e.visible_to(seat)]


def missed_entry(applied: Applied, seat: str | None) -> dict[str, Any]:
    return protocol.missed_update(
        applied.seq, events_for(applied.events, seat), applied.by, applied.action_id, applied.auto
    )


class Ring:
    """A table's last committed steps, each kept as one ``bytes`` (``marshal``'s, of plain
    tuples, dicts and lists): an ``Applied`` is ≈ 8 objects the cyclic collector tracks (its
    events, their data, the lists in it), none of which it ever stops tracking. A ring of a
    game's every step held them for the game's life, and every young pass of the collector
    scanned them. Packed (and with the sockets' upgrade requests let go, play/wsserver.py), its
    pauses at 1,000 actions a second came to 254 ms in 30 s against 415, a pass 21 ms against
    28 (bench/README.md, issue 15 point 2, tenth session), for ≈ 3 µs a step. A ``bytes`` is
    not tracked; a step is unpacked only when a reconnect or a page of history reads it. A step
    whose events hold something ``marshal`` cannot write (no game's do: their data is JSON) is
    kept as it is."""

    __slots__ = ("_seqs", "_steps")

    def __init__(self, size: int) -> None:
        self._seqs: deque[int] = deque(maxlen=size)  # each step's seq, beside it: read unpacked
        self._steps: deque[bytes | Applied] = deque(maxlen=size)

    def append(self, applied: Applied) -> None:
        packed = (applied.seq, applied.by, applied.action_id, applied.auto,
                  [(e.kind, e.data if type(e.data) is dict else dict(e.data), e.to) for e in applied.events])  # fmt: skip
        try:
            # Version 2: no table of shared objects to keep while writing (≈ 1 µs a step, not 1.5).
            self._steps.append(marshal.dumps(packed, 2))
        except ValueError:  # an object marshal does not write
            self._steps.append(applied)
        self._seqs.append(applied.seq)

    def clear(self) -> None:
        self._seqs.clear()
        self._steps.clear()

    def __len__(self) -> int:
        return len(self._steps)

    def __iter__(self) -> Iterator[Applied]:
        return map(_unpacked, self._steps)

    def first_seq(self) -> int | None:
        """The seq of the oldest step held, None when none is."""
        return self._seqs[0] if self._seqs else None

    def between(self, after: int, upto: int) -> list[Applied]:
        """The steps held after seq ``after`` up to ``upto``, unpacking only those."""
        return [_unpacked(step) for seq, step in zip(self._seqs, self._steps, strict=True) if after < seq <= upto]


def _unpacked(step: bytes | Applied) -> Applied:
    if type(step) is not bytes:
        assert isinstance(step, Applied)
        return step
    seq, by, action_id, auto, events = marshal.loads(step)
    return Applied(seq, by, action_id, auto, tuple(Event(kind, data, to) for kind, data, to in events))


class Backlog:
    """One table's past updates (the master adds each step with its lock held)."""

    def __init__(self, repo: Repository, game: Game[Any], table_id: str, ring: int) -> None:
        self.repo = repo
        self.game = game
        self.table_id = table_id
        self.ring = Ring(ring)
        self._setup_events: tuple[Event, ...] | None = None

    async def entries(self, seat: str | None, after: int, upto: int) -> list[dict[str, Any]]:
        """The updates after seq ``after`` up to ``upto``, each with the events ``seat`` may see:
        from memory when the ring still holds them, otherwise from the stored log."""
        first = self.ring.first_seq()
        if first is not None and first <= after + 1:
            return [missed_entry(a, seat) for a in self.ring.between(after, upto)]
        repo = self.repo
        actions = await asyncio.to_thread(repo.actions_after, self.table_id, after, upto)
        events = await asyncio.to_thread(repo.events_between, self.table_id, after, upto)
        out = []
        for a in actions:
            evs = tuple(
                Event(e.kind, e.data, frozenset(e.to) if e.to is not None else None)
                for e in events.get(a.seq, [])
            )
            out.append(missed_entry(Applied(a.seq, a.seat, a.action_id, a.by_timeout, evs), seat))
        return out

    async def page(
        self, record: TableRecord, seat: str | None, top: int, before: int | None, limit: int
    ) -> dict[str, Any]:
        """The ``history`` message of up to ``limit`` updates before seq ``before`` (None: the
        newest), none past ``top``; the page that reaches the start holds seq 0 too."""
        upto = top if before is None else min(before - 1, top)
        after = max(0, upto - limit)
        entries = await self.entries(seat, after, upto) if upto > 0 else []
        if after == 0 and upto >= 0 and record.seed_hex is not None and (before is None or before > 0):
            entries.insert(0, self._setup_entry(record, seat))
        return protocol.history(entries, complete=after == 0)

    def _setup_entry(self, record: TableRecord, seat: str | None) -> dict[str, Any]:
        """Seq 0: the setup's events (a first roll, its damage, the deal as counts), which
        explain every change the setup made; a pure function of the seed, made once."""
        if self._setup_events is None:
            r = record  # a fork's seq 0 tells where it came from (issue 14.5)
            assert r.seed_hex is not None
            start = start_transition(
                self.game, bytes.fromhex(r.seed_hex), r.options, r.origin, r.origin_state
            )
            self._setup_events = start.events
        return protocol.missed_update(0, events_for(self._setup_events, seat), None, None, False)
