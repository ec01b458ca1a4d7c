"""The ring of a table's recent steps (play/backlog.py ``Ring``): each step kept as one untracked
``bytes``, read back as the very step it was, for every seat's eyes."""

from __future__ import annotations

import gc
from types import MappingProxyType
from typing import Any

import pytest

from backend.engine.core import Event
from backend.engine.playout import play_random
from backend.engine.registry import get_game
from backend.play.backlog import Applied, Ring, missed_entry

OPTIONS = {"dorasure": {"heroes": ["ninja", "hunter", "paladin", "shaman"]}}


def _steps(game_name: str, seed: int) -> tuple[list[Applied], list[str]]:
    """Every step of a seeded random game, as the master keeps them, and the game's seats."""
    game = get_game(game_name)
    options = game.normalize_options(OPTIONS.get(game_name, {}))
    steps: list[Applied] = []

    def keep(seat: str, _action: Any, events: tuple[Event, ...]) -> None:
        steps.append(Applied(len(steps) + 1, seat, f"a{len(steps)}", len(steps) % 7 == 0, tuple(events)))

    play_random(game, seed, options, on_events=keep)
    return steps, [s.seat for s in game.seats(options)]


@pytest.mark.parametrize(("game_name", "seed"), [("dorasure", 3), ("dorasure", 4), ("dorn", 5)])
def test_every_step_reads_back_as_it_was_for_every_seat(game_name: str, seed: int) -> None:
    steps, seats = _steps(game_name, seed)
    assert any(e.to is not None for a in steps for e in a.events) or game_name == "dorasure"
    ring = Ring(len(steps))
    for applied in steps:
        ring.append(applied)
    read = list(ring)
    assert len(read) == len(steps) and ring.first_seq() == 1
    for before, after in zip(steps, read, strict=True):
        assert (after.seq, after.by, after.action_id, after.auto) == (
            before.seq,
            before.by,
            before.action_id,
            before.auto,
        )
        assert type(after.auto) is bool
        assert [(e.kind, dict(e.data), e.to) for e in after.events] == [
            (e.kind, dict(e.data), e.to) for e in before.events
        ]
        for seat in [*seats, None]:
            assert missed_entry(after, seat) == missed_entry(before, seat)


def test_a_step_is_one_object_the_collector_does_not_track() -> None:
    steps, _ = _steps("dorasure", 3)
    ring = Ring(len(steps))
    for applied in steps:
        ring.append(applied)
    held = gc.get_referents(ring._steps) + gc.get_referents(ring._seqs)  # what the ring's deques hold
    assert len(held) == 2 * len(steps)
    assert all(type(s) in (bytes, int) and not gc.is_tracked(s) for s in held)


def test_the_ring_keeps_the_newest_steps_and_a_step_marshal_cannot_write_as_it_is() -> None:
    ring = Ring(3)
    assert not ring and ring.first_seq() is None and list(ring) == []
    odd = Applied(1, "h1", "a1", False, (Event("said", MappingProxyType({"what": object()})),))
    ring.append(odd)
    assert list(ring) == [odd]  # kept as it is: read back the same object
    for seq in range(2, 6):
        ring.append(
            Applied(seq, "h1", f"a{seq}", True, (Event("moved", {"to": [seq, 0.5]}, frozenset({"h1"})),))
        )
    assert len(ring) == 3 and ring.first_seq() == 3
    assert [a.seq for a in ring] == [3, 4, 5]
    assert [a.seq for a in ring.between(3, 5)] == [4, 5] and ring.between(5, 9) == []
    assert [a.seq for a in ring.between(0, 3)] == [3]
    assert next(iter(ring)).events == (Event("moved", {"to": [3, 0.5]}, frozenset({"h1"})),)
    ring.clear()
    assert not ring and ring.first_seq() is None
