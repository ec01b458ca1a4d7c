"""What a bot is given, what it returns, and the check that it is given nothing more.

A bot sees what its seat sees (issue 12): the seat's ``view``, its ``legal`` actions and the
``events`` the seat was sent since the table started (``Event.as_dict()``, in order, setup
included), never the game's state.  ``rng`` is the bot's own stream (an engine ``Rng``: the
package reads no global random) and ``budget`` the time it may take, on a clock it is handed
(the package reads no clock of its own, so a test can run a bot on a fake one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from backend.engine.core import Action, Seat
from backend.engine.rng import Rng

Clock = Callable[[], float]
EventData = Mapping[str, Any]
View = Mapping[str, Any]

DEFAULT_SECONDS = 1.0  # the table option's default: the strong bot's time per decision


@dataclass(frozen=True, slots=True)
class Budget:
    """The time one decision may take: ``seconds`` as measured by ``clock``."""

    seconds: float
    clock: Clock

    def deadline(self) -> float:
        return self.clock() + self.seconds


class Bot(Protocol):
    """One level of play for one game; the same object may play any number of seats."""

    level: str

    def decide(
        self,
        view: View,
        seat: Seat,
        legal: Sequence[Action],
        events: Sequence[EventData],
        rng: Rng,
        budget: Budget,
    ) -> Action:
        """One of ``legal`` (the very dict listed, never a new one)."""
        ...


class NotAView(TypeError):
    """A bot was handed something other than what its seat sees (a game state, say)."""


_PLAIN = (str, int, float, bool, type(None))


def _is_plain(data: Any, depth: int = 0) -> bool:
    """JSON-shaped data: what a view, an action or an event is made of, and a state is not."""
    if isinstance(data, _PLAIN):
        return True
    if depth > 32:
        return False
    if isinstance(data, dict):
        return all(isinstance(k, str) and _is_plain(v, depth + 1) for k, v in data.items())
    if isinstance(data, list):
        return all(_is_plain(v, depth + 1) for v in data)
    return False


def check_observation(view: Any, legal: Any, events: Any) -> None:
    """Refuse what is not JSON-shaped; the determiniser's round trip refuses the rest
    (``Determined.check``): a state in place of a view is caught either way."""
    if not isinstance(view, dict) or not _is_plain(view):
        raise NotAView(f"a bot takes its seat's view (plain JSON data), not {type(view).__name__}")
    if not isinstance(legal, list | tuple) or not legal or not all(isinstance(a, dict) for a in legal):
        raise NotAView("a bot takes the non-empty list of its seat's legal actions")
    if not isinstance(events, list | tuple) or not all(isinstance(e, dict) and "kind" in e for e in events):
        raise NotAView("a bot takes the events its seat was sent, as dicts with a 'kind'")
