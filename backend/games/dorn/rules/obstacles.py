"""Obstacles: cave-ins (Cave-in variant) and barriers (Ritual R11 The Earth Awakens) (content 1.6,
4.1 R11, 6.3; rulings V1-V3 in docs/rules/dorn.md).

An obstacle is a token on a floor cell, not a figure: ``s["obstacles"]`` holds
``{id: {"cell", "life", "kind"}}``.  What it blocks is read from there by the path code, so this
module only places, hurts and removes them:

- every step (heroes, creatures, Vargen's push through: ``movement.py``), line of sight and pike
  middles (``reach.sight_blocker``), magic paths (``reach.magic_distance``, which may still end on
  it) and area spread (``reach.area_distances``: reached and hit, not passed) stop at it;
- teleports pass over it (``reach.teleport_distances``), but never end on it (the destination
  must be a legal cell);
- summoning, hidden monsters and every other placement skip its cell (``creature_may_enter``).

API for the cards and abilities (called by rules/cards.py, rules/combat.py and the abilities):

- ``can_place(w, cell)`` / ``placeable(w)``: where one may go now (R11's conditions);
- ``place(w, cell, kind)``: put one down, or None when the supply of 6 is used up;
- ``targets(w, src, reach_kind, rng)``: the obstacles a hero's attack of that reach kind can hit;
- ``damage(w, oid, n, by)``: a hero's hit; removed at 0 life, no XP and no Blood.

Creatures never damage obstacles (content 6.3), so nothing on the Keeper's side calls ``damage``.
"""

from __future__ import annotations

from typing import Final

from ..board import BOARD, WALL
from ..catalog import HEROES, OBSTACLE_KINDS, OBSTACLE_LIFE, OBSTACLE_TOKENS
from ..state import Work, cell_name, placed, xy
from . import reach
from .movement import creature_may_enter

CAVE_IN: Final = "cave_in"
BARRIER: Final = "barrier"


def name(kind: str) -> str:
    return str(OBSTACLE_KINDS[kind]["name"])


def at(w: Work, cell: int) -> str | None:
    """The obstacle on ``cell``, if any."""
    for oid, o in w.s["obstacles"].items():
        if o["cell"] == cell:
            return oid
    return None


def supply(w: Work) -> int:
    """Obstacle tokens not on the board: 6 in all, shared by cave-ins and barriers (content 6.3,
    R11).  A destroyed one goes back to the supply (ruling V2)."""
    return OBSTACLE_TOKENS - len(w.s["obstacles"])


def can_place(w: Work, cell: int) -> bool:
    """Where an obstacle may go (content 1.6 and R11): an empty legal monster cell (no figure, no
    obstacle; floor or zone, the gate once open), with no treasure token and no artifact lying
    there, not a teleport pad, not in the Ritual Chamber, and neither on nor next to a hero; and a
    token must be left in the supply."""
    if supply(w) <= 0 or cell not in _CANDIDATE_SET:
        return False
    s = w.s
    if cell in s["tokens"] or any(
        a["carrier"] is None and a["cell"] == cell for a in s["artifacts"].values()
    ):
        return False
    if not creature_may_enter(w, "", cell):
        return False
    for hid in w.on_board_heroes():
        hero_cell = s["heroes"][hid]["cell"]
        assert hero_cell is not None
        if reach.adjacent(cell, hero_cell):
            return False
    return True


def placeable(w: Work) -> list[int]:
    """Every cell ``can_place`` accepts now, in reading order (the order prompts list them in)."""
    if supply(w) <= 0:
        return []
    # ``can_place`` for every candidate, its tests gathered into sets once (R11 lists every cell).
    s = w.s
    taken: set[int | None] = set(s["tokens"])
    taken.update(a["cell"] for a in s["artifacts"].values() if a["carrier"] is None)
    taken.update(w.occupancy())
    taken.update(w.obstacle_cells())
    footprint, neighbours = BOARD.footprint, BOARD.neighbours
    for hid in w.on_board_heroes():
        for hc in footprint[placed(s["heroes"][hid]["cell"])]:
            taken.update(neighbours[hc])  # next to a hero (candidates are never walls: ``reach.adjacent``)
    gate = s["gate"]
    return [c for c in _CANDIDATES if c not in taken and BOARD.creature_terrain(c, gate)]


def fits(w: Work) -> bool:
    """Whether one obstacle may go anywhere now (R11's precondition)."""
    return supply(w) > 0 and any(can_place(w, c) for c in _CANDIDATES)


# The cells the board alone allows (no wall, no pad, not in the chamber), in reading order:
# the only ones ``can_place`` looks further at (the Keeper's K1 list asks R11 whether one fits).
_CANDIDATES: Final = tuple(
    c
    for c in range(BOARD.width * BOARD.height)
    if BOARD.terrain[c] != WALL and c not in BOARD.partner and c not in BOARD.chamber
)
_CANDIDATE_SET: Final = frozenset(_CANDIDATES)


def place(w: Work, cell: int, kind: str, why: str | None = None) -> str | None:
    """Put an obstacle of ``kind`` (``CAVE_IN`` or ``BARRIER``) on ``cell`` with 3 life.  The
    caller has checked ``can_place`` (the Cave-in sites are checked by the setup instead: they
    are never tokens, pads or N spaces).  Returns its id, or None when the supply is used up:
    "place as many as fit under that limit" (R11)."""
    if supply(w) <= 0:
        return None
    s = w.s
    oid = f"o{s['next_id']}"
    s["next_id"] += 1
    s["obstacles"][oid] = {"cell": cell, "life": OBSTACLE_LIFE, "kind": kind}
    w.moved()
    w.emit(
        "obstacle_placed",
        f"A {name(kind)} blocks {cell_name(cell)}" + (f" ({why})." if why else "."),
        obstacle=oid,
        type=kind,
        cell=xy(cell),
        life=OBSTACLE_LIFE,
    )
    return oid


def damage(w: Work, oid: str, n: int, by: str | None, why: str | None = None) -> bool:
    """A hero's attack, spell or item deals ``n`` to the obstacle (content 6.3: each hit deals 1);
    at 0 life it is removed.  It gives no XP and no Blood (content 1.6, ruling 22), so ``by`` (the
    hero, or None) only names who broke it.  Returns True if it was removed."""
    s = w.s
    o = s["obstacles"][oid]
    o["life"] = max(0, o["life"] - n)
    what = name(o["kind"])
    where = cell_name(o["cell"])
    who = f" by {HEROES[by]['name']}" if by is not None else ""
    how = f" ({why})" if why else ""
    if o["life"] > 0:
        w.emit(
            "obstacle_hurt",
            f"The {what} at {where} is hit{who}{how}: {o['life']} life left.",
            obstacle=oid,
            amount=n,
            life=o["life"],
            by=by,
        )
        return False
    del s["obstacles"][oid]
    w.moved()
    w.emit(
        "obstacle_removed",
        f"The {what} at {where} is broken{who}{how}: the way is open.",
        obstacle=oid,
        cell=xy(o["cell"]),
        by=by,
    )
    return True


def reaches(w: Work, src: int, cell: int, reach_kind: str, rng: int | None = None) -> bool:
    """Whether a hero at ``src`` reaches the obstacle cell ``cell`` with an attack of
    ``reach_kind``, measured as for a creature on that cell (content 1.7): ``adjacent``; ``pike``
    (exactly 2 in a line, clear middle); ``shot`` (Manhattan <= rng with line of sight: the
    obstacle is an end cell, so it does not hide itself); ``magic`` (a path <= rng that may end
    on it); ``area`` (area distance <= rng: reached, not passed)."""
    if reach_kind == "adjacent":
        return reach.adjacent(src, cell)
    if reach_kind == "pike":
        return reach.pike_reach(w, src, cell, True)
    assert rng is not None, reach_kind
    if reach_kind == "shot":
        return reach.shot_in_range(w, src, cell, rng, True)
    if reach_kind == "magic":
        return reach.magic_distance(w, src, cell, rng) is not None
    if reach_kind == "area":
        return cell in reach.area_distances(w, src, rng)
    raise ValueError(reach_kind)


def targets(w: Work, src: int, reach_kind: str, rng: int | None = None) -> list[str]:
    """The obstacles a hero at ``src`` can hit with an attack of ``reach_kind`` (see ``reaches``),
    sorted by id: the ``attack`` actions on obstacles list these."""
    return sorted(oid for oid, o in w.s["obstacles"].items() if reaches(w, src, o["cell"], reach_kind, rng))
