"""The board data reproduces the content file's verification (§1.9)."""

from __future__ import annotations

from collections import deque

from backend.games.dorasure.content import (
    CITY,
    FANG_SITES,
    MOUNTAIN_SIDES,
    MOVE_NEIGHBOURS,
    NODE_TERRAIN,
    SPACE_NEIGHBOURS,
    SPACES,
    node_of,
)


def city_distances() -> dict[str, int]:
    dist = {CITY: 0}
    queue = deque([CITY])
    while queue:
        n = queue.popleft()
        for m in MOVE_NEIGHBOURS[n]:
            if m not in dist:
                dist[m] = dist[n] + 1
                queue.append(m)
    return dist


def test_counts_and_connectivity():
    counts: dict[str, int] = {}
    for d in SPACES.values():
        counts[d["terrain"]] = counts.get(d["terrain"], 0) + 1
    assert counts == {
        "city": 3,
        "village": 3,
        "lake": 1,
        "road": 4,
        "plains": 17,
        "forest": 12,
        "mountain": 5,
    }
    assert len(SPACES) == 45
    assert len(city_distances()) == 40 - 2  # 40 enterable hexes, the 3 City hexes are one node


def test_city_distances_match_the_space_table():
    dist = city_distances()
    for sid, d in SPACES.items():
        if d["city_dist"] is not None:
            assert dist[node_of(sid)] == d["city_dist"], sid
    assert set(MOVE_NEIGHBOURS[CITY]) == {"r03", "r04"}  # R5: the City's only exits


def test_neighbour_order_matches_the_table():
    assert SPACE_NEIGHBOURS["belk"] == ("p05", "m2", "p01", "m1", "r01", "p08")
    assert SPACE_NEIGHBOURS["m5"] == ("f05", "f02", "f04", "f08", "f09")
    assert SPACE_NEIGHBOURS["city_c"] == ("r04", "city_a", "city_b")


def test_mountains_and_fang_sites():
    assert MOUNTAIN_SIDES["m5"] == frozenset({"f02", "f04", "f05", "f08", "f09"})
    assert MOUNTAIN_SIDES["m3"] == frozenset({"f07", "hollowmere", "p06", "p07", "p10", "p12"})
    for a in FANG_SITES:
        assert not set(MOVE_NEIGHBOURS[a]) & set(FANG_SITES)
    assert [NODE_TERRAIN[s] for s in FANG_SITES] == ["plains", "plains", "forest", "plains", "forest"]
