"""Every SQL statement of the server lives here (and in its two parts: store/logwriter.py,
which appends the play log on the driver's cursor, and store/chatlog.py, the chat lines).

Functions are synchronous; the async server calls them from worker threads
(``asyncio.to_thread``) or through the group-commit writer (store/writer.py).
ORM rows never leave the store: callers get the plain records of store/records.py, which
they may import from here.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, func, insert, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from .chatlog import ChatLog
from .db import write_transaction, writing
from .logwriter import LogWriter, Read
from .models import ActionRow, ChatLine, GameTable, Player, SeatRow, Snapshot
from .records import (
    RECENT_ACTION_IDS,
    ActionWrite,
    ChatRecord,
    Conflict,
    LobbyWrite,
    LoggedAction,
    LoggedEvent,
    NotFound,
    PlayerRecord,
    PlayLoad,
    SeatRecord,
    TableRecord,
    Unsavable,
)

__all__ = [
    "RECENT_ACTION_IDS",
    "ActionWrite",
    "ChatRecord",
    "Conflict",
    "LobbyWrite",
    "LoggedAction",
    "LoggedEvent",
    "NotFound",
    "PlayLoad",
    "PlayerRecord",
    "Repository",
    "SeatRecord",
    "TableRecord",
    "Unsavable",
    "constant_time_equal",
    "new_id",
    "new_token",
    "now",
    "token_hash",
]


def now() -> datetime:
    return datetime.now(UTC)


def new_token() -> str:
    """A bearer token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id() -> str:
    # 72 random bits: unlisted tables are found only by their id. Never a leading "-": a command
    # line would read the id as an option (``python -m backend bot --table ID`` refused one
    # table in 64, and a test of it failed once).
    while True:
        ident = secrets.token_urlsafe(9)
        if not ident.startswith("-"):
            return ident


_GT = GameTable.__table__
_TABLE_WITH_HOST = select(_GT, Player.__table__.c.name.label("host_name")).outerjoin(
    Player.__table__, Player.__table__.c.id == _GT.c.host_player_id
)
# One table by id: built once, as every statement here (SQLAlchemy then finds its compiled
# form by the statement's cache key; a statement built per call is walked again each time).
_TABLE_BY_ID = _TABLE_WITH_HOST.where(_GT.c.id == bindparam("t"))
_INSERT_TABLE = insert(_GT)
_INSERT_SEATS = insert(SeatRow.__table__)
_START = (
    update(_GT)
    .where(_GT.c.id == bindparam("t"), _GT.c.status == "open")
    .values(status="live", seed_hex=bindparam("seed"), commitment=bindparam("commitment"),
            initial_hash=bindparam("initial"), started_at=bindparam("at"), seq=0)
)  # fmt: skip
_NEWEST_SNAPSHOT = (
    select(Snapshot.seq, Snapshot.state, Snapshot.state_hash)
    .where(Snapshot.table_id == bindparam("t"), Snapshot.seq <= bindparam("upto"))
    .order_by(Snapshot.seq.desc())
    .limit(1)
)
_NEWEST_ACTION_IDS = (
    select(ActionRow.action_id, ActionRow.seq, ActionRow.seat)
    .where(ActionRow.table_id == bindparam("t"), ActionRow.seq <= bindparam("upto"))
    .order_by(ActionRow.seq.desc())
    .limit(bindparam("n"))
)
_A = ActionRow.__table__.c
_ACTIONS_AFTER = (
    select(_A.seq, _A.seat, _A.action, _A.action_id, _A.state_hash, _A.by_timeout)
    .where(_A.table_id == bindparam("t"), _A.seq > bindparam("after"))
    .order_by(_A.seq)
)
_ACTIONS_BETWEEN = (
    select(_A.seq, _A.seat, _A.action, _A.action_id, _A.state_hash, _A.by_timeout)
    .where(_A.table_id == bindparam("t"), _A.seq > bindparam("after"), _A.seq <= bindparam("upto"))
    .order_by(_A.seq)
)
_EVENTS_BETWEEN = (
    select(_A.seq, _A.events)
    .where(_A.table_id == bindparam("t"), _A.seq > bindparam("after"), _A.seq <= bindparam("upto"))
    .order_by(_A.seq)
)
_PLAYER_BY_TOKEN = select(Player.id, Player.name, Player.token_hash, Player.bot).where(
    Player.token_hash == bindparam("h")
)
_SEATS = (
    select(SeatRow.seat, SeatRow.label, SeatRow.player_id, Player.name, SeatRow.token_hash, Player.bot,
           func.coalesce(Player.runner, False))
    .outerjoin(Player, Player.id == SeatRow.player_id)
    .where(SeatRow.table_id == bindparam("t"))
    .order_by(SeatRow.position)
)
_ST = SeatRow.__table__
_TAKE_SEAT = (
    update(_ST)
    .where(
        _ST.c.table_id == bindparam("t"),
        _ST.c.seat == bindparam("s"),
        _ST.c.player_id.is_(None) | (_ST.c.player_id == bindparam("p")),
    )
    .values(player_id=bindparam("p"), token_hash=bindparam("h"))
)
_FREE_SEAT = (
    update(_ST)
    .where(_ST.c.table_id == bindparam("t"), _ST.c.seat == bindparam("s"), _ST.c.player_id == bindparam("p"))
    .values(player_id=None, token_hash=None)
)
PLAYER_CACHE = 10_000


def constant_time_equal(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    return hmac.compare_digest(a.encode(), b.encode())


class Repository(ChatLog):
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.engine: Engine = sessions.kw["bind"]
        # sha256(player token) -> player, oldest first.
        self._players: dict[str, PlayerRecord] = {}
        self._log: LogWriter | None = None
        # A table and its seats, read on the driver's cursor (store/logwriter.py ``Read``) where
        # the event loop reads them, in the lobby's writes (SQLite: store/writer.py); PostgreSQL's
        # driver needs its columns' type codes to convert what it returns, which SQLAlchemy reads.
        sqlite = self.engine.dialect.name == "sqlite"
        self._table_read = Read(self.engine, _TABLE_BY_ID) if sqlite else None
        self._seats_read = Read(self.engine, _SEATS) if sqlite else None

    # -- health -------------------------------------------------------------
    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    # -- players ------------------------------------------------------------
    def create_player(self, name: str, bot: str | None = None, *, runner: bool = False) -> tuple[PlayerRecord, str]:
        token = new_token()
        player = PlayerRecord(new_id(), name, bot)
        with write_transaction(self.engine) as conn:
            conn.execute(
                insert(Player.__table__),
                {"id": player.id, "name": name, "token_hash": token_hash(token), "created_at": now(),
                 "bot": bot, "runner": runner},
            )  # fmt: skip
        return player, token

    def known_player(self, token: str) -> PlayerRecord | None:
        """The player of ``token`` if this process has seen it (players never change)."""
        return self._players.get(token_hash(token))

    def player_by_token(self, token: str) -> PlayerRecord | None:
        wanted = token_hash(token)
        # Players never change once created: every REST call asks, so remember them.
        known = self._players.get(wanted)
        if known is not None:
            return known
        with self.engine.connect() as conn:
            row = conn.execute(_PLAYER_BY_TOKEN, {"h": wanted}).first()
        if row is None or not constant_time_equal(row.token_hash, wanted):
            return None
        player = PlayerRecord(row.id, row.name, row.bot)
        if len(self._players) >= PLAYER_CACHE:
            self._players.pop(next(iter(self._players)))
        self._players[wanted] = player
        return player

    # -- tables -------------------------------------------------------------
    def create_table(self, **fields: Any) -> TableRecord:
        """A new open table (``fields``: ``create_table_on``'s) in a transaction of its own."""
        with write_transaction(self.engine) as conn:
            table_id = self.create_table_on(conn, **fields)
        return self.get_table(table_id)

    def create_table_on(
        self,
        conn: Connection,
        *,
        game: str,
        rules_version: int,
        title: str,
        options: dict[str, Any],
        visibility: str,
        host: PlayerRecord,
        seats: Sequence[tuple[str, str]],
        turn_clock_seconds: float | None,
        prompt_timeout_seconds: float,
        takeover: str = "steady",
        bot_seconds: float = 1.0,
        origin: dict[str, Any] | None = None,
        origin_state: str | None = None,
    ) -> str:
        """Insert a new open table and its seats in ``conn``'s transaction; returns its id."""
        table_id = new_id()
        conn.execute(
            _INSERT_TABLE,
            {
                "id": table_id,
                "game": game,
                "rules_version": rules_version,
                "title": title,
                "options": options,
                "visibility": visibility,
                "status": "open",
                "host_player_id": host.id,
                "seq": 0,
                "turn_clock_seconds": turn_clock_seconds,
                "prompt_timeout_seconds": prompt_timeout_seconds,
                "takeover": takeover,
                "bot_seconds": bot_seconds,
                "created_at": now(),
                "origin": origin,
                "origin_state": origin_state,
            },
        )
        conn.execute(
            _INSERT_SEATS,
            [{"table_id": table_id, "seat": seat, "position": i, "label": label} for i, (seat, label) in enumerate(seats)],
        )
        return table_id

    @staticmethod
    def _record(conn: Connection, row: Any, *, with_seed: bool = False, seat_rows: Sequence[Any] | None = None) -> TableRecord:
        """``row``: a game_table row with its host's name as ``host_name``; ``seat_rows``: its
        seats, when they are read already."""
        if seat_rows is None:
            seat_rows = conn.execute(_SEATS, {"t": row.id}).all()
        return TableRecord(
            id=row.id,
            game=row.game,
            rules_version=row.rules_version,
            title=row.title,
            options=dict(row.options),
            visibility=row.visibility,
            status=row.status,
            host_player_id=row.host_player_id,
            host_name=row.host_name or "",
            seq=row.seq,
            turn_clock_seconds=row.turn_clock_seconds,
            prompt_timeout_seconds=row.prompt_timeout_seconds,
            commitment=row.commitment,
            outcome=row.outcome,
            initial_hash=row.initial_hash,
            created_at=row.created_at,
            seats=[SeatRecord(*r) for r in seat_rows],
            seed_hex=row.seed_hex if with_seed else None,
            takeover=row.takeover,
            bot_seconds=row.bot_seconds,
            origin=row.origin,
            origin_state=row.origin_state,
        )

    def get_table(self, table_id: str, *, with_seed: bool = False) -> TableRecord:
        with self.engine.connect() as conn:
            return self.table_on(conn, table_id, with_seed=with_seed)

    def table_on(self, conn: Connection, table_id: str, *, with_seed: bool = False) -> TableRecord:
        """The table as ``conn`` sees it (raises NotFound)."""
        table_read, seats_read = self._table_read, self._seats_read
        if table_read is None or seats_read is None:
            row, seats = conn.execute(_TABLE_BY_ID, {"t": table_id}).first(), None
        else:
            rows = table_read.rows(conn, {"t": table_id})
            row, seats = (rows[0], seats_read.rows(conn, {"t": table_id})) if rows else (None, None)
        if row is None:
            raise NotFound(table_id)
        return self._record(conn, row, with_seed=with_seed, seat_rows=seats)

    def list_tables(
        self, statuses: Sequence[str], limit: int = 200, open_since: datetime | None = None
    ) -> list[TableRecord]:
        """Public tables in ``statuses``, newest first (finished ones by when they ended);
        open tables created before ``open_since`` are left out (they have expired)."""
        where = [_GT.c.visibility == "public", _GT.c.status.in_(list(statuses))]
        if open_since is not None:
            where.append((_GT.c.status != "open") | (_GT.c.created_at >= open_since))
        order = func.coalesce(_GT.c.finished_at, _GT.c.created_at).desc()
        with self.engine.connect() as conn:
            rows = conn.execute(_TABLE_WITH_HOST.where(*where).order_by(order).limit(limit)).all()
            return [self._record(conn, r) for r in rows]

    def finished_table_ids(self) -> list[str]:
        """Every finished table, oldest first (the bulk export of records)."""
        with self.engine.connect() as conn:
            return list(conn.scalars(select(_GT.c.id).where(_GT.c.status == "finished").order_by(_GT.c.finished_at)))

    def tables_of_player(self, player_id: str, limit: int = 50) -> list[TableRecord]:
        """Every table ``player_id`` hosts or holds a seat at, of any status or visibility."""
        seated = select(_ST.c.table_id).where(_ST.c.player_id == player_id)
        order = func.coalesce(_GT.c.finished_at, _GT.c.created_at).desc()
        with self.engine.connect() as conn:
            rows = conn.execute(
                _TABLE_WITH_HOST.where((_GT.c.host_player_id == player_id) | _GT.c.id.in_(seated))
                .order_by(order)
                .limit(limit)
            ).all()
            return [self._record(conn, r) for r in rows]

    def delete_unjoined_open_tables(self, created_before: datetime) -> int:
        """Open tables created before ``created_before`` at which nobody ever took a seat: they
        are dropped (nothing was played, so no record is lost).  Returns how many."""
        taken = select(_ST.c.table_id).where(_ST.c.player_id.is_not(None))
        with write_transaction(self.engine) as conn:
            ids = list(conn.scalars(
                select(_GT.c.id).where(_GT.c.status == "open", _GT.c.created_at < created_before,
                                       _GT.c.id.not_in(taken))
            ))  # fmt: skip
            if ids:
                conn.execute(delete(SeatRow.__table__).where(_ST.c.table_id.in_(ids)))
                conn.execute(delete(_GT).where(_GT.c.id.in_(ids)))
        return len(ids)

    def take_seat(self, table_id: str, seat: str, player_id: str) -> str | None:
        """Give ``seat`` to ``player_id`` with a fresh token; None when someone else holds it.

        The condition is in the UPDATE, so two players racing for one seat cannot both win.
        """
        with write_transaction(self.engine) as conn:
            return self.take_seat_on(conn, table_id, seat, player_id)

    def take_seat_on(self, conn: Connection, table_id: str, seat: str, player_id: str) -> str | None:
        """``take_seat`` in ``conn``'s transaction."""
        token = new_token()
        moved = conn.execute(_TAKE_SEAT, {"t": table_id, "s": seat, "p": player_id, "h": token_hash(token)})
        return token if moved.rowcount == 1 else None

    def free_seat(self, table_id: str, seat: str, player_id: str) -> bool:
        """Give up ``seat``; False when ``player_id`` does not hold it."""
        with write_transaction(self.engine) as conn:
            moved = conn.execute(_FREE_SEAT, {"t": table_id, "s": seat, "p": player_id})
        return moved.rowcount == 1

    def live_bot_seats(self) -> list[tuple[str, str, str]]:
        """(table id, seat, level) of every seat a bot holds at a live table: the bot runner's
        standing work (play/bots.py)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_ST.c.table_id, _ST.c.seat, Player.bot)
                .join(Player, Player.id == _ST.c.player_id)
                .join(_GT, _GT.c.id == _ST.c.table_id)
                .where(Player.runner.is_(True), _GT.c.status == "live")
            ).all()
        return [(r.table_id, r.seat, r.bot) for r in rows]

    def start_table(self, table_id: str, *, seed_hex: str, commitment: str, initial_hash: str) -> bool:
        """Open → live, once; False when someone else started it first."""
        with write_transaction(self.engine) as conn:
            return self.start_table_on(conn, table_id, seed_hex=seed_hex, commitment=commitment, initial_hash=initial_hash)

    def start_table_on(self, conn: Connection, table_id: str, *, seed_hex: str, commitment: str, initial_hash: str) -> bool:
        """``start_table`` in ``conn``'s transaction."""
        result = conn.execute(
            _START, {"t": table_id, "seed": seed_hex, "commitment": commitment, "initial": initial_hash, "at": now()}
        )
        return result.rowcount == 1

    # -- play ---------------------------------------------------------------
    def load_for_play(self, table_id: str) -> PlayLoad:
        """The table as of one seq: its row first, then the snapshot, actions and ids up to the
        seq that row names. Each statement sees what is committed when it runs (PostgreSQL's
        read committed), and another worker may commit between them: the row's seq is moved in
        the same transaction as its action is written, so everything up to it is there."""
        with self.engine.connect() as s:
            table = self.table_on(s, table_id, with_seed=True)
            upto = table.seq
            snap = s.execute(_NEWEST_SNAPSHOT, {"t": table_id, "upto": upto}).first()
            after = snap.seq if snap else 0
            actions = self._actions_after(s, table_id, after, upto)
            newest = s.execute(_NEWEST_ACTION_IDS, {"t": table_id, "n": RECENT_ACTION_IDS, "upto": upto}).all()
            ids = {aid: (seq, seat) for aid, seq, seat in reversed(newest)}
            return PlayLoad(
                table=table,
                snapshot_seq=snap.seq if snap else None,
                snapshot_state=snap.state if snap else None,
                snapshot_hash=snap.state_hash if snap else None,
                actions=actions,
                action_ids=ids,
                chatted=self.has_chat_lines_on(s, table_id),
            )

    @staticmethod
    def _actions_after(
        conn: Connection, table_id: str, seq: int, upto: int | None = None
    ) -> list[LoggedAction]:
        rows = (
            conn.execute(_ACTIONS_AFTER, {"t": table_id, "after": seq})
            if upto is None
            else conn.execute(_ACTIONS_BETWEEN, {"t": table_id, "after": seq, "upto": upto})
        )
        return [LoggedAction(r.seq, r.seat, dict(r.action), r.action_id, r.state_hash, r.by_timeout) for r in rows]

    def actions_after(self, table_id: str, seq: int, upto: int | None = None) -> list[LoggedAction]:
        with self.engine.connect() as conn:
            return self._actions_after(conn, table_id, seq, upto)

    def all_actions(self, table_id: str) -> list[LoggedAction]:
        return self.actions_after(table_id, 0)

    def events_between(self, table_id: str, after: int, upto: int) -> dict[int, list[LoggedEvent]]:
        """The events of the actions after ``after`` up to ``upto``, by seq (actions that made
        none are left out)."""
        with self.engine.connect() as conn:
            rows = conn.execute(_EVENTS_BETWEEN, {"t": table_id, "after": after, "upto": upto})
            return {
                seq: [LoggedEvent(kind, dict(data), to) for kind, data, to in events] for seq, events in rows if events
            }

    def count_actions(self, table_id: str) -> int:
        with self.sessions() as s:
            return s.scalar(select(func.count()).where(ActionRow.table_id == table_id)) or 0

    def append_batch(self, batch: Sequence[ActionWrite | LobbyWrite]) -> list[Exception | None]:
        """Commit a batch in one transaction (one fsync); if that fails for any reason, one
        transaction per item, so one action the database refuses (a Conflict, Unsavable
        data) never takes the actions of other tables down with it, nor a lobby write that
        raised (``LobbyWrite``) the others.

        Returns, per item, None (committed; a lobby write's result is in its ``value``) or the
        exception that refused it.  When the database itself is gone, the items not yet tried
        get the same error without a try.
        """
        log = self._log_writer()
        try:
            log.append(batch)
            return [None] * len(batch)
        except Exception as exc:
            if len(batch) == 1:
                return [exc]
        results: list[Exception | None] = []
        for item in batch:
            try:
                log.append([item])
                results.append(None)
            except (Conflict, Unsavable) as exc:
                results.append(exc)
            except Exception as exc:
                if isinstance(item, LobbyWrite):
                    results.append(exc)  # what it ran raised: its own failure, as a Conflict is
                    continue
                # the database is unreachable: do not hammer it
                results += [exc] * (len(batch) - len(results))
                break
        return results

    def _log_writer(self) -> LogWriter:
        if self._log is None:
            self._log = LogWriter(self.engine)
        return self._log

    def delete_table(self, table_id: str) -> None:
        """Used by tests and operations only."""
        with writing(self.engine), self.sessions.begin() as s:
            for model in (ChatLine, Snapshot, ActionRow, SeatRow):
                s.execute(delete(model).where(model.table_id == table_id))
            s.execute(delete(GameTable).where(GameTable.id == table_id))
