"""Dorasure's playbook (backend/bots/playbook.py).

Steady: the purposeful pick of games/dorasure/sim.py for the prompt, always (the simulator takes
it three times in four and a uniform pick otherwise), else the rules' default answer (R65):
walk to the quests, quest with every helper, rest when hurt, spend everything on Quest and
Combat rolls, use every power.  Measured: ≈ 16 % of 4-hero games won, against ≈ 11 % for the
simulator's steering.

Score: the heroes all share one result.  A win is 1; a loss is worth a little for every Sword on
the Dragon (up to ``LOSS_CREDIT``), so that a rollout that came close counts for more than one
that never reached the Climactic Battle.
"""

from __future__ import annotations

from typing import Any

from backend.engine.core import Action, Seat
from backend.engine.rng import Rng
from backend.games.dorasure import sim
from backend.games.dorasure.actions import default
from backend.games.dorasure.content import DRAGON_BOXES

from .playbook import Playbook, never_gives_up

HEROES = "heroes"
LOSS_CREDIT = 0.25


def steady(state: Any, seat: Seat, legal: list[Action], rng: Rng) -> Action:
    prompt = state.prompt_for(seat)
    pick = sim.PICKS.get(prompt["kind"]) if prompt else None
    if pick is not None:
        action: Action | None = pick(state, seat, legal)
        if action is not None and action in legal:
            return action
    fallback: Action | None = default(state, seat)
    return fallback if fallback is not None and fallback in legal else legal[0]


def options(state: Any, seat: Seat, legal: list[Action]) -> list[Action]:
    """Whole moves only: every place a sequence of steps may legally end on is listed as a
    ``move`` too (rules/movement.py), so the single steps only multiply the choices."""
    moves = [a for a in legal if a["type"] != "step"]
    return moves if len(moves) < len(legal) and any(a["type"] == "move" for a in moves) else legal


def score(state: Any, side: str) -> float:
    progress: float = LOSS_CREDIT * state.swords / DRAGON_BOXES
    if state.result is None:
        return progress
    return 1.0 if state.result[0] == "players_win" else progress


PLAYBOOK = Playbook(
    steady=steady,
    side=lambda seat: HEROES,
    score=score,
    horizon=1000,
    gives_up=never_gives_up,
    options=options,
)
