import doctest
import itertools

from backend.engine import hexgrid
from backend.engine.hexgrid import Hex


def test_doctests():
    assert doctest.testmod(hexgrid).failed == 0


def test_neighbours_are_at_distance_one_and_rings_have_6k_hexes():
    h = Hex(2, -3)
    assert all(h.distance(n) == 1 for n in h.neighbours())
    for k in range(1, 5):
        ring = list(h.ring(k))
        assert len(ring) == 6 * k == len(set(ring))
        assert all(h.distance(x) == k for x in ring)


def test_pixel_round_trip_for_centres_and_near_centres():
    for q, r in itertools.product(range(-6, 7), repeat=2):
        h = Hex(q, r)
        x, y = h.to_pixel(30.0)
        assert Hex.from_pixel(x, y, 30.0) == h
        assert Hex.from_pixel(x + 12.0, y - 10.0, 30.0) == h  # well inside the hex


def test_offset_round_trip():
    for q, r in itertools.product(range(-5, 6), repeat=2):
        assert Hex.from_offset(*Hex(q, r).to_offset()) == Hex(q, r)
