"""Alembic: empty → head → base, on SQLite and on PostgreSQL; models match the revisions."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from backend.store.migrate import current, downgrade, upgrade
from backend.store.models import Base

TABLES = {"player", "game_table", "seat", "action", "event", "snapshot"}
PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def roundtrip(url: str) -> None:
    upgrade(url)
    assert current(url) == "0002"
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
    assert current(url) == "0002"
    engine.dispose()


def test_sqlite_upgrade_downgrade(tmp_path: Path) -> None:
    roundtrip(f"sqlite:///{tmp_path / 'm.db'}")


@pytest.mark.postgres
def test_postgres_upgrade_downgrade() -> None:
    name = f"dt_mig_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        roundtrip(f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}")
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
