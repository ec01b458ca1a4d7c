"""Square-grid geometry: cells, orthogonal steps, path distances, line of sight.

Game-agnostic: a game supplies the predicates (which cells are open, which
block a shot) and this module does the arithmetic.  Coordinates are ``(x, y)``
with x growing eastward and y growing southward.

>>> Cell(3, 4).neighbours()
[Cell(x=3, y=3), Cell(x=4, y=4), Cell(x=3, y=5), Cell(x=2, y=4)]
>>> Cell(0, 0).manhattan(Cell(2, -3))
5
>>> Cell(1, 1).step("E")
Cell(x=2, y=1)
>>> line_of_sight((0, 0), (1, 1), lambda c: c == (1, 0))   # only one side of a corner blocks
True
>>> line_of_sight((0, 0), (2, 0), lambda c: c == (1, 0))
False
>>> row = lambda c: [n for n in Cell(*c).neighbours() if 0 <= n.x < 3 and n.y == 0]
>>> sorted(bfs_distances([Cell(0, 0)], row).values())
[0, 1, 2]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import NamedTuple, TypeVar

# North, East, South, West — the only moves on this grid (no diagonals).
DIRECTIONS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

N = TypeVar("N", bound=Hashable)


class Cell(NamedTuple):
    x: int
    y: int

    def step(self, direction: str) -> Cell:
        dx, dy = DIRECTIONS[direction]
        return Cell(self.x + dx, self.y + dy)

    def neighbours(self) -> list[Cell]:
        """The four orthogonal neighbours, in N, E, S, W order."""
        return [Cell(self.x + dx, self.y + dy) for dx, dy in DIRECTIONS.values()]

    def manhattan(self, other: tuple[int, int]) -> int:
        return abs(self.x - other[0]) + abs(self.y - other[1])


def manhattan(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def direction_between(a: tuple[int, int], b: tuple[int, int]) -> str | None:
    """The name of the orthogonal step from ``a`` to ``b``, or None if they are not neighbours.

    >>> direction_between((2, 2), (2, 1)), direction_between((2, 2), (3, 3))
    ('N', None)
    """
    d = (b[0] - a[0], b[1] - a[1])
    for name, delta in DIRECTIONS.items():
        if delta == d:
            return name
    return None


def straight_middle(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """The middle cell when ``b`` is exactly two cells from ``a`` in a row or column.

    >>> straight_middle((11, 8), (11, 10)), straight_middle((11, 8), (12, 9))
    ((11, 9), None)
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (abs(dx), abs(dy)) in ((2, 0), (0, 2)):
        return (a[0] + dx // 2, a[1] + dy // 2)
    return None


def line_of_sight(a: tuple[int, int], b: tuple[int, int], blocks: Callable[[tuple[int, int]], bool]) -> bool:
    """Centre-to-centre line of sight; symmetric, lenient at exact corners.

    Every cell whose interior the segment from the centre of ``a`` to the centre
    of ``b`` crosses (end cells excluded) must not block.  Where the segment
    passes exactly through a grid corner, sight is blocked only if both side
    cells block.  Integer arithmetic only, so both directions agree exactly.
    """
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    nx, ny = abs(dx), abs(dy)
    x, y, ix, iy = ax, ay, 0, 0
    while ix < nx or iy < ny:
        t = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if t == 0:  # exactly through a corner: both side cells must block
            if blocks((x + sx, y)) and blocks((x, y + sy)):
                return False
            x, y, ix, iy = x + sx, y + sy, ix + 1, iy + 1
        elif t < 0:
            x, ix = x + sx, ix + 1
        else:
            y, iy = y + sy, iy + 1
        if (x, y) != (bx, by) and blocks((x, y)):
            return False
    return True


def bfs_distances(
    starts: Iterable[N],
    neighbours: Callable[[N], Iterable[N]],
    *,
    limit: int | None = None,
) -> dict[N, int]:
    """Breadth-first step counts from any of ``starts`` (all at distance 0).

    ``neighbours(node)`` yields the nodes one step away that may be entered;
    nodes farther than ``limit`` are not explored.
    """
    dist: dict[N, int] = {}
    queue: deque[N] = deque()
    for s in starts:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    while queue:
        node = queue.popleft()
        d = dist[node] + 1
        if limit is not None and d > limit:
            continue
        for nxt in neighbours(node):
            if nxt not in dist:
                dist[nxt] = d
                queue.append(nxt)
    return dist


class TeleportPairs:
    """Linked pairs of cells: a figure on either cell stands on both.

    >>> pads = TeleportPairs([((21, 1), (2, 10))])
    >>> pads.partner((2, 10)), pads.partner((3, 3))
    ((21, 1), None)
    >>> pads.cells_of((21, 1))
    ((21, 1), (2, 10))
    """

    def __init__(self, pairs: Iterable[tuple[tuple[int, int], tuple[int, int]]]) -> None:
        self._partner: dict[tuple[int, int], tuple[int, int]] = {}
        for a, b in pairs:
            # Cells may come from JSON as lists: keyed as tuples.
            a, b = (a[0], a[1]), (b[0], b[1])
            if a == b or a in self._partner or b in self._partner:
                raise ValueError("teleport pairs must be distinct cells used once")
            self._partner[a] = b
            self._partner[b] = a

    def partner(self, cell: tuple[int, int]) -> tuple[int, int] | None:
        return self._partner.get(tuple(cell))  # type: ignore[arg-type]

    def cells_of(self, cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        """The cells a figure standing on ``cell`` occupies."""
        other = self._partner.get(tuple(cell))  # type: ignore[arg-type]
        return (tuple(cell), other) if other is not None else (tuple(cell),)  # type: ignore[return-value]

    def __contains__(self, cell: object) -> bool:
        return cell in self._partner


def parse_layer(rows: Iterable[str]) -> dict[tuple[int, int], str]:
    """A text map (one string per row) as ``{(x, y): char}``.

    >>> parse_layer(["#.", ".#"])[(1, 0)]
    '.'
    """
    return {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row)}
