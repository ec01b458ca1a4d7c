"""What a step's fan-out leaves alive for the cyclic collector (issue 15, point 2).

Every tracked object a step makes that outlives it sits in the collector's young generation
until the next pass scans it, then in the middle one: a server's young passes held the loop
for 5–40 ms each at 1,000 actions/s (bench/README.md, ninth session). So the parts a view
keeps from one step to the next are filed under keys that make few objects: one flat tuple a
sheet (not a pair for each of its items), one key a seat for its memoised legal list.

Counted, not timed: over recorded 4-hero Dorasure games at a table of 4 seats and 2 spectators
taking patches, the collector off during each step, the tracked objects made in the step and
still alive after it (``gc.get_objects(0)`` after a young pass before the step).
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from backend.engine.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.frames import Socket, recorded_games, replay_step, replayed_steps  # noqa: E402

GAME = get_game("dorasure")


def survivors_per_step(seeds: range) -> float:
    kept = steps = 0
    for table, applied in replayed_steps(GAME, recorded_games(seeds), Socket):
        gc.collect(0)  # the young generation emptied: what is in it after the step, the step made
        gc.disable()
        try:
            replay_step(table, applied)
            if applied is not None:
                steps += 1
                kept += len(gc.get_objects(0))
        finally:
            gc.enable()
    return kept / steps


def test_a_step_leaves_few_objects_for_the_collector() -> None:
    # 54 a step with a pair for every item of a sheet's key and a key a state for its legal
    # list; 34 without in pure Python, 37 compiled (mypyc).
    assert survivors_per_step(range(2)) <= 45
