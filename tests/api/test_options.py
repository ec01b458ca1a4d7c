"""Table options are bounded by their game's schema, and request bodies by size and depth.

Issue 9, defect 4: a Dorn table created with ``round_limit: 2**70`` was accepted (201), and
then every WebSocket welcome failed while encoding it (orjson: integer exceeds 64 bits), so
the table could never be joined.  Now the schema bounds every number, ``normalize_options``
enforces the bounds, and the server checks what is sent and what is kept against the schema
(backend/engine/options.py) for every game.
"""

from __future__ import annotations

import doctest
import json

import pytest
from fastapi.testclient import TestClient

import backend.engine.options
import backend.textcheck
from backend.engine.core import InvalidOptions
from backend.engine.options import check_options, numbers_without_bounds
from backend.engine.registry import game_names, get_game
from backend.engine.rng import Rng
from backend.play.protocol import dumps

REAL_GAMES = [n for n in game_names() if type(get_game(n)).__module__.startswith("backend.games.")]


@pytest.fixture
def auth(client: TestClient) -> dict[str, str]:
    token = client.post("/api/players", json={"name": "Host"}).json()["player_token"]
    return {"Authorization": f"Bearer {token}"}


def assert_error(reply, status: int, code: str) -> None:
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["code"] == code and isinstance(body["message"], str) and body["message"], body


def test_the_real_games_are_all_walked() -> None:
    assert set(REAL_GAMES) == {"dorasure", "dorn"}


@pytest.mark.parametrize("name", REAL_GAMES)
def test_every_number_in_a_game_options_schema_has_both_bounds(name: str) -> None:
    schema = get_game(name).options_schema()
    json.dumps(schema)
    assert numbers_without_bounds(schema) == []


@pytest.mark.parametrize("name", REAL_GAMES)
def test_the_schema_describes_every_option_the_game_itself_makes(name: str) -> None:
    """The defaults, and the options of simulated tables (which use Dorn's engine limits), are
    all described: a game cannot normalize into an option its schema leaves unbounded."""
    game = get_game(name)
    schema = game.options_schema()
    try:
        check_options(schema, game.normalize_options({}))
    except InvalidOptions as exc:
        assert exc.code != "unknown_option" and exc.code != "bad_option", exc
    for seed in range(20):
        options = game.sim_options(Rng(bytes([seed]) * 32), None, {})
        assert check_options(schema, options) == options
        assert check_options(schema, game.normalize_options(options)) == game.normalize_options(options)


@pytest.mark.parametrize("key", ["round_limit", "phase_action_limit", "take_back_limit", "hero_seats"])
@pytest.mark.parametrize("value", [2**70, 2**63, 10**6, -1, 0, 1.5, True, "3"])
def test_dorn_limits_out_of_range_are_a_422(client: TestClient, auth, key: str, value) -> None:
    reply = client.post("/api/tables", json={"game": "dorn", "options": {key: value}}, headers=auth)
    assert reply.status_code == 422, reply.text
    assert set(reply.json()) == {"code", "message"}
    # The engine refuses them too: simulations and tests build tables without the API.
    with pytest.raises(InvalidOptions):
        get_game("dorn").normalize_options({key: value})


def test_a_round_limit_of_2_70_is_refused(client: TestClient, auth) -> None:
    """The defect as reported."""
    reply = client.post("/api/tables", json={"game": "dorn", "options": {"round_limit": 2**70}}, headers=auth)
    assert_error(reply, 422, "bad_option")
    assert "1000" in reply.json()["message"]
    assert client.get("/api/tables").json() == []


def test_a_dorn_table_at_its_largest_limits_is_welcomed(client: TestClient, auth) -> None:
    options = {"round_limit": 1000, "phase_action_limit": 1000, "take_back_limit": 100, "hero_seats": 5}
    made = client.post("/api/tables", json={"game": "dorn", "options": options}, headers=auth)
    assert made.status_code == 201, made.text
    assert made.json()["options"]["round_limit"] == 1000
    with client.websocket_connect(f"/ws/tables/{made.json()['id']}") as ws:
        ws.send_json({"type": "hello", "seat_token": None, "last_seq": None})
        welcome = ws.receive_json()
    assert welcome["type"] == "welcome" and welcome["table"]["options"]["round_limit"] == 1000


@pytest.mark.parametrize("name", [*REAL_GAMES, "toy"])
def test_an_option_the_schema_does_not_describe_is_refused(client: TestClient, auth, name: str) -> None:
    reply = client.post("/api/tables", json={"game": name, "options": {"zzz": 2**70}}, headers=auth)
    assert_error(reply, 422, "unknown_option")


def test_the_lobby_form_of_a_dorn_table_is_accepted(client: TestClient, auth) -> None:
    """What the browser sends: its default_options (engine limits as null) with the form's choices."""
    game = next(g for g in client.get("/api/games").json() if g["name"] == "dorn")
    sent = {**game["default_options"], "allow_surrender": False}
    assert sent["round_limit"] is None
    made = client.post("/api/tables", json={"game": "dorn", "options": sent}, headers=auth)
    assert made.status_code == 201, made.text


SCHEMA = {
    "type": "object",
    "properties": {
        "count": {"type": "integer", "minimum": 1, "maximum": 9},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "fast": {"type": "boolean"},
        "colour": {"enum": ["red", "blue"]},
        "note": {"type": "string", "maxLength": 8},
        "picks": {"type": "array", "items": {"enum": [1, 2, 3]}, "maxItems": 3, "uniqueItems": True},
        "loose": {"type": "array"},
    },
    "x-engine": {"limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 5}},
}


@pytest.mark.parametrize(
    "options",
    [
        {"count": 0},
        {"count": 10},
        {"count": True},
        {"count": 2.5},
        {"ratio": float("nan")},
        {"ratio": float("inf")},
        {"fast": 1},
        {"colour": "green"},
        {"colour": ["red"]},
        {"note": "123456789"},
        {"note": "a\x00b"},
        {"picks": [True]},
        {"picks": [1, 1]},
        {"picks": [1, 2, 3, 1]},
        {"loose": [[1]]},
        {"loose": [2**60]},
        {"loose": list(range(65))},
        {"limit": 6},
        {"limit": "1"},
        {"other": 1},
    ],
)
def test_check_options_refuses_what_the_schema_does_not_allow(options) -> None:
    with pytest.raises(InvalidOptions) as e:
        check_options(SCHEMA, options)
    assert e.value.code in ("bad_option", "unknown_option") and len(e.value.message) < 200


def test_check_options_accepts_what_the_schema_allows() -> None:
    options = {"count": 9, "ratio": 1, "fast": False, "colour": "blue", "note": "ok", "picks": [3, 1],
               "loose": ["a", 2, None], "limit": None}  # fmt: skip
    assert check_options(SCHEMA, options) == options
    assert numbers_without_bounds(SCHEMA) == []
    assert numbers_without_bounds({"n": {"type": "integer", "minimum": 0}}) == ["n"]
    assert numbers_without_bounds({"s": {"type": "array", "items": {"type": "number"}}}) == ["s[]"]


def test_messages_never_echo_a_whole_value() -> None:
    with pytest.raises(InvalidOptions) as e:
        check_options(SCHEMA, {"colour": "x" * 10000})
    assert len(e.value.message) < 200


def _post(client: TestClient, content: bytes | str, auth, **headers: str):
    return client.post(
        "/api/tables", content=content, headers={**auth, "content-type": "application/json", **headers}
    )


@pytest.mark.parametrize("depth", [20, 5000, 30_000])
def test_deeply_nested_options_are_a_422(client: TestClient, auth, depth: int) -> None:
    body = '{"game": "toy", "options": {"players": ' + "[" * depth + "]" * depth + "}}"
    assert_error(_post(client, body, auth), 422, "invalid_request")


def test_a_huge_body_is_a_413(client: TestClient, auth) -> None:
    body = json.dumps({"game": "toy", "options": {"players": "x" * 70_000}})
    assert_error(_post(client, body, auth), 413, "too_large")


def test_a_huge_chunked_body_is_a_413(client: TestClient, auth) -> None:
    """Without a Content-Length the body is still read only as far as the limit."""

    def chunks():
        yield b'{"game": "toy", "options": {"players": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}}'

    assert_error(_post(client, chunks(), auth), 413, "too_large")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param('{"game": "toy", "options": {"players": NaN}}', id="nan"),
        pytest.param('{"game": "toy", "turn_clock_seconds": Infinity}', id="infinity"),
        pytest.param('{"game": "toy", "options": {"players": ' + "9" * 5000 + "}}", id="5000-digits"),
        pytest.param('{"game": "toy", "options": {"players": 1e400}}', id="1e400"),
    ],
)
def test_numbers_json_cannot_carry_are_a_422(client: TestClient, auth, body: str) -> None:
    reply = _post(client, body, auth)
    assert reply.status_code == 422, reply.text
    assert set(reply.json()) == {"code", "message"}


def test_a_big_but_valid_body_still_works(client: TestClient, auth) -> None:
    body = json.dumps({"game": "toy", "title": "Friday", "options": {"players": 3}}) + " " * 60_000
    assert _post(client, body, auth).status_code == 201


def test_the_option_and_text_doctests() -> None:
    for module in (backend.engine.options, backend.textcheck):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


def test_a_table_is_always_encodable_on_the_wire(client: TestClient, auth) -> None:
    made = client.post("/api/tables", json={"game": "dorn", "options": {"round_limit": 7}}, headers=auth).json()
    dumps({"type": "table", "table": made})
