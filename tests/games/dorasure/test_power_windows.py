"""Every optional power's window and limit, from exact positions (R39, §6.5, R43–R57).

Each case builds one position where the power's owner reaches its window and tells
whether the power is offered there.  The same dice are scripted whatever the
answer, so a case is run three ways: with the Treasure found and the power unused
(offered), without the Treasure (never offered for a Treasure power; offered for
the others), and with the power already used (never offered for a once-per-game
power).  A last group checks that phase-2 powers stay out of phase-1 rolls.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from backend.games.dorasure.rules.flow import damage

from .helpers import Table

Case = Callable[..., bool]


def types(t: Table, seat: str) -> set[str]:
    return {a["type"] for a in t.legal(seat)}


def flag(t: Table, seat: str, key: str) -> bool:
    return any(a.get(key) for a in t.legal(seat))


def lullaby(mp, relic: bool, used: tuple[str, ...]) -> bool:
    t = Table(
        mp,
        {"ninja": "city", "minstrel": {"pos": "city", "res": 0, "used": used}},
        current="minstrel",
        relic=relic,
    )
    t.start_turn(6, 6, 2)  # meter 0 → 2: no Rampage either way
    return "lullaby" in types(t, "minstrel")


def faith(mp, relic: bool, used: tuple[str, ...]) -> bool:
    t = Table(mp, {"ninja": "city", "paladin": {"pos": "city", "res": 0}}, current="paladin", relic=relic)
    t.start_turn(5, 3, 2)
    return "faith" in types(t, "paladin")


def ninja_reroll(mp, relic: bool, used: tuple[str, ...]) -> bool:
    t = Table(
        mp, {"ninja": {"pos": "city", "res": 0}, "hunter": {"pos": "city", "res": 1}}, phase=2, relic=relic
    )
    t.start_battle_turn(1, 1)  # declined or not offered: chomp, then the Hunter's spend prompt
    return "reroll" in types(t, "ninja")


def grand_reroll(mp, relic: bool, used: tuple[str, ...]) -> bool:
    gm = {"pos": "p05", "res": 0, "used": used}
    t = Table(mp, {"grand_master": gm}, current="grand_master", relic=relic)
    t.start_turn(1, 1, 1)
    t.act("grand_master", {"type": "end_move"})
    t.act("grand_master", {"type": "adventure"})
    # Mana gave him 1 point. Without the reroll the turn ends and his next one rolls movement.
    t.act("grand_master", {"type": "spend", "amount": 0}, 4, 4, *((1, 1, 1) if used else ()))
    return "reroll" in types(t, "grand_master")


def poisoned_bullets(mp, relic: bool, used: tuple[str, ...]) -> bool:
    heroes = {"hunter": {"pos": "city", "res": 0, "used": used}, "paladin": {"pos": "city", "res": 1}}
    t = Table(mp, heroes, phase=2, relic=relic)
    t.start_battle_turn(4, 3)  # total 1 if kept: a fire blast the Paladin may absorb
    return "poison" in types(t, "hunter")


def gust(mp, relic: bool, used: tuple[str, ...]) -> bool:
    heroes = {"samurai": {"pos": "city", "res": 1}, "paladin": {"pos": "city", "res": 1}}
    t = Table(mp, heroes, phase=2, relic=relic, current="samurai")
    t.start_battle_turn()
    return flag(t, "samurai", "gust")


def big_bang(mp, relic: bool, used: tuple[str, ...]) -> bool:
    heroes = {"magician": {"pos": "city", "res": 4}, "paladin": {"pos": "city", "res": 1}}
    t = Table(mp, heroes, phase=2, relic=relic, current="magician")
    t.start_battle_turn()  # Magic 4 → 5
    return "big_bang" in types(t, "magician")


def elixir(mp, relic: bool, used: tuple[str, ...]) -> bool:
    gm = {"pos": "city", "res": 0, "hp": 2, "used": ("grand_reroll", *used)}
    t = Table(mp, {"grand_master": gm}, phase=2, relic=relic)
    t.start_battle_turn()  # Mana +1: a spend prompt either way
    return flag(t, "grand_master", "elixir")


def doll(mp, relic: bool, used: tuple[str, ...]) -> bool:
    t = Table(mp, {"ninja": {"pos": "p05", "res": 0}, "shaman": {"pos": "p09", "res": 0}}, relic=relic)
    t.run_op(damage({"ninja": 2}, "test"))
    return "doll" in types(t, "shaman")


def platinum_shield(mp, relic: bool, used: tuple[str, ...]) -> bool:
    heroes = {"gladiator": "city", "paladin": {"pos": "city", "res": 1, "used": used}}
    t = Table(mp, heroes, phase=2, relic=relic, swords=2, current="gladiator")
    t.start_battle_turn(6, 4, 4, 4, 2)  # from behind covers claw box 3; retaliation 2: a blast
    return "shield" in types(t, "paladin")


def kiss_of_death(mp, relic: bool, used: tuple[str, ...]) -> bool:
    heroes = {"gladiator": "city", "vampire": {"pos": "city", "res": 1, "used": used}}
    t = Table(mp, heroes, phase=2, relic=relic, current="gladiator")
    t.start_battle_turn(1, 1, 2)  # chomp; then the Vampire's turn and spend prompt
    return "kiss" in types(t, "vampire")


def gauntlets(mp, relic: bool, used: tuple[str, ...]) -> bool:
    heroes = {"werewolf": "city", "paladin": {"pos": "city", "res": 1}}
    t = Table(mp, heroes, phase=2, relic=relic, current="werewolf")
    t.start_battle_turn(6, 4, 4)  # head-on; then the Paladin's turn and spend prompt
    return "extra_turn" in types(t, "werewolf")


def heroic_tune(mp, relic: bool, used: tuple[str, ...]) -> bool:
    heroes = {"werewolf": {"pos": "p05"}, "minstrel": {"pos": "city", "res": 2}}
    t = Table(mp, heroes, current="werewolf", relic=relic)
    t.start_turn(1, 1, 1)
    t.act("werewolf", {"type": "end_move"})
    t.act("werewolf", {"type": "adventure"})
    return "tune" in types(t, "minstrel")


# (case, needs the Treasure, once per game under this id)
CASES: dict[str, tuple[Case, bool, str | None]] = {
    "lullaby": (lullaby, True, "lullaby"),
    "faith": (faith, False, None),
    "ninja_reroll": (ninja_reroll, True, None),
    "grand_reroll": (grand_reroll, False, "grand_reroll"),
    "poisoned_bullets": (poisoned_bullets, True, "poisoned_bullets"),
    "gust": (gust, True, None),
    "big_bang": (big_bang, True, None),
    "elixir": (elixir, True, "elixir"),
    "doll": (doll, True, None),
    "platinum_shield": (platinum_shield, True, "platinum_shield"),
    "kiss_of_death": (kiss_of_death, True, "kiss_of_death"),
    "gauntlets": (gauntlets, True, None),
    "heroic_tune": (heroic_tune, False, None),
}


@pytest.mark.parametrize("power", sorted(CASES))
def test_power_window_treasure_and_limit(monkeypatch, power):
    case, treasure, once = CASES[power]
    assert case(monkeypatch, True, ()), f"{power} is not offered in its window"
    assert case(monkeypatch, False, ()) is not treasure, f"{power}: wrong Treasure gating (R39)"
    if once:
        assert not case(monkeypatch, True, (once,)), f"{power} is offered a second time"


def test_phase_two_powers_stay_out_of_adventure_rolls(monkeypatch):
    # R11/R53/R54/R55 and the Elixir: Combat-roll powers never touch a phase-1 Adventure roll,
    # even with the Treasure found.
    for hero in ("ninja", "hunter", "samurai", "magician", "grand_master"):
        heroes = {hero: {"pos": "f03", "res": 4 if hero in ("magician", "grand_master") else 3, "hp": 2}}
        if hero != "grand_master":
            heroes["paladin"] = "city"
        t = Table(monkeypatch, heroes, current=hero, relic=True)
        t.start_turn(*([1] * t.hero(hero)["move"]))
        t.act(hero, {"type": "end_move"})
        t.act(hero, {"type": "adventure"})
        assert t.prompt(hero) == "spend" and (hero != "magician" or t.hero(hero)["res"] == 5)
        legal = t.legal(hero)
        assert not any(a["type"] == "big_bang" or a.get("gust") or a.get("elixir") for a in legal), hero
        faces = [4] * (t.hero(hero)["fd"] + 3)
        after = () if hero == "grand_master" else (1, 1, 1)  # else the Paladin's movement roll
        t.act(hero, {"type": "spend", "amount": 3}, *faces, *after)
        offered = types(t, hero) if t.prompt(hero) == "post_roll" else set()
        assert "poison" not in offered and ("reroll" not in offered or hero == "grand_master"), hero


def test_ninja_reroll_is_once_per_battle_turn(monkeypatch):
    t = Table(
        monkeypatch,
        {"ninja": {"pos": "city", "res": 0}, "hunter": {"pos": "city", "res": 1}},
        phase=2,
        relic=True,
    )
    t.start_battle_turn(1, 1)
    t.act("ninja", {"type": "reroll"}, 1, 2)  # still a poor roll: no second reroll is offered
    assert t.prompt("ninja") is None and t.event("battle_result")["result"] == "chomp"
