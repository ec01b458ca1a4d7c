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
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

LEAN = "backend.play.wsserver:LeanWebSocketProtocol"


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


def ws_protocol(ws_impl: str) -> str:
    """The uvicorn ``ws`` option for the setting: the lean class for the sans-I/O protocol
    (what ``auto`` picks when ``websockets`` is installed, as it is here), else as given."""
    return LEAN if ws_impl in ("auto", "websockets-sansio") else ws_impl
