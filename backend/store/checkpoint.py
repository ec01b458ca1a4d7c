"""SQLite's checkpoints, in a thread of their own.

In WAL mode a commit appends pages to the ``-wal`` file, and a checkpoint copies them back
into the database file.  By default the connection whose commit takes the WAL past 1,000
pages runs that checkpoint itself before its commit returns: ≈ 4 MB written and the database
file synced, several milliseconds.  The server's commits run on the event loop
(store/writer.py), so every ≈ 14th group commit held every table still for that long: the
tail of an action's latency at 1,000 actions/s (bench/README.md, Server, "checkpoints off the loop").

So the server's connections never checkpoint (``wal_autocheckpoint=0``, set by ``make_engine``)
and this thread does, with a connection of its own, after the commits wake it:

- a PASSIVE checkpoint copies what the WAL holds without taking any lock from the writers
  (SQLite's own C code: the GIL is let go for all of it);
- the WAL restarts from its beginning only when a writer finds every page copied, which a
  busy server's commits rarely leave time for.  So once the WAL holds ``restart_frames`` or
  more, the thread copies again what the commits added meanwhile, then the last few pages
  under the engine's write lock (db.writing: the writers in this process wait on a mutex,
  never in SQLite's busy handler; 2–7 ms at the longest here), and the next commit starts the
  WAL again.  The WAL stays a few megabytes.

Durability does not change: a commit is on disk in the WAL (``synchronous=FULL``) before it
is acknowledged, whoever copies it back later, and a checkpoint syncs the database file before
it counts its pages as copied.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable

from sqlalchemy import Engine

from .db import sqlite_file, writing

log = logging.getLogger("dragontable.store")


class Checkpoints:
    """Runs the checkpoints of ``engine``'s SQLite file; ``wrote()`` after each commit."""

    def __init__(
        self,
        engine: Engine,
        *,
        every: float = 0.1,
        restart_frames: int = 1000,
        on_checkpoint: Callable[[int], None] | None = None,
    ) -> None:
        path = sqlite_file(engine.url)
        if path is None:
            raise ValueError("Checkpoints runs a SQLite file's checkpoints only")
        self.engine = engine
        self.path = path
        # At most one checkpoint per `every` seconds: each copies what several commits wrote.
        self.every = every
        self.restart_frames = restart_frames
        # Told the pages each checkpoint copied (the server's metrics).
        self.on_checkpoint = on_checkpoint
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoints", daemon=True)
        self.restarts = 0
        # The longest the writers waited for a restart (seconds; bench/commit_tail.py).
        self.held_longest = 0.0

    def start(self) -> None:
        self._thread.start()

    def wrote(self) -> None:
        """A commit added pages to the WAL (any thread)."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            # The checkpoint syncs the database file before the WAL may be started again.
            conn.execute("PRAGMA synchronous=FULL")
            while not self._stop.is_set():
                # Writes outside the commit writer (a join, a chat line) wake no one: the
                # timeout copies them back on an otherwise quiet server.
                self._wake.wait(timeout=5.0)
                self._wake.clear()
                try:
                    self.checkpoint(conn)
                except sqlite3.Error:
                    log.exception("checkpoint failed")
                self._stop.wait(self.every)
            self.checkpoint(conn)
        finally:
            conn.close()

    def checkpoint(self, conn: sqlite3.Connection) -> None:
        frames, copied = _passive(conn)
        if frames >= self.restart_frames:
            # Again, without the lock: what the commits added during the first pass, a few
            # pages, so that what is left for the pass under the lock is fewer still.
            _, copied = _passive(conn)
            # Nobody in this process appends while the last pages are copied: the next
            # commit finds all of them in the database file and starts the WAL over.
            with writing(self.engine):
                began = time.perf_counter()
                frames, copied = _passive(conn)
                self.held_longest = max(self.held_longest, time.perf_counter() - began)
            self.restarts += 1
        if self.on_checkpoint is not None:
            self.on_checkpoint(copied)


def _passive(conn: sqlite3.Connection) -> tuple[int, int]:
    """The WAL's frames and how many of them are now in the database file.  ``fetchall``: a
    statement left unfinished would hold a read lock, and the WAL could never restart."""
    ((_busy, frames, copied),) = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    return int(frames), int(copied)
