"""The board distances the steering walks (``sim.py``): how far a creature is from a cell it could
attack a hero from, how deep a chamber cell lies, and how far a hero walks to a goal, each on
the empty board (figures and obstacles ignored: a nudge, not a rule), teleport pads linking
their two cells (content 1.7.4).  Split from ``sim.py`` by what it holds: walks and their
memos, no picking.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Final

from .board import BOARD, WALL, Cell

W: Final = BOARD.width
CHAMBER: Final = BOARD.chamber
UNKNOWN: Final = -1  # the distance of a cell no walk of ``Distances`` has reached


def _chamber_depth() -> dict[int, int]:
    """Steps from each chamber cell to the nearest door (a chamber cell next to the floor)."""
    doors = [
        c
        for c in CHAMBER
        if any(n not in CHAMBER and BOARD.creature_terrain(n, False) for n in BOARD.neighbours[c])
    ]
    depth = {c: 0 for c in doors}
    queue = deque(doors)
    while queue:
        c = queue.popleft()
        for n in BOARD.neighbours[c]:
            if n in CHAMBER and n not in depth:
                depth[n] = depth[c] + 1
                queue.append(n)
    return depth


CHAMBER_DEPTH: Final = _chamber_depth()


def _walk_out(starts: Iterable[int], ways: tuple[tuple[int, ...], ...]) -> list[int]:
    """Walking distance from the nearest start along ``ways`` (``_ways``: each cell's passable
    neighbours) to every cell it reaches, ``UNKNOWN`` where none; a teleport pad reached is its
    partner reached too (content 1.7.4)."""
    walk = Distances(starts, ways)
    walk.reach(-1)  # no such cell: walks the whole board
    return walk.found


def _ways(passable: Callable[[int, bool], bool], gate: bool) -> tuple[tuple[int, ...], ...]:
    """Per cell, its neighbours ``passable`` lets through, in ``BOARD.neighbours`` order: the
    steering walks the whole board for each new set of goals, and asks each cell once here."""
    return tuple(
        tuple(n for n in BOARD.neighbours[c] if passable(n, gate)) for c in range(BOARD.width * BOARD.height)
    )


# Each cell's passable neighbours for a creature and for a hero, by whether the gate is open.
_CREATURE_WAYS: Final = {gate: _ways(BOARD.creature_terrain, gate) for gate in (False, True)}
_HERO_WAYS: Final = {gate: _ways(BOARD.hero_terrain, gate) for gate in (False, True)}


def creature_distances(hero_cells: tuple[int, ...], kind: str, gate: bool) -> Distances:
    """Walking distance of a creature (empty board, pads link) to the nearest cell it could
    attack a hero from."""
    key = (hero_cells, kind, gate)
    found = _CDIST.get(key)
    if found is not None:
        return found
    melee, pike, shot = engagement(hero_cells)
    goal = pike if kind == "pike" else shot if kind == "shot" else melee
    found = Distances([c for c in goal if BOARD.creature_terrain(c, gate)], _CREATURE_WAYS[gate])
    if len(_CDIST) > 3000:
        _CDIST.clear()
    _CDIST[key] = found
    return found


class Distances:
    """A breadth-first walk from the nearest start (``_walk_out``), walked only as far as asked,
    a whole level at a time: the steering asks a creature's distance, then which of its
    destinations are nearer, so most of the board is never walked while the heroes stand still.

    ``found`` holds each cell's distance, ``UNKNOWN`` while not known: a list read by index,
    where a dict of the cells found hashed each cell the walk and the steering look at."""

    __slots__ = ("found", "frontier", "depth", "ways")

    def __init__(self, starts: Iterable[int], ways: tuple[tuple[int, ...], ...]) -> None:
        self.found = [UNKNOWN] * (BOARD.width * BOARD.height)
        self.frontier: list[int] = []  # the cells at ``depth``, whose neighbours are next
        for c in starts:
            if self.found[c] == UNKNOWN:
                self.found[c] = 0
                self.frontier.append(c)
        self.depth = 0
        self.ways = ways

    def reach(self, cell: int) -> int | None:
        """The distance of ``cell`` (None if it has none; -1 asks for the whole board), walking
        on until it is known; then every cell nearer than it is known too (a level is walked
        whole: which cell of a level is found first changes no distance)."""
        found = self.found
        if cell >= 0 and found[cell] != UNKNOWN:
            return found[cell]
        frontier, d = self.frontier, self.depth
        # Cells as the tables' objects (``board.Cell``): the pads' dict is not handed an unboxed
        # int to box again.
        ways: tuple[tuple[Cell, ...], ...] = self.ways
        partner: dict[Cell, Cell] = BOARD.partner
        while frontier and (cell < 0 or found[cell] == UNKNOWN):
            d += 1
            nxt: list[Cell] = []
            for at in frontier:
                for n in ways[at]:
                    k: int = n
                    if found[k] == UNKNOWN:
                        found[k] = d
                        nxt.append(n)
                        if n in partner:
                            p = partner[n]
                            j: int = p
                            if found[j] == UNKNOWN:
                                found[j] = d
                                nxt.append(p)
            frontier = nxt
        self.frontier, self.depth = frontier, d
        return found[cell] if cell >= 0 and found[cell] != UNKNOWN else None


_CDIST: Final[dict[tuple[tuple[int, ...], str, bool], Distances]] = {}


def engagement(hero_cells: tuple[int, ...]) -> tuple[set[int], set[int], set[int]]:
    """Cells from which a melee, a pike and a shooting creature could reach one of the heroes
    outside Argos and the Herbalist (lines of sight are not checked: a nudge, not a rule).  A
    pad cell counts when either cell of its pad does."""
    found = _ENGAGE.get(hero_cells)
    if found is not None:
        return found
    melee: set[int] = set()
    pike: set[int] = set()
    shot: set[int] = set()
    for hc in hero_cells:
        if hc in BOARD.safe:
            continue
        for c in BOARD.footprint[hc]:
            melee.update(BOARD.neighbours[c])
            x, y = c % W, c // W
            for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
                px, py = x + dx, y + dy
                if BOARD.in_bounds(px, py) and BOARD.terrain[py * W + px] != WALL:
                    pike.add(py * W + px)
            for dx in range(-3, 4):
                for dy in range(-3 + abs(dx), 4 - abs(dx)):
                    if BOARD.in_bounds(x + dx, y + dy):
                        shot.add((y + dy) * W + x + dx)
    for cells in (melee, pike, shot):
        cells.update([p for c, p in BOARD.partner.items() if c in cells])
    if len(_ENGAGE) > 5000:
        _ENGAGE.clear()
    found = _ENGAGE[hero_cells] = (melee, pike, shot)
    return found


_ENGAGE: Final[dict[tuple[int, ...], tuple[set[int], set[int], set[int]]]] = {}


_DIST: Final[dict[tuple[frozenset[int], bool], list[int]]] = {}


def hero_distances(goal: frozenset[int], gate: bool) -> list[int]:
    """Walking distance to the nearest goal cell on the empty board (pads link), per cell
    (``UNKNOWN``: none)."""
    key = (goal, gate)
    found = _DIST.get(key)
    if found is None:
        if len(_DIST) > 2000:
            _DIST.clear()
        found = _walk_out(goal, _HERO_WAYS[gate])
        _DIST[key] = found
    return found
