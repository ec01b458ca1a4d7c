"""The live tables this worker holds, loaded on demand and dropped when idle."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any

from backend.config import Settings
from backend.engine.registry import get_game
from backend.store.repository import NotFound, PlayLoad, Repository
from backend.store.writer import CommitWriter

from .bus import Bus
from .master import TableRuntime
from .metrics import Metrics
from .record import build_state

log = logging.getLogger("dragontable.play")


class Tables:
    def __init__(
        self, settings: Settings, repo: Repository, writer: CommitWriter, bus: Bus, metrics: Metrics | None = None
    ) -> None:
        self.settings = settings
        self.repo = repo
        self.writer = writer
        self.bus = bus
        self.metrics = metrics or Metrics()
        self.worker_id = settings.worker_id or uuid.uuid4().hex[:12]
        self.runtimes: dict[str, TableRuntime] = {}
        self._loading: dict[str, asyncio.Task[TableRuntime]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._heartbeat: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.bus.start(self.on_bus)
        self._heartbeat = asyncio.create_task(self._tell_presence())

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for runtime in self.runtimes.values():
            runtime.close()
        await self.bus.stop()

    async def _tell_presence(self) -> None:
        """Every few seconds each worker repeats who it has connected to each table it holds,
        and forgets workers it has not heard from for three rounds: a killed worker's seats
        then count as away, instead of as connected for ever."""
        every = self.settings.presence_heartbeat_seconds
        while True:
            await asyncio.sleep(every)
            if not self.bus.has_peers():
                continue
            heard_after = time.monotonic() - 3 * every
            for table_id, runtime in list(self.runtimes.items()):
                self.publish(table_id, runtime.local_presence_message())
                runtime.forget_silent_workers(heard_after)

    async def build(self, table_id: str) -> tuple[PlayLoad, Any, int]:
        """The table as stored, and its state rebuilt (snapshot, then the actions after it).

        With the loop writing (SQLite: store/writer.py) a table with nothing to replay, one just
        started as every table is when its players first arrive, is read and set up on the loop:
        a few small reads and a setup, where the hop to a worker thread and back cost more
        (issue 15 point 2). Any other rebuild, up to a snapshot's worth of actions replayed,
        goes to a worker thread, as the reads do with a database across the network."""

        def work(load: PlayLoad) -> tuple[PlayLoad, Any, int]:
            game = get_game(load.table.game)
            state, seq = build_state(game, load, lambda: self.repo.actions_after(table_id, 0, load.table.seq))
            return load, state, seq

        if self.writer.inline:
            load = self.repo.load_for_play(table_id)
            if load.snapshot_state is None and not load.actions:
                return work(load)
            return await asyncio.to_thread(work, load)
        return await asyncio.to_thread(lambda: work(self.repo.load_for_play(table_id)))

    async def get(self, table_id: str) -> TableRuntime:
        """The runtime of a table (raises NotFound)."""
        runtime = self.runtimes.get(table_id)
        if runtime is not None:
            return runtime
        task = self._loading.get(table_id)
        if task is None:
            task = asyncio.create_task(self._load(table_id))
            self._loading[table_id] = task
            task.add_done_callback(lambda _t: self._loading.pop(table_id, None))
        return await asyncio.shield(task)

    async def _load(self, table_id: str) -> TableRuntime:
        load, state, seq = await self.build(table_id)
        runtime = TableRuntime(self, get_game(load.table.game), load, state, seq)
        self.runtimes[table_id] = runtime
        self.metrics.live_tables.set(len(self.runtimes))
        await self.bus.subscribe(table_id)
        # Ask the other workers who they have connected to this table.
        self.publish(table_id, {"kind": "presence_query"})
        return runtime

    def evict_if_idle(self, table_id: str) -> None:
        runtime = self.runtimes.get(table_id)
        if runtime is None or runtime.connections or runtime.lock.locked():
            return
        runtime.close()
        del self.runtimes[table_id]
        self.metrics.live_tables.set(len(self.runtimes))
        self.spawn(self.bus.unsubscribe(table_id))

    def presence_of(self, table_id: str) -> tuple[int, frozenset[str]]:
        runtime = self.runtimes.get(table_id)
        return runtime.presence() if runtime is not None else (0, frozenset())

    def stand_ins_of(self, table_id: str) -> dict[str, str]:
        runtime = self.runtimes.get(table_id)
        return dict(runtime.stand_ins) if runtime is not None else {}

    def takeovers(self) -> list[tuple[str, str, str]]:
        """(table id, seat, level) of every takeover on at the tables this worker holds."""
        return [(t, seat, level) for t, r in self.runtimes.items() for seat, level in r.stand_ins.items()]

    def replicated(self) -> bool:
        """Whether other workers may replay this worker's tables (they hear every action)."""
        return self.bus.has_peers()

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        if not self.bus.has_peers():
            return  # a lone worker: nobody to tell, and no task per action
        self.metrics.bus_messages.labels("out").inc()
        self.spawn(self.bus.publish(table_id, {**message, "origin": self.worker_id}))

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` as a task this object holds until it ends (asyncio keeps only weak refs)."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def table_changed(self, table_id: str) -> None:
        """Called by the lobby after join / leave / start."""
        runtime = self.runtimes.get(table_id)
        if runtime is not None:
            await runtime.lobby_changed()
        self.publish(table_id, {"kind": "lobby"})

    async def on_bus(self, table_id: str, msg: dict[str, Any]) -> None:
        if msg.get("origin") == self.worker_id:
            return
        self.metrics.bus_messages.labels("in").inc()
        runtime = self.runtimes.get(table_id)
        if runtime is None:
            return
        kind = msg.get("kind")
        try:
            if kind == "action":
                await runtime.remote_action(msg)
            elif kind == "resync":  # the bus may have lost messages: read the database
                await runtime.catch_up()
            elif kind == "chat":  # each worker lets through only what its connections may read
                runtime.deliver_chat(msg["message"])
            elif kind == "presence":
                runtime.remote_presence(
                    str(msg["origin"]), msg.get("spectators", 0), msg.get("connected", [])
                )
            elif kind == "presence_query":
                self.publish(table_id, runtime.local_presence_message())
            elif kind == "lobby":
                await runtime.lobby_changed()
        except NotFound:
            return
        except Exception:
            log.exception("table %s: bus message %s failed", table_id, kind)
