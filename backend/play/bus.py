"""Cross-worker fan-out.

Several app workers may hold connections to one table.  Every committed action
is published as ``(seq, seat, action, hash)``; each worker that holds the table
applies the same action to its replica (games are pure, so replicas agree and
the hash proves it) and sends its own connections their views.  Delivery is
at-most-once: a worker that sees a gap in seq reads the missing actions from the
database, where they were committed before being published.

``MemoryBus`` serves one process (the default); ``RedisBus`` uses Redis pub/sub.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("dragontable.bus")

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
PREFIX = "dragontable:table:"


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
                asyncio.create_task(bus.handler(table_id, json.loads(json.dumps(message))))


class RedisBus:
    def __init__(self, url: str) -> None:
        from redis import asyncio as aioredis

        self.redis = aioredis.Redis.from_url(url)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.handler: Handler | None = None
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        await self.redis.ping()
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def has_peers(self) -> bool:
        return True  # other workers may come and go at any moment

    async def subscribe(self, table_id: str) -> None:
        await self.pubsub.subscribe(PREFIX + table_id)
        self._subscribed.set()

    async def unsubscribe(self, table_id: str) -> None:
        await self.pubsub.unsubscribe(PREFIX + table_id)

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        try:
            await self.redis.publish(PREFIX + table_id, json.dumps(message, separators=(",", ":")))
        except Exception:  # at-most-once: peers resync from the database on the next gap
            log.exception("bus publish failed")

    async def _listen(self) -> None:
        await self._subscribed.wait()
        while True:
            try:
                msg = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bus receive failed")
                await asyncio.sleep(0.5)
                continue
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
