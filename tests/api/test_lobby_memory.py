"""The lobby remembers (issue 13, point 8, server side): "Your tables" of a player, the recent
finished games with their replays, and open tables that expire instead of staying listed forever.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import update

from backend.engine.playout import play_random
from backend.engine.rng import commitment, seed_from_int
from backend.store.models import GameTable
from tests.play.helpers import commit_actions
from tests.play.toygame import GAME


def player(client: TestClient, name: str) -> dict[str, str]:
    reply = client.post("/api/players", json={"name": name})
    return {"Authorization": f"Bearer {reply.json()['player_token']}"}


def table(client: TestClient, headers: dict[str, str], title: str, **extra: object) -> str:
    reply = client.post("/api/tables", json={"game": "toy", "title": title, **extra}, headers=headers)
    assert reply.status_code == 201, reply.text
    return reply.json()["id"]


def titles(reply) -> list[str]:
    assert reply.status_code == 200, reply.text
    return [t["title"] for t in reply.json()]


def test_your_tables_recent_games_and_expiry(client: TestClient) -> None:
    ann, bo = player(client, "Ann"), player(client, "Bo")
    seated = table(client, ann, "seated")
    assert client.post(f"/api/tables/{seated}/join", json={"seat": "p1"}, headers=ann).status_code == 200
    hidden = table(client, bo, "unlisted", visibility="unlisted")
    assert client.post(f"/api/tables/{hidden}/join", json={"seat": "p2"}, headers=ann).status_code == 200
    table(client, bo, "nobody came")

    # A finished public game, played to its end by Ann and Bo.
    done = table(client, bo, "finished")
    for who, seat in ((ann, "p1"), (bo, "p2")):
        assert client.post(f"/api/tables/{done}/join", json={"seat": seat}, headers=who).status_code == 200
    repo = client.app.state.repo
    game = play_random(GAME, 4, GAME.normalize_options({}))
    seed = seed_from_int(4)
    repo.start_table(done, seed_hex=seed.hex(), commitment=commitment(seed), initial_hash=None)
    commit_actions(GAME, repo, done, 1, game.actions, GAME.initial_state(seed, game.options))

    assert titles(client.get("/api/players/me/tables", headers=ann)) == ["finished", "unlisted", "seated"]
    assert titles(client.get("/api/players/me/tables", headers=bo)) == ["finished", "nobody came", "unlisted"]
    assert client.get("/api/players/me/tables").status_code == 401
    assert titles(client.get("/api/tables?status=finished")) == ["finished"]
    assert client.get(f"/api/tables/{done}/replay").status_code == 200
    assert titles(client.get("/api/tables")) == ["nobody came", "seated"]  # unlisted and finished are not
    assert titles(client.get("/api/tables?status=open&status=finished")) == ["finished", "nobody came", "seated"]
    assert client.get("/api/tables?status=gone").status_code == 422

    # Seven hours later (the listing keeps open tables for six): they are no longer listed, and
    # the one nobody joined is dropped.
    old = datetime.now(UTC) - timedelta(hours=7)
    with repo.engine.begin() as conn:
        conn.execute(update(GameTable.__table__).values(created_at=old))
    assert titles(client.get("/api/tables")) == []
    assert repo.delete_unjoined_open_tables(datetime.now(UTC) - timedelta(hours=6)) == 1
    assert titles(client.get("/api/players/me/tables", headers=bo)) == ["finished", "unlisted"]
    # (all created at the same moment now, so the open ones come in any order)
    assert sorted(titles(client.get("/api/players/me/tables", headers=ann))) == ["finished", "seated", "unlisted"]
