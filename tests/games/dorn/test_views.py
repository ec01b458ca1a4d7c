"""``Dorn.views`` (engine ``SharedViews``): the views of a step's audiences from one build.
Each is the viewer's own ``view``, key order included, with none of its secrets (the shared
check in tests/conformance.py); viewers who see alike hold one object (the hero seats holding
the same Blessing)."""

from __future__ import annotations

from backend.engine.core import SharedViews
from backend.engine.playout import driver_rng

from ...conformance import shared_views_of_random_games
from .position import GAME


def test_views_are_each_viewers_own_view_and_alike_viewers_share_one() -> None:
    assert isinstance(GAME, SharedViews)
    checked = shared = 0
    steps = shared_views_of_random_games(GAME, (3, 4, 5), lambda seed: GAME.sim_options(driver_rng(seed), 4, {}), 400)
    for state, reveal, viewers, views in steps:
        heroes = [v for v in viewers if v is not None and v in state["seats"]]
        for a in heroes:
            for b in heroes:
                same = reveal or views[a].get("my_blessing") == views[b].get("my_blessing")
                assert (views[a] is views[b]) == same
                shared += a != b and same
        assert reveal or views[None] is not views["keeper"]
        checked += 1
    assert checked > 200 and shared > checked
