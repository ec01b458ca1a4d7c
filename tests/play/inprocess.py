"""A real uvicorn server in the test's own event loop, so a test can look at its objects."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from backend.app import create_app
from backend.config import Settings
from backend.play.wsserver import ws_protocol
from backend.store.migrate import upgrade

from ..server_fixtures import WsClient, free_port


async def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


@asynccontextmanager
async def serving(tmp_path: Path, **overrides: Any) -> AsyncIterator[tuple[FastAPI, uvicorn.Server, int]]:
    """The app, its uvicorn server (as ``serve`` configures the socket protocol) and its port;
    ``overrides``: settings other than their defaults."""
    url = f"sqlite:///{tmp_path / 'inprocess.db'}"
    upgrade(url)
    settings = Settings(database_url=url, **overrides)
    app = create_app(settings)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            ws=ws_protocol(settings.ws_impl),
            ws_per_message_deflate=settings.ws_compression,
            log_level="warning",
        )
    )
    task = asyncio.create_task(server.serve())
    try:
        await wait_for(lambda: server.started)
        yield app, server, port
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


async def dorasure_table(port: int, heroes: list[str], *, start: bool = False) -> tuple[str, dict[str, str]]:
    """A Dorasure table made over REST by one player; with ``start``, every seat taken and started."""
    return await game_table(port, "dorasure", {"heroes": heroes}, heroes if start else None)


async def game_table(
    port: int, game: str, options: dict[str, object], seats: list[str] | None
) -> tuple[str, dict[str, str]]:
    """A table of ``game`` made over REST by one player; with ``seats``, those taken and started."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        me = (await http.post("/api/players", json={"name": "Host"})).json()
        auth = {"Authorization": f"Bearer {me['player_token']}"}
        reply = await http.post("/api/tables", json={"game": game, "options": options}, headers=auth)
        assert reply.status_code == 201, reply.text
        table_id = reply.json()["id"]
        tokens: dict[str, str] = {}
        if seats is not None:
            for seat in seats:
                joined = await http.post(f"/api/tables/{table_id}/join", json={"seat": seat}, headers=auth)
                assert joined.status_code == 200, joined.text
                tokens[seat] = joined.json()["seat_token"]
            started = await http.post(f"/api/tables/{table_id}/start", json={}, headers=auth)
            assert started.status_code == 200, started.text
        return table_id, tokens


async def seated_clients(
    port: int, heroes: list[str], *, game: str = "dorasure", options: dict[str, object] | None = None
) -> tuple[str, str, dict[str, WsClient]]:
    """A started table (Dorasure with ``heroes`` for seats; else ``game`` with ``options``, seats
    ``heroes``) with a connected socket per seat: its id, its socket URL and the clients by seat."""
    table_id, tokens = await game_table(port, game, {"heroes": heroes} if options is None else options, heroes)
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
    seats = {seat: WsClient(url, token) for seat, token in tokens.items()}
    for client in seats.values():
        await client.connect()
    return table_id, url, seats
