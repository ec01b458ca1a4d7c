"""A table read on the driver's cursor (store/logwriter.py ``Read``, ``Repository.table_on``) is the
record SQLAlchemy's own execution reads, every field of it, on SQLite and on PostgreSQL."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime

import pytest

from backend.store.repository import _TABLE_BY_ID, NotFound, Repository
from tests.play.toygame import GAME


def sqlalchemy_read(repo: Repository, table_id: str, with_seed: bool) -> dict[str, object]:
    with repo.engine.connect() as conn:
        row = conn.execute(_TABLE_BY_ID, {"t": table_id}).one()
        return asdict(Repository._record(conn, row, with_seed=with_seed))


def test_a_table_read_on_the_cursor_is_the_one_sqlalchemy_reads(repo: Repository) -> None:
    host, _ = repo.create_player("Host é")
    bot, _ = repo.create_player("Steady bot", bot="steady", runner=True)
    options = GAME.normalize_options({"players": 2})
    table = repo.create_table(game="toy", rules_version=GAME.rules_version, title="Ünïcode ☃", options=options,
                              visibility="public", host=host, seats=[("p1", "P1"), ("p2", "P2")],
                              turn_clock_seconds=12.5, prompt_timeout_seconds=60, takeover="off", bot_seconds=0.5,
                              origin={"table": "x", "seq": 3, "hash": "h"}, origin_state='{"a": 1}')  # fmt: skip
    assert repo.take_seat(table.id, "p2", bot.id) is not None
    assert repo.start_table(table.id, seed_hex="ab" * 32, commitment="c", initial_hash="h")
    for with_seed in (False, True):
        with repo.engine.connect() as conn:
            raw = asdict(repo.table_on(conn, table.id, with_seed=with_seed))
        assert raw == sqlalchemy_read(repo, table.id, with_seed)
    read = repo.get_table(table.id, with_seed=True)
    assert read.seed_hex == "ab" * 32 and read.turn_clock_seconds == 12.5 and read.origin == {"table": "x", "seq": 3, "hash": "h"}
    assert [(s.seat, s.player_bot, s.player_runner) for s in read.seats] == [("p1", None, False), ("p2", "steady", True)]
    # Equal as Python compares is not enough: 1 == True. The driver's own values are converted.
    assert type(read.seats[1].player_runner) is bool and type(read.seats[0].player_runner) is bool
    assert isinstance(read.created_at, datetime) and isinstance(read.options, dict)
    with pytest.raises(NotFound), repo.engine.connect() as conn:
        repo.table_on(conn, "no-such-table")
