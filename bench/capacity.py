"""Capacity of one server process (issue 15, points 4 and 5), each figure beside its baseline.

    python bench/capacity.py [--only idle|tables|storm|audience ...] [--connections 10000]
                             [--tables 200] [--storm 2000] [--spectators 2000] [--rate 10] [--actions 1000]
                             [--no-tmpfs] [--pin] [--no-write]

Starts ``python -m backend serve`` (SQLite file, one process; the file on /dev/shm unless
``--no-tmpfs``: this machine's disk stalls a commit for up to half a second now and then, which
is not what these figures are about) and measures, from this process over loopback:

* ``idle``: memory per idle WebSocket. ``--connections`` spectators are spread over 100 started
  Dorasure tables (connected 200 at a time, each waits for its welcome); the server's resident
  memory is read (/proc) before and after, per connection. ``/healthz`` is asked 50 times while
  they are all connected; its p50 and worst time are reported beside the same 50 asks before
  any connection (the baseline).
* ``tables``: memory of a table at rest, besides its connections. ``--tables`` tables of each
  game are created, started and played (Dorasure 30 random legal actions, Dorn 60, never a
  concession) by a socket per seat, then every socket closes; the growth of the server's resident
  memory, per table. ``--warm`` tables of each game are played the same way first and not
  counted: the heap's growth to what serving a table needs while it is played is the process's
  once, not each table's. (Tables stay loaded for 30 s after the
  last socket leaves; the figure is taken before that, so it is the loaded table's cost.)
* ``storm``: a reconnect storm. ``--storm`` clients (seats and spectators of 50 tables) are
  connected and have their welcome; the server is killed (SIGKILL) and started again on the same
  port; every client reconnects with its ``last_seq`` (retrying every 50–250 ms, jittered) and
  the time from the new server's first ``/healthz`` to the last client's welcome is reported.
* ``audience``: a Dorasure table of 4 seats plays random legal actions paced at ``--rate``
  actions/s, one table after another until ``--actions`` actions were timed (so that p99 is a
  percentile, not the slowest of the few dozen actions one game may last); the players' latency
  (act → every seat has the update) p50/p99 is measured without spectators, then with
  ``--spectators`` connected to each table, in the same run. The spectators' sockets are held by
  a process of their own (reading 2000 frames in the players' event loop would delay the players'
  and make the load generator's cost look like the server's); the next action waits until every
  spectator has the last one. Frames are
  counted at the clients: per action and connection (1.0 means one frame each, O(n) per action),
  and the frames the arrivals of the spectators caused at the connections already there, per
  arrival (presence is coalesced: far fewer than the n connections there means O(n) per arrival).
  The server's own fan-out time per action (commit to every frame handed to its socket) is read
  from its /metrics before and after each half.

``--pin`` puts the server on the first core and this process (with the spectators' process) on
the others, so that the server's figures are not the load generator's: on a machine of two cores
the crowd's reader otherwise takes the CPU the server and the players' clients need.

Figures go into the "Capacity" section of bench/README.md with the load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from backend.bots import dorn_play  # noqa: E402
from bench.capacity_table import write_readme  # noqa: E402
from bench.seqwait import SeqTracker  # noqa: E402
from bench.server_metrics import fanout_totals, histogram_quantile, seats_histogram  # noqa: E402
from tests.server_fixtures import Api, ServerProcess  # noqa: E402

HEAD = re.compile(r'\{"type": ?"(\w+)"(?:, ?"seq": ?(\d+))?')


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Client(SeqTracker):
    """One socket of the bench: counts frames by type and remembers the seq it reached."""

    def __init__(self, url: str, token: str | None, *, parse: bool = False) -> None:
        super().__init__()
        self.url, self.token, self.parse = url, token, parse
        self.ws: Any = None
        self.frames: dict[str, int] = {}
        self.welcomed = asyncio.Event()
        self.legal: list[Any] = []
        self.to_act: list[str] = []
        self.finished = False
        self.reader: asyncio.Task[None] | None = None

    async def connect(self, last_seq: int | None = None) -> None:
        self.welcomed.clear()
        self.ws = await websockets.connect(self.url, max_size=2**24, open_timeout=60, ping_interval=None)
        hello: dict[str, Any] = {"type": "hello", "seat_token": self.token}
        if last_seq is not None:
            hello["last_seq"] = last_seq
        await self.ws.send(json.dumps(hello))
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                head = HEAD.match(text)
                kind = head.group(1) if head else "?"
                self.frames[kind] = self.frames.get(kind, 0) + 1
                if self.parse and kind in ("welcome", "update"):
                    msg = json.loads(text)
                    self.legal, self.to_act = msg.get("legal", []), msg.get("to_act", [])
                    self.reached(msg["seq"], now)
                elif kind in ("welcome", "update") and head and head.group(2):
                    self.reached(int(head.group(2)), now)
                elif kind == "welcome":
                    self.reached(int(json.loads(text)["seq"]), now)
                if kind == "welcome":
                    self.welcomed.set()
                elif kind == "finished":
                    self.finished = True
        except (websockets.ConnectionClosed, OSError):
            pass

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


async def in_batches(items: list[Any], size: int, each: Callable[[Any], Awaitable[None]]) -> None:
    for i in range(0, len(items), size):
        await asyncio.gather(*(each(x) for x in items[i : i + size]))


def started_tables(
    server: ServerProcess, game: str, count: int, options: dict[str, Any]
) -> list[tuple[str, dict[str, str]]]:
    api = Api(server.base_url, "bench")
    made = []
    for _ in range(count):
        table = api.create_table(game, options)
        tokens = {s["seat"]: api.join(table["id"], s["seat"]) for s in table["seats"]}
        api.start(table["id"])
        made.append((table["id"], tokens))
    return made


async def healthz_times(base: str, n: int = 50) -> list[float]:
    times = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(n):
            t0 = time.perf_counter()
            assert (await http.get("/healthz")).status_code == 200
            times.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.01)
    return times


async def play(clients: dict[str, Client], actions: int, rnd: random.Random) -> int:
    """Random legal play by the seats' sockets, one action in flight; returns actions played."""
    everyone = list(clients.values())
    done = 0
    for n in range(actions):
        ready = [c for s, c in clients.items() if s in c.to_act and c.legal]
        waited = 0
        while not ready and waited < 200 and not any(c.finished for c in everyone):
            await asyncio.sleep(0.01)
            waited += 1
            ready = [c for s, c in clients.items() if s in c.to_act and c.legal]
        if not ready:
            break
        actor = rnd.choice(ready)
        seq = actor.seq + 1
        arrivals = [c.arrival(seq) for c in everyone]
        # Never a concession (Dorn lists surrender at any time): the table stays a game in play.
        playing = [a for a in actor.legal if a["type"] not in dorn_play.CONCESSIONS] or actor.legal
        await actor.ws.send(
            json.dumps({"type": "act", "seq": actor.seq, "action_id": f"c{n}", "action": rnd.choice(playing)})
        )
        await asyncio.wait_for(asyncio.gather(*arrivals), 30)
        done += 1
    return done


# -- the phases ---------------------------------------------------------------------------------
async def phase_idle(server: ServerProcess, connections: int) -> dict[str, Any]:
    tables = await asyncio.to_thread(started_tables, server, "dorasure", 100, {"heroes": ["ninja", "hunter"]})
    # Load every table once (a first socket each) so the figure is the connections' alone.
    warm = [Client(server.ws_url(t), None) for t, _ in tables]
    await in_batches(warm, 100, lambda c: c.connect())
    await asyncio.gather(*(asyncio.wait_for(c.welcomed.wait(), 60) for c in warm))
    await asyncio.sleep(1.0)
    before_health = await healthz_times(server.base_url)
    rss0 = rss_kib(server.pid)
    clients = [Client(server.ws_url(tables[i % len(tables)][0]), None) for i in range(connections)]

    async def connect(c: Client) -> None:
        await c.connect()
        await asyncio.wait_for(c.welcomed.wait(), 120)

    t0 = time.perf_counter()
    await in_batches(clients, 200, connect)
    connect_s = time.perf_counter() - t0
    await asyncio.sleep(3.0)  # presence frames coalesce and go out; the heap settles
    rss1 = rss_kib(server.pid)
    during_health = await healthz_times(server.base_url)
    for c in clients + warm:
        await c.close()
    return {
        "connections": connections,
        "connect_seconds": round(connect_s, 1),
        "rss_before_kib": rss0,
        "rss_after_kib": rss1,
        "kib_per_connection": round((rss1 - rss0) / connections, 1),
        "healthz_before_ms": [round(quantile(before_health, 0.5), 1), round(max(before_health), 1)],
        "healthz_during_ms": [round(quantile(during_health, 0.5), 1), round(max(during_health), 1)],
    }


# The tables of the "tables" phase: each game's options and how many random actions each plays.
PLAYS: dict[str, tuple[dict[str, Any], int]] = {
    "dorasure": ({"heroes": ["ninja", "hunter", "paladin", "shaman"]}, 30),
    "dorn": ({}, 60),
}


async def play_tables(server: ServerProcess, game: str, count: int, rnd: random.Random) -> int:
    """``count`` tables of ``game`` created, started and played by a socket per seat, then every
    socket closed; returns the actions played."""
    options, actions = PLAYS[game]
    tables = await asyncio.to_thread(started_tables, server, game, count, options)
    played = 0
    for table_id, tokens in tables:
        clients = {seat: Client(server.ws_url(table_id), token, parse=True) for seat, token in tokens.items()}
        for c in clients.values():
            await c.connect()
        await asyncio.gather(*(asyncio.wait_for(c.welcomed.wait(), 60) for c in clients.values()))
        played += await play(clients, actions, rnd)
        for c in clients.values():
            await c.close()
    return played


async def phase_tables(server: ServerProcess, count: int, warm: int) -> dict[str, Any]:
    """Each game's tables measured after ``warm`` tables of every game were played and left: the
    heap grows once to what serving a table needs while it is played (sockets, requests, the
    game's first use), and that growth is the process's, not each table's. Without the warm-up
    the first game measured pays it: 32.4 / 20.9 KiB (Dorasure first) against 13.5 / 36.3
    (Dorn first) in two runs of 2026-12-03."""
    out: dict[str, Any] = {"tables": count, "warm": warm}
    rnd = random.Random(5)
    for game in PLAYS:
        await play_tables(server, game, warm, rnd)
    for game in PLAYS:
        await asyncio.sleep(1.0)
        rss0 = rss_kib(server.pid)
        played = await play_tables(server, game, count, rnd)
        await asyncio.sleep(2.0)  # the sockets are gone (tables stay loaded for 30 s after)
        rss1 = rss_kib(server.pid)
        out[game] = {
            "kib_per_table": round((rss1 - rss0) / count, 1),
            "actions_per_table": round(played / count, 1),
        }
    return out


async def phase_storm(server: ServerProcess, clients_n: int) -> dict[str, Any]:
    per_table = 40  # 4 seats + 36 spectators
    tables = await asyncio.to_thread(
        started_tables,
        server,
        "dorasure",
        max(1, clients_n // per_table),
        {"heroes": ["ninja", "hunter", "paladin", "shaman"]},
    )
    clients: list[Client] = []
    for table_id, tokens in tables:
        for token in tokens.values():
            clients.append(Client(server.ws_url(table_id), token))
        clients += [Client(server.ws_url(table_id), None) for _ in range(per_table - len(tokens))]
    clients = clients[:clients_n]

    async def connect(c: Client) -> None:
        await c.connect()
        await asyncio.wait_for(c.welcomed.wait(), 120)

    await in_batches(clients, 200, connect)
    seqs = [c.seq for c in clients]
    server.kill()
    for c in clients:
        if c.reader is not None:
            await c.reader
    server.start(timeout=120)
    t0 = time.perf_counter()
    rnd = random.Random(3)
    attempts = [0]

    async def reconnect(c: Client, last_seq: int) -> float:
        while True:
            attempts[0] += 1
            try:
                await c.connect(last_seq=last_seq)
                await asyncio.wait_for(c.welcomed.wait(), 30)
                return time.perf_counter() - t0
            except (TimeoutError, OSError, websockets.WebSocketException):
                await asyncio.sleep(0.05 + 0.2 * rnd.random())

    times = await asyncio.gather(*(reconnect(c, s) for c, s in zip(clients, seqs, strict=True)))
    for c in clients:
        await c.close()
    return {
        "clients": len(clients),
        "resynced_p50_s": round(quantile(list(times), 0.5), 2),
        "all_resynced_s": round(max(times), 2),
        "connect_attempts": attempts[0],
    }


WATCHER_NICE = 10


def watchers_main(n: int, pipe: Any) -> None:
    """The spectators' side of ``audience``, in a process of its own (so that reading the crowd's
    frames does not delay reading the players' in one event loop: the players' latency is the
    server's, not the load generator's). For each table it is sent: ``n`` sockets watch it.
    Niced, and under ``SCHED_IDLE`` where Linux has it: the crowd stands for clients on other
    machines, so on this shared machine it reads with the time the server and the players'
    clients leave (the next action waits for it)."""
    os.nice(WATCHER_NICE)
    if hasattr(os, "SCHED_IDLE"):
        # Lower still: run only when no other process wants the core, so that the players'
        # clients are never kept waiting by the crowd's reading (on separate machines they
        # would not be); the next action still waits for the crowd.
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    asyncio.run(_watch(n, pipe))


async def _recv(pipe: Any) -> Any:
    return await asyncio.to_thread(pipe.recv)  # the sockets are read meanwhile


async def _watch(n: int, pipe: Any) -> None:
    while (url := await _recv(pipe)) is not None:
        watchers = [Client(url, None) for _ in range(n)]

        async def connect(c: Client) -> None:
            await c.connect()
            await asyncio.wait_for(c.welcomed.wait(), 120)

        await in_batches(watchers, 200, connect)
        await asyncio.sleep(2.0)  # the last coalesced presence frame
        counted = [dict(c.frames) for c in watchers]
        # Frames the arrivals caused at the spectators already there (welcomes excluded).
        pipe.send(sum(sum(k for name, k in f.items() if name != "welcome") for f in counted))
        while seq := await _recv(pipe):  # a seq the players reached: answered once all have it
            await asyncio.wait_for(asyncio.gather(*(c.arrival(seq) for c in watchers)), 120)
            pipe.send(seq)
        frames = sum(sum(c.frames.values()) - sum(f.values()) for c, f in zip(watchers, counted, strict=True))
        # Closed before the answer, so that the server is not still seeing 2000 sockets out
        # while the next table's first actions are timed.
        await asyncio.gather(*(c.close() for c in watchers))
        pipe.send(frames)


async def phase_audience(
    server: ServerProcess, spectators: int, rate: float, actions: int
) -> dict[str, Any]:
    """Without spectators, then with them: tables played in turn until ``actions`` actions
    were timed (a game can end in a few dozen), so that p99 is a percentile and not the
    slowest of a few dozen."""
    options = {"heroes": ["ninja", "hunter", "paladin", "shaman"]}
    rnd = random.Random(11)
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    watching = context.Process(target=watchers_main, args=(spectators, theirs), daemon=True)
    watching.start()

    async def ask(message: Any) -> Any:
        ours.send(message)
        return await asyncio.to_thread(ours.recv)

    async def one_table(watched: bool, budget: int, latencies: list[float]) -> tuple[int, int, int, int]:
        """Play one table until it ends or ``budget`` actions; (actions, frames, connections,
        frames its spectators' arrivals caused)."""
        ((table_id, tokens),) = await asyncio.to_thread(started_tables, server, "dorasure", 1, options)
        seats = {seat: Client(server.ws_url(table_id), token, parse=True) for seat, token in tokens.items()}
        for c in seats.values():
            await c.connect()
        await asyncio.gather(*(asyncio.wait_for(c.welcomed.wait(), 60) for c in seats.values()))
        before = sum(sum(c.frames.values()) for c in seats.values())
        arrival_frames = 0
        if watched:
            arrival_frames = await ask(server.ws_url(table_id))
            arrival_frames += sum(sum(c.frames.values()) for c in seats.values()) - before
        counted = {id(c): dict(c.frames) for c in seats.values()}
        interval = 1.0 / rate
        n = 0
        while n < budget and not any(c.finished for c in seats.values()):
            ready = [c for s, c in seats.items() if s in c.to_act and c.legal]
            if not ready:
                await asyncio.sleep(0.01)
                continue
            actor = rnd.choice(ready)
            seq = actor.seq + 1
            arrivals = [c.arrival(seq) for c in seats.values()]
            sent = time.perf_counter()
            await actor.ws.send(
                json.dumps(
                    {"type": "act", "seq": actor.seq, "action_id": f"a{n}", "action": rnd.choice(actor.legal)}
                )
            )
            done = await asyncio.wait_for(asyncio.gather(*arrivals), 60)
            latencies.append((max(done) - sent) * 1000)
            if watched:  # the next action once every spectator has this one
                await ask(seq)
            n += 1
            await asyncio.sleep(max(0.0, sent + interval - time.perf_counter()))
        frames = sum(sum(c.frames.values()) - sum(counted[id(c)].values()) for c in seats.values())
        if watched:
            frames += await ask(0)
        for c in seats.values():
            await c.close()
        return n, frames, len(seats) + (spectators if watched else 0), arrival_frames

    async def run(watched: bool) -> dict[str, Any]:
        spent, counted = await fanout_totals(server.base_url)
        seats_before = await seats_histogram(server.base_url)
        latencies: list[float] = []
        per_connection = 0.0  # frames per action and connection, summed over the tables
        arrivals = tables = 0
        while len(latencies) < actions:
            n, frames, connections, arrival_frames = await one_table(watched, actions - len(latencies), latencies)
            per_connection += frames / max(1, connections)
            arrivals += arrival_frames
            tables += 1
        spent_after, counted_after = await fanout_totals(server.base_url)
        seats_after = await seats_histogram(server.base_url)
        return {
            "spectators": spectators if watched else 0,
            "actions": len(latencies),
            "tables": tables,
            "players_p50_ms": round(quantile(latencies, 0.5), 2),
            "players_p99_ms": round(quantile(latencies, 0.99), 2),
            "server_fanout_ms_per_action": round(1000 * (spent_after - spent) / max(1, counted_after - counted), 2),
            # The same path timed inside the server, without the clients' share of the cores.
            "server_seats_p50_ms": histogram_quantile(seats_before, seats_after, 0.5),
            "server_seats_p99_ms": histogram_quantile(seats_before, seats_after, 0.99),
            "frames_per_action_per_connection": round(per_connection / len(latencies), 3),
            "arrival_frames_per_arrival": round(arrivals / (tables * spectators), 3) if watched else None,
        }

    try:
        alone = await run(False)
        crowd = await run(True)
    finally:
        ours.send(None)
        await asyncio.to_thread(watching.join, 60)
    return {
        "rate": rate,
        "alone": alone,
        "watched": crowd,
        "p99_ratio": round(crowd["players_p99_ms"] / max(0.01, alone["players_p99_ms"]), 2),
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    # The database on tmpfs where there is one: this machine's disk stalls a commit now and then
    # for up to half a second, which decided the players' p99 with or without spectators.
    cores = sorted(os.sched_getaffinity(0))
    if args.pin and len(cores) > 1:
        # The server (and every thread it makes) on the first core, this load generator and
        # the spectators' process on the others: the server's figures are then its own, not
        # the load generator's, which stands for clients on other machines.
        os.sched_setaffinity(0, cores[:1])
    shm = Path("/dev/shm")
    tmp = Path(tempfile.mkdtemp(prefix="dt-capacity-", dir=shm if args.tmpfs and shm.is_dir() else None))
    server = ServerProcess(
        f"sqlite:///{tmp / 'capacity.db'}",
        env={"DRAGONTABLE_PROMPT_TIMEOUT_SECONDS": "600", **dict(kv.split("=", 1) for kv in args.server_env)},
        log_path=tmp / "server.log",
    ).start(timeout=120)
    pinned = args.pin and len(cores) > 1
    if pinned:
        os.sched_setaffinity(0, cores[1:])
    result: dict[str, Any] = {
        "load_average": [round(os.getloadavg()[0], 2)],
        "cores": os.cpu_count(),
        "pinned": f"server on core {cores[0]}, load generator on {cores[1:]}" if pinned else None,
    }
    try:
        await asyncio.sleep(1.0)
        result["empty_server_rss_kib"] = rss_kib(server.pid)
        phases = args.only or ["idle", "tables", "storm", "audience"]
        if "tables" in phases:
            result["tables"] = await phase_tables(server, args.tables, args.warm)
            print(json.dumps(result["tables"]), flush=True)
        if "idle" in phases:
            result["idle"] = await phase_idle(server, args.connections)
            print(json.dumps(result["idle"]), flush=True)
        if "audience" in phases:
            result["audience"] = await phase_audience(server, args.spectators, args.rate, args.actions)
            print(json.dumps(result["audience"]), flush=True)
        if "storm" in phases:
            result["storm"] = await phase_storm(server, args.storm)
            print(json.dumps(result["storm"]), flush=True)
    finally:
        server.stop()
    result["load_average"].append(round(os.getloadavg()[0], 2))
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", action="append", choices=("idle", "tables", "storm", "audience"))
    p.add_argument("--connections", type=int, default=10_000)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--warm", type=int, default=50, help="tables of each game played before ``tables`` measures")
    p.add_argument("--storm", type=int, default=2000)
    p.add_argument("--spectators", type=int, default=2000)
    p.add_argument("--rate", type=float, default=10.0, help="actions/s of the watched table")
    p.add_argument("--actions", type=int, default=1000, help="actions timed, with and without spectators")
    p.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                   help="a setting of the server under test, e.g. DRAGONTABLE_WS_IMPL=websockets-sansio")  # fmt: skip
    p.add_argument("--no-tmpfs", dest="tmpfs", action="store_false", help="the database on disk (/tmp)")
    p.add_argument("--pin", action="store_true", help="the server on one core, the load generator on the others")
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args()
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2))
    if not args.no_write:
        write_readme(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
