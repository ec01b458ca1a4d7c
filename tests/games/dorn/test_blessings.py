"""Blessing cards B01, B04, B05, B08, B10, B11 (content 4.2, 4.5, 5.10; rulings 35, 38, 41,
B1-B5) on exact positions; B02, B03, B06, B07, B09, B12 are in test_cards.py."""

from __future__ import annotations

from backend.engine.rng import Rng, seed_from_int
from backend.games.dorn.board import BOARD
from backend.games.dorn.catalog import MONSTERS, hero_stat
from backend.games.dorn.rules import combat, summoning, turns
from backend.games.dorn.state import KEEPER, ZORKAL, Work

from .position import GAME, act, act_events, c, edit, legal, position, seat_of

SPLIT = [["almanor", "choros", "eleanor"], ["gor", "guelin"]]


def _bless(s: dict, hero: str, card: str) -> tuple[dict, str]:
    seat = seat_of(s, hero)

    def give(w: Work) -> None:
        """From the deck or the discard into the seat's hand; its old card goes to the deck."""
        s = w.s
        for pile in (s["blessing_deck"], s["blessing_discard"]):
            if card in pile:
                pile.remove(card)
        old = s["blessings"][seat]
        if old is not None and old != card:
            s["blessing_deck"].append(old)
        s["blessings"][seat] = card

    return edit(s, give), seat


def _play(s: dict, seat: str, hero: str, card: str, **extra) -> dict:
    return act(s, seat, {"type": "play_blessing", "card": card, "hero": hero, **extra})


def _offered(s: dict, seat: str, hero: str) -> list[dict]:
    return [a for a in legal(s, seat, "play_blessing") if a["hero"] == hero]


def _until(s: dict, done, *, keeper=None) -> dict:
    """Every seat on turn ends its step until ``done(state)`` (``keeper(state)`` may act for the
    Keeper first in each of his steps, returning the new state, or None to end the step)."""
    for _ in range(80):
        if done(s):
            return s
        assert s["prompt"] is None, s["prompt"]
        seat = next(o for o in sorted(GAME.to_act(s)) if {"type": "done"} in GAME.legal_actions(s, o))
        if seat == KEEPER and keeper is not None:
            after = keeper(s)
            if after is not None:
                s = after
                continue
        s = act(s, seat, {"type": "done"})
    raise AssertionError("never got there")


def _advance(s: dict, phase: str, *, keeper=None) -> dict:
    return _until(s, lambda st: st["phase"] == phase and st["prompt"] is None, keeper=keeper)


def _deck_first(s: dict, card: str) -> dict:
    def front(w: Work) -> None:
        deck = w.s["treasure_deck"]
        deck.remove(card)
        deck.insert(0, card)

    return edit(s, front)


def _add(s: dict, mtype: str, x: int, y: int) -> dict:
    return edit(s, lambda w: summoning.place_monster(w, mtype, c(x, y), keeper_turn=False, why="test"))


def _set(s: dict, hero: str, **fields) -> dict:
    return edit(s, lambda w: w.s["heroes"][hero].update(fields))


def _monster(s: dict, x: int, y: int) -> str:
    w = Work(s, copy=False)
    fid = w.occupancy()[c(x, y)]
    assert fid.startswith("m")
    return fid


# -- B08 Aegis ------------------------------------------------------------------------------

# Almanor at (12,10) with a mummy right above her at (12,9).
BESIDE_MUMMY = """
    ......
    .#.m#.
    ...A..
"""


def _declare_mummy(st: dict) -> dict | None:
    """The Keeper declares every attack he can on Almanor in K4, then ends his steps."""
    if st["phase"] != turns.DECLARATIONS:
        return None
    listed = [a for a in legal(st, KEEPER, "attack") if a["target"] == "almanor"]
    return act(st, KEEPER, listed[0]) if listed else None


def test_b08_aegis_stops_attacks_and_rot_in_the_next_keeper_turn_only():
    s = position(BESIDE_MUMMY, (9, 8), phase="H1")
    s = _set(s, "almanor", rot=True)
    life, blood = s["heroes"]["almanor"]["life"], s["blood"]
    s, seat = _bless(s, "almanor", "B08")
    s = _play(s, seat, "almanor", "B08")
    assert s["effects"]["B08:almanor"] == {"until": "keeper_turn_end", "k": 2}
    # Not in the rest of this hero turn: a life cost is still paid.
    assert combat.lose_life(Work(s), "almanor", 1, "test") == 1
    # K0 of Keeper turn 2: the Rot takes nothing.
    s = _advance(s, turns.BLOOD_STEP)
    assert s["k"] == 2 and s["heroes"]["almanor"]["life"] == life and s["blood"] == blood
    # K4: the mummy's two attacks are declared (one is parried by default) and deal nothing.
    s = _advance(s, turns.HERO_MOVES, keeper=_declare_mummy)
    h = s["heroes"]["almanor"]
    assert (h["life"], h["rot"], h["cell"], s["blood"]) == (life, True, c(12, 10), blood)
    assert "B08:almanor" not in s["effects"]  # gone at K5.3
    # The Keeper turn after: the Rot bites again.
    s = _advance(s, turns.BLOOD_STEP)
    assert s["heroes"]["almanor"]["life"] == life - 1 and s["blood"] == blood + 1


def test_b08_aegis_hits_are_worded_and_give_no_mummy_rot():
    s = position(BESIDE_MUMMY, (9, 8), phase="H1")
    s, seat = _bless(s, "almanor", "B08")
    s = _play(s, seat, "almanor", "B08")
    s = _advance(s, turns.DECLARATIONS)
    s = _until(s, lambda st: st["phase"] == turns.PARRIES, keeper=_declare_mummy)
    assert len(s["attacks"]) == 2
    s, events = act_events(s, seat, {"type": "done"})  # the default parry, then the hits
    aegis = [e for e in events if e.kind == "aegis"]
    assert len(aegis) == 1 and "Almanor loses no life" in aegis[0].data["text"] and aegis[0].to is None
    assert "hero_rotting" not in [e.kind for e in events]
    h = s["heroes"]["almanor"]
    assert h["rot"] is False and h["life"] == hero_stat("almanor", "life", 1)


# -- B01 Astral Journey ----------------------------------------------------------------------


def test_b01_astral_journey_leaves_the_board_alive_and_untargetable():
    s = position(BESIDE_MUMMY, (9, 8), phase="H1", split=SPLIT)
    s = edit(s, lambda w: w.s["artifacts"]["star_orb"].update(cell=None, carrier="almanor"))
    s, seat = _bless(s, "almanor", "B01")
    s = _play(s, seat, "almanor", "B01")
    h = s["heroes"]["almanor"]
    assert h["cell"] is None and h["away"] == c(12, 10) and h["alive"] and sum(h["mv"]) == 0
    assert s["artifacts"]["star_orb"]["carrier"] == "almanor"
    # Everyone sees where she left from; she does nothing in H2 and cannot be attacked in K4.
    other = seat_of(s, "gor")
    assert GAME.view(s, other)["heroes"]["almanor"]["away"] == [12, 10]
    assert GAME.view(s, KEEPER)["heroes"]["almanor"]["cell"] is None
    s = _advance(s, turns.HERO_MOVES)
    assert not [a for a in legal(s, seat) if a.get("hero") == "almanor"]
    s = _advance(s, turns.MONSTER_MOVES)
    assert s["heroes"]["almanor"]["away"] == c(12, 10)
    assert not [t for t in combat.attack_targets(Work(s, copy=False)) if t[1] == "almanor"]
    assert c(12, 10) in {cell for cell in _mummy_reach(s)}  # her old cell is free for the mummy


def _mummy_reach(s: dict) -> list[int]:
    from backend.games.dorn.rules.movement import creature_destinations

    w = Work(s, copy=False)
    mid = w.occupancy()[c(12, 9)]
    return list(creature_destinations(w, mid, c(12, 9), 1))


def test_b01_rot_still_ticks_while_away_and_she_comes_back_at_h0_where_her_seat_says():
    s = position("", phase="H1", split=SPLIT)
    s = _set(s, "almanor", rot=True)
    s = _deck_first(edit(s, lambda w: w.s["tokens"].append(c(9, 12))), "T01")
    life = s["heroes"]["almanor"]["life"]
    s, seat = _bless(s, "almanor", "B01")
    s = _play(s, seat, "almanor", "B01")
    s = _advance(s, turns.BLOOD_STEP)
    assert s["heroes"]["almanor"]["life"] == life - 1  # Rot ticks while away (content 3.2)
    s = _until(s, lambda st: st["prompt"] is not None)
    prompt = s["prompt"]
    assert prompt["kind"] == "astral_return" and prompt["seat"] == seat and s["phase"] == turns.BLESSINGS
    assert GAME.to_act(s) == frozenset({seat})
    cells = {tuple(a["to"]) for a in legal(s, seat) if a["type"] == "choose"}
    assert {(10, 18), (9, 12), (0, 12), (3, 4)} <= cells and (8, 12) not in cells  # (8,12) is a wall
    assert GAME.default_action(s, seat) == {"type": "choose", "to": [10, 18]}
    s = act(s, seat, {"type": "choose", "to": [9, 12]})
    h = s["heroes"]["almanor"]
    assert h["cell"] == c(9, 12) and h["away"] is None and h["moved"] is True
    assert c(9, 12) not in s["tokens"] and s["treasure_discard"][-1] == "T01"  # the token is taken
    assert s["prompt"] is None and s["phase"] == turns.BLESSINGS


def test_b01_real_day_and_night_time_up_brings_her_back_to_the_first_argos_cell():
    s = edit(position("", phase="H1"), lambda w: w.s["options"].update(real_day_and_night=True))
    s = _set(s, "almanor", cell=c(12, 9))
    s, seat = _bless(s, "almanor", "B01")
    s = edit(_play(s, seat, "almanor", "B01"), turns.start_hero_turn)
    assert s["prompt"]["kind"] == "astral_return" and {"type": "time_up"} in legal(s, seat)
    s = act(s, seat, {"type": "time_up"})
    assert s["heroes"]["almanor"]["cell"] == c(10, 18) and s["prompt"] is None


def test_b01_the_return_never_lands_on_the_gate_or_throne_even_when_open():
    s = position("", phase="H1")
    s = edit(s, lambda w: w.s.update(gate=True))
    s, seat = _bless(s, "almanor", "B01")
    s = _play(s, seat, "almanor", "B01")
    s = edit(s, turns.start_hero_turn)
    cells = {tuple(a["to"]) for a in legal(s, seat) if a["type"] == "choose"}
    assert not cells & {(11, 2), (12, 2), (10, 1), (11, 1), (12, 1), (13, 1)} and (11, 3) in cells


def test_b01_ruling_b1_an_away_hero_is_alive_and_if_rot_kills_it_artifacts_fall_where_it_left():
    s = _set(position("", phase="H1"), "almanor", cell=c(12, 9))
    s = edit(s, lambda w: w.s["artifacts"]["star_orb"].update(cell=None, carrier="almanor"))
    s, seat = _bless(s, "almanor", "B01")
    s = _play(s, seat, "almanor", "B01")

    def others_dead(w: Work) -> None:
        for hid, h in w.s["heroes"].items():
            if hid != "almanor":
                h.update(alive=False, cell=None)

    s = edit(s, others_dead)
    w = Work(s)
    combat.check_victory(w)
    assert w.s["outcome"] is None  # ruling 41: she is alive
    w = Work(_set(s, "almanor", rot=True, life=1))
    turns.settle(w)  # nobody acts: on to K0, where the Rot kills her
    died = next(e for e in w.events if e.kind == "hero_died")
    assert (
        died.data["text"]
        == "Almanor dies on its Astral Journey; 1 artifact(s) fall at (12,9), where it left."
    )
    s = w.finish().state
    h = s["heroes"]["almanor"]
    assert not h["alive"] and h["cell"] is None and h["away"] is None
    assert s["artifacts"]["star_orb"] == {"cell": c(12, 9), "carrier": None, "picked": False}
    assert s["outcome"]["result"] == "keeper_wins"


def _chamber_but_one(s: dict) -> dict:
    """Weak monsters on 13 of the 14 chamber cells (under each type's cap of 8), Almanor on the
    last, (14,4)."""

    def fill(w: Work) -> None:
        cells = [cell for cell in sorted(BOARD.chamber) if cell != c(14, 4)]
        for i, cell in enumerate(cells):
            mtype = ("zombie", "rat", "skeleton", "bogbeast")[i % 4]
            summoning.place_monster(w, mtype, cell, keeper_turn=False, why="test")

    return _set(edit(s, fill), "almanor", cell=c(14, 4))


def test_b01_an_away_hero_does_not_fill_the_chamber():
    s = _chamber_but_one(position("", phase="H1"))
    s, seat = _bless(s, "almanor", "B01")
    stayed = _until(
        act(s, seat, {"type": "done"}), lambda st: st["k"] == 2 and st["phase"] == turns.HERO_MOVES
    )
    assert stayed["fill"] == 1  # she counted where she stood (ruling 28)
    away = _until(_play(s, seat, "almanor", "B01"), lambda st: st["prompt"] is not None)
    assert away["k"] == 2 and away["fill"] == 0 and away["prompt"]["kind"] == "astral_return"


# -- B10 Blink, B11 Rescue -------------------------------------------------------------------


def test_b10_blink_teleports_up_to_five_over_figures_and_takes_the_token():
    s = position(
        """
        ......
        .#..#.
        ...A..
        ###r##
        ......
        ......
        """,
        (9, 8),
        phase="H1",
    )
    s = _deck_first(edit(s, lambda w: w.s["tokens"].append(c(12, 13))), "T01")
    s, seat = _bless(s, "almanor", "B10")
    cells = {tuple(a["to"]) for a in _offered(s, seat, "almanor")}
    assert {(12, 13), (10, 13), (14, 13), (9, 8), (12, 12)} <= cells  # over the rat at (12,11)
    assert not cells & {(12, 11), (15, 13), (8, 8), (12, 10), (10, 9)}  # rat, 6 away, 6, own, wall
    s = _play(s, seat, "almanor", "B10", to=[12, 13])
    h = s["heroes"]["almanor"]
    assert h["cell"] == c(12, 13) and h["moved"] is True and c(12, 13) not in s["tokens"]


def test_b11_rescue_places_another_hero_beside_the_user():
    s = position(
        """
        ......
        .#..#.
        ...Ar.
        """,
        (9, 8),
        phase="H1",
    )
    s, seat = _bless(s, "almanor", "B11")
    offered = _offered(s, seat, "almanor")
    assert {a["other"] for a in offered} == {"choros", "eleanor", "gor", "guelin"}
    to_choros = sorted(tuple(a["to"]) for a in offered if a["other"] == "choros")
    assert to_choros == [(11, 10), (12, 9), (12, 11)]  # not onto the rat at (13,10)
    s = _play(s, seat, "almanor", "B11", other="choros", to=[12, 11])
    assert s["heroes"]["choros"]["cell"] == c(12, 11) and s["heroes"]["choros"]["moved"] is False
    assert s["heroes"]["almanor"]["cell"] == c(12, 10) and s["heroes"]["almanor"]["moved"] is False


def test_b11_rescue_is_not_playable_with_no_free_cell_beside_the_user_and_argos_is_all_beside():
    s = position(
        """
        #s#
        #A#
        #r#
        """,
        (2, 3),
        phase="H1",
    )
    s, seat = _bless(s, "almanor", "B11")
    assert _offered(s, seat, "almanor") == []
    # In Argos every Argos cell is beside her (content 1.7.1), her own too.
    s = _set(s, "almanor", cell=c(10, 18))
    cells = {tuple(a["to"]) for a in _offered(s, seat, "almanor") if a["other"] == "choros"}
    assert cells == {(10, 17), (10, 18), (12, 18), (13, 18), (14, 18)}  # Choros stands on (11,18)


# -- B04 Tremor, B05 Discord -----------------------------------------------------------------

# Almanor at (12,10), a ghost at (14,9), a rat at (12,11) below her.
TREMOR_PICTURE = """
    ......#
    .#..#h.
    ...A..#
    ###r###
"""


def test_b04_tremor_moves_monsters_within_twelve_up_to_two_steps_in_any_order():
    s = edit(position(TREMOR_PICTURE, (9, 8), phase="H1"), lambda w: w.s.update(gate=True))
    rat, ghost = _monster(s, 12, 11), _monster(s, 14, 9)
    s, seat = _bless(s, "almanor", "B04")
    s = _play(s, seat, "almanor", "B04")
    p = s["prompt"]
    assert p["kind"] == "tremor" and p["seat"] == seat and set(p["data"]["left"]) == {rat, ghost}
    answers = legal(s, seat)
    stop = {"type": "choose", "skip": True}
    assert answers[0] == stop and GAME.default_action(s, seat) == stop
    rat_to = {tuple(a["to"]) for a in answers if a.get("monster") == rat}
    assert rat_to == {(12, 12), (12, 13), (11, 12), (13, 12)}  # never through Almanor
    assert not [a for a in answers if a.get("monster") == ZORKAL]  # cloak (content 2.4)
    s = act(s, seat, {"type": "choose", "monster": ghost, "to": [13, 8]})
    assert s["monsters"][ghost]["cell"] == c(13, 8)
    assert s["prompt"]["data"]["left"] == [rat]  # each monster once
    s = act(s, seat, stop)
    assert s["prompt"] is None and s["monsters"][rat]["cell"] == c(12, 11)


def test_b04_tremor_is_not_offered_with_no_monster_within_twelve():
    s = _add(position("", phase="H1"), "bogbeast", 3, 14)
    s = _set(s, "almanor", cell=c(10, 10))  # area distance 15 from the bog beast
    s, seat = _bless(s, "almanor", "B04")
    assert _offered(s, seat, "almanor") == []


DISCORD_PICTURE = """
    ...A..
    ###.##
    ..bm.h
    ...z.r
"""


def test_b05_discord_each_strong_monster_strikes_a_weak_neighbour_xp_to_the_user():
    s = position(DISCORD_PICTURE, (9, 10), phase="H1")
    mummy, ghost = _monster(s, 12, 12), _monster(s, 14, 12)
    bog, zombie, rat = _monster(s, 11, 12), _monster(s, 12, 13), _monster(s, 14, 13)
    s, seat = _bless(s, "almanor", "B05")
    s = _play(s, seat, "almanor", "B05")
    p = s["prompt"]
    assert p["kind"] == "discord" and set(p["data"]["left"]) == {mummy, ghost}
    pairs = {(a["monster"], a["target"]) for a in legal(s, seat) if a["type"] == "choose"}
    assert pairs == {(mummy, bog), (mummy, zombie), (ghost, rat)}
    # The mummy's 2 kill the bog beast; then the ghost's only strike needs no question.
    s = act(s, seat, {"type": "choose", "monster": mummy, "target": bog})
    assert bog not in s["monsters"] and rat not in s["monsters"] and s["monsters"][zombie]["dmg"] == 0
    assert s["prompt"] is None and mummy in s["monsters"] and ghost in s["monsters"]
    assert s["heroes"]["almanor"]["xp"] == MONSTERS["bogbeast"]["xp"] + MONSTERS["rat"]["xp"]


def test_b05_discord_a_ghost_deals_one_so_a_bog_beast_survives_and_no_pair_means_not_offered():
    s = position(
        """
        ...A..
        ###.##
        ..bh..
        """,
        (9, 10),
        phase="H1",
    )
    bog = _monster(s, 11, 12)
    s, seat = _bless(s, "almanor", "B05")
    s = _play(s, seat, "almanor", "B05")  # a single strike: resolved at once
    assert s["prompt"] is None and s["monsters"][bog]["dmg"] == 1 and s["heroes"]["almanor"]["xp"] == 0
    lonely, seat = _bless(edit(s, lambda w: w.s["monsters"].pop(bog)), "almanor", "B05")
    assert _offered(lonely, seat, "almanor") == []


# -- what each seat knows ----------------------------------------------------------------------


def test_samples_rebuild_aegis_away_heroes_and_the_tremor_prompt():
    s = position(TREMOR_PICTURE, (9, 8), phase="H1", split=SPLIT)
    s, seat = _bless(s, "gor", "B08")
    s = _play(s, seat, "gor", "B08")
    s, seat = _bless(s, "choros", "B01")
    s = _play(s, seat, "choros", "B01")
    s = edit(s, lambda w: turns.enter_phase(w, turns.BLESSINGS))  # no Blessing left: reopen H1
    s, seat = _bless(s, "almanor", "B04")
    s = _play(s, seat, "almanor", "B04")
    assert GAME.view(s, KEEPER)["heroes"]["gor"]["aegis"] == 2
    for who in (seat, seat_of(s, "gor"), KEEPER):
        view = GAME.view(s, who)
        sampled = GAME.sample_state(view, who, Rng(seed_from_int(3)), [])
        assert GAME.view(sampled, who) == view
        assert GAME.legal_actions(sampled, who) == GAME.legal_actions(s, who)
        assert sampled["effects"] == s["effects"] and sampled["heroes"]["choros"]["away"] == c(11, 18)
