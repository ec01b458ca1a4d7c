"""The simulator command prints the same line for the same seed."""

from __future__ import annotations

import contextlib
import io

from backend.__main__ import main


def run(*argv: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue().splitlines()


def test_simulate_lines_are_reproducible():
    args = ("simulate", "dorasure", "--games", "3", "--players", "4", "--seed", "5")
    first, second = run(*args), run(*args)
    games = [line for line in first if line.startswith("seed=")]
    assert len(games) == 3
    assert games == [line for line in second if line.startswith("seed=")]
    for i, line in enumerate(games):
        fields = dict(part.split("=", 1) for part in line.split())
        assert fields["seed"] == str(5 + i)
        assert fields["outcome"] in {"players_win", "players_lose"}
        assert int(fields["actions"]) > 0
        assert len(fields["hash"]) == 64
    assert first[-1].startswith("summary: games=3")


def test_simulate_accepts_hero_list_and_fang():
    lines = run(
        "simulate",
        "dorasure",
        "--games",
        "2",
        "--seed",
        "9",
        "--heroes",
        "ninja,minstrel,vampire",
        "--fang",
        "--players",
        "8",
        "--json",
    )
    import json

    records = [json.loads(line) for line in lines[:-1]]
    for rec in records:
        heroes = rec["options"]["heroes"]
        assert len(heroes) == 8 and {"ninja", "minstrel", "vampire"} <= set(heroes)
        assert rec["options"]["fang"] is True


def test_steered_play_reaches_the_battle_and_wins_sometimes():
    # sim.py: simulated heroes head for the quests, so most games reach the Climactic Battle
    # and some are won (uniform picks won about 1 game in 100). Every pick is a listed action.
    from backend.engine.playout import driver_rng, play_random
    from backend.games.dorasure.game import GAME

    outcomes, battles = [], 0
    for seed in range(40):
        record = play_random(GAME, seed, GAME.sim_options(driver_rng(seed), 4, {}))
        outcomes.append(record.outcome.result)
        battles += record.state.trigger is not None
    assert "players_win" in outcomes and battles >= 20
