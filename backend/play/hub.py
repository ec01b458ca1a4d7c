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
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from .protocol import dumps

log = logging.getLogger("dragontable.play")

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_SERVER_ERROR = 1011
CLOSE_TRY_LATER = 1013
CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_HANDED_BACK = 4409  # a takeover bot's connection: its person is back (play/master.py)


class Connection:
    __slots__ = ("ws", "seat", "token_hash", "name", "_pending", "_limit", "_wake", "_writer", "closed",
                 "close_code", "stand_in", "patches", "sent")  # fmt: skip

    def __init__(self, ws: WebSocket, queue_limit: int) -> None:
        self.ws = ws
        self.seat: str | None = None
        self.token_hash: str | None = None
        self.name = "spectator"
        # The bot runner's connection, proved with a stand-in token (play/botauth.py).
        self.stand_in = False
        # Whether it takes view patches (hello's ``patches``, the server's ``view_patches``), and
        # the last ``{"v": view, "l": legal, "t": to_act}`` it was sent, which the next patch is
        # made against: the very dict built for it (a reference, shared by the connections of
        # its seat; no copy).
        self.patches = False
        self.sent: dict[str, Any] | None = None
        # A deque and one wake-up future: cheaper per frame than an asyncio.Queue.
        self._pending: deque[str | None] = deque()
        self._limit = queue_limit
        self._wake: asyncio.Future[None] | None = None
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
        if len(self._pending) >= self._limit:
            log.info("closing a connection that cannot keep up")
            self.close(CLOSE_TRY_LATER)
            return
        self._push(text)

    def _push(self, item: str | None) -> None:
        self._pending.append(item)
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    def close(self, code: int) -> None:
        """Close after everything already queued has been sent."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self._push(None)
        if self._writer is None:  # never started: the close is its only job (held, like a writer)
            self._writer = asyncio.create_task(self._close_now())

    async def _close_now(self) -> None:
        with contextlib.suppress(Exception):
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.close(code=self.close_code or 1000)

    async def _write_loop(self) -> None:
        pending = self._pending
        send = self.ws.send_text
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not pending:
                    self._wake = loop.create_future()
                    await self._wake
                    continue
                text = pending.popleft()
                if text is None:
                    break
                await send(text)
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
