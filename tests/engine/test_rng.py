from collections import Counter

import pytest

from backend.engine.rng import Rng, commitment, seed_from_int


def test_same_seed_same_sequence_and_counter_resumes():
    a = Rng(seed_from_int(7))
    first = [a.d6() for _ in range(50)]
    b = Rng(seed_from_int(7))
    assert [b.d6() for _ in range(50)] == first
    # A cursor rebuilt from (seed, counter) continues exactly where the old one was.
    c = Rng(seed_from_int(7), counter=a.counter)
    assert [c.below(1000) for _ in range(5)] == [a.below(1000) for _ in range(5)]


def test_known_answer_pins_the_algorithm():
    # Changing the draw algorithm would silently change every stored game: pin it.
    r = Rng(bytes(range(32)))
    assert [r.d6() for _ in range(12)] == KNOWN_D6


KNOWN_D6 = [1, 4, 5, 1, 5, 5, 1, 3, 1, 4, 2, 1]


def test_d6_is_uniform_enough():
    r = Rng(seed_from_int(1))
    counts = Counter(r.d6() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):
        assert abs(counts[face] - 10_000) < 450  # > 4 sigma


def test_below_rejects_bad_bounds_and_covers_range():
    r = Rng(seed_from_int(2))
    with pytest.raises(ValueError):
        r.below(0)
    assert {r.below(3) for _ in range(300)} == {0, 1, 2}
    assert r.below(1) == 0


def test_shuffle_is_a_permutation_and_all_orders_occur():
    r = Rng(seed_from_int(3))
    orders = Counter(tuple(r.shuffled([1, 2, 3])) for _ in range(6000))
    assert len(orders) == 6
    assert all(700 < n < 1300 for n in orders.values())


def test_seed_hex_round_trip_and_commitment():
    seed = seed_from_int(9)
    assert Rng(seed.hex()).d6() == Rng(seed).d6()
    assert commitment(seed) != seed.hex() and len(commitment(seed)) == 64
