"""The generic conformance check over Dorn: 200 seeded random games per run to a finished
outcome, and whole games to a real victory.

Random play is steered (``backend/games/dorn/sim.py``: always a listed action, half of the
picks among the purposeful ones), so complete games end in a victory within 30-60 Keeper turns;
that is ≈ 2,000 actions a game, too long for 200 fully checked games in a CI minute.  So:

* ``test_random_games_conform``: 200 games (heroes, hero seats and split drawn from the seed)
  cut at Keeper turn 1-3 by the engine's ``round_limit`` (content 5.12, outcome ``abandoned``),
  with the full view / event / leak / mutation check on every step.  One game in five allows
  surrender, which random play takes at once: a real outcome (RB "Either side may surrender").
* ``test_whole_games_reach_a_victory``: complete games, one won by the heroes (Zorkal killed)
  and one by the Keeper, every step checked and every tenth fully.
"""

import json

import pytest

from backend.engine.core import IllegalAction
from backend.engine.playout import driver_rng
from backend.engine.registry import get_game
from tests.conformance import check_game

GAME = get_game("dorn")
SEEDS = range(1000, 1200)


def options_for(seed: int) -> dict:
    rng = driver_rng(seed)
    return GAME.sim_options(rng, None, {"round_limit": 1 + seed % 3, "allow_surrender": seed % 5 == 0})


@pytest.mark.parametrize("chunk", range(10))
def test_random_games_conform(chunk):
    outcomes = []
    for seed in SEEDS[chunk * 20 : (chunk + 1) * 20]:
        record = check_game(GAME, seed, options_for(seed), full_every=1)
        assert record.outcome is not None
        outcomes.append((record.outcome.result, record.outcome.reason))
    assert {r for r, _ in outcomes} <= {"abandoned", "heroes_win", "keeper_wins"}
    assert all(reason in ("round_limit", "surrender") for _, reason in outcomes)
    assert any(reason == "surrender" for _, reason in outcomes)


@pytest.mark.parametrize(("seed", "result"), [(1, "heroes_win"), (3, "keeper_wins")])
def test_whole_games_reach_a_victory(seed, result):
    options = GAME.sim_options(driver_rng(seed), None, {"allow_surrender": False})
    record = check_game(GAME, seed, options, full_every=10)
    assert record.outcome.result == result
    assert record.outcome.reason != "surrender" and record.state["k"] < options["round_limit"]
    if result == "heroes_win":
        assert record.state["gate"] and record.state["zorkal"]["life"] == 0
    else:
        assert not any(h["alive"] for h in record.state["heroes"].values()) or record.state["fill"] == 3


def test_hero_seats_and_splits_vary():
    splits = {len(options_for(seed)["split"]) for seed in SEEDS}
    assert splits == {1, 2, 3, 4, 5}
    teams = {tuple(options_for(seed)["heroes"]) for seed in SEEDS}
    assert len(teams) > 50


def test_no_ritual_or_foreign_blessing_reaches_hero_seats_or_spectators():
    """Explicit leak check beside the harness: over whole games, no hero seat and no spectator
    ever receives the id or name of a Ritual card in the Keeper's hand, nor another seat's
    Blessing, nor the seed: not in views, events, its legal-action lists, nor the messages of
    the actions it is refused (the action just taken, tried from every other seat)."""
    from backend.engine.playout import play_random
    from backend.engine.rng import seed_from_int
    from backend.games.dorn.catalog import BLESSINGS, RITUALS

    seen_hand = 0
    refused = 0
    for seed in (7, 8):
        opts = GAME.sim_options(driver_rng(seed), 4, {"round_limit": 4})
        seed_hex = seed_from_int(seed).hex()

        def spy(state, seat, action, legal, seed_hex=seed_hex):
            nonlocal seen_hand, refused
            transition = GAME.apply(state, seat, action)
            after = transition.state
            hand = set(after["ritual_hand"])
            seen_hand += len(hand)
            for viewer in [*after["seats"], None]:
                messages = []
                for a in (action, *legal[:5]):
                    try:
                        GAME.validate(after if viewer is None else state, viewer or "spectator", a)
                    except IllegalAction as e:
                        messages.append(e.message)
                        refused += 1
                payload = json.dumps(
                    [GAME.view(after, viewer)]
                    + [e.as_dict() for e in transition.events if e.visible_to(viewer)]
                    + ([GAME.legal_actions(after, viewer)] if viewer is not None else [])
                    + messages
                )
                assert seed_hex not in payload
                for card in hand:
                    assert f'"{card}"' not in payload and RITUALS[card]["name"] not in payload
                for other, card in after["blessings"].items():
                    if card is not None and other != viewer:
                        assert f'"{card}"' not in payload and BLESSINGS[card]["name"] not in payload
            keeper = json.dumps(GAME.view(after, "keeper"))
            assert all(f'"{c}"' in keeper for c in hand)

        play_random(GAME, seed, opts, on_step=spy)
    assert seen_hand > 0 and refused > 0
