"""A table is loaded as one moment of its log, even while another worker commits to it.

``load_for_play`` reads the table row, then its actions, in separate statements. On PostgreSQL
(read committed) each statement sees what is committed when it runs, so a commit landing
between the two gave a log one action longer than the table's seq, and ``build_state``
refused the table as broken: a worker restarted while another kept the game going closed its
first socket with 1011 (``tests/play/test_chaos.py::test_worker_sigkill_mid_game`` in a
clean-clone CI run). The actions and their ids are now read up to the seq the row names.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from backend.store.repository import ChatRecord, Repository
from tests.store.test_commit_isolation import live_tables, roll


def test_a_commit_between_the_row_and_the_log_is_not_half_read(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    [table_id] = live_tables(repo, 1)
    assert repo.append_batch([roll(table_id, 1, "a1"), roll(table_id, 2, "a2")]) == [None, None]
    real = Repository._record

    def then_another_worker_commits(conn: Any, row: Any, **kw: Any) -> Any:
        record = real(conn, row, **kw)
        if record.id == table_id and record.seq == 2:
            assert repo.append_batch([roll(table_id, 3, "a3")]) == [None]
        return record

    monkeypatch.setattr(Repository, "_record", staticmethod(then_another_worker_commits))
    load = repo.load_for_play(table_id)
    assert load.table.seq == 2
    assert [a.seq for a in load.actions] == [1, 2]
    assert load.action_ids == {"a1": (1, "p1"), "a2": (2, "p1")}
    assert repo.get_table(table_id).seq == 3  # the commit did land: the next load sees it
    assert [a.seq for a in repo.load_for_play(table_id).actions] == [1, 2, 3]


def test_the_load_says_whether_the_table_was_ever_chatted_at(repo: Repository) -> None:
    (table_id,) = live_tables(repo, 1)
    assert repo.load_for_play(table_id).chatted is False
    repo.add_chat_line(table_id, ChatRecord(0, "table", "Ann", "p1", "hi", False, datetime.now(UTC)))
    assert repo.load_for_play(table_id).chatted is True
