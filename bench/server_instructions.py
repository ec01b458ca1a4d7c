"""The server's instructions per action and per table, counted by callgrind: a measure that the
machine's load does not move (issue 15, point 2).

    python bench/server_instructions.py [--tables 8] [--baseline PATH]

The CPU figures of bench/server_load.py drift by ±5–10 % between runs on a shared machine, more
than most single changes to the server weigh. Here ``python -m backend serve`` (SQLite file,
durable commits) runs under ``valgrind --tool=callgrind``, which counts the instructions of every
thread of the process, and one driver walks tables one after another as the load benchmark's
drivers do: create, a join per seat, start, 4 seats and 2 spectators say hello and get their
welcome, the seats play seeded random legal actions until the game ends (each waits for all six
connections to have the update before the next), and everyone leaves. The counts are read at
each phase's end (``callgrind_control --dump``), the event loop's thread apart from the others (the
REST calls' SQL, SQLite's checkpoints: how much they do depends on timing, which valgrind
changes), after ``--warm`` tables that are not counted
(imports, caches). Every run plays the same games: the driver's choices are seeded, and so
are the server's secrets, its dice's seeds among them (``SAME_GAMES``, the server's
sitecustomize here).

- **setup**: create, joins, start, connections and welcomes, per table;
- **play**: per action;
- **close**: the connections leaving, per table.

Under valgrind the server runs ≈ 50× slower, so timers and batching differ from a real run: one
table plays at a time, so every commit holds one action (the load benchmark's hold ≈ 14). What it
counts is the work; bench/server_load.py is still the measure of the whole.

``--keep DIR``: each phase's dump is kept there (``setup.N``, ``play.N``, ``close.N``) for
``callgrind_annotate --inclusive=yes``.

``--baseline PATH``: another checkout (``git archive <commit> | tar -x -C /tmp/before``, compiled
with ``python -m backend.native build`` there) measured first, then this one; prints both and
this tree's figures over the baseline's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from bench.load_peers import Peer  # noqa: E402
from bench.server_load import SERVER_ENV, game_options  # noqa: E402
from tests.server_fixtures import Api, ServerProcess  # noqa: E402

SEATS, SPECTATORS = 4, 2
# Put beside the server as its sitecustomize: its secrets (table ids, tokens, and the seeds the
# dice come from) drawn from a seeded generator, so every run plays the same games. Benchmark
# only: nothing of the server's own code changes.
SAME_GAMES = """\
import random, secrets
_draws = random.Random({seed})
secrets.token_bytes = lambda n=32: _draws.randbytes(n)
"""


class Counter:
    """Reads the instructions the server ran since the last read (a callgrind dump resets them)."""

    def __init__(self, pid: int, folder: Path, keep: Path | None = None) -> None:
        self.pid, self.folder, self.n = pid, folder, 0
        self.keep = keep  # where each dump is kept, named by its phase, for callgrind_annotate

    def on(self) -> None:
        subprocess.run(["callgrind_control", "--instr=on", str(self.pid)], check=True, capture_output=True)

    def read(self, phase: str = "") -> tuple[int, int]:
        """(the event loop's instructions, the other threads') since the last read."""
        self.n += 1
        subprocess.run(["callgrind_control", f"--dump=d{self.n}", str(self.pid)], check=True, capture_output=True)
        # One file per thread (--separate-threads): "cg.out.<n>-<thread>", the loop's thread 01.
        loop = others = 0
        for path in self.folder.glob(f"cg.out.{self.n}-*"):
            match = re.search(r"^summary:\s*(\d+)", path.read_text(errors="replace"), re.M)
            count = int(match.group(1)) if match else 0
            if path.name.endswith("-01"):
                loop += count
            else:
                others += count
            if self.keep is not None and phase:
                self.keep.mkdir(parents=True, exist_ok=True)
                shutil.move(path, self.keep / f"{phase}.{path.name.rsplit('.', 1)[1]}")
            else:
                path.unlink()
        return loop, others


async def one_table(api: Api, ws_base: str, options: dict[str, Any]) -> tuple[dict[str, Peer], list[Peer]]:
    """Set up a table and its connections, all welcomed: (the seats' peers, everyone's)."""
    table = await asyncio.to_thread(api.create_table, "dorasure", options)
    tokens = {s["seat"]: await asyncio.to_thread(api.join, table["id"], s["seat"]) for s in table["seats"]}
    await asyncio.to_thread(api.start, table["id"])
    url = f"{ws_base}/ws/tables/{table['id']}"
    seats: dict[str, Peer] = {}
    watchers: list[Peer] = []
    for seat, token in tokens.items():
        ws = await websockets.connect(url, max_size=2**24, open_timeout=120)
        await ws.send(json.dumps({"type": "hello", "seat_token": token, "patches": True}))
        seats[seat] = Peer(ws, seat=True)
    for _ in range(SPECTATORS):
        ws = await websockets.connect(url, max_size=2**24, open_timeout=120)
        await ws.send(json.dumps({"type": "hello", "seat_token": None, "patches": True}))
        watchers.append(Peer(ws))
    everyone = [*seats.values(), *watchers]
    await asyncio.gather(*(p.arrival(0) for p in everyone))
    return seats, everyone


async def play(seats: dict[str, Peer], everyone: list[Peer], rnd: random.Random) -> int:
    n = 0
    while not any(p.finished for p in everyone):
        ready = [p for s, p in sorted(seats.items()) if s in p.to_act and p.legal]
        if not ready:
            await asyncio.sleep(0.05)
            continue
        actor = rnd.choice(ready)
        arrivals = [p.arrival(actor.seq + 1) for p in everyone]
        await actor.ws.send(json.dumps(
            {"type": "act", "seq": actor.seq, "action_id": f"b{n}", "action": rnd.choice(actor.legal)}
        ))  # fmt: skip
        n += 1
        await asyncio.gather(*arrivals)
    return n


async def measure(root: Path, tables: int, warm: int, seed: int, keep: Path | None = None) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="instr-") as d:
        tmp = Path(d)
        wrapper = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--dump-instr=no", "--separate-threads=yes",
                   f"--callgrind-out-file={tmp / 'cg.out'}"]  # fmt: skip
        (tmp / "sitecustomize.py").write_text(SAME_GAMES.format(seed=seed))
        env = {**SERVER_ENV, "PYTHONHASHSEED": "0", "PYTHONPATH": f"{tmp}{os.pathsep}{root}"}
        server = ServerProcess(f"sqlite:///{tmp / 'instr.db'}", env=env, log_path=tmp / "server.log",
                               root=root, wrapper=wrapper).start(timeout=600)  # fmt: skip
        try:
            assert server.proc is not None
            counter = Counter(server.proc.pid, tmp, keep)
            api = await asyncio.to_thread(Api, server.base_url, "bench")
            ws_base = server.base_url.replace("http", "ws", 1)
            options = game_options("dorasure", SEATS, 1)
            rnd = random.Random(seed)
            sums = dict.fromkeys(("setup", "play", "close", "setup_threads", "play_threads", "close_threads"), 0)
            actions = 0
            for i in range(warm + tables):
                if i == warm:
                    counter.on()
                    counter.read()  # nothing yet: the counts start here
                seats, everyone = await one_table(api, ws_base, options)
                setup = counter.read("setup")
                played = await play(seats, everyone, rnd)
                play_counts = counter.read("play")
                for p in everyone:
                    await p.ws.close()
                await asyncio.sleep(1.0)  # the closes reach the server and its presence frames go
                closed = counter.read("close")
                if i < warm:
                    continue
                actions += played
                for phase, (loop, others) in (("setup", setup), ("play", play_counts), ("close", closed)):
                    sums[phase] += loop
                    sums[f"{phase}_threads"] += others
                print(f"  table {i - warm + 1}: {played} actions; the loop: setup {setup[0] / 1e6:.1f} M, "
                      f"play {play_counts[0] / max(1, played) / 1e3:.0f} k an action, close {closed[0] / 1e6:.1f} M; "
                      f"other threads: {(setup[1] + play_counts[1] + closed[1]) / 1e6:.1f} M", flush=True)  # fmt: skip
        finally:
            server.stop()
    return {
        "setup_M_per_table": sums["setup"] / tables / 1e6,
        "play_k_per_action": sums["play"] / actions / 1e3,
        "close_M_per_table": sums["close"] / tables / 1e6,
        "threads_M_per_table": (sums["setup_threads"] + sums["play_threads"] + sums["close_threads"]) / tables / 1e6,
        "actions_per_table": actions / tables,
    }


def show(name: str, row: dict[str, float]) -> None:
    print(f"{name:>10}: " + "  ".join(f"{k} {v:,.1f}" for k, v in row.items()))


async def run(args: argparse.Namespace) -> None:
    rows = {}
    tree = Path(args.tree).resolve() if args.tree else ROOT
    for name, root in ([("baseline", Path(args.baseline).resolve())] if args.baseline else []) + [("this tree", tree)]:
        print(f"{name} ({root}):", flush=True)
        keep = args.keep / name.replace(" ", "-") if args.keep else None
        rows[name] = await measure(root, args.tables, args.warm, args.seed, keep)
        show(name, rows[name])
    if args.baseline:
        base, this = rows["baseline"], rows["this tree"]
        print("this tree / baseline: " + "  ".join(
            f"{k} {this[k] / base[k]:.3f}" for k in ("setup_M_per_table", "play_k_per_action", "close_M_per_table",
                                                     "threads_M_per_table")
        ))  # fmt: skip


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=8, help="tables counted")
    p.add_argument("--warm", type=int, default=2, help="tables played first, not counted")
    p.add_argument("--seed", type=int, default=1, help="the driver's choices (the dice are the server's)")
    p.add_argument("--baseline", default=None, help="another checkout, measured first")
    p.add_argument("--tree", default=None, help="the checkout measured as 'this tree' (default: this one)")
    p.add_argument("--keep", type=Path, default=None,
                   help="keep each phase's callgrind dump in this folder (callgrind_annotate reads them)")
    args = p.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    os.environ.setdefault("PYTHONHASHSEED", "0")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
