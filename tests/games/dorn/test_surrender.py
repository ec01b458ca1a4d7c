"""Surrender at any time (content 5.9, ruling 31): the Keeper alone, the heroes by a vote, from
either side whoever is on turn."""

from __future__ import annotations

import pytest

from backend.engine.core import IllegalAction
from backend.engine.rng import seed_from_int

from .position import GAME, act, act_events, edit, goto, legal


def _table(**options):
    return GAME.initial_state(seed_from_int(2), GAME.normalize_options({"hero_seats": 2, **options}))


def test_the_keeper_may_surrender_during_the_heroes_turn():
    s = edit(_table(), lambda w: goto(w, "H2"))
    assert "keeper" not in GAME.to_act(s)
    assert legal(s, "keeper") == [{"type": "surrender"}]
    after = act(s, "keeper", {"type": "surrender"})
    assert after["outcome"] == {"result": "heroes_win", "winners": ["heroes_1", "heroes_2"], "reason": "surrender"}


def test_a_hero_player_may_propose_surrender_during_the_keepers_turn():
    s = _table()
    assert s["phase"] == "K1" and GAME.to_act(s) == {"keeper"}
    assert legal(s, "heroes_2") == [{"type": "propose_surrender"}]
    proposed, events = act_events(s, "heroes_2", {"type": "propose_surrender"})
    # The vote pauses the Keeper's step; a refusal gives it back to him, where it was.
    assert GAME.to_act(proposed) == {"heroes_1"} and proposed["phase"] == "K1"
    text = events[0].data["text"]
    assert "heroes_2" not in text and text.startswith("The player of ")
    refused = act(proposed, "heroes_1", {"type": "surrender_vote", "accept": False})
    assert refused["surrender"] is None and GAME.to_act(refused) == {"keeper"} and refused["phase"] == "K1"
    accepted = act(proposed, "heroes_1", {"type": "surrender_vote", "accept": True})
    assert accepted["outcome"]["result"] == "keeper_wins"


def test_giving_up_is_the_only_thing_a_seat_off_turn_may_do():
    s = _table()
    with pytest.raises(IllegalAction) as refused:
        GAME.validate(s, "heroes_1", {"type": "done"})
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        GAME.validate(s, "heroes_1", {"type": "surrender"})  # the heroes propose; they never concede alone
    GAME.validate(s, "heroes_1", {"type": "propose_surrender"})
    # While a proposal is being voted on, no second one, and the Keeper waits for the vote.
    proposed = act(s, "heroes_1", {"type": "propose_surrender"})
    assert legal(proposed, "heroes_1") == [] and legal(proposed, "keeper") == []


def test_no_giving_up_when_the_table_does_not_allow_it():
    s = _table(allow_surrender=False)
    assert legal(s, "heroes_1") == [] and "surrender" not in {a["type"] for a in legal(s, "keeper")}
    with pytest.raises(IllegalAction):
        GAME.validate(s, "heroes_1", {"type": "propose_surrender"})


def test_a_seat_with_no_living_hero_cannot_propose():
    def kill(w):
        for hid in w.s["seats"]["heroes_2"]:
            w.s["heroes"][hid].update(alive=False, cell=None, life=0)

    s = edit(_table(), kill)
    assert legal(s, "heroes_2") == [] and legal(s, "heroes_1") == [{"type": "propose_surrender"}]
