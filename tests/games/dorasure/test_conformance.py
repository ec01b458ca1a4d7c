"""The generic conformance check (tests/conformance.py) over seeded random Dorasure games.

Every game is played to a finished outcome; hero counts and choices vary with the
seed (1–5 heroes, the solo Grand Master, 6–11 heroes), half the games use Fang.
"""

from __future__ import annotations

import pytest

from backend.engine.playout import driver_rng
from backend.games.dorasure.game import GAME
from tests.conformance import check_game

from .helpers import PARTY

# (players, number of seeds, full_every): most steps are fully checked; the large
# tables check views every other step to keep the run short.
PLAN = [(None, 170, 1), (1, 30, 1), (2, 30, 1), (5, 30, 1), (7, 25, 2), (11, 15, 3)]
# Every third full step also mutates everything the engine hands out (``check_copies``: as
# costly as the other checks together); ``test_nothing_handed_out_is_the_engines`` does it at
# every step.
COPIES_EVERY = 3


@pytest.mark.parametrize(("players", "count", "full_every"), PLAN)
def test_random_games_conform(players, count, full_every):
    results = set()
    for seed in range(1000, 1000 + count):
        options = GAME.sim_options(driver_rng(seed), players, {"fang": seed % 2 == 0})
        record = check_game(GAME, seed, options, full_every=full_every, copies_every=COPIES_EVERY)
        assert record.outcome is not None
        results.add(record.outcome.result)
    assert results <= {"players_win", "players_lose"}


@pytest.mark.parametrize(("players", "fang"), [(1, False), (2, True), (4, False), (6, True), (11, False)])
def test_nothing_handed_out_is_the_engines(players, fang):
    """Issue 9 defect 8: at every step of whole games, from the solo Grand Master to 11 heroes,
    with and without Fang, nothing returned shares a list or dict with a state or a memo."""
    for seed in (2000, 2001):
        options = GAME.sim_options(driver_rng(seed), players, {"fang": fang})
        assert check_game(GAME, seed, options, full_every=1, copies_every=1).outcome is not None


def test_the_plan_covers_every_hero_solo_large_tables_and_fang():
    heroes, sizes, fang = set(), set(), set()
    for players, count, _ in PLAN:
        for seed in range(1000, 1000 + count):
            options = GAME.sim_options(driver_rng(seed), players, {"fang": seed % 2 == 0})
            heroes |= set(options["heroes"])
            sizes.add(len(options["heroes"]))
            fang.add(options["fang"])
    assert heroes == {*PARTY, "grand_master"}
    assert {1, 2, 3, 4, 5, 7, 11} <= sizes and fang == {True, False}
    assert sum(count for _, count, _ in PLAN) >= 300
