"""Dorasure's data files, loaded once at import and turned into lookup tables.

Everything numeric lives in ``data/*.json`` (content file §1–§9); this module only
reshapes it for speed: the movement graph (the three City hexes collapse into one
node, ``"city"``, R5), mountain neighbourhoods, thresholds, hero sheets.
"""

from __future__ import annotations

import json
import math
from importlib.resources import files
from typing import Any, NotRequired, TypedDict

from backend.engine.hexgrid import Hex

# By the package, not by ``__file__``: compiled by mypyc (backend/native.py), a module's
# ``__file__`` names a path that does not exist.
DATA = files("backend.games.dorasure") / "data"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


BOARD = _load("board.json")
DRAGON = _load("dragon.json")
CHARTS = _load("charts.json")
HERO_DATA = _load("heroes.json")
QUEST_DATA = _load("quests.json")
FANG = _load("fang.json")

# The shapes of the board's and Fang's records (data/board.json, data/fang.json).
Terrain = TypedDict(
    "Terrain",
    {"threshold": int, "class": str, "share": bool, "rest": int, "adventure": bool, "enterable": bool},
)


class Space(TypedDict):
    id: str
    q: int
    r: int
    terrain: str
    name: str | None  # only places the map names: towns, mountains, the lake...
    fang_site: bool
    city_dist: int | None


class SearchThreshold(TypedDict):
    search: int
    threshold: int


Land = TypedDict(
    "Land",
    {
        "id": str,
        "name": str,
        "threshold": int,
        "class": str,
        "rest": int,
        "text": str,
        "search_threshold": NotRequired[SearchThreshold],
    },
)

CITY = BOARD["city_node"]
LAKE = "lake"
TERRAINS: dict[str, Terrain] = BOARD["terrains"]
SPACES: dict[str, Space] = {s["id"]: s for s in BOARD["spaces"]}
MOUNTAINS: tuple[str, ...] = tuple(BOARD["mountains"])


def node_of(space_id: str) -> str:
    """The movement node a board space belongs to (R5: the City is one node)."""
    return CITY if SPACES[space_id]["terrain"] == "city" else space_id


def mountain_name(m: str) -> str:
    """A mountain as the map labels it."""
    name = SPACES[m]["name"]
    assert name is not None, "every mountain is named on the map"
    return name


CITY_HEXES: tuple[str, ...] = tuple(s for s, d in SPACES.items() if d["terrain"] == "city")

# Node -> base terrain (before Belk is razed or Fang tiles replace sites).
NODE_TERRAIN: dict[str, str] = {node_of(s): d["terrain"] for s, d in SPACES.items()}
ENTERABLE_NODES: tuple[str, ...] = tuple(n for n, t in NODE_TERRAIN.items() if TERRAINS[t]["enterable"])

_by_coord: dict[tuple[int, int], str] = {(d["q"], d["r"]): s for s, d in SPACES.items()}


def _space_neighbours(space_id: str) -> list[str]:
    d = SPACES[space_id]
    return [_by_coord[h.q, h.r] for h in Hex(d["q"], d["r"]).neighbours() if (h.q, h.r) in _by_coord]


SPACE_NEIGHBOURS: dict[str, tuple[str, ...]] = {s: tuple(_space_neighbours(s)) for s in SPACES}


def _node_neighbours() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for s in SPACES:
        n = node_of(s)
        lst = out.setdefault(n, [])
        for t in SPACE_NEIGHBOURS[s]:
            m = node_of(t)
            if m != n and m not in lst:
                lst.append(m)
    return {k: tuple(v) for k, v in out.items()}


NODE_NEIGHBOURS = _node_neighbours()


# -- Places as the map names them ---------------------------------------------------------------
# Sentences never show space ids (no hex carries one): a place is the City, a named space, or an
# unnamed hex by its terrain and bearing from the nearest named one.  These are the words of the
# client's frontend/js/games/dorasure/names.js (``place``, ``compass``), so log and buttons agree.

COMPASS = ("east", "north-east", "north-west", "west", "south-west", "south-east")


def compass(a: Space, b: Space) -> str:
    """The direction from hex ``a`` to hex ``b``, one of the six of a pointy-top map."""
    x = b["q"] - a["q"] + (b["r"] - a["r"]) / 2
    y = (b["r"] - a["r"]) * math.sqrt(3) / 2
    angle = math.atan2(-y, x) * 180 / math.pi  # 0 = east, counter-clockwise
    return COMPASS[math.floor(angle / 60 + 0.5) % 6]  # rounding half up, as JavaScript's Math.round


def _nearest_named(space_id: str) -> tuple[Space, int] | None:
    """The nearest space with a name, over hexes of any terrain, with its distance (< 8)."""
    seen = {space_id}
    ring = [space_id]
    for distance in range(1, 8):
        nxt = []
        for s in ring:
            for n in SPACE_NEIGHBOURS[s]:
                if n in seen:
                    continue
                seen.add(n)
                if SPACES[n]["name"]:
                    return SPACES[n], distance
                nxt.append(n)
        if not nxt:
            return None
        ring = nxt
    return None


def _place_name(node: str) -> str:
    if node == CITY:
        return "the City"
    s = SPACES[node]
    if s["name"]:
        return s["name"]
    kind = s["terrain"]
    near = _nearest_named(node)
    if near is None:
        return f"the {kind} hex"
    other, distance = near
    where = "the City" if other["terrain"] == "city" else other["name"]
    bearing = compass(other, s)
    if distance == 1:
        return f"the {kind} {bearing} of {where}"
    return f"the {kind} {distance} hexes {bearing} of {where}"


PLACE_NAMES: dict[str, str] = {node_of(s): _place_name(node_of(s)) for s in SPACES}
# Movement graph: enterable nodes only (mountains are never entered nor crossed, §1.6).
MOVE_NEIGHBOURS: dict[str, tuple[str, ...]] = {
    n: tuple(m for m in NODE_NEIGHBOURS[n] if TERRAINS[NODE_TERRAIN[m]]["enterable"]) for n in ENTERABLE_NODES
}
# Mountain -> enterable nodes adjacent to it (quest adjacency, §7.3).
MOUNTAIN_SIDES: dict[str, frozenset[str]] = {
    m: frozenset(n for n in NODE_NEIGHBOURS[m] if TERRAINS[NODE_TERRAIN[n]]["enterable"]) for m in MOUNTAINS
}
# Node -> mountains adjacent to it, lowest id first (R63 default).
NODE_MOUNTAINS: dict[str, tuple[str, ...]] = {
    n: tuple(m for m in MOUNTAINS if n in MOUNTAIN_SIDES[m]) for n in ENTERABLE_NODES
}

# Meter and Dragon health (§2.1, §3.1).
METER = DRAGON["meter"]
METER_FINAL: int = METER["final"]
FIRE: frozenset[int] = frozenset(METER["fire"])
REPLENISH_AT: int = METER["replenish_at"]
DRAGON_BOXES: int = DRAGON["health"]["boxes"]
CLAWS: frozenset[int] = frozenset(DRAGON["health"]["claws"])
FINAL_BREATH_LIFE: int = DRAGON["health"]["final_breath_life"]
ROAMING: dict[int, str] = {int(k): v for k, v in DRAGON["roaming_chart"].items()}
RETALIATION: dict[int, str] = {int(k): v for k, v in DRAGON["retaliation_chart"].items()}

# Scoring (§4.1).
DIE_SCORE: dict[int, int] = {int(k): v for k, v in CHARTS["die_score"].items()}
BONUS_SCORE: dict[int, int] = {int(k): v for k, v in CHARTS["bonus_score"].items()}
EXPLODE: int = CHARTS["explode_on"]


def chart_row(chart: str, total: int) -> dict[str, Any]:
    """The row of ``chart`` ("adventure" or "battle") that a total falls in."""
    rows: list[dict[str, Any]] = CHARTS[chart]
    for row in rows:
        if row["max"] is None or total <= row["max"]:
            return row
    raise AssertionError("charts end with an open row")


# Heroes (§6).
HEROES: dict[str, dict[str, Any]] = {h["id"]: h for h in HERO_DATA["heroes"]}
PRIORITY: dict[str, int] = {h: d["priority"] for h, d in HEROES.items()}
PARTY_HEROES: tuple[str, ...] = tuple(
    sorted((h for h in HEROES if h != "grand_master"), key=PRIORITY.__getitem__)
)
GRAND_MASTER = "grand_master"
EXP = HERO_DATA["exp"]
WOLF_ICONS: frozenset[int] = frozenset(EXP["wolf_icons"])
LARGE_FROM: int = HERO_DATA["player_counts"]["large_from"]

# Quests and rewards (§7).
QUESTS: dict[str, dict[str, Any]] = {q["id"]: q for q in QUEST_DATA["quests"]}
REWARDS: dict[str, dict[str, Any]] = {r["id"]: r for r in QUEST_DATA["rewards"]}
REWARD_POOL: tuple[str, ...] = tuple(r["id"] for r in QUEST_DATA["rewards"] for _ in range(r["count"]))

# Fang (§9).
FANG_SITES: tuple[str, ...] = tuple(FANG["sites"])
LANDS: dict[str, Land] = {t["id"]: t for t in FANG["tiles"]}


def tile_names() -> dict[str, str]:
    """Every quest and reward id → display name (for secrets)."""
    out = {q: d["name"] for q, d in QUESTS.items()}
    out.update({r: d["name"] for r, d in REWARDS.items()})
    return out


TILE_NAMES = tile_names()
