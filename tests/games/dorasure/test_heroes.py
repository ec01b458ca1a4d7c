"""Every hero's resource refill, Treasure and special abilities (§6.4, §6.5, R43–R57)."""

from __future__ import annotations

from backend.games.dorasure.game import GAME
from backend.games.dorasure.rules.flow import damage

from .helpers import Table, at_action

NEXT4 = (1, 1, 1, 1)


def offered(t: Table, seat: str, kind: str) -> bool:
    return any(a["type"] == kind for a in t.legal(seat))


# -- Ninja ------------------------------------------------------------------------------


def test_ninjutsu_on_every_forest_entry(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "r02", "res": 0}, "hunter": "city"})
    t.start_turn(5, 6, 5, 2)
    t.act("ninja", {"type": "step", "to": "f10", "die": 5})
    t.act("ninja", {"type": "step", "to": "r02", "die": 2})
    t.act("ninja", {"type": "step", "to": "f10", "die": 5})  # re-entry counts (R62)
    assert t.hero("ninja")["res"] == 2


def test_oboro_gasumi_rerolls_once_per_battle_turn(monkeypatch):
    t = Table(
        monkeypatch,
        {"ninja": {"pos": "city", "res": 0}, "hunter": {"pos": "city", "res": 1}},
        relic=True,
        phase=2,
    )
    t.start_battle_turn(1, 1)
    assert t.prompt("ninja") == "post_roll" and {"type": "reroll"} in t.legal("ninja")
    t.act("ninja", {"type": "reroll"}, 6, 4, 4)  # 6→4 and 4: total 3 → head-on
    assert t.event("battle_result")["result"] == "head_on" and t.s.swords == 1
    t2 = Table(
        monkeypatch, {"ninja": {"pos": "city", "res": 0}, "hunter": {"pos": "city", "res": 1}}, phase=2
    )
    t2.start_battle_turn(4, 2)  # no Treasure: no reroll prompt (fire blast: the Hunter may absorb)
    assert "reroll" not in t2.kinds() and t2.prompt("ninja") is None and t2.prompt("hunter") == "absorb"


# -- Hunter -----------------------------------------------------------------------------


def test_magical_ammo_refills_on_rest(monkeypatch):
    t = at_action(monkeypatch, {"ninja": "city", "hunter": {"pos": "millbrook", "res": 0}}, "hunter")
    t.act("hunter", {"type": "rest"}, 1, 1, 1, 1)
    assert t.hero("hunter")["res"] == 3


def test_poisoned_bullets_once_per_game(monkeypatch):
    t = Table(
        monkeypatch,
        {"hunter": {"pos": "city", "res": 0}, "paladin": {"pos": "city", "res": 1}},
        relic=True,
        phase=2,
    )
    t.start_battle_turn(4, 3)
    assert {"type": "poison", "die": 1, "at": 0} in t.legal("hunter")
    t.act("hunter", {"type": "poison", "die": 1, "at": 0}, 4)  # the 3 becomes 6→4: 1 + 2 = 3, head-on
    assert t.event("battle_result")["result"] == "head_on" and t.s.swords == 1
    assert "poisoned_bullets" in t.hero("hunter")["used"]


def test_poisoned_bullets_not_twice(monkeypatch):
    t = Table(
        monkeypatch,
        {
            "hunter": {"pos": "city", "res": 0, "used": ["poisoned_bullets"]},
            "paladin": {"pos": "city", "res": 1},
        },
        relic=True,
        phase=2,
    )
    t.start_battle_turn(4, 4, 2, 2)
    assert t.prompt("hunter") is None


# -- Gladiator --------------------------------------------------------------------------


def test_battle_hardened_heals_before_plains_adventures(monkeypatch):
    t = at_action(monkeypatch, {"ninja": "city", "gladiator": {"pos": "p05", "hp": 1}}, "gladiator")
    t.act("gladiator", {"type": "adventure"}, 1, 2, *NEXT4)  # fumble: -1 → 1 damage, but healed first
    assert t.hero("gladiator")["hp"] == 1 and "Battle Hardened" in t.text()
    t2 = at_action(monkeypatch, {"ninja": "city", "gladiator": {"pos": "f03", "hp": 3}}, "gladiator")
    t2.act("gladiator", {"type": "adventure"}, 2, *NEXT4)  # forest: no heal
    assert t2.hero("gladiator")["hp"] == 3


def test_mammoth_meat_and_true_wealth_at_battle_start(monkeypatch):
    t = Table(
        monkeypatch,
        {"gladiator": {"pos": "p05", "hp": 2}, "prince": {"pos": "p09", "res": 1}},
        relic=True,
        current="gladiator",
    )
    t.run_op(("phase_end",), 6, 4, 4, 4)  # then she attacks first: from behind
    assert t.hero("gladiator")["hp"] == 6 and t.hero("prince")["gold"] == 4
    assert t.s.phase == 2 and t.prompt("prince") == "spend"


# -- Prince -----------------------------------------------------------------------------


def test_servants_set_to_level_each_adventure_turn(monkeypatch):
    t = Table(monkeypatch, {"ninja": "city", "prince": {"pos": "p05", "res": 0, "exp": 4}}, current="prince")
    t.start_turn(1, 1, 1)
    assert t.hero("prince")["res"] == 3 and t.hero("prince")["max_res"] == 3


def test_servants_do_not_refill_in_battle(monkeypatch):
    t = Table(
        monkeypatch,
        {"prince": {"pos": "city", "res": 0, "gold": 1}, "paladin": {"pos": "city", "res": 1}},
        phase=2,
        current="prince",
    )
    t.start_battle_turn()
    assert t.hero("prince")["res"] == 0 and t.prompt("prince") == "spend"
    assert {"type": "spend", "amount": 1, "gold": 1} in t.legal("prince")


# -- Paladin ----------------------------------------------------------------------------


def test_faith_drops_the_highest_die_but_its_six_still_counts(monkeypatch):
    t = Table(monkeypatch, {"ninja": "city", "paladin": {"pos": "city", "res": 0}}, current="paladin")
    t.start_turn(6, 3, 2)
    assert t.prompt("paladin") == "reaction" and t.s.meter == 0  # before the meter
    t.act("paladin", {"type": "faith"})
    assert t.hero("paladin")["res"] == 1 and sorted(t.s.move["dice"]) == [2, 3] and t.s.meter == 1


def test_platinum_shield_cancels_one_retaliation(monkeypatch):
    t = Table(
        monkeypatch,
        {"gladiator": "city", "paladin": {"pos": "city", "res": 1}},
        relic=True,
        phase=2,
        swords=2,
        current="gladiator",
    )
    t.start_battle_turn(6, 4, 4, 4, 5)  # from behind covers box 3; retaliation 5: critical
    assert t.prompt("paladin") == "shield"
    t.act("paladin", {"type": "shield"})  # cancelled: no comparison roll
    assert "comparison" not in t.kinds() and "platinum_shield" in t.hero("paladin")["used"]


# -- Samurai ----------------------------------------------------------------------------


def test_never_targets_the_weak(monkeypatch):
    t = at_action(monkeypatch, {"ninja": "city", "samurai": {"pos": "p05", "res": 0}}, "samurai")
    t.act("samurai", {"type": "adventure"}, 4, 2, *NEXT4)  # total 1
    assert t.hero("samurai")["exp"] == 0 and t.hero("samurai")["hp"] == 5


def test_gust_buys_two_dice_for_one_point(monkeypatch):
    t = Table(
        monkeypatch,
        {"samurai": {"pos": "city", "res": 1}, "paladin": {"pos": "city", "res": 1}},
        relic=True,
        phase=2,
        current="samurai",
    )
    t.start_battle_turn()
    assert {"type": "spend", "amount": 1, "gust": True} in t.legal("samurai")
    t.act("samurai", {"type": "spend", "amount": 1, "gust": True}, 4, 4, 4, 4, 4)  # 3 + 2 dice = 5
    assert t.event("battle_result")["result"] == "flanking"


# -- Shaman -----------------------------------------------------------------------------


def test_shaman_never_rests_in_the_city_and_voodoo(monkeypatch):
    t = at_action(monkeypatch, {"ninja": "city", "shaman": {"pos": "city", "hp": 3, "res": 0}}, "shaman")
    assert {"type": "rest"} not in t.legal("shaman")
    assert t.hero("shaman")["res"] == 1  # Voodoo at his turn start (Health below max)


def test_body_swapping_doll_takes_an_allys_damage(monkeypatch):
    t = Table(
        monkeypatch,
        {"ninja": {"pos": "p05", "res": 0, "hp": 1}, "shaman": {"pos": "p09", "res": 0}},
        relic=True,
    )
    t.run_op(damage({"ninja": 2}, "test"))
    assert t.prompt("shaman") == "doll" and {"type": "doll", "take": {"ninja": 2}} in t.legal("shaman")
    t.act("shaman", {"type": "doll", "take": {"ninja": 2}})
    assert t.hero("ninja")["hp"] == 1 and t.hero("shaman")["hp"] == 4
    t2 = Table(monkeypatch, {"ninja": {"pos": "p05", "res": 0}, "shaman": {"pos": "p09", "res": 0}})
    t2.run_op(damage({"ninja": 2}, "test"))  # no Treasure: no Doll
    assert t2.prompt("shaman") is None
    t3 = Table(monkeypatch, {"ninja": {"pos": "p05"}, "shaman": {"pos": "p09", "res": 0}}, relic=True)
    t3.run_op(damage({"ninja": 1, "shaman": 1}, "test"))  # he takes only allies' damage
    assert [a.get("take") for a in t3.legal("shaman")] == [None, {"ninja": 1}]


# -- Minstrel ---------------------------------------------------------------------------


def test_heroic_tune_adds_dice_to_an_ally(monkeypatch):
    t = at_action(monkeypatch, {"werewolf": "p05", "minstrel": {"pos": "city", "res": 2}}, "werewolf")
    t.act("werewolf", {"type": "adventure"})
    assert t.prompt("minstrel") == "tune"
    t.act("minstrel", {"type": "tune", "to": "werewolf", "amount": 2}, 4, 4, 4, 1, 1, 1)  # 1 + 2 dice
    assert t.event("roll")["dice"] == {"werewolf": [[4], [4], [4]]} and t.hero("minstrel")["res"] == 0


def test_no_tune_on_the_sphinx(monkeypatch):
    t = at_action(
        monkeypatch,
        {"werewolf": "p05", "minstrel": {"pos": "city", "res": 2}},
        "werewolf",
        mountains={"m2": "riddle_of_the_sphinx/treasure:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": []}, 4, 4, 1, 1, 1)
    assert "heroic_tune" not in t.kinds()


def test_heros_song_when_ending_beside_an_ally(monkeypatch):
    t = at_action(monkeypatch, {"ninja": "r04", "minstrel": {"pos": "city", "res": 0}}, "minstrel")
    t.act("minstrel", {"type": "end_turn"}, *NEXT4)
    assert t.hero("minstrel")["res"] == 1
    t2 = at_action(monkeypatch, {"ninja": "p05", "minstrel": {"pos": "city", "res": 0}}, "minstrel")
    t2.act("minstrel", {"type": "end_turn"}, *NEXT4)
    assert t2.hero("minstrel")["res"] == 0


def test_lullaby_keeps_the_dragon_asleep_once(monkeypatch):
    t = Table(
        monkeypatch, {"ninja": "city", "minstrel": {"pos": "city", "res": 0}}, relic=True, current="minstrel"
    )
    t.start_turn(6, 6, 2)
    assert {"type": "lullaby"} in t.legal("minstrel")
    t.act("minstrel", {"type": "lullaby"})
    assert t.s.meter == 0 and "lullaby" in t.hero("minstrel")["used"]
    assert ("r03", 6) in {(a["to"], a.get("die")) for a in t.legal("minstrel") if a["type"] == "step"}


# -- Magician ---------------------------------------------------------------------------


def test_magic_mastery_on_magical_quests(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "magician": {"pos": "r01", "res": 0}},
        "magician",
        mountains={"m1": "mysterious_inscriptions/book_of_dragons:revealed"},
    )
    t.s.heroes["magician"]["res"] = 0
    t.act(
        "magician", {"type": "quest", "mountain": "m1", "invite": []}, 2, 2, 2, 2, 2, *NEXT4
    )  # Knowledge 3 + 2
    assert len(t.event("roll")["dice"]["magician"]) == 5


def test_magic_regain_grows_at_level_four(monkeypatch):
    t = Table(
        monkeypatch, {"ninja": "city", "magician": {"pos": "city", "res": 0, "exp": 6}}, current="magician"
    )
    t.start_turn(1, 1, 1)
    assert t.hero("magician")["res"] == 2
    t2 = Table(monkeypatch, {"ninja": "city", "magician": {"pos": "city", "res": 0}}, current="magician")
    t2.start_turn(1, 1, 1)
    assert t2.hero("magician")["res"] == 1


def test_big_bang(monkeypatch):
    t = Table(
        monkeypatch,
        {"magician": {"pos": "city", "res": 4}, "paladin": {"pos": "city", "res": 1}},
        relic=True,
        phase=2,
        current="magician",
        swords=5,
    )
    t.start_battle_turn()  # Magic regain: 4 → 5
    assert {"type": "big_bang"} in t.legal("magician")
    t.act("magician", {"type": "big_bang"}, 1)  # 2 damage covers box 6 → retaliation 1 (miss)
    assert t.s.swords == 7 and "roll" not in t.kinds() and t.hero("magician")["res"] == 0
    assert t.event("retaliation")["box"] == 6


# -- Vampire ----------------------------------------------------------------------------


def test_blood_magic_and_thirst(monkeypatch):
    t = at_action(monkeypatch, {"ninja": "city", "vampire": {"pos": "f03", "res": 1}}, "vampire")
    t.act("vampire", {"type": "adventure"})
    t.act(
        "vampire", {"type": "spend", "amount": 0}, 1, 1, *NEXT4
    )  # two 1s: 1 Blood, then 1 Health (not damage)
    v = t.hero("vampire")
    assert v["res"] == 0 and v["hp"] == 4 - 1 - 1  # blood magic 1 + fumble damage 1
    assert GAME.view(t.s, None)["heroes"][1]["attrs"]["combat"] == 1  # Thirst: 3 - 2


def test_blood_refills_on_rest(monkeypatch):
    t = at_action(monkeypatch, {"ninja": "p05", "vampire": {"pos": "city", "res": 0}}, "vampire")
    t.act("vampire", {"type": "rest"}, *NEXT4)
    assert t.hero("vampire")["res"] == 2
    t2 = at_action(monkeypatch, {"ninja": "p05", "vampire": {"pos": "belk", "res": 0}}, "vampire")
    t2.act("vampire", {"type": "rest"}, *NEXT4)
    assert t2.hero("vampire")["res"] == 1


def test_kiss_of_death(monkeypatch):
    t = Table(
        monkeypatch,
        {"gladiator": "city", "vampire": {"pos": "city", "res": 1}},
        relic=True,
        phase=2,
        current="gladiator",
    )
    t.start_battle_turn(1, 1, 2)  # chomp
    assert t.prompt("vampire") == "kiss" and {"type": "kiss", "hero": "gladiator"} in t.legal("vampire")
    t.act("vampire", {"type": "kiss", "hero": "gladiator"})
    g = t.hero("gladiator")
    assert not g["dead"] and g["hp"] == 2 and "kiss_of_death" in t.hero("vampire")["used"]


# -- Werewolf ---------------------------------------------------------------------------


def test_lycanthropy_and_strength_of_the_wild(monkeypatch):
    t = Table(
        monkeypatch, {"ninja": "city", "werewolf": {"pos": "p05", "exp": 1, "hp": 3}}, current="werewolf"
    )
    t.start_turn(1, 1, 1)
    assert t.hero("werewolf")["hp"] == 4
    w = GAME.view(t.s, None)["heroes"][1]
    assert w["wolf_form"] and (w["attrs"]["combat"], w["attrs"]["search"], w["attrs"]["knowledge"]) == (
        5,
        0,
        0,
    )


def test_gauntlets_give_one_extra_turn(monkeypatch):
    t = Table(
        monkeypatch,
        {"werewolf": "city", "paladin": {"pos": "city", "res": 1}},
        relic=True,
        phase=2,
        current="werewolf",
    )
    t.start_battle_turn(6, 4, 4)  # head-on
    assert t.prompt("werewolf") == "extra_turn"
    t.act("werewolf", {"type": "extra_turn"}, 6, 4, 4)
    assert t.s.current == "paladin" and t.prompt("werewolf") is None  # the extra turn grants no other


# -- Grand Master ----------------------------------------------------------------------


def test_grand_master_exp_rules(monkeypatch):
    t = at_action(monkeypatch, {"grand_master": {"pos": "p05", "res": 0}}, "grand_master")
    t.act("grand_master", {"type": "adventure"})
    t.act("grand_master", {"type": "spend", "amount": 0}, 4, 4)  # Mana gave him a point to spend
    assert t.prompt("grand_master") == "post_roll"  # Grand Reroll is offered
    t.act("grand_master", {"type": "pass"}, 1, 1, 1)
    assert t.hero("grand_master")["exp"] == 0


def test_grand_master_magical_die_and_one_exp(monkeypatch):
    t = at_action(
        monkeypatch,
        {"grand_master": {"pos": "r01", "res": 0}},
        "grand_master",
        mountains={"m1": "mysterious_inscriptions/book_of_dragons:revealed"},
    )
    t.act("grand_master", {"type": "quest", "mountain": "m1", "invite": []})
    t.act("grand_master", {"type": "spend", "amount": 0}, 4, 4, 4, 4)
    assert len(t.event("roll")["dice"]["grand_master"]) == 4  # Knowledge 3 + 1
    t.act("grand_master", {"type": "reroll"}, 4, 4, 2, 2, 1, 1, 1)
    assert "grand_reroll" in t.hero("grand_master")["used"]
    assert t.hero("grand_master")["exp"] == 2 and t.hero("grand_master")["level"] == 3  # quest 1 + Book 1


def test_level_six_strike_and_elixir(monkeypatch):
    t = Table(
        monkeypatch,
        {"grand_master": {"pos": "city", "res": 0, "exp": 5, "hp": 2, "used": ["grand_reroll"]}},
        relic=True,
        phase=2,
    )
    t.start_battle_turn()  # Mana +1 → spend prompt with Elixir
    assert {"type": "spend", "amount": 0, "elixir": True} in t.legal("grand_master")
    t.act("grand_master", {"type": "spend", "amount": 0, "elixir": True}, 4, 4, 4, 4, 2)  # 5 dice: total 4
    assert "elixir" in t.hero("grand_master")["used"] and t.hero("grand_master")["hp"] == 8
    assert t.event("dragon_hit")["damage"] == 2  # total 4 at level 6 deals 2


def test_no_heros_song_after_falling_this_turn(monkeypatch):
    # R25 + R47: the Minstrel fumbles an adventure and falls; revived in the City beside the Ninja,
    # her turn ends with no end-of-turn effect.
    t = at_action(monkeypatch, {"ninja": "city", "minstrel": {"pos": "p05", "hp": 1, "res": 0}}, "minstrel")
    t.act("minstrel", {"type": "adventure"}, 1, 6, 2, *NEXT4)  # fumble; revival 6 2; Ninja's roll
    assert t.hero("minstrel")["pos"] == "city" and t.hero("minstrel")["res"] == 0 and t.s.current == "ninja"


def test_ninjutsu_only_on_forest_steps(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "r02", "res": 0}, "hunter": "city"})
    t.start_turn(3, 2, 1, 1)
    t.act("ninja", {"type": "step", "to": "p14", "die": 3})  # plains
    t.act("ninja", {"type": "step", "to": "r03", "die": 2})  # road
    assert t.hero("ninja")["res"] == 0


def test_level_six_strike_needs_level_six(monkeypatch):
    gm = {"pos": "city", "res": 0, "exp": 4, "used": ["grand_reroll"]}
    t = Table(monkeypatch, {"grand_master": gm}, relic=True, phase=2)
    t.start_battle_turn()  # Mana +1: spend prompt
    t.act("grand_master", {"type": "spend", "amount": 1}, 4, 4, 4, 4, 2, 2)  # level 5: Combat 5 + 1 die: 4
    assert t.event("battle_result")["result"] == "from_behind" and t.event("dragon_hit")["damage"] == 1


def test_no_heroic_tune_on_her_own_dice(monkeypatch):
    # R46: the Minstrel assisting a quest may Tune the leader, never her own pool.
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "p05", "minstrel": {"pos": "belk", "res": 2}},
        "werewolf",
        mountains={"m2": "horde_of_goblins/book_of_dragons:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": ["minstrel"]})
    t.act("minstrel", {"type": "accept"})
    t.act("minstrel", {"type": "spend", "amount": 0})
    assert t.prompt("minstrel") == "tune"
    assert {a.get("to") for a in t.legal("minstrel") if a["type"] == "tune"} == {"werewolf"}


def test_heros_song_in_the_battle_needs_only_a_living_ally(monkeypatch):
    # R47 phase 2: positions no longer matter.
    t = Table(
        monkeypatch,
        {"minstrel": {"pos": "f05", "res": 0}, "paladin": {"pos": "city", "res": 1}},
        phase=2,
        current="minstrel",
    )
    t.start_battle_turn(4)  # Combat 1: total 1 → fire blast; the Paladin may absorb
    t.act("paladin", {"type": "absorb", "amount": 0})
    assert t.hero("minstrel")["res"] == 1 and t.s.current == "paladin"
