"""Forking a finished Dorn game at one of its steps (issue 14.5, docs/rules/dorn.md "Forks"): the
state there, with the dice of the fork's own seed and the decks shuffled again from it.

What no seat could see at that step is the order (and, for the treasure deck, the contents) of the
three draw piles: the treasure, Blessing and Ritual decks (content 4: hands are seen by their
owners, the Keeper's Rituals by the Keeper, discards and the board by everyone).  Those are
shuffled from the fork's seed, so the original's revealed replay does not tell what the fork will
draw.  The bag of strong tokens is counts drawn at each summon, so the new seed alone redraws it.
Hands, Blessings held and the Keeper's hand stay as they were: they are part of the position the
fork replays from.
"""

from __future__ import annotations

from typing import Final

from backend.engine.rng import Rng

from .state import State, clone

DECKS: Final = ("treasure_deck", "blessing_deck", "ritual_deck")  # the piles a fork shuffles


def fork_state(state: State, seed: bytes) -> State:
    s = clone(state)
    rng = Rng(seed)
    # Sorted first, so the new order depends on the seed and the cards, not on the old order.
    s["treasure_deck"] = rng.shuffled(sorted(state["treasure_deck"]))
    s["blessing_deck"] = rng.shuffled(sorted(state["blessing_deck"]))
    s["ritual_deck"] = rng.shuffled(sorted(state["ritual_deck"]))
    s["rng"] = [seed.hex(), rng.counter]
    return s
