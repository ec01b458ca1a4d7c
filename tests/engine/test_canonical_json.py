"""``canonical_json``: orjson's text where it is Python ``json``'s, ``json``'s where it is not.
Stored hashes and snapshots are of ``json``'s bytes, so the two must never differ."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from backend.engine.core import Game, SharedEncoding
from backend.engine.playout import driver_rng, play_random
from backend.engine.registry import get_game
from backend.engine.replay import _json_spelling, canonical_json, encoded_to_spell
from backend.engine.rng import seed_from_int

finite = st.floats(allow_nan=False, allow_infinity=False)
scalars = st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | finite | st.text()
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_every_value_is_spelled_as_json_spells_it(value: Any) -> None:
    assert canonical_json(value) == _json_spelling(value)


def test_the_floats_orjson_writes_otherwise_are_json_s() -> None:
    # orjson writes these "0.00001", "5e-7" and "1.5e-9"; json "1e-05", "5e-07", "1.5e-09".
    floats = [1e-05, 5e-07, 1.5e-09, 3.2e-05, 1e-4, 1e16, 1e21, 1.7976931348623157e308, 5e-324, -0.0, 2.0]
    for f in floats:
        assert canonical_json({"x": [f]}) == _json_spelling({"x": [f]}), f
    assert canonical_json([1e-05]) == "[1e-05]"
    # What orjson refuses: an int past 64 bits, a key that is not a string.
    assert canonical_json({"n": 2**64}) == '{"n":18446744073709551616}'
    assert canonical_json({1: "a", 0: "b"}) == '{"0":"b","1":"a"}'


def random_floats() -> list[float]:
    import random
    import struct

    rng = random.Random(5)
    out = []
    while len(out) < 20000:
        f = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        if math.isfinite(f):
            out.append(f)
    return out + [1.234 * 10.0**e for e in range(-30, 30)]


def test_random_floats_are_spelled_as_json_spells_them() -> None:
    floats = random_floats()
    assert canonical_json(floats) == _json_spelling(floats)
    for f in floats[:3000]:
        assert canonical_json([f]) == _json_spelling([f]), f


def states(game: Game[Any], seed: int) -> list[Any]:
    options = game.normalize_options(game.sim_options(driver_rng(seed), None, {}))
    state = game.initial_state(seed_from_int(seed), options)
    out = [state]
    for seat, action in play_random(game, seed, options, max_actions=150).actions:
        state = game.apply(state, seat, action).state
        out.append(state)
    return out


def test_every_games_states_are_spelled_as_json_spells_them() -> None:
    """Every state of seeded games, as ``encode_state`` gives it and as the hash spells it (a
    ``SharedEncoding`` game's data without copies: the same text)."""
    checked = shared = 0
    for name in ("dorasure", "dorn"):
        game = get_game(name)
        for seed in (1, 2):
            for state in states(game, seed):
                encoded = game.encode_state(state)
                assert canonical_json(encoded) == _json_spelling(encoded)
                assert canonical_json(encoded_to_spell(game, state)) == _json_spelling(encoded)
                checked += 1
                shared += isinstance(game, SharedEncoding)
    assert checked > 300 and shared > 100
