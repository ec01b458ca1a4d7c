"""Cross-worker fan-out.

Several app workers may hold connections to one table.  Every committed action
is published as ``(seq, seat, action, hash)``; each worker that holds the table
applies the same action to its replica (games are pure, so replicas agree and
the hash proves it) and sends its own connections their views.  Delivery is
at-most-once: a worker that sees a gap in seq reads the missing actions from the
database, where they were committed before being published.

When Redis itself goes away, every message in between is lost, and a replica may then
wait for an action it will never hear of (two workers can each show a turn that belongs to a
seat on the other).  So while the bus is down a worker reads each table it holds from the
database every second, and once Redis is back it reads them once more and asks its peers
who is connected.

``MemoryBus`` serves one process (the default); ``RedisBus`` uses Redis pub/sub.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

log = logging.getLogger("dragontable.bus")

Handler = Callable[[str, dict[str, Any]], Coroutine[Any, Any, None]]
PREFIX = "dragontable:table:"
# The bus's own notice that messages may have been lost: the replica reads what it missed
# from the database, where every committed action is (Tables.on_bus, "resync").
ORIGIN = "bus:resync"
GAP_NOTICE: dict[str, Any] = {"kind": "resync", "origin": ORIGIN}
POLL_SECONDS = 1.0


class Bus(Protocol):
    async def start(self, handler: Handler) -> None: ...
    async def stop(self) -> None: ...
    async def subscribe(self, table_id: str) -> None: ...
    async def unsubscribe(self, table_id: str) -> None: ...
    async def publish(self, table_id: str, message: dict[str, Any]) -> None: ...
    def has_peers(self) -> bool:
        """Whether another worker may hold a replica of this worker's tables."""
        ...


class MemoryBus:
    """In-process: delivers to the other buses of the same ``group`` in this process.

    With one app per process (the default deployment) it delivers nothing.
    """

    _groups: dict[str, list[MemoryBus]] = {}

    def __init__(self, group: str = "default") -> None:
        self.group = group
        self.handler: Handler | None = None
        self.tables: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()  # held: asyncio keeps only weak references

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        self._groups.setdefault(self.group, []).append(self)

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self._groups.get(self.group, []).remove(self)

    async def subscribe(self, table_id: str) -> None:
        self.tables.add(table_id)

    def has_peers(self) -> bool:
        return len(self._groups.get(self.group, ())) > 1

    async def unsubscribe(self, table_id: str) -> None:
        self.tables.discard(table_id)

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        for bus in self._groups.get(self.group, []):
            if bus is not self and table_id in bus.tables and bus.handler is not None:
                task = asyncio.create_task(bus.handler(table_id, json.loads(json.dumps(message))))
                bus._tasks.add(task)
                task.add_done_callback(bus._tasks.discard)


class RedisBus:
    def __init__(self, url: str) -> None:
        from redis import asyncio as aioredis

        self.redis = aioredis.Redis.from_url(url)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.handler: Handler | None = None
        self._task: asyncio.Task[None] | None = None
        self._poller: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self._watched: Any = None  # the pub/sub connection whose reconnects we hear of
        self._resync_due = False
        self._down = False

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        await self.redis.ping()
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        for task in (self._task, self._poller):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            # Through Any: redis-py annotates PubSub.aclose only from release 8 on.
            pubsub: Any = self.pubsub
            await pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def has_peers(self) -> bool:
        return True  # other workers may come and go at any moment

    async def subscribe(self, table_id: str) -> None:
        await self.pubsub.subscribe(PREFIX + table_id)
        connection: Any = self.pubsub.connection  # typed None by redis-py until it connects
        if connection is not None and connection is not self._watched:
            # redis-py reconnects and subscribes again by itself, retrying within a call, so an
            # outage may never surface as an error here: its connect callback is what tells.
            connection.register_connect_callback(self._reconnected)
            self._watched = connection
        self._subscribed.set()

    async def unsubscribe(self, table_id: str) -> None:
        await self.pubsub.unsubscribe(PREFIX + table_id)

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        try:
            await self.redis.publish(PREFIX + table_id, json.dumps(message, separators=(",", ":")))
        except Exception as exc:  # at-most-once: peers resync from the database on the next gap
            log.warning("bus publish failed: %s", exc)

    async def _reconnected(self, _connection: Any) -> None:
        """redis-py made the pub/sub connection again (and subscribed again): what was said
        meanwhile is lost, so the tables are read once more (by the listener, in order)."""
        self._resync_due = True

    def _tables(self) -> list[str]:
        names = (c.decode() if isinstance(c, bytes) else c for c in list(self.pubsub.channels))
        return [n.removeprefix(PREFIX) for n in names if n.startswith(PREFIX)]

    async def _fill_gaps(self) -> None:
        """Every table held reads what it missed from the database."""
        for table_id in self._tables():
            if self.handler is not None:
                try:
                    await self.handler(table_id, dict(GAP_NOTICE))
                except Exception:
                    log.exception("table %s: catching up after a bus outage failed", table_id)

    async def _resync(self) -> None:
        self._resync_due = False
        tables = self._tables()
        log.warning("bus back: reading %d tables from the database", len(tables))
        await self._fill_gaps()
        for table_id in tables:
            # Everyone (this worker too) answers with who it has connected: presence changes
            # made during the outage were lost with the rest.
            await self.publish(table_id, {"kind": "presence_query", "origin": ORIGIN})

    async def _poll_while_down(self) -> None:
        while self._down:
            await self._fill_gaps()
            await asyncio.sleep(POLL_SECONDS)

    async def _listen(self) -> None:
        await self._subscribed.wait()
        while True:
            try:
                msg = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self._down:
                    log.warning("bus lost (%s); reading the database until it is back", exc)
                    self._down = True
                    self._poller = asyncio.create_task(self._poll_while_down())
                await asyncio.sleep(0.5)
                continue
            if self._down:
                self._down = False
                self._resync_due = True
            if self._resync_due:
                await self._resync()
            if msg is None or msg.get("type") != "message" or self.handler is None:
                continue
            channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
            try:
                data = json.loads(msg["data"])
            except (TypeError, ValueError):
                continue
            # Handled in order: a table's actions must reach its replica in seq order.
            try:
                await self.handler(channel.removeprefix(PREFIX), data)
            except Exception:
                log.exception("bus handler failed")


def make_bus(redis_url: str | None) -> Bus:
    return RedisBus(redis_url) if redis_url else MemoryBus()
