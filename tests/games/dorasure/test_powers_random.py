"""Random play: every power is used somewhere, no listed action ever offers a power to
a seat that does not own it, no Treasure power is offered before the Treasure is
found (R39), and every prompt's default answer is legal.  Most games find the
Treasure before the first answer so that every power gets used."""

from __future__ import annotations

from collections import Counter

import pytest

from backend.engine.core import IllegalAction
from backend.engine.playout import driver_rng
from backend.engine.rng import seed_from_int
from backend.games.dorasure.content import MOUNTAINS
from backend.games.dorasure.game import GAME

from .helpers import PARTY

OWNER = {
    "faith": {"paladin"},
    "lullaby": {"minstrel"},
    "tune": {"minstrel"},
    "big_bang": {"magician"},
    "poison": {"hunter"},
    "reroll": {"ninja", "grand_master"},
    "doll": {"shaman"},
    "shield": {"paladin"},
    "kiss": {"vampire"},
    "extra_turn": {"werewolf"},
}
FLAG_OWNER = {"gust": {"samurai"}, "elixir": {"grand_master"}, "gold": {"prince"}}
TREASURE_TYPES = {"lullaby", "big_bang", "poison", "doll", "shield", "kiss", "extra_turn"}
TREASURE_FLAGS = {"gust", "elixir"}
POWER_EVENTS = {
    "faith",
    "lullaby",
    "heroic_tune",
    "big_bang",
    "poisoned_bullets",
    "reroll",
    "doll",
    "platinum_shield",
    "kiss_of_death",
    "gauntlets",
    "elixir",
    "mammoth_meat",
    "true_wealth",
    "blood_magic",
}


PROBES = [
    {"type": t, "mountain": m, **({"invite": []} if t == "quest" else {})}
    for m in MOUNTAINS
    for t in ("gather", "quest")
] + [{"type": "rest"}, {"type": "step", "to": "p05", "die": 6}, {"type": "kiss", "hero": "ninja"}]


def refusals_keep_secrets(state, seat: str, legal: list) -> None:
    """An IllegalAction message never names a face-down tile (issue 2 §4)."""
    secrets = GAME.secrets(state, seat)
    for a in PROBES:
        if a in legal:
            continue
        with pytest.raises(IllegalAction) as e:
            GAME.validate(state, seat, a)
        assert not any(x in e.value.message for x in secrets), (a, e.value.message)


def play(seed: int, options: dict, seen: Counter, relic: bool = True) -> None:
    state = GAME.initial_state(seed_from_int(seed), GAME.normalize_options(options))
    if relic:
        state.relic = True  # the Treasure is "found" before the first answer
    rng = driver_rng(seed)
    for step in range(5000):
        if GAME.outcome(state) is not None:
            return
        seats = sorted(GAME.to_act(state))
        seat = seats[rng.below(len(seats))]
        legal = GAME.legal_actions(state, seat)
        assert GAME.default_action(state, seat) in legal  # every prompt's default is a legal answer
        for a in legal:
            owners = OWNER.get(a["type"])
            assert owners is None or seat in owners, (seat, a)
            for flag, who in FLAG_OWNER.items():
                assert flag not in a or seat in who, (seat, a)
            if not state.relic:  # R39: no Treasure power before the Treasure is found
                assert a["type"] not in TREASURE_TYPES and not TREASURE_FLAGS & set(a), (seat, a)
                assert a["type"] != "reroll" or seat == "grand_master", (seat, a)
        if step % 5 == 0:
            refusals_keep_secrets(state, seat, legal)
        # Taking a step back is tested on its own (test_undo_step.py); picking it here would only
        # lengthen the walks and change which powers these seeds reach.
        picks = [a for a in legal if a["type"] != "undo_step"]
        tr = GAME.apply(state, seat, picks[rng.below(len(picks))])
        state = tr.state
        seen.update(e.kind for e in tr.events)
    raise AssertionError("game did not finish")


def test_every_power_is_used_and_only_by_its_owner():
    seen: Counter = Counter()
    for seed in range(150):
        play(seed, {"heroes": PARTY, "fang": seed % 2 == 0}, seen)
    for seed in range(150, 180):
        options = GAME.sim_options(driver_rng(seed), 1 if seed % 3 == 0 else None, {})
        play(seed, options, seen, relic=seed % 2 == 0)
    missing = POWER_EVENTS - set(seen)
    assert not missing, f"never used in random play: {sorted(missing)}"
