"""What the engine hands out is the caller's to keep: no list or dict of it is a part of the
state, of the creature-walk cache or of the catalogue (issue 9 defect 8).  The contract test
over whole games is ``check_copies`` in tests/conformance.py; these are its cases in Dorn."""

import json

from backend.engine.replay import state_hash
from backend.engine.rng import seed_from_int
from backend.games.dorn.catalog import RITUALS, TIE_BREAK, ZORKAL_STATS

from .position import GAME, position


def keeper_movement():
    """Two zombies and a rat in the Central Hall, the Keeper's movement step."""
    return position("z.z......", (6, 8), phase="K3")


def test_a_creatures_listed_moves_are_new_at_every_call():
    s = keeper_movement()
    listed = GAME.legal_actions(s, "keeper")
    kept = json.loads(json.dumps(listed))
    moves = [a for a in listed if a["type"] == "move"]
    assert moves
    for a in moves:
        a["to"].clear()
        a["figure"] = "zorkal"
    listed.clear()
    assert GAME.legal_actions(s, "keeper") == kept
    for a in kept:
        GAME.validate(s, "keeper", a)


def test_the_encoded_state_is_not_the_state():
    s = keeper_movement()
    before = state_hash(GAME, s)
    encoded = GAME.encode_state(s)
    encoded["monsters"].clear()
    encoded["heroes"][next(iter(encoded["heroes"]))]["cards"].append("potion")
    assert state_hash(GAME, s) == before and s["monsters"]


def test_a_decoded_state_keeps_nothing_of_its_data():
    data = json.loads(json.dumps(GAME.encode_state(keeper_movement())))
    s = GAME.decode_state(data)
    before = state_hash(GAME, s)
    for m in data["monsters"].values():
        m["mv"] = 0
    data["options"]["heroes"].clear()
    assert state_hash(GAME, s) == before


def test_a_view_is_not_the_state():
    s = keeper_movement()
    before = state_hash(GAME, s)
    v = GAME.view(s, "keeper")
    v["options"]["heroes"].clear()
    v["options"]["split"][0].append("zorkal")
    assert state_hash(GAME, s) == before


def test_the_initial_state_does_not_hold_the_callers_options():
    options = GAME.normalize_options({})
    s = GAME.initial_state(seed_from_int(5), options)
    before = state_hash(GAME, s)
    options["heroes"].clear()
    options["split"][0].clear()
    assert state_hash(GAME, s) == before


def test_static_info_is_not_the_catalogue():
    static = GAME.static_info(GAME.normalize_options({}))
    life = list(ZORKAL_STATS["life"])
    static["zorkal"]["life"].clear()
    static["tie_break"].clear()
    next(iter(static["rituals"].values())).clear()
    assert ZORKAL_STATS["life"] == life and len(TIE_BREAK) == 9 and all(RITUALS.values())


def test_setup_events_tell_the_deal_the_starting_monsters_and_the_first_keeper_turn():
    options = GAME.normalize_options({"split": [TIE_BREAK[:2], TIE_BREAK[2:5]]})
    setup = GAME.initial_transition(seed_from_int(5), options)
    s = setup.state
    assert state_hash(GAME, s) == state_hash(GAME, GAME.initial_state(seed_from_int(5), options))
    kinds = [e.kind for e in setup.events]
    assert kinds[0] == "setup" and kinds.count("monster_placed") == len(s["monsters"]) == 6
    assert "rituals_drawn" in kinds and kinds[-1] == "keeper_turn"
    assert all(e.to is None for e in setup.events)  # counts only: the cards dealt stay hidden
    assert setup.events[0].data["seats"] == s["seats"]
    setup.events[0].data["seats"]["heroes_1"].clear()
    assert s["seats"]["heroes_1"] == TIE_BREAK[:2]


def test_the_clone_copies_every_list_of_the_state():
    """``state.clone`` names the state's lists instead of looking for them at every apply: every
    list-typed key of ``State`` is named, once, and a clone shares none of them."""
    import typing

    from backend.games.dorn import state as dorn_state

    named = dorn_state._PLAIN_LISTS + dorn_state._DICT_LISTS
    # Compiled by mypyc (backend/native.py) a TypedDict's hints are bare classes (``list``), not
    # ``list[str]``: both are lists; ``list[...] | None`` is neither.
    hints = typing.get_type_hints(dorn_state.State)
    lists = {k for k, v in hints.items() if v is list or typing.get_origin(v) is list}
    assert sorted(named) == sorted(lists)
    s = keeper_movement()
    copy = dorn_state.clone(s)
    assert all(copy[k] is not s[k] and copy[k] == s[k] for k in named)


def test_check_keeps_its_own_copy_of_the_list():
    """``check`` finds a listed action in the copy ``legal`` kept (``actions.legal``): editing
    the list handed out makes no action listed."""
    import pytest

    from backend.engine.core import IllegalAction

    s = position("z.z......", (6, 8), phase="K1")
    listed = GAME.legal_actions(s, "keeper")
    done = next(a for a in listed if a["type"] == "done")
    done["type"] = "level_zorkal"  # K1 lists it only with the Blood Drops to pay
    with pytest.raises(IllegalAction):
        GAME.validate(s, "keeper", {"type": "level_zorkal"})
    GAME.validate(s, "keeper", {"type": "done"})
    assert {"type": "level_zorkal"} not in GAME.legal_actions(s, "keeper")
