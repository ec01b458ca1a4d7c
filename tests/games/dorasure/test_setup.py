"""Setup (rulebook Setup; content §8.2) and table options (§8.1)."""

from __future__ import annotations

import pytest

from backend.engine.core import InvalidOptions
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
