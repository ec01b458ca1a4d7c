"""Table churn: the server CPU one table's life costs besides its play, phase by phase.

    python bench/table_churn.py [--tables 200] [--spectators 2] [--baseline PATH] [--pairs 2]

Starts ``python -m backend serve`` (SQLite file, durable commits) and walks tables through
what the load benchmark (bench/server_load.py) does around every game: create it, join each
seat, start it, open each seat's and spectator's socket and say hello until the welcome, then
close them all.  No action is played.  Prints the server's CPU (utime + stime from /proc, its
10 ms ticks summed over every table) per table for each phase.

The bare ``websockets`` floor of the load benchmark pays none of this: its tables never end.
Over that benchmark's games (≈ 82 actions each) a millisecond of churn per table is ≈ 12 µs
per action.

``--baseline PATH``: another checkout's server (``git archive <commit> | tar -x -C /tmp/before``)
and this one's, in turn, ``--pairs`` times; prints both and this tree's total over the
baseline's (the machine drifts by more than most changes: pairs share the drift).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from bench.server_load import SERVER_ENV, cpu_seconds, game_options  # noqa: E402
from tests.server_fixtures import Api, ServerProcess  # noqa: E402

PHASES = ("create", "join", "start", "connect", "hello", "close")
WARM_TABLES = 20


class Meter:
    """The server's CPU seconds spent in each phase, summed over tables."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.spent = dict.fromkeys(PHASES, 0.0)
        self._at = cpu_seconds(pid)

    def mark(self, phase: str) -> None:
        now = cpu_seconds(self.pid)
        self.spent[phase] += now - self._at
        self._at = now


async def one_table(api: Api, ws_base: str, options: dict[str, Any], spectators: int, meter: Meter) -> None:
    meter.mark("close")  # what the last table's closing left running is its own
    table = await asyncio.to_thread(api.create_table, "dorasure", options)
    meter.mark("create")
    tokens = [await asyncio.to_thread(api.join, table["id"], s["seat"]) for s in table["seats"]]
    meter.mark("join")
    await asyncio.to_thread(api.start, table["id"])
    meter.mark("start")
    sockets = []
    for token in [*tokens, *[None] * spectators]:
        ws = await websockets.connect(f"{ws_base}/ws/tables/{table['id']}", max_size=2**24)
        meter.mark("connect")
        await ws.send(json.dumps({"type": "hello", "seat_token": token, "patches": True}))
        while json.loads(await ws.recv())["type"] != "welcome":
            pass
        meter.mark("hello")
        sockets.append(ws)
    for ws in sockets:
        await ws.close()


async def run_one(root: Path, tmp: Path, tag: str, tables: int, spectators: int) -> dict[str, float]:
    """ms of server CPU per table in each phase (and in all), for the checkout at ``root``."""
    server = ServerProcess(f"sqlite:///{tmp / f'{tag}.db'}", env=SERVER_ENV, log_path=tmp / f"{tag}.log",
                           root=root).start()  # fmt: skip
    try:
        assert server.proc is not None
        api = Api(server.base_url, "bench")
        ws_base = server.base_url.replace("http", "ws", 1)
        options = game_options("dorasure", 4, 1)
        meter = Meter(server.proc.pid)
        for _ in range(WARM_TABLES):
            await one_table(api, ws_base, options, spectators, meter)
        meter = Meter(server.proc.pid)
        for _ in range(tables):
            await one_table(api, ws_base, options, spectators, meter)
        await asyncio.sleep(0.2)  # the last closes and presence frames
        meter.mark("close")
    finally:
        server.stop()
    out = {phase: 1000 * spent / tables for phase, spent in meter.spent.items()}
    out["total"] = sum(out.values())
    return out


def show(name: str, row: dict[str, float]) -> None:
    print(
        f"{name:>10}: " + "  ".join(f"{k} {v:6.2f}" for k, v in row.items()) + "  (ms of server CPU a table)"
    )


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="churn-") as d:
        tmp = Path(d)
        if args.baseline is None:
            show("this tree", await run_one(ROOT, tmp, "tree", args.tables, args.spectators))
            return
        runs: dict[str, list[dict[str, float]]] = {"baseline": [], "this tree": []}
        for n in range(args.pairs):
            for name, root in (("baseline", Path(args.baseline)), ("this tree", ROOT)):
                row = await run_one(root, tmp, f"{name.replace(' ', '-')}-{n}", args.tables, args.spectators)
                show(name, row)
                runs[name].append(row)
        means = {
            name: {k: statistics.fmean(r[k] for r in rows) for k in rows[0]} for name, rows in runs.items()
        }
        for name, row in means.items():
            show(f"{name} mean", row)
        print(f"this tree / baseline, total: {means['this tree']['total'] / means['baseline']['total']:.3f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--spectators", type=int, default=2)
    p.add_argument(
        "--baseline", default=None, help="another checkout whose server runs in turn with this one"
    )
    p.add_argument("--pairs", type=int, default=2)
    args = p.parse_args()
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
