"""Ritual and Blessing cards (RB Ritual cards, Blessing cards; content 4.1, 4.2; rulings 24, 50).

This issue plays the cards: a Ritual is paid from the Blood pool in K1 (at most one per Keeper
turn) and goes to the discard (one-shot) or stays face up in play (permanent); a Blessing is
played in H1 by a seat naming one of its living heroes as the user and goes to the discard.
Their *effects* are the next issue: each card id gets an entry in ``RITUAL_EFFECTS`` /
``BLESSING_EFFECTS`` (a function of the working state and the action), looked up here, so
adding one changes nothing else.  Cards without an entry have no effect yet, which
docs/rules/dorn.md states plainly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..catalog import BLESSINGS, HEROES, RITUALS
from ..state import Work

Effect = Callable[[Work, dict[str, Any]], None]

RITUAL_EFFECTS: dict[str, Effect] = {}
BLESSING_EFFECTS: dict[str, Effect] = {}


def ritual_options(w: Work) -> list[str]:
    """Ritual cards the Keeper may play now: one per Keeper turn, cost paid from the pool."""
    s = w.s
    if s["ritual_played"]:
        return []
    return sorted({c for c in s["ritual_hand"] if RITUALS[c]["cost"] <= s["blood"]})


def ritual_actions(w: Work) -> list[dict[str, Any]]:
    """The Blood step's Ritual actions (``actions.STEPS``)."""
    return [{"type": "play_ritual", "card": c} for c in ritual_options(w)]


def play_ritual(w: Work, action: dict[str, Any]) -> None:
    s = w.s
    card = action["card"]
    info = RITUALS[card]
    s["blood"] -= info["cost"]
    s["ritual_hand"].remove(card)
    s["ritual_played"] = True
    if info["duration"] == "permanent":
        s["rituals_in_play"].append(card)
    else:
        s["ritual_discard"].append(card)
    w.emit(
        "ritual_played",
        f"The Keeper plays the Ritual {info['name']}, paying {info['cost']} Blood Drops.",
        card=card,
        cost=info["cost"],
        blood=s["blood"],
    )
    effect = RITUAL_EFFECTS.get(card)
    if effect is not None:
        effect(w, action)


def blessing_options(w: Work, seat: str) -> list[tuple[str, str]]:
    """(card, user) pairs: the seat's Blessing, used by one of its living on-board heroes."""
    card = w.s["blessings"].get(seat)
    if card is None:
        return []
    return [(card, hid) for hid in w.seat_heroes_on_board(seat)]


def blessing_actions(w: Work, seat: str, heroes: list[str]) -> list[dict[str, Any]]:
    """The Blessings step's actions for the seat, used by one of ``heroes`` (``actions.STEPS``)."""
    return [
        {"type": "play_blessing", "card": c, "hero": h} for c, h in blessing_options(w, seat) if h in heroes
    ]


def discard_blessing(w: Work, seat: str) -> str:
    """The seat's Blessing leaves its hand for the discard pile (played, or lost with its heroes)."""
    card = w.s["blessings"][seat]
    assert card is not None
    w.s["blessings"][seat] = None
    w.s["blessing_discard"].append(card)
    return card


def play_blessing(w: Work, seat: str, action: dict[str, Any]) -> None:
    card = discard_blessing(w, seat)
    w.emit(
        "blessing_played",
        f"{HEROES[action['hero']]['name']} receives the Blessing {BLESSINGS[card]['name']}.",
        seat=seat,
        card=card,
        hero=action["hero"],
    )
    effect = BLESSING_EFFECTS.get(card)
    if effect is not None:
        effect(w, action)
