"""Quests (§7.3, R16–R22), rewards (§7.2, R41) and the quest end of phase (R28)."""

from __future__ import annotations

from backend.games.dorasure.game import GAME

from .helpers import at_action

NEXT = (1, 1, 1, 1)  # the Ninja's movement roll when the turn passes to him


def test_solving_alone_gives_two_exp_and_the_reward(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/dragons_lair:revealed"},
    )
    assert {"type": "quest", "mountain": "m1", "invite": []} in t.legal("werewolf")
    t.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []}, 4, 4, *NEXT)  # Knowledge 2: 4 4 = 2
    m1 = t.s.mountains["m1"]
    assert m1["state"] == "solved" and m1["reward_state"] == "revealed" and m1["flags"] == 0
    w = t.hero("werewolf")
    assert w["exp"] == 2 and w["level"] == 2 and w["knowledge"] == 3  # werewolf L2: Knowledge +1
    # First Dragon's Lair: 1 damage and the meter moves up 1 (R41).
    assert t.s.swords == 1 and t.s.meter == 1 and t.s.lair_found


def test_second_lair_does_not_move_the_meter(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/dragons_lair:revealed"},
        lair_found=True,
        swords=1,
    )
    t.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []}, 4, 4, *NEXT)
    assert t.s.swords == 2 and t.s.meter == 0


def test_failure_leaves_flags_that_count_later(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/book_of_dragons:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []}, 4, 2, *NEXT)  # total 1 < 2
    assert t.s.mountains["m1"]["flags"] == 1 and t.s.mountains["m1"]["state"] == "revealed"
    t2 = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/book_of_dragons:revealed:1"},
    )
    t2.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []}, 4, 2, *NEXT)  # 1 flag + 1 = 2
    assert t2.s.mountains["m1"]["state"] == "solved"
    # Book of Dragons: every hero gains 1 EXP.
    assert t2.hero("ninja")["exp"] == 1 and t2.hero("werewolf")["exp"] == 3


def test_a_bad_roll_can_lose_flags(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "p05"},
        "werewolf",
        mountains={"m2": "horde_of_goblins/book_of_dragons:revealed:2"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": []}, 1, 2, *NEXT)  # 2 - 1 = 1
    assert t.s.mountains["m2"]["flags"] == 1
    assert t.hero("werewolf")["hp"] == 4  # Horde of Goblins failure: 1 damage


def test_golem_start_damage_hits_participants_but_not_the_samurai(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "samurai": "belk", "werewolf": "p05"},
        "werewolf",
        mountains={"m2": "golem_guardian/book_of_dragons:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": ["samurai"]})
    assert t.to_act() == frozenset({"samurai"}) and t.prompt("samurai") == "assist"
    assert GAME.default_action(t.s, "samurai") == {"type": "decline"}
    t.act("samurai", {"type": "accept"})
    # Training gave the Samurai 1 point before the pools: he is asked to spend it.
    assert t.hero("samurai")["res"] == 1 and t.prompt("samurai") == "spend"
    assert t.hero("werewolf")["hp"] == 4 and t.hero("samurai")["hp"] == 5  # Godspeed
    # Combat 3: werewolf 2 dice + samurai 3 dice = 4 2 2 + 4 4 → 3: success, 1 EXP each.
    t.act("samurai", {"type": "spend", "amount": 0}, 4, 2, 4, 4, 2, *NEXT)
    assert t.s.mountains["m2"]["state"] == "solved"
    assert t.hero("werewolf")["exp"] == 1 + 1 and t.hero("samurai")["exp"] == 1 + 1  # quest 1 + Book 1


def test_declined_invitation_means_solo_exp(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "gladiator": "belk", "werewolf": "p05"},
        "werewolf",
        mountains={"m2": "evil_chimera/anti_dragon_weapons:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": ["gladiator"]})
    t.act("gladiator", {"type": "decline"}, 4, 4, *NEXT)  # chimera: 1 damage to the werewolf, then 4 4 = 2
    assert t.hero("werewolf")["exp"] == 2 and t.hero("werewolf")["hp"] == 4
    assert t.hero("gladiator")["hp"] == 6 and t.s.weapons


def test_sphinx_is_alone_and_fails_for_two(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "gladiator": "belk", "werewolf": "p05"},
        "werewolf",
        mountains={"m2": "riddle_of_the_sphinx/treasure:revealed"},
    )
    assert [a for a in t.legal("werewolf") if a["type"] == "quest"] == [
        {"type": "quest", "mountain": "m2", "invite": []}
    ]
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": []}, 2, 1, *NEXT)
    assert t.hero("werewolf")["hp"] == 3


def test_teleportation_trap_sends_the_leader_home(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "shaman": "p07"},
        "shaman",
        mountains={"m3": "teleportation_trap/treasure:revealed"},
    )
    t.act("shaman", {"type": "quest", "mountain": "m3", "invite": []})
    t.act("shaman", {"type": "spend", "amount": 0}, 2, 2, *NEXT)
    assert t.hero("shaman")["pos"] == "lake"


def test_labyrinth_traps_until_solved(monkeypatch):
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "p15"},
        "werewolf",
        mountains={"m4": "underground_labyrinth/treasure:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m4", "invite": []}, 2, 2, 1, 1, 1, 1)
    assert t.hero("werewolf")["trapped"] == "m4"
    t.act("ninja", {"type": "end_move"})
    t.act("ninja", {"type": "end_turn"}, 6, 5, 4)  # the werewolf still rolls movement; the 6 counts
    assert t.s.meter == 1 and t.prompt("werewolf") == "act"  # no movement while trapped
    assert all(a["type"] == "quest" and a["mountain"] == "m4" for a in t.legal("werewolf"))
    assert GAME.default_action(t.s, "werewolf") == {"type": "quest", "mountain": "m4", "invite": []}
    t.act("werewolf", {"type": "quest", "mountain": "m4", "invite": []}, 6, 2, 4, *NEXT)  # 2 + 1 = 3
    assert t.hero("werewolf")["trapped"] is None and t.s.mountains["m4"]["state"] == "solved"
    assert t.s.relic


def test_solving_the_last_quest_ends_the_phase(monkeypatch):
    solved = {
        m: f"{q}/{r}:solved"
        for m, q, r in [
            ("m2", "golem_guardian", "book_of_dragons"),
            ("m3", "horde_of_goblins", "treasure"),
            ("m4", "evil_chimera", "anti_dragon_weapons"),
            ("m5", "teleportation_trap", "dragons_lair"),
        ]
    }
    t = at_action(
        monkeypatch,
        {"ninja": {"pos": "city", "res": 0}, "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/dragons_lair:revealed", **solved},
        meter=2,
        relic=True,
    )
    # 4 4 solves; the first Lair moves the meter to 3 → a Rampage (3: scorch) → then the phase ends.
    # The Werewolf triggered it and attacks first: Combat 2, 4 2 → 1 = fire blast... use 6→4 6→4 = 4.
    t.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []}, 4, 4, 3, 6, 4, 6, 4)
    assert "rampage" in t.kinds() and t.s.phase == 2 and t.s.trigger == "werewolf"
    assert t.prompt("werewolf") == "extra_turn"  # Gauntlets (the Treasure was found)


def test_beside_two_mountains_the_hero_picks_one_and_assisting_is_not_an_action(monkeypatch):
    # R63: Belk borders Widowpeak (m1) and Ashcrown (m2): each is offered for what its tile allows.
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "belk"},
        "werewolf",
        mountains={"m2": "golem_guardian/book_of_dragons:revealed"},
    )
    acts = t.legal("werewolf")
    assert {"type": "gather", "mountain": "m1"} in acts and {
        "type": "quest",
        "mountain": "m2",
        "invite": [],
    } in acts
    assert not any(a["type"] == "gather" and a["mountain"] == "m2" for a in acts)
    # p12 borders The Anvil (m3) and Howling Tor (m4); Hollowmere borders both too; p15 only m4.
    t = at_action(
        monkeypatch,
        {
            "gladiator": {"pos": "p15"},
            "samurai": {"pos": "hollowmere", "res": 0},
            "werewolf": {"pos": "p12"},
        },
        "werewolf",
        mountains={
            "m3": "mysterious_inscriptions/anti_dragon_weapons:revealed",
            "m4": "horde_of_goblins/dragons_lair:revealed",
        },
        lair_found=True,
    )
    quests = [a for a in t.legal("werewolf") if a["type"] == "quest"]
    assert {(a["mountain"], tuple(a["invite"])) for a in quests} == {
        ("m3", ()),
        ("m3", ("samurai",)),
        ("m4", ()),
        ("m4", ("gladiator",)),
        ("m4", ("samurai",)),
        ("m4", ("gladiator", "samurai")),
    }
    t.act("werewolf", {"type": "quest", "mountain": "m3", "invite": ["samurai"]})
    t.act("samurai", {"type": "accept"})  # Training: 1 point, so he is asked to spend
    # Knowledge 2 + 2 dice: 4 4 2 2 = 2, solved; one action only: the turn passes to the Gladiator.
    t.act("samurai", {"type": "spend", "amount": 0}, 4, 4, 2, 2, 1, 1, 1)
    assert t.s.mountains["m3"]["state"] == "solved" and t.s.current == "gladiator"
    assert t.prompt("werewolf") is None and t.prompt("gladiator") == "move"
    t.act("gladiator", {"type": "end_move"})
    # Same round, the Samurai assists again, at the other mountain.
    t.act("gladiator", {"type": "quest", "mountain": "m4", "invite": ["samurai"]})
    t.act("samurai", {"type": "accept"})
    t.act("samurai", {"type": "spend", "amount": 0}, 4, 4, 4, 2, 2, 2, 1, 1, 1)  # Combat 3 + 3: 3, solved
    assert t.s.mountains["m4"]["state"] == "solved"
    assert (
        t.hero("samurai")["exp"] == 2 and t.hero("samurai")["res"] == 2
    )  # two attempts, two Training points


def test_a_negative_total_leaves_no_flags(monkeypatch):
    # R18: flags := max(0, total).
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/book_of_dragons:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []}, 1, 2, *NEXT)  # total -1
    assert t.event("quest_failure")["total"] == -1 and t.s.mountains["m1"]["flags"] == 0


def test_a_leader_felled_by_the_start_effect_ends_the_attempt(monkeypatch):
    # §7.3 step 5 / R23 / R25: the Chimera's start damage fells the leader; the revival roll saves
    # him, but the attempt ends: no roll, no failure effect, flags unchanged, and his turn is over.
    t = at_action(
        monkeypatch,
        {"ninja": "city", "werewolf": {"pos": "p05", "hp": 1}},
        "werewolf",
        mountains={"m2": "evil_chimera/book_of_dragons:revealed:1"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": []}, 6, 2, *NEXT)  # revival 6 2
    assert "quest_abort" in t.kinds() and "roll" not in t.kinds()
    assert t.s.mountains["m2"]["flags"] == 1 and t.s.mountains["m2"]["state"] == "revealed"
    assert t.hero("werewolf")["pos"] == "city" and t.s.current == "ninja"


def test_an_assistant_felled_by_the_start_effect_drops_out(monkeypatch):
    # §7.3 step 5 + R17: the fallen helper is revived at home and leaves; the leader solves alone: 2 EXP.
    t = at_action(
        monkeypatch,
        {"ninja": "city", "gladiator": {"pos": "belk", "hp": 1}, "werewolf": "p05"},
        "werewolf",
        mountains={"m2": "evil_chimera/anti_dragon_weapons:revealed"},
    )
    t.act("werewolf", {"type": "quest", "mountain": "m2", "invite": ["gladiator"]})
    # Chimera: 1 damage each; the Gladiator falls (revival 2 6 1); the Werewolf rolls alone 4 4 = 2.
    t.act("gladiator", {"type": "accept"}, 2, 6, 1, 4, 4, *NEXT)
    assert t.event("roll")["dice"] == {"werewolf": [[4], [4]]}
    assert t.hero("werewolf")["exp"] == 2 and t.hero("gladiator")["exp"] == 0
    assert t.hero("gladiator")["pos"] == "city" and t.s.mountains["m2"]["state"] == "solved"
