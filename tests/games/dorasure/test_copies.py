"""What the engine hands out is the caller's to keep: no list or dict of it is a part of the
state, of the memoised legal lists or of the content tables (issue 9 defect 8).  The contract
test over whole games is ``check_copies`` in tests/conformance.py; these are the issue's cases."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from backend.engine.playout import driver_rng, play_random
from backend.engine.replay import state_hash
from backend.engine.rng import seed_from_int
from backend.games.dorasure.content import DRAGON, HEROES
from backend.games.dorasure.game import GAME
from backend.games.dorasure.rules.flow import damage
from tests.conformance import vandalise

from .helpers import Table


def start(seed: int = 7) -> object:
    return GAME.initial_state(seed_from_int(seed), {"heroes": ["ninja", "hunter", "shaman"]})


def test_clearing_the_listed_actions_leaves_them_legal():
    s = start()
    listed = GAME.legal_actions(s, "ninja")
    kept = json.loads(json.dumps(listed))
    first = listed[0]
    first["to"] = "nowhere"
    listed.clear()
    assert GAME.legal_actions(s, "ninja") == kept
    for a in kept:
        GAME.validate(s, "ninja", a)


def test_a_views_last_movement_is_not_the_states():
    s = start()
    before = state_hash(GAME, s)
    v = GAME.view(s, "ninja")
    rolled = list(v["last"]["movement"]["dice"])
    v["last"]["movement"]["dice"].append(6)
    v["movement"]["rolled"].append(6)
    v["movement"]["path"].append("p05")
    v["prompts"][0]["seat"] = "hunter"
    assert state_hash(GAME, s) == before
    again = GAME.view(s, "ninja")
    assert again["last"]["movement"]["dice"] == rolled and again["prompts"][0]["seat"] == "ninja"


def test_a_views_roll_is_not_the_states(monkeypatch):
    t = Table(monkeypatch, {"hunter": "p05", "ninja": "city"}, current="hunter")
    t.start_turn(1, 1, 1)
    t.act("hunter", {"type": "end_move"})
    t.act("hunter", {"type": "adventure"})
    assert t.prompt("hunter") == "spend"
    before = state_hash(GAME, t.s)
    v = GAME.view(t.s, None)
    v["roll"]["participants"].append("ninja")
    v["roll"]["dice"]["ninja"] = [[6]]
    assert state_hash(GAME, t.s) == before


def test_the_movement_roll_event_holds_its_own_dice(monkeypatch):
    t = Table(monkeypatch, {"ninja": "city", "hunter": "city"})
    t.start_turn(2, 3, 4, 5)
    before = state_hash(GAME, t.s)
    t.event("movement_roll")["dice"].append(6)
    assert state_hash(GAME, t.s) == before
    assert t.s.move["rolled"] == [2, 3, 4, 5] and t.s.last["movement"]["dice"] == [2, 3, 4, 5]


def test_static_info_is_not_the_content():
    info = GAME.static_info(GAME.normalize_options({"heroes": ["ninja", "hunter"]}))
    fire = list(DRAGON["meter"]["fire"])
    info["meter"]["fire"].clear()
    info["heroes"]["ninja"]["growth"].clear()
    assert DRAGON["meter"]["fire"] == fire and HEROES["ninja"]["growth"]


def test_a_decoded_state_keeps_nothing_of_its_data(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "p05", "res": 2}, "hunter": "city"})
    t.run_op(damage({"ninja": 3}, "test"))
    assert t.prompt("ninja") == "absorb"
    t.s.queue += [damage({"hunter": 1}, "test"), ("checkpoint", [])]  # more waits on the answer
    data = json.loads(json.dumps(GAME.encode_state(t.s)))
    parts = [part for op in data["queue"] for part in op if isinstance(part, dict | list)]
    assert len(parts) == 2
    s = GAME.decode_state(data)
    before = state_hash(GAME, s)
    for part in parts:
        vandalise(part)
    assert state_hash(GAME, s) == before


def _containers(x: object, out: set[int]) -> set[int]:
    """The ids of every list and dict inside ``x`` (tuples walked through)."""
    if isinstance(x, dict):
        out.add(id(x))
        for v in x.values():
            _containers(v, out)
    elif isinstance(x, list | tuple):
        if isinstance(x, list):
            out.add(id(x))
        for v in x:
            _containers(v, out)
    return out


def test_events_hold_their_own_lists_and_dicts():
    """``Ctx.emit`` does not copy (issue 15.3): every rule passes data of its own making. No list or
    dict of an event is one of the state it came from, of the next state or of the action."""
    seen = 0

    def check(state: Any, seat: str, action: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        nonlocal seen
        t = GAME.apply(state, seat, action)
        held: set[int] = set()
        for s in (state, t.state):
            for f in dataclasses.fields(s):  # (not __slots__: a class compiled by mypyc has none)
                if f.name != "_cache":
                    _containers(getattr(s, f.name), held)
        _containers(action, held)
        for e in t.events:
            assert not _containers(e.data, set()) - {id(e.data)} & held, e.kind
            seen += 1

    for seed in range(40):
        options = GAME.sim_options(driver_rng(seed), None, {"fang": seed % 2 == 0})
        play_random(GAME, seed, options, on_step=check)
    assert seen > 5000
