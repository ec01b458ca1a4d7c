"""One bot seat played over the public protocol (docs/protocol.md), like any other client.

The client says ``hello`` with its token, keeps what its seat was sent (the view, the legal
list, and every update's events from seq 0 on, read back with ``history`` when it arrives
late), and when its seat may act it asks its bot (backend/bots) in a worker thread, so that
the socket keeps answering while a strong bot thinks.  The answer goes out as an ``act`` at
the seq the bot saw; if the table moved on meanwhile (an update arrived, or the server says
``stale``) the answer is dropped and the bot decides again on the new view.  It never sends
an action that was not listed to it.  A dropped connection is reopened with the last seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from backend.bots import Budget, make_bot
from backend.bots.interface import Bot
from backend.engine.registry import get_game
from backend.engine.rng import Rng, new_seed

log = logging.getLogger("dragontable.bot")

# Close codes after which reconnecting cannot help (backend/play/hub.py).
FINAL_CLOSES = {4401: "bad_token", 4404: "not_found", 4409: "handed_back"}
RECONNECT_MAX_SECONDS = 10.0


def ws_url(server: str, table_id: str) -> str:
    base = server.rstrip("/")
    scheme, _, rest = base.partition("://")
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/tables/{table_id}"


@dataclass(slots=True)
class Seen:
    """What the seat was told, and nothing else: the bot decides from this."""

    seq: int = -1
    view: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = field(default_factory=list)
    to_act: list[str] = field(default_factory=list)
    game: str = ""
    bot_seconds: float = 1.0
    # seq -> the events this seat was sent with that update (0: the setup).
    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    # Every seq below this one is in ``events`` (a long game is not rescanned on every frame).
    _held: int = 0

    def complete(self) -> bool:
        while self._held <= self.seq and self._held in self.events:
            self._held += 1
        return self._held > self.seq

    def all_events(self) -> list[dict[str, Any]]:
        return [e for k in range(self.seq + 1) for e in self.events[k]]

    def oldest_missing(self) -> int | None:
        return next((k for k in range(self.seq, -1, -1) if k not in self.events), None)


class BotClient:
    """Plays ``seat`` at ``table_id`` with a bot of ``level`` until the game ends (or the seat
    is no longer the bot's: handed back to its person, a bad token)."""

    def __init__(
        self,
        server: str,
        table_id: str,
        seat: str,
        level: str,
        token: str,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.server = server
        self.table_id = table_id
        self.seat = seat
        self.level = level
        self.token = token
        self.clock = clock
        self.seen = Seen()
        self.bot: Bot | None = None
        self.rng = Rng(new_seed())
        self.sent: dict[str, int] = {}  # action id -> the seq it was sent at, until answered
        self.deciding: asyncio.Task[None] | None = None
        self.actions_sent = 0
        self._ids = itertools.count(1)
        self._random_next = False
        self.awaiting = 0  # the seq of our last acked action, until its update is here
        self._tasks: set[asyncio.Task[None]] = set()
        self._ws: Any = None
        self._done: asyncio.Future[str] | None = None

    # -- connection ------------------------------------------------------------
    async def run(self) -> str:
        """Play to the end; returns why it stopped ("finished", "handed_back", "bad_token"...)."""
        self._done = asyncio.get_running_loop().create_future()
        pause = 0.25
        try:
            while not self._done.done():
                try:
                    await self._session()
                    pause = 0.25
                except ConnectionClosed as exc:
                    code = exc.rcvd.code if exc.rcvd is not None else None
                    if code in FINAL_CLOSES:
                        self._finish(FINAL_CLOSES[code])
                except (OSError, InvalidStatus, TimeoutError) as exc:
                    log.info("bot %s/%s: cannot reach the server (%s)", self.table_id, self.seat, exc)
                if not self._done.done():
                    await asyncio.sleep(pause)
                    pause = min(RECONNECT_MAX_SECONDS, pause * 2)
            return self._done.result()
        finally:
            if self.deciding is not None:
                self.deciding.cancel()

    def _finish(self, why: str) -> None:
        if self._done is not None and not self._done.done():
            self._done.set_result(why)

    async def _session(self) -> None:
        async with websockets.connect(ws_url(self.server, self.table_id), max_size=2**24) as ws:
            self._ws = ws
            try:
                # Resync from the last seq only when the events up to it are all here.
                last = self.seen.seq if self.seen.seq >= 0 and self.seen.complete() else None
                await self._send({"type": "hello", "seat_token": self.token, "last_seq": last})
                async for text in ws:
                    self._on_message(json.loads(text))
                    if self._done is not None and self._done.done():
                        return
            finally:
                # A decision that ends while the socket is down keeps its answer to itself: the
                # next welcome says where the table is, and the bot decides again from there.
                self._ws = None

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """A task held until it ends (asyncio keeps only weak references to tasks)."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, message: dict[str, Any]) -> None:
        if self._ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self._ws.send(json.dumps(message))

    # -- what the server says ----------------------------------------------------
    def _on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self._on_welcome(msg)
        elif kind == "update":
            self.seen.events[msg["seq"]] = list(msg.get("events") or [])
            self._take_view(msg)
        elif kind == "history":
            entries = msg.get("entries") or []
            for entry in entries:
                self.seen.events.setdefault(entry["seq"], list(entry.get("events") or []))
            if not entries or msg.get("complete"):
                # The server has no more to give (a table older than its history): play on
                # with what was seen rather than ask for ever.
                for k in range(self.seen.seq + 1):
                    self.seen.events.setdefault(k, [])
            self._ask_history()
        elif kind == "ack":
            self.sent.pop(msg.get("action_id", ""), None)
            # The update for it follows: no deciding on the view before it.
            self.awaiting = max(self.awaiting, int(msg.get("seq", 0)))
        elif kind == "rejected":
            self._on_rejected(msg)
        elif kind == "table":
            self._take_table(msg["table"])
        elif kind == "finished":
            self._finish("finished")
            return
        elif kind == "error" and msg.get("code") in ("bad_token", "handed_back", "not_found"):
            self._finish(str(msg["code"]))
            return
        self._maybe_decide()

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self._take_table(msg["table"])
        if msg.get("view") is None:
            return  # an open table: a fresh welcome comes when it starts
        for entry in msg.get("missed") or []:
            self.seen.events[entry["seq"]] = list(entry.get("events") or [])
        self.sent.clear()  # whatever was in flight is answered by the seq below
        self._take_view(msg)
        self._ask_history()

    def _take_table(self, table: dict[str, Any]) -> None:
        self.seen.game = table["game"]
        self.seen.bot_seconds = float(table.get("bot_seconds") or 1.0)
        if table.get("status") == "finished":
            self._finish("finished")

    def _take_view(self, msg: dict[str, Any]) -> None:
        self.seen.seq = msg["seq"]
        self.seen.view = msg.get("view")
        self.seen.legal = list(msg.get("legal") or [])
        self.seen.to_act = list(msg.get("to_act") or [])

    def _ask_history(self) -> None:
        """Ask for the oldest page still missing (the setup's events included: the bots'
        beliefs are built from the whole game, backend/bots/belief.py)."""
        missing = self.seen.oldest_missing()
        if missing is not None:
            self._spawn(self._send({"type": "history", "before": missing + 1}))

    def _on_rejected(self, msg: dict[str, Any]) -> None:
        sent_at = self.sent.pop(msg.get("action_id", ""), None)
        code = msg.get("code")
        if code == "handed_back":
            self._finish("handed_back")
        elif code != "stale" and sent_at == self.seen.seq:
            # The bot's answer was refused at the seq it was made for: the next decision there
            # is a uniform pick, so a disagreement with the rules never loops.
            log.warning("bot %s/%s: %s refused (%s); the next pick is uniform", self.table_id, self.seat,
                        code, msg.get("message"))  # fmt: skip
            self._random_next = True

    # -- deciding -----------------------------------------------------------------
    def _my_turn(self) -> bool:
        return self.seat in self.seen.to_act and bool(self.seen.legal) and self.seen.view is not None

    def _maybe_decide(self) -> None:
        busy = self.deciding is not None or self.sent or self.seen.seq < self.awaiting
        if busy or not self._my_turn() or not self.seen.complete():
            return
        # What the seat saw at this seq, taken now: the socket may bring more while the bot thinks.
        seen = self.seen
        assert seen.view is not None
        self.deciding = asyncio.ensure_future(
            self._decide(seen.seq, seen.view, list(seen.legal), seen.all_events())
        )

    async def _decide(
        self, seq: int, view: dict[str, Any], legal: list[dict[str, Any]], events: list[dict[str, Any]]
    ) -> None:
        try:
            if self._random_next:
                # After a failure, one uniform pick among the listed actions, made here: a bot
                # whose belief cannot follow the rules for a moment must not freeze the table.
                self._random_next = False
                level, action = "fallback", legal[self.rng.below(len(legal))]
            else:
                level, bot = self.level, self._bot(self.level)
                budget = Budget(self.seen.bot_seconds, self.clock)
                action = await asyncio.to_thread(bot.decide, view, self.seat, legal, events, self.rng, budget)
            if seq != self.seen.seq or self._done is None or self._done.done():
                return  # the table moved on while the bot thought: decide again on what is new
            if action not in legal:  # a bot never sends what it was not offered
                raise AssertionError(f"the {level} bot chose an unlisted action {action!r}")
            aid = f"b{int(time.time() * 1000)}-{secrets.token_hex(4)}-{next(self._ids)}"
            self.sent[aid] = seq
            self.actions_sent += 1
            await self._send({"type": "act", "seq": seq, "action_id": aid, "action": action})
        except Exception as exc:
            log.warning("bot %s/%s: the %s bot failed at seq %s (%s: %s); the next pick is uniform",
                        self.table_id, self.seat, self.level, seq, type(exc).__name__, exc)  # fmt: skip
            self._random_next = True
        finally:
            self.deciding = None
            self._maybe_decide()

    def _bot(self, level: str) -> Bot:
        if self.bot is None or self.bot.level != level:
            self.bot = make_bot(level, get_game(self.seen.game))
        return self.bot
