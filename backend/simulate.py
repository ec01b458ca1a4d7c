"""``python -m backend simulate GAME ...``: seeded random games to the end.

Each game prints one line (seed, outcome, number of actions, final state hash);
the same arguments always print the same lines.  The summary adds wins and
losses, games per second and microseconds per apply, and (``--json``) the usage tally: how
often each action type, card, ability and special attack was used, in how many games.

``--bots LEVEL`` seats bots (backend/bots: ``random``, ``steady``, ``strong``) instead of the
steered random driver: one level for every seat, or ``SEAT=LEVEL`` pairs and a bare level for
the rest (``--bots keeper=strong,steady``).  Each decision may take ``--budget`` seconds (the
strong level's search); the lines are the same, and the summary adds the decision times.  With
the strong level the lines depend on the machine's speed (its search stops on the clock).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from functools import partial
from typing import Any

from backend.bots import LEVELS, Bot, make_bot, play_bots
from backend.engine.core import Action, Event, Game
from backend.engine.playout import driver_rng, play_random
from backend.engine.registry import game_names, get_game
from backend.engine.usage import usage_keys


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
    p.add_argument(
        "--bots",
        default=None,
        metavar="LEVEL",
        help=f"seat bots ({', '.join(LEVELS)}): one level, or SEAT=LEVEL pairs and a default, comma-separated",
    )
    p.add_argument("--budget", type=float, default=1.0, help="seconds per bot decision (default 1)")
    p.set_defaults(func=run)


def seating(game: Game[Any], options: dict[str, Any], spec: str) -> dict[str, Bot]:
    """Bots for every seat from ``--bots``: ``strong`` or ``keeper=strong,steady``."""
    default: str | None = None
    chosen: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        seat, eq, level = part.rpartition("=")
        if eq:
            chosen[seat] = level
        else:
            default = level
    seats = [info.seat for info in game.seats(game.normalize_options(options))]
    unknown = sorted(set(chosen) - set(seats))
    if unknown:
        raise SystemExit(f"--bots: no seat {unknown[0]!r} at this table (seats: {', '.join(seats)})")
    out: dict[str, Bot] = {}
    for seat in seats:
        wanted = chosen.get(seat, default)
        if wanted is None:
            raise SystemExit(f"--bots: no level for seat {seat!r}")
        if wanted not in LEVELS:
            raise SystemExit(f"--bots: unknown level {wanted!r} (choose from {', '.join(LEVELS)})")
        out[seat] = make_bot(wanted, game)
    return out


def _tally(used: Counter[str], seat: str, action: Action, events: tuple[Event, ...]) -> None:
    used.update(usage_keys(action, events))
    used[f"action:{action['type']}"] += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(args: argparse.Namespace, extra: list[str]) -> int:
    game = get_game(args.game)
    overrides = parse_extra(extra)
    results: Counter[str] = Counter()
    total_actions = 0
    decisions: list[float] = []  # seconds per bot decision with a choice
    uses: Counter[str] = Counter()  # usage key -> uses over all games (steered driver only)
    games_with: Counter[str] = Counter()  # usage key -> games in which it occurred
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        options = game.sim_options(driver_rng(seed), args.players, overrides)
        if args.bots:
            played = play_bots(
                game,
                seed,
                options,
                seating(game, options, args.bots),
                seconds=args.budget,
                clock=time.perf_counter,
            )
            decisions += [d.seconds for d in played.decisions if d.choices > 1]
            line, record_options = played.line(), played.options
        else:
            used: Counter[str] = Counter()
            record = play_random(game, seed, options, on_events=partial(_tally, used))
            line, record_options = record.line(), record.options
            uses.update(used)
            games_with.update(used.keys())
        results[line["outcome"]] += 1
        total_actions += line["actions"]
        if args.json:
            print(json.dumps({**line, "options": record_options}, sort_keys=True))
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
    if uses:
        # What was used, how often and in how many games (docs/rules/dorn.md's usage table).
        summary["usage"] = {k: {"uses": uses[k], "games": games_with[k]} for k in sorted(uses)}
    if args.bots:
        summary["bots"] = args.bots
        summary["decision_ms"] = {
            "p50": round(1000 * percentile(decisions, 0.5), 1),
            "p95": round(1000 * percentile(decisions, 0.95), 1),
        }
    if args.json:
        print(json.dumps({"summary": summary}, sort_keys=True))
    else:
        parts = " ".join(f"{k}={v}" for k, v in summary["results"].items())
        bots = ""
        if args.bots:
            ms = summary["decision_ms"]
            bots = f" bots={args.bots} decision_ms_p50={ms['p50']} decision_ms_p95={ms['p95']}"
        print(
            f"summary: games={args.games} {parts} games/s={summary['games_per_second']} "
            f"us/apply={summary['us_per_apply']} (legal-action generation and driver included){bots}",
            file=sys.stdout,
        )
    return 0
