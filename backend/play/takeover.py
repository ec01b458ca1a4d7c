"""What a live table does when its seat clock says so (play/seatclock.py decides when): a bot
plays for a person who is away or let the clock run out, and hands the seat back the moment
they return (issue 12, point 5); the server answers for a seat whose time is up.

Separate from play/master.py because none of it is the master's pipeline: it goes through
the runtime's own ``commit`` like any action, with the runtime's lock held, and announces
itself to the table like anyone else.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from backend.engine.core import IllegalAction
from backend.store.repository import ChatRecord

from . import chat, protocol, seats
from .hub import CLOSE_HANDED_BACK
from .seatclock import auto_action_id
from .tablechat import utc

if TYPE_CHECKING:
    from .master import TableRuntime

log = logging.getLogger("dragontable.play")


async def on_timer(table: TableRuntime) -> None:
    """The clock's timer fired: the takeovers now due, then the answers for late seats."""
    async with table.lock:
        for seat in table.clock.takeovers_due(time.time()):
            take_over(table, seat)
    await answer_for_late_seats(table)


def take_over(table: TableRuntime, seat: str) -> None:
    """A bot plays ``seat`` until its person is back (called with the lock held)."""
    if not table.clock.take_over(table.record, seat, seats.bot_seats(table.record), table.live):
        return
    log.info("table %s: a %s bot plays for %s", table.id, table.record.takeover, seat,
             extra={"table": table.id, "seat": seat})  # fmt: skip
    announce(table, f"A bot is playing for {table.player_name(seat)}.")
    table.reschedule()


def hand_back(table: TableRuntime, seat: str) -> None:
    """The person is back: the bot stops at once (called with the lock held, so an answer the
    bot is still working out arrives after this and is refused: no double action)."""
    if not table.clock.hand_back(seat):
        return
    for conn in list(table.connections):
        if conn.stand_in and conn.seat == seat:
            conn.send(protocol.error("handed_back", "The seat's player is back."))
            conn.close(CLOSE_HANDED_BACK)
            table.forget(conn)
    announce(table, f"{table.player_name(seat)} is back; the bot has stopped playing for them.")


def announce(table: TableRuntime, text: str) -> None:
    """The table's own line, to everyone at once (its place among the updates tells when), and
    kept for those who arrive later."""
    at = time.time()
    table.broadcast(protocol.announcement(text, at))
    table.broadcast(protocol.table(table.table_dict()))
    line = ChatRecord(table.seq, chat.TABLE, protocol.ANNOUNCER, None, text, True, utc(at))
    table.tables.spawn(table.talk.keep_announcement(line))


async def answer_for_late_seats(table: TableRuntime) -> None:
    """The server's own answer for each seat whose time is up, committed as any action; one
    that cannot be saved is tried again after the clock's back-off."""
    async with table.lock:
        clock = table.clock
        now = time.time()
        for seat in clock.late(now):
            if not table.live or seat not in clock.to_act:
                continue
            action = clock.time_up(table.state, seat, now)
            if action is None:
                # A person who let the clock run out gets a bot from the next decision on.
                take_over(table, seat)
                action = table.game.default_action(table.state, seat)
            if action is None:
                clock.no_default.add(seat)
                continue
            try:
                transition = table.game.apply(table.state, seat, action)
            except IllegalAction:
                log.exception("table %s: default action for %s is illegal", table.id, seat)
                clock.no_default.add(seat)
                continue
            seq = table.seq
            aid = auto_action_id(seq, seat, table.action_ids)
            # A success moved the clock on (``TableRuntime._advance``); a Conflict caught up instead.
            if not await table.commit(seat, action, aid, transition, conn=None, auto=True) and table.seq == seq:
                clock.answer_failed(table.id, seat, table.seq)
                break
        table.reschedule()
