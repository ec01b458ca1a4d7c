"""The tables' chat lines (issue 14.3), kept and read back by channel.

Separate from the play log in store/repository.py: chat is written one line at a time outside
the master's commit, and read by channel (play/chat.py decides who may read which); nothing of
it enters a table's state or its hashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC

from sqlalchemy import Connection, Engine, bindparam, insert, or_, select

from .db import write_transaction
from .models import ChatLine
from .records import ChatRecord

# Built once: SQLAlchemy walks a statement built anew at each call for its cache key.
_ANY_LINE = select(ChatLine.__table__.c.id).where(ChatLine.__table__.c.table_id == bindparam("t")).limit(1)


class ChatLog:
    """The chat statements of ``Repository``, which inherits them: callers keep asking ``repo``."""

    engine: Engine

    def add_chat_line(self, table_id: str, line: ChatRecord) -> None:
        with write_transaction(self.engine) as conn:
            conn.execute(
                insert(ChatLine.__table__),
                {"table_id": table_id, "seq": line.seq, "channel": line.channel, "from_name": line.from_name,
                 "from_seat": line.from_seat, "text": line.text, "system": line.system, "created_at": line.at},
            )  # fmt: skip

    def has_chat_lines(self, table_id: str) -> bool:
        """Whether anything was ever said at the table (its arrivals' histories are empty if not)."""
        with self.engine.connect() as conn:
            return self.has_chat_lines_on(conn, table_id)

    @staticmethod
    def has_chat_lines_on(conn: Connection, table_id: str) -> bool:
        return conn.execute(_ANY_LINE, {"t": table_id}).first() is not None

    def chat_lines(
        self, table_id: str, channels: Sequence[str], from_seats: Sequence[str], limit: int
    ) -> list[ChatRecord]:
        """The newest ``limit`` lines said on ``channels`` or by ``from_seats``, oldest first."""
        c = ChatLine.__table__.c
        wanted = or_(c.channel.in_(list(channels)), c.from_seat.in_(list(from_seats)))
        q = select(c.seq, c.channel, c.from_name, c.from_seat, c.text, c.system, c.created_at)
        with self.engine.connect() as conn:
            rows = conn.execute(q.where(c.table_id == table_id, wanted).order_by(c.id.desc()).limit(limit)).all()
        return [
            # SQLite hands the time back without its zone; it was written in UTC.
            ChatRecord(r.seq, r.channel, r.from_name, r.from_seat, r.text, r.system,
                       r.created_at if r.created_at.tzinfo else r.created_at.replace(tzinfo=UTC))
            for r in reversed(rows)
        ]  # fmt: skip
