"""Attacks with range and line of sight, parries, damage, blood, XP and levels (RB Melee,
Shooting, Pike, Magic, Monster Attack, Leveling; content 2.2, 3.3, 5.2 K4, 5.5; rulings 1-9,
12, 22, 23, 25, 26)."""

from backend.games.dorn.rules import combat, summoning
from backend.games.dorn.state import ZORKAL, Work

from .position import act, c, edit, goto, legal, monster_at, position, seat_of


def hero_attacks(state, hero):
    return {
        (a["with"], a["target"]) for a in legal(state, seat_of(state, hero), "attack") if a["hero"] == hero
    }


def keeper_attacks(state):
    return {(a["figure"], a["target"]) for a in legal(state, "keeper", "attack")}


def test_melee_is_orthogonal_only():
    # Ruling 1: a rat at (12,9) and a hero at (11,10) -> no melee.
    s = position("R.\n.r", (11, 9), phase="K4")
    assert keeper_attacks(s) == set()
    s = position("Rr", (11, 9), phase="K4")
    assert keeper_attacks(s) == {(monster_at(s, 12, 9), "ragnar")}
    h = position("Rr", (11, 9), phase="H3")
    assert hero_attacks(h, "ragnar") == {("rag.rapier", monster_at(h, 12, 9))}


def test_skeleton_pike_exactly_two_in_a_straight_line():
    # Ruling 7: skeleton (11,8), hero (11,10) -> may; hero at (12,9) -> may not.
    s = position("s.\n..\nR.", (11, 8), phase="K4")
    assert keeper_attacks(s) == {(monster_at(s, 11, 8), "ragnar")}
    s = position("s.\n.R\n..", (11, 8), phase="K4")
    assert keeper_attacks(s) == set()
    s = position("sR", (11, 8), phase="K4")  # adjacent: a skeleton cannot attack
    assert keeper_attacks(s) == set()
    s = position("s\nE\nR", (11, 8), phase="K4")  # a hero in the middle blocks its pike
    assert keeper_attacks(s) == set()


def test_eleanor_pike_and_pike_expert():
    s = position("E.r", (8, 8), phase="H3")
    rat = monster_at(s, 10, 8)
    assert hero_attacks(s, "eleanor") == {("ele.pike", rat)}
    s = position("Ezr", (8, 8), phase="H3")  # a creature in the middle blocks; L1 not adjacent
    assert hero_attacks(s, "eleanor") == set()
    s = position("ERr", (8, 8), phase="H3")  # heroes never block heroes
    assert ("ele.pike", monster_at(s, 10, 8)) in hero_attacks(s, "eleanor")
    s = edit(position("Er", (8, 8), phase="H2"), lambda w: w.s["heroes"]["eleanor"].update(level=2))
    s = edit(s, lambda w: goto(w, "H3"))
    # Pike expert, and the Piercing attack on the same adjacent rat (content 2.3 ele.pierce).
    assert hero_attacks(s, "eleanor") == {(a, monster_at(s, 9, 8)) for a in ("ele.pikeexpert", "ele.pierce")}


def test_shooting_range_is_counted_and_needs_line_of_sight():
    # Ruling 2: Riel at (8,8) cannot shoot (14,8) at L1 (6 > 4) nor at L3 (6 > 5).
    s = position("I.....r", (8, 8), phase="H3")
    assert hero_attacks(s, "riel") == set()
    s3 = edit(s, lambda w: w.s["heroes"]["riel"].update(level=3, actions=2))
    assert hero_attacks(s3, "riel") == set()
    s = position("I...r", (8, 8), phase="H3")
    assert hero_attacks(s, "riel") == {("rie.longbow", monster_at(s, 12, 8))}
    # Ruling 4: a creature in the way blocks; a hero does not.
    s = position("I.zr", (8, 8), phase="H3")
    assert hero_attacks(s, "riel") == {("rie.longbow", monster_at(s, 10, 8))}
    s = position("I.Rr", (8, 8), phase="H3")
    assert ("rie.longbow", monster_at(s, 11, 8)) in hero_attacks(s, "riel")
    # The pillar at (10,9) blocks (8,9) -> (12,9) (content 1.7.6).
    s = position("", phase="H3", heroes=["riel"])
    s = edit(
        s,
        lambda w: (
            w.s["heroes"]["riel"].update(cell=c(8, 9), actions=1),
            summoning.place_monster(w, "rat", c(12, 9), keeper_turn=False, why="t"),
        ),
    )
    assert hero_attacks(s, "riel") == set()


def test_no_shooting_through_teleport_pads():
    # Ruling 14: Guelin at (6,5) cannot shoot (13,14), though walking there via pad 2 is short.
    s = position("", phase="H3", heroes=["guelin"])
    s = edit(
        s,
        lambda w: (
            w.s["heroes"]["guelin"].update(cell=c(6, 5), actions=1),
            summoning.place_monster(w, "rat", c(13, 14), keeper_turn=False, why="t"),
        ),
    )
    assert hero_attacks(s, "guelin") == set()


def test_magic_goes_round_corners_but_not_past_monsters():
    # Ruling 5: Almanor at (14,9) may missile (16,8) (magic 3); Guelin's bow there may not.
    s = position("", phase="H3", heroes=["almanor", "guelin"])

    def setup(w):
        w.s["heroes"]["almanor"].update(cell=c(14, 9), actions=1)
        w.s["heroes"]["guelin"].update(cell=c(14, 10), actions=1)
        summoning.place_monster(w, "rat", c(16, 8), keeper_turn=False, why="t")

    s = edit(s, setup)
    rat = monster_at(s, 16, 8)
    assert ("alm.missile", rat) in hero_attacks(s, "almanor")
    assert hero_attacks(s, "guelin") == set()
    # Content 1.7.6: (11,10) -> (11,7) with a creature at (11,8) is magic distance 19.
    s = position("", phase="H3", heroes=["almanor"])

    def blocked(w):
        w.s["heroes"]["almanor"].update(cell=c(11, 10), actions=1)
        summoning.place_monster(w, "zombie", c(11, 8), keeper_turn=False, why="t")
        summoning.place_monster(w, "rat", c(11, 7), keeper_turn=False, why="t")

    s = edit(s, blocked)
    # The zombie in the way is in range; the rat behind it is not.
    assert {t for _, t in hero_attacks(s, "almanor")} == {monster_at(s, 11, 8)}


def test_gorgon_shoots_three_with_heroes_blocking():
    s = position("o..R", (8, 8), phase="K4")
    assert keeper_attacks(s) == {(monster_at(s, 8, 8), "ragnar")}
    s = position("o...R", (8, 8), phase="K4")
    assert keeper_attacks(s) == set()
    s = position("o.ER", (8, 8), phase="K4")  # Eleanor shields Ragnar; she can be shot
    assert keeper_attacks(s) == {(monster_at(s, 8, 8), "eleanor")}
    s = position("ozR", (8, 8), phase="K4")  # creatures never block creatures
    assert (monster_at(s, 8, 8), "ragnar") in keeper_attacks(s)


def test_heroes_on_the_trail_can_be_attacked_from_an_entrance():
    s = position("r\nR", (6, 16), phase="K4")
    assert keeper_attacks(s) == {(monster_at(s, 6, 16), "ragnar")}


def resolve(state):
    """Declare every possible attack, then let every seat take the default parries."""
    while legal(state, "keeper", "attack"):
        state = act(state, "keeper", legal(state, "keeper", "attack")[0])
    if state["phase"] == "K4":  # the step ends by itself once no declaration is left
        state = act(state, "keeper", {"type": "done"})
    while state["phase"] == "K4P":
        seat = sorted(s for s in state["seats"] if legal(state, s))[0]
        state = act(state, seat, {"type": "done"})
    return state


def surrounded(n):
    # Ragnar at (12,8) with n rats among (11,8), (13,8), (12,9).
    cells = [(11, 8), (13, 8), (12, 9)][:n]
    s = position("", phase="K4", heroes=["ragnar"])

    def setup(w):
        w.s["heroes"]["ragnar"]["cell"] = c(12, 8)
        for xy in cells:
            summoning.place_monster(w, "rat", c(*xy), keeper_turn=False, why="t")
        w.moved()
        goto(w, "K4")

    return edit(s, setup)


def test_parries_one_two_three_weak_monsters():
    # RB: 1 weak vs 1 hero = 0 damage, 2 = 1, 3 = 2 (ruling 8).
    for n, damage in ((1, 0), (2, 1), (3, 2)):
        s = surrounded(n)
        after = resolve(s)
        assert after["heroes"]["ragnar"]["life"] == 5 - damage, n
        assert after["blood"] == damage


def test_parry_choice_prompt_and_default_parries_the_mummy():
    s = position("", phase="K4", heroes=["ragnar"])

    def setup(w):
        w.s["heroes"]["ragnar"]["cell"] = c(12, 8)
        summoning.place_monster(w, "rat", c(11, 8), keeper_turn=False, why="t")
        summoning.place_monster(w, "mummy", c(13, 8), keeper_turn=False, why="t")
        w.moved()
        goto(w, "K4")

    s = edit(s, setup)
    while legal(s, "keeper", "attack"):
        s = act(s, "keeper", legal(s, "keeper", "attack")[0])
    seat = seat_of(s, "ragnar")
    assert s["phase"] == "K4P"
    assert {a["attack"] for a in legal(s, seat, "parry")} == {0, 1, 2}
    after = act(s, seat, {"type": "done"})  # default: a mummy attack is parried
    assert after["heroes"]["ragnar"]["life"] == 3 and after["heroes"]["ragnar"]["rot"]
    # Choosing the rat's attack instead lets both mummy attacks through.
    rat_attack = next(i for i, a in enumerate(s["attacks"]) if a["kind"] == "rat")
    chosen = act(s, seat, {"type": "parry", "attack": rat_attack})
    assert chosen["heroes"]["ragnar"]["life"] == 3 and chosen["phase"] != "K4P"


def test_ragnar_level_two_parries_two():
    s = surrounded(2)
    s = edit(s, lambda w: (w.s["heroes"]["ragnar"].update(level=2, life=6), goto(w, "K4")))
    after = resolve(s)
    assert after["heroes"]["ragnar"]["life"] == 6


def test_parries_reset_every_keeper_turn():
    s = surrounded(1)
    s = edit(s, lambda w: w.s["heroes"]["ragnar"].update(parries=0))
    w = Work(s)
    from backend.games.dorn.rules import turns

    turns.start_keeper_turn(w)
    assert w.s["heroes"]["ragnar"]["parries"] == 1


def test_blood_cap_sixteen():
    s = surrounded(3)
    s = edit(s, lambda w: w.s.update(blood=15))
    after = resolve(s)
    assert after["heroes"]["ragnar"]["life"] == 3  # the hero still loses 2
    assert after["blood"] == 16  # the drop above the cap is lost (ruling 26)


def test_kill_gives_xp_and_levels_up_with_new_life():
    # Ruling 23 (content 2.2): Choros at 4 XP kills a rat with his only action -> level 2 at the
    # end of H3 (not mid-step: ruling V9), life +1, no second action this turn.
    s = position("Cr", (11, 9), phase="H3")
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(xp=4, life=5))
    s = edit(s, lambda w: goto(w, "H3"))
    rat = monster_at(s, 12, 9)
    seat = seat_of(s, "choros")
    after = act(s, seat, {"type": "attack", "hero": "choros", "with": "cho.axe", "target": rat})
    h = after["heroes"]["choros"]
    assert rat not in after["monsters"]
    assert (h["xp"], h["level"], h["life"]) == (5, 1, 5)
    assert h["actions"] == 0
    after = act(after, seat, {"type": "choose", "answer": "stay"})  # no tactical advance
    ended = act(after, seat, {"type": "done"})
    h = ended["heroes"]["choros"]
    assert (h["xp"], h["level"], h["life"]) == (5, 2, 6)


def test_strong_kill_two_xp_and_token_back_to_bag():
    s = position("Rh", (11, 9), phase="H3")
    ghost = monster_at(s, 12, 9)
    bag = s["bag"]["ghost"]
    s = edit(s, lambda w: w.monster(ghost).update(dmg=1))
    after = act(
        s, seat_of(s, "ragnar"), {"type": "attack", "hero": "ragnar", "with": "rag.rapier", "target": ghost}
    )
    assert after["heroes"]["ragnar"]["xp"] == 2
    assert after["bag"]["ghost"] == bag + 1


def test_bog_beast_takes_two_hits():
    s = position("Rb", (11, 9), phase="H3")
    beast = monster_at(s, 12, 9)
    after = act(
        s, seat_of(s, "ragnar"), {"type": "attack", "hero": "ragnar", "with": "rag.rapier", "target": beast}
    )
    assert after["monsters"][beast]["dmg"] == 1


def test_difficult_spell_costs_life_and_needs_two():
    s = position("Gr", (11, 9), phase="H3")
    rat = monster_at(s, 12, 9)
    seat = seat_of(s, "gor")
    after = act(s, seat, {"type": "attack", "hero": "gor", "with": "gor.exorcism", "target": rat})
    assert after["heroes"]["gor"]["life"] == 4 and after["blood"] == 1
    weak = edit(s, lambda w: w.s["heroes"]["gor"].update(life=1))
    assert not legal(weak, seat, "attack")


def test_zorkal_attacks_and_levels_from_blood():
    s = position("", phase="K1", heroes=["ragnar"])
    s = edit(s, lambda w: w.s.update(blood=16))
    s = act(s, "keeper", {"type": "level_zorkal"})
    assert (s["zorkal"]["level"], s["zorkal"]["life"], s["blood"]) == (2, 5, 9)
    s = act(s, "keeper", {"type": "level_zorkal"})
    assert (s["zorkal"]["level"], s["zorkal"]["life"], s["blood"]) == (3, 6, 0)
    assert not legal(s, "keeper", "level_zorkal")
    # With the gate open he attacks adjacent heroes, 4 attacks at level 3.
    s = edit(
        s, lambda w: (w.s.update(gate=True), w.s["heroes"]["ragnar"].update(cell=c(11, 2)), goto(w, "K4"))
    )
    attacks = [a for a in legal(s, "keeper", "attack") if a["figure"] == ZORKAL]
    assert attacks == [{"type": "attack", "figure": ZORKAL, "target": "ragnar"}]
    assert combat.zorkal_attacks(3) == 4
    after = resolve(s)
    assert after["heroes"]["ragnar"]["life"] == 5 - 3  # 4 attacks, 1 parried


def test_zorkal_cannot_act_or_be_hit_before_the_gate_opens():
    s = position("", phase="H3", heroes=["ragnar"])
    s = edit(s, lambda w: w.s["heroes"]["ragnar"].update(cell=c(11, 3), actions=1))
    assert hero_attacks(s, "ragnar") == set()
    opened = edit(s, lambda w: w.s.update(gate=True))
    assert hero_attacks(opened, "ragnar") == set()  # (11,1) is 2 away
    near = edit(opened, lambda w: w.s["heroes"]["ragnar"].update(cell=c(11, 2)))
    assert hero_attacks(near, "ragnar") == {("rag.rapier", ZORKAL)}
