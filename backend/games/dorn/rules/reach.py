"""Who can reach whom: adjacency, shots, pikes and the four path distances (content 1.7).

Everything takes a ``Work`` so it sees the current figures, obstacles and gate.
Cells are board indices; a figure on a teleport pad is at both of its cells.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Final

from backend.engine.squaregrid import line_of_sight, straight_middle

from ..board import BOARD, WALL
from ..state import Work

W: Final = BOARD.width


def _xy(i: int) -> tuple[int, int]:
    return (i % W, i // W)


def adjacent(a: int, b: int) -> bool:
    """Orthogonal adjacency, counting both cells of a pad (ruling 1, 13); diagonals never."""
    return b in ADJACENT[a]


def heroes_adjacent(a: int, b: int) -> bool:
    """Heroes' adjacency: all heroes in Argos count as adjacent to each other (content 1.7.1)."""
    return b in ADJACENT[a] or (a in ARGOS and b in ARGOS)


def _adjacent_cells(a: int) -> frozenset[int]:
    """The cells ``b`` adjacent to ``a``: some cell of ``b`` (both of a pad) is an orthogonal
    neighbour of some cell of ``a``.  A table, as adjacency is asked everywhere (the heroes'
    gives at every movement list, attacks, parries); tests/games/dorn/test_board.py checks it
    against the definition for every pair of cells."""
    out: set[int] = set()
    for ca in BOARD.cells_of(a):
        for cb in BOARD.neighbours[ca]:
            if abs(ca - cb) in (1, W):
                out.add(cb)
                if cb in BOARD.partner:
                    out.add(BOARD.partner[cb])  # the pad's far cell: a figure there is on ``cb`` too
    return frozenset(out)


ADJACENT: Final = tuple(_adjacent_cells(a) for a in range(BOARD.width * BOARD.height))
ARGOS: Final = frozenset(BOARD.zones["argos"])


def _static_blocker(w: Work) -> Callable[[int], bool]:
    obstacles = w.obstacle_cells()
    gate_open = w.s["gate"]

    def blocked(i: int) -> bool:
        return BOARD.terrain[i] == WALL or i in obstacles or BOARD.closed_gate_blocks(i, gate_open)

    return blocked


def sight_blocker(w: Work, shooter_is_hero: bool) -> Callable[[tuple[int, int]], bool]:
    """Blockers for a shot (ruling 4): walls, the closed gate, obstacles, and enemy figures —
    creatures block heroes' shots, heroes block creatures' shots."""
    static = _static_blocker(w)
    occ = w.occupancy()
    is_hero = w.is_hero

    def blocks(c: tuple[int, int]) -> bool:
        x, y = c
        if not (0 <= x < W and 0 <= y < BOARD.height):
            return True
        i = y * W + x
        if static(i):
            return True
        fid = occ.get(i)
        if fid is None:
            return False
        return is_hero(fid) != shooter_is_hero

    return blocks


def shot_in_range(w: Work, src: int, dst: int, rng: int, shooter_is_hero: bool) -> bool:
    """Shooting: Manhattan distance <= range with a clear line of sight (rulings 2, 3, 14).
    Either cell of a pad may be the origin or the target; the link itself is never used."""
    blocks = sight_blocker(w, shooter_is_hero)
    for a in BOARD.cells_of(src):
        for b in BOARD.cells_of(dst):
            ax, ay = _xy(a)
            bx, by = _xy(b)
            if abs(ax - bx) + abs(ay - by) <= rng and line_of_sight((ax, ay), (bx, by), blocks):
                return True
    return False


def pike_reach(w: Work, src: int, dst: int, attacker_is_hero: bool) -> bool:
    """Straight-line pike (content 1.7.5, ruling 7): exactly 2 cells in a row or column, and the
    middle cell holds no wall, closed gate, obstacle or figure that blocks this attacker."""
    blocks = sight_blocker(w, attacker_is_hero)
    for a in BOARD.cells_of(src):
        for b in BOARD.cells_of(dst):
            mid = straight_middle(_xy(a), _xy(b))
            if mid is not None and not blocks(mid):
                return True
    return False


def _magic_walk(w: Work, src: int, limit: int) -> Iterator[tuple[int, int]]:
    """(cell, magic distance) for every cell magic reaches from ``src`` within ``limit``, nearest
    first (content 1.7.2, ruling 5): paths avoid walls, the closed gate, obstacles and
    creature-held cells in between (a cell holding one is reached, not passed); heroes may be in
    between; no pad link."""
    static = _static_blocker(w)
    occ = w.occupancy()
    gate = w.s["gate"]
    starts = BOARD.cells_of(src)
    seen = set(starts)
    for s in starts:
        yield s, 0
    queue = deque((s, 0) for s in starts)
    while queue:
        cell, d = queue.popleft()
        if d >= limit:
            continue
        for n in BOARD.neighbours[cell]:
            if n in seen or BOARD.closed_gate_blocks(n, gate):
                continue
            seen.add(n)
            yield n, d + 1
            if static(n):
                continue
            fid = occ.get(n)
            if fid is not None and w.is_creature(fid):
                continue
            queue.append((n, d + 1))


def magic_distance(w: Work, src: int, dst: int, limit: int) -> int | None:
    """Magic distance (content 1.7.2, ruling 5) from ``src`` to ``dst`` (either of its cells);
    None when the target is farther than ``limit``."""
    targets = BOARD.cells_of(dst)
    return next((d for c, d in _magic_walk(w, src, limit) if c in targets), None)


def magic_cells(w: Work, src: int, limit: int) -> set[int]:
    """Every cell a spell aimed at a cell (fireball) may target: magic distance <= ``limit``,
    the same paths as ``magic_distance``; the cell itself may hold anything, and is never a wall
    or the closed gate."""
    return {c for c, _ in _magic_walk(w, src, limit)}


def area_distances(w: Work, src: int, limit: int) -> dict[int, int]:
    """Area distance (content 1.7.2, ruling 6): around walls and the closed gate, ignoring
    figures; an obstacle cell is reached but not passed through.  From either pad cell."""
    return _spread(w, src, limit, w.obstacle_cells())


def teleport_distances(w: Work, src: int, limit: int) -> dict[int, int]:
    """Teleport distance (content 1.7.2): through any non-wall, non-closed-gate cell, passing
    over figures and obstacles; never through a pad link."""
    return _spread(w, src, limit, frozenset())


def _spread(w: Work, src: int, limit: int, stops: Collection[int]) -> dict[int, int]:
    """Distances up to ``limit`` from either cell of ``src`` around walls and the closed gate;
    a cell in ``stops`` is reached but not passed through."""
    gate_open = w.s["gate"]
    dist = {c: 0 for c in BOARD.cells_of(src)}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        d = dist[cell] + 1
        if d > limit or (cell in stops and dist[cell] > 0):
            continue
        for n in BOARD.neighbours[cell]:
            if n not in dist and not BOARD.closed_gate_blocks(n, gate_open):
                dist[n] = d
                queue.append(n)
    return dist


def within(dist: dict[int, int], cells: Iterable[int]) -> int | None:
    """The smaller distance over a figure's cells (content 1.7.4), or None if unreached."""
    found = [dist[c] for c in cells if c in dist]
    return min(found) if found else None
