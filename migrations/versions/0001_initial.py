"""Initial schema: players, tables, seats, the action log, events, snapshots.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_player"),
        sa.UniqueConstraint("token_hash", name="uq_player_token_hash"),
    )
    op.create_table(
        "game_table",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(128), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_player_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("turn_clock_seconds", sa.Float(), nullable=True),
        sa.Column("prompt_timeout_seconds", sa.Float(), nullable=False),
        sa.Column("seed_hex", sa.String(128), nullable=True),
        sa.Column("commitment", sa.String(64), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("initial_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["host_player_id"], ["player.id"], name="fk_game_table_host_player_id_player"),
        sa.PrimaryKeyConstraint("id", name="pk_game_table"),
    )
    op.create_index("ix_game_table_status", "game_table", ["status"])
    op.create_table(
        "seat",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(128), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name="fk_seat_table_id_game_table", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_seat_player_id_player"),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_seat"),
    )
    op.create_table(
        "action",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("action_id", sa.String(128), nullable=False),
        sa.Column("by_timeout", sa.Boolean(), nullable=False),
        sa.Column("state_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name="fk_action_table_id_game_table", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_action"),
        sa.UniqueConstraint("table_id", "seq", name="uq_action_table_id_seq"),
        sa.UniqueConstraint("table_id", "action_id", name="uq_action_table_id_action_id"),
    )
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("to_seats", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name="fk_event_table_id_game_table", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_event"),
    )
    op.create_index("ix_event_table_seq", "event", ["table_id", "seq"])
    op.create_table(
        "snapshot",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("state_hash", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name="fk_snapshot_table_id_game_table", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("table_id", "seq", name="pk_snapshot"),
    )


def downgrade() -> None:
    op.drop_table("snapshot")
    op.drop_index("ix_event_table_seq", table_name="event")
    op.drop_table("event")
    op.drop_table("action")
    op.drop_table("seat")
    op.drop_index("ix_game_table_status", table_name="game_table")
    op.drop_table("game_table")
    op.drop_table("player")
