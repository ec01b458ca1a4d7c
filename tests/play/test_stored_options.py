"""A table stored before options were bounded (issue 9, defect 4) is refused with a reason.

Its welcome could not be encoded (orjson refuses integers beyond 64 bits) and every socket
dropped with 1006; now the table says it cannot be opened, and a new one can be made.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from backend.app import create_app
from backend.config import Settings
from backend.engine.registry import get_game
from backend.store.migrate import upgrade


def test_a_stored_table_with_an_option_out_of_range_is_refused_not_dropped(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url)
    game = get_game("dorn")
    with TestClient(create_app(Settings(database_url=url))) as client:
        repo = client.app.state.repo
        host, _ = repo.create_player("Old")
        # As the old server stored it: normalized, but never checked against the schema.
        options = {**game.normalize_options({}), "round_limit": 2**70}
        table = repo.create_table(game="dorn", rules_version=game.rules_version, title="old", options=options,
                                  visibility="public", host=host, seats=[(s.seat, s.label) for s in game.seats(options)],
                                  turn_clock_seconds=None, prompt_timeout_seconds=60)  # fmt: skip
        with client.websocket_connect(f"/ws/tables/{table.id}") as ws:
            ws.send_json({"type": "hello"})
            answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
