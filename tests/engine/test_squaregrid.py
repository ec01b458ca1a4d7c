import doctest
import itertools

import pytest

from backend.engine import squaregrid
from backend.engine.rng import Rng
from backend.engine.squaregrid import Cell, TeleportPairs, bfs_distances, line_of_sight, straight_middle


def test_doctests():
    assert doctest.testmod(squaregrid).failed == 0


def test_neighbours_are_orthogonal_only():
    c = Cell(5, 5)
    assert sorted(c.neighbours()) == sorted([Cell(5, 4), Cell(6, 5), Cell(5, 6), Cell(4, 5)])
    assert all(c.manhattan(n) == 1 for n in c.neighbours())
    assert Cell(6, 6) not in c.neighbours()  # diagonals are never adjacent


def random_walls(seed: int, size: int = 9) -> set[tuple[int, int]]:
    rng = Rng(bytes([seed]) * 32)
    return {(x, y) for x in range(size) for y in range(size) if rng.below(4) == 0}


@pytest.mark.parametrize("seed", range(4))
def test_line_of_sight_is_symmetric(seed):
    walls = random_walls(seed)
    cells = [(x, y) for x in range(9) for y in range(9) if (x, y) not in walls]
    for a, b in itertools.product(cells, repeat=2):
        assert line_of_sight(a, b, walls.__contains__) == line_of_sight(b, a, walls.__contains__), (a, b)


def test_line_of_sight_crossing_an_interior_is_blocked():
    assert not line_of_sight((0, 0), (4, 0), {(2, 0)}.__contains__)
    assert not line_of_sight((0, 0), (2, 1), {(1, 1)}.__contains__) or not line_of_sight(
        (0, 0), (2, 1), {(1, 0)}.__contains__
    )
    # A 1x2 offset crosses both (1,0) and (1,1): each alone blocks.
    assert not line_of_sight((0, 0), (2, 1), {(1, 0)}.__contains__)
    assert not line_of_sight((0, 0), (2, 1), {(1, 1)}.__contains__)


def test_corner_is_lenient_unless_both_sides_block():
    assert line_of_sight((0, 0), (1, 1), {(1, 0)}.__contains__)
    assert line_of_sight((0, 0), (1, 1), {(0, 1)}.__contains__)
    assert not line_of_sight((0, 0), (1, 1), {(1, 0), (0, 1)}.__contains__)
    # End cells never block.
    assert line_of_sight((0, 0), (3, 0), {(0, 0), (3, 0)}.__contains__)


def test_bfs_counts_steps_and_respects_the_limit():
    open_cells = {(x, 0) for x in range(6)}

    def nbrs(c):
        return [n for n in Cell(*c).neighbours() if tuple(n) in open_cells]

    dist = bfs_distances([(0, 0)], nbrs)
    assert dist[(5, 0)] == 5
    assert max(bfs_distances([(0, 0)], nbrs, limit=2).values()) == 2


def test_straight_middle_only_for_two_in_a_line():
    assert straight_middle((3, 3), (3, 5)) == (3, 4)
    assert straight_middle((3, 3), (5, 3)) == (4, 3)
    assert straight_middle((3, 3), (4, 4)) is None
    assert straight_middle((3, 3), (3, 4)) is None


def test_teleport_pairs_are_symmetric_and_exclusive():
    pads = TeleportPairs([((1, 1), (8, 8))])
    assert pads.partner((8, 8)) == (1, 1)
    assert (1, 1) in pads and (2, 2) not in pads
    with pytest.raises(ValueError):
        TeleportPairs([((1, 1), (8, 8)), ((1, 1), (3, 3))])
