"""Dorn's playbook (backend/bots/playbook.py).

Steady: the steering of games/dorn/sim.py (the Keeper's creatures engage the heroes or fill the
Ritual Chamber, the heroes carry artifacts to the chamber and then go for Zorkal, a share of
picks uniform among the listed actions), without its random surrenders: a steady seat votes
against a surrender and concedes only by ``gives_up``.

Gives up: a game that has lasted ``sim.GIVE_UP_TURN`` Keeper turns is conceded by the side that
is behind (the heroes while the Gate is closed, the Keeper once it is open), as the simulator
does: past that few games still end in a victory.

Score: a victory is 1 and a defeat 0 (a game the engine abandons, ½).  A rollout stops at the
start of a side's turn more than half a round after the decision (``settled``: the other side has
answered it); there ``score`` takes the heroes' chance to win from a logistic of ``features``
(heroes alive and their life and levels, artifacts carried, delivered and ever picked up, the
Gate, Zorkal's wounds, monsters and strong monsters on the board and in the chamber, the fill
count, the Blood pool, the turn).  ``HERO_ODDS`` was fitted on the Blood and Blessings steps of
600 steady games of 1 to 5 hero seats by ``python bench/bots.py --fit dorn --games 600 --seed
200000`` (held-out log-loss 0.51, against 0.67 for the base rate).
"""

from __future__ import annotations

import math
from typing import Any

from backend.engine.core import Action, Seat
from backend.engine.rng import Rng
from backend.games.dorn import sim
from backend.games.dorn.board import BOARD
from backend.games.dorn.catalog import MONSTERS, ZORKAL_STATS
from backend.games.dorn.rules.treasure import artifacts_in_chamber
from backend.games.dorn.rules.turns import KEEPER, MONSTER_MOVES
from backend.games.dorn.state import reader

from .playbook import Playbook

HEROES = "heroes"
CONCESSIONS = frozenset(sim.GIVE_UP_TYPES) | {"surrender_vote"}
HORIZON = 400  # actions: a cap well above a round's (settled stops rollouts first)
ROUND = ("K1", "K2", "K3", "K4", "K4P", "H1", "H2", "H3")  # the steps of one round, in order
HERO_ODDS = (
    0.595,
    0.025,
    -0.095,
    0.173,
    0.386,
    0.284,
    1.638,
    0.531,
    -0.18,
    -0.126,
    -0.086,
    -0.033,
    -0.118,
    0.091,
    -1.665,
)


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
    _steer_by_blocks(state, seat, playing)
    return sim.choose(state, seat, playing, rng)


def _steer_by_blocks(state: Any, seat: Seat, kept: list[Action]) -> None:
    """Let the simulator steer the Keeper's movement by its per-creature blocks for ``kept``: the
    list ``actions.legal`` handed out, less its concessions (the Keeper's surrender).

    ``sim._keeper_moves`` reads the blocks only when handed the very list ``actions.legal``
    built for the state (``memo["keeper_list"]``); any other list it reads move by move, with
    the same answer but a parse of every listed move (≈ 250 of them).  The blocks describe the
    moves, which ``kept`` holds unchanged and in order, so the memo may name ``kept`` instead:
    the same picks without the parse."""
    if seat != KEEPER or state["phase"] != MONSTER_MOVES:
        return
    memo = reader(state).memo
    handed = memo.get("keeper_list")
    if handed is None or handed[0] is kept:
        return
    listed, size = handed
    if size != len(listed) or len(kept) >= size:
        return
    rest = iter(kept)
    want = next(rest, None)
    for a in listed:
        if a is want:
            want = next(rest, None)
        elif a["type"] not in CONCESSIONS:
            return  # not a cut of the handed list
    if want is None:
        memo["keeper_list"] = (kept, len(kept))


def options(state: Any, seat: Seat, legal: list[Action]) -> list[Action]:
    """The Keeper's movement choices worth searching: the steady pick's purposeful moves (a
    creature to where it attacks a hero, or deeper into the Ritual Chamber), its moves closer to
    a hero, bat form, and ending the step.  The other listed moves (≈ 250 in a mid-game step)
    wander: a search that opens them one by one gives each a couple of rollouts and learns
    nothing.  With no purposeful move and none closer, ending the step is the one sensible
    choice, answered at once.  Every other step keeps its whole list."""
    if (
        seat != KEEPER
        or state["phase"] != MONSTER_MOVES
        or state["prompt"] is not None
        or state["surrender"] is not None
    ):
        return legal
    _steer_by_blocks(state, seat, legal)
    purposeful, closer = sim._keeper_moves(state, legal)
    done = [a for a in legal if a["type"] == "done"]
    if not done:
        return legal
    if not purposeful and not closer:
        return done
    bats = [a for a in legal if a["type"] == "bat_form"]
    return [*purposeful, *closer, *bats, *done]


def score(state: Any, side_: str) -> float:
    outcome = state["outcome"]
    if outcome is not None:
        if outcome["result"] == "abandoned":
            return 0.5
        won = outcome["result"] == ("keeper_wins" if side_ == KEEPER else "heroes_win")
        return 1.0 if won else 0.0
    heroes = probability_heroes(state)
    return 1.0 - heroes if side_ == KEEPER else heroes


def features(state: Any) -> list[float]:
    """What the heroes' chances turn on (``HERO_ODDS`` weighs these, then 1)."""
    w = reader(state)
    alive = [(hid, h) for hid, h in state["heroes"].items() if h["alive"]]
    z = state["zorkal"]
    occupied = w.occupancy()
    monsters = state["monsters"].values()
    return [
        len(alive),
        sum(h["life"] for _, h in alive),
        sum(h["level"] for _, h in alive),
        sum(1 for a in state["artifacts"].values() if a["carrier"] is not None),
        3.0 if state["gate"] else float(min(3, artifacts_in_chamber(w))),
        sum(1 for a in state["artifacts"].values() if a["picked"]),
        float(state["gate"]),
        (ZORKAL_STATS["life"][z["level"] - 1] - z["life"]) if state["gate"] else 0.0,
        len(state["monsters"]),
        sum(1 for m in monsters if MONSTERS[m["type"]]["class"] == "strong"),
        sum(1 for c in BOARD.chamber if c in occupied and occupied[c] not in state["heroes"]),
        state["fill"],
        state["blood"],
        state["k"],
    ]


def settled(state: Any, origin: Any) -> bool:
    """A rollout stops at the start of a side's turn (the Blood step, the Blessings step) more
    than half a round after it began: the other side has answered whatever was decided."""
    if state["phase"] not in ("K1", "H1"):
        return False
    steps = len(ROUND)
    here = state["k"] * steps + ROUND.index(state["phase"])
    began = origin["k"] * steps + ROUND.index(origin["phase"])
    return bool(here > began + steps // 2)


def probability_heroes(state: Any) -> float:
    x = sum(w * f for w, f in zip(HERO_ODDS, [*features(state), 1.0], strict=True))
    return 1 / (1 + math.exp(-x))


PLAYBOOK = Playbook(
    steady=steady,
    side=side,
    score=score,
    horizon=HORIZON,
    settled=settled,
    gives_up=gives_up,
    concessions=CONCESSIONS,
    options=options,
)
