"""6–11 heroes (Special Chance §8.3/R58, Quest Replenishing §8.4/R59) and Fang land tiles (§9)."""

from __future__ import annotations

from backend.games.dorasure.game import GAME

from .helpers import Table

SIX = {
    h: {"pos": "city", "res": 0} for h in ["ninja", "gladiator", "samurai", "werewolf", "prince", "paladin"]
}


def test_special_chance_low_moves_the_dragon(monkeypatch):
    t = Table(monkeypatch, dict(SIX), current="gladiator")
    t.start_turn(6, 1, 1, 2)
    assert t.s.meter == 1 and t.event("special_chance")["die"] == 2


def test_special_chance_high_hurts_the_mover(monkeypatch):
    t = Table(monkeypatch, dict(SIX), current="gladiator")
    t.start_turn(6, 1, 1, 5)
    assert t.s.meter == 0 and t.hero("gladiator")["hp"] == 5


def test_no_special_chance_below_six_heroes(monkeypatch):
    t = Table(monkeypatch, {"ninja": "city", "gladiator": "city"}, current="gladiator")
    t.start_turn(6, 1, 1)
    assert t.s.meter == 1 and "special_chance" not in t.kinds()


def test_quest_replenishing_at_the_third_rampage(monkeypatch):
    t = Table(
        monkeypatch,
        dict(SIX),
        current="gladiator",
        meter=8,
        mountains={
            "m1": "mysterious_inscriptions/dragons_lair:solved",
            "m3": "teleportation_trap/treasure:solved",
        },
    )
    # 6 → Special Chance 1 → meter 9 (fire, 3rd rampage): Roaming 2 (driven back: comparison of 6, all tie) →
    # replenish m1 and m3 from the reserve: draw index 0 then index 0.
    t.start_turn(6, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 0, 0)
    assert t.s.replenished
    assert t.s.mountains["m1"]["state"] == "hidden" and t.s.mountains["m1"]["replenished"]
    assert {t.s.mountains["m1"]["quest"], t.s.mountains["m3"]["quest"]} == {
        "evil_chimera",
        "riddle_of_the_sphinx",
    }
    assert t.s.reserve == ["mysterious_inscriptions", "teleportation_trap"]  # the tiles taken off


def test_solving_a_replenished_quest_removes_a_scale(monkeypatch):
    heroes = dict(SIX)
    heroes["werewolf"] = {"pos": "r01", "res": 0}
    t = Table(monkeypatch, heroes, current="werewolf", swords=1)
    t.s.mountains["m1"] = {
        **t.s.mountains["m1"],
        "state": "revealed",
        "replenished": True,
        "reward_state": "revealed",
    }
    t.start_turn(1, 1, 1)
    t.act("werewolf", {"type": "end_move"})
    t.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []}, 4, 4, 1, 1, 1)
    assert t.s.swords == 2 and t.s.meter == 0 and "reward" not in t.kinds()
    assert t.hero("werewolf")["exp"] == 2


# -- Fang ---------------------------------------------------------------------------------


def fang(monkeypatch, land: str, heroes, current, site: str = "p14"):
    return Table(monkeypatch, heroes, current=current, lands={site: land})


def test_quick_sand_ends_the_move(monkeypatch):
    t = fang(monkeypatch, "quick_sand", {"ninja": "city", "hunter": "r03"}, "hunter")
    t.start_turn(4, 3, 5)
    assert ("p14", 3) not in {(a["to"], a.get("die")) for a in t.legal("hunter") if a["type"] == "step"}
    t.act("hunter", {"type": "step", "to": "p14", "die": 4})
    assert t.prompt("hunter") == "act" and t.s.move is None


def test_mirage_city_forces_an_adventure_and_never_heals(monkeypatch):
    t = fang(monkeypatch, "mirage_city", {"ninja": "city", "gladiator": {"pos": "p14", "hp": 3}}, "gladiator")
    t.start_turn(1, 1, 1)
    t.act("gladiator", {"type": "end_move"})
    assert t.legal("gladiator") == [{"type": "adventure"}]
    t.act("gladiator", {"type": "adventure"}, 4, 4, 1, 1, 1, 1)
    assert t.hero("gladiator")["hp"] == 3  # no Battle Hardened heal on the Mirage
    gm = fang(monkeypatch, "mirage_city", {"grand_master": {"pos": "p14", "res": 0}}, "grand_master")
    gm.start_turn(1, 1, 1)
    gm.act("grand_master", {"type": "end_move"})
    assert {"type": "end_turn"} in gm.legal("grand_master")


def test_herbal_meadow_heals_on_a_six(monkeypatch):
    t = fang(monkeypatch, "herbal_meadow", {"ninja": "city", "hunter": {"pos": "r03", "hp": 2}}, "hunter")
    t.start_turn(6, 3, 1)  # the 6 is also a meter step
    t.act("hunter", {"type": "step", "to": "p14", "die": 6})
    assert t.hero("hunter")["hp"] == 3


def test_thousand_year_winter_needs_a_five(monkeypatch):
    t = fang(monkeypatch, "thousand_year_winter", {"ninja": "city", "hunter": "r03"}, "hunter")
    t.start_turn(4, 3, 5)
    assert {a["die"] for a in t.legal("hunter") if a["type"] == "step" and a["to"] == "p14"} == {5}


def test_poisonous_swamp_hurts_on_entry(monkeypatch):
    t = fang(monkeypatch, "poisonous_swamp", {"ninja": "city", "werewolf": "r03"}, "werewolf")
    t.start_turn(4, 2, 2)
    t.act("werewolf", {"type": "step", "to": "p14", "die": 4})
    assert t.hero("werewolf")["hp"] == 4 and t.prompt("werewolf") == "move"


def test_caravan_rest_heals_one_without_refills(monkeypatch):
    t = fang(monkeypatch, "caravan", {"ninja": "city", "hunter": {"pos": "p14", "hp": 2, "res": 0}}, "hunter")
    t.start_turn(1, 1, 1)
    t.act("hunter", {"type": "end_move"})
    t.act("hunter", {"type": "rest"}, 1, 1, 1, 1)
    assert t.hero("hunter")["hp"] == 3 and t.hero("hunter")["res"] == 0


def test_sea_of_trees_needs_a_six_unless_search_two(monkeypatch):
    t = fang(monkeypatch, "sea_of_trees", {"ninja": "city", "gladiator": "r03"}, "gladiator")  # Search 1
    t.start_turn(5, 6, 1)
    assert {a["die"] for a in t.legal("gladiator") if a["type"] == "step" and a["to"] == "p14"} == {6}
    t2 = fang(monkeypatch, "sea_of_trees", {"ninja": "city", "hunter": "r03"}, "hunter")  # Search 3
    t2.start_turn(5, 2, 1)
    assert {a["die"] for a in t2.legal("hunter") if a["type"] == "step" and a["to"] == "p14"} == {5}


def test_tree_of_truth_gives_a_resource_with_knowledge_two(monkeypatch):
    t = fang(monkeypatch, "tree_of_truth", {"ninja": "city", "samurai": {"pos": "r03", "res": 0}}, "samurai")
    t.start_turn(5, 1, 1)
    t.act("samurai", {"type": "step", "to": "p14", "die": 5})
    assert t.hero("samurai")["res"] == 1
    t2 = fang(monkeypatch, "tree_of_truth", {"ninja": "city", "hunter": {"pos": "r03", "res": 0}}, "hunter")
    t2.start_turn(5, 1, 1)
    t2.act("hunter", {"type": "step", "to": "p14", "die": 5})  # Knowledge 1
    assert t2.hero("hunter")["res"] == 0


def test_replenishing_refills_from_the_tiles_taken_off_when_the_reserve_runs_out(monkeypatch):
    # §8.4: four solved mountains, two reserve tiles. m1 and m2 draw the reserve; then the four
    # tiles just taken off become the reserve (m1, m2, m3, m5 order) and m3, m5 draw from them.
    solved = {
        "m1": "mysterious_inscriptions/dragons_lair:solved",
        "m2": "golem_guardian/book_of_dragons:solved",
        "m3": "teleportation_trap/anti_dragon_weapons:solved",
        "m5": "horde_of_goblins/dragons_lair:solved",
    }
    heroes = {**SIX, "prince": {"pos": "city", "res": 0, "gold": 0}}
    t = Table(monkeypatch, heroes, current="gladiator", meter=8, mountains=solved)
    # 6 1 1 movement; Special Chance 1 → meter 9: Rampage 3 (scorch, nobody can absorb);
    # draws: index 1 of 2, 0 of 1, then 2 of 4, 0 of 3.
    t.start_turn(6, 1, 1, 1, 3, 1, 0, 2, 0)
    quests = {m: t.s.mountains[m]["quest"] for m in ("m1", "m2", "m3", "m4", "m5")}
    assert quests == {
        "m1": "riddle_of_the_sphinx",
        "m2": "evil_chimera",
        "m3": "teleportation_trap",
        "m4": "underground_labyrinth",
        "m5": "mysterious_inscriptions",
    }
    assert t.s.reserve == ["golem_guardian", "horde_of_goblins"]
    for m in ("m1", "m2", "m3", "m5"):
        mt = t.s.mountains[m]
        assert mt["state"] == "hidden" and mt["replenished"] and mt["flags"] == 0
    assert not t.s.mountains["m4"]["replenished"] and t.prompt("gladiator") == "move"
    v = GAME.view(t.s, "ninja")
    assert all(m["quest"] is None for m in v["mountains"]) and v["reserve_count"] == 2
    assert "Riddle" not in t.text() and "Chimera" not in t.text()


def test_replenishing_happens_once(monkeypatch):
    t = Table(
        monkeypatch,
        {**SIX, "prince": {"pos": "city", "res": 0, "gold": 0}},
        current="gladiator",
        meter=8,
        replenished=True,
        mountains={"m1": "mysterious_inscriptions/dragons_lair:solved"},
    )
    t.start_turn(6, 1, 1, 1, 3)  # the 3rd rampage again (as after a restart): no draw
    assert t.s.mountains["m1"]["state"] == "solved" and "replenish" not in t.kinds()


def test_no_replenishing_below_six_heroes(monkeypatch):
    five = {h: {"pos": "city", "res": 0} for h in ["ninja", "gladiator", "samurai", "werewolf", "paladin"]}
    t = Table(
        monkeypatch,
        five,
        current="gladiator",
        meter=8,
        mountains={"m1": "mysterious_inscriptions/dragons_lair:solved"},
    )
    t.start_turn(6, 1, 1, 3)  # a 6 moves the meter (no Special Chance) to 9: Rampage 3 only
    assert t.s.meter == 9 and "replenish" not in t.kinds() and t.s.mountains["m1"]["state"] == "solved"


def test_special_chance_splits_at_three_and_four(monkeypatch):
    # §8.3: 1–3 move the Dragon, 4–6 hurt the mover.
    t = Table(monkeypatch, dict(SIX), current="gladiator")
    t.start_turn(6, 6, 1, 3, 4)
    assert t.s.meter == 1 and t.hero("gladiator")["hp"] == 5


def test_herbal_meadow_heals_only_on_a_six(monkeypatch):
    t = fang(monkeypatch, "herbal_meadow", {"ninja": "city", "hunter": {"pos": "r03", "hp": 2}}, "hunter")
    t.start_turn(5, 3, 1)
    t.act("hunter", {"type": "step", "to": "p14", "die": 5})
    assert t.hero("hunter")["hp"] == 2


def test_falling_in_the_swamp_ends_a_routed_move(monkeypatch):
    # §9.2 + R25: the canonical route to Belk crosses the swamp on p08; the mover falls there,
    # is revived in the City and his turn ends: the rest of the route is not walked.
    t = fang(
        monkeypatch,
        "poisonous_swamp",
        {"ninja": "city", "werewolf": {"pos": "r02", "hp": 1}},
        "werewolf",
        site="p08",
    )
    t.start_turn(4, 2, 1)
    t.act("werewolf", {"type": "move", "to": "belk"}, 6, 1, 1, 1, 1, 1)  # revival 6 1; the Ninja's roll
    assert [e.data["to"] for e in t.events if e.kind == "step"] == ["p08"]
    assert t.hero("werewolf")["pos"] == "city" and t.s.current == "ninja"


def test_a_hero_who_starts_on_quick_sand_may_leave_it(monkeypatch):
    # §9.2: Quick Sand ends the movement of the turn it is entered, not the next one.
    t = fang(monkeypatch, "quick_sand", {"ninja": "city", "hunter": "p14"}, "hunter")
    t.start_turn(2, 3, 1)
    assert {"type": "step", "to": "r03", "die": 2} in t.legal("hunter")
    assert {"type": "move", "to": "r02"} in t.legal("hunter")
