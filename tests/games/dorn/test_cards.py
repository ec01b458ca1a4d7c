"""Ritual and Blessing cards (content 4.1, 4.2, 4.5): each card's effect on an exact position."""

from __future__ import annotations

from backend.games.dorn.catalog import BLESSINGS, MONSTERS, RITUALS, hero_stat
from backend.games.dorn.rules import summoning, turns
from backend.games.dorn.state import Work

from .position import act, c, edit, legal, position, seat_of


def _with_ritual(s: dict, card: str, blood: int = 16) -> dict:
    return edit(s, lambda w: w.s.update(ritual_hand=[card], blood=blood))


def _with_blessing(s: dict, seat: str, card: str) -> dict:
    def give(w: Work) -> None:
        w.s["blessings"][seat] = card

    return edit(s, give)


def _place(s: dict, mtype: str, x: int, y: int) -> tuple[dict, str]:
    out: list[str] = []
    s = edit(s, lambda w: out.append(summoning.place_monster(w, mtype, c(x, y), keeper_turn=False, why="test")))
    return s, out[0]


def _hero_at(s: dict, hid: str, x: int, y: int) -> dict:
    def put(w: Work) -> None:
        w.s["heroes"][hid]["cell"] = c(x, y)

    return edit(s, put)


def _play_ritual(s: dict, card: str) -> dict:
    s = act(s, "keeper", {"type": "play_ritual", "card": card})
    assert s["blood"] == 16 - RITUALS[card]["cost"]
    return s


# -- Rituals ------------------------------------------------------------------------------


def test_r01_slime_of_despair_lets_new_bog_beasts_act_at_once():
    s = _play_ritual(_with_ritual(position("", phase="K1"), "R01"), "R01")
    assert s["rituals_in_play"] == ["R01"]
    s = act(s, "keeper", {"type": "done"})  # to K2 (Day: 1 weak)
    s = act(s, "keeper", {"type": "summon", "monster": "bogbeast", "to": [2, 13]})
    mid = next(m for m, v in s["monsters"].items() if v["cell"] == c(2, 13))
    assert s["monsters"][mid]["wait"] is False
    # The day's one summon is made: the step moves on to K3, where it has its full Move.
    assert s["phase"] == turns.MONSTER_MOVES and s["monsters"][mid]["mv"] == MONSTERS["bogbeast"]["move"]


def test_r02_black_fountain_heals_creatures_not_heroes():
    s = position("", phase="K1")
    s, mid = _place(s, "bogbeast", 5, 11)  # a fountain
    s = edit(s, lambda w: w.monster(mid).update(dmg=1))
    s = _play_ritual(_with_ritual(s, "R02"), "R02")
    w = Work(s)
    turns.resolve_and_end_keeper_turn(w)  # K5.1
    assert w.s["monsters"][mid]["dmg"] == 0
    # H4: a wounded hero on the other fountain does not heal.
    s = _hero_at(position("", phase="H3"), "almanor", 20, 12)
    s = edit(s, lambda w: w.s.update(rituals_in_play=["R02"]))
    s = edit(s, lambda w: w.s["heroes"]["almanor"].update(life=1))
    w = Work(s)
    turns.end_hero_turn(w)
    assert w.s["heroes"]["almanor"]["life"] == 1


def test_r04_bloodlust_gives_every_creature_two_more_movement_this_keeper_turn():
    s = position("", phase="K1")
    s, zombie = _place(s, "zombie", 19, 8)
    s = _play_ritual(_with_ritual(s, "R04"), "R04")
    assert s["effects"] == {"R04": "keeper_turn_end"}
    w = Work(s)
    turns.enter_phase(w, turns.MONSTER_MOVES)
    assert w.s["monsters"][zombie]["mv"] == MONSTERS["zombie"]["move"] + 2
    turns.resolve_and_end_keeper_turn(w)  # K5.3: it expires
    assert w.s["effects"] == {}


def test_r05_hungry_rats_move_nine():
    s = position("", phase="K1")
    s, rat = _place(s, "rat", 18, 14)
    s = _play_ritual(_with_ritual(s, "R05"), "R05")
    w = Work(s)
    turns.enter_phase(w, turns.MONSTER_MOVES)
    assert w.s["monsters"][rat]["mv"] == 9


# -- Blessings ----------------------------------------------------------------------------


def test_b02_exchange_of_places_swaps_two_heroes():
    s = _hero_at(_hero_at(position("", phase="H1"), "almanor", 8, 12), "choros", 12, 13)
    seat = seat_of(s, "almanor")
    s = _with_blessing(s, seat, "B02")
    options = [a for a in legal(s, seat, "play_blessing") if a["hero"] == "almanor"]
    assert {"type": "play_blessing", "card": "B02", "hero": "almanor", "other": "choros"} in options
    s = act(s, seat, {"type": "play_blessing", "card": "B02", "hero": "almanor", "other": "choros"})
    assert s["heroes"]["almanor"]["cell"] == c(12, 13) and s["heroes"]["choros"]["cell"] == c(8, 12)


def test_b03_mending_light_heals_three():
    s = position("", phase="H1")
    top = hero_stat("choros", "life", 1)
    s = edit(s, lambda w: w.s["heroes"]["choros"].update(life=top - 4, rot=True))
    seat = seat_of(s, "choros")
    s = act(_with_blessing(s, seat, "B03"), seat, {"type": "play_blessing", "card": "B03", "hero": "choros"})
    assert s["heroes"]["choros"]["life"] == top - 1 and s["heroes"]["choros"]["rot"] is False


def test_b06_judgement_kills_a_monster_within_twelve_and_gives_its_xp():
    s = _hero_at(position("", phase="H1"), "almanor", 8, 12)
    s, near = _place(s, "mummy", 14, 13)
    s, far = _place(s, "zombie", 20, 8)
    seat = seat_of(s, "almanor")
    s = _with_blessing(s, seat, "B06")
    targets = {a["target"] for a in legal(s, seat, "play_blessing") if a["hero"] == "almanor"}
    assert near in targets and far not in targets
    s = act(s, seat, {"type": "play_blessing", "card": "B06", "hero": "almanor", "target": near})
    assert near not in s["monsters"] and s["heroes"]["almanor"]["xp"] == MONSTERS["mummy"]["xp"]


def test_b07_battle_fervour_two_more_attacks_in_the_attack_step():
    s = position("", phase="H1")
    seat = seat_of(s, "almanor")
    s = act(_with_blessing(s, seat, "B07"), seat, {"type": "play_blessing", "card": "B07", "hero": "almanor"})
    w = Work(s)
    turns.enter_phase(w, turns.HERO_ATTACKS)
    assert w.s["heroes"]["almanor"]["actions"] == 1 + 2  # Almanor L1 attacks 1


def test_b09_herbalists_call_goes_to_the_herbalist_or_along_the_trail():
    s = position("", phase="H1")
    seat = seat_of(s, "almanor")
    s = _with_blessing(s, seat, "B09")
    after = act(s, seat, {"type": "play_blessing", "card": "B09", "hero": "almanor"})
    assert after["heroes"]["almanor"]["cell"] == c(0, 12)
    taken = _hero_at(s, "choros", 0, 12)
    after = act(taken, seat, {"type": "play_blessing", "card": "B09", "hero": "almanor"})
    assert after["heroes"]["almanor"]["cell"] == c(0, 13)  # the nearest trail cell from (0,12)
    # A user already on the Herbalist is not offered the card.
    there = _hero_at(s, "almanor", 0, 12)
    assert not [a for a in legal(there, seat, "play_blessing") if a["hero"] == "almanor"]


def test_b12_swiftness_ten_blessing_class_steps_survive_rubble():
    s = position("", phase="H1")
    seat = seat_of(s, "almanor")
    s = act(_with_blessing(s, seat, "B12"), seat, {"type": "play_blessing", "card": "B12", "hero": "almanor"})
    assert s["heroes"]["almanor"]["mv"][2] == 10


def test_every_card_has_its_text_in_static_info():
    from .position import GAME

    info = GAME.static_info(GAME.normalize_options({}))
    for group in ("rituals", "blessings", "treasures"):
        assert all(card["text"] for card in info[group].values())
    assert set(info["blessings"]) == set(BLESSINGS)
