"""Dorn engine speed: random games, legal lists, validate + apply.

    python bench/dorn.py [--games N] [--seed S] [--root PATH] [--uniform] [--round-limit K]
                         [--no-surrender] [--list] [--label L] [--write]

Plays ``N`` seeded games (seeds S, S+1, ...) with the options the simulator uses
(``GAME.sim_options``; ``--no-surrender`` turns surrender off, as the first rows did: an engine
whose steering surrenders at once when allowed is measured that way) and reports, in CPU time
of this process (the machine is shared; wall time is printed too):

* ``games/s``, ``actions/game`` and ``µs/step``: whole games through a driver loop like
  ``backend/engine/playout.py`` — ``to_act``, ``legal_actions``, the pick, ``apply``; where the
  game picks without the list (``sim_pick``: Dorn's Keeper moves), that pick instead of the
  list and ``sim_choice`` (driver "steered, pick"; ``--list`` builds every list, as the rows
  before 2026-12-07 did);
* ``µs/validate+apply``: replaying the recorded actions, timing only ``validate`` + ``apply``
  (what the server pays per action);
* ``µs/validate (listed)``: in that replay, validating up to 12 of each state's listed actions
  (as the conformance harness does at every step; the server validates each arriving action);
* ``µs/legal (K3)``: the Keeper's creature-movement list, the longest the game builds (timed in
  the replay, at each Keeper movement state);
* ``ms/round``: CPU per round (Keeper turn + hero turn), whole games.

The engine is the one an import gets: compiled by mypyc when ``python -m backend.native build``
has built these sources (the row says ``"compiled": true``), else the pure Python
(``DRAGONTABLE_NATIVE=0`` asks for it).

``--uniform`` picks uniformly among the listed actions instead of the game's steered pick
(``backend/games/dorn/sim.py``), and ``--round-limit`` cuts games at a Keeper turn: together
they measure an older engine the same way (``--root`` points at a checkout of it, for example
``git archive <commit> | tar -x -C /tmp/before``).  ``--write`` puts the figures in the Dorn
section of bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "bench" / "README.md"
BEGIN, END = "<!-- dorn:begin -->", "<!-- dorn:end -->"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout whose engine is measured")
    p.add_argument("--uniform", action="store_true", help="uniform picks, not the game's steered ones")
    p.add_argument("--round-limit", type=int, default=None, help="end games after this Keeper turn")
    p.add_argument("--no-surrender", action="store_true", help="tables without surrender")
    p.add_argument("--list", action="store_true", help="build every list, never the game's sim_pick")
    p.add_argument("--label", default=None, help="the engine column of the README row")
    p.add_argument("--write", action="store_true", help="write the row into bench/README.md")
    args = p.parse_args()
    sys.path.insert(0, str(args.root.resolve()))

    from backend.engine.playout import driver_rng
    from backend.engine.registry import get_game
    from backend.engine.rng import seed_from_int

    game = get_game("dorn")
    # Which engine ran: the modules compiled by mypyc when built (backend/native.py), else the .py.
    compiled = str(sys.modules[type(game).__module__].__file__).endswith(tuple(EXTENSION_SUFFIXES))
    steer = None if args.uniform else getattr(game, "sim_choice", None)
    # As engine/playout.py: the steered pick without the list where the game makes it (SimPicking).
    picker = None if steer is None or args.list else getattr(game, "sim_pick", None)
    overrides: dict[str, Any] = {"allow_surrender": False} if args.no_surrender else {}
    if args.round_limit is not None:
        overrides["round_limit"] = args.round_limit
    records = []
    rounds = 0
    results: dict[str, int] = {}
    k3_time, k3_calls = 0.0, 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        options = game.normalize_options(game.sim_options(driver_rng(seed), None, overrides))
        state = game.initial_state(seed_from_int(seed), options)
        rng = driver_rng(seed)
        actions = []
        while game.outcome(state) is None:
            seats = sorted(game.to_act(state))
            seat = seats[rng.below(len(seats))]
            action = picker(state, seat, rng) if picker is not None else None
            if action is None:
                legal = game.legal_actions(state, seat)
                action = legal[rng.below(len(legal))] if steer is None else steer(state, seat, legal, rng)
            state = game.apply(state, seat, action).state
            actions.append((seat, action))
        result = game.outcome(state).result
        results[result] = results.get(result, 0) + 1
        rounds += state["k"]
        records.append((seed, options, actions))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    steps = sum(len(a) for _, _, a in records)

    apply_time = 0.0
    listed_time, listed_calls = 0.0, 0
    for seed, options, actions in records:
        state = game.initial_state(seed_from_int(seed), options)
        pick = driver_rng(seed ^ 0xBE7C4)
        for seat, action in actions:
            t0 = time.process_time()
            game.validate(state, seat, action)
            state = game.apply(state, seat, action).state
            apply_time += time.process_time() - t0
            if game.outcome(state) is None:
                seat = sorted(game.to_act(state))[0]
                t0 = time.process_time()
                legal = game.legal_actions(state, seat)
                if state["phase"] == "K3" and seat == "keeper":
                    k3_time += time.process_time() - t0
                    k3_calls += 1
                sample = legal if len(legal) <= 12 else [legal[pick.below(len(legal))] for _ in range(12)]
                t0 = time.process_time()
                for a in sample:
                    game.validate(state, seat, a)
                listed_time += time.process_time() - t0
                listed_calls += len(sample)

    row = {
        "engine": args.label or ("this checkout" if args.root == ROOT else str(args.root)),
        "compiled": compiled,
        "driver": "uniform" if steer is None else "steered" if picker is None else "steered, pick",
        "round_limit": args.round_limit,
        "surrender": not args.no_surrender,
        "games": args.games,
        "games_per_s": round(args.games / cpu, 2),
        "actions_per_game": round(steps / args.games),
        "us_per_step": round(cpu * 1e6 / steps, 1),
        "us_validate_apply": round(apply_time * 1e6 / steps, 1),
        "us_validate_listed": round(listed_time * 1e6 / max(1, listed_calls), 1),
        "us_legal_k3": round(k3_time * 1e6 / max(1, k3_calls), 1),
        "ms_per_round": round(cpu * 1e3 / rounds, 2),
        "wall_s": round(wall, 1),
        "results": dict(sorted(results.items())),
    }
    print(json.dumps(row))
    if args.write:
        write(row)
    return 0


def write(row: dict[str, Any]) -> None:
    end = f"Keeper turn {row['round_limit']}" if row["round_limit"] else "a victory"
    if row["surrender"]:
        end += " or surrender"
    line = (
        f"| {row['engine']} | {row['driver']} | {end} | {row['games']} | {row['games_per_s']} | "
        f"{row['actions_per_game']} | {row['us_per_step']} | {row['us_validate_apply']} | "
        f"{row['us_validate_listed']} | {row['us_legal_k3']} | {row['ms_per_round']} | "
        f"{', '.join(f'{k} {v}' for k, v in row['results'].items())} |"
    )
    text = README.read_text()
    match = re.search(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), text, re.S)
    if match is None:
        return
    body = match.group(1).rstrip("\n").split("\n")
    # After the last row of the block's first table (the rounds' own tables of steps follow it).
    at = next((i for i, b in enumerate(body) if b.startswith("|")), len(body))
    while at < len(body) and body[at].startswith("|"):
        at += 1
    body.insert(at, line)
    README.write_text(text[: match.start(1)] + "\n".join(body) + "\n" + text[match.end(1) :])


if __name__ == "__main__":
    raise SystemExit(main())
