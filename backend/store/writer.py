"""Group commit: every table's actions written many per transaction, and the lobby's writes
(a table created, a seat taken, a game started: ``run``) with them.

Masters hand their action rows over and await the commit; the writer takes
everything handed over since its last commit and writes it in one transaction, so
one disk flush acknowledges many actions when tables are busy, and a quiet
table still gets its commit at once.

The writer is a thread of its own, or (``inline``) the event loop itself, which writes what its
tables handed over during one turn at the start of the next, as Redis writes its append-only
file before it sleeps. On SQLite the loop does it (``Settings.commit_writer``): a thread took
the GIL back from the loop several times a batch, each time waiting for the loop to let it go,
and the commit's wait was most of an action's latency at 1,000 actions/s (bench/README.md,
Server, "the commit's wait"). On PostgreSQL a commit is a round trip the loop must not sit through.

When the loop writes and several tables are playing, a commit waits until ``interval`` seconds
after the one before (``Settings.commit_interval_ms``), as MySQL's binlog group commit waits
for company (``binlog_group_commit_sync_delay``) and PostgreSQL's ``commit_delay`` does only
when other transactions are open (``commit_siblings``). A commit's cost is mostly its own (the
transaction, three statements, the disk flush), not its actions': at 1,000 actions/s over 50
tables the loop committed ≈ 2 actions at a time, 500 commits a second, a fifth of its time.
Only company is waited for: while no batch has held two tables' actions for a while (one
table playing alone, as a test does), every commit goes at once.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import Connection

from .repository import ActionWrite, LobbyWrite, Repository

T = TypeVar("T")

log = logging.getLogger("dragontable.store")

_STOP = object()
# How long, in commit intervals, a batch of several tables' actions keeps the loop waiting for company.
_COMPANY = 25


@dataclass(slots=True)
class _Job:
    item: ActionWrite | LobbyWrite
    future: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop


class CommitWriter:
    def __init__(
        self,
        repo: Repository,
        max_batch: int = 256,
        on_batch: Callable[[int], None] | None = None,
        *,
        inline: bool = False,
        interval: float = 0.0,
    ) -> None:
        self.repo = repo
        # Told the actions of every batch written (the server's metrics; lobby writes are not counted).
        self.on_batch = on_batch
        self.max_batch = max_batch
        self.inline = inline
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        # The writer's own thread; none when the loop writes.
        self._thread = None if inline else threading.Thread(target=self._run, name="commit-writer", daemon=True)
        # Inline: the jobs of each event loop since its last turn wrote them.
        self._turn: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
        # Inline: the least time between one loop's commits while it has company, when the
        # next may start (``loop.time()``), and until when it has company: a batch of two
        # tables' actions or more keeps it that long (a table has one action in flight at most).
        self.interval = interval
        self._next: dict[asyncio.AbstractEventLoop, float] = {}
        self._company: dict[asyncio.AbstractEventLoop, float] = {}
        self.batches = 0
        self.items = 0

    def start(self) -> None:
        if self._thread is not None:
            self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout=10)

    async def commit(self, item: ActionWrite) -> None:
        """Returns once ``item`` is durable; raises repository.Conflict or Unsavable if refused
        (or the database's error when it cannot be reached)."""
        await self._enqueue(item)

    async def run(self, run: Callable[[Connection], T]) -> T:
        """``run``'s writes made durable with the next batch (``LobbyWrite``: it refuses by
        returning, never by raising); returns what it returned.

        A lobby write (a join, a start) used to be a transaction of its own in a worker thread:
        a thread hop and a disk flush each, and on SQLite the file's write lock taken from the
        loop's commits. Here it shares the batch's transaction and flush, and with the loop
        writing (SQLite) it runs on the loop: no hop (bench/README.md, issue 15 point 2, the
        seventh session)."""
        work = LobbyWrite(run)
        await self._enqueue(work)
        value: T = work.value
        return value

    async def _enqueue(self, item: ActionWrite | LobbyWrite) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        job = _Job(item, future, loop)
        if self.inline:
            jobs = self._turn.get(loop)
            if jobs is None:
                jobs = self._turn[loop] = []
                at = self._next.get(loop, 0.0)
                if at > loop.time():
                    loop.call_at(at, self._write_turn, loop)
                else:
                    loop.call_soon(self._write_turn, loop)
            jobs.append(job)
        else:
            self._queue.put(job)
        await future

    def _write_turn(self, loop: asyncio.AbstractEventLoop) -> None:
        jobs = self._turn.pop(loop)
        for start in range(0, len(jobs), self.max_batch):
            self._write(jobs[start : start + self.max_batch])
        if self.interval:
            now = loop.time()
            if len(jobs) > 1:
                self._company[loop] = now + _COMPANY * self.interval
            if self._company.get(loop, 0.0) > now:
                self._next[loop] = now + self.interval

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            jobs = [first]
            stop = False
            while len(jobs) < self.max_batch:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stop = True
                    break
                jobs.append(nxt)
            self._write([j for j in jobs if isinstance(j, _Job)])
            if stop:
                return

    def _write(self, jobs: list[_Job]) -> None:
        try:
            results: list[Exception | None] = list(self.repo.append_batch([j.item for j in jobs]))
        except Exception as exc:  # the database is gone: every waiter hears it
            log.exception("commit failed")
            results = [exc] * len(jobs)
        actions = sum(type(j.item) is ActionWrite for j in jobs)
        self.batches += 1
        self.items += actions
        if self.on_batch is not None:
            self.on_batch(actions)
        # One wake-up per event loop for the whole batch, not one per action.
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]] = {}
        for job, result in zip(jobs, results, strict=True):
            by_loop.setdefault(job.loop, []).append((job.future, result))
        for loop, settled in by_loop.items():
            if self.inline:
                _settle(settled)
            else:
                loop.call_soon_threadsafe(_settle, settled)


def _settle(settled: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    for future, result in settled:
        if future.done():
            continue
        if result is None:
            future.set_result(None)
        else:
            future.set_exception(result)
