"""An action's events in its own row: ``action.events``, and no ``event`` table.

Every action wrote its events as rows of their own (≈ 3.2 a Dorasure action), each with its
two JSON columns and its entries in two indexes: most of what a group commit wrote, and a
quarter of its CPU (bench/README.md, Server, "events in the action's row"). Nothing reads an
event but by its action (the backlog, store/repository.py ``events_between``), so they are kept
as one JSON list on the action's row: ``[[kind, data, to], ...]``, ``to`` null for an event
everyone sees, ``[]`` for an action that made none.

Upgrading moves every stored event onto its action's row, in order; downgrading moves them back.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _json(value: Any) -> Any:
    # Raw SQL: PostgreSQL hands JSON back decoded, SQLite as text.
    return json.loads(value) if isinstance(value, str) else value


def upgrade() -> None:
    with op.batch_alter_table("action") as batch:
        batch.add_column(sa.Column("events", sa.JSON(), nullable=True))
    conn = op.get_bind()
    update = sa.text("UPDATE action SET events = :e WHERE table_id = :t AND seq = :s").bindparams(
        sa.bindparam("e", type_=sa.JSON())
    )
    # A table at a time: a server's whole history is never held in memory at once.
    for (table_id,) in conn.execute(sa.text("SELECT DISTINCT table_id FROM event")).all():
        rows = conn.execute(
            sa.text("SELECT seq, kind, data, to_seats FROM event WHERE table_id = :t ORDER BY seq, idx"),
            {"t": table_id},
        ).all()
        lists: dict[int, list[Any]] = {}
        for seq, kind, data, to_seats in rows:
            lists.setdefault(seq, []).append([kind, _json(data), _json(to_seats)])
        conn.execute(update, [{"e": events, "t": table_id, "s": seq} for seq, events in lists.items()])
    conn.execute(sa.text("UPDATE action SET events = '[]' WHERE events IS NULL"))
    with op.batch_alter_table("action") as batch:
        batch.alter_column("events", existing_type=sa.JSON(), nullable=False)
    op.drop_index("ix_event_table_seq", table_name="event")
    op.drop_table("event")


def downgrade() -> None:
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
    conn = op.get_bind()
    event = sa.table(
        "event",
        sa.column("table_id", sa.String()),
        sa.column("seq", sa.Integer()),
        sa.column("idx", sa.Integer()),
        sa.column("kind", sa.String()),
        sa.column("data", sa.JSON()),
        sa.column("to_seats", sa.JSON()),
    )
    for (table_id,) in conn.execute(sa.text("SELECT DISTINCT table_id FROM action")).all():
        rows = conn.execute(
            sa.text("SELECT seq, events FROM action WHERE table_id = :t ORDER BY seq"), {"t": table_id}
        ).all()
        out = [
            {"table_id": table_id, "seq": seq, "idx": n, "kind": kind, "data": data, "to_seats": to}
            for seq, events in rows
            for n, (kind, data, to) in enumerate(_json(events))
        ]
        if out:
            conn.execute(sa.insert(event), out)
    with op.batch_alter_table("action") as batch:
        batch.drop_column("events")
