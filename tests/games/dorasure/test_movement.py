"""Movement (rulebook "Movement of Hero"; R3–R5, R61, R65)."""

from __future__ import annotations

import pytest

from backend.engine.core import IllegalAction
from backend.games.dorasure.game import GAME

from .helpers import Table


def steps(t: Table, seat: str) -> set[tuple[str, int]]:
    return {(a["to"], a["die"]) for a in t.legal(seat) if a["type"] == "step"}


def moves(t: Table, seat: str) -> set[str]:
    return {a["to"] for a in t.legal(seat) if a["type"] == "move"}


def test_movement_roll_is_mandatory_and_ones_are_void(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r02", "ninja": "city"}, current="hunter")
    t.start_turn(4, 5, 1)
    assert t.event("movement_roll")["text"] == "Hunter rolls 4 5 1 for movement; the 1 is void."
    assert t.s.move["dice"] == [4, 5]
    assert all(d != 1 for _, d in steps(t, "hunter"))
    assert t.prompt("hunter") == "move"


def test_thresholds_by_terrain(monkeypatch):
    # r02 borders f10 (forest), p08/p14 (plains), r01/r03 (roads), lake.
    t = Table(monkeypatch, {"hunter": "r02", "ninja": "city"}, current="hunter")
    t.start_turn(2, 3, 4)
    s = steps(t, "hunter")
    assert ("r01", 2) in s and ("lake", 2) in s and ("r03", 2) in s  # roads/lake: any usable die
    assert ("p08", 3) in s and ("p08", 2) not in s  # plains need 3+
    assert not any(to == "f10" for to, _ in s)  # forests need 5+
    with pytest.raises(IllegalAction) as e:
        GAME.validate(t.s, "hunter", {"type": "step", "to": "f10", "die": 4})
    assert e.value.code == "die_too_low" and "5 or more" in e.value.message


def test_forest_takes_a_five_or_a_six(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r02", "ninja": "city"}, current="hunter")
    t.start_turn(6, 5, 2)
    assert {d for to, d in steps(t, "hunter") if to == "f10"} == {5, 6}


def test_mountains_are_never_entered(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r01", "ninja": "city"}, current="hunter")
    t.start_turn(
        6,
        6,
        5,
    )
    assert not any(to.startswith("m") for to, _ in steps(t, "hunter"))
    with pytest.raises(IllegalAction) as e:
        GAME.validate(t.s, "hunter", {"type": "step", "to": "m1", "die": 6})
    assert e.value.code == "mountain"


def test_steps_spend_dice_one_by_one(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "belk"}, current="hunter")
    t.start_turn(2, 3, 5)
    t.act("hunter", {"type": "step", "to": "r03", "die": 2})
    assert t.hero("hunter")["pos"] == "r03" and sorted(t.s.move["dice"]) == [3, 5]
    assert t.event("step")["text"] == "Hunter moves to the road south-east of Western Lake with a 2."
    t.act("hunter", {"type": "step", "to": "p14", "die": 3})
    t.act("hunter", {"type": "end_move"})
    assert t.hero("hunter")["pos"] == "p14" and t.prompt("hunter") == "act"


def test_cannot_stop_on_another_hero_but_can_pass(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "r03"}, current="hunter")
    t.start_turn(2, 2, 1)
    assert "r03" not in moves(t, "hunter")  # cannot end on the Ninja's road
    assert "lake" in moves(t, "hunter") and "r02" in moves(t, "hunter")  # but can pass through it
    t.act("hunter", {"type": "step", "to": "r03", "die": 2})
    assert {"type": "end_move"} not in t.legal("hunter")
    with pytest.raises(IllegalAction) as e:
        GAME.validate(t.s, "hunter", {"type": "end_move"})
    assert e.value.code == "cannot_stop"


def test_a_step_that_would_strand_the_mover_is_refused(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "r03"}, current="hunter")
    t.start_turn(2, 1, 1)
    assert ("r03", 2) not in steps(t, "hunter")  # one die only: he would be stuck on the Ninja


def test_villages_and_the_city_can_be_shared(monkeypatch):
    t = Table(monkeypatch, {"hunter": "p16", "ninja": "millbrook", "vampire": "r04"}, current="hunter")
    t.start_turn(2, 1, 1)
    assert "millbrook" in moves(t, "hunter")
    assert "city" not in moves(t, "hunter")  # two steps away
    t2 = Table(monkeypatch, {"hunter": "r04", "ninja": "city"}, current="hunter")
    t2.start_turn(2, 1, 1)
    assert "city" in moves(t2, "hunter")


def test_the_city_is_one_node(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "p05"}, current="hunter")
    t.start_turn(2, 1, 1)
    assert {to for to, _ in steps(t, "hunter")} == {"r03", "r04"}


def test_zero_steps_stays_on_a_shared_space(monkeypatch):
    # R61: a forced return put the Shaman's ally on the lake; standing still is legal.
    t = Table(monkeypatch, {"hunter": "lake", "shaman": "lake"}, current="hunter")
    t.start_turn(1, 1, 1)
    assert t.legal("hunter") == [{"type": "end_move"}]
    t2 = Table(monkeypatch, {"hunter": "lake", "shaman": "lake"}, current="hunter")
    t2.start_turn(2, 2, 1)
    assert "lake" not in moves(t2, "hunter")  # coming back after moving is not standing still


def test_move_routes_canonically(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "belk"}, current="hunter")
    t.start_turn(5, 3, 2)
    assert "p16" in moves(t, "hunter")
    t.act("hunter", {"type": "move", "to": "p16"})
    # Fewest steps (city → r04 → p16), lowest qualifying dice: 2 for the road, 3 for the plains.
    assert [(e.data["to"], e.data["die"]) for e in t.events if e.kind == "step"] == [("r04", 2), ("p16", 3)]
    assert t.prompt("hunter") == "act"


def test_default_is_zero_steps(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "belk"}, current="hunter")
    t.start_turn(5, 3, 2)
    assert GAME.default_action(t.s, "hunter") == {"type": "end_move"}


def test_sixes_still_pay_for_steps(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r02", "ninja": "city"}, current="hunter")
    t.start_turn(6, 1, 1)
    assert t.s.meter == 1
    assert ("f10", 6) in steps(t, "hunter")


def test_default_moves_off_another_heros_road(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "r03"}, current="hunter")
    t.start_turn(2, 2, 1)
    t.act("hunter", {"type": "step", "to": "r03", "die": 2})
    default = GAME.default_action(t.s, "hunter")
    assert default["type"] == "move" and default in t.legal("hunter")


def test_a_refused_move_says_which_rule_forbids_it(monkeypatch):
    """A ``move`` nobody can make is refused for its real reason, with the step's own reasons."""
    t = Table(monkeypatch, {"hunter": "lake", "ninja": "r02"}, current="hunter")
    t.start_turn(2, 3, 4)
    assert t.prompt("hunter") == "move"

    def refused(action: dict) -> IllegalAction:
        with pytest.raises(IllegalAction) as e:
            GAME.validate(t.s, "hunter", action)
        return e.value

    assert refused({"type": "move", "to": "m1"}).code == "mountain"
    low = refused({"type": "move", "to": "f06"})  # a forest next to the lake: 5 or more
    assert low.code == "die_too_low" and low.message == (
        "Entering the forest south-west of Widowpeak needs a die of 5 or more; "
        "your dice left: 2, 3, 4 (rulebook thresholds)."
    )
    step = refused({"type": "step", "to": "f06", "die": 4})
    assert step.code == "die_too_low" and "this die is a 4" in step.message
    taken = refused({"type": "move", "to": "r02"})  # the Ninja's road
    assert taken.code == "cannot_stop" and "the road east of Western Lake" in taken.message
    far = refused({"type": "move", "to": "hollowmere"})
    assert far.code == "unreachable" and far.message.startswith("Hollowmere is out of reach")
    assert refused({"type": "move", "to": "lake"}).code == "already_there"
