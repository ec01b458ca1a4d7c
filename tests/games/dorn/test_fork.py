"""Forking a Dorn game (issue 14.5, backend/games/dorn/fork.py): every seat's view stays, the three
draw piles are shuffled again from the fork's seed, hands stay, and the dice from then on are the
fork's own (tests/forks.py)."""

from __future__ import annotations

from typing import Any

import pytest

from backend.engine.playout import driver_rng
from backend.engine.rng import seed_from_int
from backend.games.dorn.fork import DECKS
from backend.games.dorn.game import GAME
from backend.games.dorn.state import State
from tests.forks import check_forks


def hidden(s: State) -> dict[str, list[str]]:
    return {deck: list(s[deck]) for deck in DECKS}  # type: ignore[literal-required]


def public(encoded: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in encoded.items() if k not in ("rng", *DECKS)}


@pytest.mark.parametrize("seed", [3, 4])
def test_forks_keep_every_view_and_shuffle_the_decks(seed: int) -> None:
    options = GAME.sim_options(driver_rng(seed), None, {})
    report = check_forks(GAME, seed, options, hidden=hidden, public=public, every=97, follow=200)
    assert report.forks > 5
    assert report.redealt == report.forks  # the treasure deck holds 20-odd cards until late
    assert report.diverged > report.forks // 2, report


def test_hands_and_blessings_stay() -> None:
    state = GAME.initial_state(seed_from_int(8), GAME.normalize_options({}))
    fork = GAME.fork_state(state, seed_from_int(81))
    assert fork["ritual_hand"] == state["ritual_hand"] and fork["blessings"] == state["blessings"]
    assert {h: v["cards"] for h, v in fork["heroes"].items()} == {
        h: v["cards"] for h, v in state["heroes"].items()
    }
    assert fork["rng"][0] == seed_from_int(81).hex() != state["rng"][0]
    assert fork["treasure_deck"] != state["treasure_deck"]
