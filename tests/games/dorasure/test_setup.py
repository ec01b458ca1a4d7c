"""Setup (rulebook Setup; content §8.2) and table options (§8.1)."""

from __future__ import annotations

import pytest

from backend.engine.core import InvalidOptions
from backend.engine.replay import state_hash
from backend.engine.rng import Rng, seed_from_int
from backend.games.dorasure.content import MOUNTAINS, QUESTS, REWARD_POOL
from backend.games.dorasure.game import GAME

from .helpers import PARTY


def test_setup_places_tiles_heroes_and_meter():
    s = GAME.initial_state(seed_from_int(3), {"heroes": ["vampire", "shaman", "ninja"]})
    assert s.order == ("ninja", "shaman", "vampire")  # priority list (R31)
    assert sorted(s.mountains[m]["reward"] for m in MOUNTAINS) == sorted(REWARD_POOL)
    on_board = [s.mountains[m]["quest"] for m in MOUNTAINS]
    assert len(set(on_board)) == 5 and all(s.mountains[m]["state"] == "hidden" for m in MOUNTAINS)
    assert sorted(on_board + s.reserve) == sorted(QUESTS)  # the 2 unused quests are kept
    assert s.meter == 0 and s.swords == 0 and not s.razed and not s.relic and not s.weapons
    assert s.heroes["shaman"]["pos"] == "lake"
    assert s.heroes["ninja"]["pos"] == s.heroes["vampire"]["pos"] == "city"
    assert s.current == "ninja" and s.turn == 1  # top priority starts, movement already rolled
    assert s.heroes["vampire"]["res"] == 3 and s.heroes["ninja"]["hp"] == 4


NINE = ["gladiator", "samurai", "hunter", "werewolf", "shaman", "minstrel", "magician", "prince", "paladin"]


def test_setup_events_tell_the_first_roll_and_the_damage_it_does():
    # Nine heroes: the Gladiator opens; his movement roll shows two 6s, and each Special Chance
    # (R58) rolls a 6 that hurts him: he starts at 4/6, and the setup events say why.
    setup = GAME.initial_transition(seed_from_int(958), {"heroes": NINE})
    s = setup.state
    assert state_hash(GAME, s) == state_hash(GAME, GAME.initial_state(seed_from_int(958), {"heroes": NINE}))
    assert [e.kind for e in setup.events][:3] == ["setup", "turn", "movement_roll"]
    roll = setup.events[2].data
    assert roll["hero"] == "gladiator" and roll["dice"] == s.last["movement"]["dice"] == s.move["rolled"]
    hurts = [e.data for e in setup.events if e.kind == "damage"]
    assert [e.kind for e in setup.events].count("special_chance") == roll["sixes"] == 2
    assert sum(d["damage"]["gladiator"] for d in hurts) == 2 and hurts[-1]["health"] == {"gladiator": 4}
    assert s.heroes["gladiator"]["hp"] == 4 and s.heroes["gladiator"]["max_hp"] == 6


def test_setup_events_show_the_land_tiles():
    setup = GAME.initial_transition(seed_from_int(4), {"heroes": ["ninja", "hunter"], "fang": True})
    assert setup.events[0].data["lands"] == setup.state.lands
    plain = GAME.initial_transition(seed_from_int(4), {"heroes": ["ninja", "hunter"]})
    assert "lands" not in plain.events[0].data


def test_setup_varies_with_the_seed():
    layouts = {
        tuple(
            GAME.initial_state(seed_from_int(i), {"heroes": ["ninja", "hunter"]}).mountains[m]["quest"]
            for m in MOUNTAINS
        )
        for i in range(8)
    }
    assert len(layouts) > 4


def test_fang_places_five_face_up_land_tiles():
    s = GAME.initial_state(seed_from_int(4), {"heroes": ["ninja", "hunter"], "fang": True})
    assert sorted(s.lands) == sorted(["p02", "p08", "f07", "p13", "f11"])
    assert len(set(s.lands.values())) == 5
    assert GAME.view(s, None)["lands"] == s.lands


@pytest.mark.parametrize(
    ("heroes", "code"),
    [
        ([], "player_count"),
        (["ninja"], "lone_hero"),
        (["ninja", "ninja"], "duplicate_hero"),
        (["grand_master", "ninja"], "grand_master_alone"),
        (["ninja", "dragon"], "unknown_hero"),
        ([*PARTY, "grand_master"], "player_count"),
    ],
)
def test_bad_hero_lists_are_refused(heroes, code):
    with pytest.raises(InvalidOptions) as e:
        GAME.normalize_options({"heroes": heroes})
    assert e.value.code == code and e.value.message


def test_options_accept_1_to_11_heroes():
    assert GAME.normalize_options({"heroes": ["grand_master"]}) == {"heroes": ["grand_master"], "fang": False}
    eleven = [PARTY[-1], *PARTY[:-1]]  # any order: seats follow priority
    assert GAME.normalize_options({"heroes": eleven, "fang": True})["heroes"][0] == "ninja"
    assert [s.seat for s in GAME.seats(GAME.normalize_options({"heroes": ["paladin", "ninja"]}))] == [
        "ninja",
        "paladin",
    ]
    with pytest.raises(InvalidOptions):
        GAME.normalize_options({"heroes": ["ninja", "hunter"], "colour": "red"})


def test_sim_options_vary_and_respect_overrides():
    picks = {tuple(GAME.sim_options(Rng(seed_from_int(i)), None, {})["heroes"]) for i in range(30)}
    assert len(picks) > 10
    assert GAME.sim_options(Rng(seed_from_int(1)), 1, {})["heroes"] == ["grand_master"]
    o = GAME.sim_options(Rng(seed_from_int(1)), 8, {"heroes": ["ninja", "minstrel"], "fang": True})
    assert len(o["heroes"]) == 8 and {"ninja", "minstrel"} <= set(o["heroes"]) and o["fang"]
    GAME.normalize_options(o)
