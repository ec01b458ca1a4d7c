"""What a game's players used: cards, abilities, special attacks (the simulator's usage tally).

A key per use, read from the listed action and the events it made, so that any game gets the
tally without code of its own: an action naming a ``card`` (played or used), an ``ability``, or
a weapon ``with`` (an attack); an event naming an ``ability`` (triggered and passive abilities
fire inside other actions).  Keys are ``"card:R04"``,
``"ability:alm.fireball"``, ``"attack:cho.axe"``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .core import Action, Event

# Action types whose ``card`` is a use of that card (a card passed or discarded is not).
CARD_USES = frozenset({"play_ritual", "play_blessing", "use_item", "play_card", "use_card"})


def usage_keys(action: Action, events: Iterable[Event]) -> list[str]:
    keys: list[str] = []
    if isinstance(action.get("card"), str) and action.get("type") in CARD_USES:
        keys.append(f"card:{action['card']}")
    if isinstance(action.get("ability"), str):
        keys.append(f"ability:{action['ability']}")
    if action.get("type") == "attack" and isinstance(action.get("with"), str):
        keys.append(f"attack:{action['with']}")
    for e in events:
        ability = e.data.get("ability")
        if isinstance(ability, str) and f"ability:{ability}" not in keys:
            keys.append(f"ability:{ability}")
    return keys
