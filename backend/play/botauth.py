"""How the bot runner proves it may play a seat, without holding anyone's seat token.

A bot seat's token is never shown to anyone (the lobby issues it and drops it), and a person's
token must never leave their browser, yet the runner has to say hello on both kinds of seat.
Server and runner share one secret, ``Settings.bot_key``; the runner's token for a seat is
``HMAC(bot_key, table:seat)``.  The table accepts it only for a seat a bot holds, or a person's
seat while that person's takeover is on (play/master.py), so a leaked one is worth nothing
once the person is back.
"""

from __future__ import annotations

import hashlib
import hmac

from backend.store.repository import constant_time_equal

PREFIX = "bot."  # stand-in tokens never look like seat tokens (those are URL-safe base64)


def stand_in_token(key: str, table_id: str, seat: str) -> str:
    mac = hmac.new(key.encode(), f"{table_id}\x00{seat}".encode(), hashlib.sha256).hexdigest()
    return PREFIX + mac


def is_stand_in(token: str) -> bool:
    return token.startswith(PREFIX)


def stand_in_seat(key: str | None, table_id: str, seats: list[str], token: str) -> str | None:
    """The seat ``token`` was minted for, checked in constant time against every seat."""
    if key is None or not is_stand_in(token):
        return None
    found = None
    for seat in seats:
        if constant_time_equal(stand_in_token(key, table_id, seat), token):
            found = seat
    return found


def runner_key_matches(key: str | None, authorization: str | None) -> bool:
    """``Authorization: Bearer <bot_key>``, as the runner sends it to list its work."""
    scheme, _, sent = (authorization or "").partition(" ")
    return key is not None and scheme.lower() == "bearer" and constant_time_equal(sent.strip(), key)
