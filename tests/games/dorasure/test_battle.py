"""The Climactic Battle: Battle chart (§4.5), Team Combo (§4.6, R34), Final Breath (R36),
Retaliation (§4.7, R35), combo group (R33), victory and defeat (R37, R38)."""

from __future__ import annotations

import pytest

from backend.games.dorasure.rules.heroes import combo_group

from .helpers import Table


def battle(monkeypatch, **kw) -> Table:
    # The Gladiator (Combat 3, no resources) attacks; the Hunter (resources) is next and stops the run.
    heroes = kw.pop("heroes", {"gladiator": "city", "hunter": {"pos": "city", "res": 0}})
    return Table(monkeypatch, heroes, current="gladiator", phase=2, **kw)


@pytest.mark.parametrize(
    ("dice", "row"),
    [
        ((1, 1, 2), "chomp"),
        ((2, 2, 3), "claw_barrage"),
        ((4, 2, 2), "fire_blast"),
        ((4, 4, 4), "head_on"),
        ((6, 4, 4, 4), "from_behind"),
        ((6, 4, 6, 4, 4), "flanking"),
    ],
)
def test_battle_chart_rows(monkeypatch, dice, row):
    t = battle(monkeypatch, heroes={"gladiator": "city", "hunter": {"pos": "city", "res": 1}})
    t.start_battle_turn(*dice)
    assert t.event("battle_result")["result"] == row
    g = t.hero("gladiator")
    if row == "chomp":
        assert g["dead"] and g["hp"] == 0
    elif row == "claw_barrage":
        assert g["hp"] == 2
    elif row == "fire_blast":
        assert t.prompt("hunter") == "absorb"  # the event waits for the absorption answer
        t.act("hunter", {"type": "absorb", "amount": 0})
        assert t.hero("gladiator")["hp"] == 5 and t.hero("hunter")["hp"] == 3
    elif row == "head_on":
        assert g["hp"] == 5 and t.s.swords == 1
    elif row == "from_behind":
        assert g["hp"] == 6 and t.s.swords == 1
    else:
        assert t.s.swords == 2
    assert t.s.current == "hunter" and t.prompt("hunter") == "spend"


def test_team_combo_rereads_the_total_once(monkeypatch):
    t = battle(monkeypatch, heroes={"gladiator": "city", "hunter": {"pos": "city", "res": 1}})
    t.start_battle_turn(4, 4, 2, 4, 2)  # total 2 → combo: +1, 0 → T = 3 → head-on strike
    assert t.event("team_combo")["total"] == 3
    assert [e.data["result"] for e in t.events if e.kind == "battle_result"] == ["team_combo", "head_on"]
    assert t.s.swords == 1 and t.hero("gladiator")["hp"] == 5


def test_team_combo_still_two_hurts_everyone(monkeypatch):
    t = battle(
        monkeypatch,
        heroes={
            "gladiator": "city",
            "hunter": {"pos": "city", "res": 1},
            "vampire": {"pos": "city", "res": 0},
        },
    )
    t.start_battle_turn(4, 4, 2, 2, 3, 2)  # combo dice 2, 3, 2 → T = 2 → 1 damage each
    assert t.s.dmg["targets"] == {"gladiator": 1, "hunter": 1, "vampire": 1}
    t.act("hunter", {"type": "absorb", "amount": 0})
    assert [t.hero(h)["hp"] for h in ("gladiator", "hunter", "vampire")] == [5, 3, 3]


def test_team_combo_can_chomp(monkeypatch):
    t = battle(
        monkeypatch,
        heroes={
            "gladiator": "city",
            "hunter": {"pos": "city", "res": 1},
            "vampire": {"pos": "city", "res": 2},
        },
    )
    t.start_battle_turn(4, 4, 2, 1, 1, 1)  # T = 2 - 3 = -1: the current hero is chomped; vampire loses Blood
    assert t.hero("gladiator")["dead"] and t.hero("vampire")["res"] == 1  # Blood Magic on her combo die


def test_final_breath(monkeypatch):
    t = battle(monkeypatch, swords=7, heroes={"gladiator": "city", "hunter": {"pos": "city", "res": 1}})
    t.start_battle_turn(6, 4, 6, 4, 4, 1)  # flanking 2 → only 1; claw box 8 → retaliation (1: miss)
    assert t.s.swords == 8 and "final_breath" in t.kinds()
    assert t.event("retaliation")["box"] == 8 and t.event("retaliation")["result"] == "ret_miss"


def test_overshooting_a_claw_box_still_retaliates(monkeypatch):
    t = battle(monkeypatch, swords=2, heroes={"gladiator": "city", "hunter": {"pos": "city", "res": 1}})
    t.start_battle_turn(6, 4, 6, 4, 4, 1)  # 2 damage covers boxes 3 and 4
    assert t.s.swords == 4 and [e.data["box"] for e in t.events if e.kind == "retaliation"] == [3]


def test_retaliation_blast_and_critical(monkeypatch):
    t = battle(
        monkeypatch,
        swords=2,
        heroes={
            "gladiator": "city",
            "hunter": {"pos": "city", "res": 1},
            "vampire": {"pos": "city", "res": 0},
        },
    )
    t.start_battle_turn(6, 4, 4, 4, 2)  # from behind (6→4, 4, 4 = 4), box 3 → retaliation 2: blast
    assert t.s.dmg["targets"] == {"gladiator": 1, "hunter": 1, "vampire": 1}
    t2 = battle(monkeypatch, swords=2, heroes={"gladiator": "city", "hunter": {"pos": "city", "res": 1}})
    t2.start_battle_turn(6, 4, 4, 4, 5, 3, 2)  # critical: comparison 3 (glad) 2 (hunter) → hunter 2 damage
    assert t2.prompt("hunter") == "absorb" and t2.s.dmg["targets"] == {"hunter": 2}


def test_phase_one_swords_never_retaliate(monkeypatch):
    t = Table(monkeypatch, {"ninja": "city", "hunter": "city"}, swords=2)
    from backend.games.dorasure.rules.dragon import dragon_damage
    from backend.games.dorasure.rules.flow import Ctx

    s = t.s.clone()
    assert dragon_damage(Ctx(s), 1) == [] and s.swords == 3


def test_anti_dragon_weapons_add_a_combat_die(monkeypatch):
    t = battle(monkeypatch, weapons=True, heroes={"gladiator": "city", "hunter": {"pos": "city", "res": 1}})
    t.start_battle_turn(4, 4, 4, 4)  # 3 + 1 dice: total 4
    assert t.event("battle_result")["result"] == "from_behind"


def test_the_dragon_dies_and_the_heroes_win(monkeypatch):
    t = battle(monkeypatch, swords=8)
    t.start_battle_turn(6, 4, 4, 4)
    assert t.s.result[0] == "players_win" and t.s.swords == 9
    assert "retaliation" not in t.kinds()


def test_win_together_with_the_last_hero(monkeypatch):
    t = battle(
        monkeypatch,
        swords=8,
        heroes={
            "gladiator": {"pos": "city", "hp": 1},
            "hunter": {"pos": "city", "dead": True, "hp": 0, "res": 0},
        },
    )
    t.start_battle_turn(4, 4, 4)  # head-on: the Gladiator falls as the Dragon dies
    assert t.hero("gladiator")["dead"] and t.s.result[0] == "players_win"


def test_all_heroes_dead_is_defeat(monkeypatch):
    t = battle(
        monkeypatch, heroes={"gladiator": "city", "hunter": {"pos": "city", "dead": True, "hp": 0, "res": 0}}
    )
    t.start_battle_turn(1, 1, 2)
    assert t.s.result[0] == "players_lose"


def test_dead_heroes_are_skipped(monkeypatch):
    t = battle(
        monkeypatch,
        heroes={
            "gladiator": "city",
            "hunter": {"pos": "city", "dead": True, "hp": 0, "res": 0},
            "vampire": {"pos": "city", "res": 1},
        },
    )
    t.start_battle_turn(6, 4, 4, 4)
    assert t.s.current == "vampire" and t.prompt("vampire") == "spend"


def test_combo_group_with_many_heroes(monkeypatch):
    seven = ["ninja", "gladiator", "samurai", "hunter", "werewolf", "shaman", "minstrel"]
    t = Table(monkeypatch, {h: "city" for h in seven})
    t.s.heroes["hunter"]["dead"] = True  # R33 example: A–G, current C, D dead → C, E, F, B, A
    assert set(combo_group(t.s, "samurai")) == {"samurai", "werewolf", "shaman", "gladiator", "ninja"}
    t.s.heroes["ninja"]["dead"] = True  # 5 living: the group is every living hero
    assert set(combo_group(t.s, "samurai")) == {"samurai", "werewolf", "shaman", "gladiator", "minstrel"}
    eight = Table(monkeypatch, {h: "city" for h in [*seven, "paladin"]})
    eight.s.heroes["samurai"]["dead"] = True  # a dead anchor still anchors but is no target
    assert set(combo_group(eight.s, "samurai")) == {"gladiator", "ninja", "hunter", "werewolf"}


def test_team_combo_dice_go_round_from_the_current_hero(monkeypatch):
    # §4.6 + R33 + R50: seven heroes; the Werewolf's group is himself, Magician and Vampire
    # clockwise, Hunter and Samurai counter-clockwise; one die each in seat order from him.
    seven = ["ninja", "gladiator", "samurai", "hunter", "werewolf", "magician", "vampire"]
    heroes = {h: {"pos": "city", "res": 0} for h in seven}
    heroes["vampire"] = {"pos": "city", "res": 3}
    t = Table(monkeypatch, heroes, current="werewolf", phase=2)
    # Combat 2: 4 4 = 2 → Team Combo dice 2 2 1 4 4 → 2 + 1 = 3: head-on strike.
    t.start_battle_turn(4, 4, 2, 2, 1, 4, 4)
    combo = t.event("team_combo")
    assert list(combo["dice"]) == ["werewolf", "magician", "vampire", "samurai", "hunter"]
    assert combo["dice"]["vampire"] == [1] and combo["total"] == 3
    assert t.hero("vampire")["res"] == 2  # Blood Magic on her own combo die
    assert t.s.swords == 1 and t.hero("werewolf")["hp"] == 4
    assert t.s.current == "magician" and t.prompt("magician") == "spend"
