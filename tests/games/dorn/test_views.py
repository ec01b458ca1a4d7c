"""``Dorn.views`` (engine ``SharedViews``): the views of a step's audiences from one build.
Each equals the viewer's own ``view``, key order included (the JSON text of a view is what it
was); viewers who see alike hold one object (the hero seats holding the same Blessing), and
nothing a viewer may not see reaches it through a shared part."""

from __future__ import annotations

import json

from backend.engine.core import SharedViews
from backend.engine.playout import driver_rng, play_random
from backend.engine.rng import seed_from_int

from .position import GAME


def test_views_are_each_viewers_own_view_and_alike_viewers_share_one() -> None:
    assert isinstance(GAME, SharedViews)
    checked = shared = 0
    for seed in (3, 4, 5):
        options = GAME.normalize_options(GAME.sim_options(driver_rng(seed), 4, {}))
        viewers: list[str | None] = [s.seat for s in GAME.seats(options)] + [None]
        record = play_random(GAME, seed, options, max_actions=400)
        state = GAME.initial_state(seed_from_int(seed), options)
        for n in range(len(record.actions) + 1):
            if n:
                state = GAME.apply(state, *record.actions[n - 1]).state
            for reveal in (False, True):
                views = GAME.views(state, viewers, reveal=reveal)
                assert set(views) == set(viewers)
                for viewer in viewers:
                    alone = GAME.view(state, viewer, reveal=reveal)
                    assert json.dumps(views[viewer]) == json.dumps(alone)  # same keys, same order
                    secrets = GAME.secrets(state, viewer) if not reveal else set()
                    text = json.dumps(views[viewer])
                    assert not any(f'"{s}"' in text for s in secrets), viewer
                heroes = [v for v in viewers if v is not None and v in state["seats"]]
                for a in heroes:
                    for b in heroes:
                        same = reveal or views[a].get("my_blessing") == views[b].get("my_blessing")
                        assert (views[a] is views[b]) == same
                        shared += a != b and same
                assert views[None] is not views.get("keeper") or reveal
                checked += 1
    assert checked > 200 and shared > checked
