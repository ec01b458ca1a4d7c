"""The log writer: every action of every table goes to the database through here.

Separate from store/repository.py because it works beside SQLAlchemy rather than through it:
SQL compiled once (``Statement``) and run on the driver's own cursor, for the cost
``LogWriter`` gives.  The group commit (store/writer.py: the event loop or its thread) calls it through
``Repository.append_batch``, which also decides what a failed batch does.
"""

from __future__ import annotations

import sqlite3
from collections import namedtuple
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, insert, update

from .db import writing
from .models import ActionRow, GameTable, Snapshot
from .records import ActionWrite, Conflict, LobbyWrite, Unsavable

# Built once: the writer runs these for every action of every table.
_GT = GameTable.__table__
_MOVE = (
    update(_GT)
    .where(_GT.c.id == bindparam("t"), _GT.c.seq == bindparam("prev"), _GT.c.status == "live")
    .values(seq=bindparam("new"))
)
_FINISH = (
    update(_GT)
    .where(_GT.c.id == bindparam("t"), _GT.c.seq == bindparam("prev"), _GT.c.status == "live")
    .values(seq=bindparam("new"), status="finished", outcome=bindparam("oc"), finished_at=bindparam("at"))
)


class Statement:
    """A statement run on the driver's cursor: SQL compiled once by SQLAlchemy for the
    dialect, each parameter converted by its column type's own bind processor."""

    def __init__(self, engine: Engine, stmt: Any, keys: Sequence[str] | None = None) -> None:
        dialect = engine.dialect
        compiled = stmt.compile(dialect=dialect, column_keys=list(keys) if keys else None)
        self.sql = str(compiled)
        self.order = list(compiled.positiontup) if compiled.positional and compiled.positiontup else None
        params = compiled.params  # every parameter of the SQL by name, with its value if it has one
        # The values written in the statement ('live', 'finished', a ``coalesce``'s default) are
        # parameters too; a write's are its strings.
        self.written = {k: v for k, v in params.items() if v is not None}
        self.constants = {k: v for k, v in self.written.items() if isinstance(v, str)}
        self.convert = [
            (name, proc)
            for name, bind in compiled.binds.items()
            if name in params and (proc := bind.type.dialect_impl(dialect).bind_processor(dialect))
        ]
        self._many: dict[int, str] = {}

    def many(self, n: int) -> str:
        """This INSERT for ``n`` rows in one statement, its VALUES repeated (positional only)."""
        sql = self._many.get(n)
        if sql is None:
            head, _, values = self.sql.partition(" VALUES ")
            assert values and self.order is not None, "an INSERT with positional parameters"
            sql = self._many[n] = f"{head} VALUES {', '.join([values] * n)}"
        return sql

    def rows(self, params: Sequence[dict[str, Any]]) -> list[Any]:
        out = []
        for row in params:
            if self.constants:
                row = {**self.constants, **row}
            for name, proc in self.convert:
                if name in row:
                    row[name] = proc(row[name])
            out.append(tuple(row[k] for k in self.order) if self.order else row)
        return out


class Read:
    """A SELECT run on the driver's cursor under a SQLAlchemy connection (in its transaction): the
    SQL compiled once, the parameters converted as ``Statement``'s, and each row's values by its
    columns' own result processors, as SQLAlchemy's result would; rows read by name, like its
    rows. A lobby write reads its table through here (store/repository.py ``table_on``), on the
    event loop with SQLite: a table and its seats in 30–40 µs, against 80–150 through
    SQLAlchemy's execution (bench/README.md, issue 15 point 2, eighth session)."""

    def __init__(self, engine: Engine, stmt: Any) -> None:
        dialect = engine.dialect
        self.statement = Statement(engine, stmt)
        columns = list(stmt.selected_columns)
        self.processors = [c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns]
        self.row = namedtuple("Row", [c.key for c in columns], rename=True)  # type: ignore[misc]

    def rows(self, conn: Connection, params: dict[str, Any]) -> list[Any]:
        cur = conn.connection.cursor()
        try:
            cur.execute(self.statement.sql, self.statement.rows([{**self.statement.written, **params}])[0])
            fetched = cur.fetchall()
        finally:
            cur.close()
        procs = self.processors
        return [self.row(*[v if p is None or v is None else p(v) for p, v in zip(procs, r, strict=True)]) for r in fetched]


# SQLite's historical bound on a statement's parameters (builds since 3.32 allow 32,766).
_SQLITE_PARAMETERS = 999


class LogWriter:
    """Appends batches of actions to the log with the driver's executemany.

    This runs for every action of every table: on the DB-API cursor it costs a
    fraction of a SQLAlchemy Core execution (which alone cost ≈ 0.45 ms per
    transaction), with the same SQL and the same parameter conversions.

    On SQLite a batch is a handful of statements, not one per row: the tables' seqs moved by
    one ``UPDATE ... FROM (VALUES ...)``, the actions (their events in their rows) and the
    snapshots each inserted by one multi-row ``INSERT``. The driver lets the GIL go around every statement it steps and must
    take it back after; the commit thread, taking it back ≈ 90 times a batch of 18 actions
    (py-spy: a third of its time waiting for the GIL while the event loop sent frames), made
    an action's commit wait for the loop that many times.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sane_multi_rowcount = engine.dialect.supports_sane_multi_rowcount
        dbapi = engine.dialect.dbapi
        self.integrity = dbapi.IntegrityError  # type: ignore[union-attr]
        # The data of one action the database cannot take (PostgreSQL: a NUL in a text column).
        self.data_error = dbapi.DataError  # type: ignore[union-attr]
        a, n = ActionRow.__table__.c, Snapshot.__table__.c
        self.move = Statement(engine, _MOVE)
        self.finish = Statement(engine, _FINISH)
        self.action = Statement(engine, insert(ActionRow.__table__).inline(),
                                 [a.table_id.key, a.seq.key, a.seat.key, a.action.key, a.action_id.key,
                                  a.by_timeout.key, a.state_hash.key, a.created_at.key, a.events.key])  # fmt: skip
        self.snapshot = Statement(engine, insert(Snapshot.__table__).inline(),
                                   [n.table_id.key, n.seq.key, n.state.key, n.state_hash.key])  # fmt: skip
        # UPDATE ... FROM: SQLite 3.33.
        self.multirow = engine.dialect.name == "sqlite" and sqlite3.sqlite_version_info >= (3, 33)
        self._moves: dict[int, str] = {}

    def append(self, batch: Sequence[ActionWrite | LobbyWrite]) -> None:
        """One transaction for the whole batch; Conflict when any item is refused (nothing kept).
        Each lobby write's ``value`` is what its ``run`` returned."""
        with writing(self.engine):  # store/db.py: no sleeping in SQLite's busy handler
            if all(type(item) is ActionWrite for item in batch):
                self._append(batch)  # type: ignore[arg-type]  # (checked just above)
            else:
                self._append_with_lobby(batch)

    def _append_with_lobby(self, batch: Sequence[ActionWrite | LobbyWrite]) -> None:
        """The actions on the driver's cursor and the lobby's writes through SQLAlchemy, in one
        transaction of one connection (SQLAlchemy's ``begin``: committed at the end, rolled back
        on any raise)."""
        actions = [item for item in batch if type(item) is ActionWrite]
        with self.engine.begin() as conn:
            if actions:
                cur = conn.connection.cursor()
                try:
                    self._write(cur, actions)
                finally:
                    cur.close()
            for item in batch:
                if isinstance(item, LobbyWrite):
                    item.value = item.run(conn)

    def _append(self, batch: Sequence[ActionWrite]) -> None:
        conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            try:
                self._write(cur, batch)
                conn.commit()
            finally:
                cur.close()
        except Conflict:
            conn.rollback()
            raise
        except self.integrity:
            conn.rollback()
            raise Conflict(batch[0].table_id) from None
        except self.data_error as exc:
            conn.rollback()
            raise Unsavable(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        except BaseException:
            conn.invalidate()  # a broken connection is not handed out again
            raise
        finally:
            conn.close()

    def _write(self, cur: Any, batch: Sequence[ActionWrite]) -> None:
        stamp = datetime.now(UTC)
        moves = [{"t": i.table_id, "prev": i.seq - 1, "new": i.seq} for i in batch if i.outcome is None]
        if moves:
            # The conditional update serializes writers of one table across workers.
            if self.multirow and len(moves) > 1:
                # A batch holds one action of a table at most (its master awaits each commit).
                cur.execute(self._move_many(len(moves)), [v for m in moves for v in (m["t"], m["prev"], m["new"])])
                if cur.rowcount != len(moves):
                    raise Conflict(batch[0].table_id)
            elif self.sane_multi_rowcount or len(moves) == 1:
                cur.executemany(self.move.sql, self.move.rows(moves))
                if cur.rowcount != len(moves):
                    raise Conflict(batch[0].table_id)
            else:
                for row in self.move.rows(moves):
                    cur.execute(self.move.sql, row)
                    if cur.rowcount != 1:
                        raise Conflict(batch[0].table_id)
        for item in batch:
            if item.outcome is not None:
                [row] = self.finish.rows(
                    [
                        {
                            "t": item.table_id,
                            "prev": item.seq - 1,
                            "new": item.seq,
                            "oc": item.outcome,
                            "at": stamp,
                        }
                    ]
                )
                cur.execute(self.finish.sql, row)
                if cur.rowcount != 1:
                    raise Conflict(item.table_id)
        self._insert(cur, self.action, [
            {"table_id": i.table_id, "seq": i.seq, "seat": i.seat, "action": i.action,
             "action_id": i.action_id, "by_timeout": i.by_timeout, "state_hash": i.state_hash,
             "created_at": stamp, "events": [[ev.kind, ev.data, ev.to] for ev in i.events]}
            for i in batch
        ])  # fmt: skip
        snapshots = [
            {"table_id": i.table_id, "seq": i.seq, "state": i.snapshot, "state_hash": i.state_hash}
            for i in batch
            if i.snapshot is not None
        ]
        if snapshots:
            self._insert(cur, self.snapshot, snapshots)

    def _insert(self, cur: Any, statement: Statement, params: list[dict[str, Any]]) -> None:
        rows = statement.rows(params)
        if not self.multirow or len(rows) == 1:
            cur.executemany(statement.sql, rows)
            return
        per = max(1, _SQLITE_PARAMETERS // len(rows[0]))
        for start in range(0, len(rows), per):
            chunk = rows[start : start + per]
            cur.execute(statement.many(len(chunk)), [v for row in chunk for v in row])

    def _move_many(self, n: int) -> str:
        """The seqs of ``n`` tables moved in one statement, each only from the seq it was at."""
        sql = self._moves.get(n)
        if sql is None:
            t, c = _GT.name, _GT.c
            values = ", ".join(["(?, ?, ?)"] * n)
            sql = self._moves[n] = (
                f"UPDATE {t} SET {c.seq.name} = v.column3 FROM (VALUES {values}) AS v "
                f"WHERE {t}.{c.id.name} = v.column1 AND {t}.{c.seq.name} = v.column2 AND {t}.{c.status.name} = 'live'"
            )
        return sql
