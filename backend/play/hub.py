"""Connections: one per WebSocket, each with its own send queue.

The master never awaits a socket: it puts pre-serialized text on each
connection's queue and a writer task per connection sends it.  A client too
slow to keep up (queue full) is closed with 1013 and reconnects with its last
seq, instead of slowing the table down for everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from .protocol import dumps

log = logging.getLogger("dragontable.play")

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_TRY_LATER = 1013
CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_FOUND = 4404


class Connection:
    __slots__ = ("ws", "seat", "token_hash", "name", "_queue", "_writer", "closed", "close_code")

    def __init__(self, ws: WebSocket, queue_limit: int) -> None:
        self.ws = ws
        self.seat: str | None = None
        self.token_hash: str | None = None
        self.name = "spectator"
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_limit)
        self._writer: asyncio.Task[None] | None = None
        self.closed = False
        self.close_code: int | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop())

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("closing a connection that cannot keep up")
            self.close(CLOSE_TRY_LATER)

    def close(self, code: int) -> None:
        """Close after everything already queued has been sent."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        if self._writer is None:
            asyncio.create_task(self._close_now())

    async def _close_now(self) -> None:
        with contextlib.suppress(Exception):
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.close(code=self.close_code or 1000)

    async def _write_loop(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the peer went away; the reader notices too
            self.closed = True
        await self._close_now()

    async def drain_and_stop(self) -> None:
        """Called when the socket is gone: stop the writer."""
        self.closed = True
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
