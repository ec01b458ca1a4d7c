"""Bots (issue 12): a player may be a bot, and a table says who plays for an absent person.

``player.bot`` is the level of a bot player (None for a person), ``player.runner`` whether the
server's bot runner plays it (a bot the host seated); ``game_table.takeover`` is
"off", "steady" or "strong" (the level that plays a seat whose person is away) and
``game_table.bot_seconds`` the strong level's time per decision at that table.  Existing
rows get the defaults a new table gets.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTERs, not a batch: SQLite (3.35 and later) adds and drops a column in place, where
    # a batch would copy the player table, which the seats' foreign keys forbid.
    op.add_column("player", sa.Column("bot", sa.String(16), nullable=True))
    op.add_column("player", sa.Column("runner", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("game_table", sa.Column("takeover", sa.String(16), server_default="steady", nullable=False))
    op.add_column("game_table", sa.Column("bot_seconds", sa.Float(), server_default="1.0", nullable=False))


def downgrade() -> None:
    op.drop_column("game_table", "bot_seconds")
    op.drop_column("game_table", "takeover")
    op.drop_column("player", "runner")
    op.drop_column("player", "bot")
