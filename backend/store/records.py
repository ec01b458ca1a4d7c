"""The plain records the store hands its callers, and the refusals it raises.

Separate from the SQL (store/repository.py, store/logwriter.py) so that both the repository and
the log writer can name them without importing each other.  Callers import them from
store/repository.py, as before the split.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection


class Conflict(Exception):
    """Another writer committed this table's next seq (or this action_id) first."""


class NotFound(Exception):
    pass


class Unsavable(Exception):
    """The database refuses this one action's data (e.g. a character PostgreSQL text cannot
    hold): the action is refused, the other actions of its batch are saved."""


@dataclass(slots=True)
class PlayerRecord:
    id: str
    name: str
    bot: str | None = None  # a bot's level; None for a person


@dataclass(slots=True)
class SeatRecord:
    seat: str
    label: str
    player_id: str | None
    player_name: str | None
    token_hash: str | None
    player_bot: str | None = None  # the level when a bot holds the seat
    player_runner: bool = False  # that bot was seated by the host: the bot runner plays it


@dataclass(slots=True)
class TableRecord:
    id: str
    game: str
    rules_version: int
    title: str
    options: dict[str, Any]
    visibility: str
    status: str
    host_player_id: str
    host_name: str
    seq: int
    turn_clock_seconds: float | None
    prompt_timeout_seconds: float
    commitment: str | None
    outcome: dict[str, Any] | None
    initial_hash: str | None
    created_at: datetime
    seats: list[SeatRecord]
    # Only loaded by the play layer and the export; never serialized in a listing.
    seed_hex: str | None = field(default=None, repr=False)
    takeover: str = "steady"
    bot_seconds: float = 1.0
    # A fork's origin ({"table", "seq", "hash"}) and the original's state there (issue 14.5).
    origin: dict[str, Any] | None = None
    origin_state: str | None = field(default=None, repr=False)


@dataclass(slots=True)
class LoggedAction:
    seq: int
    seat: str
    action: dict[str, Any]
    action_id: str
    # Recorded at proof points only (play/master.py); the export fills the rest by replay.
    state_hash: str | None
    by_timeout: bool


@dataclass(slots=True)
class LoggedEvent:
    kind: str
    data: dict[str, Any]
    to: list[str] | None


@dataclass(slots=True)
class ChatRecord:
    """One chat line and its channel (play/chat.py); ``seq`` is the table's seq when said."""

    seq: int
    channel: str
    from_name: str
    from_seat: str | None
    text: str
    system: bool
    at: datetime


# The action ids a live table remembers, its newest steps' (issue 15 point 4: all of them grew a
# table's memory by ~100 bytes a step for the game's life). A client resends only the action it
# had in flight when its connection dropped, so a retry finds its id among these; an older id is
# answered "stale" by the seq check, or by the log's unique key should its seq match.
RECENT_ACTION_IDS = 256


@dataclass(slots=True)
class PlayLoad:
    """What a master needs to rebuild a live table: snapshot + later actions, and the ids of
    the newest ``RECENT_ACTION_IDS`` actions, oldest first."""

    table: TableRecord
    snapshot_seq: int | None
    snapshot_state: str | None
    snapshot_hash: str | None
    actions: list[LoggedAction]
    action_ids: dict[str, tuple[int, str]]
    # Whether a chat line was kept at the table when it was read (False: the first arrivals'
    # chat histories are empty, with no read of their own: play/tablechat.py).
    chatted: bool = True


@dataclass(slots=True)
class ActionWrite:
    table_id: str
    seq: int
    seat: str
    action: dict[str, Any]
    action_id: str
    by_timeout: bool
    state_hash: str | None
    events: list[LoggedEvent]
    snapshot: str | None = None
    outcome: dict[str, Any] | None = None


class LobbyWrite:
    """A lobby write (a table created, a seat taken, a game started) that goes to the database
    with the next group commit (store/writer.py): ``run`` is called with the batch's SQLAlchemy
    ``Connection``, in its transaction, and what it returns is kept in ``value``.

    ``run`` may read and write; it may be run twice (a batch that fails is tried again item by
    item, each in a transaction of its own), so what it does outside the database must bear that.
    A raise fails its batch, so ``run`` refuses by returning (the lobby's refusals: lobby/routes.py)."""

    __slots__ = ("run", "value")

    def __init__(self, run: Callable[[Connection], Any]) -> None:
        self.run = run
        self.value: Any = None
