"""A listed action is matched type for type (engine/core.py ``listed``): 1.0 or true is not a
listed 1. ``in`` alone let a float into a Dorasure state, and a later ``range`` failed after the
step was committed (found by the WebSocket fuzzer); and a Dorn move without ``to`` raised
KeyError instead of being refused."""

from __future__ import annotations

from typing import Any

import pytest

from backend.engine.core import IllegalAction, listed, same_types
from backend.engine.playout import driver_rng, play_random
from backend.engine.registry import get_game
from backend.engine.rng import seed_from_int


def test_listed_tells_the_types_apart() -> None:
    assert same_types({"a": [1, "x", {"b": True}]}, {"a": [1, "x", {"b": True}]})
    assert not same_types(1, 1.0) and not same_types(1, True) and not same_types(0, False)
    assert not same_types({"a": [1]}, {"a": [1.0]}) and not same_types({"a": {"b": 1}}, {"a": {"b": True}})
    legal = [{"type": "spend", "amount": 1}, {"type": "spend", "amount": 2}, {"type": "go", "to": [1, 2]}]
    assert listed({"type": "spend", "amount": 2}, legal) and listed({"type": "go", "to": [1, 2]}, legal)
    assert not listed({"type": "spend", "amount": 2.0}, legal)
    assert not listed({"type": "spend", "amount": True}, legal)
    assert not listed({"type": "go", "to": [1.0, 2]}, legal)
    assert not listed({"type": "spend", "amount": 3}, legal) and not listed({"type": "spend"}, legal)
    deep: list[object] = []
    inner = deep
    for _ in range(5000):  # the fuzzer's deep action: refused, not a RecursionError
        inner.append([])
        inner = inner[0]  # type: ignore[assignment]
    assert not listed({"type": "go", "to": deep}, legal)


def loosened(action: dict[str, Any]) -> list[dict[str, Any]]:
    """The action with one whole number written as a float, or as a bool where it is 0 or 1."""
    out = []
    for key, value in action.items():
        if type(value) is int:
            out.append({**action, key: float(value)})
            if value in (0, 1):
                out.append({**action, key: bool(value)})
        elif type(value) is list and value and all(type(v) is int for v in value):
            out.append({**action, key: [float(v) for v in value]})
    return out


@pytest.mark.parametrize("name", ["dorasure", "dorn"])
def test_a_listed_action_loosened_is_refused_and_the_exact_one_taken(name: str) -> None:
    game = get_game(name)
    tried = 0
    for i in range(3):
        record = play_random(game, 500 + i, game.sim_options(driver_rng(500 + i), None, {}))
        state = game.initial_state(seed_from_int(record.seed), record.options)
        for seat, action in record.actions[:150]:
            for loose in loosened(action):
                tried += 1
                with pytest.raises(IllegalAction):
                    game.validate(state, seat, loose)
            game.validate(state, seat, action)
            state = game.apply(state, seat, action).state
    assert tried > 50  # the games' actions do carry numbers to loosen


def test_a_dorn_move_without_its_cell_is_refused() -> None:
    game = get_game("dorn")
    record = play_random(game, 7, game.sim_options(driver_rng(7), None, {}))
    state = game.initial_state(seed_from_int(record.seed), record.options)
    for seat, action in record.actions:
        if action["type"] == "move":
            bare = {k: v for k, v in action.items() if k != "to"}
            with pytest.raises(IllegalAction):
                game.validate(state, seat, bare)
            return
        state = game.apply(state, seat, action).state
    raise AssertionError("no move in the game")
