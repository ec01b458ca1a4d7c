"""Action hashes only at proof points: ``action.state_hash`` becomes nullable.

Hashing the whole state after every action cost more server CPU than the rules
themselves; the server now records it every few actions, at every snapshot and
at the end (see backend/play/master.py), and the export fills the others by
replay.  Downgrading fills the missing hashes by replaying each table from its
seed, so the older server finds a hash on every row again.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("action") as batch:
        batch.alter_column("state_hash", existing_type=sa.String(64), nullable=True)


def _json(value: Any) -> Any:
    # Raw SQL: PostgreSQL hands JSON back decoded, SQLite as text.
    return json.loads(value) if isinstance(value, str) else value


def downgrade() -> None:
    from backend.config import Settings
    from backend.engine.registry import get_game, register_spec
    from backend.engine.replay import state_hash

    register_spec(Settings().extra_games)
    conn = op.get_bind()
    missing = conn.execute(
        sa.text(
            "SELECT id, game, options, seed_hex FROM game_table WHERE id IN "
            "(SELECT DISTINCT table_id FROM action WHERE state_hash IS NULL)"
        )
    ).all()
    for table_id, game_name, options, seed_hex in missing:
        game = get_game(game_name)
        state = game.initial_state(bytes.fromhex(seed_hex), _json(options))
        rows = conn.execute(
            sa.text("SELECT seq, seat, action, state_hash FROM action WHERE table_id = :t ORDER BY seq"),
            {"t": table_id},
        ).all()
        for seq, seat, action, recorded in rows:
            state = game.apply(state, seat, _json(action)).state
            if recorded is None:
                conn.execute(
                    sa.text("UPDATE action SET state_hash = :h WHERE table_id = :t AND seq = :s"),
                    {"h": state_hash(game, state), "t": table_id, "s": seq},
                )
    with op.batch_alter_table("action") as batch:
        batch.alter_column("state_hash", existing_type=sa.String(64), nullable=False)
