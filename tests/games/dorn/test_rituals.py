"""Ritual cards R03, R06-R12 and Zorkal's summoning abilities, coven and pandemonium (content 2.4,
4.1, 4.5, 5.2 K2, 5.10; rulings K1-K9 in docs/rules/dorn.md): each on an exact position."""

from __future__ import annotations

from backend.games.dorn.board import BOARD
from backend.games.dorn.catalog import MONSTERS, RITUALS, STRONG_TYPES, WEAK_TYPES, hero_stat
from backend.games.dorn.rules import movement, rituals, summoning, turns
from backend.games.dorn.state import Work

from .position import GAME, act, c, edit, goto, legal, position, seat_of

KEEPER = "keeper"


def _with_ritual(s: dict, card: str, blood: int = 16) -> dict:
    return edit(s, lambda w: w.s.update(ritual_hand=[card], blood=blood))


def _play(s: dict, card: str) -> dict:
    s = act(_with_ritual(s, card), KEEPER, {"type": "play_ritual", "card": card})
    assert s["blood"] == 16 - RITUALS[card]["cost"] and s["ritual_played"]
    return s


def _offered(s: dict, card: str) -> bool:
    return any(a["card"] == card for a in legal(_with_ritual(s, card), KEEPER, "play_ritual"))


def _place(s: dict, mtype: str, x: int, y: int) -> tuple[dict, str]:
    out: list[str] = []
    s = edit(
        s, lambda w: out.append(summoning.place_monster(w, mtype, c(x, y), keeper_turn=False, why="test"))
    )
    return s, out[0]


def _hero_at(s: dict, hid: str, x: int, y: int) -> dict:
    return edit(s, lambda w: w.s["heroes"][hid].update(cell=c(x, y)))


def _answers(s: dict) -> list[dict]:
    return [a for a in GAME.legal_actions(s, KEEPER) if a["type"] == "choose"]


def _type_at(s: dict, x: int, y: int) -> str | None:
    for m in s["monsters"].values():
        if m["cell"] == c(x, y):
            return str(m["type"])
    return None


def _fill_cap(s: dict, types: list[str]) -> dict:
    """8 of each of ``types`` on free floor cells far from the tests' corners (ruling 19)."""

    def fill(w: Work) -> None:
        cells = [i for i in summoning.free_cells(w, list(range(BOARD.width * BOARD.height)))]
        cells = [i for i in cells if i not in BOARD.n_spaces and i not in BOARD.partner]
        k = 0
        for t in types:
            for _ in range(8):
                summoning.place_monster(w, t, cells[k], keeper_turn=False, why="test")
                k += 1

    return edit(s, fill)


# -- R03 Icy Prison --------------------------------------------------------------------------


def test_r03_icy_prison_names_three_heroes_who_take_no_steps_in_the_next_hero_turn():
    s = position("", phase="K1")
    s = _hero_at(_hero_at(s, "almanor", 8, 12), "choros", 12, 10)
    s = _play(s, "R03")
    assert s["prompt"]["kind"] == rituals.ICY_PRISON_NAME and s["rituals_in_play"] == []
    # Living heroes in tie-break order, the first being the default (content 5.10).
    first = _answers(s)
    assert first[0] == {"type": "choose", "hero": "almanor"} and len(first) == 5
    assert GAME.default_action(s, KEEPER) == first[0]
    s = act(s, KEEPER, {"type": "choose", "hero": "choros"})
    assert {"type": "choose", "hero": "choros"} not in _answers(s)
    s = act(s, KEEPER, {"type": "choose", "hero": "gor"})
    s, events = (t := GAME.apply(s, KEEPER, {"type": "choose", "hero": "eleanor"})).state, t.events
    assert s["prompt"] is None and s["phase"] == turns.BLOOD_STEP
    assert s["effects"]["R03"] == {"until": "hero_turn_end", "heroes": ["choros", "gor", "eleanor"]}
    assert any("Choros, Gor and Eleanor" in e.data["text"] for e in events if e.kind == "icy_prison")
    # The next hero turn's movement step: Choros has no step, Almanor walks.
    w = Work(s)
    goto(w, turns.HERO_MOVES)
    s = w.finish().state
    assert not [a for a in legal(s, seat_of(s, "choros"), "move") if a["hero"] == "choros"]
    assert [a for a in legal(s, seat_of(s, "almanor"), "move") if a["hero"] == "almanor"]
    # Bonuses of class 1 (items, abilities) and 2 (Rituals) are cancelled too (content 4.5).
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(mv=[4, 2, 0]))
    assert movement.steps_left(s, "choros") == 0
    # H5: the prison ends with the hero turn.
    w = Work(s)
    turns.end_hero_turn(w)
    assert "R03" not in w.s["effects"]


def test_r03_icy_prison_leaves_swiftness_its_ten_steps_and_pays_from_them():
    """Ruling 39: a hero under Icy Prison playing Swiftness may take exactly up to 10 steps."""
    s = _hero_at(position("", phase="H2"), "choros", 8, 12)
    s = edit(s, lambda w: w.s["effects"].update(R03={"until": "hero_turn_end", "heroes": ["choros"]}))
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(mv=[hero_stat("choros", "move", 1), 0, 10]))
    dests = movement.hero_destinations(Work(s, copy=False), "choros")
    assert dests and max(dests.values()) <= 10
    seat = seat_of(s, "choros")
    s = act(s, seat, {"type": "move", "hero": "choros", "to": [12, 12]})  # 4 steps east
    assert s["heroes"]["choros"]["cell"] == c(12, 12)
    assert s["heroes"]["choros"]["mv"] == [hero_stat("choros", "move", 1), 0, 6]


def test_r03_with_fewer_than_three_heroes_alive_names_them_all():
    s = position("", phase="K1")

    def kill(w: Work) -> None:
        for hid in ("almanor", "choros", "eleanor"):
            w.s["heroes"][hid].update(alive=False, cell=None, life=0)

    s = _play(edit(s, kill), "R03")
    assert [a["hero"] for a in _answers(s)] == ["gor", "guelin"]
    s = act(s, KEEPER, {"type": "choose", "hero": "guelin"})
    s = act(s, KEEPER, {"type": "choose", "hero": "gor"})
    assert s["prompt"] is None and s["effects"]["R03"]["heroes"] == ["guelin", "gor"]


# -- R06 Reinforcements ----------------------------------------------------------------------


def test_r06_reinforcements_fill_the_empty_n_spaces_in_list_order_by_default():
    s = position("", phase="K1")
    s, _ = _place(s, "rat", 7, 3)  # N1 taken
    assert _offered(s, "R06")
    bag = dict(s["bag"])
    s = _play(s, "R06")
    # Answers: (type, space) pairs, the set's order onto the spaces' order first.
    assert _answers(s)[0] == {"type": "choose", "monster": "zombie", "to": [11, 8]}
    while s["prompt"] is not None:
        s = act(s, KEEPER, GAME.default_action(s, KEEPER))
    assert [_type_at(s, *BOARD.xy(n)) for n in BOARD.n_spaces] == [
        "rat",
        "zombie",
        "zombie",
        "rat",
        "bogbeast",
        "skeleton",
    ]
    # Five spaces for six monsters: the strong one, last in the list, was left out.
    assert s["bag"] == bag and not any(m["type"] in STRONG_TYPES for m in s["monsters"].values())
    beast = next(m for m in s["monsters"].values() if m["type"] == "bogbeast")
    assert beast["wait"] is True  # ruling 21
    assert s["phase"] == turns.BLOOD_STEP and "R06" in s["ritual_discard"]


def test_r06_the_keeper_leaves_out_what_he_likes_and_capped_types_are_not_offered():
    s = _fill_cap(position("", phase="K1"), ["zombie"])
    for x, y in [(7, 3), (11, 8), (16, 9)]:
        s, _ = _place(s, "rat", x, y)  # N1-N3 taken: 3 spaces for the set
    bag = sum(s["bag"].values())
    s = _play(s, "R06")
    assert {a["monster"] for a in _answers(s)} == {"rat", "bogbeast", "skeleton", "strong"}
    s = act(s, KEEPER, {"type": "choose", "monster": "strong", "to": [20, 4]})
    assert _type_at(s, 20, 4) in STRONG_TYPES and sum(s["bag"].values()) == bag - 1
    s = act(s, KEEPER, {"type": "choose", "monster": "skeleton", "to": [6, 12]})
    assert {a["monster"] for a in _answers(s)} == {"rat", "bogbeast"}
    s = act(s, KEEPER, {"type": "choose", "monster": "rat", "to": [13, 13]})
    assert s["prompt"] is None and _type_at(s, 13, 13) == "rat"
    assert not any(m["type"] == "bogbeast" for m in s["monsters"].values())


def test_r06_is_not_offered_without_an_empty_n_space_and_uses_the_four_heroes_set():
    s = position("", phase="K1")
    full = s
    for n in BOARD.n_spaces:
        full, _ = _place(full, "skeleton", *BOARD.xy(n))
    assert not _offered(full, "R06")
    four = edit(s, lambda w: w.s["options"].update(four_heroes=True))
    four = act(_with_ritual(four, "R06"), KEEPER, {"type": "play_ritual", "card": "R06"})
    assert four["blood"] == 16 - RITUALS["R06"]["cost"] - 1  # Four Heroes: +1 (6.6)
    assert four["prompt"]["data"]["left"] == [
        "zombie",
        "rat",
        "bogbeast",
        "skeleton",
        "strong",
    ]


# -- R07 Ghostly Transformation --------------------------------------------------------------


def test_r07_ghostly_transformation_turns_two_adjacent_weak_monsters_into_a_chosen_strong_one():
    s = position("", phase="K1")
    s, z1 = _place(s, "zombie", 11, 10)
    s, z2 = _place(s, "rat", 12, 10)
    s, lone = _place(s, "skeleton", 8, 12)
    s = _hero_at(s, "almanor", 13, 12)
    assert _offered(s, "R07")
    s = _play(s, "R07")
    assert _answers(s) == [{"type": "choose", "target": z1}, {"type": "choose", "target": z2}]
    s = act(s, KEEPER, {"type": "choose", "target": z2})
    assert _answers(s) == [{"type": "choose", "target": z1}]
    s = act(s, KEEPER, {"type": "choose", "target": z1})
    assert z1 not in s["monsters"] and z2 not in s["monsters"] and lone in s["monsters"]
    # The type from the bag and either vacated cell; the default is a ghost on the first cell.
    answers = _answers(s)
    assert answers[0] == {"type": "choose", "monster": "ghost", "to": [11, 10]} and len(answers) == 8
    s = act(s, KEEPER, {"type": "choose", "monster": "vampire", "to": [12, 10]})
    v = next(m for m in s["monsters"].values() if m["type"] == "vampire")
    assert v["cell"] == c(12, 10) and v["dmg"] == 0 and v["wait"] is False
    assert s["bag"]["vampire"] == 2 and s["heroes"]["almanor"]["xp"] == 0  # ruling 22: no XP
    assert s["prompt"] is None


def test_r07_needs_an_adjacent_weak_pair_and_a_token_in_the_bag():
    s = position("", phase="K1")
    s, _ = _place(s, "zombie", 11, 10)
    s, _ = _place(s, "rat", 13, 10)  # two cells apart: no pair
    s, _ = _place(s, "ghost", 12, 10)  # a strong one between them does not pair
    assert not _offered(s, "R07")
    s, _ = _place(s, "rat", 11, 11)
    assert _offered(s, "R07")
    empty = edit(s, lambda w: w.s["bag"].update({t: 0 for t in STRONG_TYPES}))
    assert not _offered(empty, "R07")


# -- R08 Curse of the Disciples --------------------------------------------------------------


def test_r08_curse_is_offered_only_with_a_strong_monster_on_the_board():
    s = position("", phase="K1")
    s, _ = _place(s, "zombie", 11, 10)
    assert not _offered(s, "R08")
    s, _ = _place(s, "mummy", 9, 10)
    assert _offered(s, "R08")


def test_r08_each_strong_monster_calls_a_weak_one_below_its_cap_beside_it_in_the_keepers_order():
    s = _fill_cap(position("", phase="K1"), ["zombie", "rat", "skeleton"])  # only bog beasts left
    s, ghost = _place(s, "ghost", 12, 10)
    s, mummy = _place(s, "mummy", 9, 12)
    s = _play(s, "R08")
    # Two strong monsters: the Keeper says which goes first (reading order by default).
    assert _answers(s) == [{"type": "choose", "target": ghost}, {"type": "choose", "target": mummy}]
    s = act(s, KEEPER, {"type": "choose", "target": mummy})
    assert s["prompt"]["data"]["monster"] == "bogbeast"
    cells = [a["to"] for a in _answers(s)]
    assert cells == [[10, 12], [9, 13]]  # (9,11) and (8,12) are walls
    s = act(s, KEEPER, {"type": "choose", "to": [10, 12]})
    assert _type_at(s, 10, 12) == "bogbeast"
    assert [a["to"] for a in _answers(s)] == [[12, 9], [11, 10], [13, 10], [12, 11]]
    s = act(s, KEEPER, {"type": "choose", "to": [13, 10]})
    assert _type_at(s, 13, 10) == "bogbeast" and s["prompt"] is None
    beasts = [m for m in s["monsters"].values() if m["type"] == "bogbeast"]
    assert len(beasts) == 2 and all(m["wait"] for m in beasts)  # ruling 21


def test_r08_a_strong_monster_with_no_free_cell_beside_it_calls_nobody():
    s = position("", phase="K1")
    s, ghost = _place(s, "ghost", 3, 6)  # the corridor (3,5)-(3,7): two neighbours
    s, _ = _place(s, "zombie", 3, 5)
    s, _ = _place(s, "zombie", 3, 7)
    before = len(s["monsters"])
    t = GAME.apply(_with_ritual(s, "R08"), KEEPER, {"type": "play_ritual", "card": "R08"})
    assert t.state["prompt"] is None and len(t.state["monsters"]) == before
    assert any(e.kind == "curse_none" for e in t.events)


# -- R09 Dark Fortress -----------------------------------------------------------------------


def test_r09_dark_fortress_places_two_weak_monsters_outside_the_chamber_that_act_at_once():
    s = _play(position("", phase="K1"), "R09")
    assert [a["monster"] for a in _answers(s)] == WEAK_TYPES
    s = act(s, KEEPER, {"type": "choose", "monster": "bogbeast"})
    cells = [tuple(a["to"]) for a in _answers(s)]
    assert (11, 8) in cells and not any(BOARD.idx(*xy) in BOARD.chamber for xy in cells)
    assert cells == sorted(cells, key=lambda xy: (xy[1], xy[0]))  # reading order
    s = act(s, KEEPER, {"type": "choose", "to": [11, 8]})
    s = act(s, KEEPER, {"type": "choose", "monster": "rat"})
    s = act(s, KEEPER, {"type": "choose", "to": [12, 10]})
    assert s["prompt"] is None and _type_at(s, 11, 8) == "bogbeast" and _type_at(s, 12, 10) == "rat"
    beast = next(m for m in s["monsters"].values() if m["type"] == "bogbeast")
    assert beast["wait"] is False  # bog beasts included (content 4.1, ruling 21)
    w = Work(s)
    turns.enter_phase(w, turns.MONSTER_MOVES)
    assert (
        next(m for m in w.s["monsters"].values() if m["type"] == "bogbeast")["mv"]
        == MONSTERS["bogbeast"]["move"]
    )


def test_r09_needs_a_weak_type_below_its_cap():
    s = _fill_cap(position("", phase="K1"), list(WEAK_TYPES))
    assert not _offered(s, "R09")


# -- R10 Thorny Portals ----------------------------------------------------------------------


def test_r10_thorny_portals_hurt_a_hero_stepping_onto_a_pad_but_not_one_a_blessing_puts_there():
    s = _hero_at(position("", phase="H2"), "choros", 7, 5)
    seat = seat_of(s, "choros")
    life, blood = s["heroes"]["choros"]["life"], s["blood"]
    plain = act(s, seat, {"type": "move", "hero": "choros", "to": [5, 5]})
    assert plain["heroes"]["choros"]["life"] == life  # no card, no thorns
    thorny = edit(s, lambda w: w.s["rituals_in_play"].append("R10"))
    after = act(thorny, seat, {"type": "move", "hero": "choros", "to": [5, 5]})
    assert after["heroes"]["choros"]["cell"] == c(5, 5)
    assert after["heroes"]["choros"]["life"] == life - 1 and after["blood"] == blood + 1
    # A Blessing's placement onto a pad does not hurt (content 4.5).
    w = Work(thorny)
    w.s["heroes"]["choros"]["cell"] = c(14, 14)
    rituals.thorny_portals(w, "choros", c(14, 14), by_blessing=True)
    assert w.s["heroes"]["choros"]["life"] == life
    rituals.thorny_portals(w, "choros", c(14, 14), by_blessing=False)  # a teleport of its own
    assert w.s["heroes"]["choros"]["life"] == life - 1


def test_r10_thorny_portals_can_kill_and_is_permanent():
    s = _play(position("", phase="K1"), "R10")
    assert s["rituals_in_play"] == ["R10"]
    s = _hero_at(s, "choros", 7, 5)
    w = Work(s)
    goto(w, turns.HERO_MOVES)
    w.s["heroes"]["choros"]["life"] = 1
    s = w.finish().state
    s = act(s, seat_of(s, "choros"), {"type": "move", "hero": "choros", "to": [5, 5]})
    assert s["heroes"]["choros"]["alive"] is False and s["heroes"]["choros"]["cell"] is None


# -- R11 The Earth Awakens -------------------------------------------------------------------


def test_r11_the_earth_awakens_raises_two_barriers_away_from_heroes_pads_and_the_chamber():
    s = _hero_at(position("", phase="K1", tokens=True), "almanor", 12, 10)
    s = _play(s, "R11")
    cells = {tuple(a["to"]) for a in _answers(s)}
    assert (12, 11) not in cells and (12, 10) not in cells  # next to and on the hero
    assert (5, 5) not in cells and not any(BOARD.idx(*xy) in BOARD.chamber for xy in cells)
    assert not any(BOARD.idx(*xy) in s["tokens"] for xy in cells)
    assert (9, 10) in cells
    s = act(s, KEEPER, {"type": "choose", "to": [9, 10]})
    assert {tuple(a["to"]) for a in _answers(s)} == cells - {(9, 10)}
    second = _answers(s)[-1]["to"]
    s = act(s, KEEPER, {"type": "choose", "to": second})
    assert s["prompt"] is None
    barriers = sorted((o["cell"], o["life"], o["kind"]) for o in s["obstacles"].values())
    assert barriers == sorted([(c(*second), 3, "barrier"), (c(9, 10), 3, "barrier")])


def test_r11_places_what_fits_under_six_obstacles_and_is_not_offered_when_none_fits():
    s = position("", phase="K1")

    def five(w: Work) -> None:
        for i, x in enumerate(range(8, 13)):
            w.s["obstacles"][f"o{90 + i}"] = {"cell": c(x, 12), "life": 3, "kind": "cave_in"}

    s = edit(s, five)
    s = _play(s, "R11")
    s = act(s, KEEPER, GAME.default_action(s, KEEPER))
    assert s["prompt"] is None and len(s["obstacles"]) == 6
    s = edit(s, lambda w: w.s.update(ritual_played=False))
    assert not _offered(s, "R11")


# -- R12 Zombie Frenzy -----------------------------------------------------------------------


def test_r12_zombie_frenzy_is_played_and_stays_in_play():
    s = _play(position("", phase="K1"), "R12")
    assert s["rituals_in_play"] == ["R12"] and s["prompt"] is None and s["phase"] == turns.BLOOD_STEP


def test_every_ritual_has_its_rule_and_permanent_ones_no_effect():
    for card, info in RITUALS.items():
        rule = rituals.RITUALS_IN_RULES[card]
        if info["duration"] == "permanent":
            assert rule.effect is None, card


# -- Zorkal: levels, coven, pandemonium ------------------------------------------------------


def test_zorkal_levels_cost_seven_then_nine():
    s = edit(position("", phase="K1"), lambda w: w.s.update(blood=16))
    s = act(s, KEEPER, {"type": "level_zorkal"})
    assert s["blood"] == 9 and s["zorkal"]["level"] == 2 and s["zorkal"]["life"] == 5
    s = act(s, KEEPER, {"type": "level_zorkal"})
    assert s["blood"] == 0 and s["zorkal"]["level"] == 3 and s["zorkal"]["life"] == 6


def _summoning(level: int, k: int) -> dict:
    s = position("", phase="K1", k=k)
    w = Work(s)
    w.s["zorkal"]["level"] = level
    turns.enter_phase(w, turns.SUMMONING)
    return w.finish().state


def test_coven_adds_a_weak_summon_at_night_whichever_option():
    s = _summoning(2, 2)
    assert s["summon"] == {"weak": 3, "strong": 1, "exclusive": True}
    three = act(s, KEEPER, {"type": "summon", "monster": "skeleton", "to": [2, 1]})
    # One weak summon may be coven's: the strong option is still open.
    assert three["summon"]["strong"] == 1 and legal(three, KEEPER, "summon_strong")
    three = act(three, KEEPER, {"type": "summon", "monster": "skeleton", "to": [3, 1]})
    assert three["summon"] == {"weak": 1, "strong": 0, "exclusive": True}
    three = act(three, KEEPER, {"type": "summon", "monster": "skeleton", "to": [4, 1]})
    assert sum(1 for m in three["monsters"].values() if m["type"] == "skeleton") == 3
    # The strong option: 1 strong and coven's 1 weak.
    strong = act(s, KEEPER, {"type": "summon_strong", "to": [3, 7]})
    assert strong["summon"] == {"weak": 1, "strong": 0, "exclusive": True}
    strong = act(strong, KEEPER, {"type": "summon", "monster": "zombie", "to": [19, 8]})
    assert strong["phase"] == turns.MONSTER_MOVES  # nothing more to summon
    # Day: coven adds nothing.
    assert _summoning(2, 3)["summon"] == {"weak": 1, "strong": 0, "exclusive": False}


def test_coven_weak_then_strong_then_no_more():
    s = _summoning(2, 2)
    s = act(s, KEEPER, {"type": "summon", "monster": "zombie", "to": [19, 8]})
    s = act(s, KEEPER, {"type": "summon_strong", "to": [3, 7]})
    assert s["summon"]["weak"] == 0 and s["phase"] == turns.MONSTER_MOVES


def test_pandemonium_lets_the_keeper_pick_the_strong_type_and_summon_into_crypt_and_graveyard():
    s = _summoning(2, 2)
    plain = legal(s, KEEPER, "summon_strong")
    assert all("monster" not in a for a in plain)
    assert {BOARD.idx(*a["to"]) for a in plain} <= set(BOARD.zones["dark_temple"])
    s = edit(_summoning(3, 2), lambda w: w.s["bag"].update(gorgon=0))
    bag = dict(s["bag"])
    listed = legal(s, KEEPER, "summon_strong")
    assert {a["monster"] for a in listed} == {"ghost", "mummy", "vampire"}  # only what the bag holds
    cells = {BOARD.idx(*a["to"]) for a in listed}
    assert set(BOARD.zones["crypt"]) & cells and set(BOARD.zones["graveyard"]) & cells
    s = act(s, KEEPER, {"type": "summon_strong", "monster": "mummy", "to": [19, 8]})
    assert _type_at(s, 19, 8) == "mummy" and s["bag"] == {**bag, "mummy": bag["mummy"] - 1}


def test_pandemonium_picks_the_reinforcements_strong_type():
    s = edit(position("", phase="K1"), lambda w: w.s["zorkal"].update(level=3))
    bag = dict(s["bag"])
    s = _play(s, "R06")
    strong = {a["monster"] for a in _answers(s)} & set(STRONG_TYPES)
    assert strong == set(STRONG_TYPES) and "strong" not in {a["monster"] for a in _answers(s)}
    s = act(s, KEEPER, {"type": "choose", "monster": "gorgon", "to": [7, 3]})
    assert _type_at(s, 7, 3) == "gorgon" and s["bag"] == {**bag, "gorgon": bag["gorgon"] - 1}


def test_r10_thorny_portals_hurt_a_hero_teleporting_onto_a_pad_with_the_scroll():
    """Content 4.5: "Thorny Portals + Scroll of Teleport / Almanor's teleport onto a pad: loses 1 life"."""
    s = _hero_at(position("", phase="H2"), "choros", 7, 5)
    s = edit(
        s, lambda w: (w.s["heroes"]["choros"]["cards"].append("T15"), w.s["rituals_in_play"].append("R10"))
    )
    life = s["heroes"]["choros"]["life"]
    s = act(s, seat_of(s, "choros"), {"type": "use_item", "hero": "choros", "card": "T15", "to": [5, 5]})
    assert s["heroes"]["choros"]["cell"] == c(5, 5) and s["heroes"]["choros"]["life"] == life - 1


def test_the_keepers_strong_type_choices_stay_out_of_every_view():
    """The bag's contents are hidden (view.secrets): Ghostly Transformation's and pandemonium's
    type choices are listed to the Keeper only, never in a prompt's public data."""
    import json

    s = edit(position("", phase="K1"), lambda w: w.s["zorkal"].update(level=3))
    s, _ = _place(s, "zombie", 11, 10)
    s, _ = _place(s, "rat", 12, 10)
    for card, answers in (("R07", 2), ("R06", 0)):
        t = _play(s, card)
        for _ in range(answers):
            t = act(t, KEEPER, GAME.default_action(t, KEEPER))
        assert any("monster" in a and a["monster"] in STRONG_TYPES for a in _answers(t))
        for seat in [*t["seats"], KEEPER, None]:
            text = json.dumps(GAME.view(t, seat))
            assert not [x for x in GAME.secrets(t, seat) if x and x in text], (card, seat)
        # The Keeper's choices name the types in the bag: no secret of its own (the live leak
        # check reads every frame it gets, its legal list included), still one for the others.
        chosen = {a["monster"] for a in _answers(t) if a.get("monster") in STRONG_TYPES}
        assert not chosen & GAME.secrets(t, KEEPER), card
        assert all(chosen - set(t["seen_strong"]) <= GAME.secrets(t, seat) for seat in [*t["seats"], None]), card


def test_r03_lasts_through_the_keeper_turn_into_the_next_hero_turn_and_ends_with_it():
    s = _hero_at(position("", phase="K1"), "choros", 8, 12)
    s = _play(s, "R03")
    while s["prompt"] is not None:
        s = act(s, KEEPER, GAME.default_action(s, KEEPER))  # Almanor, Choros, Eleanor
    k = s["k"]
    while s["phase"] != turns.HERO_MOVES:
        seat = sorted(GAME.to_act(s))[0]
        s = act(s, seat, {"type": "done"})
    assert s["k"] == k and s["effects"]["R03"]["heroes"] == ["almanor", "choros", "eleanor"]
    choros = seat_of(s, "choros")
    assert not [a for a in legal(s, choros, "move") if a["hero"] == "choros"]
    while s["k"] == k:
        seat = sorted(GAME.to_act(s))[0]
        s = act(s, seat, {"type": "done"})
    assert "R03" not in s["effects"]
