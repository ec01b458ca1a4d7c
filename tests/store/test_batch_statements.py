"""A group commit on SQLite is a handful of statements, not one per row (store/logwriter.py).

The driver lets the GIL go around each statement it steps and takes it back after: the commit
thread, writing a batch of 18 actions row by row, took it back ≈ 90 times while the event loop
held it to send frames, and each action's commit waited that long. Now the seqs move in one
``UPDATE ... FROM (VALUES ...)`` and the actions, events and snapshots go in one multi-row
``INSERT`` each; what is stored is the same, and a table that moved on still refuses the batch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from backend.store.db import make_engine, make_sessionmaker
from backend.store.migrate import upgrade
from backend.store.repository import ActionWrite, Conflict, LoggedEvent, Repository
from tests.store.test_commit_isolation import live_tables


@pytest.fixture
def traced(tmp_path: Any) -> Iterator[tuple[Repository, list[str]]]:
    """A repository on a SQLite file, and every statement its connections run."""
    url = f"sqlite:///{tmp_path / 'test.db'}"
    upgrade(url)
    engine = make_engine(url)
    statements: list[str] = []

    @event.listens_for(engine, "connect")
    def _trace(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.set_trace_callback(statements.append)

    yield Repository(make_sessionmaker(engine)), statements
    engine.dispose()


def action(table_id: str, seq: int, n: int, *, snapshot: bool = False) -> ActionWrite:
    events = [LoggedEvent(f"kind{k}", {"n": n, "k": k}, None if k else ["p1"]) for k in range(3)]
    return ActionWrite(table_id, seq, "p1", {"type": "roll", "n": n}, f"a{n}", n % 2 == 0, f"h{n}", events,
                       snapshot=f'{{"state": {n}}}' if snapshot else None)  # fmt: skip


def test_a_batch_of_many_tables_is_a_few_statements_and_stores_every_row(
    traced: tuple[Repository, list[str]],
) -> None:
    repo, statements = traced
    ids = live_tables(repo, 200)
    batch = [action(t, 1, n, snapshot=n % 50 == 0) for n, t in enumerate(ids)]
    statements.clear()
    assert repo.append_batch(batch) == [None] * len(ids)
    written = [s for s in statements if not s.startswith(("BEGIN", "COMMIT"))]
    # 200 seqs moved by one statement; 200 actions, their 600 events in their rows, by two (999
    # parameters at most each); 4 snapshots by one.
    assert [s.split(" ", 3)[:3] for s in written] == (
        [["UPDATE", "game_table", "SET"]] + [["INSERT", "INTO", "action"]] * 2 + [["INSERT", "INTO", "snapshot"]]
    )  # fmt: skip
    for n, t in enumerate(ids):
        [stored] = repo.actions_after(t, 0)
        assert (stored.seq, stored.seat, stored.action, stored.action_id, stored.state_hash, stored.by_timeout) == (
            1, "p1", {"type": "roll", "n": n}, f"a{n}", f"h{n}", n % 2 == 0,
        )  # fmt: skip
        assert repo.events_between(t, 0, 1) == {1: batch[n].events}
        assert repo.get_table(t).seq == 1
    assert repo.load_for_play(ids[50]).snapshot_state == '{"state": 50}'


def test_a_table_that_moved_on_refuses_the_batch_and_only_itself(traced: tuple[Repository, list[str]]) -> None:
    repo, _ = traced
    a, b, c = live_tables(repo, 3)
    assert repo.append_batch([action(b, 1, 0)]) == [None]
    results = repo.append_batch([action(a, 1, 1), action(b, 1, 2), action(c, 1, 3)])
    assert results[0] is None and results[2] is None and isinstance(results[1], Conflict)
    assert [repo.get_table(t).seq for t in (a, b, c)] == [1, 1, 1]
    assert [x.action_id for x in repo.actions_after(b, 0)] == ["a0"]
