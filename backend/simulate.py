"""``python -m backend simulate GAME ...``: seeded random games to the end.

Each game prints one line (seed, outcome, number of actions, final state hash);
the same arguments always print the same lines.  The summary adds wins and
losses, games per second and microseconds per apply.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from backend.engine.playout import driver_rng, play_random
from backend.engine.registry import game_names, get_game


def parse_extra(extra: list[str]) -> dict[str, Any]:
    """Turn leftover ``--name[=value]`` flags into game options.

    ``--fang`` → ``{"fang": True}``; ``--heroes a,b`` → ``{"heroes": ["a", "b"]}``;
    other values are read as JSON when they parse, else kept as text.
    """
    options: dict[str, Any] = {}
    i = 0
    while i < len(extra):
        arg = extra[i]
        if not arg.startswith("--"):
            raise SystemExit(f"unexpected argument {arg!r}")
        name, eq, value = arg[2:].partition("=")
        if not eq and i + 1 < len(extra) and not extra[i + 1].startswith("--"):
            value, eq = extra[i + 1], "="
            i += 1
        key = name.replace("-", "_")
        if not eq:
            options[key] = True
        else:
            try:
                options[key] = json.loads(value)
            except json.JSONDecodeError:
                options[key] = value.split(",") if "," in value or key == "heroes" else value
        i += 1
    return options


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("simulate", help="play seeded random games to the end")
    p.add_argument("game", choices=game_names())
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--players", type=int, default=None, help="seats per game (default: varied)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    game = get_game(args.game)
    overrides = parse_extra(extra)
    results: Counter[str] = Counter()
    total_actions = 0
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        options = game.sim_options(driver_rng(seed), args.players, overrides)
        record = play_random(game, seed, options)
        line = record.line()
        results[line["outcome"]] += 1
        total_actions += line["actions"]
        if args.json:
            print(json.dumps({**line, "options": record.options}, sort_keys=True))
        else:
            print(
                f"seed={line['seed']} outcome={line['outcome']} actions={line['actions']} hash={line['hash']}"
            )
    elapsed = time.perf_counter() - started
    summary = {
        "games": args.games,
        "results": dict(sorted(results.items())),
        "games_per_second": round(args.games / elapsed, 2) if elapsed else None,
        "us_per_apply": round(elapsed * 1e6 / total_actions, 1) if total_actions else None,
    }
    if args.json:
        print(json.dumps({"summary": summary}, sort_keys=True))
    else:
        parts = " ".join(f"{k}={v}" for k, v in summary["results"].items())
        print(
            f"summary: games={args.games} {parts} games/s={summary['games_per_second']} "
            f"us/apply={summary['us_per_apply']} (legal-action generation and driver included)",
            file=sys.stdout,
        )
    return 0
