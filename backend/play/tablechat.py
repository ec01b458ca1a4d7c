"""One table's chat as its runtime carries it: a line is kept before anyone reads it, then
sent to the connections here that may read it and to the other workers; each arrival gets
the newest lines it may read, and the table's own announcements are kept the same way.

An arrival's history is read from the database once for all who read alike (the same channels,
the same seats' private lines, the same side): kept as the frame sent, until a line is kept here
or heard from another worker. A crowd arriving (a reconnect storm, 2000 spectators) is one read,
not one each.

Separate from play/master.py because chat never changes the table: no seq, no state, no lock
of the master.  Who may say and read what is play/chat.py's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from backend.store.repository import ChatRecord, Repository

from . import chat, protocol
from .hub import Connection, Present

log = logging.getLogger("dragontable.play")


def utc(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def chat_message(line: ChatRecord) -> dict[str, Any]:
    """A kept line as the ``chat`` message it was sent as."""
    message = protocol.chat(line.from_name, line.from_seat, line.text, line.at.timestamp(), line.channel)
    return {**message, "system": True} if line.system else message


class TableChat:
    """The chat of table ``table_id`` among ``connections`` (the runtime's own set)."""

    def __init__(
        self,
        repo: Repository,
        table_id: str,
        connections: Present,
        seating: Callable[[], chat.Seating],
        publish: Callable[[dict[str, Any]], None],
        *,
        silent: bool = False,
    ) -> None:
        self.repo = repo
        self.table_id = table_id
        self.connections = connections
        self.seating = seating
        self.publish = publish
        # (channels, seats, side) -> the chat_history frame for connections that read so.
        self._histories: dict[tuple[tuple[str, ...], tuple[str, ...], str | None], str] = {}
        self._lines = 0  # lines kept or heard: a history read across a new line is not kept
        # True once the database was seen to hold no line of this table (most tables, when
        # their players arrive: ``silent``, read with the table): every arrival's history is then
        # empty, with no read at all.
        self._silent = silent

    async def say(self, conn: Connection, text: str, to: str | None, seq: int) -> None:
        """Keep the line, then tell every connection that may read it, here and on the bus."""
        try:
            channel = self.seating().channel_for(conn.seat, to)
        except chat.ChatRefused as exc:
            conn.send(protocol.error(exc.code, exc.message))
            return
        at = time.time()
        try:
            await self.keep(ChatRecord(seq, channel, conn.name, conn.seat, text, False, utc(at)))
        except Exception:
            log.exception("table %s: a chat line could not be kept", self.table_id, extra={"table": self.table_id})
            conn.send(protocol.error("unavailable", "The server could not keep that line; try again."))
            return
        message = protocol.chat(conn.name, conn.seat, text, at, channel)
        self.deliver(message)
        self.publish({"kind": "chat", "message": message})

    async def keep(self, line: ChatRecord) -> None:
        try:
            await asyncio.to_thread(self.repo.add_chat_line, self.table_id, line)
        finally:
            self._heard()

    def _heard(self) -> None:
        """A line was kept (or may have been) or came from another worker: histories change."""
        self._lines += 1
        self._histories.clear()
        self._silent = False

    def _read(self, key: tuple[tuple[str, ...], tuple[str, ...], str | None]) -> tuple[list[ChatRecord], bool]:
        """The lines of ``key``'s history, and whether the table is silent (in a worker thread).
        It asks first whether the table has any line at all, so that the arrivals at a silent
        table cost one question, not a read for each way of reading (each seat holds its own
        private lines)."""
        if not self.repo.has_chat_lines(self.table_id):
            return [], True
        return self.repo.chat_lines(self.table_id, list(key[0]), list(key[1]), chat.HISTORY_LINES), False

    def forget_histories(self) -> None:
        """Nobody is here: the kept frames go (the table at rest keeps little, issue 15.4)."""
        self._histories.clear()

    async def keep_announcement(self, line: ChatRecord) -> None:
        try:
            await self.keep(line)
        except Exception as exc:
            log.warning("table %s: an announcement could not be kept (%s)", self.table_id, exc)

    def deliver(self, message: dict[str, Any]) -> None:
        """A line said here or on another worker (the bus) to the connections here that may
        read it; a line from a worker that knew no channels was said to the table."""
        self._heard()
        seating = self.seating()
        channel, from_seat = message.get("channel", chat.TABLE), message.get("seat")
        text = protocol.dumps({**message, "channel": channel})
        for conn in list(self.connections):
            if seating.may_read(conn.seat, channel, from_seat):
                conn.send_text(text)

    async def send_history(self, conns: Iterable[Connection]) -> None:
        """Each connection's ``chat_history``: the newest lines it may read, one read for all
        who read alike until the next line."""
        seating = self.seating()
        for conn in conns:
            side = seating.side_of(conn.seat) if conn.seat is not None else None
            key = (tuple(sorted(seating.readable(conn.seat))), tuple(sorted(seating.held(conn.seat))), side)
            text = self._histories.get(key)
            if text is None:
                lines_before = self._lines
                try:
                    lines, silent = ([], True) if self._silent else await asyncio.to_thread(self._read, key)
                except Exception as exc:  # the live lines still come; the past waits for a reconnect
                    log.warning("table %s: cannot read the chat (%s)", self.table_id, exc)
                    return
                history = protocol.chat_history([chat_message(line) for line in lines], side)
                text = protocol.dumps(history)
                if self._lines == lines_before:  # no line came while it was read
                    self._histories[key] = text
                    self._silent = silent
            conn.send_text(text)
