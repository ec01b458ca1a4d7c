"""The app in-process on a fresh SQLite file (the toy game registered), for the API tests that
need nothing else; tests that need another database or frontend make their own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.app import create_app
from backend.config import Settings
from backend.store.migrate import upgrade


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'api.db'}"
    upgrade(url)
    settings = Settings(database_url=url, extra_games="toy=tests.play.toygame:GAME")
    with TestClient(create_app(settings)) as c:
        yield c
