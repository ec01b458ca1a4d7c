"""The schema.  Changed only through alembic revisions in migrations/.

The action log is the truth: a table's state is always the replay of its
actions from its seed; ``snapshot`` rows are only a cache of that replay.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Stable constraint names so revisions can drop them on every backend.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    # Declared so the type checker knows each model's Core table (the repository's statements).
    __table__: ClassVar[Table]


class Player(Base):
    __tablename__ = "player"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    # sha256 of the player token; the token itself is never stored.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # A bot's level ("random", "steady", "strong"); None for a person (issue 12).
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # A bot the host seated: the server's bot runner plays it (a bot that joined by itself,
    # ``python -m backend bot``, plays its own seat).
    runner: Mapped[bool] = mapped_column(Boolean, server_default=false())


class GameTable(Base):
    __tablename__ = "game_table"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    rules_version: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(128))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    visibility: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_player_id: Mapped[str] = mapped_column(ForeignKey("player.id"))
    seq: Mapped[int] = mapped_column(Integer, default=0)
    turn_clock_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    prompt_timeout_seconds: Mapped[float] = mapped_column(Float)
    # Who plays for a person who is away: "off", "steady" or "strong" (issue 12, point 5).
    takeover: Mapped[str] = mapped_column(String(16), server_default="steady")
    # The time a strong bot may take per decision at this table.
    bot_seconds: Mapped[float] = mapped_column(Float, server_default="1.0")
    # Secret until the game is over; never part of a listing (see lobby/schemas.py).
    seed_hex: Mapped[str | None] = mapped_column(String(128), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    initial_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # A fork's origin (issue 14, point 5): {"table", "seq", "hash"} of the original's state it
    # starts from, and that state's canonical JSON text; null for a table that was not forked.
    origin: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    origin_state: Mapped[str | None] = mapped_column(Text, nullable=True)


class SeatRow(Base):
    __tablename__ = "seat"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String(128))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("player.id"), nullable=True)
    # sha256 of the current seat token (a re-join issues a new one).
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """The append-only log: one row per applied action, never updated."""

    __tablename__ = "action"
    __table_args__ = (
        UniqueConstraint("table_id", "seq"),
        UniqueConstraint("table_id", "action_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(64))
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    action_id: Mapped[str] = mapped_column(String(128))
    by_timeout: Mapped[bool] = mapped_column(Boolean, default=False)
    # Hash of the state after this action, recorded at proof points (every few actions,
    # every snapshot, the last action; every action when workers replicate tables).
    # Replays check every recorded one; the export fills the others by replay.
    state_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The events the action made, in order, each ``[kind, data, to]`` (``to``: the seats that
    # see it, null for everyone). In the action's row, not rows of their own: one row and two
    # JSON values an action instead of ≈ 4 and 7 (migrations/versions/0005).
    events: Mapped[list[Any]] = mapped_column(JSON)


class Snapshot(Base):
    """A cache of the encoded state at ``seq``; loading checks its hash."""

    __tablename__ = "snapshot"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[str] = mapped_column(Text)  # canonical JSON text, hashed as is
    state_hash: Mapped[str] = mapped_column(String(64))


class ChatLine(Base):
    """One chat line and the channel it was said on (issue 14, point 3): ``table``,
    ``side:<side>``, ``seat:<seat>`` or ``spectators``. ``seq`` is the table's seq when said."""

    __tablename__ = "chat_line"
    __table_args__ = (Index("ix_chat_line_table_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(80))
    from_name: Mapped[str] = mapped_column(String(64))
    from_seat: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    system: Mapped[bool] = mapped_column(Boolean, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
