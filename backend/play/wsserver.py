"""uvicorn's WebSocket protocol, less what it keeps that an idle socket does not need.

uvicorn's sans-I/O implementation (``websockets_sansio_impl``) holds, on every connection for
its whole life, the upgrade request and its 101 response with their parsed headers (≈ 4.4 KiB),
an ``asyncio.Queue`` for the app's ``receive`` (three deques and an Event, ≈ 3.3 KiB) and an
``asyncio.Event`` for flow control (≈ 0.8 KiB): a fifth of the ≈ 21 KiB of Python objects an idle
table socket cost (tracemalloc, issue 15 point 4; bench/README.md "Capacity").
``LeanWebSocketProtocol`` lets the handshake go once the accept is sent and gives the protocol
an inbox and a gate with just the methods it calls. ``ws_protocol`` maps the ``ws_impl``
setting to the class uvicorn is given. The class leans on uvicorn's attribute names (pinned in
pyproject.toml); tests/play/test_idle_socket.py fails if they change.

It also writes one text frame to many sockets (``write_text``): a server's frames are not
masked, so without an extension that rewrites them (compression is off by default) the bytes
for a text are the same on every socket, and are made once for all who get it (a step's 2000
spectators, issue 15 point 5) instead of through the ASGI send, Starlette's and uvicorn's, and
the frame's encoding for each of them. The app finds the protocol in the scope (``SCOPE_KEY``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import Protocol, State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

LEAN = "backend.play.wsserver:LeanWebSocketProtocol"
SCOPE_KEY = "dragontable.socket"  # the scope's LeanWebSocketProtocol, while it is connected


def _frame(text: str) -> bytes:
    """``text`` as a server's text frame: unmasked, so the same bytes for every socket.

    The header is spelled here (RFC 6455 §5.2: FIN and the text opcode, then the payload's
    length in 7, 7+16 or 7+64 bits) rather than by ``websockets``' ``Frame.serialize``, which
    checks and packs a general frame: 3.3 µs against 0.7 a frame on this machine, for the
    four to six distinct frames of every step (tests/play/test_idle_socket.py compares the
    bytes with ``Frame.serialize``'s)."""
    data = text.encode()
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


class _LastFrame:
    """The frame of the text last written: a step sends one text to a run of sockets."""

    __slots__ = ("text", "frame")

    def __init__(self) -> None:
        self.text: str | None = None  # held, so that no other text can have its identity
        self.frame = b""

    def of(self, text: str) -> bytes:
        if text is not self.text:
            self.text, self.frame = text, _frame(text)
        return self.frame


_last = _LastFrame()


class _Waiters:
    """The futures of whoever waits, made only when someone does."""

    __slots__ = ("_waiters",)

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] | None = None

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    async def _sleep(self) -> None:
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:  # woken, or cancelled: either way this future is done with
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)


class Inbox(_Waiters):
    """What the protocol uses of ``asyncio.Queue``: ``put_nowait``, ``get`` (the app's
    ``receive``) and ``empty``; a list."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        super().__init__()
        self._items: list[Any] = []

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        self._wake()

    def empty(self) -> bool:
        return not self._items

    async def get(self) -> Any:
        while not self._items:
            await self._sleep()
        return self._items.pop(0)


class Gate(_Waiters):
    """What the protocol uses of ``asyncio.Event``: ``set``, ``clear``, ``is_set``, ``wait``."""

    __slots__ = ("_open",)

    def __init__(self) -> None:
        super().__init__()
        self._open = False

    def is_set(self) -> bool:
        return self._open

    def set(self) -> None:
        self._open = True
        self._wake()

    def clear(self) -> None:
        self._open = False

    async def wait(self) -> bool:
        if not self._open:
            await self._sleep()
        return True


def _forget_the_request(conn: ServerProtocol) -> None:
    """Let the upgrade request go from ``websockets``' parser, which holds it for the socket's
    life: ``ServerProtocol.parse`` reads the request into a local, then parses every frame after
    it from inside the same generator.  A request is ≈ 12 objects the cyclic collector tracks
    (its headers: a dict, a list and a list per header), a tenth of what a connection keeps,
    scanned by every young pass while the socket is new (bench/README.md, issue 15 point 2,
    tenth session).

    The frame parser (``Protocol.parse``) is started afresh in its place only while the old one
    waits between frames for a byte that has not come (``StreamReader.at_eof``): then it holds
    nothing read.  One that is in the middle of a frame the client sent before it had the
    accept is kept."""
    waiting: Any = conn.parser  # a generator (typed as the Generator protocol, which has no gi_*)
    while waiting.gi_yieldfrom is not None:
        waiting = waiting.gi_yieldfrom
    if conn.state is not State.OPEN or waiting.gi_code is not _BETWEEN_FRAMES:
        return
    old, conn.parser = conn.parser, Protocol.parse(conn)
    next(conn.parser)  # to its first wait for data, as ``Protocol.__init__`` starts it
    old.close()


_BETWEEN_FRAMES = StreamReader.at_eof.__code__


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Gate()  # type: ignore[assignment]
        self.writable.set()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # Read only by the accept branch of send(), which has run. (A rejected handshake
            # never gets here: it answers and closes instead.)
            self.request = None  # type: ignore[assignment]
            self.response = None  # type: ignore[assignment]
            _forget_the_request(self.conn)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # the upgrade is going on: the app is called with this scope
            self.scope[SCOPE_KEY] = self  # type: ignore[literal-required]

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope.pop(SCOPE_KEY, None)  # the scope outlives the socket in the app's task

    def write_text(self, text: str, before: bytes = b"") -> bool:
        """Write ``text`` as the frame made once for the run of sockets it goes to (after the
        frame ``before``, in the same write), when this socket may take frames made here as they
        are: open, accepted, its close not sent, not paused (the writer's send waits for the
        buffer then), and with no extension. Else False: send it the ASGI way."""
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.conn.extensions
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(before + _last.of(text) if before else _last.of(text))
        return True

    def write_texts(self, first: str, then: str) -> bool:
        """``first``'s frame and ``then``'s in one write (an action's ack and its actor's update:
        one system call and one segment instead of two), as ``write_text`` would write them."""
        return self.write_text(then, _frame(first))


def ws_protocol(ws_impl: str) -> str:
    """The uvicorn ``ws`` option for the setting: the lean class for the sans-I/O protocol
    (what ``auto`` picks when ``websockets`` is installed, as it is here), else as given."""
    return LEAN if ws_impl in ("auto", "websockets-sansio") else ws_impl
