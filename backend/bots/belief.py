"""What a seat may believe the state to be: the game's determiniser, behind one check.

``sample_state`` (the optional ``Determinise`` hook of backend/engine/core.py) builds a full
state consistent with the view and the events; a bot simulates only from such states.  The
first sample of every decision is checked: its view for the seat must be the view the bot was
handed.  A game state handed in place of a view fails here (it has none of a view's fields, or
they do not round-trip), so no bot can decide from the real state by mistake.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from backend.engine.core import Determinise, Game, Seat
from backend.engine.rng import Rng

from .interface import EventData, NotAView, View


class Belief:
    """States one seat cannot tell from the real one, drawn afresh on every call."""

    __slots__ = ("game", "view", "seat", "events", "_sampler")

    def __init__(self, game: Game[Any], view: View, seat: Seat, events: Sequence[EventData]) -> None:
        if not isinstance(game, Determinise):
            raise TypeError(f"{game.name} has no determiniser (sample_state): only random bots can play it")
        self.game = game
        self.view = view
        self.seat = seat
        self.events = events
        self._sampler = cast("Determinise[Any]", game)

    def sample(self, rng: Rng) -> Any:
        return self._sampler.sample_state(self.view, self.seat, rng, self.events)

    def checked_sample(self, rng: Rng) -> Any:
        """A sample, after checking that the view it shows the seat is the view we were given."""
        try:
            state = self.sample(rng)
            same = self.game.view(state, self.seat) == self.view
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise NotAView(f"not a {self.game.name} view of seat {self.seat!r}: {exc!r}") from None
        if not same:
            raise NotAView(f"not a {self.game.name} view of seat {self.seat!r}: it does not round-trip")
        return state
