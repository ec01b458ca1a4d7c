"""The Keeper's block window on hero weapon attacks (content 2.4 ``zor.sparry``, 4.1 R12 Zombie
Frenzy, 5.3 H3, 5.10 "block … default block if able"; rulings 37, A1-A3 in docs/rules/dorn.md).

When a hero's weapon hit is aimed at Zorkal (level 2+, his sinister parry unused this hero turn)
or at a zombie while Zombie Frenzy is in play (that zombie's block unused this hero turn), the
Keeper is asked, at the moment the hit is declared, whether to cancel it.  A cancelled hit still
used the hero's action.  Spells, items and cards are never blocked: only ``weapons.py`` asks.

The uses are lasting effects that end with the hero turn (``effects.UNTIL_HERO_END``):
``zor.sparry`` for Zorkal and ``R12:<monster id>`` for each zombie (content 5.3 H0.1: "each
zombie's Frenzy block and Zorkal's sinister parry" reset with the hero turn).
"""

from __future__ import annotations

from typing import Final

from ..state import ZORKAL, Work
from .effects import UNTIL_HERO_END, active, in_play

SINISTER_PARRY: Final = "zor.sparry"
ZOMBIE_FRENZY: Final = "R12"
SINISTER_PARRY_LEVEL: Final = 2


def use_key(w: Work, cid: str) -> str | None:
    """The block that may cancel a weapon hit on ``cid`` now (its effect key), or None."""
    s = w.s
    if cid == ZORKAL:
        if (
            w.zorkal_active()
            and s["zorkal"]["level"] >= SINISTER_PARRY_LEVEL
            and not active(s, SINISTER_PARRY)
        ):
            return SINISTER_PARRY
        return None
    m = s["monsters"].get(cid)
    if m is None or m["type"] != "zombie" or not in_play(s, ZOMBIE_FRENZY):
        return None
    key = f"{ZOMBIE_FRENZY}:{cid}"
    return None if active(s, key) else key


def spend(w: Work, key: str) -> None:
    """The block is used for this hero turn (ruling 37)."""
    w.s["effects"][key] = UNTIL_HERO_END


def name(key: str) -> str:
    return "Zorkal's sinister parry" if key == SINISTER_PARRY else "Zombie Frenzy"
