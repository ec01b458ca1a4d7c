"""The six variants of content 6, alone and mixed, and the two departures of issue 11 part 6
fixed here (level-up timing, the artifact on a pad's other cell).  Rulings V4-V10 in
docs/rules/dorn.md.  Each test asserts the position the rule leads to."""

import pytest

from backend.engine.core import InvalidOptions
from backend.engine.rng import Rng, seed_from_int
from backend.games.dorn.board import BOARD
from backend.games.dorn.catalog import ARTIFACTS, TIE_BREAK
from backend.games.dorn.rules import combat, obstacles, rituals, tactics, turns
from backend.games.dorn.state import Work

from .position import GAME, act, c, edit, goto, legal, monster_at, position, seat_of

FOUR = ["almanor", "choros", "eleanor", "gor"]


def start(seed: int = 3, **options):
    opts = GAME.normalize_options(options)
    return GAME.initial_state(seed_from_int(seed), opts)


def playing(state: dict, **flags) -> dict:
    """``state`` with variants switched on (the rules read them from ``s["options"]``)."""
    return edit(state, lambda w: w.s.update(options={**w.s["options"], **flags}))  # a new dict


def dests(state: dict, hero: str) -> set[tuple[int, int]]:
    return {tuple(a["to"]) for a in legal(state, seat_of(state, hero), "move") if a["hero"] == hero}


def keeper_dests(state: dict, figure: str) -> set[tuple[int, int]]:
    return {tuple(a["to"]) for a in legal(state, "keeper", "move") if a["figure"] == figure}


# ---------------------------------------------------------------------------------------
# 6.1 Random Group


def test_random_group_draws_five_with_the_game_rng_and_deals_them_round_robin():
    s = start(3, random_group=True, hero_seats=2)
    drawn = sorted(Rng(seed_from_int(3)).shuffled(TIE_BREAK)[:5], key=TIE_BREAK.index)
    assert sorted(s["heroes"], key=TIE_BREAK.index) == drawn
    assert s["seats"] == {"heroes_1": drawn[0::2], "heroes_2": drawn[1::2]}  # ruling V5
    assert drawn != TIE_BREAK[:5]  # not the host's (default) choice
    assert all(BOARD.terrain[h["cell"]] == "a" and h["level"] == 1 for h in s["heroes"].values())
    others = {tuple(sorted(start(seed, random_group=True)["heroes"])) for seed in range(1, 9)}
    assert len(others) > 1
    names = [seat.label for seat in GAME.seats(s["options"])]
    assert names[1:] == ["heroes drawn at setup (Random Group)"] * 2


# ---------------------------------------------------------------------------------------
# 6.2 Missing Artifact


def test_missing_artifact_removes_the_axe_and_three_still_open_the_gate():
    s = start(missing_artifact=True)
    assert sorted(s["artifacts"]) == sorted(a for a in ARTIFACTS if a != "axe")
    home = BOARD.artifact_homes["A1"]
    assert all(a["cell"] != home for a in s["artifacts"].values())
    assert "axe" not in GAME.static_info(s["options"])["artifacts"]
    chamber = sorted(BOARD.chamber)
    three = ["moon_chalice", "bone_crown", "star_orb"]
    s = edit(s, lambda w: [w.s["artifacts"][a].update(cell=chamber[i]) for i, a in enumerate(three)])
    w = Work(s)
    turns.start_keeper_turn(w)
    assert w.s["gate"] is True


# ---------------------------------------------------------------------------------------
# 6.3 Cave-in


def test_cave_in_setup_asks_the_keeper_for_two_sites_and_defaults_to_x1_x2():
    s = start(cave_in=True)
    assert s["prompt"]["kind"] == "cave_in_site" and s["k"] == 1 and s["obstacles"] == {}
    sites = [(3, 5), (7, 8), (11, 6), (16, 5), (21, 5), (6, 14), (17, 14), (12, 11)]
    assert [a["to"] for a in legal(s, "keeper", "choose")] == [list(x) for x in sites]
    for _ in range(2):
        s = act(s, "keeper", GAME.default_action(s, "keeper"))
    assert sorted(BOARD.xy(o["cell"]) for o in s["obstacles"].values()) == [(3, 5), (7, 8)]
    assert all(o == {**o, "life": 3, "kind": "cave_in"} for o in s["obstacles"].values())
    assert s["prompt"] is None and s["phase"] == "K1"


def test_cave_in_sites_the_keeper_chooses_block_heroes_until_broken():
    s = start(cave_in=True)
    s = act(s, "keeper", {"type": "choose", "to": [21, 5]})
    assert [a["to"] for a in legal(s, "keeper", "choose")][:1] == [[3, 5]]  # X5 is no longer offered
    assert [21, 5] not in [a["to"] for a in legal(s, "keeper", "choose")]
    s = act(s, "keeper", {"type": "choose", "to": [12, 11]})
    assert sorted(BOARD.xy(o["cell"]) for o in s["obstacles"].values()) == [(12, 11), (21, 5)]
    assert s["phase"] == "K1"
    # (12,11) is a corridor cell: a hero next to it may not step onto it.
    pos = position("R", (12, 10))
    pos = edit(pos, lambda w: w.s.update(obstacles=s["obstacles"]))
    assert (12, 11) not in dests(pos, "ragnar") and (12, 12) not in dests(pos, "ragnar")


# ---------------------------------------------------------------------------------------
# 6.4 Tactics and Flight


CORRIDOR = "R\n.\n.r"  # (12,10) Ragnar; (12,11) a one-cell corridor; (12,12); a rat at (13,12)


def test_tactics_a_hero_stops_next_to_a_monster():
    plain = position(CORRIDOR, (12, 10))
    s = playing(plain, tactics_and_flight=True)
    move = {"type": "move", "hero": "ragnar", "to": [12, 12]}
    s2 = act(s, seat_of(s, "ragnar"), move)
    assert s2["heroes"]["ragnar"]["cell"] == c(12, 12)
    assert s2["heroes"]["ragnar"]["mv"] == [0, 0, 0] and dests(s2, "ragnar") == set()  # stop
    assert not tactics.fled(s2, "ragnar")
    p2 = act(plain, seat_of(plain, "ragnar"), move)
    assert p2["heroes"]["ragnar"]["mv"] == [4, 0, 0]  # without the variant: 6 - 2 steps


def test_tactics_a_path_may_not_cross_an_engaged_cell():
    plain = position(CORRIDOR, (12, 10))
    s = playing(plain, tactics_and_flight=True)
    assert {(12, 13), (11, 12), (10, 12)} <= dests(plain, "ragnar")
    below = {xy for xy in dests(s, "ragnar") if xy[1] >= 11}
    assert below == {(12, 11), (12, 12)}  # (12,12) is next to the rat: no path goes past it


def test_tactics_a_hero_that_flees_makes_no_attack_this_turn():
    s = playing(position("Rr", (8, 8)), tactics_and_flight=True)
    rat = monster_at(s, 9, 8)
    s = act(s, seat_of(s, "ragnar"), {"type": "move", "hero": "ragnar", "to": [7, 8]})
    assert tactics.fled(s, "ragnar")
    s = edit(s, lambda w: (w.s["heroes"]["ragnar"].update(cell=c(8, 8)), goto(w, "H3")))
    assert s["heroes"]["ragnar"]["actions"] > 0
    assert legal(s, seat_of(s, "ragnar"), "attack") == []  # it would reach the rat
    calm = edit(s, lambda w: w.s["effects"].pop("fled:ragnar"))
    assert {"type": "attack", "hero": "ragnar", "with": "rag.rapier", "target": rat} in legal(
        calm, seat_of(calm, "ragnar"), "attack"
    )


def test_tactics_a_monster_that_flees_does_not_attack_and_one_that_closes_in_stops():
    s = playing(position("zR....r", (8, 8), phase="K3"), tactics_and_flight=True)
    zombie, rat = monster_at(s, 8, 8), monster_at(s, 14, 8)
    s = act(s, "keeper", {"type": "move", "figure": zombie, "to": [8, 10]})
    assert tactics.fled(s, zombie)
    assert s["monsters"][zombie]["mv"] == 6 - 2
    s = act(s, "keeper", {"type": "move", "figure": rat, "to": [10, 8]})  # next to Ragnar (9,8)
    assert s["monsters"][rat]["cell"] == c(10, 8) and s["monsters"][rat]["mv"] == 0
    assert keeper_dests(s, rat) == set()
    s = act(s, "keeper", {"type": "move", "figure": zombie, "to": [9, 9]})  # back beside him
    assert s["monsters"][zombie]["mv"] == 0 and s["phase"] == "K4"  # nobody can move: K3 ends
    attackers = {a["figure"] for a in legal(s, "keeper", "attack")}
    assert attackers == {rat}  # the zombie fled this Keeper turn


# ---------------------------------------------------------------------------------------
# 6.5 Real Day and Night


def test_real_day_and_night_clock_and_the_keepers_time_up_skips_to_the_heroes():
    s = start(real_day_and_night=True, turn_clock=240)
    assert GAME.turn_clock(s) == {"turn": "1:keeper", "seats": ["keeper"], "seconds": 240, "running": True}
    assert {"type": "time_up"} in legal(s, "keeper")
    assert all(a["type"] != "time_up" for a in legal(s, "heroes_1"))  # not its turn
    s = act(s, "keeper", {"type": "time_up"})
    assert s["phase"] == "H1" and s["k"] == 1
    assert len(s["monsters"]) == 6  # no summon: K2 was skipped
    assert GAME.turn_clock(s)["turn"] == "1:heroes"
    assert GAME.turn_clock(start()) is None


def test_real_day_and_night_declared_attacks_stand_and_the_heroes_still_parry():
    s = playing(position("mRr", (8, 8), phase="K4"), real_day_and_night=True, turn_clock=180)
    mummy = monster_at(s, 8, 8)
    for _ in range(2):
        s = act(s, "keeper", {"type": "attack", "figure": mummy, "target": "ragnar"})
    s = act(s, "keeper", {"type": "time_up"})  # the rat's attack is never declared
    assert s["phase"] == "K4P" and GAME.turn_clock(s)["running"] is False  # the heroes owe it
    s = act(s, seat_of(s, "ragnar"), {"type": "done"})  # the default parry
    # Two mummy attacks, one parried: 1 damage and the rot (ruling 8), then the hero turn.
    assert s["phase"] == "H1" and s["heroes"]["ragnar"]["life"] == 4 and s["heroes"]["ragnar"]["rot"]


def test_real_day_and_night_a_hero_seat_out_of_time_sits_out_the_rest_of_its_turn():
    s = position("RI", (8, 8), split=[["ragnar"], ["riel"], ["almanor", "choros", "eleanor"]])
    s = playing(s, real_day_and_night=True)
    s = edit(s, lambda w: goto(w, "H2"))
    rag, riel = seat_of(s, "ragnar"), seat_of(s, "riel")
    s = act(s, rag, {"type": "time_up"})
    assert rag not in GAME.to_act(s) and riel in GAME.to_act(s)
    for seat in sorted(GAME.to_act(s)):
        s = act(s, seat, {"type": "done"})
    assert s["phase"] == "H3" and rag not in GAME.to_act(s) and riel in GAME.to_act(s)
    for seat in sorted(GAME.to_act(s)):
        s = act(s, seat, {"type": "done"})
    assert s["phase"] == "K1" and s["k"] == 2 and "time_up:" + rag not in s["effects"]


# ---------------------------------------------------------------------------------------
# 6.6 Four Heroes


def test_four_heroes_setup_life_seats_and_five_starting_monsters():
    with pytest.raises(InvalidOptions):
        GAME.normalize_options({"four_heroes": True, "heroes": TIE_BREAK[:5]})
    with pytest.raises(InvalidOptions):
        GAME.normalize_options({"four_heroes": True, "heroes": FOUR, "hero_seats": 5})
    assert GAME.normalize_options({"four_heroes": True})["heroes"] == TIE_BREAK[:4]
    s = start(four_heroes=True, heroes=FOUR, hero_seats=4)
    assert sorted(s["heroes"]) == FOUR and len(s["seats"]) == 4
    # Level-1 life 3, 6, 5, 5, each +1 (content 6.6).
    assert {h: v["life"] for h, v in s["heroes"].items()} == {
        "almanor": 4,
        "choros": 7,
        "eleanor": 6,
        "gor": 6,
    }
    types = {BOARD.xy(m["cell"]): m["type"] for m in s["monsters"].values()}
    assert len(types) == 5 and (20, 4) not in types  # N6 stays empty (ruling V6)
    assert [types[xy] for xy in [(7, 3), (11, 8), (16, 9), (6, 12)]] == [
        "zombie",
        "rat",
        "bogbeast",
        "skeleton",
    ]
    assert GAME.view(s, None)["heroes"]["choros"]["max_life"] == 7


def test_four_heroes_plus_one_life_at_every_level_and_when_healing():
    s = playing(position("C", (8, 8), heroes=FOUR), four_heroes=True)
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(xp=5, life=2))
    w = Work(s)
    combat.check_levels(w)
    assert w.s["heroes"]["choros"]["level"] == 2 and w.s["heroes"]["choros"]["life"] == 3
    combat.heal(w, "choros", 9, "test")
    assert w.s["heroes"]["choros"]["life"] == 7 + 1  # Choros L2 has 7, +1


def test_four_heroes_rituals_cost_one_more_and_zorkal_eight_then_ten():
    s = playing(position("", phase="K1"), four_heroes=True)
    s = edit(s, lambda w: w.s.update(ritual_hand=["R02", "R05"], blood=3))
    assert rituals.ritual_options(Work(s)) == []  # both cost 3, now 4
    s = edit(s, lambda w: w.s.update(blood=7))
    assert {"type": "level_zorkal"} not in legal(s, "keeper")
    s = edit(s, lambda w: w.s.update(blood=8))
    s = act(s, "keeper", {"type": "level_zorkal"})
    assert s["blood"] == 0 and s["zorkal"]["level"] == 2
    s = edit(s, lambda w: w.s.update(blood=4, ritual_played=False))
    s = act(s, "keeper", {"type": "play_ritual", "card": "R05"})
    assert s["blood"] == 0 and "R05" in s["rituals_in_play"]
    info = GAME.static_info(s["options"])
    assert info["zorkal"]["level_cost"] == [8, 10]
    assert info["rituals"]["R05"]["cost"] == 4 and info["heroes"]["choros"]["life"][:2] == [7, 8]
    assert GAME.static_info(GAME.normalize_options({}))["rituals"]["R05"]["cost"] == 3


# ---------------------------------------------------------------------------------------
# Mixes


def test_all_six_variants_together():
    s = start(
        5,
        random_group=True,
        missing_artifact=True,
        cave_in=True,
        tactics_and_flight=True,
        real_day_and_night=True,
        four_heroes=True,
        heroes=FOUR,
        hero_seats=2,
    )
    drawn = sorted(Rng(seed_from_int(5)).shuffled(TIE_BREAK)[:4], key=TIE_BREAK.index)
    assert sorted(s["heroes"], key=TIE_BREAK.index) == drawn
    assert s["seats"] == {"heroes_1": drawn[0::2], "heroes_2": drawn[1::2]}
    assert all(h["life"] == GAME.view(s, None)["heroes"][hid]["max_life"] for hid, h in s["heroes"].items())
    assert "axe" not in s["artifacts"] and len(s["monsters"]) == 5
    assert s["prompt"]["kind"] == "cave_in_site" and GAME.turn_clock(s)["running"]
    # Time up during the setup question: the default sites, then the Keeper's turn is skipped.
    s = act(s, "keeper", {"type": "time_up"})
    assert sorted(BOARD.xy(o["cell"]) for o in s["obstacles"].values()) == [(3, 5), (7, 8)]
    assert s["phase"] == "H1" and len(s["monsters"]) == 5


def test_tactics_with_cave_ins_a_broken_cave_in_opens_the_way():
    s = playing(position("R", (12, 10)), tactics_and_flight=True, cave_in=True)
    s = edit(s, lambda w: obstacles.place(w, c(12, 11), obstacles.CAVE_IN))
    assert (12, 12) not in dests(s, "ragnar")
    (oid,) = s["obstacles"]
    s = edit(s, lambda w: obstacles.damage(w, oid, 3, "ragnar"))
    assert (12, 12) in dests(s, "ragnar")


# ---------------------------------------------------------------------------------------
# Issue 11 part 6: level-up timing and the pad's other cell


def test_a_level_gained_in_h3_counts_from_the_next_phase_only():
    # Content 2.2, ruling 23/V9: Choros at 4 XP kills a rat: still level 1 for the rest of H3.
    s = position("Cr", (11, 9), phase="H3")
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(xp=4, life=5, bonus_actions=0))
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(actions=2))
    rat = monster_at(s, 12, 9)
    seat = seat_of(s, "choros")
    s = act(s, seat, {"type": "attack", "hero": "choros", "with": "cho.axe", "target": rat})
    while s["prompt"] is not None:  # his tactical advance, say: the default answers it
        s = act(s, seat, GAME.default_action(s, seat))
    assert (s["heroes"]["choros"]["level"], s["heroes"]["choros"]["life"]) == (1, 5)
    s = act(s, seat, {"type": "done"})
    assert (s["heroes"]["choros"]["level"], s["heroes"]["choros"]["life"]) == (2, 6)


def test_a_hero_on_a_pad_is_offered_the_artifact_on_the_other_cell():
    s = position("R", (6, 5))
    s = edit(s, lambda w: w.s["artifacts"]["axe"].update(cell=c(14, 14)))
    assert legal(s, seat_of(s, "ragnar"), "pick_up") == []
    s = act(s, seat_of(s, "ragnar"), {"type": "move", "hero": "ragnar", "to": [5, 5]})
    assert {"type": "pick_up", "hero": "ragnar", "artifact": "axe"} in legal(
        s, seat_of(s, "ragnar"), "pick_up"
    )
    s = act(s, seat_of(s, "ragnar"), {"type": "pick_up", "hero": "ragnar", "artifact": "axe"})
    assert s["artifacts"]["axe"] == {"cell": None, "carrier": "ragnar", "picked": True}


def test_a_bots_sampled_state_keeps_this_turns_fled_and_out_of_time_marks():
    # The determiniser (determinise.py) rebuilds them from the events the seat was sent.
    s = position("Rr", (8, 8), split=[["ragnar"], ["almanor", "choros", "eleanor", "gor"]])
    s = playing(s, tactics_and_flight=True, real_day_and_night=True)
    seat = seat_of(s, "ragnar")
    t = GAME.apply(s, seat, {"type": "move", "hero": "ragnar", "to": [7, 8]})
    after = GAME.apply(t.state, "heroes_2", {"type": "time_up"})
    events = [e.as_dict() for e in (*t.events, *after.events) if e.visible_to(seat)]
    sampled = GAME.sample_state(GAME.view(after.state, seat), seat, Rng(seed_from_int(9)), events)
    assert sampled["effects"] == after.state["effects"]
    assert set(after.state["effects"]) == {"fled:ragnar", "time_up:heroes_2"}
