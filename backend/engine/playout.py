"""Seeded random play to the end of a game.

One driver serves the simulator command, the conformance tests and the engine
benchmark, so all three exercise the engine the same way: at every step a seat
that may act is picked uniformly, then one of its legal actions uniformly (or, when
the game offers ``sim_choice``, as the game steers the pick among the listed actions).
The driver's choices come from its own Rng stream (never from the game's), so
the game's dice are the same whatever the players choose to do.  A steering game may also make
its pick without the list (``SimPicking``: the same pick, the same draws) when no ``on_step``
needs the list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .core import Action, Event, Game, Outcome, Seat, SimPicking, SimSteering
from .replay import state_hash
from .rng import Rng, seed_from_int


@dataclass(slots=True)
class Playout:
    seed: int
    options: dict[str, Any]
    actions: list[tuple[Seat, Action]] = field(default_factory=list)
    outcome: Outcome | None = None
    final_hash: str = ""
    state: Any = None

    def line(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "outcome": self.outcome.result if self.outcome else "unfinished",
            "actions": len(self.actions),
            "hash": self.final_hash,
        }


def driver_rng(seed: int) -> Rng:
    return Rng(seed_from_int(seed ^ 0x5EED_D21E))


def play_random(
    game: Game[Any],
    seed: int,
    options: Mapping[str, Any],
    *,
    max_actions: int = 200_000,
    on_step: Callable[[Any, Seat, Action, list[Action]], None] | None = None,
    on_events: Callable[[Seat, Action, tuple[Event, ...]], None] | None = None,
) -> Playout:
    """Play one game with uniformly random legal actions.

    ``on_step(state, seat, action, legal)`` is called before each action is applied
    (the conformance test hooks its checks there); ``on_events(seat, action, events)`` after,
    with the events it made (the simulator's usage tally).
    """
    opts = game.normalize_options(options)
    state = game.initial_state(seed_from_int(seed), opts)
    rng = driver_rng(seed)
    steer = game.sim_choice if isinstance(game, SimSteering) else None
    # The steered pick without the list where the game can make it (Dorn: the Keeper's movement
    # list, ≈ 230 fresh dicts at every Keeper move): the same pick, so the same game.  Not when
    # ``on_step`` is given: the conformance harness checks every list.
    pick = game.sim_pick if steer is not None and on_step is None and isinstance(game, SimPicking) else None
    record = Playout(seed=seed, options=opts)
    for _ in range(max_actions):
        outcome = game.outcome(state)
        if outcome is not None:
            record.outcome = outcome
            break
        seats = sorted(game.to_act(state))
        if not seats:
            raise AssertionError("game is not over but no seat may act")
        seat = seats[rng.below(len(seats))]
        action = pick(state, seat, rng) if pick is not None else None
        if action is None:
            legal = game.legal_actions(state, seat)
            if not legal:
                raise AssertionError(f"seat {seat!r} is asked to act but has no legal action")
            # A game may steer the pick among its listed actions (Dorn: see games/dorn/sim.py).
            action = legal[rng.below(len(legal))] if steer is None else steer(state, seat, legal, rng)
            if on_step is not None:
                on_step(state, seat, action, legal)
        transition = game.apply(state, seat, action)
        state = transition.state
        if on_events is not None:
            on_events(seat, action, transition.events)
        record.actions.append((seat, action))
    else:
        record.outcome = game.outcome(state)
    record.state = state
    record.final_hash = state_hash(game, state)
    return record
