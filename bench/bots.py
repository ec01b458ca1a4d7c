"""Bot strength and speed: win rates with 95 % intervals and decision times, per game and level.

    python bench/bots.py [--config NAME ...] [--games N] [--budget S] [--clock cpu|wall] [--no-write]

Configurations (fixed seeds: game i of a configuration uses seed ``--seed`` + i):

* ``dorasure-random`` / ``-steady`` / ``-strong``: 4 heroes (Ninja, Hunter, Paladin, Shaman), all
  of one level; the win rate is the heroes'.
* ``dorn-steady``: steady Keeper against steady heroes (the reference), both sides' rates.
* ``dorn-strong-keeper``: strong Keeper against steady heroes; the Keeper's win rate.
* ``dorn-strong-heroes``: steady Keeper against strong heroes; the heroes' win rate.

Dorn tables have one hero seat with 5 heroes (Almanor, Choros, Guelin, Ragnar, Riel); a side
that is behind after 45 Keeper turns concedes (backend/bots/dorn_play.py), and the engine
abandons a game at 200 rounds (a draw: nobody's win).

``--fit GAME`` refits the strong level's leaf evaluation instead (backend/bots/*_play.py): it
plays ``--games`` steady games with the simulator's varied tables, records the playbook's
features where the strong level's rollouts stop (Dorasure: the first state of the Climactic
Battle; Dorn: every Blood and Blessings step) with how the game ended, fits a logistic
regression (Newton's method, a little L2) and prints the weights with the held-out log-loss.
``--fit dorasure-adventure`` fits Dorasure's Adventure-phase value the same way, on the state at
the start of every hero's turn of the Adventure phase (``adventure_entry``).

Each game's record goes to ``var/bench-bots/NAME.jsonl`` as it ends, so a long run can be
stopped and resumed (``--resume``) or split between processes; the table in bench/README.md is
written from those files.  The budget is measured on ``--clock``: ``cpu`` (the default) is this
process's CPU time, so that the search gets the same work per decision however loaded the
shared machine is; the wall-clock times are reported beside it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backend.bots import make_bot, play_bots  # noqa: E402
from backend.bots.interface import Bot  # noqa: E402
from backend.engine.registry import get_game  # noqa: E402

README = ROOT / "bench" / "README.md"
RESULTS = ROOT / "var" / "bench-bots"
BEGIN, END = "<!-- bots:begin -->", "<!-- bots:end -->"

DORASURE_TABLE = {"heroes": ["ninja", "hunter", "paladin", "shaman"]}
DORN_TABLE = {
    "heroes": ["almanor", "choros", "guelin", "ragnar", "riel"],
    "hero_seats": 1,
    "round_limit": 200,
    "phase_action_limit": 40,
    "take_back_limit": 1,
}


@dataclass(frozen=True)
class Config:
    name: str
    game: str
    options: dict[str, Any]
    levels: Callable[[str], str]  # seat -> level
    side: str  # whose win rate the row reports: "heroes" (Dorasure), "keeper" or "heroes" (Dorn)
    timed: str  # the level whose decision times the row reports


CONFIGS = {
    c.name: c
    for c in [
        Config("dorasure-random", "dorasure", DORASURE_TABLE, lambda s: "random", "heroes", "random"),
        Config("dorasure-steady", "dorasure", DORASURE_TABLE, lambda s: "steady", "heroes", "steady"),
        Config("dorasure-strong", "dorasure", DORASURE_TABLE, lambda s: "strong", "heroes", "strong"),
        Config("dorn-steady", "dorn", DORN_TABLE, lambda s: "steady", "keeper", "steady"),
        Config(
            "dorn-strong-keeper",
            "dorn",
            DORN_TABLE,
            lambda s: "strong" if s == "keeper" else "steady",
            "keeper",
            "strong",
        ),
        Config(
            "dorn-strong-heroes",
            "dorn",
            DORN_TABLE,
            lambda s: "steady" if s == "keeper" else "strong",
            "heroes",
            "strong",
        ),
    ]
}
SEATS = {  # the table's "seats" column, which with the game names a configuration's row
    "dorasure-random": "4 heroes, random",
    "dorasure-steady": "4 heroes, steady",
    "dorasure-strong": "4 heroes, strong",
    "dorn-steady": "steady Keeper vs steady heroes",
    "dorn-strong-keeper": "**strong Keeper** vs steady heroes",
    "dorn-strong-heroes": "steady Keeper vs **strong heroes**",
}
WINS = {"heroes": {"players_win", "heroes_win"}, "keeper": {"keeper_wins"}}


def play_one(config: Config, seed: int, budget: float, clock: Callable[[], float]) -> dict[str, Any]:
    game = get_game(config.game)
    seats = [info.seat for info in game.seats(game.normalize_options(config.options))]
    seating: dict[str, Bot] = {s: make_bot(config.levels(s), game) for s in seats}
    wall = time.perf_counter
    started = wall()
    walls: list[float] = []
    iterations: list[int] = []

    # Wall time per decision, beside the budget's clock: wrap each bot's decide.
    class Timed:
        def __init__(self, bot: Bot) -> None:
            self.bot, self.level = bot, bot.level

        def decide(self, *args: Any) -> Any:
            t0 = wall()
            action = self.bot.decide(*args)
            walls.append(wall() - t0)
            iterations.append(getattr(self.bot, "last_iterations", 0))
            return action

    record = play_bots(
        game, seed, config.options, {s: Timed(b) for s, b in seating.items()}, seconds=budget, clock=clock
    )
    decisions = [
        (d.seconds, w, n)
        for d, w, n in zip(record.decisions, walls, iterations, strict=True)
        if d.level == config.timed and d.choices > 1
    ]
    return {
        "seed": seed,
        "outcome": record.outcome.result if record.outcome else "unfinished",
        "actions": record.actions,
        "seconds": [round(s, 4) for s, _, _ in decisions],
        "wall": [round(w, 4) for _, w, _ in decisions],
        "iterations": [n for _, _, n in decisions],
        "elapsed": round(wall() - started, 1),
        "budget": budget,
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def load(name: str, results: Path = RESULTS) -> list[dict[str, Any]]:
    path = results / f"{name}.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def row(config: Config, games: list[dict[str, Any]]) -> str:
    n = len(games)
    wins = sum(g["outcome"] in WINS[config.side] for g in games)
    lo, hi = wilson(wins, n)
    seconds = [s for g in games for s in g["seconds"]]
    searched = [n for g in games for n in g.get("iterations", []) if n]
    walls = [w for g in games for w in g["wall"]]
    budget = games[0]["budget"] if games else 0
    seats = SEATS[config.name]
    others = ""
    if config.name == "dorn-steady":
        h = sum(g["outcome"] in WINS["heroes"] for g in games)
        others = f"; heroes {h}"
    return (
        f"| {config.game} | {seats} | {n} | {config.side} {wins}{others} | {100 * wins / max(1, n):.1f} % | "
        f"{100 * lo:.1f}–{100 * hi:.1f} % | {config.timed} | {1000 * percentile(seconds, 0.5):.1f} | "
        f"{1000 * percentile(seconds, 0.95):.1f} | {1000 * percentile(walls, 0.95):.1f} | "
        f"{budget if config.timed == 'strong' else '–'} | {int(percentile(searched, 0.5)) if searched else '–'} |"
    )


HEADER = [
    "| game | seats | games | wins | win rate | 95 % interval | timed level | decision p50 ms | "
    "decision p95 ms | wall p95 ms | budget s | iterations p50 |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
]


def written_rows(text: str) -> dict[str, str]:
    """The rows of the table now in bench/README.md, by configuration."""
    block = text.partition(BEGIN)[2].partition(END)[0]
    heads = {f"| {c.game} | {SEATS[name]} |": name for name, c in CONFIGS.items()}
    return {heads[h]: line for line in block.splitlines() for h in heads if line.startswith(h)}


def write_readme(clock: str, results: Path = RESULTS) -> None:
    """The table from the records in ``results``; a configuration with none there keeps the row
    already written (a long row is not lost with the records of another machine)."""
    text = README.read_text(encoding="utf-8")
    kept = written_rows(text)
    rows = [
        row(c, games) if games else kept[name]
        for name, c in CONFIGS.items()
        if (games := load(name, results)) or name in kept
    ]
    load_avg = round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else "?"
    block = "\n".join(
        [
            BEGIN,
            *HEADER,
            *rows,
            "",
            f"Decision times on the `{clock}` clock (the one the bots were handed), over the timed level's "
            f"decisions with more than one listed action; wall p95 beside it. Load average when written: {load_avg}.",
            END,
        ]
    )
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _m: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n## Bots\n\nWritten by `python bench/bots.py`.\n\n" + block + "\n"
    README.write_text(text, encoding="utf-8")


# -- refitting the leaf evaluation ------------------------------------------------------------


FITS = ("dorasure", "dorasure-adventure", "dorn")


def fit_samples(target: str, games: int, seed0: int) -> tuple[list[list[float]], list[float]]:
    """(features, outcome) where the strong level's rollouts stop, from steady games."""
    from backend.bots import dorasure_play, dorn_play
    from backend.bots.playbooks import playbook
    from backend.engine.playout import driver_rng
    from backend.engine.rng import Rng, seed_from_int

    game_name = target.split("-")[0]
    game = get_game(game_name)
    book = playbook(game_name)
    rows: list[list[float]] = []
    labels: list[float] = []
    for i in range(games):
        seed = seed0 + i
        options = game.normalize_options(game.sim_options(driver_rng(seed), 2 + seed % 5, {}))
        state = game.initial_state(seed_from_int(seed), options)
        pick, rng = driver_rng(seed), Rng(seed_from_int(seed + 1))
        found: list[list[float]] = []
        seen: set[Any] = set()
        while game.outcome(state) is None:
            if target == "dorasure" and state.phase == dorasure_play.BATTLE and not found:
                found.append(dorasure_play.battle_entry(state))
            if (
                target == "dorasure-adventure"
                and state.phase != dorasure_play.BATTLE
                and state.turn not in seen
            ):
                seen.add(state.turn)
                found.append(dorasure_play.adventure_entry(state))
            if (
                game_name == "dorn"
                and state["phase"] in ("K1", "H1")
                and (state["k"], state["phase"]) not in seen
            ):
                seen.add((state["k"], state["phase"]))
                found.append(dorn_play.features(state))
            acting = sorted(game.to_act(state))
            seat = acting[pick.below(len(acting))]
            state = game.apply(
                state, seat, book.steady(state, seat, game.legal_actions(state, seat), rng)
            ).state
        outcome = game.outcome(state)
        assert outcome is not None
        if outcome.result == "abandoned":
            continue
        won = 1.0 if outcome.result in WINS["heroes"] else 0.0
        rows += found
        labels += [won] * len(found)
    return rows, labels


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Newton step's small system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def logistic(rows: list[list[float]], labels: list[float], l2: float = 1e-3, steps: int = 25) -> list[float]:
    xs = [[*r, 1.0] for r in rows]
    k, n = len(xs[0]), len(xs)
    w = [0.0] * k
    for _ in range(steps):
        grad = [l2 * wi for wi in w]
        hess = [[l2 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, labels, strict=True):
            z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            g, h = (p - y) / n, p * (1 - p) / n
            for i in range(k):
                grad[i] += g * x[i]
                hi = h * x[i]
                row_i = hess[i]
                for j in range(i, k):
                    row_i[j] += hi * x[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def log_loss(rows: list[list[float]], labels: list[float], w: list[float]) -> float:
    total = 0.0
    for r, y in zip(rows, labels, strict=True):
        z = sum(wi * xi for wi, xi in zip(w, [*r, 1.0], strict=True))
        p = min(1 - 1e-9, max(1e-9, 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def fit(target: str, games: int, seed0: int) -> None:
    rows, labels = fit_samples(target, games, seed0)
    cut = len(rows) * 4 // 5  # later games held out
    w = logistic(rows[:cut], labels[:cut])
    base = sum(labels[:cut]) / cut
    held = log_loss(rows[cut:], labels[cut:], w)
    flat = log_loss(rows[cut:], labels[cut:], [0.0] * len(rows[0]) + [math.log(base / (1 - base))])
    print(
        f"{len(rows)} samples from {games} steady games; held-out log-loss {held:.3f} (base rate {flat:.3f})"
    )
    print("weights:", tuple(round(x, 3) for x in logistic(rows, labels)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", action="append", choices=sorted(CONFIGS), help="run only these (repeatable)")
    p.add_argument("--games", type=int, default=100, help="games per configuration")
    p.add_argument("--budget", type=float, default=0.5, help="seconds per strong decision")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    p.add_argument("--resume", action="store_true", help="keep the games already played, play the rest")
    p.add_argument("--no-write", action="store_true", help="do not update bench/README.md")
    p.add_argument("--fit", choices=FITS, help="refit that leaf evaluation, then stop")
    p.add_argument(
        "--results", type=Path, default=RESULTS, help=f"where the game records go (default {RESULTS})"
    )
    args = p.parse_args(argv)
    results = args.results
    if args.fit:
        fit(args.fit, args.games, args.seed)
        return 0
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    results.mkdir(parents=True, exist_ok=True)
    for name in args.config or list(CONFIGS):
        config = CONFIGS[name]
        path = results / f"{name}.jsonl"
        done = {g["seed"] for g in load(name, results)} if args.resume else set()
        if not args.resume:
            path.write_text("")
        for i in range(args.games):
            seed = args.seed + i
            if seed in done:
                continue
            result = play_one(config, seed, args.budget, clock)
            with path.open("a") as f:
                f.write(json.dumps(result) + "\n")
            games = load(name, results)
            wins = sum(g["outcome"] in WINS[config.side] for g in games)
            line = f"{name} seed={seed} {result['outcome']} actions={result['actions']} {config.side} {wins}/{len(games)}"
            print(f"{line} ({result['elapsed']} s)", flush=True)
    if not args.no_write:
        write_readme(args.clock, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
