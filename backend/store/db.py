"""Engine and sessions.

SQLite runs in WAL mode with ``synchronous=FULL``: a commit is on disk before the
server acknowledges an action, so a SIGKILL (or power loss) never loses an
acknowledged action.  PostgreSQL is durable by default.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker


def ensure_sqlite_dir(url: str) -> None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def json_dumps(value: Any) -> str:
    """JSON columns (actions, events): orjson when it can, the standard library otherwise."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # non-string keys, integers beyond 64 bits...
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def make_engine(url: str, **kwargs: Any) -> Engine:
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
            cur.close()

        return engine
    if "poolclass" not in kwargs:
        kwargs.update(pool_size=10, max_overflow=20)
    return create_engine(url, pool_pre_ping=True, **kwargs)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
