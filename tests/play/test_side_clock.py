"""A game's own turn clock (engine/core.py ``TurnClock``; Dorn's Real Day and Night, content
6.5): the runtime counts the side's T and, when it is spent, sends that side's seats the game's
``time_up`` (not the default action, and no bot takes the seat over).  The runtime is given a
host whose writer keeps what it is asked to save; T is cut short so the test takes a second."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from backend.config import Settings
from backend.engine.registry import get_game
from backend.play.master import TableRuntime
from backend.store.repository import ActionWrite, PlayLoad, SeatRecord, TableRecord

from .test_auto_backoff import Host, Watcher

DORN = get_game("dorn")


class KeepingWriter:
    def __init__(self) -> None:
        self.items: list[ActionWrite] = []

    async def commit(self, item: ActionWrite) -> None:
        self.items.append(item)


async def test_the_keepers_spent_turn_clock_sends_time_up() -> None:
    settings = Settings(database_url="sqlite://")
    options = DORN.normalize_options({"real_day_and_night": True, "turn_clock": 120})
    seed = bytes(32)
    record = TableRecord(id="t1", game="dorn", rules_version=1, title="t", options=options, visibility="public",
                         status="live", host_player_id="h", host_name="H", seq=0, turn_clock_seconds=None,
                         prompt_timeout_seconds=600, commitment="c", outcome=None, initial_hash=None,
                         created_at=datetime.now(UTC), seats=[SeatRecord("keeper", "Keeper", "a", "A", "x"),
                                                              SeatRecord("heroes_1", "Heroes", "b", "B", "y")],
                         seed_hex=seed.hex())  # fmt: skip
    host = Host(settings)
    host.writer = KeepingWriter()
    runtime = TableRuntime(
        host, DORN, PlayLoad(record, None, None, None, [], {}), DORN.initial_state(seed, options), 0
    )
    assert runtime.side_clock.turn == "1:keeper" and runtime.side_clock.left == 120.0
    runtime.side_clock.left = 0.2  # T, cut short
    await runtime.attach(Watcher(), None)  # type: ignore[arg-type]
    await asyncio.sleep(1.0)
    saved: list[ActionWrite] = host.writer.items
    assert [(i.seat, i.action, i.by_timeout) for i in saved[:1]] == [("keeper", {"type": "time_up"}, True)]
    assert runtime.state["phase"] == "H1" and runtime.side_clock.turn == "1:heroes"
    assert runtime.side_clock.left == 120.0 and "keeper" not in runtime.stand_ins
    runtime.close()


def test_a_game_without_a_turn_clock_has_none() -> None:
    runtime_clock: Any = getattr(get_game("dorasure"), "turn_clock", None)
    assert runtime_clock is None
