"""Rebuilding a state from its history, and hashing states.

A table's state is always ``replay(game, seed, options, actions)``: snapshots in
the database are only a cache of it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from .core import Action, Event, Game, Seat


def canonical_json(data: Any) -> str:
    """The one JSON spelling of a value: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(game: Game, state: Any) -> str:
    """A stable hash of a state, equal across processes, machines and replays."""
    return hashlib.sha256(canonical_json(game.encode_state(state)).encode()).hexdigest()


def replay(
    game: Game,
    seed: bytes,
    options: Mapping[str, Any],
    actions: Iterable[tuple[Seat, Action]],
    *,
    collect_events: bool = False,
) -> tuple[Any, list[list[Event]]]:
    """Apply ``actions`` in order from the initial state.

    Every action is validated again, so a corrupted log fails loudly with
    IllegalAction rather than producing a wrong game.  Returns the final state
    and, when asked, the events of each action.
    """
    state = game.initial_state(seed, game.normalize_options(options))
    events: list[list[Event]] = []
    for seat, action in actions:
        transition = game.apply(state, seat, action)
        state = transition.state
        if collect_events:
            events.append(list(transition.events))
    return state, events
