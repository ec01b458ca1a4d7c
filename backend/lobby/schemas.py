"""REST request and response bodies (they make the OpenAPI schema).

No token and no seed ever appears in a ``TableOut``; the seed is only in an
export of a finished game.  Text a person typed (names, titles, seat ids, game names) is
checked here, once, by the types of backend/textcheck.py: one line, NFC, bounded, no control
characters, on every database alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from backend.store.repository import TableRecord
from backend.textcheck import GameName, PlayerName, SeatId, TableTitle

TableStatus = Literal["open", "live", "finished"]
BotLevel = Literal["random", "steady", "strong"]
Takeover = Literal["off", "steady", "strong"]


class ErrorOut(BaseModel):
    code: str
    message: str


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: PlayerName
    # A program that plays (``python -m backend bot``) says so: it is marked as a bot wherever
    # its name appears.
    bot: BotLevel | None = None


class PlayerOut(BaseModel):
    player_id: str
    name: str
    player_token: str


class GameOut(BaseModel):
    name: str
    title: str
    rules_version: int
    options_schema: dict[str, Any]
    default_options: dict[str, Any]


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameName
    options: dict[str, Any] = Field(default_factory=dict)
    visibility: Literal["public", "unlisted"] = "public"
    title: TableTitle | None = None
    turn_clock_seconds: float | None = Field(default=None, ge=5, le=86400)
    prompt_timeout_seconds: float | None = Field(default=None, ge=1, le=86400)
    takeover: Takeover = "steady"
    bot_seconds: float = Field(default=1.0, ge=0.05, le=30)


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: SeatId


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: SeatId
    level: BotLevel = "steady"


class BotWork(BaseModel):
    """One seat the bot runner should play: a bot's seat, or a person's taken over."""

    table_id: str
    seat: str
    level: BotLevel
    takeover: bool


class SeatOut(BaseModel):
    seat: str
    label: str
    player_name: str | None
    taken: bool
    connected: bool
    bot: BotLevel | None = None  # a bot holds the seat (its level)
    stand_in: BotLevel | None = None  # a bot plays for the seat's absent person right now


class ForkIn(BaseModel):
    """Play from here (issue 14.5): fork a finished table at step ``seq`` (0: the setup)."""

    model_config = ConfigDict(extra="forbid")
    seq: int = Field(ge=0, le=10_000_000)
    title: TableTitle | None = None
    visibility: Literal["public", "unlisted"] = "unlisted"


class OriginOut(BaseModel):
    """Where a fork came from: the original table, the step, and the hash of its state there."""

    table: str
    seq: int
    hash: str


class TableOut(BaseModel):
    id: str
    game: str
    title: str
    options: dict[str, Any]
    visibility: str
    status: TableStatus
    host: str
    seats: list[SeatOut]
    spectators: int
    seq: int
    created_at: datetime
    commitment: str | None
    outcome: dict[str, Any] | None
    rules_version: int
    turn_clock_seconds: float | None
    prompt_timeout_seconds: float
    takeover: Takeover
    bot_seconds: float
    origin: OriginOut | None = None  # a fork's origin (issue 14.5); null for other tables


class JoinOut(BaseModel):
    table: TableOut
    seat: str
    seat_token: str


class RecordAction(BaseModel):
    seq: int
    seat: str
    action: dict[str, Any]
    action_id: str
    hash: str | None  # only in a complete record (the game is over)
    auto: bool


class RecordOut(BaseModel):
    format: Literal["dragontable-record/1"] = "dragontable-record/1"
    table_id: str
    game: str
    rules_version: int
    options: dict[str, Any]
    seats: list[str]
    status: str
    complete: bool  # false while live: no seed, no hashes, actions redacted for the requester
    commitment: str | None
    seed: str | None
    initial_hash: str | None
    actions: list[RecordAction]
    final_hash: str | None
    outcome: dict[str, Any] | None
    origin: OriginOut | None = None  # a fork (issue 14.5): where it came from
    origin_state: str | None = None  # ... and the original's state there, canonical JSON text


class ReplayFrame(BaseModel):
    seq: int
    seat: str | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    view: dict[str, Any]
    to_act: list[str]


class ReplayOut(BaseModel):
    table: TableOut
    static: dict[str, Any]
    frames: list[ReplayFrame]
    # The table's and the spectators' chat lines, as ``chat`` messages (docs/protocol.md).
    chat: list[dict[str, Any]] = []


class HealthOut(BaseModel):
    status: str
    db: str


def table_out(
    record: TableRecord,
    connected: frozenset[str] = frozenset(),
    spectators: int = 0,
    stand_ins: Mapping[str, str] | None = None,
) -> TableOut:
    stand_ins = stand_ins or {}
    return TableOut(
        id=record.id,
        game=record.game,
        title=record.title,
        options=record.options,
        visibility=record.visibility,
        status=record.status,  # type: ignore[arg-type]
        host=record.host_name,
        seats=[
            SeatOut(
                seat=s.seat,
                label=s.label,
                player_name=s.player_name,
                taken=s.player_id is not None,
                connected=s.seat in connected,
                bot=s.player_bot,  # type: ignore[arg-type]
                stand_in=stand_ins.get(s.seat),  # type: ignore[arg-type]
            )
            for s in record.seats
        ],
        spectators=spectators,
        seq=record.seq,
        created_at=_utc(record.created_at),
        commitment=record.commitment,
        outcome=record.outcome,
        rules_version=record.rules_version,
        turn_clock_seconds=record.turn_clock_seconds,
        prompt_timeout_seconds=record.prompt_timeout_seconds,
        takeover=record.takeover,  # type: ignore[arg-type]
        bot_seconds=record.bot_seconds,
        origin=OriginOut(**record.origin) if record.origin else None,
    )


def _utc(moment: datetime) -> datetime:
    """Stored times are UTC; SQLite hands them back without their zone, and the OpenAPI
    ``date-time`` (RFC 3339) needs one."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
