"""Connections: one per WebSocket, each with its own send queue.

The master never awaits a socket.  A frame for a socket with nothing pending is
handed to it at once: written to the transport as the frame made once for every
socket that gets the same text (play/wsserver.py), or else through the ASGI send,
stepped by hand, which almost always writes to the transport and returns without
suspending (no task, no trip round the event loop: issue 15 point 2).  A send
that suspends (the transport's buffer is full and the protocol waits for it to
drain) goes on in a writer task, and the frames that come meanwhile queue behind
it.  A client too slow to keep up (queue full) is closed with 1013 and reconnects
with its last seq, instead of slowing the table down for everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Generator, Iterator
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from .protocol import dumps
from .wsserver import SCOPE_KEY, LeanWebSocketProtocol

log = logging.getLogger("dragontable.play")

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_SERVER_ERROR = 1011
CLOSE_TRY_LATER = 1013
CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_HANDED_BACK = 4409  # a takeover bot's connection: its person is back (play/master.py)


class Connection:
    __slots__ = ("ws", "_socket", "seat", "token_hash", "name", "_pending", "_limit", "_writer", "closed",
                 "close_code", "stand_in", "patches", "sent", "_held")  # fmt: skip

    def __init__(self, ws: WebSocket, queue_limit: int) -> None:
        self.ws = ws
        # uvicorn's protocol, which writes a frame made once for many sockets (play/wsserver.py);
        # None under another WebSocket implementation.
        self._socket: LeanWebSocketProtocol | None = ws.scope.get(SCOPE_KEY)
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
        # The frames not yet handed to the socket (None: close after them), and the writer task
        # that sends them, which runs only while there are some: most sockets are idle most of
        # the time, and an idle one then holds no task, coroutine or future (issue 15 point 4).
        # A list, not a deque (56 bytes empty against 760): the writer takes it whole.
        self._pending: list[str | None] = []
        self._limit = queue_limit
        self._writer: asyncio.Task[None] | None = None
        self.closed = False
        self.close_code: int | None = None
        # A text kept to go out in one write with the next frame (``hold``).
        self._held: str | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        # The way of almost every frame first, in as few calls as it takes: nothing waits to be
        # written before it, so it goes to the socket now.
        if self._writer is None and self._held is None and not self.closed:
            self._send_now(text)
            return
        if self.closed:
            return
        if len(self._pending) >= self._limit:
            log.info("closing a connection that cannot keep up")
            self.close(CLOSE_TRY_LATER)
            return
        held = self._held
        if held is not None:
            self._held = None
            socket = self._socket
            if self._writer is None and socket is not None and socket.write_texts(held, text):
                return
            self._push(held)
        self._push(text)

    def hold(self, text: str) -> None:
        """Send ``text`` with the next frame, in one write (play/master.py: an action's ack goes
        with its actor's update, which the fan-out sends a moment later), or at ``release``."""
        self.release()
        self._held = text

    def release(self) -> None:
        """Send the held text now, if the frame it waited for did not come."""
        held, self._held = self._held, None
        if held is not None:
            self.send_text(held)

    def _push(self, item: str | None) -> None:
        if item is not None and self._writer is None:
            self._send_now(item)
            return
        self._pending.append(item)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())

    def _send_now(self, text: str) -> None:
        """Write the frame made for all who get this text, or step the socket's send by hand;
        only a send that has to wait gets a task."""
        socket = self._socket
        if socket is not None and socket.write_text(text):
            return
        sending = self.ws.send_text(text)
        try:
            awaited = sending.send(None)
        except StopIteration:
            return  # written
        except Exception:  # the peer went away; the reader notices too
            self.closed = True
            self._writer = asyncio.create_task(self._close_now())
            return
        self._writer = asyncio.create_task(self._write(_Resumed(sending, awaited)))

    def close(self, code: int) -> None:
        """Close after everything already queued has been sent."""
        if self.closed:
            return
        self.release()
        self.closed = True
        self.close_code = code
        self._push(None)

    async def _close_now(self) -> None:
        with contextlib.suppress(Exception):
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.close(code=self.close_code or 1000)

    async def _write(self, started: _Resumed | None = None) -> None:
        """Finish the send that had to wait (``started``), send what is pending, in order, then
        end (the next frame is sent in place again). The limit counts the frames queued behind
        the send under way: a client that cannot keep up stalls it, and those pile up."""
        send = self.ws.send_text
        try:
            if started is not None:
                await started
            while self._pending:
                batch, self._pending = self._pending, []
                for text in batch:
                    if text is None:
                        await self._close_now()
                        return
                    await send(text)
        except Exception:  # the peer went away; the reader notices too
            self.closed = True
            await self._close_now()
            return
        self._writer = None

    @property
    def writing(self) -> asyncio.Task[None] | None:
        """The writer task while frames are being sent (after a close: until the close frame)."""
        return self._writer

    async def drain_and_stop(self) -> None:
        """Called when the socket is gone: stop the writer."""
        self.closed = True
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer


class Present:
    """A table's connections, the seats' apart from the spectators' (a connection's seat never
    changes): a step's frames go to the seats first without walking the crowd, and the crowd
    is counted, not walked (issue 15 point 5: 2000 spectators cost the players nothing before
    their frames are sent)."""

    __slots__ = ("seated", "watching")

    def __init__(self) -> None:
        self.seated: set[Connection] = set()
        self.watching: set[Connection] = set()

    def _of(self, conn: Connection) -> set[Connection]:
        return self.watching if conn.seat is None else self.seated

    def add(self, conn: Connection) -> None:
        self._of(conn).add(conn)

    def discard(self, conn: Connection) -> None:
        self._of(conn).discard(conn)

    def __contains__(self, conn: object) -> bool:
        return isinstance(conn, Connection) and conn in self._of(conn)

    def __iter__(self) -> Iterator[Connection]:
        yield from self.seated
        yield from self.watching

    def __len__(self) -> int:
        return len(self.seated) + len(self.watching)


class _Resumed:
    """A send coroutine that suspended when stepped by hand (``Connection._send_now``), to be
    finished by a task: awaiting this waits on what it waits on and steps it again, until it
    returns.  What it awaited hands its result or its exception to it as a task would; a
    cancelled writer closes it (the socket is gone)."""

    __slots__ = ("_coro", "_awaited")

    def __init__(self, coro: Coroutine[Any, Any, None], awaited: Any) -> None:
        self._coro = coro
        self._awaited = awaited

    def __await__(self) -> Generator[Any, None, None]:
        coro, awaited = self._coro, self._awaited
        while True:
            try:
                if awaited is None:
                    yield None  # a bare yield (``asyncio.sleep(0)``): one turn of the loop
                else:
                    # What a task does with a future its coroutine yields: take it as waited on
                    # (its await refuses a future still marked blocking), then wait for it.
                    awaited._asyncio_future_blocking = False
                    with contextlib.suppress(Exception):
                        yield from awaited.__await__()
            except BaseException:
                coro.close()
                raise
            try:
                awaited = coro.send(None)  # a future's result or exception is read inside
            except StopIteration:
                return
