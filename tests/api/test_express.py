"""The lobby's express lane (backend/lobby/express.py) answers exactly as FastAPI's router does.

The same requests, well formed and not, are sent to two fresh apps with the same ids, tokens,
seeds and clock: one with the lane, one where every request goes through FastAPI. Every
answer must be the same status, headers and bytes; and with the lane, FastAPI's router must
see only the requests the lane hands on (the malformed ones), so the lane is really taken.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from backend.app import create_app
from backend.config import Settings
from backend.lobby import express
from backend.store.migrate import upgrade

# (method, path, json body or raw bytes, whose token, expected status, whether the lane serves it)
Step = tuple[str, str, Any, str | None, int, bool]
HOST, GUEST = "host", "guest"


def _steps(tid: str) -> list[Step]:
    t = f"/api/tables/{tid}"
    return [
        ("POST", "/api/tables", {"game": "toy", "options": {"players": 2}, "title": "Two"}, HOST, 201, True),
        ("GET", t, None, None, 200, True),
        ("POST", f"{t}/start", {}, HOST, 409, True),  # seats free
        ("POST", f"{t}/join", {"seat": "p1"}, HOST, 200, True),
        ("POST", f"{t}/join", {"seat": "p1"}, GUEST, 409, True),  # taken
        ("POST", f"{t}/join", {"seat": "p9"}, GUEST, 404, True),  # no such seat
        ("POST", f"{t}/join", {"seat": "p2"}, None, 401, True),  # no token
        ("POST", f"{t}/join", {"seat": "p2"}, "nobody", 401, True),  # a token of nobody
        ("POST", "/api/tables/no$such/join", {"seat": "p2"}, GUEST, 404, True),
        ("POST", f"{t}/start", {}, GUEST, 403, True),  # not the host
        # Malformed: handed on to FastAPI, which refuses them.
        ("POST", f"{t}/join", {"seat": "p2", "extra": 1}, GUEST, 422, False),
        ("POST", f"{t}/join", b'{"seat": "p2"', GUEST, 422, False),  # cut short
        ("POST", f"{t}/join", b'{"seat": NaN}', GUEST, 422, False),
        ("POST", f"{t}/join", b"[1, 2]", GUEST, 422, False),
        ("POST", f"{t}/join", b"", GUEST, 422, False),
        ("POST", f"{t}/start", b'{"a": Infinity}', HOST, 422, False),
        ("POST", f"{t}/start", b'{"a": ' + b"[" * 17 + b"1" + b"]" * 17 + b"}", HOST, 422, False),  # too deep
        ("POST", "/api/tables", {"game": "toy", "options": {"players": 9}}, HOST, 422, True),  # the game says no
        ("POST", "/api/tables", {"game": "toy", "turn_clock_seconds": 1}, HOST, 422, False),
        ("POST", "/api/tables", {"game": "toy", "options": "x" * 70_000}, HOST, 413, False),
        # The plain case again, to the start.
        ("POST", f"{t}/join", {"seat": "p2"}, GUEST, 200, True),
        ("POST", f"{t}/start", None, HOST, 200, True),
        ("POST", f"{t}/start", {}, HOST, 409, True),  # already started
        ("POST", f"{t}/join", {"seat": "p2"}, GUEST, 200, True),  # a new token for a held seat
        ("GET", t, None, None, 200, True),
        ("GET", "/api/tables/unknown", None, None, 404, True),
    ]


def _counter(prefix: str) -> Any:
    numbers = itertools.count()
    return lambda *_args: f"{prefix}{next(numbers):08d}"


def _run(tmp_path: Path, name: str, lane: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[str]]:
    """Every step's (status, headers, body), and the paths FastAPI's router was asked for."""
    import backend.lobby.routes as routes
    import backend.store.repository as repository

    monkeypatch.setattr(repository, "new_id", _counter("id"))
    monkeypatch.setattr(repository, "new_token", _counter("token-"))
    monkeypatch.setattr(repository, "now", lambda: datetime(2026, 12, 7, 12, 0, tzinfo=UTC))
    seeds = itertools.count()
    monkeypatch.setattr(routes, "new_seed", lambda: next(seeds).to_bytes(32, "big"))
    if not lane:
        monkeypatch.setattr(express, "route_of", lambda _scope: None)
    routed: list[str] = []
    through = FastAPI.__call__

    async def spy(self: FastAPI, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            routed.append(f"{scope['method']} {scope['path']}")
        await through(self, scope, receive, send)

    monkeypatch.setattr(FastAPI, "__call__", spy)
    url = f"sqlite:///{tmp_path / f'{name}.db'}"
    upgrade(url)
    settings = Settings(database_url=url, extra_games="toy=tests.play.toygame:GAME")
    answers = []
    with TestClient(create_app(settings)) as client:
        tokens = {who: client.post("/api/players", json={"name": who.title()}).json()["player_token"]
                  for who in (HOST, GUEST)}  # fmt: skip
        tokens["nobody"] = "not-a-token"
        routed.clear()
        for method, path, body, who, status, _ in _steps("id00000002"):
            headers = {"Authorization": f"Bearer {tokens[who]}"} if who else {}
            if isinstance(body, bytes):
                headers["Content-Type"] = "application/json"
                reply = client.request(method, path, content=body, headers=headers)
            else:
                reply = client.request(method, path, json=body, headers=headers)
            assert reply.status_code == status, (path, body, reply.text)
            answers.append((reply.status_code, sorted(reply.headers.items()), reply.content))
    monkeypatch.undo()
    return answers, routed


def test_the_lane_answers_as_fastapi_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    laned, routed = _run(tmp_path, "lane", True, monkeypatch)
    plain, everything = _run(tmp_path, "plain", False, monkeypatch)
    steps = _steps("id00000002")
    for step, a, b in zip(steps, laned, plain, strict=True):
        assert a == b, step
    assert len(everything) == len(steps)
    handed_on = [f"{method} {path}" for method, path, *_, served in steps if not served]
    assert routed == handed_on
    # The table really went from open to live, by both paths.
    assert b'"status":"live"' in laned[-2][2]
