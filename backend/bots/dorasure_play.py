"""Dorasure's playbook (backend/bots/playbook.py).

Steady: the purposeful pick of games/dorasure/sim.py for the prompt, always (the simulator takes
it three times in four and a uniform pick otherwise), else the rules' default answer (R65):
walk to the quests, quest with every helper, rest when hurt, spend everything on Quest and
Combat rolls, use every power.  Measured: ≈ 16 % of 4-hero games won, against ≈ 11 % for the
simulator's steering.

Score: the heroes all share one result, 1 for a win and 0 for a loss.  A rollout from the Adventure
phase stops as the Climactic Battle begins (``settled``): the battle is mostly dice, so rather
than one throw of them ``score`` takes the chance that the party wins from there, a logistic of
what it brings (Swords already on the Dragon, the Relics and the Anti-Dragon Weapons, Health,
Combat, resources and levels per hero, party size).  ``BATTLE_ODDS`` was fitted on the battle
entries of 8,000 steady games of 2 to 6 heroes by ``python bench/bots.py --fit dorasure --games
8000 --seed 100000`` (held-out log-loss 0.42, against 0.61 for the base rate).
"""

from __future__ import annotations

import math
from typing import Any

from backend.engine.core import Action, Seat
from backend.engine.rng import Rng
from backend.games.dorasure import sim
from backend.games.dorasure.actions import default
from backend.games.dorasure.content import METER_FINAL, MOUNTAIN_SIDES, MOUNTAINS
from backend.games.dorasure.rules.heroes import attr, points

from .playbook import Playbook, never_gives_up

HEROES = "heroes"
BATTLE = 2  # the Climactic Battle's phase code (rules: 1 Adventure, 2 battle, 3 over)
# Log-odds of a win from the first state of the Climactic Battle: weights of ``battle_entry``.
BATTLE_ODDS = (0.567, 0.606, 0.602, 0.541, 0.079, 0.267, -0.327, 0.516, -6.733)
# Log-odds of a win from the start of a hero's turn in the Adventure phase: ``adventure_entry``.
ADVENTURE_ODDS = (
    *(0.344, 0.381, 0.437, 0.091, 0.023, -0.187, -0.618, 0.681),
    *(-1.762, -0.073, 0.038, -0.046, -0.035, 0.409, 0.0, 0.054, 0.267, -3.865),
)
TURNS = 4  # hero turns a rollout from the Adventure phase plays before ``adventure_chance``


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


def battle_entry(state: Any) -> list[float]:
    """What the party brings to the Climactic Battle (``BATTLE_ODDS`` weighs these, then 1)."""
    heroes = [state.heroes[h] for h in state.order if not state.heroes[h]["dead"]]
    n = len(state.order)
    return [
        state.swords,
        float(state.relic),
        float(state.weapons),
        sum(h["hp"] for h in heroes) / n,
        sum(attr(h, "combat") for h in heroes) / n,
        sum(points(h) for h in heroes) / n,
        sum(h["level"] for h in heroes) / n,
        n,
    ]


def battle_chance(state: Any) -> float:
    x = sum(w * f for w, f in zip(BATTLE_ODDS, [*battle_entry(state), 1.0], strict=True))
    return 1 / (1 + math.exp(-x))


def adventure_entry(state: Any) -> list[float]:
    """Where the party stands at the start of a hero's turn in the Adventure phase
    (``ADVENTURE_ODDS`` weighs these, then 1): what it would bring to the battle, how far the
    Adventure has gone (the meter, the quests solved), and what it still has to do (quests
    known, flags on them, steps to the nearest one, EXP).  The battle's features also come
    multiplied by how far the Adventure has gone: Health counts most when the battle is near."""
    bring = battle_entry(state)
    n = len(state.order)
    live = [state.heroes[h] for h in state.order if not state.heroes[h]["dead"]]
    open_ = [m for m in MOUNTAINS if state.mountains[m]["state"] in ("hidden", "revealed")]
    goals = {side for m in open_ for side in MOUNTAIN_SIDES[m]}
    steps = [min((sim.DIST[h["pos"]].get(g, sim.FAR) for g in goals), default=0) for h in live]
    solved = sum(state.mountains[m]["state"] == "solved" for m in MOUNTAINS)
    gone = max(state.meter / METER_FINAL, solved / len(MOUNTAINS))
    return [
        *bring,
        state.meter / METER_FINAL,
        float(solved),
        float(sum(state.mountains[m]["state"] == "revealed" for m in open_)),
        float(sum(state.mountains[m]["flags"] for m in open_)),
        sum(min(d, 12) for d in steps) / n,
        sum(h["exp"] for h in live) / n,
        (n - len(live)) / n,
        gone * bring[3],
        gone * bring[5],
    ]


def adventure_chance(state: Any) -> float:
    x = sum(w * f for w, f in zip(ADVENTURE_ODDS, [*adventure_entry(state), 1.0], strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))


def score(state: Any, side: str) -> float:
    if state.result is not None:
        return 1.0 if state.result[0] == "players_win" else 0.0
    return battle_chance(state) if state.phase == BATTLE else adventure_chance(state)


def settled(state: Any, origin: Any) -> bool:
    """A rollout from the Adventure phase stops as the Climactic Battle begins, or as the turn
    ``TURNS`` hero turns on begins (``adventure_chance`` then judges it)."""
    if origin.phase == BATTLE:
        return False
    return bool(state.phase == BATTLE or state.turn >= origin.turn + TURNS)


JOINED = ("act", "spend")  # the decisions searched with the one before them (``joined``)


def joined(state: Any, seat: Seat) -> bool:
    """In the Adventure phase a move and the action where it ends are one decision for the
    search, and so are an action and what is spent on its roll: no dice fall between them (the
    movement dice are thrown before the move, a roll's after the spending), and a place is worth
    what can be done there, an Adventure or a Quest what can be put into it."""
    prompt = state.prompt_for(seat)
    return prompt is not None and prompt["kind"] in JOINED and state.phase != BATTLE


def turn_mark(state: Any) -> int:
    """Where the paired search deals the dice again (``Playbook.resync``): each hero's turn, so
    that every candidate's rollout throws the same movement dice (and so the same 6s on the
    meter) from the next turn on, however many dice its own turn took."""
    return int(state.turn)


PLAYBOOK = Playbook(
    steady=steady,
    side=lambda seat: HEROES,
    score=score,
    horizon=1000,
    settled=settled,
    gives_up=never_gives_up,
    options=options,
    paired=True,
    joined=joined,
    resync=turn_mark,
)
