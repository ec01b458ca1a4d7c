"""A toy-game server (a real uvicorn subprocess) shared by a test module, and its host player.

Modules that need a server of their own settings define their own ``server`` fixture.
"""

from __future__ import annotations

import pytest

from ..server_fixtures import Api, ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest):
    tmp = tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2])
    with ServerProcess(f"sqlite:///{tmp / 'server.db'}", log_path=tmp / "server.log") as srv:
        yield srv
    log = (tmp / "server.log").read_text()
    assert "Traceback" not in log, log


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Api:
    return Api(server.base_url, "Host")
