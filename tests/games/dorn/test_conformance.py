"""The generic conformance check over Dorn: 200 seeded random games to a finished outcome.

Each game draws its heroes, the number of hero seats (1-5) and the split from its seed
(``sim_options``).  Random play never fills the chamber or reaches Zorkal in a few rounds,
so most games end at the engine's ``round_limit`` (content 5.12) — kept short here (3 to 8
Keeper turns) so the run stays near a minute; full-length games run in the simulator test.
Every fourth step gets the full view/leak/mutation check; every step gets the rest.
"""

import json

import pytest

from backend.engine.playout import driver_rng
from backend.engine.registry import get_game
from tests.conformance import check_game

GAME = get_game("dorn")
SEEDS = range(1000, 1200)


def options_for(seed: int) -> dict:
    rng = driver_rng(seed)
    return GAME.sim_options(rng, None, {"round_limit": 3 + seed % 6})


@pytest.mark.parametrize("chunk", range(10))
def test_random_games_conform(chunk):
    outcomes = []
    for seed in SEEDS[chunk * 20 : (chunk + 1) * 20]:
        record = check_game(GAME, seed, options_for(seed), full_every=4)
        assert record.outcome is not None
        outcomes.append(record.outcome.result)
    assert set(outcomes) <= {"abandoned", "heroes_win", "keeper_wins"}


def test_hero_seats_and_splits_vary():
    splits = {len(options_for(seed)["split"]) for seed in SEEDS}
    assert splits == {1, 2, 3, 4, 5}
    teams = {tuple(options_for(seed)["heroes"]) for seed in SEEDS}
    assert len(teams) > 50


def test_no_ritual_or_foreign_blessing_reaches_hero_seats_or_spectators():
    """Explicit leak check beside the harness: over whole games, no hero seat and no spectator
    ever receives the id or name of a Ritual card in the Keeper's hand, nor another seat's
    Blessing, in views or events."""
    from backend.engine.playout import play_random
    from backend.games.dorn.catalog import BLESSINGS, RITUALS

    seen_hand = 0
    for seed in (7, 8):
        opts = GAME.sim_options(driver_rng(seed), 4, {"round_limit": 4})

        def spy(state, seat, action, legal):
            nonlocal seen_hand
            hand = set(state["ritual_hand"])
            seen_hand += len(hand)
            transition = GAME.apply(state, seat, action)
            after = transition.state
            hand = set(after["ritual_hand"])
            for viewer in [*after["seats"], None]:
                payload = json.dumps(
                    [GAME.view(after, viewer)]
                    + [e.as_dict() for e in transition.events if e.visible_to(viewer)]
                )
                for card in hand:
                    assert f'"{card}"' not in payload and RITUALS[card]["name"] not in payload
                for other, card in after["blessings"].items():
                    if card is not None and other != viewer:
                        assert f'"{card}"' not in payload and BLESSINGS[card]["name"] not in payload
            keeper = json.dumps(GAME.view(after, "keeper"))
            assert all(f'"{c}"' in keeper for c in hand)

        play_random(GAME, seed, opts, on_step=spy)
    assert seen_hand > 0
