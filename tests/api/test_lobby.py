"""REST API in-process (TestClient): every answer is JSON, bad input is a 4xx with {code, message}."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.app import create_app
from backend.config import Settings
from backend.store.migrate import upgrade


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    url = f"sqlite:///{tmp_path / 'api.db'}"
    upgrade(url)
    front = tmp_path / "front"
    (front / "js").mkdir(parents=True)
    (front / "index.html").write_text("<!doctype html><title>index</title>")
    (front / "js" / "app.js").write_text("export const x = 1;")
    settings = Settings(database_url=url, frontend_dir=front)
    with TestClient(create_app(settings)) as c:
        yield c


def player(client: TestClient, name: str = "Ada") -> dict[str, str]:
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201
    body = reply.json()
    assert len(body["player_token"]) >= 43  # 256 bits, URL-safe base64
    return {"Authorization": f"Bearer {body['player_token']}"}


def assert_error(reply, status: int, code: str) -> None:
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["code"] == code and isinstance(body["message"], str) and body["message"]


def test_health_games_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "db": "ok"}
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["toy"]["default_options"] == {"players": 2, "target": 15}
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/tables", "/api/tables/{table_id}/join", "/api/tables/{table_id}/export", "/healthz"):
        assert path in paths


def test_table_lifecycle_and_rules(client: TestClient) -> None:
    host, guest = player(client, "Host"), player(client, "Guest")
    reply = client.post("/api/tables", json={"game": "toy", "options": {"players": 2}}, headers=host)
    assert reply.status_code == 201
    table = reply.json()
    tid = table["id"]
    assert table["status"] == "open" and [s["seat"] for s in table["seats"]] == ["p1", "p2"]
    assert any(t["id"] == tid for t in client.get("/api/tables").json())

    assert_error(client.post(f"/api/tables/{tid}/start", headers=guest), 403, "not_host")
    assert_error(client.post(f"/api/tables/{tid}/start", headers=host), 409, "seats_free")
    join = client.post(f"/api/tables/{tid}/join", json={"seat": "p1"}, headers=host)
    assert join.status_code == 200
    host_token = join.json()["seat_token"]
    assert_error(
        client.post(f"/api/tables/{tid}/join", json={"seat": "p1"}, headers=guest), 409, "seat_taken"
    )
    assert_error(
        client.post(f"/api/tables/{tid}/join", json={"seat": "p9"}, headers=guest), 404, "no_such_seat"
    )
    assert_error(
        client.post(f"/api/tables/{tid}/leave", json={"seat": "p1"}, headers=guest), 403, "not_your_seat"
    )
    guest_token = client.post(f"/api/tables/{tid}/join", json={"seat": "p2"}, headers=guest).json()[
        "seat_token"
    ]
    # Leaving before the start frees the seat; joining again gives a new token.
    left = client.post(f"/api/tables/{tid}/leave", json={"seat": "p2"}, headers=guest).json()
    assert not left["seats"][1]["taken"]
    again = client.post(f"/api/tables/{tid}/join", json={"seat": "p2"}, headers=guest).json()["seat_token"]
    assert again != guest_token

    export = client.get(f"/api/tables/{tid}/export").json()
    assert export["seed"] is None and export["commitment"] is None
    started = client.post(f"/api/tables/{tid}/start", headers=host).json()
    assert started["status"] == "live" and len(started["commitment"]) == 64
    assert_error(client.post(f"/api/tables/{tid}/start", headers=host), 409, "already_started")
    assert client.get(f"/api/tables/{tid}/export").json()["seed"] is None
    assert_error(client.get(f"/api/tables/{tid}/replay"), 409, "not_finished")

    # No token of any kind in any listing or table.
    listing = client.get("/api/tables").text + client.get(f"/api/tables/{tid}").text
    for secret in (host_token, again, host["Authorization"][7:], guest["Authorization"][7:]):
        assert secret not in listing


def test_unlisted_tables_are_not_listed(client: TestClient) -> None:
    host = player(client)
    table = client.post("/api/tables", json={"game": "toy", "visibility": "unlisted"}, headers=host).json()
    assert all(t["id"] != table["id"] for t in client.get("/api/tables").json())
    assert client.get(f"/api/tables/{table['id']}").status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "body", "auth", "status", "code"),
    [
        ("post", "/api/tables", {"game": "toy"}, False, 401, "unauthorized"),
        ("post", "/api/tables", {"game": "nope"}, True, 404, "unknown_game"),
        ("post", "/api/tables", {"game": "toy", "options": {"players": 9}}, True, 422, "bad_players"),
        ("post", "/api/tables", {"game": "toy", "visibility": "secret"}, True, 422, "invalid_request"),
        ("post", "/api/tables", {"gam": "toy"}, True, 422, "invalid_request"),
        ("post", "/api/tables", "not json", True, 422, "invalid_request"),
        ("post", "/api/players", {"name": ""}, False, 422, "invalid_request"),
        ("post", "/api/players", {"name": "   "}, False, 422, "invalid_request"),
        ("post", "/api/players", [1, 2], False, 422, "invalid_request"),
        ("get", "/api/tables/nope", None, False, 404, "not_found"),
        ("post", "/api/tables/nope/join", {"seat": "p1"}, True, 404, "not_found"),
        ("get", "/api/nothing", None, False, 404, "not_found"),
        ("delete", "/api/tables", None, False, 405, "method_not_allowed"),
    ],
)
def test_bad_input_is_a_json_4xx(client, method, path, body, auth, status, code) -> None:
    headers = player(client) if auth else {}
    if isinstance(body, str):
        reply = client.request(
            method, path, content=body, headers={**headers, "content-type": "application/json"}
        )
    else:
        reply = client.request(method, path, json=body, headers=headers)
    assert_error(reply, status, code)


@pytest.mark.parametrize(
    "options",
    [
        {"heroes": 5},
        {"heroes": [1, 2]},
        {"heroes": ["nobody"]},
        {"heroes": ["ninja"], "fang": "x"},
        {"nope": 1},
    ],
)
def test_odd_dorasure_options_are_a_422(client: TestClient, options: dict) -> None:
    reply = client.post("/api/tables", json={"game": "dorasure", "options": options}, headers=player(client))
    assert reply.status_code == 422, reply.text
    assert set(reply.json()) == {"code", "message"}


def test_wrong_player_token(client: TestClient) -> None:
    reply = client.post("/api/tables", json={"game": "toy"}, headers={"Authorization": "Bearer forged"})
    assert_error(reply, 401, "unauthorized")


def test_static_frontend_and_page_routes(client: TestClient) -> None:
    assert "index" in client.get("/").text
    assert "index" in client.get("/table/abc").text
    assert "index" in client.get("/replay/abc").text
    js = client.get("/js/app.js")
    assert js.headers["content-type"].startswith("text/javascript")
    assert client.get("/../pyproject.toml").status_code == 404
    assert client.get("/js/%2e%2e/%2e%2e/api.db").status_code == 404


def test_players_racing_for_one_seat_have_one_winner(tmp_path: Path) -> None:
    """The seat is taken by one conditional UPDATE: of players joining at the same moment,
    exactly one gets it (and its token); the others get seat_taken."""
    from concurrent.futures import ThreadPoolExecutor

    from ..server_fixtures import Api, ServerProcess

    with ServerProcess(f"sqlite:///{tmp_path / 'race.db'}") as server:
        host = Api(server.base_url, "Host")
        tid = host.create_table("toy", {"players": 2})["id"]
        racers = [Api(server.base_url, f"R{i}") for i in range(6)]
        with ThreadPoolExecutor(len(racers)) as pool:
            replies = list(pool.map(lambda a: a.post(f"/api/tables/{tid}/join", {"seat": "p1"}), racers))
        codes = sorted(r.status_code for r in replies)
        assert codes == [200] + [409] * 5, [r.text for r in replies]
        assert all(r.json()["code"] == "seat_taken" for r in replies if r.status_code == 409)
        winner = next(i for i, r in enumerate(replies) if r.status_code == 200)
        table = host.http.get(f"/api/tables/{tid}").json()
        assert table["seats"][0]["player_name"] == f"R{winner}"
