"""The lobby's writes go to the database with the group commit (store/writer.py ``run``).

A table created, a seat taken, a game started: each shares the transaction and the disk flush
of the actions committed beside it, and on SQLite runs on the event loop (issue 15, point 2: a
thread hop and a flush each were a large part of a table's churn). What it returns reaches its
caller; one that raises fails alone, as a refused action does.
"""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import Connection

from backend.lobby.errors import ApiError
from backend.lobby.routes import _committed
from backend.store.repository import Conflict, LobbyWrite, PlayerRecord, Repository
from backend.store.writer import CommitWriter
from tests.play.toygame import GAME
from tests.store.test_commit_isolation import live_tables, roll, seqs


@pytest.fixture
def host(repo: Repository) -> PlayerRecord:
    return repo.create_player("Host")[0]


def new_table(repo: Repository, conn: Connection, host: PlayerRecord) -> str:
    return repo.create_table_on(conn, game="toy", rules_version=GAME.rules_version, title="t",
                                options=GAME.normalize_options({"players": 2}), visibility="public", host=host,
                                seats=[("p1", "P1"), ("p2", "P2")], turn_clock_seconds=None,
                                prompt_timeout_seconds=60)  # fmt: skip


def test_lobby_writes_share_one_transaction_with_the_actions(repo: Repository, host: PlayerRecord) -> None:
    a, b = live_tables(repo, 2)
    made = LobbyWrite(lambda conn: new_table(repo, conn, host))
    guest, _ = repo.create_player("Guest")
    taken = LobbyWrite(lambda conn: repo.take_seat_on(conn, b, "p2", guest.id))
    assert repo.append_batch([roll(a, 1, "a1"), made, taken]) == [None, None, None]
    assert repo.get_table(made.value).status == "open"
    token = taken.value
    assert isinstance(token, str) and repo.get_table(b).seats[1].player_id == guest.id
    assert seqs(repo, [a]) == [1]


def test_a_lobby_write_that_raises_fails_alone(repo: Repository, host: PlayerRecord) -> None:
    a, b = live_tables(repo, 2)
    ran: list[str] = []

    def broken(conn: Connection) -> None:
        ran.append("broken")
        conn.exec_driver_sql("INSERT INTO no_such_table VALUES (1)")

    def fine(conn: Connection) -> str:
        ran.append("fine")
        return new_table(repo, conn, host)

    made = LobbyWrite(fine)
    results = repo.append_batch([roll(a, 1, "a1"), made, LobbyWrite(broken), roll(b, 1, "b1")])
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], Exception)
    # The batch was rolled back whole and tried again item by item: the good ones are kept, once.
    assert ran == ["fine", "broken", "fine", "broken"]
    assert seqs(repo, [a, b]) == [1, 1]
    assert [t.id for t in repo.list_tables(["open"])] == [made.value]


@pytest.mark.parametrize("inline", [False, True], ids=["thread", "loop"])
def test_run_returns_what_the_write_returned_and_writes_with_the_actions(repo: Repository, inline: bool) -> None:
    a, b = live_tables(repo, 2)
    guest, _ = repo.create_player("Guest")
    writer = CommitWriter(repo, inline=inline)
    writer.start()
    where: list[Any] = []

    def take(conn: Connection) -> str | None:
        where.append(threading.current_thread())
        return repo.take_seat_on(conn, b, "p2", guest.id)

    async def submit() -> list[Any]:
        return await asyncio.gather(writer.commit(roll(a, 1, "a1")), writer.run(take), writer.commit(roll(b, 7, "gap")),
                                    return_exceptions=True)  # fmt: skip

    try:
        acked, token, refused = asyncio.run(submit())
    finally:
        writer.stop()
    assert acked is None and isinstance(token, str) and isinstance(refused, Conflict)
    assert repo.get_table(b).seats[1].player_id == guest.id
    assert seqs(repo, [a, b]) == [1, 0]
    # With the loop writing, on the loop's own thread: no hop to a worker.
    assert (where[0] is threading.main_thread()) == inline
    if inline:  # one batch (then its items one by one, after the gap's Conflict); its two actions counted
        assert writer.batches == 1 and writer.items == 2


def test_a_lobby_refusal_leaves_the_batch_whole(repo: Repository) -> None:
    """The lobby's refusals (``ApiError``: a seat taken, a game over) are raised before their write
    writes anything, and ``routes._committed`` hands them back as a value: the batch commits as
    one, and the refusing write runs once. (Raised inside the batch, it would roll back every
    other table's action with it, and run again alone in the item-by-item retry.)"""
    (a,) = live_tables(repo, 1)
    writer = CommitWriter(repo, inline=True)
    ran: list[str] = []

    def refuse(conn: Connection) -> None:
        ran.append("refused")
        raise ApiError(409, "seat_taken", "Someone else holds that seat.")

    async def submit() -> list[Any]:
        tables = SimpleNamespace(writer=writer)
        return await asyncio.gather(writer.commit(roll(a, 1, "a1")), _committed(tables, refuse),  # type: ignore[arg-type]
                                    return_exceptions=True)  # fmt: skip

    acked, refused = asyncio.run(submit())
    assert acked is None and isinstance(refused, ApiError) and refused.code == "seat_taken"
    assert ran == ["refused"] and seqs(repo, [a]) == [1]
