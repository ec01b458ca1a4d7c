"""Heroes, monsters, cards and artifacts, read from the JSON files in data/."""

from __future__ import annotations

from typing import Any, Final

from .board import load_json

_heroes = load_json("heroes.json")
_monsters = load_json("monsters.json")
_cards = load_json("cards.json")
_artifacts = load_json("artifacts.json")
_obstacles = load_json("obstacles.json")
RULES: Final[dict[str, Any]] = load_json("rules.json")

HEROES: Final[dict[str, dict[str, Any]]] = _heroes["heroes"]
TIE_BREAK: Final[list[str]] = _heroes["tie_break"]  # RB "alphabetically by character name"
TIE_RANK: Final[dict[str, int]] = {h: i for i, h in enumerate(TIE_BREAK)}
LEVEL_XP: Final[list[int]] = _heroes["level_xp"]
ZORKAL_STATS: Final[dict[str, Any]] = _heroes["zorkal"]

MONSTERS: Final[dict[str, dict[str, Any]]] = _monsters["monsters"]
WEAK_TYPES: Final[list[str]] = _monsters["weak_order"]
STRONG_TYPES: Final[list[str]] = _monsters["strong_order"]
WEAK_CAP: Final[int] = _monsters["weak_cap"]
BAG: Final[dict[str, int]] = _monsters["bag"]
STARTING_MONSTERS: Final[list[str]] = _monsters["starting"]
STRONG_ZONES: Final[list[str]] = _monsters["strong_zones"]

RITUALS: Final[dict[str, dict[str, Any]]] = _cards["rituals"]
BLESSINGS: Final[dict[str, dict[str, Any]]] = _cards["blessings"]
TREASURES: Final[dict[str, dict[str, Any]]] = _cards["treasures"]
RITUAL_HAND: Final[int] = _cards["ritual_hand"]

ARTIFACTS: Final[dict[str, dict[str, Any]]] = _artifacts["artifacts"]
GATE_NEEDS: Final[int] = _artifacts["gate_needs"]

BLOOD_CAP: Final[int] = RULES["blood_cap"]

# Obstacles (content 1.6): cave-ins and barriers share one supply of tokens.
OBSTACLE_TOKENS: Final[int] = _obstacles["tokens"]
OBSTACLE_LIFE: Final[int] = _obstacles["life"]
OBSTACLE_KINDS: Final[dict[str, dict[str, Any]]] = _obstacles["kinds"]

# The six variants of content 6, as table options (rules/setup.py reads them).
VARIANTS: Final[dict[str, Any]] = load_json("variants.json")
VARIANT_ORDER: Final[list[str]] = VARIANTS["order"]

CARD_NAMES: Final[dict[str, str]] = {
    **{k: v["name"] for k, v in RITUALS.items()},
    **{k: v["name"] for k, v in BLESSINGS.items()},
    **{k: v["name"] for k, v in TREASURES.items()},
}


def hero_stat(hero_id: str, stat: str, level: int) -> int:
    value: int = HEROES[hero_id][stat][level - 1]
    return value


def level_for_xp(xp: int) -> int:
    """Level 2 at 5 XP, level 3 at 12 XP (RB "5 XP for level 2, 7 additional XP for level 3")."""
    level = 1
    for i, need in enumerate(LEVEL_XP):
        if xp >= need:
            level = i + 1
    return level
