"""Engine speed: complete random games per second and µs per validate+apply, per game.

    python bench/engine.py [--game dorasure] [--games N] [--players P] [--seed S] [--no-write]
                           [--root PATH] [--label L]

Generic over the registry: every registered game whose module imports is measured
(a game still being written is skipped with a note).  For each game:

* ``games/s``: complete seeded random games on one core through the generic driver
  (backend/engine/playout.py: to_act, legal_actions, the pick, apply);
* ``µs/apply``: validate + apply alone, replaying the recorded actions (the mean, and the
  median step);
* ``baseline µs/step``: the bare driver with a trivial pick (a seeded draw over a
  list as long as the real legal list, and building the step record) over the same
  steps, measured in the same run, so the ratio engine/baseline survives a change of
  machine.

The figures are written into the "Engine" section of bench/README.md, one row per run beside
the earlier ones.  ``--root`` measures another checkout's engine the same way (for example
``git archive <commit> | tar -x -C /tmp/before``), so "before" and "after" can be run in turn
on the shared machine; ``--label`` names the row.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

README = ROOT / "bench" / "README.md"
BEGIN, END = "<!-- engine:begin -->", "<!-- engine:end -->"


def measure(name: str, games: int, players: int | None, seed0: int) -> dict[str, Any]:
    from backend.engine.playout import driver_rng, play_random
    from backend.engine.registry import get_game
    from backend.engine.rng import Rng, seed_from_int

    game = get_game(name)
    records = []
    legal_sizes: list[int] = []
    started = time.perf_counter()
    for i in range(games):
        seed = seed0 + i
        options = game.sim_options(driver_rng(seed), players, {})
        records.append(play_random(game, seed, options))
    elapsed = time.perf_counter() - started
    steps = sum(len(r.actions) for r in records)

    # validate + apply alone, over the recorded actions.
    apply_time = 0.0
    per_step: list[float] = []
    for r in records:
        state = game.initial_state(seed_from_int(r.seed), r.options)
        for seat, action in r.actions:
            legal_sizes.append(len(game.legal_actions(state, seat)))
            t0 = time.perf_counter()
            game.validate(state, seat, action)
            state = game.apply(state, seat, action).state
            took = time.perf_counter() - t0
            apply_time += took
            per_step.append(took)

    # The bare driver: a seeded pick over a list of the same length, and the step record.
    rng = Rng(seed_from_int(seed0))
    t0 = time.perf_counter()
    log: list[tuple[str, dict[str, Any]]] = []
    for n in legal_sizes:
        options = [{"type": "x", "i": k} for k in range(min(n, 8))]
        pick = options[rng.below(len(options))]
        log.append(("seat", dict(pick)))
    baseline = (time.perf_counter() - t0) / max(1, len(legal_sizes))

    results: dict[str, int] = {}
    for r in records:
        key = r.outcome.result if r.outcome else "unfinished"
        results[key] = results.get(key, 0) + 1
    us_apply = apply_time * 1e6 / max(1, steps)
    us_median = statistics.median(per_step) * 1e6 if per_step else 0.0
    return {
        "game": name,
        "games": games,
        "players": players,
        "games_per_second": round(games / elapsed, 1),
        "actions_per_game": round(steps / games, 1),
        "us_per_step_driver": round(elapsed * 1e6 / max(1, steps), 1),
        "us_per_validate_apply": round(us_apply, 1),
        "baseline_us_per_step": round(baseline * 1e6, 2),
        "ratio_to_baseline": round(us_apply / (baseline * 1e6), 1) if baseline else None,
        "us_per_validate_apply_median": round(us_median, 1),
        "median_ratio_to_baseline": round(us_median / (baseline * 1e6), 1) if baseline else None,
        "results": results,
    }


HEADER = [
    "| game | players | games/s | actions/game | µs/step (driver, all-in) | µs/validate+apply | baseline µs/step | ratio | load avg | results | median µs/validate+apply | median ratio | engine |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
]
COLUMNS = len(HEADER[1].strip("|").split("|"))


def write_readme(rows: list[dict[str, Any]], skipped: dict[str, str], label: str) -> None:
    """Add a row per game measured now below the earlier rows (the older rows, written before the
    last three columns existed, are kept as they are: the "before" of later rows)."""
    text = README.read_text(encoding="utf-8") if README.exists() else "# Benchmarks\n"
    kept: list[str] = []
    if BEGIN in text:
        block = text.split(BEGIN, 1)[1].split(END, 1)[0]
        kept = [
            line for line in block.splitlines() if line.startswith("| ") and not line.startswith("| game |")
        ]
    load = round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else "?"
    for r in rows:
        kept.append(
            f"| {r['game']} | {r['players'] or 'varied'} | {r['games_per_second']} | {r['actions_per_game']} | "
            f"{r['us_per_step_driver']} | {r['us_per_validate_apply']} | {r['baseline_us_per_step']} | "
            f"{r['ratio_to_baseline']} | {load} | {json.dumps(r['results'], sort_keys=True)} | "
            f"{r['us_per_validate_apply_median']} | {r['median_ratio_to_baseline']} | {label} |"
        )
    lines = [BEGIN, *HEADER, *kept]
    for name, why in skipped.items():
        lines.append(f"\n{name}: skipped ({why})")
    lines.append(END)
    block = "\n".join(lines)
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _m: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n## Engine\n\nWritten by `python bench/engine.py`.\n\n" + block + "\n"
    README.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", help="measure only this game (repeatable)")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--players", type=int, default=4, help="seats per game (0: the game's varied default)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-write", action="store_true", help="do not update bench/README.md")
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout whose engine is measured")
    p.add_argument("--label", default=None, help="the engine column of the README rows")
    args = p.parse_args(argv)
    sys.path.insert(0, str(args.root.resolve()))
    from backend.engine.registry import game_names, get_game

    rows, skipped = [], {}
    for name in args.game or game_names():
        try:
            get_game(name)
        except Exception as e:  # a game still being written
            skipped[name] = f"{type(e).__name__}: {e}"
            print(f"{name}: skipped ({skipped[name]})")
            continue
        players = args.players or None
        row = measure(name, args.games, players, args.seed)
        rows.append(row)
        print(json.dumps(row, sort_keys=True))
    if not args.no_write:
        write_readme(rows, skipped, args.label or ("this checkout" if args.root == ROOT else str(args.root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
