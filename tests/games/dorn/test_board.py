"""Content file 1.8: the breadth-first verification of the board data, and the 1.7.6 vectors."""

from collections import deque

import pytest

from backend.engine.squaregrid import line_of_sight
from backend.games.dorn.board import BOARD, CREATURE_TERRAIN, WALL

W = BOARD.width
ALL = range(W * BOARD.height)
OPEN = [i for i in ALL if BOARD.terrain[i] != WALL]
TRAILISH = set(BOARD.zones["trail"]) | set(BOARD.zones["herbalist"]) | set(BOARD.zones["argos"])


def c(x, y):
    return BOARD.idx(x, y)


def walk(starts, *, hero=True, gate_open=False, pads=True, avoid=()):
    """Walking distances (figures ignored); pads merged into one node when ``pads``."""
    dist = {}
    queue = deque()
    for s in starts:
        for t in BOARD.cells_of(s) if pads else (s,):
            if t not in dist:
                dist[t] = 0
                queue.append(t)
    while queue:
        cell = queue.popleft()
        for n in BOARD.neighbours[cell]:
            ok = BOARD.hero_terrain(n, gate_open) if hero else BOARD.creature_terrain(n, gate_open)
            if not ok or n in dist or n in avoid:
                continue
            for t in BOARD.cells_of(n) if pads else (n,):
                if t not in dist:
                    dist[t] = dist[cell] + 1
                    queue.append(t)
    return dist


def nearest(dist, cells):
    return min(dist[x] for x in cells if x in dist)


def test_counts_and_zones_match_the_terrain():
    assert len(OPEN) == 232
    closed_creature = [i for i in ALL if BOARD.terrain[i] in CREATURE_TERRAIN]
    assert len(closed_creature) == 184
    chars = {
        "crypt": "c",
        "dark_temple": "d",
        "graveyard": "g",
        "black_moor": "m",
        "sewers": "s",
        "chamber": "r",
        "gate": "G",
        "throne": "Z",
        "argos": "a",
        "herbalist": "H",
        "trail": "~",
    }
    for zone, ch in chars.items():
        assert sorted(BOARD.zones[zone]) == sorted(i for i in ALL if BOARD.terrain[i] == ch), zone
    assert len(BOARD.chamber) == 14
    assert len(BOARD.treasure_spaces) == 24 and len(BOARD.n_spaces) == 6 and len(BOARD.artifact_homes) == 6
    markers = [
        i
        for group in (
            BOARD.treasure_spaces,
            BOARD.n_spaces,
            tuple(BOARD.artifact_homes.values()),
            tuple(BOARD.partner),
            tuple(BOARD.fountains),
            BOARD.cave_in_sites,
        )
        for i in group
    ]
    assert len(markers) == len(set(markers))  # no two markers share a cell


def test_heroes_reach_every_cell_from_argos():
    closed = walk(BOARD.argos)
    assert len(closed) == 226 and not (set(closed) & (BOARD.gate | BOARD.throne))
    assert len(walk(BOARD.argos, gate_open=True)) == 232


def test_creature_cells_are_connected_and_never_trail():
    cells = walk([BOARD.n_spaces[0]], hero=False)
    assert len(cells) == 184
    assert not set(cells) & TRAILISH


@pytest.mark.parametrize("pads", [True, False])
def test_every_spawn_cell_and_n_space_reaches_the_chamber(pads):
    for zone in ("crypt", "dark_temple", "graveyard", "black_moor", "sewers"):
        for cell in BOARD.zones[zone]:
            assert set(walk([cell], hero=False, pads=pads)) & BOARD.chamber
    got = [nearest(walk([n], hero=False), BOARD.chamber) for n in BOARD.n_spaces]
    assert got == [3, 3, 7, 15, 7, 6]


def test_published_distances():
    argos = walk(BOARD.argos)
    assert nearest(argos, BOARD.chamber) == 21
    assert nearest(walk(BOARD.argos, pads=False), BOARD.chamber) == 24
    assert nearest(walk(BOARD.argos, gate_open=True), BOARD.throne) == 26
    expected = {"A1": (25, 10), "A2": (15, 11), "A3": (19, 11), "A4": (15, 17), "A5": (10, 15), "A6": (21, 7)}
    for aid, (there, back) in expected.items():
        cell = BOARD.artifact_homes[aid]
        assert argos[cell] == there, aid
        assert nearest(walk([cell]), BOARD.chamber) == back, aid
    assert nearest(walk(BOARD.argos, pads=False), [BOARD.artifact_homes["A6"]]) == 27
    assert argos[c(0, 12)] == 16 and argos[c(5, 11)] == 12 and argos[c(20, 12)] == 14
    assert [argos[e] for e in BOARD.entrances] == [15, 6, 7, 19]
    assert walk([c(21, 1)], pads=False)[c(2, 10)] == 28
    assert walk([c(5, 5)], pads=False)[c(14, 14)] == 20


def test_spawn_zone_ranges_to_the_chamber():
    expected = {
        "crypt": (8, 11),
        "dark_temple": (9, 12),
        "graveyard": (10, 12),
        "sewers": (11, 15),
        "black_moor": (14, 17),
    }
    for zone, (lo, hi) in expected.items():
        got = [nearest(walk([cell], hero=False), BOARD.chamber) for cell in BOARD.zones[zone]]
        assert (min(got), max(got)) == (lo, hi), zone


def test_cave_in_sites_are_corridors_and_never_cut_the_board():
    for site in BOARD.cave_in_sites:
        nbrs = [n for n in BOARD.neighbours[site] if BOARD.terrain[n] != WALL]
        assert len(nbrs) == 2
        (ax, ay), (bx, by) = BOARD.xy(nbrs[0]), BOARD.xy(nbrs[1])
        assert ax == bx or ay == by  # in a line
    worst = 0
    sites = BOARD.cave_in_sites
    for i, a in enumerate(sites):
        for b in sites[i + 1 :]:
            blocked = {a, b}
            reach = walk(BOARD.argos, avoid=blocked)
            assert len(reach) == 226 - 2
            worst = max(worst, nearest(reach, BOARD.chamber))
            for zone in ("crypt", "dark_temple", "graveyard", "black_moor", "sewers"):
                assert set(walk([BOARD.zones[zone][0]], hero=False, avoid=blocked)) & BOARD.chamber
    assert worst == 27


def test_herbalist_has_no_creature_neighbour():
    herb = BOARD.zones["herbalist"][0]
    assert all(BOARD.terrain[n] == "~" for n in BOARD.neighbours[herb])


def _walls(p):
    x, y = p
    return not BOARD.in_bounds(x, y) or BOARD.terrain[c(x, y)] in (WALL, "G")


def test_line_of_sight_is_symmetric_and_matches_walking():
    cells = [BOARD.xy(i) for i in OPEN]
    clear = 0
    for a in cells:
        dist = walk([c(*a)], gate_open=False, pads=False)
        for b in cells:
            ab = line_of_sight(a, b, _walls)
            assert ab == line_of_sight(b, a, _walls)
            if ab and a != b and BOARD.terrain[c(*a)] not in "GZ" and BOARD.terrain[c(*b)] not in "GZ":
                clear += 1
                # Every clear line of sight has a walking path of exactly Manhattan length.
                assert dist.get(c(*b)) == abs(a[0] - b[0]) + abs(a[1] - b[1]), (a, b)
    assert clear > 4000


VECTORS = [
    ((8, 8), (14, 8), [], True),
    ((8, 8), (14, 8), [(11, 8)], False),
    ((8, 9), (12, 9), [], False),
    ((9, 8), (11, 10), [], False),
    ((9, 9), (11, 10), [], False),
    ((11, 9), (12, 10), [], True),
    ((9, 9), (10, 10), [], True),
    ((6, 6), (5, 7), [], False),
    ((9, 12), (14, 13), [], True),
    ((9, 12), (14, 13), [(12, 13)], False),
    ((14, 9), (16, 8), [], False),
    ((11, 10), (11, 7), [(11, 8)], False),
]


@pytest.mark.parametrize("a,b,extra,clear", VECTORS)
def test_content_vectors(a, b, extra, clear):
    def blocks(p):
        return _walls(p) or p in extra

    assert line_of_sight(a, b, blocks) == clear
    assert line_of_sight(b, a, blocks) == clear


def test_the_adjacency_table_is_the_definition():
    """``reach.ADJACENT`` (a table, issue 15.3) against the rule it tabulates, for every pair of
    cells: some cell of one (both cells of a pad) is an orthogonal neighbour of some cell of
    the other (rulings 1, 13); heroes in Argos are also adjacent to each other (1.7.1)."""
    from backend.games.dorn.rules import reach

    def defined(a, b):
        return any(
            cb in BOARD.neighbours[ca] and abs(ca - cb) in (1, W)
            for ca in BOARD.cells_of(a)
            for cb in BOARD.cells_of(b)
        )

    argos = set(BOARD.zones["argos"])
    for a in ALL:
        for b in ALL:
            assert reach.adjacent(a, b) == defined(a, b), (a, b)
            assert reach.heroes_adjacent(a, b) == (defined(a, b) or (a in argos and b in argos)), (a, b)
