"""The four actions: Go Adventuring (§4.3), Rest (R15), Gather Information (R14); R13."""

from __future__ import annotations

import pytest

from .helpers import at_action

NEXT = (1, 1, 1, 1)  # the Ninja's movement roll when the turn passes to him


@pytest.mark.parametrize(
    ("dice", "total", "exp", "hp"),
    [((1, 2), -1, 0, 4), ((2, 3), 0, 0, 5), ((4, 2), 1, 1, 4), ((6, 2, 2), 2, 1, 5)],
)
def test_adventure_chart(monkeypatch, dice, total, exp, hp):
    # Werewolf in a forest: Forest Danger 2 dice, no resources.
    t = at_action(
        monkeypatch,
        {"werewolf": "f03", "ninja": "city"},
        "werewolf",
    )
    t.act("werewolf", {"type": "adventure"}, *dice, *NEXT)
    assert t.event("adventure_result")["total"] == total
    h = t.hero("werewolf")
    assert (h["exp"], h["hp"]) == (exp, hp)


def test_plains_use_plains_danger(monkeypatch):
    t = at_action(monkeypatch, {"gladiator": {"pos": "p05", "hp": 5}, "ninja": "city"}, "gladiator")
    t.act("gladiator", {"type": "adventure"}, 4, 4, *NEXT)  # Plains Danger 2 → total 2
    assert t.event("roll")["dice"] == {"gladiator": [[4], [4]]}
    assert t.hero("gladiator")["exp"] == 1


@pytest.mark.parametrize("where", ["city", "belk", "r01", "lake"])
def test_no_adventure_in_towns_roads_or_the_lake(monkeypatch, where):
    t = at_action(monkeypatch, {"werewolf": where, "ninja": "p05"}, "werewolf")
    assert {"type": "adventure"} not in t.legal("werewolf")


def test_resources_add_dice_before_the_roll(monkeypatch):
    t = at_action(monkeypatch, {"hunter": "p05", "ninja": "city"}, "hunter")
    t.act("hunter", {"type": "adventure"})
    assert t.prompt("hunter") == "spend"
    assert [a["amount"] for a in t.legal("hunter")] == [0, 1, 2, 3]
    t.act("hunter", {"type": "spend", "amount": 2}, 4, 4, 4, 4, *NEXT)  # 2 + 2 dice
    assert t.event("adventure_result")["total"] == 4 and t.hero("hunter")["res"] == 1


def test_rest_in_a_village_heals_two(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": {"pos": "millbrook", "hp": 2}, "ninja": "city"}, "werewolf")
    t.act("werewolf", {"type": "rest"}, *NEXT)
    assert t.hero("werewolf")["hp"] == 4
    assert t.s.current == "ninja"  # the action ended the turn


def test_rest_is_capped_and_legal_at_full_health(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": {"pos": "city", "hp": 4}, "ninja": "p05"}, "werewolf")
    t.act("werewolf", {"type": "rest"}, *NEXT)
    assert t.hero("werewolf")["hp"] == 5


@pytest.mark.parametrize("where", ["p05", "r01", "lake", "f03"])
def test_no_rest_outside_villages_and_the_city(monkeypatch, where):
    t = at_action(monkeypatch, {"werewolf": where, "ninja": "city"}, "werewolf")
    assert {"type": "rest"} not in t.legal("werewolf")


def test_gather_reveals_the_quest_and_ends_the_turn(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": "r01", "ninja": "city"}, "werewolf")
    assert {"type": "gather", "mountain": "m1"} in t.legal("werewolf")
    assert not any(a["type"] == "quest" for a in t.legal("werewolf"))
    t.act("werewolf", {"type": "gather", "mountain": "m1"}, *NEXT)
    assert t.s.mountains["m1"]["state"] == "revealed"
    assert "Mysterious Inscriptions" in t.event("gather")["text"]
    assert t.s.current == "ninja"


def test_one_action_at_most_and_ending_without_one(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": "millbrook", "ninja": "city"}, "werewolf")
    assert {"type": "end_turn"} in t.legal("werewolf")
    t.act("werewolf", {"type": "end_turn"}, *NEXT)
    assert t.s.current == "ninja" and t.prompt("ninja") == "move"
