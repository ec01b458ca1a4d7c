"""A refused action is refused for the rule that really forbids it (issue 9 defect 7).

The labyrinth trap (R20) and Mirage City (§9.2, R57) force the action: every other action is
refused for the forcing rule, not for a rule that would not forbid it anyway ("you can rest only
in a village", said to a hero standing in a village).  An action with a field its type does not
have is malformed, whoever sends it.
"""

from __future__ import annotations

import pytest

from backend.engine.core import IllegalAction
from backend.engine.playout import driver_rng, play_random
from backend.games.dorasure.actions import ALL_TYPES, FIELDS
from backend.games.dorasure.game import GAME

from .helpers import Table, at_action

LABYRINTH = {"m4": "underground_labyrinth/treasure:revealed"}


def refusal(t: Table, seat: str, action: dict) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        GAME.validate(t.s, seat, action)
    return e.value


def trapped_at_action(monkeypatch, hero: str, where: str) -> Table:
    """``hero`` trapped in the labyrinth of Howling Tor (m4), on ``where``, at his action step:
    a trapped hero rolls movement but does not move (R20), so his first prompt is the action."""
    t = Table(
        monkeypatch,
        {"ninja": "city", hero: {"pos": where, "trapped": "m4"}},
        current=hero,
        mountains=LABYRINTH,
    )
    t.start_turn(*[1] * t.hero(hero)["move"])
    assert t.prompt(hero) == "act"
    return t


def test_a_trapped_hero_on_a_forest_is_refused_an_adventure_for_the_trap(monkeypatch):
    # f12 is a forest beside Howling Tor: an adventure there is otherwise legal (§4.3).
    t = trapped_at_action(monkeypatch, "werewolf", "f12")
    e = refusal(t, "werewolf", {"type": "adventure"})
    assert e.code == "trapped", e.message
    assert "Howling Tor" in e.message and "R20" in e.message


def test_a_werewolf_trapped_in_hollowmere_is_refused_a_rest_for_the_trap(monkeypatch):
    # Hollowmere is a village: resting there is otherwise legal (R15).
    t = trapped_at_action(monkeypatch, "werewolf", "hollowmere")
    e = refusal(t, "werewolf", {"type": "rest"})
    assert e.code == "trapped", e.message
    assert "village" not in e.message
    # At the labyrinth itself, the quest is refused for what is wrong with it.
    e = refusal(t, "werewolf", {"type": "quest", "mountain": "m4", "invite": ["ninja"]})
    assert e.code == "not_beside_quest"


@pytest.mark.parametrize(
    "action",
    [
        {"type": "end_turn"},
        {"type": "gather", "mountain": "m3"},
        {"type": "quest", "mountain": "m3", "invite": []},
        {"type": "step", "to": "p15", "die": 4},
        {"type": "end_move"},
    ],
)
def test_every_other_action_of_a_trapped_hero_is_refused_for_the_trap(monkeypatch, action):
    t = trapped_at_action(monkeypatch, "werewolf", "p12")  # p12 is beside The Anvil (m3) too
    t.s.mountains["m3"]["state"] = "revealed"
    assert refusal(t, "werewolf", action).code == "trapped"


def test_the_trapped_heros_prompt_names_the_trap(monkeypatch):
    t = trapped_at_action(monkeypatch, "werewolf", "hollowmere")
    (prompt,) = GAME.view(t.s, "werewolf")["prompts"]
    assert "trapped" in prompt["text"] and "Howling Tor" in prompt["text"]


@pytest.mark.parametrize(
    "action", [{"type": "rest"}, {"type": "end_turn"}, {"type": "gather", "mountain": "m4"}]
)
def test_mirage_city_refuses_every_action_but_the_adventure_for_the_mirage(monkeypatch, action):
    # p12 (Mirage City here) is beside Howling Tor, whose quest is still face down.
    t = at_action(
        monkeypatch, {"ninja": "city", "gladiator": "p12"}, "gladiator", lands={"p12": "mirage_city"}
    )
    assert t.legal("gladiator") == [{"type": "adventure"}]
    e = refusal(t, "gladiator", action)
    assert e.code == "mirage_city", e.message
    assert "Mirage City" in e.message


def test_a_trap_outranks_the_mirage(monkeypatch):
    t = Table(
        monkeypatch,
        {"ninja": "city", "gladiator": {"pos": "p12", "trapped": "m4"}},
        current="gladiator",
        mountains=LABYRINTH,
        lands={"p12": "mirage_city"},
    )
    t.start_turn(1, 1, 1)
    assert refusal(t, "gladiator", {"type": "adventure"}).code == "trapped"


def test_an_end_turn_with_an_unknown_field_is_malformed_not_forced(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": "millbrook", "ninja": "city"}, "werewolf")
    assert {"type": "end_turn"} in t.legal("werewolf")
    e = refusal(t, "werewolf", {"type": "end_turn", "now": True})
    assert e.code == "unknown_field", e.message
    assert "'now'" in e.message


def test_a_missing_field_is_malformed(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": "r01", "ninja": "city"}, "werewolf")
    assert {"type": "gather", "mountain": "m1"} in t.legal("werewolf")
    e = refusal(t, "werewolf", {"type": "gather"})
    assert e.code == "missing_field" and "'mountain'" in e.message


def test_a_malformed_action_is_malformed_from_a_seat_that_owes_nothing(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": "millbrook", "ninja": "city"}, "werewolf")
    assert t.to_act() == {"werewolf"}
    assert refusal(t, "ninja", {"type": "end_turn", "now": True}).code == "unknown_field"
    assert refusal(t, "ninja", {"type": "end_turn"}).code == "not_your_turn"


def test_the_fields_table_fits_every_listed_action():
    """``FIELDS`` (what a refusal checks first) agrees with what random play lists."""
    assert set(FIELDS) == ALL_TYPES
    for seed in range(1, 9):
        options = GAME.sim_options(driver_rng(seed), None, {"fang": seed % 2 == 0})

        def fits(state, seat, action, legal):
            for a in legal:
                required, optional = FIELDS[a["type"]]
                assert required <= a.keys() - {"type"} <= required | optional, a

        play_random(GAME, seed, options, on_step=fits)
