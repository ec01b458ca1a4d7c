"""Absorption (R8), revival (R23–R25), EXP and levels (§5)."""

from __future__ import annotations

from backend.games.dorasure.game import GAME
from backend.games.dorasure.rules.flow import damage

from .helpers import Table


def test_absorption_is_a_prompt_to_the_damaged_hero(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "p05", "res": 2}, "hunter": {"pos": "p09", "res": 0, "hp": 1}})
    t.run_op(damage({"ninja": 3, "hunter": 0}, "test"))
    assert t.to_act() == frozenset({"ninja"}) and t.prompt("ninja") == "absorb"
    assert [a["amount"] for a in t.legal("ninja")] == [0, 1, 2]
    assert GAME.default_action(t.s, "ninja") == {"type": "absorb", "amount": 0}  # 4 - 3 ≥ 1 already
    t.act("ninja", {"type": "absorb", "amount": 2})
    assert t.hero("ninja")["hp"] == 3 and t.hero("ninja")["res"] == 0


def test_default_absorbs_only_what_keeps_the_hero_standing(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "p05", "res": 3, "hp": 2}, "hunter": "p09"})
    t.run_op(damage({"ninja": 3}, "test"))
    assert GAME.default_action(t.s, "ninja") == {"type": "absorb", "amount": 2}


def test_prince_names_the_pool(monkeypatch):
    t = Table(monkeypatch, {"ninja": "p05", "prince": {"pos": "p09", "res": 1, "gold": 1, "hp": 1}})
    t.run_op(damage({"prince": 2}, "test"))
    opts = t.legal("prince")
    assert {"type": "absorb", "amount": 2, "gold": 1} in opts and {
        "type": "absorb",
        "amount": 1,
        "gold": 1,
    } in opts
    assert GAME.default_action(t.s, "prince") == {"type": "absorb", "amount": 2, "gold": 1}
    t.act("prince", {"type": "absorb", "amount": 1, "gold": 1}, 6, 1)  # 1 damage gets through: revival roll
    assert t.hero("prince")["gold"] == 0 and t.hero("prince")["hp"] == 4 and t.kinds().count("revival") == 1


def test_one_revival_roll_for_several_deaths(monkeypatch):
    t = Table(
        monkeypatch,
        {
            "ninja": {"pos": "p05", "res": 0, "hp": 1},
            "hunter": {"pos": "p09", "res": 2, "hp": 1, "exp": 3},
            "shaman": {"pos": "p11", "res": 0, "hp": 1},
        },
    )
    t.run_op(damage({"ninja": 1, "shaman": 1}, "test"), 2, 6, 3)
    assert t.kinds().count("revival") == 1
    assert t.hero("ninja")["hp"] == 4 and t.hero("ninja")["pos"] == "city"
    assert t.hero("shaman")["hp"] == 6 and t.hero("shaman")["pos"] == "lake"
    assert (
        t.hero("hunter")["res"] == 0 and t.hero("hunter")["exp"] == 3
    )  # everyone's resources to 0; EXP kept


def test_no_six_on_the_revival_roll_is_defeat(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "p05", "res": 0, "hp": 1}, "hunter": "p09"})
    t.run_op(damage({"ninja": 1}, "test"), 5, 5)
    assert t.s.result[0] == "players_lose" and GAME.outcome(t.s).result == "players_lose"
    assert GAME.to_act(t.s) == frozenset()


def test_current_hero_dying_ends_his_turn_but_pending_sixes_resolve(monkeypatch):
    # Special Chance is off (2 heroes); a scorch at meter 3 kills the Hunter; his second 6 still counts.
    t = Table(
        monkeypatch,
        {"hunter": {"pos": "p05", "res": 0, "hp": 1}, "ninja": {"pos": "city", "res": 0}},
        current="hunter",
        meter=2,
    )
    t.start_turn(6, 6, 2, 3, 6, 1, 1, 1, 1, 1)  # scorch; revival 6 1; next: ninja rolls 1 1 1 1
    assert t.s.meter == 4
    assert t.hero("hunter")["pos"] == "city" and t.s.current == "ninja"


def test_levels_apply_growth(monkeypatch):
    t = Table(monkeypatch, {"gladiator": {"pos": "p05"}, "ninja": "city"})
    g = t.hero("gladiator")
    from backend.games.dorasure.rules.flow import Ctx
    from backend.games.dorasure.rules.heroes import gain_exp

    s = t.s.clone()
    ctx = Ctx(s)
    gain_exp(ctx, s.heroes["gladiator"], 4, "test")  # EXP 4 → level 3: Combat +1, max Health +1
    g = s.heroes["gladiator"]
    assert (g["level"], g["combat"], g["max_hp"], g["hp"]) == (3, 4, 7, 7)
    gain_exp(ctx, g, 20, "test")
    assert g["exp"] == 10 and g["level"] == 6 and g["pd"] == 3 and g["max_hp"] == 8
    assert [e.kind for e in ctx.events].count("level_up") == 5


def test_absorption_is_asked_in_seat_order_from_the_current_hero(monkeypatch):
    # R8 step 3: one prompt at a time, from the current hero clockwise; earlier answers are public.
    t = Table(
        monkeypatch,
        {"ninja": {"pos": "p05", "res": 2}, "hunter": {"pos": "p09", "res": 3}, "vampire": {"pos": "p11"}},
        current="hunter",
    )
    t.run_op(("rampage", 0), 3)  # scorch: 1 damage to everyone
    assert t.to_act() == frozenset({"hunter"})
    t.act("hunter", {"type": "absorb", "amount": 1})
    assert t.to_act() == frozenset({"vampire"})
    assert GAME.view(t.s, "vampire")["damage"] == {
        "source": "the Dragon's fire",
        "targets": {"ninja": 1, "hunter": 1, "vampire": 1},
        "absorbed": {"hunter": 1},
    }
    t.act("vampire", {"type": "absorb", "amount": 0})
    assert t.to_act() == frozenset({"ninja"})
    t.act("ninja", {"type": "absorb", "amount": 0})
    assert [t.hero(h)["hp"] for h in ("ninja", "hunter", "vampire")] == [3, 4, 3]
    assert t.hero("hunter")["res"] == 2 and GAME.view(t.s, None)["damage"] is None


# Content §6.3 "Derived level-6 sheets": Move, Plains/Forest Danger, C/S/K, max Health, max resource.
LEVEL_SIX = {
    "ninja": (4, 1, 3, 5, 3, 1, 4, 3),
    "gladiator": (3, 3, 1, 5, 1, 1, 8, 0),
    "samurai": (3, 2, 1, 5, 2, 3, 6, 3),
    "hunter": (3, 2, 3, 4, 4, 2, 4, 3),
    "werewolf": (3, 1, 2, 4, 3, 3, 6, 0),
    "shaman": (3, 1, 2, 3, 3, 4, 7, 1),
    "minstrel": (3, 1, 1, 3, 3, 3, 4, 5),
    "magician": (3, 1, 1, 4, 2, 4, 4, 5),
    "prince": (3, 2, 1, 4, 3, 2, 4, 6),
    "paladin": (3, 1, 1, 4, 2, 3, 7, 3),
    "vampire": (3, 1, 2, 5, 3, 3, 4, 5),
    "grand_master": (3, 2, 2, 5, 4, 3, 8, 4),
}


def test_level_six_sheets_match_the_content_file(monkeypatch):
    from backend.games.dorasure.rules.flow import Ctx
    from backend.games.dorasure.rules.heroes import attr, gain_exp

    for hid, sheet in LEVEL_SIX.items():
        heroes = (
            {hid: "city"}
            if hid == "grand_master"
            else {hid: "city", "ninja" if hid != "ninja" else "hunter": "city"}
        )
        t = Table(monkeypatch, heroes)
        s = t.s.clone()
        h = s.heroes[hid]
        gain_exp(Ctx(s), h, 20, "test")  # capped: EXP 10 (the Grand Master: 5), level 6
        got = (h["move"], h["pd"], h["fd"], *(attr(h, a) for a in ("combat", "search", "knowledge")))
        assert (*got, h["max_hp"], h["max_res"]) == sheet, hid
        assert h["level"] == 6 and h["exp"] == (5 if hid == "grand_master" else 10)
        assert h["regain"] == (2 if hid == "magician" else 1) and h["l6"] == (hid == "grand_master")


def test_a_revival_empties_servants_and_gold(monkeypatch):
    # R24 / R49: after a successful revival every hero's resources are 0, the Prince's Gold included.
    t = Table(
        monkeypatch,
        {"ninja": {"pos": "p05", "res": 0, "hp": 1}, "prince": {"pos": "p09", "res": 2, "gold": 4}},
    )
    t.run_op(damage({"ninja": 1}, "test"), 1, 6)
    assert t.hero("ninja")["hp"] == 4 and (t.hero("prince")["res"], t.hero("prince")["gold"]) == (0, 0)
