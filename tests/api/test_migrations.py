"""Alembic: empty → head → base, on SQLite and on PostgreSQL; models match the revisions."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from backend.store.migrate import current, downgrade, upgrade
from backend.store.models import Base

TABLES = {"player", "game_table", "seat", "action", "snapshot", "chat_line"}
PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def roundtrip(url: str) -> None:
    upgrade(url)
    assert current(url) == "0005"
    engine = create_engine(url)
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) >= TABLES
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == [], f"models and migrations differ: {diff}"
    downgrade(url, "base")
    assert current(url) is None
    with engine.connect() as conn:
        assert not TABLES & set(inspect(conn).get_table_names())
    upgrade(url)  # and up again
    assert current(url) == "0005"
    engine.dispose()


def test_sqlite_upgrade_downgrade(tmp_path: Path) -> None:
    roundtrip(f"sqlite:///{tmp_path / 'm.db'}")


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped afterwards."""
    name = f"dt_mig_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.mark.postgres
def test_postgres_upgrade_downgrade() -> None:
    with fresh_postgres_database() as url:
        roundtrip(url)


def test_downgrade_fills_the_hashes_left_to_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """0002 leaves most action hashes NULL; going back to 0001 (NOT NULL) fills them by replay."""
    from backend.engine.replay import state_hash
    from backend.engine.rng import commitment
    from backend.store.db import make_engine, make_sessionmaker
    from backend.store.repository import ActionWrite, Repository
    from tests.play.toygame import GAME

    monkeypatch.setenv("DRAGONTABLE_EXTRA_GAMES", "toy=tests.play.toygame:GAME")
    url = f"sqlite:///{tmp_path / 'fill.db'}"
    upgrade(url)
    engine = make_engine(url)
    repo = Repository(make_sessionmaker(engine))
    host, _ = repo.create_player("Host")
    options = GAME.normalize_options({"players": 2, "target": 200})
    table = repo.create_table(game="toy", rules_version=GAME.rules_version, title="t", options=options,
                              visibility="public", host=host, seats=[("p1", "P1"), ("p2", "P2")],
                              turn_clock_seconds=None, prompt_timeout_seconds=60)  # fmt: skip
    seed = bytes(range(32))
    state = GAME.initial_state(seed, options)
    repo.start_table(
        table.id, seed_hex=seed.hex(), commitment=commitment(seed), initial_hash=state_hash(GAME, state)
    )
    expected = []
    for seq in range(1, 7):
        seat = sorted(GAME.to_act(state))[0]
        action = {"type": "roll"}
        state = GAME.apply(state, seat, action).state
        expected.append(state_hash(GAME, state))
        recorded = expected[-1] if seq == 3 else None
        assert repo.append_batch(
            [ActionWrite(table.id, seq, seat, action, f"a{seq}", False, recorded, [])]
        ) == [None]
    engine.dispose()
    downgrade(url, "0001")
    assert current(url) == "0001"
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT state_hash FROM action ORDER BY seq")).scalars().all()
    engine.dispose()
    assert rows == expected


def _events_roundtrip(url: str) -> None:
    """0005 moves every event onto its action's row, in order; going back to 0004 moves them
    back to rows of their own."""
    from backend.store.db import make_engine, make_sessionmaker
    from backend.store.repository import ActionWrite, LoggedEvent, Repository

    upgrade(url)
    engine = make_engine(url)
    repo = Repository(make_sessionmaker(engine))
    host, _ = repo.create_player("Host")
    made = {
        1: [LoggedEvent("rolled", {"dice": [3, 5]}, None), LoggedEvent("drew", {"card": "x"}, ["p1"])],
        2: [],
        3: [LoggedEvent("moved", {"to": "é", "n": 1.5}, None)],
    }
    expected = {seq: events for seq, events in made.items() if events}
    tables = []
    for _ in range(2):  # the migration moves a table at a time
        table = repo.create_table(game="toy", rules_version=1, title="t", options={}, visibility="public",
                                  host=host, seats=[("p1", "P1")], turn_clock_seconds=None,
                                  prompt_timeout_seconds=60)  # fmt: skip
        assert repo.start_table(table.id, seed_hex="00" * 32, commitment="c", initial_hash="h")
        for seq, events in made.items():
            assert repo.append_batch([ActionWrite(table.id, seq, "p1", {"type": "roll"}, f"a{seq}", False, None,
                                                  events)]) == [None]  # fmt: skip
        assert repo.events_between(table.id, 0, 3) == expected
        tables.append(table.id)
    engine.dispose()

    downgrade(url, "0004")
    plain = create_engine(url)
    with plain.connect() as conn:
        assert "events" not in {c["name"] for c in inspect(conn).get_columns("action")}
        for table_id in tables:
            rows = conn.execute(
                text("SELECT seq, idx, kind, to_seats FROM event WHERE table_id = :t ORDER BY seq, idx"),
                {"t": table_id},
            ).all()
            assert [tuple(r[:3]) for r in rows] == [(1, 0, "rolled"), (1, 1, "drew"), (3, 0, "moved")]
            assert [r[3] if not isinstance(r[3], str) else json.loads(r[3]) for r in rows] == [None, ["p1"], None]
    plain.dispose()

    upgrade(url)
    engine = make_engine(url)
    repo = Repository(make_sessionmaker(engine))
    assert [repo.events_between(t, 0, 3) for t in tables] == [expected, expected]
    engine.dispose()


def test_sqlite_events_move_to_their_action_rows_and_back(tmp_path: Path) -> None:
    _events_roundtrip(f"sqlite:///{tmp_path / 'ev.db'}")


@pytest.mark.postgres
def test_postgres_events_move_to_their_action_rows_and_back() -> None:
    with fresh_postgres_database() as url:
        _events_roundtrip(url)
