"""What bench/server_load.py's load generator does: the drivers of its tables (a real server's,
bots', the floor's), the measured window (``timed``), and the server's CPU read from /proc.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import websockets

from bench.load_peers import HEAD, Pacer, Peer, Phase, Stats
from tests.server_fixtures import Api

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


async def drive_bots(base: str, ws_base: str, game: str, options: dict[str, Any], level: str,
                     phase: Phase, stats: Stats) -> None:  # fmt: skip
    """Tables whose every seat is a bot over the real protocol; a spectator counts the actions."""
    from backend.botplay.client import BotClient

    api = await asyncio.to_thread(Api, base, "bench")
    first = True
    while not phase.stop:
        table = await asyncio.to_thread(api.create_table, game, options)
        tokens = {
            s["seat"]: await asyncio.to_thread(api.join, table["id"], s["seat"]) for s in table["seats"]
        }
        await asyncio.to_thread(api.start, table["id"])
        watcher = await websockets.connect(f"{ws_base}/ws/tables/{table['id']}", max_size=2**24)
        await watcher.send(json.dumps({"type": "hello", "seat_token": None}))
        clients = [BotClient(base, table["id"], seat, level, token) for seat, token in tokens.items()]
        runs = [asyncio.create_task(c.run()) for c in clients]
        if first:
            phase.playing += 1
            first = False
        try:
            async for text in watcher:
                if HEAD.match(text) and phase.measuring:
                    stats.actions += 1
                if phase.stop or '"type": "finished"' in text or '"type":"finished"' in text:
                    break
        except websockets.ConnectionClosed:
            pass
        for run in runs:
            run.cancel()
        await watcher.close()


async def drive_server(base: str, ws_bases: list[str], game: str, options: dict[str, Any], spectators: int,
                       phase: Phase, stats: Stats, rnd: random.Random) -> None:  # fmt: skip
    """One table after another through ``base``; its connections are dealt round the workers of
    ``ws_bases`` (seat i of table g on worker (g + i) mod n), so with two workers every action
    is applied on one and crosses the bus to the other's connections."""
    api = await asyncio.to_thread(Api, base, "bench")
    turn = rnd.randrange(len(ws_bases))
    first = True
    while not phase.stop:
        await phase.gate.wait()
        table = await asyncio.to_thread(api.create_table, game, options)
        tokens = {
            s["seat"]: await asyncio.to_thread(api.join, table["id"], s["seat"]) for s in table["seats"]
        }
        await asyncio.to_thread(api.start, table["id"])
        if phase.measuring:
            stats.tables += 1
        urls = [f"{w}/ws/tables/{table['id']}" for w in ws_bases]
        turn += 1
        seats: dict[str, Peer] = {}
        watchers: list[Peer] = []
        for i, (seat, token) in enumerate(tokens.items()):
            ws = await websockets.connect(urls[(turn + i) % len(urls)], max_size=2**24)
            await ws.send(json.dumps({"type": "hello", "seat_token": token, "patches": True}))
            seats[seat] = Peer(ws, seat=True, stats=stats)
        for i in range(spectators):
            ws = await websockets.connect(urls[(turn + len(tokens) + i) % len(urls)], max_size=2**24)
            await ws.send(json.dumps({"type": "hello", "seat_token": None, "patches": True}))
            watchers.append(Peer(ws, stats=stats))
        everyone = [*seats.values(), *watchers]
        await asyncio.gather(*(p.arrival(0) for p in everyone))
        if first:
            phase.playing += 1
            first = False
        n = 0
        pacer = Pacer(phase, rnd)
        while not phase.stop and not any(p.finished for p in everyone):
            ready = [p for s, p in seats.items() if s in p.to_act and p.legal]
            if not ready:
                await asyncio.sleep(0.01)
                continue
            await pacer.wait()
            await phase.gate.wait()
            actor = rnd.choice(ready)
            act = {"type": "act", "seq": actor.seq, "action_id": f"b{n}", "action": rnd.choice(actor.legal)}
            await one_action(actor, json.dumps(act), actor.seq + 1, everyone, phase, stats)
            n += 1
        for p in everyone:
            await p.ws.close()


async def one_action(actor: Peer, text: str, seq: int, everyone: list[Peer], phase: Phase, stats: Stats) -> None:
    """``actor`` sends ``text``; done when every peer of the table has reached ``seq``, its
    latency (send to the last arrival) counted while measuring."""
    arrivals = [p.arrival(seq) for p in everyone]
    sent = time.perf_counter()
    await actor.ws.send(text)
    done = await asyncio.gather(*arrivals)
    if phase.measuring:
        stats.actions += 1
        stats.latencies.append(max(done) - sent)


async def drive_floor(ws_base: str, group: int, seats: int, spectators: int, size: int,
                      phase: Phase, stats: Stats) -> None:  # fmt: skip
    peers = []
    for _ in range(seats + spectators):
        ws = await websockets.connect(ws_base, max_size=2**24)
        await ws.send(json.dumps({"t": "join", "g": group}))
        peers.append(Peer(ws))
    await asyncio.sleep(0.2)
    phase.playing += 1
    seq = 0
    pacer = Pacer(phase, random.Random(group))
    while not phase.stop:
        await pacer.wait()
        await phase.gate.wait()
        seq += 1
        await one_action(peers[seq % seats], json.dumps({"t": "act", "seq": seq, "size": size}), seq, peers,
                         phase, stats)  # fmt: skip
    for p in peers:
        await p.ws.close()


async def timed(
    coros: list[Any],
    warmup: float,
    seconds: float,
    pids: list[int],
    phase: Phase,
    stats: Stats,
    probe: Callable[[], Awaitable[Any]] | None = None,
    probed: list[Any] | None = None,
) -> tuple[float, float]:
    """Measure ``seconds`` of steady play: the clock starts ``warmup`` seconds after every
    table is playing, so the first setup of all tables at once is not counted (the
    replacement of finished games during the window is). ``probe``'s answers at the window's
    start and end go to ``probed``."""
    tasks = [asyncio.create_task(c) for c in coros]
    await all_playing(tasks, phase, len(tasks))
    await asyncio.sleep(warmup)
    if probe is not None and probed is not None:
        probed.append(await probe())
    phase.measuring = stats.measuring = True
    cpu0, t0 = sum(map(cpu_seconds, pids)), time.perf_counter()
    await asyncio.sleep(seconds)
    phase.measuring = stats.measuring = False
    cpu1, t1 = sum(map(cpu_seconds, pids)), time.perf_counter()
    if probe is not None and probed is not None:
        probed.append(await probe())
    phase.stop = True
    await asyncio.gather(*tasks)
    return t1 - t0, cpu1 - cpu0


async def all_playing(tasks: list[asyncio.Task[None]], phase: Phase, tables: int) -> None:
    """Until every table of ``phase`` plays (a driver that failed says why)."""
    deadline = time.perf_counter() + 120
    while phase.playing < tables and time.perf_counter() < deadline:
        for task in tasks:
            if task.done():
                await task
        await asyncio.sleep(0.05)
