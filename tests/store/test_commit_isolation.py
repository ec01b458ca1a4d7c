"""A failing write never takes down unrelated tables (issue 9, defect 6).

On PostgreSQL one legal action whose ``action_id`` held a NUL failed the group commit, and the
clean actions of other tables in the same batch were refused ``unavailable``.  A batch that
fails for any reason is now saved one action per transaction: the bad one is refused with its
own error, the others commit.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from backend.store.repository import ActionWrite, Conflict, Repository, Unsavable
from backend.store.writer import CommitWriter
from tests.play.toygame import GAME


def live_tables(repo: Repository, n: int) -> list[str]:
    host, _ = repo.create_player("Host")
    options = GAME.normalize_options({"players": 2})
    ids = []
    for _ in range(n):
        table = repo.create_table(game="toy", rules_version=GAME.rules_version, title="t", options=options,
                                  visibility="public", host=host, seats=[("p1", "P1"), ("p2", "P2")],
                                  turn_clock_seconds=None, prompt_timeout_seconds=60)  # fmt: skip
        assert repo.start_table(table.id, seed_hex="00" * 32, commitment="c", initial_hash="h")
        ids.append(table.id)
    return ids


def roll(table_id: str, seq: int, action_id: str) -> ActionWrite:
    return ActionWrite(table_id, seq, "p1", {"type": "roll"}, action_id, False, None, [])


def seqs(repo: Repository, ids: list[str]) -> list[int]:
    return [repo.get_table(t).seq for t in ids]


def test_a_nul_in_one_action_id_refuses_that_action_only(repo: Repository, database_url: str) -> None:
    a, b, c = live_tables(repo, 3)
    results = repo.append_batch([roll(a, 1, "a1"), roll(b, 1, "bad\x00id"), roll(c, 1, "c1")])
    assert results[0] is None and results[2] is None
    if database_url.startswith("postgresql"):
        assert isinstance(results[1], Unsavable)  # PostgreSQL text cannot hold a NUL
        assert seqs(repo, [a, b, c]) == [1, 0, 1]
    else:
        assert results[1] is None  # SQLite stores it
        assert seqs(repo, [a, b, c]) == [1, 1, 1]


def test_a_batch_that_fails_for_any_reason_is_saved_one_by_one(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c, d = live_tables(repo, 4)
    log = repo._log_writer()
    real = log._write

    def poisoned(cur: Any, batch: list[ActionWrite]) -> None:
        if any(item.action_id == "poison" for item in batch):
            raise Unsavable("this one cannot be stored")
        real(cur, batch)

    monkeypatch.setattr(log, "_write", poisoned)
    results = repo.append_batch([roll(a, 1, "a1"), roll(b, 1, "poison"), roll(c, 7, "gap"), roll(d, 1, "d1")])
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], Unsavable) and isinstance(results[2], Conflict)
    assert seqs(repo, [a, b, c, d]) == [1, 0, 0, 1]


def test_an_unreachable_database_is_not_hammered(repo: Repository, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = live_tables(repo, 5)
    log = repo._log_writer()
    calls: list[int] = []

    def down(batch: list[ActionWrite]) -> None:
        calls.append(len(batch))
        raise ConnectionError("the database is gone")

    monkeypatch.setattr(log, "append", down)
    results = repo.append_batch([roll(t, 1, f"x{i}") for i, t in enumerate(ids)])
    assert all(isinstance(r, ConnectionError) for r in results) and len(results) == 5
    assert calls == [5, 1]  # the batch, then one single try: the rest hear the same error


@pytest.mark.parametrize("inline", [False, True], ids=["thread", "loop"])
def test_the_group_writer_settles_each_waiter_with_its_own_result(repo: Repository, inline: bool) -> None:
    a, b, c = live_tables(repo, 3)
    writer = CommitWriter(repo, inline=inline)
    writer.start()

    async def submit() -> list[BaseException | None]:
        # Queued together, so the writer takes them as one batch when it can.
        items = [roll(a, 1, "a1"), roll(b, 2, "b-gap"), roll(c, 1, "c1")]
        return await asyncio.gather(*(writer.commit(i) for i in items), return_exceptions=True)

    try:
        results = asyncio.run(submit())
    finally:
        writer.stop()
    assert results[0] is None and results[2] is None and isinstance(results[1], Conflict)
    assert seqs(repo, [a, b, c]) == [1, 0, 1]
    if inline:  # handed over in one turn of the loop: written together at the start of the next
        assert (writer.batches, writer.items) == (1, 3)


def test_the_loop_waits_for_company_only_when_tables_play_together(repo: Repository) -> None:
    """``interval`` (Settings.commit_interval_ms): once a batch held two tables' actions, the
    loop's next commit waits until ``interval`` after it, and what is handed over meanwhile shares
    it; one table playing alone is never held back (its next action comes only after the ack)."""
    a, b, c = live_tables(repo, 3)
    writer = CommitWriter(repo, inline=True, interval=1.0)

    async def play() -> list[tuple[int, int]]:
        loop = asyncio.get_running_loop()
        seen = []
        for seq in (1, 2, 3):  # alone: each commit at once, far sooner than the interval
            started = loop.time()
            await writer.commit(roll(a, seq, f"a{seq}"))
            seen.append((writer.batches, round(loop.time() - started < 1.0)))
        await asyncio.gather(writer.commit(roll(b, 1, "b1")), writer.commit(roll(c, 1, "c1")))  # company
        first = asyncio.ensure_future(writer.commit(roll(b, 2, "b2")))
        await asyncio.sleep(0.1)  # handed over in another turn, while the first waits
        started = loop.time()
        await asyncio.gather(first, writer.commit(roll(c, 2, "c2")))
        seen.append((writer.batches, round(loop.time() - started > 0.3)))  # ≈ 0.9
        return seen

    assert asyncio.run(play()) == [(1, 1), (2, 1), (3, 1), (5, 1)]
    assert (writer.items, seqs(repo, [a, b, c])) == (7, [3, 2, 2])
