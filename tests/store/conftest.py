from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.store.db import make_engine, make_sessionmaker
from backend.store.migrate import upgrade
from backend.store.repository import Repository


@pytest.fixture
def repo(database_url: str) -> Iterator[Repository]:
    """A repository over a migrated database (SQLite, and PostgreSQL where it runs)."""
    upgrade(database_url)
    engine = make_engine(database_url)
    yield Repository(make_sessionmaker(engine))
    engine.dispose()
