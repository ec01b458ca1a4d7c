"""Engine and sessions.

SQLite runs in WAL mode with ``synchronous=FULL``: a commit is on disk before the
server acknowledges an action, so a SIGKILL (or power loss) never loses an
acknowledged action.  PostgreSQL is durable by default.

SQLite lets one transaction write at a time, and a writer that finds the file locked
sleeps in its busy handler: 1, 2, 5, 10, 15, 20, 25 ms... before each retry, however soon
the lock is free.  The commit writer (store/writer.py) and a REST request's write (a join,
a start) met that way often, and an action's commit then waited 3 to 33 ms for nothing: the
tail of its latency.  So in one process every write to a SQLite file takes the engine's own
lock first (``writing``) and waits only as long as the other write lasts.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session, sessionmaker


def sqlite_file(url: str | URL) -> str | None:
    """The file of the SQLite database at ``url``; None for one in memory or another database."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        return parsed.database
    return None


def ensure_sqlite_dir(url: str) -> None:
    path = sqlite_file(url)
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)


def json_dumps(value: Any) -> str:
    """JSON columns (actions, events): orjson when it can, the standard library otherwise."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # non-string keys, integers beyond 64 bits...
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def make_engine(url: str, *, autocheckpoint: bool = True, **kwargs: Any) -> Engine:
    """``autocheckpoint=False``: a SQLite connection never checkpoints the WAL when it commits
    (the server runs them in a thread: store/checkpoint.py)."""
    ensure_sqlite_dir(url)
    kwargs.setdefault("json_serializer", json_dumps)
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **kwargs)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            if not autocheckpoint:
                cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    if "poolclass" not in kwargs:
        kwargs.update(pool_size=10, max_overflow=20)
    return create_engine(url, pool_pre_ping=True, **kwargs)


# A SQLite engine -> the lock its writes take in this process (module docstring).
_WRITE_LOCKS: weakref.WeakKeyDictionary[Engine, threading.RLock] = weakref.WeakKeyDictionary()
_WRITE_LOCKS_MADE = threading.Lock()


def writing(engine: Engine) -> AbstractContextManager[Any]:
    """Held around a write transaction: the engine's write lock on SQLite (reentrant), nothing
    elsewhere (PostgreSQL's writers do not poll)."""
    if engine.dialect.name != "sqlite":
        return nullcontext()
    lock = _WRITE_LOCKS.get(engine)
    if lock is None:
        with _WRITE_LOCKS_MADE:
            lock = _WRITE_LOCKS.setdefault(engine, threading.RLock())
    return lock


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """``engine.begin()`` for a transaction that writes, under ``writing``."""
    with writing(engine), engine.begin() as conn:
        yield conn


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
