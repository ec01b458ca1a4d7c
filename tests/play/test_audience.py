"""A large audience costs O(n) frames, not O(n²) (issue 9, "Large audiences").

Every arrival used to be announced to everyone at once: the first of 1,000 spectators received
966 presence frames.  Presence now goes out at most once per ``presence_interval_seconds`` per
table (spectators as a count), so a connection hears a few frames per second of arrivals
whatever their number.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import websockets

from ..server_fixtures import Api, ServerProcess, WsClient, start_table

AUDIENCE = 1000
INTERVAL = 0.5


async def watch(url: str, frames: list[str]) -> websockets.ClientConnection:
    ws = await websockets.connect(url, max_size=2**24)
    await ws.send(json.dumps({"type": "hello"}))
    frames.append(await asyncio.wait_for(ws.recv(), 30))
    return ws


async def drain(ws: websockets.ClientConnection, frames: list[str]) -> None:
    try:
        async for text in ws:
            frames.append(text)
    except websockets.ConnectionClosed:
        pass


def kinds(frames: list[str], kind: str) -> list[dict]:
    return [m for m in map(json.loads, frames) if m.get("type") == kind]


async def test_a_thousand_spectators_cost_o_n_presence_frames(tmp_path: Path) -> None:
    env = {"DRAGONTABLE_PRESENCE_INTERVAL_SECONDS": str(INTERVAL)}
    with ServerProcess(f"sqlite:///{tmp_path / 'a.db'}", env=env, log_path=tmp_path / "server.log") as server:
        api = Api(server.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 200})
        p1, p2 = (WsClient(server.ws_url(tid), tokens[s]) for s in ("p1", "p2"))
        await p1.connect()
        await p2.connect()
        url = server.ws_url(tid)
        frames: list[list[str]] = [[] for _ in range(AUDIENCE)]
        sockets: list[websockets.ClientConnection] = []
        readers: list[asyncio.Task[None]] = []
        started = time.monotonic()
        for batch in range(0, AUDIENCE, 50):  # arrivals in waves, as a link shared on chat brings them
            new = await asyncio.gather(*(watch(url, frames[i]) for i in range(batch, batch + 50)))
            sockets += new
            readers += [asyncio.create_task(drain(ws, frames[batch + j])) for j, ws in enumerate(new)]
        arrived = time.monotonic() - started
        await asyncio.sleep(3 * INTERVAL)  # the trailing presence frame of the last wave

        # Everyone knows the final count...
        last = kinds(frames[-1], "presence") or [kinds(frames[-1], "welcome")[0]["table"]]
        assert last[-1]["spectators"] == AUDIENCE
        assert kinds(p1.raw, "presence")[-1]["spectators"] == AUDIENCE
        # ...and the first arrival heard of the other 999 in a few frames per interval.
        heard = len(kinds(frames[0], "presence"))
        bound = int((time.monotonic() - started) / INTERVAL) + 3
        assert heard <= bound, f"{heard} presence frames for {AUDIENCE} arrivals in {arrived:.1f} s"
        assert heard < AUDIENCE // 10

        # The players still play, and every spectator sees the move once.
        await p1.send({"type": "act", "seq": 0, "action_id": "go", "action": {"type": "roll"}})
        assert (await p1.expect("ack"))["seq"] == 1
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(kinds(f, "update") for f in frames):
            await asyncio.sleep(0.1)
        assert all(len(kinds(f, "update")) == 1 for f in frames)

        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers)
        await p1.close()
        await p2.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
