"""Hero abilities chosen as actions, the special weapon attacks and the Keeper's block window
(content 2.2, 2.3, 2.4 cloak and sinister parry, 4.1 R12, 4.5, 5.3, 5.5, 5.10, 6.3; rulings 22,
32, 37, 38, 43 and A1-A16 in docs/rules/dorn.md): each on an exact position."""

from __future__ import annotations

from backend.engine.core import IllegalAction
from backend.games.dorn.catalog import MONSTERS
from backend.games.dorn.rules import obstacles, rituals, turns
from backend.games.dorn.state import ZORKAL, Work

from .position import GAME, act, at, c, edit, goto, legal, monster_at, position, seat_of


def level(s: dict, hero: str, lv: int, phase: str, **extra) -> dict:
    """The hero at level ``lv`` (its life at that level's top unless given), ``phase`` reopened."""
    s = edit(s, lambda w: w.s["heroes"][hero].update(level=lv, **extra))
    return edit(s, lambda w: goto(w, phase))


def ability(hero: str, ab: str, **keys) -> dict:
    return {"type": "ability", "hero": hero, "ability": ab, **keys}


def abilities(s: dict, hero: str, ab: str | None = None) -> list[dict]:
    return [
        a
        for a in legal(s, seat_of(s, hero), "ability")
        if a["hero"] == hero and (ab is None or a["ability"] == ab)
    ]


def dmg(s: dict, x: int, y: int) -> int:
    return s["monsters"][monster_at(s, x, y)]["dmg"]


def answer(s: dict, **keys) -> dict:
    seat = s["prompt"]["seat"]
    return act(s, seat, {"type": "choose", **keys})


def open_gate(s: dict, zorkal_level: int = 1) -> dict:
    def go(w: Work) -> None:
        w.s["gate"] = True
        w.s["zorkal"].update(level=zorkal_level, life=3 + zorkal_level)

    return edit(s, go)


# ---------------------------------------------------------------------------------------
# Almanor


def test_fireball_hits_every_figure_and_obstacle_in_the_blast_and_costs_a_life():
    # alm.fireball (content 2.3): the aimed cell and its 4 neighbours; heroes too (ruling 43).
    s = position(
        """
        ..C
        A.rbr
        """,
        (10, 12),
        phase="H3",
    )
    s = edit(s, lambda w: obstacles.place(w, c(12, 14), obstacles.CAVE_IN))
    (oid,) = s["obstacles"]
    rat, beast, far = monster_at(s, 12, 13), monster_at(s, 13, 13), monster_at(s, 14, 13)
    mine = abilities(s, "almanor", "alm.fireball")
    assert ability("almanor", "alm.fireball", to=[12, 13]) in mine  # magic 2, onto the rat
    assert ability("almanor", "alm.fireball", to=[13, 13]) not in mine  # magic 5: not past the rat
    blood, life = s["blood"], s["heroes"]["choros"]["life"]
    after = act(s, seat_of(s, "almanor"), ability("almanor", "alm.fireball", to=[12, 13]))
    al = after["heroes"]["almanor"]
    assert (al["life"], al["actions"], al["xp"]) == (2, 0, MONSTERS["rat"]["xp"])  # paid 1; the kill
    assert rat not in after["monsters"] and after["monsters"][beast]["dmg"] == 1
    assert after["monsters"][far]["dmg"] == 0
    assert after["heroes"]["choros"]["life"] == life - 1  # (12,12): a hero in the blast
    assert after["obstacles"][oid]["life"] == 2
    assert after["blood"] == blood + 2  # the cost and Choros's life


def test_fireball_needs_two_life_until_archmage_makes_it_free():
    s = position("A..r", (8, 13), phase="H3")
    one = edit(s, lambda w: w.s["heroes"]["almanor"].update(life=1))
    assert abilities(one, "almanor", "alm.fireball") == []  # ruling 32
    s3 = level(one, "almanor", 3, "H3")  # alm.archmage: fireball and blizzard cost no life
    after = act(s3, seat_of(s3, "almanor"), ability("almanor", "alm.fireball", to=[11, 13]))
    assert after["heroes"]["almanor"]["life"] == 1 and after["monsters"] == {}


def test_fireball_on_himself_can_kill_almanor():
    # Content 2.2: "Damage from its own area effects can kill it."
    s = position("Ar", (8, 13), phase="H3")
    s = edit(s, lambda w: w.s["heroes"]["almanor"].update(life=2))
    after = act(s, seat_of(s, "almanor"), ability("almanor", "alm.fireball", to=[8, 13]))
    assert after["heroes"]["almanor"]["alive"] is False and after["monsters"] == {}


def test_teleport_moves_almanor_or_an_adjacent_hero_three_and_only_his_own_counts_as_moved():
    s = level(position("AC....", (8, 13), phase="H3"), "almanor", 2, "H3")  # (8,13)-(13,13)
    mine = abilities(s, "almanor", "alm.teleport")
    assert ability("almanor", "alm.teleport", other="choros", to=[12, 13]) in mine  # 3 from (9,13)
    assert ability("almanor", "alm.teleport", other="choros", to=[13, 13]) not in mine  # 4
    assert ability("almanor", "alm.teleport", other="almanor", to=[11, 13]) in mine
    assert ability("almanor", "alm.teleport", other="almanor", to=[9, 13]) not in mine  # Choros there
    after = act(s, seat_of(s, "almanor"), ability("almanor", "alm.teleport", other="choros", to=[12, 13]))
    assert at(after, 12, 13) == "choros" and after["heroes"]["choros"]["moved"] is False  # ruling 38
    assert after["heroes"]["almanor"]["actions"] == 0 and after["heroes"]["almanor"]["moved"] is False
    after = act(s, seat_of(s, "almanor"), ability("almanor", "alm.teleport", other="almanor", to=[11, 13]))
    assert at(after, 11, 13) == "almanor" and after["heroes"]["almanor"]["moved"] is True


def test_blizzard_freezes_monsters_within_three_for_the_next_keeper_turn():
    s = position(
        """
        A.rr
        ...z
        """,
        (9, 13),
        phase="H3",
    )
    s = level(s, "almanor", 2, "H3")
    near, edge, far = monster_at(s, 11, 13), monster_at(s, 12, 13), monster_at(s, 12, 14)  # 2, 3, 4
    after = act(s, seat_of(s, "almanor"), ability("almanor", "alm.blizzard"))
    assert after["heroes"]["almanor"]["life"] == s["heroes"]["almanor"]["life"] - 1  # SPL-D
    assert [after["monsters"][m]["frozen"] for m in (near, edge, far)] == [True, True, False]
    # The next Keeper turn: no steps, no attacks; under Bloodlust 2 steps (content 4.5).
    k3 = edit(after, lambda w: goto(w, "K3"))
    assert [k3["monsters"][m]["mv"] for m in (near, edge, far)] == [0, 0, MONSTERS["zombie"]["move"]]
    lust = edit(
        after, lambda w: (w.s["effects"].update({rituals.BLOODLUST: "keeper_turn_end"}), goto(w, "K3"))
    )
    assert [lust["monsters"][m]["mv"] for m in (near, far)] == [2, MONSTERS["zombie"]["move"] + 2]
    k4 = edit(after, lambda w: goto(w, "K4"))
    assert (k4["monsters"][near]["atk"], k4["monsters"][far]["atk"]) == (0, 1)
    # It ends with that Keeper turn (K5.3).
    k5 = edit(k4, lambda w: turns.resolve_and_end_keeper_turn(w))
    assert not any(m["frozen"] for m in k5["monsters"].values())


def test_a_frozen_vampire_takes_no_bat_form_and_blizzard_skips_zorkal():
    s = position("A.v", (8, 13), phase="H3")
    s = open_gate(level(s, "almanor", 2, "H3"))
    s = edit(s, lambda w: w.s["zorkal"].update(cell=c(9, 14)))  # area distance 2
    vamp = monster_at(s, 10, 13)
    after = act(s, seat_of(s, "almanor"), ability("almanor", "alm.blizzard"))
    assert after["monsters"][vamp]["frozen"] is True
    k3 = edit(after, lambda w: goto(w, "K3"))
    assert not any(a["type"] == "bat_form" for a in legal(k3, "keeper"))
    assert k3["zorkal"]["mv"] == 6  # the cloak: Zorkal is never Frozen (content 2.4)


# ---------------------------------------------------------------------------------------
# Choros


def test_round_attack_hits_every_adjacent_creature_once_with_one_action():
    s = position(
        """
        ..b..
        .rCh.
        ..r..
        """,
        (9, 12),
        phase="H3",
    )
    s = level(s, "choros", 2, "H3")  # 2 actions: the Round attack is still once per turn
    beast, ghost = monster_at(s, 11, 12), monster_at(s, 12, 13)
    seat = seat_of(s, "choros")
    after = act(s, seat, {"type": "attack", "hero": "choros", "with": "cho.whirlwind"})
    assert set(after["monsters"]) == {beast, ghost}
    assert (after["monsters"][beast]["dmg"], after["monsters"][ghost]["dmg"]) == (1, 1)
    assert after["heroes"]["choros"]["xp"] == 2 and after["heroes"]["choros"]["actions"] == 1
    # Tactical advance (cho.advance): the cells the kills emptied, default "stay".
    assert after["prompt"]["kind"] == "tactical_advance"
    assert GAME.default_action(after, seat) == {"type": "choose", "answer": "stay"}
    stepped = answer(after, to=[10, 13])
    ch = stepped["heroes"]["choros"]
    assert at(stepped, 10, 13) == "choros" and ch["moved"] is True and ch["mv"] == s["heroes"]["choros"]["mv"]
    assert not any(a.get("with") == "cho.whirlwind" for a in legal(stepped, seat, "attack"))


def test_tactical_advance_only_after_an_axe_kill_onto_a_free_cell_and_never_under_icy_prison():
    s = position(".Cb", (9, 13), phase="H3")
    seat = seat_of(s, "choros")
    beast = monster_at(s, 11, 13)
    hurt = act(s, seat, {"type": "attack", "hero": "choros", "with": "cho.axe", "target": beast})
    assert hurt["prompt"] is None  # no kill, no advance
    s = edit(s, lambda w: w.monster(beast).update(dmg=1))
    killed = act(s, seat, {"type": "attack", "hero": "choros", "with": "cho.axe", "target": beast})
    assert killed["prompt"]["data"]["cells"] == [c(11, 13)]
    icy = edit(s, lambda w: w.s["effects"].update({"R03": {"until": "hero_turn_end", "heroes": ["choros"]}}))
    killed = act(icy, seat, {"type": "attack", "hero": "choros", "with": "cho.axe", "target": beast})
    assert beast not in killed["monsters"] and killed["prompt"] is None


def test_tactical_advance_draws_the_treasure_on_the_cell():
    s = position(".Cr", (9, 13), phase="H3")
    s = edit(s, lambda w: w.s.update(tokens=[c(11, 13)]))
    seat = seat_of(s, "choros")
    s = act(s, seat, {"type": "attack", "hero": "choros", "with": "cho.axe", "target": monster_at(s, 11, 13)})
    after = answer(s, to=[11, 13])
    assert at(after, 11, 13) == "choros" and after["tokens"] == []  # ruling 35


def test_bloody_run_pays_a_life_for_three_steps_as_often_as_wanted():
    s = level(position("C", (9, 13), phase="H2"), "choros", 2, "H2", life=3)
    seat = seat_of(s, "choros")
    assert abilities(position("C", (9, 13), phase="H2"), "choros") == []  # level 2
    blood = s["blood"]
    s = act(s, seat, ability("choros", "cho.bloodyrun"))
    s = act(s, seat, ability("choros", "cho.bloodyrun"))
    assert s["heroes"]["choros"]["life"] == 1 and s["heroes"]["choros"]["mv"][0] == 6 + 6
    assert s["blood"] == blood + 2
    assert abilities(s, "choros") == []  # 1 life left: no more (ruling 32)
    icy = edit(
        level(position("C", (9, 13), phase="H2"), "choros", 2, "H2"),
        lambda w: w.s["effects"].update({"R03": {"until": "hero_turn_end", "heroes": ["choros"]}}),
    )
    assert abilities(icy, "choros") == []  # content 4.5: Icy Prison + bloody run, no steps


# ---------------------------------------------------------------------------------------
# Eleanor


def test_piercing_attack_hits_the_adjacent_creature_and_the_one_beyond():
    s = level(position("Ezb", (9, 13), phase="H3"), "eleanor", 2, "H3")
    zombie, beast = monster_at(s, 10, 13), monster_at(s, 11, 13)
    seat = seat_of(s, "eleanor")
    after = act(s, seat, {"type": "attack", "hero": "eleanor", "with": "ele.pierce", "target": zombie})
    assert zombie not in after["monsters"] and after["monsters"][beast]["dmg"] == 1
    el = after["heroes"]["eleanor"]
    assert (el["xp"], el["actions"]) == (1, 1)
    assert not any(a["with"] == "ele.pierce" for a in legal(after, seat, "attack"))  # once per turn
    # A hero beyond takes nothing.
    s = level(position("EzC", (9, 13), phase="H3"), "eleanor", 2, "H3")
    life = s["heroes"]["choros"]["life"]
    after = act(
        s, seat, {"type": "attack", "hero": "eleanor", "with": "ele.pierce", "target": monster_at(s, 10, 13)}
    )
    assert after["heroes"]["choros"]["life"] == life and after["monsters"] == {}


def test_elven_walk_teleports_five_before_any_step_and_then_no_more_steps():
    s = position("E", (9, 13), phase="H2")
    seat = seat_of(s, "eleanor")
    walks = abilities(s, "eleanor", "ele.elvenwalk")
    assert ability("eleanor", "ele.elvenwalk", to=[14, 13]) in walks
    assert ability("eleanor", "ele.elvenwalk", to=[14, 14]) not in walks  # teleport distance 6
    assert abilities(s, "eleanor", "ele.astralleap") == []  # level 3
    after = act(s, seat, ability("eleanor", "ele.elvenwalk", to=[14, 13]))
    el = after["heroes"]["eleanor"]
    assert at(after, 14, 13) == "eleanor" and el["moved"] is True and el["mv"] == [0, 0, 0]
    assert not any(a["hero"] == "eleanor" for a in legal(after, seat, "move"))
    assert abilities(after, "eleanor") == []
    stepped = act(s, seat, {"type": "move", "hero": "eleanor", "to": [10, 13]})
    assert abilities(stepped, "eleanor", "ele.elvenwalk") == []  # only before her first step


def test_elven_walk_keeps_a_blessing_class_allowance():
    # Ruling A13: the walk ends her own Move (class 1); Swiftness steps (class 3) stay.
    s = edit(position("E", (9, 13), phase="H2"), lambda w: w.s["heroes"]["eleanor"].update(mv=[7, 0, 10]))
    after = act(s, seat_of(s, "eleanor"), ability("eleanor", "ele.elvenwalk", to=[14, 13]))
    assert after["heroes"]["eleanor"]["mv"] == [0, 0, 10]


def test_astral_leap_teleports_four_mid_movement_at_no_cost_once_a_turn():
    s = level(position("E", (9, 13), phase="H2"), "eleanor", 3, "H2")
    seat = seat_of(s, "eleanor")
    s = act(s, seat, {"type": "move", "hero": "eleanor", "to": [10, 13]})
    mv = list(s["heroes"]["eleanor"]["mv"])
    assert abilities(s, "eleanor", "ele.elvenwalk") == []
    assert ability("eleanor", "ele.astralleap", to=[14, 13]) in abilities(s, "eleanor")
    assert ability("eleanor", "ele.astralleap", to=[14, 14]) not in abilities(s, "eleanor")  # 5
    after = act(s, seat, ability("eleanor", "ele.astralleap", to=[14, 13]))
    assert at(after, 14, 13) == "eleanor" and after["heroes"]["eleanor"]["mv"] == mv
    assert abilities(after, "eleanor") == []
    assert any(a["hero"] == "eleanor" for a in legal(after, seat, "move"))  # steps after it


# ---------------------------------------------------------------------------------------
# Gor


def test_regeneration_heals_gor_or_an_adjacent_hero_who_needs_it():
    s = position("GC", (9, 13), phase="H3")
    assert abilities(s, "gor") == []  # nobody hurt
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(life=2))
    assert abilities(s, "gor") == [ability("gor", "gor.regen", other="choros")]
    after = act(s, seat_of(s, "gor"), ability("gor", "gor.regen", other="choros"))
    assert after["heroes"]["choros"]["life"] == 3 and after["heroes"]["gor"]["actions"] == 0


def test_healing_aura_heals_two_adjacent_heroes_for_a_life():
    s = level(position(".E.\nCGA", (9, 12), phase="H3"), "gor", 2, "H3")
    s = edit(s, lambda w: [w.s["heroes"][h].update(life=1) for h in ("almanor", "choros", "eleanor")])
    mine = abilities(s, "gor", "gor.aura")
    assert ability("gor", "gor.aura", others=["almanor", "choros"]) in mine
    assert len(mine) == 3 + 3  # three pairs, three singles
    life = s["heroes"]["gor"]["life"]
    after = act(s, seat_of(s, "gor"), ability("gor", "gor.aura", others=["choros", "eleanor"]))
    assert [after["heroes"][h]["life"] for h in ("almanor", "choros", "eleanor")] == [1, 2, 2]
    assert after["heroes"]["gor"]["life"] == life - 1


def test_holy_peace_sends_each_adjacent_monster_away_in_the_order_and_cells_gor_chooses():
    s = position(".r.\nbGz\n...", (10, 12), phase="H3")
    s = open_gate(level(s, "gor", 3, "H3"))
    s = edit(s, lambda w: w.s["zorkal"].update(cell=c(11, 14)))  # adjacent, and immune (cloak)
    rat, beast, zombie = monster_at(s, 11, 12), monster_at(s, 10, 13), monster_at(s, 12, 13)
    seat = seat_of(s, "gor")
    s = act(s, seat, ability("gor", "gor.holypeace"))
    assert s["prompt"]["kind"] == "holy_peace" and s["prompt"]["data"]["monsters"] == [rat, beast, zombie]
    choices = legal(s, seat, "choose")
    assert {"type": "choose", "target": zombie, "to": [14, 8]} in choices  # teleport distance 7
    assert {"type": "choose", "target": zombie, "to": [3, 10]} not in choices  # far beyond 8
    assert not any(a["to"] == [11, 14] for a in choices)  # Zorkal's cell: not a legal cell
    s = answer(s, target=zombie, to=[14, 8])
    s = answer(s, target=rat, to=[9, 13])
    assert s["prompt"]["data"]["monsters"] == [beast]
    s = answer(s, target=beast, to=[14, 14])
    assert s["prompt"] is None
    assert (at(s, 14, 8), at(s, 9, 13), at(s, 14, 14), at(s, 11, 14)) == (zombie, rat, beast, ZORKAL)
    assert all(m["dmg"] == 0 for m in s["monsters"].values())


def test_apocalypse_hits_every_creature_within_three_zorkal_included_not_heroes_or_obstacles():
    s = position("G..b\n.C..r", (9, 12), phase="H3")
    s = open_gate(level(s, "gor", 3, "H3"))
    s = edit(
        s, lambda w: (w.s["zorkal"].update(cell=c(9, 14)), obstacles.place(w, c(10, 14), obstacles.CAVE_IN))
    )
    beast, far = monster_at(s, 12, 12), monster_at(s, 13, 13)  # area distance 3 and 5
    life = s["heroes"]["choros"]["life"]
    after = act(s, seat_of(s, "gor"), ability("gor", "gor.apocalypse"))
    assert after["monsters"][beast]["dmg"] == 1 and after["monsters"][far]["dmg"] == 0  # 5 away
    assert after["zorkal"]["life"] == s["zorkal"]["life"] - 1
    assert after["heroes"]["choros"]["life"] == life
    assert after["obstacles"][next(iter(after["obstacles"]))]["life"] == 3


# ---------------------------------------------------------------------------------------
# Guelin


def test_inexorable_advance_shoots_at_the_start_of_movement_and_the_actions_are_gone_for_h3():
    s = position("U..r\n.b..", (9, 13), phase="H1")
    s = level(s, "guelin", 3, "H1")  # 2 attacks at level 3
    seat = seat_of(s, "guelin")
    rat, beast = monster_at(s, 12, 13), monster_at(s, 10, 14)
    s = edit(s, lambda w: turns.enter_phase(w, "H2"))
    assert s["prompt"]["kind"] == "inexorable_advance" and s["prompt"]["seat"] == seat
    assert GAME.default_action(s, seat) == {"type": "choose", "answer": "stop"}
    assert legal(s, seat, "choose")[1:] == [{"type": "choose", "target": m} for m in (rat, beast)]
    assert legal(s, seat, "move") == []  # nobody moves before he answers (content 5.3 H2.1)
    s = answer(s, target=rat)
    assert rat not in s["monsters"] and s["heroes"]["guelin"]["xp"] == 1
    assert s["prompt"]["kind"] == "inexorable_advance"  # one action left: asked again
    assert legal(s, seat, "choose")[1:] == [{"type": "choose", "target": beast}]
    s = answer(s, answer="stop")
    assert s["prompt"] is None
    h3 = edit(s, lambda w: turns.enter_phase(w, "H3"))
    assert h3["heroes"]["guelin"]["actions"] == 2 - 1


def test_knife_master_at_the_start_of_the_hero_turn():
    s = position("Ur.", (9, 13), phase="H3")
    s = edit(s, lambda w: w.s["heroes"]["guelin"].update(level=2))
    rat = monster_at(s, 10, 13)
    s = edit(s, lambda w: turns.start_hero_turn(w))
    seat = seat_of(s, "guelin")
    assert s["prompt"]["kind"] == "knife_master" and s["phase"] == "H1"
    assert GAME.default_action(s, seat) == {"type": "choose", "answer": "skip"}
    after = answer(s, target=rat)
    assert rat not in after["monsters"] and after["heroes"]["guelin"]["xp"] == 1
    assert "gue.knife" in after["heroes"]["guelin"]["used"]
    level1 = edit(position("Ur.", (9, 13), phase="H3"), lambda w: turns.start_hero_turn(w))
    assert level1["prompt"] is None  # level 2 ability


# ---------------------------------------------------------------------------------------
# The block window (zor.sparry, R12 Zombie Frenzy)


def test_zombie_frenzy_blocks_each_zombie_once_per_hero_turn_and_the_action_is_spent():
    s = level(position("Cz", (9, 13), phase="H3"), "choros", 2, "H3")
    s = edit(s, lambda w: w.s["rituals_in_play"].append("R12"))
    zombie = monster_at(s, 10, 13)
    seat = seat_of(s, "choros")
    axe = {"type": "attack", "hero": "choros", "with": "cho.axe", "target": zombie}
    s = act(s, seat, axe)
    assert s["prompt"]["kind"] == "block" and s["prompt"]["seat"] == "keeper"
    assert GAME.default_action(s, "keeper") == {"type": "choose", "answer": "block"}
    s = answer(s, answer="block")
    assert zombie in s["monsters"] and s["heroes"]["choros"]["actions"] == 1
    s = act(s, seat, axe)  # that zombie's block is used: no prompt
    assert s["prompt"] is None or s["prompt"]["kind"] == "tactical_advance"
    assert zombie not in s["monsters"]


def test_each_round_attack_hit_has_its_own_block():
    s = position("zCz", (9, 13), phase="H3")
    s = edit(s, lambda w: w.s["rituals_in_play"].append("R12"))
    left, right = monster_at(s, 9, 13), monster_at(s, 11, 13)
    s = act(s, seat_of(s, "choros"), {"type": "attack", "hero": "choros", "with": "cho.whirlwind"})
    assert s["prompt"]["data"]["target"] == left
    s = answer(s, answer="block")
    assert s["prompt"]["data"]["target"] == right
    s = answer(s, answer="let_through")
    assert left in s["monsters"] and right not in s["monsters"]
    assert s["prompt"]["kind"] == "tactical_advance" and s["prompt"]["data"]["cells"] == [c(11, 13)]


def test_sinister_parry_from_zorkal_level_two_once_per_hero_turn_never_against_spells():
    s = open_gate(position("R@A", (10, 3), phase="H3"), zorkal_level=2)
    rapier = {"type": "attack", "hero": "ragnar", "with": "rag.rapier", "target": ZORKAL}
    blocked = answer(act(s, seat_of(s, "ragnar"), rapier), answer="block")
    assert blocked["zorkal"]["life"] == 5 and blocked["effects"]["zor.sparry"] == "hero_turn_end"
    missile = {"type": "attack", "hero": "almanor", "with": "alm.missile", "target": ZORKAL}
    hit = act(s, seat_of(s, "almanor"), missile)
    assert hit["prompt"] is None and hit["zorkal"]["life"] == 4  # a spell: never blocked
    through = answer(act(s, seat_of(s, "ragnar"), rapier), answer="let_through")
    assert through["zorkal"]["life"] == 4
    level1 = open_gate(s, zorkal_level=1)
    assert act(level1, seat_of(s, "ragnar"), rapier)["zorkal"]["life"] == 3  # no parry at level 1


# ---------------------------------------------------------------------------------------
# Obstacles (content 6.3)


def test_weapon_attacks_and_magic_missile_hit_obstacles_exorcism_does_not():
    s = position("R.\n..\nA.", (12, 12), phase="H3")
    s = edit(s, lambda w: obstacles.place(w, c(13, 12), obstacles.CAVE_IN))
    (oid,) = s["obstacles"]
    rapier = {"type": "attack", "hero": "ragnar", "with": "rag.rapier", "target": oid}
    missile = {"type": "attack", "hero": "almanor", "with": "alm.missile", "target": oid}
    assert rapier in legal(s, seat_of(s, "ragnar"), "attack")
    assert missile in legal(s, seat_of(s, "almanor"), "attack")
    after = act(s, seat_of(s, "ragnar"), rapier)
    assert after["obstacles"][oid]["life"] == 2 and after["heroes"]["ragnar"]["xp"] == 0
    g = position("G", (12, 12), phase="H3")
    g = edit(g, lambda w: obstacles.place(w, c(13, 12), obstacles.CAVE_IN))
    assert legal(g, seat_of(g, "gor"), "attack") == []
    ch = position("C", (12, 12), phase="H3")
    ch = edit(ch, lambda w: obstacles.place(w, c(13, 12), obstacles.CAVE_IN))
    (oid,) = ch["obstacles"]
    # The Round attack hits creatures only (content 6.3): not offered on an obstacle alone.
    assert legal(ch, seat_of(ch, "choros"), "attack") == [
        {"type": "attack", "hero": "choros", "with": "cho.axe", "target": oid}
    ]


def test_spells_on_a_frenzied_zombie_are_never_blocked():
    # R12: "Spells, items and cards cannot be cancelled."
    s = edit(position("Gz", (9, 13), phase="H3"), lambda w: w.s["rituals_in_play"].append("R12"))
    zombie = monster_at(s, 10, 13)
    after = act(
        s, seat_of(s, "gor"), {"type": "attack", "hero": "gor", "with": "gor.exorcism", "target": zombie}
    )
    assert after["prompt"] is None and zombie not in after["monsters"]


def test_an_ability_out_of_reach_is_refused_with_its_rule():
    s = position("A", (9, 13), phase="H3")
    try:
        GAME.validate(s, seat_of(s, "almanor"), ability("almanor", "alm.fireball", to=[14, 13]))
    except IllegalAction as e:
        assert e.code == "illegal_ability" and "ability" in e.message
    else:
        raise AssertionError("a fireball at magic distance 5 was accepted")
    h2 = position("A", (9, 13), phase="H2")  # spells belong to the attack step
    assert abilities(h2, "almanor") == []


def test_almanors_teleport_onto_a_pad_draws_thorny_portals_and_occupies_both_cells():
    # Content 4.5: "Thorny Portals + Scroll of Teleport / Almanor's teleport onto a pad: loses 1 life".
    s = level(position("A.", (12, 14), phase="H3"), "almanor", 2, "H3")
    s = edit(s, lambda w: w.s["rituals_in_play"].append("R10"))
    life, blood = s["heroes"]["almanor"]["life"], s["blood"]
    after = act(s, seat_of(s, "almanor"), ability("almanor", "alm.teleport", other="almanor", to=[14, 14]))
    assert (at(after, 14, 14), at(after, 5, 5)) == ("almanor", "almanor")
    assert after["heroes"]["almanor"]["life"] == life - 1 and after["blood"] == blood + 1


def test_each_round_attack_hit_on_zorkal_meets_his_sinister_parry_once():
    s = open_gate(position("z", (11, 4), phase="H3"), zorkal_level=2)
    s = edit(
        s, lambda w: (w.s["zorkal"].update(cell=c(12, 3)), w.s["heroes"]["choros"].update(cell=c(12, 4)))
    )
    s = edit(s, lambda w: goto(w, "H3"))
    zombie = monster_at(s, 11, 4)
    s = act(s, seat_of(s, "choros"), {"type": "attack", "hero": "choros", "with": "cho.whirlwind"})
    # Reading order: Zorkal at (12,3) first; the zombie (no Frenzy in play) is hit at once after.
    assert s["prompt"]["kind"] == "block" and s["prompt"]["data"]["target"] == ZORKAL
    s = answer(s, answer="block")
    assert s["zorkal"]["life"] == 5 and zombie not in s["monsters"]
