"""``WS /ws/tables/{id}``: hello, then act / chat / ping (docs/protocol.md).

The app serves it ahead of its router (``backend/app.py``, ``TABLE_PATH``): an idle socket
then holds none of FastAPI's routing, dependency and exception-middleware frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from urllib.parse import urlsplit

from fastapi import WebSocket

from backend.config import Settings
from backend.store.repository import NotFound
from backend.textcheck import TABLE_ID

from . import protocol, sidewatch
from .botauth import is_stand_in
from .hub import (
    CLOSE_BAD_TOKEN,
    CLOSE_NOT_FOUND,
    CLOSE_POLICY,
    CLOSE_SERVER_ERROR,
    CLOSE_TOO_BIG,
    CLOSE_TRY_LATER,
    Connection,
)
from .master import TableRuntime
from .record import TableBroken
from .tables import Tables

log = logging.getLogger("dragontable.play")
# The table socket's path; the id is checked against TABLE_ID inside.
TABLE_PATH = re.compile(r"/ws/tables/([^/]+)")


class RateLimiter:
    """Token bucket: ``rate`` messages a second on average, bursts up to ``burst``."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def origin_allowed(ws: WebSocket, settings: Settings) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:  # not a browser: browsers always send Origin on WebSockets
        return True
    if "*" in settings.allowed_origins or origin in settings.allowed_origins:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


async def table_socket(ws: WebSocket, table_id: str) -> None:
    settings: Settings = ws.app.state.settings
    tables: Tables = ws.app.state.tables
    if not origin_allowed(ws, settings):
        await ws.close(code=CLOSE_POLICY)
        return
    await ws.accept()
    conn = Connection(ws, settings.send_queue_limit)
    runtime: TableRuntime | None = None
    try:
        try:
            if not TABLE_ID.fullmatch(table_id):  # (PostgreSQL refuses a NUL in a query)
                raise NotFound(table_id)
            runtime = await tables.get(table_id)
        except NotFound:
            conn.send(protocol.error("not_found", "There is no such table."))
            conn.close(CLOSE_NOT_FOUND)
            return
        except TableBroken as exc:
            # Not a moment's trouble: the stored table cannot be shown right (1011, no retry).
            log.error("%s", exc, extra={"table": table_id})
            conn.send(protocol.error("unavailable", "This table cannot be opened: its record does not check."))
            conn.close(CLOSE_SERVER_ERROR)
            return
        except Exception:
            # Most often the database is away for a moment: 1013 (try again later), and the
            # client reconnects as after any drop; 1011 would say the server itself broke.
            log.exception("table %s could not be loaded", table_id)
            conn.send(protocol.error("unavailable", "This table cannot be opened right now; try again."))
            conn.close(CLOSE_TRY_LATER)
            return
        await _serve(ws, conn, runtime, settings)
    finally:
        if runtime is not None:
            await runtime.detach(conn)
        if conn.close_code is not None:
            await _finish_writer(conn)
        else:
            await conn.drain_and_stop()


async def _finish_writer(conn: Connection) -> None:
    """Let the writer send what is queued and the close frame."""
    writer = conn.writing
    if writer is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(writer), timeout=5)
    await conn.drain_and_stop()


async def _serve(ws: WebSocket, conn: Connection, runtime: TableRuntime, settings: Settings) -> None:
    limiter = RateLimiter(settings.rate_per_second, settings.rate_burst)
    hello_done = False
    deadline = time.monotonic() + settings.hello_timeout_seconds
    while not conn.closed:
        try:
            if hello_done:
                message = await ws.receive()
            else:
                message = await asyncio.wait_for(ws.receive(), timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            conn.send(protocol.error("hello_timeout", "Say hello first (send a 'hello' message)."))
            conn.close(CLOSE_POLICY)
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        raw_size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
        if raw_size > settings.max_frame_bytes:
            conn.close(CLOSE_TOO_BIG)
            return
        if not limiter.allow():
            conn.send(protocol.error("rate_limited", "Too many messages; slow down."))
            conn.close(CLOSE_POLICY)
            return
        if text is None:
            conn.send(protocol.error("malformed", "Send JSON text frames, not binary ones."))
            continue
        try:
            msg = protocol.parse_client(text)
        except protocol.BadMessage as exc:
            conn.send(protocol.error(exc.code, exc.message))
            continue
        except Exception as exc:
            # The parser may fail on shapes it does not foresee ({"type": []} raised TypeError):
            # the sender still gets a documented answer, and the connection is not dropped.
            log.warning("unreadable client message (%s: %s)", type(exc).__name__, exc)
            conn.send(protocol.error("bad_message", "That message could not be read."))
            continue
        if isinstance(msg, protocol.Ping):
            conn.send(protocol.pong())
        elif isinstance(msg, protocol.Hello):
            if hello_done:
                conn.send(protocol.error("already_hello", "You already said hello on this connection."))
                continue
            if msg.watch is not None:
                refused = sidewatch.refusal(runtime.game, runtime.record.options, msg.watch,
                                            seated=msg.seat_token is not None)  # fmt: skip
                if refused is not None:
                    conn.send(protocol.error(refused.code, refused.message))  # it may say hello again
                    continue
            if msg.seat_token is not None:
                found = runtime.seat_for_token(msg.seat_token)
                if found is None:
                    # The seat may have been taken through another worker a moment ago.
                    await runtime.lobby_changed()
                    found = runtime.seat_for_token(msg.seat_token)
                if found is None:
                    conn.send(protocol.error("bad_token", "That seat token is not valid for this table."))
                    conn.close(CLOSE_BAD_TOKEN)
                    return
                conn.seat, conn.token_hash = found
                conn.stand_in = is_stand_in(msg.seat_token)
            conn.name = runtime.player_name(conn.seat)
            conn.patches = msg.patches and settings.view_patches
            hello_done = True
            await runtime.attach(conn, msg.last_seq, msg.watch)
        elif not hello_done:
            conn.send(protocol.error("hello_first", "Say hello first (send a 'hello' message)."))
        elif isinstance(msg, protocol.Act):
            await runtime.act(conn, msg)
        elif isinstance(msg, protocol.Resync):
            await runtime.resync(conn, msg.last_seq)
        elif isinstance(msg, protocol.History):
            await runtime.history(conn, msg.before, msg.limit)
        elif isinstance(msg, protocol.Chat):
            text = msg.text.strip()
            if text:
                await runtime.chat(conn, text[: settings.chat_max_chars], msg.to)
