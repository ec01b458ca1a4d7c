"""Server load: T tables × S seats (+ spectators) of random legal play over real WebSockets.

    python bench/server_load.py [--game dorasure|toy] [--tables 50] [--spectators 2]
                                [--seconds 20] [--patches both|on|off] [--no-write]

Starts ``python -m backend serve`` (SQLite file, durable commits) in a subprocess
and drives every table from this process: one action in flight per table (a
player acts, everyone at the table receives the update, the next player acts),
new tables replacing finished games until the time is up.  In the same run a
bare ``websockets`` fan-out server (no rules, no database: a message in, the
same-sized message out to the table's connections) is driven the same way as
the floor.  Prints actions/s, action → last-recipient latency p50/p99, server
CPU µs per action (utime+stime of the server pid from /proc) and the ratio to
the floor, and writes them into the "Server" section of bench/README.md.  Beside them, the
server's own account over the same window (``/metrics``): its commits' wait, the players' path,
and the cyclic collector's passes and pauses (``gc_passes``, ``gc_pause_ms``).

Bytes (issue 15.1): every connection says hello with ``patches: true``, as the browser does, and
the run counts what each receives while measuring: the median update frame and the bytes per
action per connection.  ``--patches both`` (default) runs the server twice in the same run, with
view patches on and with ``DRAGONTABLE_VIEW_PATCHES=0`` (whole views, as before), beside the floor.

``--baseline PATH [--pairs 3]``: before and after in one run. The server of another checkout
(``git archive <commit> | tar -x -C /tmp/before``) and this one's, in turn, ``--pairs`` times on the
same seeded tables, then the floor; prints each run and the means, and CPU per action of this tree
over the baseline's (the machine drifts by more than most changes: pairs share the drift).

``--interleave SECONDS``: this tree's server and the floor up together, played in turn in slices of
that many seconds until each has had ``--seconds`` (closed loop or ``--rate``): the ratio of their
CPU then falls on the same minutes of the machine, where a floor measured after the server meets
another speed (bench/README.md, issue 15 point 2, tenth session).

``--bots LEVEL`` (issue 12) plays every seat with a bot of that level instead, each one a
``BotClient`` (backend/botplay/client.py) speaking the public protocol like a browser: the
run then reports actions/s and server CPU per action with bots deciding (no floor, no
latency, nothing written).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from bench.load_drivers import (  # noqa: E402
    all_playing,
    cpu_seconds,
    drive_bots,
    drive_floor,
    drive_server,
    timed,
)
from bench.load_peers import Phase, Stats  # noqa: E402
from bench.server_metrics import (  # noqa: E402
    Commits,
    commit_figures,
    commits,
    gc_pauses,
    histogram_quantile,
    seats_histogram,
)
from tests.server_fixtures import ServerProcess, free_port  # noqa: E402

README = ROOT / "bench" / "README.md"
BEGIN, END = "<!-- server:begin -->", "<!-- server:end -->"
WORKERS_BEGIN, WORKERS_END = "<!-- workers:begin -->", "<!-- workers:end -->"
SERVER_ENV = {"DRAGONTABLE_PROMPT_TIMEOUT_SECONDS": "600"}


# -- the floor: a bare websockets fan-out server --------------------------------------------
FLOOR_SERVER = Path(__file__).with_name("floor_server.py")


def game_options(game: str, seats: int, seed: int) -> dict[str, Any]:
    from backend.engine.registry import get_game
    from backend.engine.rng import Rng, seed_from_int

    if game == "toy":
        return {"players": seats, "target": 200}  # long races: tables live on, as real ones do
    return get_game(game).sim_options(Rng(seed_from_int(seed)), seats, {})


def label(patches: bool) -> str:
    return "patches on" if patches else "patches off"


async def run_server(
    args: argparse.Namespace, tmp: Path, patches: bool, interval: float, root: Path = ROOT, tag: str = ""
) -> dict[str, Any]:
    """One server (view patches on or off) of the checkout at ``root`` on a SQLite file, driven
    for the measured window; the same seed each time, so every run plays the same games."""
    name = label(patches).replace(" ", "-") + tag
    env = {**SERVER_ENV, "DRAGONTABLE_VIEW_PATCHES": "1" if patches else "0"}
    server = ServerProcess(f"sqlite:///{tmp / f'{name}.db'}", env=env, log_path=tmp / f"{name}.log",
                           root=root).start()  # fmt: skip
    try:
        return await drive_servers(args, [server], interval)
    finally:
        server.stop()


async def run_workers(args: argparse.Namespace, tmp: Path, workers: int, interval: float) -> dict[str, Any]:
    """``workers`` servers sharing one new PostgreSQL database and the Redis bus (issue 15,
    point 6), every table's connections dealt round them; CPU is the sum of all of them."""
    from sqlalchemy import create_engine, text

    name = f"dt_bench_{os.getpid()}_{workers}"
    admin = create_engine(f"{args.postgres}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    servers: list[ServerProcess] = []
    try:
        for i in range(workers):
            servers.append(ServerProcess(f"{args.postgres}/{name}", redis_url=args.redis, env=SERVER_ENV,
                                         log_path=tmp / f"workers-{workers}-{i}.log").start())  # fmt: skip
        real = await drive_servers(args, servers, interval)
        db = create_engine(f"{args.postgres}/{name}")
        with db.connect() as conn:  # the floor's frame size, as sample_frame_size reads it on SQLite
            real["snapshot_mean_bytes"] = int(
                conn.execute(text("SELECT avg(length(state)) FROM snapshot")).scalar() or 2000
            )
        db.dispose()
        return real
    finally:
        for server in servers:
            server.stop()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


async def drive_servers(
    args: argparse.Namespace, servers: list[ServerProcess], interval: float
) -> dict[str, Any]:
    """Drive ``args.tables`` tables over ``servers`` for the measured window: table g is created
    through server g mod n and its connections are spread over all of them."""
    rnd = random.Random(args.seed)
    stats = Stats()
    phase = Phase(interval)
    options = game_options(args.game, args.seats, args.seed)
    ws_bases = [server.base_url.replace("http", "ws") for server in servers]
    if args.bots:
        drivers = [drive_bots(servers[0].base_url, ws_bases[0], args.game, options, args.bots, phase, stats)
                   for _ in range(args.tables)]  # fmt: skip
    else:
        drivers = [
            drive_server(servers[g % len(servers)].base_url, ws_bases, args.game, options,
                         args.spectators, phase, stats, random.Random(rnd.random()))
            for g in range(args.tables)
        ]  # fmt: skip
    Probe = tuple[Commits, dict[float, float], tuple[float, float]]
    probed: list[Probe] = []

    async def probe() -> Probe:
        base = servers[0].base_url
        return await commits(base), await seats_histogram(base), await gc_pauses(base)

    elapsed, cpu = await timed(drivers, args.warmup, args.seconds, [s.pid for s in servers], phase, stats,
                               probe, probed)  # fmt: skip
    real = stats.summary(elapsed)
    real["cpu_us_per_action"] = round(cpu * 1e6 / max(1, stats.actions), 1)
    # The server's own account (its first worker's), over the same window: its commits, and the
    # players' path (an action's arrival to the last seat's update handed to its socket), which
    # leaves out the load generator's own waits (it shares the cores and runs its REST calls in threads).
    (before, seats0, (gc_s0, gc_n0)), (after, seats1, (gc_s1, gc_n1)) = probed
    real.update(commit_figures(before, after))
    real["seats_p99_ms"] = histogram_quantile(seats0, seats1, 0.99)
    # The collector's passes and their pauses in all (the loop stands still for each).
    real["gc_passes"] = int(gc_n1 - gc_n0)
    real["gc_pause_ms"] = round(1000 * (gc_s1 - gc_s0), 1)
    return per_connection(real, args, stats.actions)


def per_connection(real: dict[str, Any], args: argparse.Namespace, actions: int) -> dict[str, Any]:
    """``real`` (a ``Stats.summary``) with its bytes per action and connection, not in all."""
    per = max(1, actions) * (args.seats + args.spectators)
    real["update_bytes_per_action_per_connection"] = round(real.pop("update_bytes") / per, 1)
    real["bytes_per_action_per_connection"] = round(real.pop("all_bytes") / per, 1)
    return real


async def run_interleaved(
    args: argparse.Namespace, tmp: Path, patches: bool, interval: float
) -> dict[str, Any]:
    """This tree's server and the floor up side by side, each played in turn for
    ``args.interleave`` seconds until each has had ``args.seconds``: the machine's drift within
    the run falls on both alike, as it does not on a floor measured after the server. Each
    slice's CPU is its server's, read from /proc as the slice begins and ends; the other's
    drivers wait at their gate, their actions in flight landing in the pause between slices."""
    name = label(patches).replace(" ", "-") + "-interleaved"
    env = {**SERVER_ENV, "DRAGONTABLE_VIEW_PATCHES": "1" if patches else "0"}
    server = ServerProcess(f"sqlite:///{tmp / f'{name}.db'}", env=env, log_path=tmp / f"{name}.log").start()
    floor: subprocess.Popen[bytes] | None = None
    rnd = random.Random(args.seed)
    stats, fstats = Stats(), Stats()
    phase, fphase = Phase(interval), Phase(interval)
    options = game_options(args.game, args.seats, args.seed)
    ws_base = server.base_url.replace("http", "ws")
    tasks = [
        asyncio.create_task(drive_server(server.base_url, [ws_base], args.game, options, args.spectators,
                                         phase, stats, random.Random(rnd.random())))
        for _ in range(args.tables)
    ]  # fmt: skip
    try:
        await all_playing(tasks, phase, args.tables)
        await asyncio.sleep(args.warmup)
        size = args.frame_bytes or sample_frame_size(tmp / f"{name}.db")  # (snapshots by now)
        port = free_port()
        floor = subprocess.Popen([sys.executable, str(FLOOR_SERVER), str(port)], stdout=subprocess.PIPE)
        assert floor.stdout is not None and floor.stdout.readline().strip() == b"ready"
        floor_tasks = [
            asyncio.create_task(drive_floor(f"ws://127.0.0.1:{port}", g, args.seats, args.spectators, size,
                                            fphase, fstats))
            for g in range(args.tables)
        ]  # fmt: skip
        tasks += floor_tasks
        await all_playing(floor_tasks, fphase, args.tables)
        turns = [(phase, stats, server.pid), (fphase, fstats, floor.pid)]
        spent = {server.pid: [0.0, 0.0], floor.pid: [0.0, 0.0]}  # seconds measured, CPU seconds
        slices = max(1, round(args.seconds / args.interleave))
        for n in range(2 * slices):
            (on, on_stats, pid), (off, _, _) = turns[n % 2], turns[1 - n % 2]
            off.gate.clear()
            await asyncio.sleep(0.25)  # the other's actions in flight land
            on.gate.set()
            await asyncio.sleep(0.25)  # and this one's drivers are under way again
            cpu0, t0 = cpu_seconds(pid), time.perf_counter()
            on.measuring = on_stats.measuring = True
            await asyncio.sleep(args.interleave)
            on.measuring = on_stats.measuring = False
            spent[pid][0] += time.perf_counter() - t0
            spent[pid][1] += cpu_seconds(pid) - cpu0
        load_after = os.getloadavg()[0]
    finally:
        phase.stop = fphase.stop = True
        phase.gate.set()
        fphase.gate.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        server.stop()
        if floor is not None:
            floor.terminate()
            floor.wait()
    assert floor is not None
    real = per_connection(stats.summary(spent[server.pid][0]), args, stats.actions)
    real["cpu_us_per_action"] = round(spent[server.pid][1] * 1e6 / max(1, stats.actions), 1)
    floor_summary = fstats.summary(spent[floor.pid][0])
    floor_summary["cpu_us_per_action"] = round(spent[floor.pid][1] * 1e6 / max(1, fstats.actions), 1)
    for key in ("update_bytes", "all_bytes"):
        floor_summary.pop(key)
    return {"servers": {f"{label(patches)}, interleaved": real}, "floor": floor_summary, "frame_bytes": size,
            "slices": slices, "load_after": load_after}  # fmt: skip


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="dt-bench-"))
    interval = args.tables / args.rate if args.rate else 0.0
    load_before = os.getloadavg()[0]
    mode = f"paced at {args.rate:g} actions/s" if args.rate else "closed loop"
    if args.bots:
        real = await run_server(args, tmp, True, interval)
        for key in ("p50_ms", "p99_ms"):  # the bots time nothing: they decide when they see fit
            real.pop(key)
        return {"game": args.game, "tables": args.tables, "seats": args.seats, "bots": args.bots,
                "seconds": args.seconds, "server": real, "cores": os.cpu_count(),
                "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}  # fmt: skip
    modes = {"both": [True, False], "on": [True], "off": [False]}[args.patches]
    if args.interleave:
        # One server (the first of --patches' modes) and the floor in turn, slice by slice.
        out = await run_interleaved(args, tmp, modes[0], interval)
        real, floor_summary = next(iter(out["servers"].values())), out["floor"]
        real["throughput_ratio"] = round(real["actions_per_s"] / floor_summary["actions_per_s"], 3)
        real["cpu_ratio"] = round(real["cpu_us_per_action"] / max(0.1, floor_summary["cpu_us_per_action"]), 2)
        return {"game": args.game, "tables": args.tables, "seats": args.seats, "spectators": args.spectators,
                "seconds": args.seconds, "frame_bytes": out["frame_bytes"], "servers": out["servers"],
                "floor": floor_summary, "cores": os.cpu_count(),
                "mode": f"{mode}, the floor in turn in {out['slices']} slices of {args.interleave:g} s each",
                "workers": 0, "load_average": [round(load_before, 2), round(out["load_after"], 2)]}  # fmt: skip
    if args.workers:
        # Scale-out: one worker against ``--workers`` on the same PostgreSQL and Redis, patches on.
        modes = [True]
        servers = {f"{n} worker{'s' if n > 1 else ''} (PostgreSQL + Redis)": await run_workers(args, tmp, n, interval)
                   for n in sorted({1, args.workers})}  # fmt: skip
    elif args.baseline:
        # Before and after in one run: the baseline checkout's server and this one's in turn,
        # ``--pairs`` times, so the machine's drift falls on both alike.
        modes = modes[:1]
        servers = {}
        for n in range(1, args.pairs + 1):
            for who, root in (("baseline", args.baseline.resolve()), ("this tree", ROOT)):
                servers[f"{who}, {label(modes[0])}, run {n}"] = await run_server(
                    args, tmp, modes[0], interval, root, f"-{who.replace(' ', '-')}-{n}"
                )
    else:
        servers = {label(p): await run_server(args, tmp, p, interval) for p in modes}

    # The floor: same tables, connections and frame size, no rules and no database.
    if args.workers:
        sampled = [real.pop("snapshot_mean_bytes") for real in servers.values()][-1]
    else:
        tag = "-this-tree-1" if args.baseline else ""
        sampled = sample_frame_size(tmp / f"{label(modes[0]).replace(' ', '-')}{tag}.db")
    size = args.frame_bytes or sampled
    port = free_port()
    floor = subprocess.Popen([sys.executable, str(FLOOR_SERVER), str(port)], stdout=subprocess.PIPE)
    assert floor.stdout is not None and floor.stdout.readline().strip() == b"ready"
    fstats = Stats()
    fphase = Phase(interval)
    try:
        drivers = [
            drive_floor(f"ws://127.0.0.1:{port}", g, args.seats, args.spectators, size, fphase, fstats)
            for g in range(args.tables)
        ]
        felapsed, fcpu = await timed(drivers, args.warmup, args.seconds, [floor.pid], fphase, fstats)
    finally:
        floor.terminate()
        floor.wait()
    floor_summary = fstats.summary(felapsed)
    floor_summary["cpu_us_per_action"] = round(fcpu * 1e6 / max(1, fstats.actions), 1)
    for real in servers.values():
        real["throughput_ratio"] = round(real["actions_per_s"] / floor_summary["actions_per_s"], 3)
        real["cpu_ratio"] = round(real["cpu_us_per_action"] / max(0.1, floor_summary["cpu_us_per_action"]), 2)
    result = {
        "game": args.game,
        "tables": args.tables,
        "seats": args.seats,
        "spectators": args.spectators,
        "seconds": args.seconds,
        "frame_bytes": size,
        "servers": servers,
        "floor": floor_summary,
        "cores": os.cpu_count(),
        "mode": mode,
        "workers": args.workers,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    if args.baseline:
        result["baseline"] = str(args.baseline)
        result["means"] = {
            who: {key: round(statistics.mean(s[key] for name, s in servers.items() if name.startswith(who)), 2)
                  for key in ("actions_per_s", "p50_ms", "p99_ms", "cpu_us_per_action", "cpu_ratio",
                              "commit_p50_ms", "commit_p99_ms", "actions_per_commit", "seats_p99_ms",
                              "gc_passes", "gc_pause_ms")}
            for who in ("baseline", "this tree")
        }  # fmt: skip
        result["cpu_this_over_baseline"] = round(
            result["means"]["this tree"]["cpu_us_per_action"]
            / result["means"]["baseline"]["cpu_us_per_action"],
            3,
        )
    if set(servers) == {"patches on", "patches off"}:
        on, off = servers["patches on"], servers["patches off"]
        result["update_frame_ratio"] = round(
            on["update_frame_median_bytes"] / max(1, off["update_frame_median_bytes"]), 3
        )
    return result


def sample_frame_size(db: Path) -> int:
    """Mean size of an update frame in the real run, rebuilt from its stored states (views ≈ state)."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT avg(length(state)) FROM snapshot").fetchone()
    return int(row[0] or 2000)


def write_readme(result: dict[str, Any], begin: str = BEGIN, end: str = END) -> None:
    """Replaces the generated "last run" block of the Server section (the notes around it stay);
    a ``--workers`` run has a block of its own."""
    f = result["floor"]
    rows = "".join(
        f"| Dragontable, {name} | {s['actions_per_s']} | {s['p50_ms']} | {s['p99_ms']} | {s['cpu_us_per_action']} "
        f"| {s['cpu_ratio']} | {s['update_frame_median_bytes']} | {s['update_bytes_per_action_per_connection']} "
        f"| {s['bytes_per_action_per_connection']} |\n"
        for name, s in result["servers"].items()
    )
    ratio = result.get("update_frame_ratio")
    body = (
        f"{begin}\n"
        f"Last run of `python bench/server_load.py{' --workers ' + str(result['workers']) if result.get('workers') else ''}` ({result['mode']}): {result['game']}, "
        f"{result['tables']} tables × {result['seats']} seats + {result['spectators']} spectators, "
        f"{result['seconds']} s measured per server, {result['cores']} cores shared with the load generator, "
        f"load average {result['load_average'][0]} → {result['load_average'][1]}.\n\n"
        "| | actions/s | p50 ms | p99 ms | server CPU µs/action | CPU ratio to floor | median update frame B "
        "| update B/action/connection | all B/action/connection |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
        f"{rows}"
        f"| floor | {f['actions_per_s']} | {f['p50_ms']} | {f['p99_ms']} | {f['cpu_us_per_action']} | 1 "
        f"| {result['frame_bytes']} | {result['frame_bytes']} | |\n\n"
        + (f"Median update frame with patches / without: {ratio}.\n" if ratio is not None else "")
        + f"{end}\n"
    )  # fmt: skip
    text = README.read_text() if README.exists() else "# Benchmarks\n\n"
    if begin in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end) + "\n?", lambda _m: body, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n## Server\n\n" + body
    README.write_text(text)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="dorasure")
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--spectators", type=int, default=2)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--frame-bytes", type=int, default=0, help="floor frame size (default: measured)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="offered actions/s over all tables (default 0: closed loop, each table acts as soon as "
        "everyone has the previous update, which measures capacity; latency is then 50 tables / throughput)",
    )
    p.add_argument("--bots", choices=("random", "steady", "strong"), default=None,
                   help="every seat a bot of this level over the public protocol (prints only)")  # fmt: skip
    p.add_argument("--patches", choices=("both", "on", "off"), default="both",
                   help="view patches on, off (DRAGONTABLE_VIEW_PATCHES=0) or both, one server after the other")  # fmt: skip
    p.add_argument("--workers", type=int, default=0,
                   help="scale-out (issue 15.6): one worker, then this many, sharing a new PostgreSQL "
                        "database and Redis, each table's connections spread over them (patches on)")  # fmt: skip
    p.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432",
                   help="the PostgreSQL server --workers makes its database on")  # fmt: skip
    p.add_argument("--redis", default="redis://127.0.0.1:6379/2", help="the bus --workers shares")
    p.add_argument("--baseline", type=Path, default=None,
                   help="another checkout (e.g. `git archive <commit> | tar -x -C /tmp/before`) whose server "
                        "runs in turn with this one, --pairs times, beside one floor; prints the means (writes nothing)")  # fmt: skip
    p.add_argument("--pairs", type=int, default=3, help="baseline/this-tree pairs with --baseline")
    p.add_argument("--interleave", type=float, default=0.0, metavar="SECONDS",
                   help="this tree's server (the first of --patches' modes) and the floor up together, played "
                        "in turn in slices of this many seconds: a ratio the machine's drift moves less")  # fmt: skip
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    if not args.no_write and not args.bots and not args.baseline:
        if args.workers:
            write_readme(result, WORKERS_BEGIN, WORKERS_END)
        else:
            write_readme(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
