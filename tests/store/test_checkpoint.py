"""SQLite's checkpoints run in a thread of their own (store/checkpoint.py), never in a commit.

The server's connections are made with ``wal_autocheckpoint=0``: their commits only append to
the WAL.  ``Checkpoints`` copies the pages back, and once the WAL is long it copies the last
pages under the write lock so that the next commit starts the WAL over: it stays bounded.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import Engine

from backend.store import checkpoint
from backend.store.checkpoint import Checkpoints
from backend.store.db import make_engine, make_sessionmaker, sqlite_file, writing
from backend.store.migrate import upgrade
from backend.store.repository import Repository
from tests.play.inprocess import seated_clients, serving, wait_for
from tests.store.test_commit_isolation import live_tables, roll

TABLES = 20


@pytest.fixture
def db(tmp_path: Path) -> Iterator[tuple[Path, Engine, Repository]]:
    path = tmp_path / "test.db"
    url = f"sqlite:///{path}"
    upgrade(url)
    engine = make_engine(url, autocheckpoint=False)
    yield path, engine, Repository(make_sessionmaker(engine))
    engine.dispose()


def wal_frames_on_disk(path: Path) -> int:
    """The WAL file's length in frames: the most it ever held since it was made."""
    with closing(sqlite3.connect(path)) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
    return max(0, (Path(f"{path}-wal").stat().st_size - 32) // (page + 24))


def play(repo: Repository, ids: list[str], rounds: int, first: int = 1, checkpoints: Checkpoints | None = None) -> None:
    """``rounds`` group commits, each one action at every table."""
    for seq in range(first, first + rounds):
        results = repo.append_batch([roll(t, seq, f"{t}-{seq}") for t in ids])
        assert results == [None] * len(ids)
        if checkpoints is not None:
            checkpoints.wrote()


def until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "the checkpoint thread did not run"
        time.sleep(0.005)


def actions_in_database_file(path: Path, tmp_path: Path) -> int:
    """The actions the database file holds by itself, without its WAL."""
    alone = tmp_path / "alone.db"
    shutil.copyfile(path, alone)
    with closing(sqlite3.connect(alone)) as conn:
        return int(conn.execute("SELECT count(*) FROM action").fetchone()[0])


def test_the_servers_connections_leave_the_wal_to_grow(db: tuple[Path, Engine, Repository]) -> None:
    path, _, repo = db
    ids = live_tables(repo, TABLES)
    play(repo, ids, 150)
    # With SQLite's default a commit that takes the WAL past 1,000 frames copies it back, and
    # the WAL starts over: it would never hold much more than 1,000.
    assert wal_frames_on_disk(path) > 1500


def test_a_checkpoint_copies_everything_and_the_next_commit_starts_the_wal_over(
    db: tuple[Path, Engine, Repository], tmp_path: Path
) -> None:
    path, engine, repo = db
    ids = live_tables(repo, TABLES)
    play(repo, ids, 60)
    assert actions_in_database_file(path, tmp_path) == 0
    checkpoints = Checkpoints(engine, restart_frames=100)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        checkpoints.checkpoint(conn)
        assert checkpoints.restarts == 1
        assert actions_in_database_file(path, tmp_path) == 60 * TABLES
        high_water = wal_frames_on_disk(path)
        play(repo, ids, 5, first=61)
        # The five commits were written from the WAL's start: it grew no longer, and it now
        # holds only their frames.
        assert wal_frames_on_disk(path) == high_water
        ((_, frames, copied),) = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        assert 0 < frames < high_water // 4 and copied == frames


def test_the_last_pass_before_a_restart_holds_the_writers(
    db: tuple[Path, Engine, Repository], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy server's commits land while the thread copies, and the WAL starts over only when
    a writer finds every page copied. So once the WAL is long the last pass runs under the
    writers' lock (db.writing): no commit of this process lands during it, and the next one
    starts the WAL over. Each pass here records whether another thread could write then."""
    path, engine, repo = db
    ids = live_tables(repo, TABLES)
    play(repo, ids, 60)
    writers_free: list[bool] = []
    real = checkpoint._passive

    def recorded(conn: sqlite3.Connection) -> tuple[int, int]:
        def try_to_write() -> None:
            lock = writing(engine)
            free = lock.acquire(blocking=False)
            if free:
                lock.release()
            writers_free.append(free)

        other = threading.Thread(target=try_to_write)
        other.start()
        other.join(10)
        return real(conn)

    monkeypatch.setattr(checkpoint, "_passive", recorded)
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        Checkpoints(engine, restart_frames=100).checkpoint(conn)
        # Two passes while the commits go on, the last one with the writers held.
        assert writers_free == [True, True, False]
        writers_free.clear()
        play(repo, ids, 1, first=61)  # the commit that starts the WAL over
        Checkpoints(engine, restart_frames=100).checkpoint(conn)
        # A short WAL: one pass, and nobody held.
        assert writers_free == [True]


def test_the_thread_keeps_the_wal_short_and_copies_the_rest_when_it_stops(
    db: tuple[Path, Engine, Repository], tmp_path: Path
) -> None:
    path, engine, repo = db
    ids = live_tables(repo, TABLES)
    copied: list[int] = []
    checkpoints = Checkpoints(engine, every=0.0, restart_frames=200, on_checkpoint=copied.append)
    checkpoints.start()
    try:
        for start in range(1, 300, 20):
            play(repo, ids, 20, first=start, checkpoints=checkpoints)
            # One checkpoint at least between each 20 commits: the test does not race the thread.
            done = len(copied)
            until(lambda done=done: len(copied) > done)
    finally:
        checkpoints.stop()
    assert checkpoints.restarts >= 5
    # 300 rounds wrote several thousand frames; the WAL started over each time it passed 200
    # (plus what 20 commits and one checkpoint's time add).
    assert wal_frames_on_disk(path) < 1500
    assert actions_in_database_file(path, tmp_path) == 300 * TABLES


def test_only_a_sqlite_file_has_its_checkpoints_in_a_thread() -> None:
    assert sqlite_file("sqlite:////srv/dragontable.db") == "/srv/dragontable.db"
    assert sqlite_file("sqlite://") is None
    assert sqlite_file("sqlite:///:memory:") is None
    assert sqlite_file("postgresql+psycopg://u@h/db") is None
    with pytest.raises(ValueError):
        Checkpoints(make_engine("sqlite://"))


async def test_the_server_checkpoints_in_its_thread(tmp_path: Path) -> None:
    async with serving(tmp_path) as (app, _, port):
        engine = app.state.repo.engine
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        table_id, _, seats = await seated_clients(port, ["ninja", "hunter"])
        actor = next(s for s, c in seats.items() if c.legal and s in c.to_act)
        client = seats[actor]
        await client.send({"type": "act", "seq": client.seq, "action_id": "a1", "action": client.legal[0]})
        assert (await client.expect("ack", "rejected"))["type"] == "ack"
        registry = app.state.metrics.registry
        await wait_for(lambda: (registry.get_sample_value("dragontable_checkpoint_pages_sum") or 0) > 0)
        for other in seats.values():
            await other.close()
