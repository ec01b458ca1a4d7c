"""A table of bots: one game played to the end with a bot in every seat.

The driver holds the only real state.  At every step it picks a seat that may act (uniformly,
from its own stream, as engine/playout.py does), hands that seat's bot the seat's view, legal
actions and events, and applies the answer, which must be one of the listed actions.  The
simulator (``python -m backend simulate --bots``), the benchmark (bench/bots.py) and the tests
all play through here.  Pure: the clock that times the decisions is handed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from backend.engine.core import Action, Game, Outcome, Seat
from backend.engine.playout import driver_rng
from backend.engine.replay import state_hash
from backend.engine.rng import Rng, seed_from_int

from .interface import Bot, Budget, Clock, EventData


class UnlistedAction(AssertionError):
    """A bot answered with an action its seat was not offered."""


@dataclass(frozen=True, slots=True)
class Decision:
    seat: Seat
    level: str
    seconds: float
    choices: int  # how many actions were listed


@dataclass(slots=True)
class BotGame:
    seed: int
    options: dict[str, Any]
    outcome: Outcome | None = None
    actions: int = 0
    final_hash: str = ""
    decisions: list[Decision] = field(default_factory=list)

    def line(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "outcome": self.outcome.result if self.outcome else "unfinished",
            "actions": self.actions,
            "hash": self.final_hash,
        }


def bot_rng(seed: int, seat: Seat) -> Rng:
    """Each seat's bot draws from its own stream, apart from the game's dice and the driver's."""
    return Rng(seed_from_int(seed * 1_000_003 + sum(map(ord, seat)) * 7919))


def play_bots(
    game: Game[Any],
    seed: int,
    options: Mapping[str, Any],
    seating: Mapping[Seat, Bot],
    *,
    seconds: float,
    clock: Clock,
    max_actions: int = 200_000,
) -> BotGame:
    """Play one game; ``seating`` gives every seat its bot, ``seconds`` each decision's budget."""
    opts = game.normalize_options(options)
    start = game.initial_transition(seed_from_int(seed), opts)
    state = start.state
    seats = [info.seat for info in game.seats(opts)]
    missing = [s for s in seats if s not in seating]
    if missing:
        raise ValueError(f"no bot for seat(s) {', '.join(missing)}")
    told: dict[Seat, list[EventData]] = {
        s: [e.as_dict() for e in start.events if e.visible_to(s)] for s in seats
    }
    rngs = {s: bot_rng(seed, s) for s in seats}
    pick = driver_rng(seed)
    budget = Budget(seconds, clock)
    record = BotGame(seed=seed, options=opts)
    for _ in range(max_actions):
        record.outcome = game.outcome(state)
        if record.outcome is not None:
            break
        acting = sorted(game.to_act(state))
        seat = acting[pick.below(len(acting))]
        legal = game.legal_actions(state, seat)
        bot = seating[seat]
        began = clock()
        action: Action = bot.decide(game.view(state, seat), seat, legal, told[seat], rngs[seat], budget)
        record.decisions.append(Decision(seat, bot.level, clock() - began, len(legal)))
        if action not in legal:
            raise UnlistedAction(f"the {bot.level} bot of {seat!r} sent {action!r}, which was not listed")
        transition = game.apply(state, seat, action)
        state = transition.state
        record.actions += 1
        for s in seats:
            told[s].extend(e.as_dict() for e in transition.events if e.visible_to(s))
    record.final_hash = state_hash(game, state)
    return record
