"""Where a table is rebuilt (play/tables.py ``Tables.build``): on the event loop when the loop
writes (SQLite) and there is nothing to replay, as for every table its players first reach
just after its start; in a worker thread otherwise (issue 15, point 2)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from backend.config import Settings
from backend.engine.replay import state_hash
from backend.engine.rng import commitment
from backend.play import tables as tables_module
from backend.play.bus import make_bus
from backend.play.tables import Tables
from backend.store.repository import Repository
from backend.store.writer import CommitWriter
from tests.play.helpers import commit_actions
from tests.play.toygame import GAME

SEED = bytes(range(32))


def started_table(repo: Repository) -> str:
    host, _ = repo.create_player("Host")
    guest, _ = repo.create_player("Guest")
    options = GAME.normalize_options({"players": 2})
    table = repo.create_table(game="toy", rules_version=GAME.rules_version, title="t", options=options,
                              visibility="public", host=host, seats=[("p1", "P1"), ("p2", "P2")],
                              turn_clock_seconds=None, prompt_timeout_seconds=60)  # fmt: skip
    assert repo.take_seat(table.id, "p1", host.id) and repo.take_seat(table.id, "p2", guest.id)
    initial = GAME.initial_state(SEED, options)
    assert repo.start_table(table.id, seed_hex=SEED.hex(), commitment=commitment(SEED),
                            initial_hash=state_hash(GAME, initial))  # fmt: skip
    return table.id


@pytest.mark.parametrize("inline", [True, False], ids=["loop", "thread"])
def test_a_table_with_nothing_to_replay_is_built_on_the_loop_when_the_loop_writes(
    repo: Repository, inline: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = started_table(repo)
    hops: list[Any] = []

    async def counted(func: Any, /, *args: Any) -> Any:
        hops.append(func)
        return func(*args)

    monkeypatch.setattr(tables_module.asyncio, "to_thread", counted)
    tables = Tables(Settings(), repo, CommitWriter(repo, inline=inline), make_bus(None))
    options = GAME.normalize_options({"players": 2})

    load, state, seq = asyncio.run(tables.build(table_id))
    assert (load.table.id, seq, state_hash(GAME, state)) == (table_id, 0, state_hash(GAME, GAME.initial_state(SEED, options)))
    assert len(hops) == (0 if inline else 1)

    after = commit_actions(GAME, repo, table_id, 1, [("p1", {"type": "roll"})], GAME.initial_state(SEED, options))
    load, state, seq = asyncio.run(tables.build(table_id))
    assert (seq, state_hash(GAME, state)) == (1, state_hash(GAME, after))
    assert len(hops) == (1 if inline else 2)  # a replay always goes to a worker thread
