"""Dorn's playbook (backend/bots/dorn_play.py): the Keeper's movement choices the strong level
searches, and the steady pick steered by the movement list's blocks, along seeded steady games
of the benchmark's table (the Keeper and one seat of five heroes)."""

from collections.abc import Iterator
from typing import Any

from backend.bots import dorn_play
from backend.engine.core import Action
from backend.engine.playout import driver_rng
from backend.engine.registry import get_game
from backend.engine.rng import Rng, seed_from_int
from backend.games.dorn import sim
from backend.games.dorn.rules.turns import KEEPER, MONSTER_MOVES
from backend.games.dorn.state import reader

DORN = get_game("dorn")
TABLE = {
    "heroes": ["almanor", "choros", "guelin", "ragnar", "riel"],
    "hero_seats": 1,
    "round_limit": 12,
    "phase_action_limit": 40,
    "take_back_limit": 1,
}


def keeper_moves(seed: int) -> Iterator[tuple[Any, list[Action]]]:
    """(state, legal) at every Keeper movement decision of a steady game."""
    opts = DORN.normalize_options(TABLE)
    state = DORN.initial_state(seed_from_int(seed), opts)
    pick, rng = driver_rng(seed), Rng(seed_from_int(seed + 1))
    while DORN.outcome(state) is None:
        acting = sorted(DORN.to_act(state))
        seat = acting[pick.below(len(acting))]
        legal = DORN.legal_actions(state, seat)
        if seat == KEEPER and state["phase"] == MONSTER_MOVES and state["prompt"] is None:
            yield state, legal
        state = DORN.apply(state, seat, dorn_play.steady(state, seat, legal, rng)).state


def playing(legal: list[Action]) -> list[Action]:
    return [a for a in legal if a["type"] not in dorn_play.CONCESSIONS] or legal


def test_the_steady_keeper_steers_by_blocks_with_the_same_moves():
    seen = 0
    for seed in (11, 12):
        for state, legal in keeper_moves(seed):
            kept = playing(legal)
            assert len(kept) < len(legal)  # the Keeper may surrender: the list has a tail to cut
            by_move = sim._keeper_moves_listed(state, kept)
            dorn_play._steer_by_blocks(state, KEEPER, kept)
            assert reader(state).memo["keeper_list"][0] is kept
            by_block = sim._keeper_moves(state, kept)
            assert [list(part) for part in by_block] == [list(part) for part in by_move]
            seen += 1
    assert seen > 50


def test_a_list_that_is_not_the_handed_one_cut_is_read_move_by_move():
    state, legal = next(keeper_moves(11))
    reordered = list(reversed(playing(legal)))
    dorn_play._steer_by_blocks(state, KEEPER, reordered)
    assert reader(state).memo["keeper_list"][0] is legal


def test_the_keeper_searches_purposeful_moves_and_ends_the_step_at_once_when_none_is_left():
    searched = alone = 0
    for seed in (11, 12):
        for state, legal in keeper_moves(seed):
            kept = playing(legal)
            options = dorn_play.options(state, KEEPER, kept)
            assert options and all(a in kept for a in options)
            assert {"type": "done"} in options
            purposeful, closer = sim._keeper_moves_listed(state, kept)
            moves = [a for a in options if a["type"] == "move"]
            assert moves == [*purposeful, *closer]
            if options == [{"type": "done"}]:
                alone += 1
                assert not purposeful and not closer
            else:
                searched += 1
    assert searched > 50


def test_other_steps_keep_their_whole_list():
    opts = DORN.normalize_options(TABLE)
    state = DORN.initial_state(seed_from_int(3), opts)
    pick, rng = driver_rng(3), Rng(seed_from_int(4))
    steps = 0
    while DORN.outcome(state) is None and steps < 400:
        acting = sorted(DORN.to_act(state))
        seat = acting[pick.below(len(acting))]
        legal = DORN.legal_actions(state, seat)
        if not (seat == KEEPER and state["phase"] == MONSTER_MOVES and state["prompt"] is None):
            assert dorn_play.options(state, seat, legal) is legal
        state = DORN.apply(state, seat, dorn_play.steady(state, seat, legal, rng)).state
        steps += 1
