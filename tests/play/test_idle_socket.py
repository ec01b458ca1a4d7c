"""What an idle table socket holds (issue 15 point 4: ≤ 20 KiB each, bench/capacity.py).

The memory itself is measured by the benchmark; these tests pin the three things that took it
there, on a real uvicorn server in this process (so its objects can be looked at):

* the table socket is served ahead of FastAPI's router (``DragontableApp``): no routing,
  dependency or exception-middleware frames are held while it waits;
* uvicorn's protocol lets the handshake's request and response go once the accept is sent, and
  waits on a lighter inbox and gate than asyncio's Queue and Event (``play/wsserver.py``);
* a frame is handed to an open socket at once, and a writer task runs only while a send has to
  wait (``play/hub.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
from pathlib import Path
from typing import Any

import pytest
import websockets
from starlette.websockets import WebSocketState
from uvicorn.importer import import_from_string
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import Protocol, State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from backend.play.hub import Connection
from backend.play.wsserver import (
    LEAN,
    SCOPE_KEY,
    Gate,
    Inbox,
    LeanWebSocketProtocol,
    _forget_the_request,
    _LastFrame,
    ws_protocol,
)

from .inprocess import dorasure_table, serving, wait_for


def test_the_setting_maps_to_the_lean_protocol_only_for_sans_io() -> None:
    assert ws_protocol("auto") == LEAN and ws_protocol("websockets-sansio") == LEAN
    assert ws_protocol("wsproto") == "wsproto" and ws_protocol("websockets") == "websockets"
    assert import_from_string(LEAN) is LeanWebSocketProtocol


def _frames_of(task: asyncio.Task[Any]) -> list[str]:
    """The qualified names of the coroutines a waiting task is suspended in, outermost first."""
    names = []
    coro: Any = task.get_coro()
    while coro is not None:
        names.append(getattr(coro, "__qualname__", type(coro).__name__))
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return names


async def test_an_idle_table_socket_holds_no_router_handshake_or_writer(tmp_path: Path) -> None:
    async with serving(tmp_path) as (app, server, port):
        table_id, _ = await dorasure_table(port, ["ninja", "hunter"])
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello", "seat_token": None}))
            welcome = json.loads(await ws.recv())
            assert welcome["type"] == "welcome"
            # The attach ends with the chat's history: from then on the socket is idle.
            while (frame := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "chat_history":
                assert frame["type"] == "presence", frame
            # The server's side of this socket, found through the table it watches.
            runtime = await app.state.tables.get(table_id)
            (conn,) = runtime.connections
            # Everything is sent: no writer task is left waiting for the next frame.
            await wait_for(lambda: conn.writing is None)
            (protocol,) = server.server_state.connections
            assert isinstance(protocol, LeanWebSocketProtocol)
            assert protocol.request is None and protocol.response is None
            # websockets' parser too: the frames are read by a frame parser of its own, not by
            # the one that read the request into a local and kept it.
            assert protocol.conn.parser.gi_code is Protocol.parse.__code__
            assert not any(isinstance(o, Request) for o in gc.get_referents(protocol.conn.parser.gi_frame))
            assert isinstance(protocol.queue, Inbox) and isinstance(protocol.writable, Gate)
            # The socket's task waits for the next message in our handler, which the app calls
            # itself: no router, route or exception middleware in between.
            (task,) = [t for t in server.server_state.tasks if not t.done()]
            await wait_for(lambda: "WebSocket.receive" in _frames_of(task))
            frames = _frames_of(task)
            assert frames[:5] == [
                "WebSocketsSansIOProtocol.run_asgi",
                "ProxyHeadersMiddleware.__call__",
                "DragontableApp.__call__",
                "table_socket",
                "_serve",
            ], frames
            # And it still plays: a ping is answered.
            await ws.send(json.dumps({"type": "ping"}))
            while (frame := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "pong":
                assert frame["type"] == "presence", frame


@pytest.mark.parametrize("early", [0, 1, 2, 3, 6, 20])
def test_the_parser_is_replaced_only_between_frames_and_no_byte_is_lost(early: int) -> None:
    """A client may send a part of its first frame before it has the accept (in a segment of its
    own: uvicorn drops what shares the request's): a parser in the middle of a frame (after 1, 2,
    3, 6 or 20 of its bytes: in its header, between the header and the mask, in the mask, in the
    payload) is kept, and one between frames is replaced; either way the frame reads whole."""
    server = ServerProtocol()
    server.receive_data(
        b"GET /ws/tables/t HTTP/1.1\r\nHost: example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    (request,) = server.events_received()
    server.send_response(server.accept(request))
    assert server.state is State.OPEN
    hello = json.dumps({"type": "hello", "seat_token": None}).encode()
    mask = os.urandom(4)
    frame = bytes((0x81, 0x80 | len(hello))) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
    server.receive_data(frame[:early])
    _forget_the_request(server)
    assert (server.parser.gi_code is Protocol.parse.__code__) == (early == 0)
    server.receive_data(frame[early:])
    (received,) = server.events_received()
    assert received.opcode is Opcode.TEXT and received.data == hello
    server.receive_data(frame)  # and the next one, from the same parser
    assert [f.data for f in server.events_received()] == [hello]


def test_a_frame_made_once_reads_back_as_its_text_whatever_its_length() -> None:
    last = _LastFrame()
    for n in (5, 125, 126, 300, 65_535, 65_536, 70_000):  # each length encoding, both sides of it
        text = "é" * (n // 2) + "x" * (n % 2)
        frame = last.of(text)
        assert last.of(text) is frame  # the same text again: the same bytes, not made again
        client = ClientProtocol(parse_uri("ws://127.0.0.1/"), state=State.OPEN, max_size=None)
        client.receive_data(frame)
        (got,) = client.events_received()
        assert got.opcode is Opcode.TEXT and got.fin and got.data.decode() == text
        # The header spelled by hand is the one websockets makes for a server's text frame.
        assert frame == Frame(Opcode.TEXT, text.encode()).serialize(mask=False)
    other = "é" * 2  # an equal text that is another object is framed again, alike
    assert last.of(other) == last.of("é" + "é")


async def test_a_text_goes_as_one_frame_made_for_all_and_the_asgi_way_when_paused(tmp_path: Path) -> None:
    async with serving(tmp_path) as (app, server, port):
        table_id, _ = await dorasure_table(port, ["ninja", "hunter"])
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello", "seat_token": None}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "chat_history":
                pass
            runtime = await app.state.tables.get(table_id)
            (conn,) = runtime.connections
            await wait_for(lambda: conn.writing is None)
            (protocol,) = server.server_state.connections
            assert conn._socket is protocol and protocol.scope[SCOPE_KEY] is protocol
            written: list[bool] = []
            write = protocol.write_text

            def spy(text: str) -> bool:
                written.append(write(text))
                return written[-1]

            protocol.write_text = spy  # type: ignore[method-assign]
            conn.send_text("a")
            assert await asyncio.wait_for(ws.recv(), 10) == "a" and written == [True]
            # Paused (the transport's buffer is full): the ASGI send waits in the writer, and
            # what comes meanwhile queues behind it, in order.
            protocol.writable.clear()
            conn.send_text("b")
            conn.send_text("c")
            assert written == [True, False] and conn.writing is not None
            protocol.writable.set()
            assert [await asyncio.wait_for(ws.recv(), 10) for _ in range(2)] == ["b", "c"]
            await wait_for(lambda: conn.writing is None)
            conn.send_text("d")
            assert await asyncio.wait_for(ws.recv(), 10) == "d" and written == [True, False, True]
            # A socket with an extension (compression, when the server turns it on) makes its own.
            protocol.conn.extensions = [object()]  # type: ignore[list-item]
            assert not write("e")
            protocol.conn.extensions = []
        # Gone: the scope no longer holds the protocol, which writes nothing more.
        await wait_for(lambda: protocol.disconnected)
        assert SCOPE_KEY not in protocol.scope and not write("e")


class _Socket:
    """What Connection needs of a Starlette WebSocket: sends that may stall."""

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}  # no uvicorn protocol: every frame goes through send_text
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.application_state = WebSocketState.CONNECTED
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code
        self.application_state = WebSocketState.DISCONNECTED


async def test_a_frame_is_sent_in_place_and_only_a_send_that_waits_gets_a_writer() -> None:
    sock = _Socket()
    conn = Connection(sock, queue_limit=3)  # type: ignore[arg-type]
    assert conn.writing is None
    conn.send_text("a")
    conn.send_text("b")
    # A socket that takes frames has each one at once: no task, no turn of the loop.
    assert sock.sent == ["a", "b"] and conn.writing is None
    # A stalled client: the send waits in a writer, and what piles up behind it counts
    # against the limit.
    sock.gate.clear()
    conn.send_text("c")
    assert conn.writing is not None and sock.sent == ["a", "b"]
    for text in ("d", "e", "f"):
        conn.send_text(text)
    assert not conn.closed
    conn.send_text("g")  # the fourth behind the stalled send: closed, 1013
    assert conn.closed and conn.close_code == 1013
    sock.gate.set()
    writer = conn.writing
    assert writer is not None
    await asyncio.wait_for(writer, 5)
    # Everything queued before the close went out, in order, then the close frame.
    assert sock.sent == ["a", "b", "c", "d", "e", "f"] and sock.closed_with == 1013
    conn.send_text("h")  # after the close: dropped
    assert sock.sent[-1] == "f"


def _stalled() -> tuple[_Socket, Connection, asyncio.Task[None]]:
    """A connection whose socket stalls on its first frame, "a", with "b" queued behind it."""
    sock = _Socket()
    conn = Connection(sock, queue_limit=10)  # type: ignore[arg-type]
    sock.gate.clear()
    conn.send_text("a")
    conn.send_text("b")
    writer = conn.writing
    assert writer is not None and sock.sent == []
    return sock, conn, writer


async def test_after_a_stall_the_writer_ends_and_frames_go_in_place_again() -> None:
    sock, conn, writer = _stalled()
    sock.gate.set()
    await asyncio.wait_for(writer, 5)
    assert sock.sent == ["a", "b"] and conn.writing is None and not conn.closed
    conn.send_text("c")
    assert sock.sent == ["a", "b", "c"] and conn.writing is None


async def test_a_socket_gone_in_the_middle_of_a_stalled_send_stops_it_cleanly() -> None:
    sock, conn, writer = _stalled()
    await asyncio.sleep(0)  # the writer waits on the stalled send
    await conn.drain_and_stop()
    assert writer.cancelled() and conn.closed
    sock.gate.set()
    await asyncio.sleep(0)
    assert sock.sent == []  # the cancelled send never wrote, and nothing after it was sent
    assert not sock.gate._waiters  # type: ignore[attr-defined]  # its wait was given up


async def test_a_close_with_nothing_pending_still_sends_the_close_frame() -> None:
    sock = _Socket()
    conn = Connection(sock, queue_limit=10)  # type: ignore[arg-type]
    conn.close(4404)
    writer = conn.writing
    assert writer is not None
    await asyncio.wait_for(writer, 5)
    assert sock.sent == [] and sock.closed_with == 4404


async def test_a_send_that_fails_closes_the_connection() -> None:
    sock = _Socket()

    async def broken(text: str) -> None:
        raise RuntimeError("the peer went away")

    sock.send_text = broken  # type: ignore[method-assign]
    conn = Connection(sock, queue_limit=10)  # type: ignore[arg-type]
    conn.send_text("a")
    writer = conn.writing
    assert writer is not None
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer, 5)
    assert conn.closed and sock.closed_with == 1000


async def test_the_inbox_hands_out_in_order_and_survives_a_cancelled_get() -> None:
    inbox = Inbox()
    assert inbox.empty()
    inbox.put_nowait(1)
    inbox.put_nowait(2)
    assert not inbox.empty()
    assert [await inbox.get(), await inbox.get()] == [1, 2] and inbox.empty()
    # A waiting get is woken by the next put.
    getter = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    assert not getter.done()
    inbox.put_nowait("x")
    assert await asyncio.wait_for(getter, 5) == "x"
    # A cancelled get loses nothing: the item waits for the next one.
    cancelled = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    cancelled.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await cancelled
    inbox.put_nowait("y")
    assert await asyncio.wait_for(inbox.get(), 5) == "y" and inbox.empty()


async def test_the_gate_opens_for_every_waiter_and_closes_again() -> None:
    gate = Gate()
    assert not gate.is_set()
    waiters = [asyncio.create_task(gate.wait()) for _ in range(3)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters)
    gate.set()
    assert await asyncio.wait_for(asyncio.gather(*waiters), 5) == [True, True, True]
    assert gate.is_set() and await gate.wait()  # open: no wait at all
    gate.clear()
    late = asyncio.create_task(gate.wait())
    await asyncio.sleep(0.01)
    assert not late.done() and not gate.is_set()
    gate.set()
    assert await asyncio.wait_for(late, 5)
