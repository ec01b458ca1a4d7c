"""The Keeper's turn: Blood step, summoning, movement, day/night; artifacts and the Gate;
victory and surrender (RB Dornkeeper's Turn, Summoning, Artifacts, Gate of Doom, Victory;
content 5.1, 5.2, 5.9; rulings 18-21, 28-31, 46, 49, 50)."""

import pytest

from backend.engine.core import IllegalAction
from backend.engine.rng import seed_from_int
from backend.games.dorn.board import BOARD
from backend.games.dorn.catalog import RITUALS
from backend.games.dorn.rules import combat, summoning, turns
from backend.games.dorn.state import Work

from .position import GAME, act, at, c, edit, goto, legal, monster_at, position, seat_of


def summons(state):
    return legal(state, "keeper", "summon") + legal(state, "keeper", "summon_strong")


def test_setup():
    opts = GAME.normalize_options(
        {
            "heroes": ["riel", "gor", "vargen", "almanor", "choros"],
            "split": [["riel"], ["gor", "vargen", "almanor", "choros"]],
        }
    )
    s = GAME.initial_state(seed_from_int(3), opts)
    assert [x.seat for x in GAME.seats(opts)] == ["keeper", "heroes_1", "heroes_2"]
    assert all(h["cell"] in BOARD.argos and h["level"] == 1 and h["xp"] == 0 for h in s["heroes"].values())
    assert s["heroes"]["choros"]["life"] == 6
    types = sorted(m["type"] for m in s["monsters"].values())
    assert types.count("zombie") == 2 and types.count("rat") == 1 and types.count("bogbeast") == 1
    assert sum(1 for m in s["monsters"].values() if m["type"] in ("ghost", "mummy", "vampire", "gorgon")) == 1
    assert sorted(m["cell"] for m in s["monsters"].values()) == sorted(BOARD.n_spaces)
    assert sum(s["bag"].values()) == 11
    assert len(s["ritual_hand"]) == 6 and len(s["ritual_deck"]) == 6
    assert all(card is not None for card in s["blessings"].values()) and len(s["blessing_deck"]) == 10
    assert len(s["treasure_deck"]) == 24 and len(s["tokens"]) == 24
    assert {a["cell"] for a in s["artifacts"].values()} == set(BOARD.artifact_homes.values())
    assert (s["k"], s["phase"], s["blood"], s["gate"]) == (1, "K1", 0, False)
    assert GAME.to_act(s) == {"keeper"}
    # Seeded shuffles: the same seed deals the same cards, another seed differs somewhere.
    again = GAME.initial_state(seed_from_int(3), opts)
    assert again == s
    other = GAME.initial_state(seed_from_int(4), opts)
    assert (other["ritual_hand"], other["treasure_deck"]) != (s["ritual_hand"], s["treasure_deck"])


@pytest.mark.parametrize(
    "options,code",
    [
        ({"heroes": ["riel"]}, "hero_count"),
        ({"heroes": ["riel", "riel", "gor", "vargen", "almanor"]}, "duplicate_hero"),
        ({"heroes": ["zorkal", "riel", "gor", "vargen", "almanor"]}, "unknown_hero"),
        ({"heroes": ["riel", "gor", "vargen", "almanor", "choros"], "split": [["riel"], []]}, "bad_split"),
        ({"heroes": ["riel", "gor", "vargen", "almanor", "choros"], "split": [["riel", "gor"]]}, "bad_split"),
        ({"round_limit": 0}, "bad_option"),
        ({"colour": "red"}, "unknown_option"),
    ],
)
def test_options_are_checked(options, code):
    from backend.engine.core import InvalidOptions

    with pytest.raises(InvalidOptions) as e:
        GAME.normalize_options(options)
    assert e.value.code == code and e.value.message


def test_day_one_weak_in_its_own_zone():
    s = position("", phase="K2", k=1)
    options = summons(s)
    assert options and all(a["type"] == "summon" for a in options)
    for a in options:
        zone = {"rat": "sewers", "zombie": "graveyard", "skeleton": "crypt", "bogbeast": "black_moor"}[
            a["monster"]
        ]
        assert BOARD.idx(*a["to"]) in BOARD.zones[zone]
    after = act(s, "keeper", {"type": "summon", "monster": "rat", "to": [18, 14]})
    assert after["phase"] != "K2"  # one weak by Day, nothing left to summon
    assert at(after, 18, 14) is not None


def test_night_two_weak_or_one_strong():
    s = position("", phase="K2", k=2)
    assert legal(s, "keeper", "summon_strong") and legal(s, "keeper", "summon")
    one = act(s, "keeper", {"type": "summon", "monster": "rat", "to": [18, 14]})
    assert legal(one, "keeper", "summon") and not legal(one, "keeper", "summon_strong")
    two = act(one, "keeper", {"type": "summon", "monster": "zombie", "to": [19, 8]})
    assert two["phase"] != "K2"
    strong = act(s, "keeper", legal(s, "keeper", "summon_strong")[0])
    assert strong["phase"] != "K2"
    assert sum(strong["bag"].values()) == sum(s["bag"].values()) - 1
    placed = [m for m in strong["monsters"].values() if m["cell"] in BOARD.zones["dark_temple"]]
    assert len(placed) == 1 and placed[0]["type"] in ("ghost", "mummy", "vampire", "gorgon")


def test_occupied_cells_and_full_zones_cannot_be_used():
    s = position("", phase="K2", k=1)

    def fill_sewers(w):
        for cell in BOARD.zones["sewers"]:
            summoning.place_monster(w, "zombie", cell, keeper_turn=False, why="t")
        goto(w, "K2")

    s = edit(s, fill_sewers)
    assert not [a for a in summons(s) if a.get("monster") == "rat"]
    assert [a for a in summons(s) if a.get("monster") == "skeleton"]


def test_eight_of_each_weak_type_at_most():
    s = position("", phase="K2", k=1)

    def eight_rats(w):
        for cell in [c(x, 8) for x in range(6, 14)]:
            summoning.place_monster(w, "rat", cell, keeper_turn=False, why="t")
        goto(w, "K2")

    s = edit(s, eight_rats)
    assert not [a for a in summons(s) if a.get("monster") == "rat"]
    with pytest.raises(IllegalAction):
        GAME.validate(s, "keeper", {"type": "summon", "monster": "rat", "to": [18, 14]})


def test_summoned_bog_beast_waits_but_others_act():
    s = position("", phase="K2", k=2)
    s = act(s, "keeper", {"type": "summon", "monster": "bogbeast", "to": [2, 13]})
    s = act(s, "keeper", {"type": "summon", "monster": "rat", "to": [18, 14]})
    beast, rat = monster_at(s, 2, 13), monster_at(s, 18, 14)
    assert s["phase"] == "K3"
    figures = {a["figure"] for a in legal(s, "keeper", "move")}
    assert rat in figures and beast not in figures
    # A starting bog beast (not summoned this turn) moves normally.
    start = GAME.initial_state(seed_from_int(1), GAME.normalize_options({}))
    w = Work(start)
    goto(w, "K3")
    beasts = [mid for mid, m in w.s["monsters"].items() if m["type"] == "bogbeast"]
    assert {a["figure"] for a in legal(w.finish().state, "keeper", "move")} >= set(beasts)


def test_waiting_bog_beast_does_not_attack():
    s = position("R", (5, 13), phase="K2", k=1)
    s = act(s, "keeper", {"type": "summon", "monster": "bogbeast", "to": [4, 13]})
    # Without the wait the Keeper would now be asked to declare its attack on Ragnar (K4).
    assert s["phase"] in ("H1", "H2") and s["heroes"]["ragnar"]["life"] == 5


def test_first_artifact_pick_up_gives_one_extra_strong_summon():
    s = position("R", (2, 1), phase="H2")  # Ragnar on A1, the axe's home
    seat = seat_of(s, "ragnar")
    s = act(s, seat, {"type": "pick_up", "hero": "ragnar", "artifact": "axe"})
    assert s["bonus"] == 1 and s["artifacts"]["axe"]["carrier"] == "ragnar"
    s = act(s, seat, {"type": "drop", "hero": "ragnar", "artifact": "axe"})
    s = act(s, seat, {"type": "pick_up", "hero": "ragnar", "artifact": "axe"})
    assert s["bonus"] == 1  # once per artifact per game
    # Next Keeper turn (Day, k=1): 1 weak plus the bonus strong.
    s = edit(s, lambda w: goto(w, "K2"))
    assert legal(s, "keeper", "summon_strong")
    s = act(s, "keeper", legal(s, "keeper", "summon_strong")[0])
    assert s["bonus"] == 0 and legal(s, "keeper", "summon")
    # Unused bonuses are lost after K2.
    lost = edit(position("", phase="K2"), lambda w: w.s.update(bonus=2))
    lost = act(lost, "keeper", {"type": "done"})
    assert lost["bonus"] == 0


def _keeper_turn_start(state):
    w = Work(state)
    turns.start_keeper_turn(w)
    return w.finish().state


def test_gate_opens_at_keeper_turn_start_with_three_artifacts_in_the_chamber():
    s = position("R", (11, 4), phase="H3")

    def deliver(w, n):
        ids = list(w.s["artifacts"])
        for aid in ids[: n - 1]:
            w.s["artifacts"][aid].update(carrier="ragnar", cell=None)  # carried by a hero there
        w.s["artifacts"][ids[n - 1]].update(cell=c(12, 5), carrier=None)  # lying on the floor

    two = _keeper_turn_start(edit(s, lambda w: deliver(w, 2)))
    assert not two["gate"]
    three = _keeper_turn_start(edit(s, lambda w: deliver(w, 3)))
    assert three["gate"]
    # Never closes: take them all away again.
    later = edit(three, lambda w: [a.update(carrier=None, cell=c(2, 1)) for a in w.s["artifacts"].values()])
    assert _keeper_turn_start(later)["gate"]
    # Once open, Zorkal moves in K3.
    k3 = edit(three, lambda w: goto(w, "K3"))
    assert any(a["figure"] == "zorkal" for a in legal(k3, "keeper", "move"))


def fill_chamber(w):
    for i, cell in enumerate(sorted(BOARD.chamber)):
        if w.occupancy().get(cell) is None:
            summoning.place_monster(
                w, ["zombie", "rat", "skeleton", "bogbeast"][i % 4], cell, keeper_turn=False, why="t"
            )


def end_keeper_turn(state):
    w = Work(state)
    goto(w, "K4")
    w.s["attacks"] = []
    turns.resolve_and_end_keeper_turn(w)
    return w.finish().state


def test_three_consecutive_full_chambers_win_for_the_keeper():
    s = edit(position("", phase="K4"), fill_chamber)
    s = end_keeper_turn(s)
    assert s["fill"] == 1 and s["outcome"] is None
    s = end_keeper_turn(s)
    assert s["fill"] == 2 and s["outcome"] is None
    # A gap resets the count.
    gap = edit(s, lambda w: w.s["monsters"].pop(w.occupancy()[min(BOARD.chamber)]))
    assert end_keeper_turn(gap)["fill"] == 0
    s = end_keeper_turn(s)
    assert s["outcome"]["result"] == "keeper_wins" and s["outcome"]["winners"] == ["keeper"]
    assert GAME.outcome(s).winners == {"keeper"}


def test_heroes_count_for_the_chamber_too():
    s = edit(position("R", (11, 4), phase="K4"), fill_chamber)
    assert end_keeper_turn(s)["fill"] == 1


def test_killing_zorkal_wins_for_the_heroes():
    s = position("", phase="H3", heroes=["ragnar"])
    s = edit(
        s,
        lambda w: (
            w.s.update(gate=True),
            w.s["zorkal"].update(life=1),
            w.s["heroes"]["ragnar"].update(cell=c(11, 2), actions=1),
        ),
    )
    after = act(
        s,
        seat_of(s, "ragnar"),
        {"type": "attack", "hero": "ragnar", "with": "rag.rapier", "target": "zorkal"},
    )
    assert after["outcome"]["result"] == "heroes_win"
    assert GAME.to_act(after) == frozenset()


def test_hero_death_drops_artifacts_destroys_cards_and_ends_the_game_when_all_die():
    s = position("", phase="K4", heroes=["ragnar"], split=None)

    def doom(w):
        for hid, h in w.s["heroes"].items():
            h["life"] = 0 if hid != "ragnar" else 1
            if hid != "ragnar":
                h["alive"], h["cell"] = False, None
        w.s["heroes"]["ragnar"].update(cell=c(12, 8), cards=["T09"], parries=0)
        w.s["artifacts"]["axe"].update(carrier="ragnar", cell=None)
        summoning.place_monster(w, "rat", c(11, 8), keeper_turn=False, why="t")
        w.moved()
        goto(w, "K4")
        w.s["heroes"]["ragnar"]["parries"] = 0

    s = edit(s, doom)
    s = act(s, "keeper", legal(s, "keeper", "attack")[0])
    h = s["heroes"]["ragnar"]
    assert not h["alive"] and h["cards"] == [] and h["cell"] is None
    assert s["artifacts"]["axe"] == {"cell": c(12, 8), "carrier": None, "picked": False}
    assert s["outcome"]["result"] == "keeper_wins"


def test_seat_blessing_discarded_when_its_last_hero_dies():
    s = position("", phase="K4", heroes=["ragnar"])
    seat = seat_of(s, "ragnar")
    w = Work(s)
    for hid in w.s["seats"][seat]:
        w.s["heroes"][hid]["life"] = 0
    card = w.s["blessings"][seat]
    combat.check_deaths(w)
    assert w.s["blessings"][seat] is None and card in w.s["blessing_discard"]


def test_ritual_play_pays_cost_once_per_turn():
    s = position("", phase="K1")
    s = edit(s, lambda w: w.s.update(blood=16))
    hand = s["ritual_hand"]
    card = hand[0]
    after = act(s, "keeper", {"type": "play_ritual", "card": card})
    assert after["blood"] == 16 - RITUALS[card]["cost"]
    assert card not in after["ritual_hand"]
    assert card in after["ritual_discard"] + after["rituals_in_play"]
    assert not legal(after, "keeper", "play_ritual")  # one per Keeper turn (ruling 50)
    poor = edit(s, lambda w: w.s.update(blood=1))
    assert not legal(poor, "keeper", "play_ritual")


def test_blessing_played_by_a_named_hero_of_the_seat():
    s = position("", phase="H1")
    seat = "heroes_1"
    card = s["blessings"][seat]
    options = legal(s, seat, "play_blessing")
    assert {a["hero"] for a in options} == set(s["seats"][seat])
    after = act(s, seat, options[0])
    assert after["blessings"][seat] is None and card in after["blessing_discard"]


def test_round_limit_abandons():
    s = GAME.initial_state(seed_from_int(2), GAME.normalize_options({"round_limit": 1}))
    w = Work(s)
    w.s["k"] = 2
    turns.start_keeper_turn(w)
    assert w.s["outcome"] == {"result": "abandoned", "winners": [], "reason": "round_limit"}


def test_surrender():
    s = GAME.initial_state(seed_from_int(2), GAME.normalize_options({"hero_seats": 2}))
    keeper = act(s, "keeper", {"type": "surrender"})
    assert keeper["outcome"]["result"] == "heroes_win" and keeper["outcome"]["reason"] == "surrender"
    h = edit(s, lambda w: goto(w, "H2"))
    proposed = act(h, "heroes_1", {"type": "propose_surrender"})
    assert GAME.to_act(proposed) == {"heroes_2"}
    assert GAME.default_action(proposed, "heroes_2") == {"type": "surrender_vote", "accept": False}
    refused = act(proposed, "heroes_2", {"type": "surrender_vote", "accept": False})
    assert refused["outcome"] is None and refused["surrender"] is None
    accepted = act(proposed, "heroes_2", {"type": "surrender_vote", "accept": True})
    assert accepted["outcome"]["result"] == "keeper_wins"
    off = GAME.initial_state(seed_from_int(2), GAME.normalize_options({"allow_surrender": False}))
    assert not legal(off, "keeper", "surrender")


def test_day_and_night_follow_turn_parity():
    assert turns.is_day(1) and not turns.is_day(2) and turns.is_day(3)
    s = GAME.initial_state(seed_from_int(5), GAME.normalize_options({}))
    while s["k"] == 1:
        seat = sorted(GAME.to_act(s))[0]
        s = act(s, seat, GAME.default_action(s, seat))
    assert s["k"] == 2 and s["phase"] == "K1"
    s = act(s, "keeper", {"type": "done"})
    assert s["summon"]["strong"] == 1  # Night


def test_a_seat_may_take_back_done_until_the_last_one_arrives():
    """Content 5.8: a hero seat may take back *done* until the last seat's arrives; the
    phase_action_limit of 5.12 (what keeps random play finite) makes a forced done final."""
    split = [["almanor", "choros"], ["eleanor", "gor", "guelin"]]
    s = position("", phase="H2", heroes=[h for g in split for h in g], split=split)
    s = act(s, "heroes_1", {"type": "done"})
    assert GAME.to_act(s) == {"heroes_1", "heroes_2"}
    # Taking it back, or giving up (open to every seat at any time, content 5.9).
    assert legal(s, "heroes_1") == [{"type": "take_back_done"}, {"type": "propose_surrender"}]
    assert GAME.default_action(s, "heroes_1") is None  # it owes nothing
    with pytest.raises(IllegalAction):
        GAME.validate(s, "heroes_1", {"type": "move", "hero": "almanor", "to": [10, 17]})
    back = act(s, "heroes_1", {"type": "take_back_done"})
    assert back["done"] == [] and legal(back, "heroes_1", "move")
    # The last done closes the step: nobody can take anything back any more.
    closed = act(s, "heroes_2", {"type": "done"})
    assert closed["phase"] == "H3" and closed["done"] == []
    with pytest.raises(IllegalAction):
        GAME.validate(closed, "heroes_1", {"type": "take_back_done"})
    # A seat the phase_action_limit declared done stays done.
    limited = edit(s, lambda w: w.s.update(options={**w.s["options"], "phase_action_limit": 2}))
    limited = act(limited, "heroes_1", {"type": "take_back_done"})
    limited = act(limited, "heroes_1", {"type": "move", "hero": "almanor", "to": [10, 17]})
    assert "heroes_1" in limited["done"] and GAME.to_act(limited) == {"heroes_2"}
