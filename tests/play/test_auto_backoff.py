"""The server's own timeout answer that cannot be saved is retried with a growing pause and
then given up on, never in a loop (issue 9: "every retry loop in the server is bounded").

Before, a failed commit re-armed the timer at the same, already past, deadline: the answer
was retried at once, forever, and burnt a core.  The runtime is given a host (the
``TableHost`` protocol) whose writer always fails.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

from backend.config import Settings
from backend.play.master import TableRuntime
from backend.play.metrics import Metrics
from backend.store.repository import ActionWrite, PlayLoad, SeatRecord, TableRecord
from tests.play.toygame import GAME


class FailingWriter:
    def __init__(self) -> None:
        self.tries: list[float] = []

    async def commit(self, item: ActionWrite) -> None:
        self.tries.append(time.monotonic())
        raise ConnectionError("the database is gone")


class Host:
    """Everything a runtime asks of its worker, with a writer that never succeeds."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.repo: Any = None
        self.writer: Any = FailingWriter()
        self.metrics = Metrics()
        self.tasks: set[asyncio.Task[Any]] = set()

    async def build(self, table_id: str) -> Any:
        raise AssertionError("not reloaded in this test")

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        pass

    def replicated(self) -> bool:
        return False

    def evict_if_idle(self, table_id: str) -> None:
        pass

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


class Watcher:
    """A spectator's connection: clocks only run while someone is at the table."""

    seat = None
    token_hash = None
    name = "spectator"
    closed = False
    patches = False  # takes whole views (play/hub.py)

    def send(self, message: dict[str, Any]) -> None:
        pass

    def send_text(self, text: str) -> None:
        pass


async def test_a_timeout_answer_that_cannot_be_saved_backs_off_then_stops() -> None:
    settings = Settings(database_url="sqlite://", auto_retry_limit=4, auto_retry_max_seconds=30)
    options = GAME.normalize_options({"players": 2})
    seed = bytes(32)
    record = TableRecord(id="t1", game="toy", rules_version=1, title="t", options=options, visibility="public",
                         status="live", host_player_id="h", host_name="H", seq=0, turn_clock_seconds=None,
                         prompt_timeout_seconds=0.05, commitment="c", outcome=None, initial_hash=None,
                         created_at=datetime.now(UTC), seats=[SeatRecord("p1", "P1", "a", "A", "x"),
                                                              SeatRecord("p2", "P2", "b", "B", "y")],
                         seed_hex=seed.hex())  # fmt: skip
    load = PlayLoad(record, None, None, None, [], {})
    host = Host(settings)
    runtime = TableRuntime(host, GAME, load, GAME.initial_state(seed, options), 0)
    await runtime.attach(Watcher(), None)  # type: ignore[arg-type]
    tries = host.writer.tries
    # p1 is away and owes the first turn: the server answers for it after 0.05 s, and fails.
    await asyncio.sleep(4.5)
    assert len(tries) == 4, tries  # one answer and three retries, then it gives up
    pauses = [b - a for a, b in zip(tries, tries[1:], strict=False)]
    assert all(later > earlier for earlier, later in zip(pauses, pauses[1:], strict=False)), pauses
    assert pauses[0] >= 0.4  # never at once: 0.5 s, 1 s, 2 s
    await asyncio.sleep(1.0)
    assert len(tries) == 4, "the answer was tried again after the server gave up"
    assert runtime.seq == 0 and "p1" in runtime._no_default
    runtime.close()
