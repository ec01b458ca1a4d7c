"""What a bot needs to know about a game beyond the contract: its playbook.

* ``steady``: a fast pick among the listed actions, on a full state (the bot's sampled one).
  The steady level plays it; the strong level plays it for every seat in its rollouts.
* ``side``: which side a seat plays (seats of one side share a result: all Dorasure heroes,
  the Dorn hero seats).
* ``score``: how good a state is for a side, in [0, 1]: 1 a win, 0 a loss, and between them an
  estimate for a game cut off before its end (or a loss that came close).
* ``horizon``: how many actions a rollout plays at most before ``score`` judges it, and
  ``settled(state, origin)`` whether it may stop sooner, where ``score`` judges well (Dorasure:
  as the Climactic Battle begins, whose dice ``score`` then averages from what the heroes bring).
* ``gives_up``: whether a seat concedes now, and ``concessions`` the action types that concede:
  the strong level never picks those by search (a surrender scores as a loss), only by this rule.
* ``options``: the listed actions worth searching (all of them by default; Dorasure leaves out
  single movement steps when a whole move to the same places is listed).
* ``paired``: how the strong level searches (backend/bots/search.py): ``False`` (the default) a
  tree shared by all determinisations; ``True`` every root action played out from the same
  determinisation and dice, compared in pairs (Dorasure, whose dice drown the differences).
* ``joined(state, seat)``: for the paired search, whether the seat's decision in ``state`` (just
  after one of its root actions) is searched together with that action, as pairs (Dorasure: the
  action taken where a move ends, the resources spent on an action's roll); None (the default)
  never.
* ``resync(state)``: for the paired search in a game that forks (``engine.core.Fork``), a mark
  of where the rollouts deal the dice again: each time it changes, the rollout's state is
  forked from a seed made of the sample's and the mark, so every candidate's rollout throws the
  same dice from there on (Dorasure: each hero's turn), whatever dice the candidates used
  before. None (the default): the dice run on from the sample's seed, and two candidates that
  threw different numbers of dice throw different dice ever after.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from backend.engine.core import Action, Seat
from backend.engine.rng import Rng

Policy = Callable[[Any, Seat, list[Action], Rng], Action]


@dataclass(frozen=True, slots=True)
class Playbook:
    steady: Policy
    side: Callable[[Seat], str]
    score: Callable[[Any, str], float]
    horizon: int
    settled: Callable[[Any, Any], bool]
    gives_up: Callable[[Any, Seat, list[Action]], Action | None]
    concessions: frozenset[str] = frozenset()
    options: Callable[[Any, Seat, list[Action]], list[Action]] = lambda state, seat, legal: legal
    paired: bool = False
    joined: Callable[[Any, Seat], bool] | None = None
    resync: Callable[[Any], int] | None = None


def never_gives_up(state: Any, seat: Seat, legal: list[Action]) -> Action | None:
    return None


def never_settled(state: Any, origin: Any) -> bool:
    return False
