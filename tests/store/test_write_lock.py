"""On SQLite, the writes of one process wait for each other on a lock, not in SQLite's busy
handler (store/db.py ``writing``).

The busy handler sleeps 1, 2, 5, 10... ms between tries, however soon the file is free: the
commit writer meeting a join's write waited that long, and the players' p99 with it. Here
every connection's busy timeout is 0, so a write that found the file locked would fail at
once ("database is locked"): a commit made while a REST write transaction is open must wait
for it and then succeed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, text

from backend.store.db import make_engine, make_sessionmaker, write_transaction, writing
from backend.store.migrate import upgrade
from backend.store.repository import Repository
from tests.store.test_commit_isolation import live_tables, roll


@pytest.fixture
def impatient(tmp_path: Any) -> Iterator[Repository]:
    """A repository on a SQLite file whose connections never wait in the busy handler."""
    url = f"sqlite:///{tmp_path / 'test.db'}"
    upgrade(url)
    engine = make_engine(url)

    @event.listens_for(engine, "connect")
    def _no_busy_wait(dbapi_conn: Any, _record: Any) -> None:  # after make_engine's pragmas
        dbapi_conn.execute("PRAGMA busy_timeout=0")

    yield Repository(make_sessionmaker(engine))
    engine.dispose()


def test_a_commit_waits_for_a_rest_write_instead_of_failing(impatient: Repository) -> None:
    repo = impatient
    [table_id] = live_tables(repo, 1)
    held, go = threading.Event(), threading.Event()

    def rest_write() -> None:
        with write_transaction(repo.engine) as conn:
            conn.execute(text("UPDATE game_table SET title = 'renamed' WHERE id = :t"), {"t": table_id})
            held.set()  # the file's write lock is this transaction's now
            assert go.wait(10)

    writer = threading.Thread(target=rest_write)
    writer.start()
    assert held.wait(10)
    results: list[Exception | None] = []
    committing = threading.Thread(target=lambda: results.extend(repo.append_batch([roll(table_id, 1, "a1")])))
    committing.start()
    # Time for the commit to reach the file while the REST write holds it (with the lock it
    # waits however long this is; without, it would fail when it got there first).
    time.sleep(0.2)
    go.set()
    writer.join(10)
    committing.join(10)
    assert results == [None]
    table = repo.get_table(table_id)
    assert (table.seq, table.title) == (1, "renamed")


def test_one_lock_per_sqlite_engine_and_none_elsewhere(impatient: Repository) -> None:
    engine = impatient.engine
    lock = writing(engine)
    assert lock is writing(engine)
    taken: list[bool] = []
    with write_transaction(engine):  # another thread's write waits for this one
        other_thread = threading.Thread(target=lambda: taken.append(lock.acquire(blocking=False)))
        other_thread.start()
        other_thread.join(10)
    assert taken == [False]
    other = make_engine("sqlite://")
    try:
        assert writing(other) is not writing(engine)
    finally:
        other.dispose()
    postgres = make_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")  # never connected
    try:
        assert not isinstance(writing(postgres), type(threading.RLock()))
    finally:
        postgres.dispose()
