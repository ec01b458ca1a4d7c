"""The generic conformance check over Dorn: 200 seeded random games per run, each played to a
real outcome (a victory, or a surrender), and a smaller batch checked in full on every step.

Random play is steered (``backend/games/dorn/sim.py``: always a listed action, part of the picks
among the purposeful ones, surrender only as a deliberate choice), so games end in a victory or
a surrender within ≈ 20-60 Keeper turns: ≈ 1,200 actions a game.  Checking all of that in full
would take many CPU minutes, so:

* ``test_random_games_conform``: 200 whole games (heroes, hero seats and split drawn from the
  seed).  Every step gets the harness's cheap checks (listed actions validate, unlisted and
  malformed ones and other seats are refused, with a message); every ``FULL_EVERY``-th step also
  the full one (``apply`` leaves its input alone, every seat's and the spectator's view and the
  events survive JSON and carry no secret and no seed, and mutating everything the engine
  hands out reaches no state: ``check_copies``); each final state, the replay hash and the
  encoded state are checked too.
* ``test_whole_games_fully_checked``: whole games to each of the three victories, with the full
  check on every step.
"""

import json

import pytest

from backend.engine.core import IllegalAction
from backend.engine.playout import Playout, driver_rng, play_random
from backend.engine.registry import get_game
from backend.engine.rng import Rng, seed_from_int
from backend.games.dorn.catalog import TIE_BREAK
from tests import conformance

GAME = get_game("dorn")
SEEDS = range(1000, 1200)
CHUNKS = 10
FULL_EVERY = 40


def check_game(seed: int, options: dict, *, full_every: int) -> Playout:
    return conformance.check_game(GAME, seed, options, full_every=full_every)


def options_for(seed: int) -> dict:
    return GAME.sim_options(driver_rng(seed), None, {})


def real_outcome(record: Playout) -> tuple[str, str]:
    """The game ended in a victory or a surrender, not at the engine's round_limit."""
    outcome = record.outcome
    assert outcome.result in ("heroes_win", "keeper_wins"), outcome
    assert outcome.reason != "round_limit" and record.state["k"] < record.options["round_limit"]
    assert outcome.winners == ({"keeper"} if outcome.result == "keeper_wins" else set(record.state["seats"]))
    return outcome.result, outcome.reason


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_conform(chunk):
    size = len(SEEDS) // CHUNKS
    outcomes = [
        real_outcome(check_game(seed, options_for(seed), full_every=FULL_EVERY))
        for seed in SEEDS[chunk * size : (chunk + 1) * size]
    ]
    # Both sides win games in every batch of 20.
    assert {result for result, _ in outcomes} == {"heroes_win", "keeper_wins"}


CHAMBER_FULL = "The Ritual Chamber was full at the end of 3 Keeper turns in a row."


@pytest.mark.parametrize(
    ("seed", "result", "reason"),
    [
        (162, "heroes_win", "Zorkal's life reached 0."),
        (13, "keeper_wins", "Every hero is dead."),
        (90, "keeper_wins", CHAMBER_FULL),
    ],
)
def test_whole_games_fully_checked(seed, result, reason):
    """Short games to each victory among seeds 1-199 (the shortest to each once the hero
    abilities have effects), the full check on every step and every event."""
    options = GAME.sim_options(driver_rng(seed), None, {"allow_surrender": False})
    record = check_game(seed, options, full_every=1)
    assert real_outcome(record) == (result, reason)
    s = record.state
    if reason == CHAMBER_FULL:
        assert s["fill"] == 3 and any(h["alive"] for h in s["heroes"].values())
    elif result == "heroes_win":
        assert s["gate"] and s["zorkal"]["life"] == 0
    else:
        assert not any(h["alive"] for h in s["heroes"].values())


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


# The six variants of content 6 (rulings V4-V8), each once and all together: whole seeded games to
# a victory or a surrender, full checks every few steps, and each variant seen at work.
ALL_VARIANTS = {
    "random_group": True,
    "missing_artifact": True,
    "cave_in": True,
    "tactics_and_flight": True,
    "real_day_and_night": True,
    "four_heroes": True,
}
VARIANT_GAMES = [(301 + i, {key: True}) for i, key in enumerate(ALL_VARIANTS)] + [(361, ALL_VARIANTS)]


def _kinds(record: Playout) -> set[str]:
    """Every event kind of the game, from its log (the checks have already replayed it)."""
    transition = GAME.initial_transition(seed_from_int(record.seed), GAME.normalize_options(record.options))
    state, kinds = transition.state, {e.kind for e in transition.events}
    for seat, action in record.actions:
        transition = GAME.apply(state, seat, action)
        state = transition.state
        kinds |= {e.kind for e in transition.events}
    return kinds


@pytest.mark.parametrize(("seed", "variants"), VARIANT_GAMES, ids=[",".join(v) for _, v in VARIANT_GAMES])
def test_variant_games_conform(seed, variants):
    options = GAME.sim_options(driver_rng(seed), None, variants)
    record = check_game(seed, options, full_every=10)
    real_outcome(record)
    s, kinds = record.state, _kinds(record)
    types = {a["type"] for _, a in record.actions}
    if "random_group" in variants:  # drawn by the game's RNG first thing (content 6.1)
        count = 4 if "four_heroes" in variants else 5
        assert sorted(s["heroes"]) == sorted(Rng(seed_from_int(seed)).shuffled(TIE_BREAK)[:count])
    if "missing_artifact" in variants:
        assert "axe" not in s["artifacts"] and "artifact_missing" in kinds
    if "cave_in" in variants:
        assert [a["type"] for _, a in record.actions[:2]] == ["choose", "choose"]
        assert "obstacle_placed" in kinds
    if "tactics_and_flight" in variants:
        assert "figure_engaged" in kinds
    if "real_day_and_night" in variants:
        assert "time_up" in types
    if "four_heroes" in variants:
        assert len(s["heroes"]) == 4 and len(s["seats"]) <= 4
