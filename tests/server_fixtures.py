"""Helpers to run a real server (uvicorn subprocess on loopback) and talk to it.

Used by tests/api, tests/play, tests/e2e and bench/server_load.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
TOY_GAMES = "toy=tests.play.toygame:GAME"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``python -m backend serve`` in a subprocess; ``kill()`` is a real SIGKILL."""

    def __init__(
        self,
        database_url: str,
        *,
        port: int | None = None,
        redis_url: str | None = None,
        env: dict[str, str] | None = None,
        log_path: Path | None = None,
        log_level: str = "warning",
        root: Path = ROOT,
        wrapper: list[str] | None = None,
    ) -> None:
        self.log_level = log_level
        # A command the server runs under (bench/server_instructions.py: valgrind's callgrind).
        self.wrapper = wrapper or []
        self.root = root  # the checkout whose server runs (bench/server_load.py --baseline: another one)
        self.database_url = database_url
        self.port = port or free_port()
        self.redis_url = redis_url
        self.env = env or {}
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, table_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}"

    def start(self, timeout: float = 90.0) -> ServerProcess:
        env = {
            **os.environ,
            "PYTHONPATH": str(self.root),
            "DRAGONTABLE_EXTRA_GAMES": TOY_GAMES,
            # No bot runner unless a test asks for one (DRAGONTABLE_BOT_RUNNERS in ``env``).
            "DRAGONTABLE_BOT_RUNNERS": "0",
            **self.env,
        }
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        cmd = [
            *self.wrapper, sys.executable, "-m", "backend", "serve", "--no-browser", "--log-level", self.log_level,
            "--host", "127.0.0.1", "--port", str(self.port), "--database-url", self.database_url,
        ]  # fmt: skip
        if self.redis_url:
            cmd += ["--redis-url", self.redis_url]
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, cwd=self.root, env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode} (log: {self.log_path})")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base_url + "/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError("server did not come up")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing; only what was committed survives."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Api:
    """A tiny REST client: one player."""

    def __init__(self, base_url: str, name: str = "tester") -> None:
        # An idle connection is dropped before the server's keep-alive (uvicorn: 5 s) closes it:
        # both at 5 s, a request sent on a connection as the server closed it was reset (seen in a
        # paced bench/server_load.py run, whose games last about as long).
        self.http = httpx.Client(base_url=base_url, timeout=10, limits=httpx.Limits(keepalive_expiry=2.0))
        reply = self.http.post("/api/players", json={"name": name})
        reply.raise_for_status()
        body = reply.json()
        self.player_id = body["player_id"]
        self.token = body["player_token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body if body is not None else {}, headers=self.headers)

    def create_table(
        self, game: str = "toy", options: dict[str, Any] | None = None, **extra: Any
    ) -> dict[str, Any]:
        reply = self.post("/api/tables", {"game": game, "options": options or {}, **extra})
        assert reply.status_code == 201, reply.text
        return reply.json()

    def join(self, table_id: str, seat: str) -> str:
        reply = self.post(f"/api/tables/{table_id}/join", {"seat": seat})
        assert reply.status_code == 200, reply.text
        return reply.json()["seat_token"]

    def start(self, table_id: str) -> dict[str, Any]:
        reply = self.post(f"/api/tables/{table_id}/start")
        assert reply.status_code == 200, reply.text
        return reply.json()

    def export(self, table_id: str) -> dict[str, Any]:
        reply = self.http.get(f"/api/tables/{table_id}/export")
        assert reply.status_code == 200, reply.text
        return reply.json()


def start_table(
    api: Api, game: str = "toy", options: dict[str, Any] | None = None, **extra: Any
) -> tuple[str, dict[str, str]]:
    """Create, take every seat (hot-seat: one player holds them all), start."""
    table = api.create_table(game, options, **extra)
    tokens = {s["seat"]: api.join(table["id"], s["seat"]) for s in table["seats"]}
    api.start(table["id"])
    return table["id"], tokens


def start_table_of_players(base_url: str, game: str, options: dict[str, Any]) -> tuple[Api, str, dict[str, str]]:
    """Create, each seat taken by a player of its own (the host the first), start: the host's
    client, the table's id and the seats' tokens."""
    host = Api(base_url, "Host")
    table = host.create_table(game, options)
    tokens = {}
    for i, seat in enumerate(s["seat"] for s in table["seats"]):
        tokens[seat] = (host if i == 0 else Api(base_url, f"Player {i}")).join(table["id"], seat)
    host.start(table["id"])
    return host, table["id"], tokens


class WsClient:
    """One WebSocket connection; keeps every raw frame it receives (for leak checks)."""

    def __init__(
        self, url: str, token: str | None = None, *, origin: str | None = None, max_size: int | None = 2**24
    ) -> None:
        self.url = url
        self.token = token
        self.origin = origin
        self.max_size = max_size
        self.raw: list[str] = []
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.seq = 0
        self.seat: str | None = None
        self.view: Any = None
        self.legal: list[dict[str, Any]] = []
        self.to_act: list[str] = []
        self.finished: dict[str, Any] | None = None
        self.close_code: int | None = None

    async def connect(self, *, hello: bool = True, last_seq: int | None = None) -> dict[str, Any] | None:
        import websockets

        headers = {"Origin": self.origin} if self.origin else None
        self.queue = asyncio.Queue()  # a reconnect starts a fresh stream (raw keeps everything)
        self.close_code = None
        self.ws = await websockets.connect(self.url, max_size=self.max_size, additional_headers=headers)
        self.reader = asyncio.create_task(self._read())
        if not hello:
            return None
        await self.send({"type": "hello", "seat_token": self.token, "last_seq": last_seq})
        return await self.expect("welcome")

    async def _read(self) -> None:
        import websockets

        try:
            async for text in self.ws:
                self.raw.append(text)
                msg = json.loads(text)
                self._track(msg)
                await self.queue.put(msg)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            await self.queue.put(None)

    def _track(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind in ("welcome", "update") and "view" in msg:
            self.seq = msg["seq"]
            self.view, self.legal, self.to_act = msg["view"], msg["legal"], msg["to_act"]
            if kind == "welcome":
                self.seat = msg["seat"]
        elif kind == "finished":
            self.finished = msg

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any] | None:
        return await asyncio.wait_for(self.queue.get(), timeout)

    async def expect(self, *types: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of one of ``types`` (others are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - time.monotonic()))
            if msg is None:
                raise ConnectionError(f"closed ({self.close_code}) while waiting for {types}")
            if msg.get("type") in types:
                return msg

    async def wait_seq(self, seq: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while self.seq < seq:
            msg = await self.recv(max(0.01, deadline - time.monotonic()))
            if msg is None:
                raise ConnectionError(f"closed ({self.close_code}) at seq {self.seq}, waiting for {seq}")

    async def wait_closed(self, timeout: float = 10.0) -> int | None:
        if self.reader is not None:
            await asyncio.wait_for(asyncio.shield(self.reader), timeout)
        return self.close_code

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5)


async def ready_seats(seats: dict[str, WsClient], everyone: list[WsClient], timeout: float = 10.0) -> list[str]:
    """The seats that may act now. When none may, the game may just have ended: its last update
    and the ``finished`` frame behind it are separate frames, and a client can have read the
    one and not yet the other, so this waits (up to ``timeout``) for either to show."""
    deadline = time.monotonic() + timeout
    while True:
        ready = sorted(s for s, c in seats.items() if c.legal and c.seat in c.to_act)
        if ready or any(c.finished for c in everyone) or time.monotonic() > deadline:
            return ready
        await asyncio.sleep(0.01)


async def play_random(
    seats: dict[str, WsClient],
    watchers: list[WsClient],
    rnd: Any,
    *,
    max_actions: int = 5000,
    stop_after: int | None = None,
    prefix: str = "a",
) -> list[int]:
    """Random legal play until the game ends (or ``stop_after`` actions); returns the acked seqs."""
    everyone = [*seats.values(), *watchers]
    acked: list[int] = []
    for n in range(max_actions):
        if any(c.finished for c in everyone) or (stop_after is not None and len(acked) >= stop_after):
            break
        ready = await ready_seats(seats, everyone)
        if any(c.finished for c in everyone):
            break
        if not ready:
            raise AssertionError(f"nobody can act at seq {max(c.seq for c in everyone)}")
        client = seats[rnd.choice(ready)]
        action = rnd.choice(client.legal)
        await client.send({"type": "act", "seq": client.seq, "action_id": f"{prefix}{n}", "action": action})
        answer = await client.expect("ack", "rejected")
        assert answer["type"] == "ack", answer
        acked.append(answer["seq"])
        for c in everyone:
            await c.wait_seq(answer["seq"])
    return acked


async def finish_game(server: ServerProcess, table_id: str, tokens: dict[str, str], seed: int) -> int:
    """Every seat of a started table plays random listed actions to the end over its own
    socket; returns the last seq acknowledged."""
    seats = {seat: WsClient(server.ws_url(table_id), token) for seat, token in tokens.items()}
    for client in seats.values():
        await client.connect()
    try:
        acked = await play_random(seats, [], random.Random(seed), max_actions=6000)
        assert any(c.finished for c in seats.values()), "the game did not end"
        return acked[-1]
    finally:
        for client in seats.values():
            await client.close()
