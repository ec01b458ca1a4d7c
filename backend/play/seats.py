"""Who holds each seat of a table, read from its record: the bots, the seats the bot runner
plays, the seat a token opens and the name a seat is shown by.

Separate from play/master.py because these are plain functions of the stored record (and of
the takeovers on): the runtime asks them, nothing here changes anything.
"""

from __future__ import annotations

from collections.abc import Container

from backend.store.repository import TableRecord, constant_time_equal, token_hash

from .botauth import stand_in_seat


def bot_seats(record: TableRecord) -> dict[str, str]:
    """Seats a bot holds (for the whole game), with its level."""
    return {s.seat: s.player_bot for s in record.seats if s.player_bot is not None}


def runner_seats(record: TableRecord) -> frozenset[str]:
    """Bot seats the host gave the bot runner (a bot that joined by itself has its own token)."""
    return frozenset(s.seat for s in record.seats if s.player_runner)


def seat_for_token(record: TableRecord, bot_key: str | None, stand_ins: Container[str], token: str) -> tuple[str, str] | None:
    """The seat ``token`` opens and the token's hash; None when it opens none."""
    stand_in = stand_in_seat(bot_key, record.id, [s.seat for s in record.seats], token)
    if stand_in is not None:
        # The runner may play a bot's seat, or a person's while the takeover is on.
        if stand_in in runner_seats(record) or stand_in in stand_ins:
            return stand_in, token_hash(token)
        return None
    wanted = token_hash(token)
    found = None
    for s in record.seats:  # constant time per seat, every seat checked
        if constant_time_equal(s.token_hash, wanted):
            found = (s.seat, wanted)
    return found


def player_name(record: TableRecord, seat: str | None) -> str:
    if seat is None:
        return "spectator"
    for s in record.seats:
        if s.seat == seat:
            return s.player_name or s.label
    return seat
