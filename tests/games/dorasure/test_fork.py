"""Forking a Dorasure game (issue 14.5, backend/games/dorasure/fork.py): every seat's view stays,
the face-down tiles are dealt again from the fork's seed among the places no one saw, and the dice
from then on are the fork's own (tests/forks.py)."""

from __future__ import annotations

from typing import Any

import pytest

from backend.engine.playout import driver_rng
from backend.engine.rng import seed_from_int
from backend.games.dorasure.content import MOUNTAINS
from backend.games.dorasure.game import GAME
from backend.games.dorasure.rules.setup import setup
from backend.games.dorasure.state import State
from tests.forks import check_forks


def hidden(s: State) -> dict[str, list[str]]:
    """What a fork may deal again: face-down quests (hidden mountains and the reserve) and rewards."""
    quests = [s.mountains[m]["quest"] for m in MOUNTAINS if s.mountains[m]["state"] == "hidden"]
    rewards = [s.mountains[m]["reward"] for m in MOUNTAINS if s.mountains[m]["reward_state"] == "hidden"]
    return {"quests": [*quests, *s.reserve], "rewards": rewards}


def public(encoded: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in encoded.items() if k not in ("seed", "counter", "reserve")}
    out["mountains"] = {
        m: {
            **{k: v for k, v in mt.items() if k not in ("quest", "reward")},
            "quest": mt["quest"] if mt["state"] != "hidden" else None,
            "reward": mt["reward"] if mt["reward_state"] != "hidden" else None,
        }
        for m, mt in encoded["mountains"].items()
    }
    return out


@pytest.mark.parametrize(("players", "fang"), [(2, False), (3, True), (6, False), (1, False)])
def test_forks_keep_every_view_and_deal_the_hidden_tiles_again(players: int, fang: bool) -> None:
    totals = [0, 0, 0]
    for seed in range(40, 44):
        options = GAME.sim_options(driver_rng(seed), players, {"fang": fang})
        report = check_forks(GAME, seed, options, hidden=hidden, public=public, every=7)
        totals[0] += report.forks
        totals[1] += report.diverged
        totals[2] += report.redealt
    forks, diverged, redealt = totals
    assert forks > 20
    # Nearly every step rolls within a few actions (movement, adventures, the Dragon's chart).
    assert diverged > forks // 2, totals
    # Five to seven tiles lie face down early on: a new deal nearly always moves one of them.
    assert redealt > forks // 2, totals


def test_a_seen_tile_stays_where_everyone_saw_it() -> None:
    """A quest turned face up stays; only the tiles nobody saw change places; the reserve stays
    the same set of tiles (seen ones stay in it)."""
    state = setup(seed_from_int(5), GAME.normalize_options({"heroes": ["ninja", "hunter"]})).state
    first = MOUNTAINS[0]
    state.mountains[first] = {**state.mountains[first], "state": "revealed", "reward_state": "revealed"}
    state.public = (state.mountains[first]["quest"], state.mountains[first]["reward"])
    moved = 0
    for n in range(12):
        fork = GAME.fork_state(state, seed_from_int(900 + n))
        assert fork.mountains[first] == state.mountains[first]
        assert sorted(hidden(fork)["quests"]) == sorted(hidden(state)["quests"])
        moved += hidden(fork) != hidden(state)
    assert moved >= 10


def test_the_fork_rolls_from_its_own_seed() -> None:
    state = setup(seed_from_int(6), GAME.normalize_options({"heroes": ["ninja", "hunter"]})).state
    fork = GAME.fork_state(state, seed_from_int(77))
    assert fork.seed == seed_from_int(77).hex() and fork.seed != state.seed
    assert state.seed == seed_from_int(6).hex()  # the original is untouched
