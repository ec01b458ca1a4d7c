"""Lasting card and ability effects, and the precedence of their sources (RB "Ritual effects
override spell/item effects. Blessing card effects override Ritual card effects."; content 4.5).

Lasting effects live in ``s["effects"]``: key -> the moment they end (``UNTIL_KEEPER_END``,
``UNTIL_HERO_END``), or a dict with that moment under ``"until"`` and the effect's own data.
A key is the card or ability id, with ``":<figure>"`` when it holds one figure (``"B08:gor"``).
Permanent Rituals are read from ``s["rituals_in_play"]``.  This module is a leaf below the
Ritual, Blessing and ability rules, which all read it.
"""

from __future__ import annotations

from typing import Any, Final

from ..state import State, Work

# When a lasting effect in ``s["effects"]`` ends: K5.3 (RB; content 5.2) or H5 (content 5.3).
UNTIL_KEEPER_END: Final = "keeper_turn_end"
UNTIL_HERO_END: Final = "hero_turn_end"

# Source classes (content 4.5): Blessing 3 > Ritual 2 > everything else 1.  A hero's ``mv``
# holds its Move left by class: index 0 its own Move and class-1 bonuses, 1 Ritual-class
# bonuses, 2 Blessing-class allowance (steps are paid from the lowest first).
OTHER_CLASS: Final = 1
RITUAL_CLASS: Final = 2
BLESSING_CLASS_RANK: Final = 3
BLESSING_CLASS: Final = 2  # index in a hero's ``mv``: the Blessing-class allowance


def in_play(s: State, card: str) -> bool:
    return card in s["rituals_in_play"]


def active(s: State, effect: str) -> bool:
    return effect in s["effects"]


def until_of(value: Any) -> str:
    return value if isinstance(value, str) else str(value["until"])


def expire(w: Work, until: str) -> None:
    """End every lasting effect that lasts until ``until``."""
    effects = w.s["effects"]
    for key in [k for k, v in effects.items() if until_of(v) == until]:
        del effects[key]
