"""The three levels, one interface for both games (issue 12, point 2).

* ``random``: uniform over the listed actions (for tests and load).
* ``steady``: the game's steady pick (backend/bots/playbook.py) on one state drawn from what the
  seat has seen; a few milliseconds.
* ``strong``: information-set search over many such states (backend/bots/search.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from backend.engine.core import Action, Determinise, Game, Seat
from backend.engine.rng import Rng

from .belief import Belief
from .interface import Bot, Budget, EventData, View, check_observation
from .playbook import Playbook
from .playbooks import playbook
from .search import StrongBot

LEVELS = ("random", "steady", "strong")


class RandomBot:
    level = "random"

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def decide(
        self,
        view: View,
        seat: Seat,
        legal: Sequence[Action],
        events: Sequence[EventData],
        rng: Rng,
        budget: Budget,
    ) -> Action:
        check_observation(view, legal, events)
        if isinstance(self.game, Determinise):
            Belief(self.game, view, seat, events).checked_sample(rng)  # refuses a state (belief.py)
        return legal[rng.below(len(legal))]


class SteadyBot:
    level = "steady"

    def __init__(self, game: Game[Any], book: Playbook) -> None:
        self.game = game
        self.book = book

    def decide(
        self,
        view: View,
        seat: Seat,
        legal: Sequence[Action],
        events: Sequence[EventData],
        rng: Rng,
        budget: Budget,
    ) -> Action:
        check_observation(view, legal, events)
        state = Belief(self.game, view, seat, events).checked_sample(rng)
        listed = list(legal)
        pick = self.book.steady(state, seat, listed, rng)
        return _listed(pick, listed)


def _listed(action: Action, legal: list[Action]) -> Action:
    """The listed dict equal to ``action``, or the first listed (a pick is always listed: this
    only guards against a sampled state listing something the real one does not)."""
    return next((a for a in legal if a == action), legal[0])


def make_bot(level: str, game: Game[Any], **options: Any) -> Bot:
    """A bot of ``level`` for ``game``; ``options`` tune the strong level (search.StrongBot)."""
    if level == "random":
        return RandomBot(game)
    if level == "steady":
        return SteadyBot(game, playbook(game.name))
    if level == "strong":
        return StrongBot(game, playbook(game.name), **options)
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
