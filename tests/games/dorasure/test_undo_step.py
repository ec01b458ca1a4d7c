"""Taking back steps inside one movement (issue 13.5; rules/movement.py ``undo_step``)."""

from __future__ import annotations

import pytest

from backend.engine.core import IllegalAction
from backend.games.dorasure.game import GAME

from .helpers import Table

UNDO = {"type": "undo_step"}


def test_steps_are_taken_back_one_by_one(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r02", "ninja": "city"}, current="hunter")
    assert t.hero("hunter")["move"] == 3
    t.start_turn(2, 3, 4)
    assert UNDO not in t.legal("hunter")  # nothing to take back yet
    with pytest.raises(IllegalAction) as e:
        GAME.validate(t.s, "hunter", UNDO)
    assert e.value.code == "nothing_to_undo"
    t.act("hunter", {"type": "step", "to": "r01", "die": 2})
    t.act("hunter", {"type": "step", "to": "r02", "die": 3})
    path = list(t.s.move["path"])
    assert UNDO in t.legal("hunter") and len(GAME.view(t.s, "hunter")["movement"]["undo"]) == len(path)
    for _ in path:
        t.act("hunter", UNDO)  # no dice: Table fails if the rules roll any
        assert t.event("undo_step")["hero"] == "hunter"
    assert t.hero("hunter")["pos"] == "r02"
    assert sorted(t.s.move["dice"]) == [2, 3, 4] and t.s.move["steps"] == 0 and t.s.move["path"] == []
    assert UNDO not in t.legal("hunter") and t.prompt("hunter") == "move"


def test_a_step_that_gave_something_gives_it_back(monkeypatch):
    # Ninjutsu: the Ninja regains 1 Ki entering a forest; taking the step back takes it back.
    t = Table(monkeypatch, {"ninja": {"pos": "r02", "res": 0}, "hunter": "city"}, current="ninja")
    t.start_turn(5, *[2] * (t.hero("ninja")["move"] - 1))
    res = t.hero("ninja")["res"]
    t.act("ninja", {"type": "step", "to": "f10", "die": 5})
    assert t.hero("ninja")["res"] == res + 1
    t.act("ninja", UNDO)
    assert t.hero("ninja")["res"] == res and t.hero("ninja")["pos"] == "r02"
    assert 5 in t.s.move["dice"]


def test_no_undo_once_the_movement_ends_or_after_the_swamp(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r02", "ninja": "city"}, current="hunter")
    assert t.hero("hunter")["move"] == 3
    t.start_turn(2, 3, 4)
    t.act("hunter", {"type": "step", "to": "r01", "die": 2})
    t.act("hunter", {"type": "end_move"})
    assert UNDO not in t.legal("hunter")
    with pytest.raises(IllegalAction) as e:
        GAME.validate(t.s, "hunter", UNDO)
    assert e.value.code in ("nothing_to_undo", "not_now")


def test_the_poisonous_swamp_makes_the_steps_final(monkeypatch):
    """Entering the swamp deals damage (which can end in a revival roll): no step before it,
    nor itself, can be taken back."""
    t = Table(monkeypatch, {"hunter": {"pos": "r02", "res": 0}, "ninja": "city"}, current="hunter",
              lands={"p08": "poisonous_swamp"})  # fmt: skip
    t.start_turn(2, 6, 6)
    t.act("hunter", {"type": "step", "to": "r01", "die": 2})
    t.act("hunter", {"type": "step", "to": "r02", "die": 6})
    assert UNDO in t.legal("hunter")
    t.act("hunter", {"type": "step", "to": "p08", "die": 6})
    assert t.event("damage")["source"] == "Poisonous Swamp"
    assert t.s.move is None or not t.s.move.get("undo")
    assert UNDO not in t.legal("hunter")
