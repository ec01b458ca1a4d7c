"""Forking a finished Dorasure game at one of its steps (issue 14.5, docs/rules/dorasure.md
"Forks"): the state there, with the dice of the fork's own seed and the face-down tiles dealt
again from it.

Everything a seat saw stays as it was (heroes, the Dragon, the meter, face-up tiles, Fang's lands,
a roll or a movement in progress).  What no seat could see is what the bots' determiniser draws
(determinise.py, "What is drawn"), and the fork draws it from the same groups, but from the real
state, which knows every tile:

* quest tiles never seen face up (``State.public``), wherever they lie face down (a hidden
  mountain or the reserve), are shuffled among those places;
* tiles seen once and put back face down by Quest Replenishing (R59) to a place no one saw (the
  reserve, or a replenished mountain still hidden) are shuffled among those places;
* face-down rewards (``reward_state == "hidden"``) are shuffled among their mountains.

A mountain removed at the end of the Adventure phase keeps its tiles: they are out of play.
"""

from __future__ import annotations

from backend.engine.rng import Rng

from .content import MOUNTAINS
from .state import State

RESERVE = "reserve:"  # a reserve place: "reserve:0"...; the reserve is a sorted set of tiles


def fork_state(state: State, seed: bytes) -> State:
    s = state.clone()
    rng = Rng(seed)
    public = set(s.public)
    unseen: dict[str, str] = {}  # place -> tile, for the tiles nobody has seen face up
    unplaced: dict[str, str] = {}  # place -> tile, seen once but put back where nobody saw
    for m in MOUNTAINS:
        mt = s.mountains[m]
        if mt["state"] == "hidden":
            if mt["quest"] not in public:
                unseen[m] = mt["quest"]
            elif mt["replenished"]:
                unplaced[m] = mt["quest"]
    for i, tile in enumerate(s.reserve):
        (unplaced if tile in public else unseen)[f"{RESERVE}{i}"] = tile
    quests = {**_deal(unseen, rng), **_deal(unplaced, rng)}
    rewards = _deal(
        {m: s.mountains[m]["reward"] for m in MOUNTAINS if s.mountains[m]["reward_state"] == "hidden"}, rng
    )
    for m in MOUNTAINS:
        if m in quests or m in rewards:
            mt = s.mountains[m].copy()  # a mountain dict is replaced, never edited (state.py)
            mt["quest"] = quests.get(m, mt["quest"])
            mt["reward"] = rewards.get(m, mt["reward"])
            s.mountains[m] = mt
    s.reserve = sorted(quests.get(f"{RESERVE}{i}", tile) for i, tile in enumerate(s.reserve))
    s.seed, s.counter = seed.hex(), rng.counter
    return s


def _deal(places: dict[str, str], rng: Rng) -> dict[str, str]:
    """The tiles now at ``places``, dealt among them again (sorted first, so the deal depends on
    the seed and the tiles, not on where they lay)."""
    return dict(zip(places, rng.shuffled(sorted(places.values())), strict=True))
