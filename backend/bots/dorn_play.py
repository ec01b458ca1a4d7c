"""Dorn's playbook (backend/bots/playbook.py).

Steady: the steering of games/dorn/sim.py (the Keeper's creatures engage the heroes or fill the
Ritual Chamber, the heroes carry artifacts to the chamber and then go for Zorkal, a share of
picks uniform among the listed actions), without its random surrenders: a steady seat votes
against a surrender and concedes only by ``gives_up``.

Gives up: a game that has lasted ``sim.GIVE_UP_TURN`` Keeper turns is conceded by the side that
is behind (the heroes while the Gate is closed, the Keeper once it is open), as the simulator
does: past that few games still end in a victory.

Score (for a rollout cut off at ``HORIZON`` actions): a victory is 1 and a defeat 0 (a game the
engine abandons, ½); otherwise a logistic of the heroes' progress (artifacts in the chamber or on
their way, the open Gate, Zorkal's wounds, heroes alive and their life) against the Keeper's
(heroes fallen, the chamber's fill count).
"""

from __future__ import annotations

import math
from typing import Any

from backend.engine.core import Action, Seat
from backend.engine.rng import Rng
from backend.games.dorn import sim
from backend.games.dorn.catalog import ZORKAL_STATS, hero_stat
from backend.games.dorn.rules.treasure import artifacts_in_chamber
from backend.games.dorn.rules.turns import KEEPER
from backend.games.dorn.state import reader

from .playbook import Playbook

HEROES = "heroes"
HORIZON = 60  # about two Keeper steps and a hero turn of steady play


def side(seat: Seat) -> str:
    return KEEPER if seat == KEEPER else HEROES


def gives_up(state: Any, seat: Seat, legal: list[Action]) -> Action | None:
    if not (state["k"] >= sim.GIVE_UP_TURN and bool(state["gate"]) == (seat == KEEPER)):
        return None
    if state["surrender"] is not None:
        return {"type": "surrender_vote", "accept": True}
    return next((a for a in legal if a["type"] in sim.GIVE_UP_TYPES), None)


def steady(state: Any, seat: Seat, legal: list[Action], rng: Rng) -> Action:
    conceded = gives_up(state, seat, legal)
    if conceded is not None and conceded in legal:
        return conceded
    if state["surrender"] is not None:
        return {"type": "surrender_vote", "accept": False}
    playing = [a for a in legal if a["type"] not in sim.GIVE_UP_TYPES] or legal
    return sim.choose(state, seat, playing, rng)


def score(state: Any, side_: str) -> float:
    outcome = state["outcome"]
    if outcome is not None:
        if outcome["result"] == "abandoned":
            return 0.5
        won = outcome["result"] == ("keeper_wins" if side_ == KEEPER else "heroes_win")
        return 1.0 if won else 0.0
    heroes = probability_heroes(state)
    return 1.0 - heroes if side_ == KEEPER else heroes


def probability_heroes(state: Any) -> float:
    """A rough chance that the heroes win from here (the weights were set by hand, then checked
    against steady games: see docs/bots.md)."""
    alive = [(hid, h) for hid, h in state["heroes"].items() if h["alive"]]
    life = sum(h["life"] / hero_stat(hid, "life", h["level"]) for hid, h in alive)
    carried = sum(1 for a in state["artifacts"].values() if a["carrier"] is not None)
    delivered = 3 if state["gate"] else min(3, artifacts_in_chamber(reader(state)))
    z = state["zorkal"]
    wounds = 1 - z["life"] / ZORKAL_STATS["life"][z["level"] - 1] if state["gate"] else 0.0
    x = (
        -1.2
        + 0.45 * len(alive)
        + 0.25 * life
        + 0.35 * delivered
        + 0.15 * carried
        + 2.0 * wounds
        - 0.8 * state["fill"]
        - 0.2 * max(0, state["k"] - 30) / 5
    )
    return 1 / (1 + math.exp(-x))


PLAYBOOK = Playbook(
    steady=steady,
    side=side,
    score=score,
    horizon=HORIZON,
    gives_up=gives_up,
    concessions=frozenset(sim.GIVE_UP_TYPES) | {"surrender_vote"},
)
