"""The Dragon Rampaging Meter (R27–R29), the Roaming Dragon Chart (§2.2) and Belk (R42)."""

from __future__ import annotations

import json

from backend.games.dorasure.game import GAME

from .helpers import Table

NO_RES = {"res": 0}


def test_each_six_moves_the_meter_once(monkeypatch):
    t = Table(monkeypatch, {"hunter": "city", "ninja": "belk"}, current="hunter", meter=0)
    t.start_turn(6, 6, 2)
    assert t.s.meter == 2
    assert [e.data["meter"] for e in t.events if e.kind == "meter"] == [1, 2]


def test_two_sixes_from_space_two_make_exactly_one_rampage(monkeypatch):
    t = Table(
        monkeypatch,
        {"hunter": {"pos": "city", "res": 0}, "ninja": {"pos": "p05", "res": 0}},
        current="hunter",
        meter=2,
    )
    # 6 6 2 movement; rampage die 3 = scorch_all (everyone 1 damage, no resources to absorb); revival not needed.
    t.start_turn(6, 6, 2, 3)
    assert t.s.meter == 4
    assert t.kinds().count("rampage") == 1
    assert t.hero("hunter")["hp"] == 3 and t.hero("ninja")["hp"] == 3


def test_rampage_resolves_before_the_next_six(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "city", "res": 0}, "hunter": {"pos": "p05", "res": 0}}, meter=2)
    t.start_turn(6, 6, 6, 6, 3, 3)  # Ninja's 4 movement dice: fire at 3 and again at 6
    kinds = [k for k in t.kinds() if k in ("meter", "rampage", "damage")]
    assert kinds == ["meter", "rampage", "damage", "meter", "meter", "meter", "rampage", "damage"]
    assert t.s.meter == 6 and t.hero("ninja")["hp"] == 2


def test_final_space_rampages_twice_then_the_battle_begins(monkeypatch):
    t = Table(
        monkeypatch,
        {"ninja": {"pos": "p05", "res": 1}, "hunter": {"pos": "city", "res": 0}},
        current="hunter",
        meter=13,
    )
    # Movement 6 6 2: the first 6 reaches 14 → Roaming roll 1 of 2 (3: scorch).
    t.start_turn(6, 6, 2, 3)
    assert t.s.meter == 14 and t.prompt("ninja") == "absorb" and t.s.phase == 1
    t.act("ninja", {"type": "absorb", "amount": 0}, 3)  # roll 2 of 2: scorch again
    assert t.prompt("ninja") == "absorb"
    # The second 6 is ignored; the phase ends; the Hunter (trigger) attacks first: 6→4 6→4 = 4.
    t.act("ninja", {"type": "absorb", "amount": 0}, 6, 4, 6, 4)
    assert "rampage" not in t.kinds() and t.s.phase == 2 and t.s.trigger == "hunter"
    assert t.hero("hunter")["hp"] == 2 and t.hero("ninja")["hp"] == 2
    assert t.event("battle_result")["result"] == "from_behind" and t.s.swords == 1
    assert t.s.current == "ninja" and t.prompt("ninja") == "spend"


def test_belk_in_flames_razes_belk_and_burns_heroes_on_it(monkeypatch):
    t = Table(
        monkeypatch,
        {"hunter": {"pos": "belk", "res": 0}, "ninja": {"pos": "belk", "res": 0}, "vampire": "city"},
    )
    t.run_op(("rampage", 0), 1)
    assert t.s.razed
    assert t.hero("hunter")["hp"] == 2 and t.hero("ninja")["hp"] == 2 and t.hero("vampire")["hp"] == 4
    # A repeat burns again (both fall; the revival roll 1 6 2 saves them) and does nothing else.
    t.run_op(("rampage", 0), 1, 1, 6, 2)
    assert t.hero("hunter")["pos"] == "city" and t.hero("hunter")["hp"] == 4 and t.s.razed


def test_razed_belk_is_a_road(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r01", "ninja": {"pos": "belk"}}, current="hunter", razed=True)
    t.start_turn(2, 1, 1)
    assert not any(a["type"] == "move" and a["to"] == "belk" for a in t.legal("hunter"))  # no sharing
    t2 = Table(monkeypatch, {"hunter": "belk", "ninja": "city"}, current="hunter", razed=True)
    t2.start_turn(1, 1, 1)
    t2.act("hunter", {"type": "end_move"})
    assert {"type": "rest"} not in t2.legal("hunter")
    t3 = Table(monkeypatch, {"hunter": "belk", "ninja": "city"}, current="hunter")
    t3.start_turn(1, 1, 1)
    t3.act("hunter", {"type": "end_move"})
    assert {"type": "rest"} in t3.legal("hunter")


def test_driven_back_sends_the_highest_home(monkeypatch):
    t = Table(
        monkeypatch,
        {"ninja": "p05", "hunter": "p09", "shaman": {"pos": "p11"}, "vampire": "f03"},
    )
    t.s.heroes["hunter"]["trapped"] = "m2"
    # Roaming 2; comparison in seat order ninja, hunter, shaman, vampire.
    t.run_op(("rampage", 0), 2, 3, 6, 6, 2)
    assert t.hero("hunter")["pos"] == "city" and t.hero("hunter")["trapped"] is None
    assert t.hero("shaman")["pos"] == "lake"
    assert t.hero("ninja")["pos"] == "p05" and t.hero("vampire")["pos"] == "f03"


def test_scorch_hits_everyone(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "p05", "res": 0}, "gladiator": "p09"})
    t.run_op(("rampage", 0), 3)
    assert t.hero("ninja")["hp"] == 3 and t.hero("gladiator")["hp"] == 5


def test_claws_hit_the_lowest_and_the_highest_with_ties(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "p05", "res": 0}, "gladiator": "p09", "werewolf": "p11"})
    t.run_op(("rampage", 0), 4, 2, 2, 5)  # lowest: ninja and gladiator tied
    assert [t.hero(h)["hp"] for h in ("ninja", "gladiator", "werewolf")] == [2, 4, 5]
    t.run_op(("rampage", 0), 5, 1, 4, 4)  # highest: gladiator and werewolf tied
    assert [t.hero(h)["hp"] for h in ("ninja", "gladiator", "werewolf")] == [2, 2, 3]


def test_plunder_empties_resources_but_not_gold(monkeypatch):
    t = Table(monkeypatch, {"hunter": "p05", "prince": {"pos": "p09", "res": 2, "gold": 1}, "vampire": "p11"})
    t.run_op(("rampage", 0), 6, 3, 1, 1)
    assert t.hero("hunter")["res"] == 3
    assert t.hero("prince")["res"] == 0 and t.hero("prince")["gold"] == 1
    assert t.hero("vampire")["res"] == 0


def test_a_lone_hero_is_both_highest_and_lowest(monkeypatch):
    t = Table(monkeypatch, {"grand_master": {"pos": "p05", "res": 0}})
    t.run_op(("rampage", 0), 4, 3)
    assert t.hero("grand_master")["hp"] == 5


SOLVED = {
    "m1": "mysterious_inscriptions/treasure:solved",
    "m2": "golem_guardian/book_of_dragons:solved",
    "m3": "teleportation_trap/anti_dragon_weapons:solved",
    "m5": "evil_chimera/dragons_lair:solved",
}


def test_a_roaming_result_without_damage_still_runs_the_checkpoint(monkeypatch):
    # §2.2 / R24 / R28: the Vampire solves the last quest but Blood Magic leaves her at 0 Health;
    # the first Lair pushes the meter to 14. The first final Rampage (driven back) deals no damage,
    # yet its checkpoint gives her the revival roll before the second roll and the battle.
    t = Table(
        monkeypatch,
        {"magician": {"pos": "city", "res": 0}, "vampire": {"pos": "p15", "res": 0, "hp": 1}},
        current="vampire",
        meter=13,
        mountains={"m4": "horde_of_goblins/dragons_lair:revealed:2", **SOLVED},
    )
    t.start_turn(1, 1, 1)
    t.act("vampire", {"type": "end_move"})
    t.act(
        "vampire",
        {"type": "quest", "mountain": "m4", "invite": []},
        *(6, 6, 1),  # Thirst: Combat 3 - 2 = 1 die, 6→6→1 = +1; 2 flags + 1 = 3: solved; the 1 costs Health
        *(2, 5, 3),  # final Rampage 1 of 2: driven back (Magician 5, Vampire 3)
        *(6, 2),  # her revival roll
        *(6, 1, 2),  # final Rampage 2 of 2: plunder (Magician 1, Vampire 2)
        *(4, 4, 2, 3),  # battle: the Vampire (trigger) rolls 2 dice = 2, Team Combo 2 + 0 + 0: 1 damage each
    )
    kinds = [k for k in t.kinds() if k in ("rampage", "revival", "phase")]
    assert kinds == ["rampage", "revival", "rampage", "phase"]
    v = t.hero("vampire")
    assert not v["dead"] and v["hp"] == v["max_hp"] - 1 and t.s.phase == 2
    assert t.s.current == "magician" and t.prompt("magician") == "spend"


def test_relocated_by_his_own_six_moves_on_from_home_with_the_same_dice(monkeypatch):
    # R26 (+ R20): the trapped Werewolf's own 6 starts a Rampage that drives him back to the City;
    # the trap is cleared and he moves from the City with the dice he rolled, the 6 included.
    t = Table(
        monkeypatch,
        {"ninja": {"pos": "p05", "res": 0}, "werewolf": {"pos": "p15", "trapped": "m4"}},
        current="werewolf",
        meter=2,
        mountains={"m4": "underground_labyrinth/treasure:revealed"},
    )
    t.start_turn(6, 3, 2, 2, 1, 5)  # movement 6 3 2; Rampage 2 (driven back): Ninja 1, Werewolf 5
    w = t.hero("werewolf")
    assert w["pos"] == "city" and w["trapped"] is None and t.s.meter == 3
    assert t.prompt("werewolf") == "move" and sorted(t.s.move["dice"]) == [2, 3, 6]
    assert {("r03", 2), ("r03", 3), ("r03", 6), ("r04", 6)} <= {
        (a["to"], a["die"]) for a in t.legal("werewolf") if a["type"] == "step"
    }
    t.act("werewolf", {"type": "move", "to": "p16"})  # city → r04 (2) → p16 (3)
    assert t.hero("werewolf")["pos"] == "p16"
    assert {"type": "end_turn"} in t.legal("werewolf")  # no labyrinth duty any more


def test_the_final_rampage_cancels_the_rest_of_the_turn_and_removes_unsolved_quests(monkeypatch):
    # R28 + R30 + R64: the meter reaches 14 on a movement 6; two Roaming rolls, then the battle.
    # The hidden quest (with the Treasure under it) and the two revealed ones are removed, their
    # rewards lost unseen: no Mammoth Meat, no Anti-Dragon Weapons; the labyrinth trap is cleared.
    t = Table(
        monkeypatch,
        {
            "gladiator": {"pos": "p05", "hp": 2},
            "hunter": {"pos": "p09", "res": 3},
            "werewolf": {"pos": "p15", "trapped": "m4"},
        },
        current="gladiator",
        meter=13,
        mountains={
            "m1": "mysterious_inscriptions/dragons_lair:solved",
            "m2": "golem_guardian/treasure",
            "m3": "teleportation_trap/anti_dragon_weapons:revealed:1",
            "m4": "underground_labyrinth/book_of_dragons:revealed",
            "m5": "horde_of_goblins/dragons_lair:solved",
        },
    )
    t.start_turn(
        *(6, 1, 1),  # movement: the 6 fills the meter
        *(6, 1, 5, 3),  # final Rampage 1: plunder, the Gladiator is lowest
        *(6, 2, 6, 4),  # final Rampage 2: plunder again
        *(6, 4, 4, 4),  # the Gladiator attacks first with Combat 3 (no Weapons die): 4, from behind
    )
    assert t.s.phase == 2 and t.s.trigger == "gladiator" and "step" not in t.kinds()
    assert t.event("phase")["removed"] == ["m2", "m3", "m4"]
    for m in ("m2", "m3", "m4"):
        assert t.s.mountains[m]["state"] == "removed" and t.s.mountains[m]["reward_state"] == "lost"
    assert not t.s.relic and not t.s.weapons and "mammoth_meat" not in t.kinds()
    assert t.hero("gladiator")["hp"] == 2 and t.hero("werewolf")["trapped"] is None
    assert t.s.swords == 1 and t.s.current == "hunter" and t.prompt("hunter") == "spend"
    # The lost tiles stay secret: nothing shown names them.
    for viewer in ("gladiator", None):
        m2 = GAME.view(t.s, viewer)["mountains"][1]
        assert m2["state"] == "removed" and m2["quest"] is None and m2["reward"] is None
    secrets = GAME.secrets(t.s, None)
    assert {"golem_guardian", "treasure", "Treasure", "book_of_dragons", "anti_dragon_weapons"} <= secrets
    shown = json.dumps([e.as_dict() for e in t.events] + [GAME.view(t.s, None)])
    assert not any(f'"{x}"' in shown or x in shown for x in ("golem_guardian", "Golem Guardian", "treasure"))
