"""Chat channels and forked tables (issue 14, points 3 and 5).

``chat_line`` keeps every chat line with its channel, so that a channel's history reaches the
seats that may read it on reconnect, and the spectators' channel reaches everyone once the game
is over (with the replay). ``channel`` is ``table``, ``side:<side>``, ``seat:<seat>`` or
``spectators``; ``from_seat`` is null for a spectator and for the table's own lines.

``game_table.origin`` says where a fork came from (``{"table", "seq", "hash"}``: the original
table, the step it was forked at and the hash of the original's state there) and
``game_table.origin_state`` holds that state's canonical encoding, so a fork's record verifies on
its own. Both are null for a table that was not forked.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_line",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(80), nullable=False),
        sa.Column("from_name", sa.String(64), nullable=False),
        sa.Column("from_seat", sa.String(64), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("system", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name="fk_chat_line_table_id_game_table", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_line"),
    )
    op.create_index("ix_chat_line_table_id", "chat_line", ["table_id", "id"])
    op.add_column("game_table", sa.Column("origin", sa.JSON(), nullable=True))
    op.add_column("game_table", sa.Column("origin_state", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("game_table", "origin_state")
    op.drop_column("game_table", "origin")
    op.drop_index("ix_chat_line_table_id", table_name="chat_line")
    op.drop_table("chat_line")
