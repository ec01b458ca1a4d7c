"""The six variants of content 6 as the rules read them: which are on (table options, checked by
``setup.normalize_options``) and the numbers Four Heroes changes.  A leaf (catalogue and state
only), so setup, combat, the Rituals, the view and the Keeper's actions can all ask it.

The variants' data (Four Heroes' starting set and costs, the Cave-in sites, the clock choices)
lives in data/variants.json; nothing here is a constant of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..catalog import RITUALS, STARTING_MONSTERS, VARIANTS, ZORKAL_STATS, hero_stat

RANDOM_GROUP: Final = "random_group"
MISSING_ARTIFACT: Final = "missing_artifact"
CAVE_IN: Final = "cave_in"
TACTICS: Final = "tactics_and_flight"
REAL_DAY_NIGHT: Final = "real_day_and_night"
FOUR_HEROES: Final = "four_heroes"

FOUR: Final = VARIANTS[FOUR_HEROES]


def on(options: Mapping[str, Any], variant: str) -> bool:
    """Whether ``variant`` is played at this table (``options``: a state's ``s["options"]``)."""
    return bool(options.get(variant, False))


def max_life(options: Mapping[str, Any], hid: str, level: int) -> int:
    """A hero's max life at ``level``: the hero's own, +1 at every level with Four Heroes (6.6)."""
    bonus: int = FOUR["life_bonus"] if on(options, FOUR_HEROES) else 0
    return hero_stat(hid, "life", level) + bonus


def starting_life(options: Mapping[str, Any], hid: str) -> int:
    """S2: level-1 life, +1 with Four Heroes (content 5.1)."""
    return max_life(options, hid, 1)


def ritual_cost(options: Mapping[str, Any], card: str) -> int:
    """A Ritual's Blood cost: +1 for every Ritual with Four Heroes (6.6)."""
    extra: int = FOUR["ritual_extra_cost"] if on(options, FOUR_HEROES) else 0
    cost: int = RITUALS[card]["cost"]
    return cost + extra


def zorkal_level_cost(options: Mapping[str, Any], level: int) -> int:
    """Blood Drops to raise Zorkal from ``level`` to the next: 7 then 9 (RB), 8 then 10 with
    Four Heroes (6.6).  The Blood cap stays 16."""
    costs: list[int] = FOUR["zorkal_level_cost"] if on(options, FOUR_HEROES) else ZORKAL_STATS["level_cost"]
    return costs[level - 1]


def starting_monsters(options: Mapping[str, Any]) -> list[str]:
    """S8's set, in the order it goes onto N1...: 2 zombies, rat, bog beast, skeleton, strong
    (RB); with Four Heroes one zombie fewer, and the last N space stays empty (6.6, ruling V6).
    Reinforcements (R06) places the same set."""
    monsters: list[str] = FOUR["starting"] if on(options, FOUR_HEROES) else STARTING_MONSTERS
    return list(monsters)
