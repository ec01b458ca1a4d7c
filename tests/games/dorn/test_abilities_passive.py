"""Passive, triggered and heal-step hero abilities, parries and creature-attack targeting (content
2.3, 3.3, 5.2 K4, 5.3 H4, 5.10; rulings 9, 37, 38, 42, 48, P1-P8 in docs/rules/dorn.md): each on
an exact position, asserting the life, cells, flags and actions that result."""

from __future__ import annotations

from backend.games.dorn.catalog import hero_stat
from backend.games.dorn.rules import combat, movement, obstacles, parries, summoning, triggers, turns
from backend.games.dorn.state import ZORKAL, Work

from .position import GAME, act, c, edit, goto, legal, monster_at, position, seat_of


def keeper_attacks(s: dict) -> set[tuple[str, str]]:
    return {(a["figure"], a["target"]) for a in legal(s, "keeper", "attack")}


def level(s: dict, hid: str, lv: int, phase: str, **more) -> dict:
    """The hero at level ``lv`` (its max life there unless ``life`` is given), ``phase`` reopened."""

    def up(w: Work) -> None:
        h = w.s["heroes"][hid]
        h.update(level=lv, life=hero_stat(hid, "life", lv))
        goto(w, phase)
        h.update(**more)  # after the step opens (it sets actions and parries)

    return edit(s, up)


def end_hero_step(s: dict) -> dict:
    """Every hero seat still in the step sends done (the step ends with the last one)."""
    phase = s["phase"]
    while s["phase"] == phase and s["prompt"] is None:
        seat = next(o for o in sorted(GAME.to_act(s)) if o not in s["done"])
        s = act(s, seat, {"type": "done"})
    return s


def declare_all(s: dict, order: list[tuple[str, str]] | None = None) -> dict:
    """K4: declare ``order`` (creature, hero) first, then every other listed attack."""
    for figure, target in order or []:
        s = act(s, "keeper", {"type": "attack", "figure": figure, "target": target})
    while legal(s, "keeper", "attack"):
        s = act(s, "keeper", legal(s, "keeper", "attack")[0])
    if s["phase"] == turns.DECLARATIONS:
        s = act(s, "keeper", {"type": "done"})
    return s


def _place(s: dict, mtype: str, x: int, y: int) -> dict:
    return edit(s, lambda w: summoning.place_monster(w, mtype, c(x, y), keeper_turn=False, why="test"))


def parry_defaults(s: dict) -> dict:
    while s["phase"] == turns.PARRIES and s["prompt"] is None and parries.parry_seats(Work(s, copy=False)):
        seat = sorted(o for o in GAME.to_act(s))[0]
        s = act(s, seat, {"type": "done"})
    return s


# -- Creature attacks a hero is immune to (content 3.3) -------------------------------------


def test_ele_pikemastery_skeletons_may_not_target_eleanor_at_level_three():
    s = position("s.E", (8, 8), phase="K4")
    skeleton = monster_at(s, 8, 8)
    assert keeper_attacks(s) == {(skeleton, "eleanor")}
    assert keeper_attacks(level(s, "eleanor", 2, "K4")) == {(skeleton, "eleanor")}
    assert keeper_attacks(level(s, "eleanor", 3, "K4")) == set()
    # Other creatures still may: a rat next to her.
    s = level(position("s.Er", (8, 8), phase="K4"), "eleanor", 3, "K4")
    assert keeper_attacks(s) == {(monster_at(s, 11, 8), "eleanor")}


def test_rie_avoid_gorgons_never_target_riel():
    s = position("o.I", (8, 8), phase="K4")
    assert keeper_attacks(s) == set()
    assert keeper_attacks(position("oI", (8, 8), phase="K4")) == set()  # not even adjacent
    s = position("o.R", (8, 8), phase="K4")
    assert keeper_attacks(s) == {(monster_at(s, 8, 8), "ragnar")}
    s = position("rI", (8, 8), phase="K4")  # other monsters may
    assert keeper_attacks(s) == {(monster_at(s, 8, 8), "riel")}


def test_kae_aura_blocks_attacks_from_two_or_more_away_at_level_three():
    # Ruling 48: a skeleton's pike (always 2 away) and a gorgon's shot from 2-3 cells cannot be
    # declared on Kaerdrak L3; adjacent attacks can.
    s = position("s.K..o", (8, 8), phase="K4")
    skeleton, gorgon = monster_at(s, 8, 8), monster_at(s, 13, 8)
    assert keeper_attacks(s) == {(skeleton, "kaerdrak"), (gorgon, "kaerdrak")}
    assert keeper_attacks(level(s, "kaerdrak", 2, "K4")) == {(skeleton, "kaerdrak"), (gorgon, "kaerdrak")}
    assert keeper_attacks(level(s, "kaerdrak", 3, "K4")) == set()
    near = level(position("rKo", (8, 8), phase="K4"), "kaerdrak", 3, "K4")
    assert keeper_attacks(near) == {
        (monster_at(near, 8, 8), "kaerdrak"),
        (monster_at(near, 10, 8), "kaerdrak"),
    }
    # Zorkal's pitchfork is melee (ruling 42): never blocked by the aura.
    z = position("", phase="K1", heroes=["kaerdrak"])
    z = edit(z, lambda w: (w.s.update(gate=True), w.s["heroes"]["kaerdrak"].update(cell=c(11, 2))))
    z = level(z, "kaerdrak", 3, "K4")
    assert keeper_attacks(z) == {(ZORKAL, "kaerdrak")}


def test_manhattan_distance_is_taken_from_the_nearer_pad_cell():
    assert triggers.manhattan(c(8, 8), c(10, 8)) == 2
    assert triggers.manhattan(c(8, 8), c(9, 9)) == 2


# -- Parries (content 2.2, 5.2 K4; rulings 9, 10) -------------------------------------------


def test_rag_parry_two_from_level_two_reset_at_every_keeper_turn():
    s = level(position("rRr", (11, 8), phase="K4"), "ragnar", 2, "K4", parries=0)
    w = Work(s)
    turns.start_keeper_turn(w)
    assert w.s["heroes"]["ragnar"]["parries"] == 2
    s = level(position("rRr", (11, 8), phase="K4"), "ragnar", 2, "K4")
    after = parry_defaults(declare_all(s))
    assert after["heroes"]["ragnar"]["life"] == 6 and after["blood"] == 0  # both parried


def test_default_parries_of_ragnar_level_three_prefer_creatures_next_to_him():
    # Ruling 9: mummy attacks first, then (Ragnar L3 defending) attacks from creatures next to
    # him, then declaration order.  The skeleton 2 away is declared first.
    s = position("s.Rr", (10, 8), phase="K4")
    skeleton, rat = monster_at(s, 10, 8), monster_at(s, 13, 8)
    s = _place(s, "zombie", 12, 9)
    zombie = monster_at(s, 12, 9)
    s = level(s, "ragnar", 3, "K4")
    s = declare_all(s, [(skeleton, "ragnar"), (rat, "ragnar"), (zombie, "ragnar")])
    assert s["phase"] == turns.PARRIES
    done = act(s, seat_of(s, "ragnar"), {"type": "done"})
    # The two next to him are parried; the skeleton's pike hits; then riposte (2 qualify: asked).
    assert done["heroes"]["ragnar"]["life"] == 6 - 1
    assert done["prompt"]["kind"] == parries.RIPOSTE
    assert [a["target"] for a in legal(done, seat_of(s, "ragnar"), "choose")] == [rat, zombie]
    # Which were parried: level 3 the two next to him, level 2 the first two declared.
    for lv, parried in ((3, [False, True, True]), (2, [True, True, False])):
        w = Work(level(s, "ragnar", lv, "K4P", parries=2))
        parries.finish_parries(w, seat_of(s, "ragnar"))
        assert [a["parried"] for a in w.s["attacks"]] == parried, lv


# -- Ragnar: riposte, protecting hand, transmuted blood, fencing ----------------------------


def test_rag_riposte_hurts_an_adjacent_attacker_after_the_hits_xp_to_ragnar():
    s = level(position("rR", (11, 8), phase="K4"), "ragnar", 3, "K4", xp=12)
    rat = monster_at(s, 11, 8)
    after = parry_defaults(declare_all(s))
    assert rat not in after["monsters"]  # 1 damage kills it
    h = after["heroes"]["ragnar"]
    assert (h["life"], h["xp"]) == (6, 13) and "rag.riposte" in h["used"]
    assert after["phase"] == turns.BLOOD_STEP or after["phase"] in turns.HERO_PHASES
    # A parried attack from 2 away (a skeleton's pike) is not riposted.
    s = level(position("s.R", (10, 8), phase="K4"), "ragnar", 3, "K4")
    after = parry_defaults(declare_all(s))
    assert monster_at(after, 10, 8) and "rag.riposte" not in after["heroes"]["ragnar"]["used"]
    # Below level 3 there is no riposte.
    s = level(position("rR", (11, 8), phase="K4"), "ragnar", 2, "K4")
    assert monster_at(parry_defaults(declare_all(s)), 11, 8)


def test_rag_riposte_asks_when_several_qualify_and_comes_once_per_keeper_turn():
    s = level(position("rRr", (11, 8), phase="K4"), "ragnar", 3, "K4")
    first, second = monster_at(s, 11, 8), monster_at(s, 13, 8)
    s = parry_defaults(declare_all(s, [(first, "ragnar"), (second, "ragnar")]))
    seat = seat_of(s, "ragnar")
    assert s["prompt"]["kind"] == parries.RIPOSTE and s["prompt"]["seat"] == seat
    answers = legal(s, seat, "choose")
    assert answers == [{"type": "choose", "target": first}, {"type": "choose", "target": second}]
    assert GAME.default_action(s, seat) == answers[0]  # content 5.10: earliest declared
    after = act(s, seat, answers[1])
    assert first in after["monsters"] and second not in after["monsters"]
    assert after["heroes"]["ragnar"]["xp"] == 1 and after["prompt"] is None


def test_rag_riposte_none_when_ragnar_dies_in_the_hits():
    # Ruling P3: the hits come first (K4.3); a dead Ragnar ripostes nobody.
    s = position("rR", (11, 8), phase="K4")
    s = _place(_place(s, "rat", 12, 9), "rat", 13, 8)
    s = level(s, "ragnar", 3, "K4", life=1)
    rats = [monster_at(s, 11, 8), monster_at(s, 12, 9), monster_at(s, 13, 8)]
    after = parry_defaults(declare_all(s))
    assert not after["heroes"]["ragnar"]["alive"]
    assert all(r in after["monsters"] and after["monsters"][r]["dmg"] == 0 for r in rats)


def test_rag_hand_spends_a_left_over_parry_on_an_attack_on_an_adjacent_hero():
    # Ragnar L3 at (12,8), nobody attacks him; Almanor at (13,8) is attacked by two rats and
    # parries one; Ragnar's protecting hand parries the other (content 5.2 K4.2).
    s = position(
        "",
        phase="K4",
        heroes=["ragnar", "almanor"],
        split=[["ragnar"], ["almanor", "choros", "eleanor", "gor"]],
    )

    def put(w: Work) -> None:
        w.s["heroes"]["ragnar"]["cell"] = c(12, 8)
        w.s["heroes"]["almanor"]["cell"] = c(13, 8)
        summoning.place_monster(w, "rat", c(14, 8), keeper_turn=False, why="test")
        summoning.place_monster(w, "mummy", c(13, 9), keeper_turn=False, why="test")
        w.moved()

    s = edit(s, put)
    s = level(s, "ragnar", 3, "K4")
    rat, mummy = monster_at(s, 14, 8), monster_at(s, 13, 9)
    s = declare_all(s, [(rat, "almanor"), (mummy, "almanor"), (mummy, "almanor")])
    alm_seat, rag_seat = seat_of(s, "almanor"), seat_of(s, "ragnar")
    s = act(s, alm_seat, {"type": "parry", "attack": 1})  # a mummy attack
    assert s["prompt"]["kind"] == parries.HAND and s["prompt"]["seat"] == rag_seat
    answers = legal(s, rag_seat, "choose")
    # The default is the first unparried mummy attack, then the earliest declared; or keep it.
    assert answers == [
        {"type": "choose", "target": mummy, "hero": "almanor"},
        {"type": "choose", "target": rat, "hero": "almanor"},
        {"type": "choose", "skip": True},
    ]
    after = act(s, rag_seat, answers[0])
    alm = after["heroes"]["almanor"]
    assert (alm["life"], alm["rot"]) == (3 - 1, False)  # only the rat's attack hit
    assert after["heroes"]["ragnar"]["parries"] == 1 and "rag.hand" in after["heroes"]["ragnar"]["used"]
    kept = act(s, rag_seat, answers[2])
    assert kept["heroes"]["almanor"]["life"] == 3 - 2 and kept["heroes"]["almanor"]["rot"]
    # Below level 3 nobody is asked.
    low = level(edit(s, lambda w: None), "ragnar", 2, "K4")
    low = declare_all(low, [(rat, "almanor"), (mummy, "almanor"), (mummy, "almanor")])
    low = act(low, alm_seat, {"type": "parry", "attack": 1})
    assert low["prompt"] is None and low["heroes"]["almanor"]["life"] == 1


def test_rag_blood_no_rot_from_level_two_and_level_two_ends_it():
    s = level(position("mR", (11, 8), phase="K4"), "ragnar", 2, "K4", parries=0)
    after = parry_defaults(declare_all(s))
    h = after["heroes"]["ragnar"]
    assert h["life"] == 6 - 2 and h["rot"] is False
    low = edit(position("mR", (11, 8), phase="K4"), lambda w: w.s["heroes"]["ragnar"].update(parries=0))
    low = edit(low, lambda w: turns.enter_phase(w, "K4"))
    assert parry_defaults(declare_all(low))["heroes"]["ragnar"]["rot"] is True  # level 1
    rotting = edit(
        position("", phase="H3", heroes=["ragnar"]), lambda w: w.s["heroes"]["ragnar"].update(rot=True, xp=5)
    )
    w = Work(rotting)
    combat.check_levels(w)
    assert w.s["heroes"]["ragnar"]["level"] == 2 and w.s["heroes"]["ragnar"]["rot"] is False
    assert any(e.kind == "rot_ended" for e in w.events)


def test_rag_fencing_one_more_action_if_he_did_not_move():
    s = position("R.r", (11, 8), phase="H2")
    still = end_hero_step(s)
    assert still["phase"] == turns.HERO_ATTACKS and still["heroes"]["ragnar"]["actions"] == 2
    moved = act(s, seat_of(s, "ragnar"), {"type": "move", "hero": "ragnar", "to": [12, 8]})
    moved = end_hero_step(moved)
    assert moved["heroes"]["ragnar"]["actions"] == 1
    # Other heroes get no such bonus.
    s = end_hero_step(position("C.r", (11, 8), phase="H2"))
    assert s["heroes"]["choros"]["actions"] == 1


# -- Riel ----------------------------------------------------------------------------------


def _shoot(s: dict, target: str) -> dict:
    return act(
        s, seat_of(s, "riel"), {"type": "attack", "hero": "riel", "with": "rie.longbow", "target": target}
    )


def test_rie_huntress_two_damage_to_bog_beasts_from_level_two():
    s = position("I..b", (8, 8), phase="H3")
    beast = monster_at(s, 11, 8)
    assert _shoot(s, beast)["monsters"][beast]["dmg"] == 1
    s2 = level(s, "riel", 2, "H3")
    after = _shoot(s2, beast)
    assert beast not in after["monsters"] and after["heroes"]["riel"]["xp"] == 1
    rat_s = level(position("I..h", (8, 8), phase="H3"), "riel", 2, "H3")
    ghost = monster_at(rat_s, 11, 8)
    assert _shoot(rat_s, ghost)["monsters"][ghost]["dmg"] == 1  # others still take 1


def test_rie_spirit_a_strong_kill_in_the_attack_step_gives_one_more_action_once():
    assert triggers.ATTACK_STEP == turns.HERO_ATTACKS  # the leaf's copy of the step code
    s = level(position("I.hh", (8, 8), phase="H3"), "riel", 2, "H3")
    g1, g2 = monster_at(s, 10, 8), monster_at(s, 11, 8)
    s = edit(s, lambda w: (w.monster(g1).update(dmg=1), w.monster(g2).update(dmg=1)))
    assert s["heroes"]["riel"]["actions"] == 1
    s = _shoot(s, g1)
    assert g1 not in s["monsters"] and s["heroes"]["riel"]["actions"] == 1  # spent 1, got 1
    s = _shoot(s, g2)
    assert g2 not in s["monsters"] and s["heroes"]["riel"]["actions"] == 0  # once per turn
    # A weak kill gives nothing; level 1 neither.
    weak = level(position("I.r", (8, 8), phase="H3"), "riel", 2, "H3")
    assert _shoot(weak, monster_at(weak, 10, 8))["heroes"]["riel"]["actions"] == 0
    low = position("I.h", (8, 8), phase="H3")
    low = edit(low, lambda w: w.monster(monster_at(low, 10, 8)).update(dmg=1))
    assert _shoot(low, monster_at(low, 10, 8))["heroes"]["riel"]["actions"] == 0


def test_rie_eagle_longbow_range_five_at_level_three():
    s = position("I....r", (8, 8), phase="H3")
    rat = monster_at(s, 13, 8)
    assert not legal(s, seat_of(s, "riel"), "attack")
    s3 = level(s, "riel", 3, "H3")
    assert {a["target"] for a in legal(s3, seat_of(s3, "riel"), "attack")} == {rat}


# -- Vargen --------------------------------------------------------------------------------


def _claw(s: dict, target: str) -> dict:
    return act(
        s, seat_of(s, "vargen"), {"type": "attack", "hero": "vargen", "with": "var.claws", "target": target}
    )


def test_var_fresh_heals_one_after_a_rat_or_bog_beast_kill_once_per_turn():
    s = level(position("rVr", (8, 8), phase="H3"), "vargen", 1, "H3", life=3, actions=2)
    left, right = monster_at(s, 8, 8), monster_at(s, 10, 8)
    s = _claw(s, left)
    assert s["heroes"]["vargen"]["life"] == 4 and "var.fresh" in s["heroes"]["vargen"]["used"]
    s = _claw(s, right)
    assert right not in s["monsters"] and s["heroes"]["vargen"]["life"] == 4  # once per turn
    # A zombie needs stale meat (level 2).
    z = level(position("zV", (8, 8), phase="H3"), "vargen", 1, "H3", life=3)
    assert _claw(z, monster_at(z, 8, 8))["heroes"]["vargen"]["life"] == 3
    z2 = level(position("zV", (8, 8), phase="H3"), "vargen", 2, "H3", life=3)
    assert _claw(z2, monster_at(z2, 8, 8))["heroes"]["vargen"]["life"] == 4


def test_var_bite_at_full_life_is_not_spent():
    # Ruling P1: a bite that would heal nothing does not use the turn's bite.
    s = level(position("rVr", (8, 8), phase="H3"), "vargen", 1, "H3", actions=2)
    left, right = monster_at(s, 8, 8), monster_at(s, 10, 8)
    s = _claw(s, left)
    assert "var.fresh" not in s["heroes"]["vargen"]["used"]
    s = edit(s, lambda w: w.s["heroes"]["vargen"].update(life=2))
    s = _claw(s, right)
    assert s["heroes"]["vargen"]["life"] == 3 and "var.fresh" in s["heroes"]["vargen"]["used"]


def test_var_brutal_heals_after_a_strong_kill_at_level_three():
    s = level(position("hV", (8, 8), phase="H3"), "vargen", 3, "H3", life=4)
    ghost = monster_at(s, 8, 8)
    s = edit(s, lambda w: w.monster(ghost).update(dmg=1))
    after = _claw(s, ghost)
    assert after["heroes"]["vargen"]["life"] == 5 and "var.brutal" in after["heroes"]["vargen"]["used"]
    two = level(s, "vargen", 2, "H3", life=4)
    assert _claw(two, ghost)["heroes"]["vargen"]["life"] == 4


def test_var_push_through_figures_from_level_two_never_stopping_on_them():
    # Row 8 is a corridor at (6,8): walls above and below.
    s = position("Vr.", (5, 8), phase="H2")
    w = Work(s, copy=False)
    low = movement.hero_destinations(w, "vargen")
    assert low.get(c(7, 8), 99) > 2
    s2 = level(s, "vargen", 2, "H2")
    dests = movement.hero_destinations(Work(s2, copy=False), "vargen")
    assert dests[c(7, 8)] == 2 and c(6, 8) not in dests
    after = act(s2, seat_of(s2, "vargen"), {"type": "move", "hero": "vargen", "to": [7, 8]})
    assert after["heroes"]["vargen"]["cell"] == c(7, 8) and sum(after["heroes"]["vargen"]["mv"]) == 5
    # Not through a figure standing on a treasure token (ruling P5).
    on_token = edit(s2, lambda w: w.s["tokens"].append(c(6, 8)))
    assert movement.hero_destinations(Work(on_token, copy=False), "vargen").get(c(7, 8), 99) > 2
    # Never through an obstacle.
    blocked = edit(s2, lambda w: (w.s["monsters"].clear(), obstacles.place(w, c(6, 8), "cave_in")))
    assert movement.hero_destinations(Work(blocked, copy=False), "vargen").get(c(7, 8), 99) > 2


# -- H4 Heal (content 5.3 H4) ---------------------------------------------------------------


def end_turn(s: dict) -> dict:
    """The attack step ends (every seat done, prompts by their defaults) and H4 runs, up to the
    next question or the Keeper's Blood step."""
    while s["phase"] in turns.HERO_PHASES and s["prompt"] is None:
        s = end_hero_step(s)
    return s


def answer_defaults(s: dict) -> dict:
    while s["prompt"] is not None and s["prompt"]["kind"] != "kae.virtue":
        seat = s["prompt"]["seat"]
        s = act(s, seat, GAME.default_action(s, seat))
    return s


def test_gue_regen_heals_one_at_level_three():
    s = level(position("U", (11, 8), phase="H3"), "guelin", 3, "H3", life=3)
    after = end_turn(s)
    assert after["phase"] == turns.BLOOD_STEP and after["heroes"]["guelin"]["life"] == 4
    assert end_turn(level(s, "guelin", 2, "H3", life=3))["heroes"]["guelin"]["life"] == 3


def test_cho_earth_heals_two_if_he_neither_moved_nor_acted():
    s = level(position("C.r", (10, 8), phase="H3"), "choros", 3, "H3", life=4)
    assert end_turn(s)["heroes"]["choros"]["life"] == 6
    moved = edit(s, lambda w: w.s["heroes"]["choros"].update(moved=True))
    assert end_turn(moved)["heroes"]["choros"]["life"] == 4
    # An action spent (ruling P6): the axe on a rat next to him.
    s = level(position("Cr", (10, 8), phase="H3"), "choros", 3, "H3", life=4)
    hit = act(
        s,
        seat_of(s, "choros"),
        {"type": "attack", "hero": "choros", "with": "cho.axe", "target": monster_at(s, 11, 8)},
    )
    hit = answer_defaults(hit)
    assert triggers.ACTED in hit["heroes"]["choros"]["used"]
    assert end_turn(hit)["heroes"]["choros"]["life"] == 4
    assert end_turn(level(s, "choros", 2, "H3", life=4))["heroes"]["choros"]["life"] == 4  # level 3 only


def test_kae_virtue_heals_him_one_if_he_did_not_move():
    s = level(position("K", (11, 8), phase="H3"), "kaerdrak", 1, "H3", life=3)
    after = end_turn(s)
    assert after["prompt"] is None and after["heroes"]["kaerdrak"]["life"] == 4
    assert "kae.virtue" in after["heroes"]["kaerdrak"]["used"]
    moved = edit(s, lambda w: w.s["heroes"]["kaerdrak"].update(moved=True))
    assert end_turn(moved)["heroes"]["kaerdrak"]["life"] == 3


def test_kae_virtue_or_touch_is_asked_in_h4_and_the_heroes_after_him_wait():
    # Kaerdrak L2 at (11,8) damaged, Ragnar beside him damaged, Vargen in Argos after him.
    s = position("KR", (11, 8), phase="H3", heroes=["vargen"])
    s = level(s, "kaerdrak", 2, "H3", life=4)
    s = edit(s, lambda w: (w.s["heroes"]["ragnar"].update(life=2), w.s["heroes"]["vargen"].update(life=3)))
    seat = seat_of(s, "kaerdrak")
    asked = end_turn(s)
    assert asked["prompt"]["kind"] == "kae.virtue" and asked["prompt"]["seat"] == seat
    answers = legal(asked, seat, "choose")
    assert answers == [{"type": "choose", "hero": "kaerdrak"}, {"type": "choose", "hero": "ragnar"}]
    assert GAME.default_action(asked, seat) == answers[0]  # virtue: he is damaged
    assert asked["heroes"]["vargen"]["life"] == 3  # Vargen heals after Kaerdrak's choice
    after = act(asked, seat, answers[1])
    h = after["heroes"]
    assert (h["kaerdrak"]["life"], h["ragnar"]["life"], h["vargen"]["life"]) == (4, 3, 5)
    assert after["phase"] == turns.BLOOD_STEP and "kae.touch" in h["kaerdrak"]["used"]
    assert "healed" not in h["vargen"]["used"]


def test_kae_touch_default_is_the_most_damaged_adjacent_hero():
    s = position("AKR", (10, 8), phase="H3")
    s = level(s, "kaerdrak", 2, "H3")
    s = edit(s, lambda w: (w.s["heroes"]["almanor"].update(life=2), w.s["heroes"]["ragnar"].update(life=2)))
    asked = end_turn(s)
    seat = seat_of(s, "kaerdrak")
    # Full life: no virtue; Ragnar (3 below max) before Almanor (1 below).
    assert legal(asked, seat, "choose") == [
        {"type": "choose", "hero": "ragnar"},
        {"type": "choose", "hero": "almanor"},
    ]
    after = act(asked, seat, GAME.default_action(asked, seat))
    assert (after["heroes"]["ragnar"]["life"], after["heroes"]["almanor"]["life"]) == (3, 2)
    # One heal possible: made without asking (ruling P4).
    one = edit(s, lambda w: w.s["heroes"]["almanor"].update(life=3))
    done = end_turn(one)
    assert done["prompt"] is None and done["heroes"]["ragnar"]["life"] == 3


def test_triggered_abilities_are_named_in_their_events_for_the_usage_tally():
    from backend.engine.usage import usage_keys

    s = level(position("rR", (11, 8), phase="K4"), "ragnar", 3, "K4")
    declare = {"type": "attack", "figure": monster_at(s, 11, 8), "target": "ragnar"}
    t = GAME.apply(s, "keeper", declare)  # the only attack: the step runs to its end
    assert "ability:rag.riposte" in usage_keys(declare, t.events)
    s = level(position("rV", (8, 8), phase="H3"), "vargen", 1, "H3", life=3)
    action = {"type": "attack", "hero": "vargen", "with": "var.claws", "target": monster_at(s, 8, 8)}
    t = GAME.apply(s, seat_of(s, "vargen"), action)
    assert "ability:var.fresh" in usage_keys(action, t.events)
    s = position("R", (11, 8), phase="H2")
    seat = seat_of(s, "ragnar")
    events = []
    while s["phase"] == turns.HERO_MOVES:
        who = next(o for o in sorted(GAME.to_act(s)) if o not in s["done"])
        t = GAME.apply(s, who, {"type": "done"})
        s, events = t.state, events + list(t.events)
    assert seat and "ability:rag.fencing" in usage_keys({"type": "done"}, events)


def test_rag_riposte_answers_zorkal_too():
    # Ruling 42: Zorkal's pitchfork attacks are creature attacks, so they can be riposted.
    s = position("", phase="K1", heroes=["ragnar"])
    s = edit(s, lambda w: (w.s.update(gate=True), w.s["heroes"]["ragnar"].update(cell=c(11, 2))))
    s = level(s, "ragnar", 3, "K4")
    after = parry_defaults(declare_all(s))
    assert after["zorkal"]["life"] == 4 - 1 and after["heroes"]["ragnar"]["life"] == 6
    assert "rag.riposte" in after["heroes"]["ragnar"]["used"]


MINE = [
    "ele.pikemastery",
    "gue.regen",
    "cho.earth",
    "kae.virtue",
    "kae.touch",
    "kae.aura",
    "rag.fencing",
    "rag.parry",
    "rag.blood",
    "rag.riposte",
    "rag.hand",
    "rie.avoid",
    "rie.huntress",
    "rie.spirit",
    "rie.eagle",
    "var.fresh",
    "var.stale",
    "var.brutal",
    "var.push",
]


def test_every_passive_ability_has_its_entry_with_levels_and_text():
    # data/heroes.json: the levels the rules read and the words the table shows (content 2.3).
    expected = {
        "cho.earth": [3],
        "kae.touch": [2, 3],
        "rag.riposte": [3],
        "var.push": [2, 3],
        "rie.eagle": [3],
    }
    for ability in MINE:
        assert ability in triggers.LEVELS and triggers.NAMES[ability], ability
        assert triggers.LEVELS[ability] == expected.get(ability, triggers.LEVELS[ability])
    assert hero_stat("ragnar", "parry", 2) == 2 and hero_stat("ragnar", "parry", 1) == 1
