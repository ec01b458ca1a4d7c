"""Shared test setup: the toy game is registered for in-process tests; a fresh PostgreSQL
database per test (``pg_url``) and ``database_url``, which runs a test on SQLite and on
PostgreSQL; real-server helpers live in tests/server_fixtures.py."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from backend.engine import registry
from backend.store.db import make_engine, make_sessionmaker
from backend.store.migrate import upgrade
from backend.store.repository import Repository

PG = "postgresql+psycopg://postgres@127.0.0.1:5432"

registry.register("toy", "tests.play.toygame:GAME")


def pytest_collection_modifyitems(config, items):
    """Run the browser tests last.

    Playwright's sync API keeps an event loop running in the main thread for the
    whole session once started; tests that call asyncio.run() must come first.
    """
    items.sort(key=lambda item: "/tests/e2e/" in str(item.path).replace("\\", "/"))


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new PostgreSQL database (dropped afterwards) on the local server."""
    name = f"dt_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(f"{PG}/test", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{PG}/{name}"
    finally:
        admin.dispose()  # a test may have restarted the server: its pooled sessions are gone
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test runs twice: on a SQLite file, and on PostgreSQL, which refuses what SQLite
    stores (a NUL in a text column)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def repo(database_url: str) -> Iterator[Repository]:
    """A repository over a migrated database (SQLite, and PostgreSQL where it runs)."""
    upgrade(database_url)
    engine = make_engine(database_url)
    yield Repository(make_sessionmaker(engine))
    engine.dispose()
