"""The group commit's tail on SQLite: checkpoints in the commit, or in their own thread.

    python bench/commit_tail.py [--tables 50] [--rate 1000] [--per-commit 12] [--seconds 10]
                                [--pairs 3] [--no-write]

What the event loop waits for when it writes a turn's group commit (store/writer.py): the
real ``Repository.append_batch`` over a migrated SQLite file, ``synchronous=FULL``, with the
rows a server writes (seeded random Dorasure games, each action's events, hashes and
snapshots made by ``play.record.log_write``), ``--per-commit`` actions of different tables a
commit, paced at ``--rate`` actions/s.  Two setups in turn, ``--pairs`` times, a fresh file
each, in this one process so that they share the machine's drift:

* ``in the commit``: SQLite's default, the commit that takes the WAL past 1,000 pages copies
  it back before it returns (what the server did before store/checkpoint.py);
* ``own thread``: the server's connections (``wal_autocheckpoint=0``) and ``Checkpoints``.

Prints each commit's duration p50 / p99 / max, the WAL file's length at the end, the
process's CPU per action (both threads) and the longest the checkpoint thread held the writers
to restart the WAL, and writes them into bench/README.md ("Server",
the checkpoints block).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backend.engine.playout import driver_rng, play_random  # noqa: E402
from backend.engine.registry import get_game  # noqa: E402
from backend.engine.rng import seed_from_int  # noqa: E402
from backend.play.record import log_write  # noqa: E402
from backend.store.checkpoint import Checkpoints  # noqa: E402
from backend.store.db import make_engine, make_sessionmaker  # noqa: E402
from backend.store.migrate import upgrade  # noqa: E402
from backend.store.records import ActionWrite  # noqa: E402
from backend.store.repository import Repository  # noqa: E402

README = ROOT / "bench" / "README.md"
BEGIN, END = "<!-- commit-tail:begin -->", "<!-- commit-tail:end -->"
SETUPS = ("in the commit", "own thread")


def games(tables: int) -> list[list[ActionWrite]]:
    """One seeded random Dorasure game a table, as the rows its commits write."""
    game = get_game("dorasure")
    out = []
    for seed in range(1, tables + 1):
        played = play_random(game, seed, game.sim_options(driver_rng(seed), 4, {}))
        state = game.initial_state(seed_from_int(seed), played.options)
        rows = []
        for seq, (seat, action) in enumerate(played.actions, start=1):
            transition = game.apply(state, seat, action)
            rows.append(log_write(game, "-", seq, seat, action, f"a{seq}", transition, auto=False,
                                  snapshot_every=50, hash_every=10, hash_all=False))  # fmt: skip
            state = transition.state
        out.append(rows)
    return out


def run(setup: str, played: list[list[ActionWrite]], args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tail.db"
        url = f"sqlite:///{path}"
        upgrade(url)
        engine = make_engine(url, autocheckpoint=setup == "in the commit")
        repo = Repository(make_sessionmaker(engine))
        host, _ = repo.create_player("Host")
        ids = []
        for _ in played:
            table = repo.create_table(game="dorasure", rules_version="1", title="t", options={}, visibility="public",
                                      host=host, seats=[("s1", "S1")], turn_clock_seconds=None,
                                      prompt_timeout_seconds=60)  # fmt: skip
            assert repo.start_table(table.id, seed_hex="00" * 32, commitment="c", initial_hash="h")
            ids.append(table.id)
        checkpoints = Checkpoints(engine) if setup == "own thread" else None
        if checkpoints is not None:
            checkpoints.start()
        gap = args.per_commit / args.rate
        durations: list[float] = []
        next_of = [0] * len(ids)
        turn = 0
        cpu0, start = time.process_time(), time.perf_counter()
        due = start
        while time.perf_counter() - start < args.seconds:
            batch = []
            for k in range(args.per_commit):
                t = (turn * args.per_commit + k) % len(ids)
                rows = played[t]
                # A game played to its end starts again with its seqs counting on (the log checks
                # only that each follows the last), its outcome left out: the table stays live.
                row = rows[next_of[t] % len(rows)]
                next_of[t] += 1
                batch.append(dataclasses.replace(row, table_id=ids[t], seq=next_of[t], action_id=f"a{next_of[t]}",
                                                 outcome=None))
            began = time.perf_counter()
            results = repo.append_batch(batch)
            durations.append(time.perf_counter() - began)
            if checkpoints is not None:
                checkpoints.wrote()
            assert all(r is None for r in results), results
            turn += 1
            due += gap
            time.sleep(max(0.0, due - time.perf_counter()))
        cpu = time.process_time() - cpu0
        held = None
        if checkpoints is not None:
            checkpoints.stop()
            held = round(checkpoints.held_longest * 1e3, 2)
        wal = os.path.getsize(f"{path}-wal")
        engine.dispose()
    actions = len(durations) * args.per_commit
    durations.sort()
    ms = [d * 1e3 for d in durations]
    return {
        "commits": len(ms),
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[int(len(ms) * 0.99)], 2),
        "max_ms": round(ms[-1], 2),
        "wal_mb": round(wal / 2**20, 1),
        "cpu_us_per_action": round(cpu / actions * 1e6, 1),
        "restart_lock_longest_ms": held,
    }


def write_readme(result: dict[str, Any]) -> None:
    rows = [
        f"Last run of `python bench/commit_tail.py`: {result['tables']} tables, {result['per_commit']} actions a "
        f"commit paced at {result['rate']} actions/s, {result['seconds']} s a run, {result['pairs']} pairs in turn, "
        f"load average {result['load_average'][0]} → {result['load_average'][1]}.",
        "",
        "| checkpoints | commit p50 ms | commit p99 ms | longest commit ms | WAL at the end MB | CPU µs/action "
        "| longest hold for a restart ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in result["runs"].items():
        rows.append(f"| {name} | {r['p50_ms']} | {r['p99_ms']} | {r['max_ms']} | {r['wal_mb']} | {r['cpu_us_per_action']} "
                    f"| {r['restart_lock_longest_ms'] if r['restart_lock_longest_ms'] is not None else '–'} |")
    for name, r in result["means"].items():
        rows.append(f"| **{name}, means** | {r['p50_ms']} | {r['p99_ms']} | {r['max_ms']} | {r['wal_mb']} | "
                    f"{r['cpu_us_per_action']} | |")  # fmt: skip
    block = "\n".join(rows)
    text = README.read_text()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    replacement = f"{BEGIN}\n{block}\n{END}"
    text = pattern.sub(lambda _: replacement, text) if pattern.search(text) else text + "\n" + replacement + "\n"
    README.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--per-commit", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    load0 = os.getloadavg()[0]
    played = games(args.tables)
    runs: dict[str, dict[str, Any]] = {}
    for pair in range(1, args.pairs + 1):
        for setup in SETUPS:
            runs[f"{setup}, run {pair}"] = run(setup, played, args)
            print(f"{setup}, run {pair}: {runs[f'{setup}, run {pair}']}", file=sys.stderr, flush=True)
    means = {
        setup: {
            key: round(statistics.mean(r[key] for name, r in runs.items() if name.startswith(setup)), 2)
            for key in ("p50_ms", "p99_ms", "max_ms", "wal_mb", "cpu_us_per_action")
        }
        for setup in SETUPS
    }
    result = {"tables": args.tables, "rate": args.rate, "per_commit": args.per_commit, "seconds": args.seconds,
              "pairs": args.pairs, "load_average": [round(load0, 2), round(os.getloadavg()[0], 2)],
              "runs": runs, "means": means}  # fmt: skip
    print(json.dumps(result, indent=2))
    if not args.no_write:
        write_readme(result)


if __name__ == "__main__":
    main()
