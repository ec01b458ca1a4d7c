"""One live table: its state, its serial master and its connections.

Per table everything that changes the state runs under one asyncio lock:

    seat from the token → stale seq → action_id idempotency → validate/apply
    → COMMIT (group commit, durable) → ack → each connection's own update

Nobody hears of an action before it is on disk.  The state is only ever the
replay of the committed log (snapshots are a verified cache), so a restarted
server rebuilds every table at its last committed seq.

The parts that never change the game's state or seq live beside it, in objects and functions
the runtime owns and calls: the seat clock with its timer (play/seatclock.py) and what it
starts (play/takeover.py), the frames each connection is sent (play/frames.py), the past
updates (play/backlog.py), the chat (play/tablechat.py), the other workers' presence
(play/attendance.py) and who holds which seat (play/seats.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from backend.config import Settings
from backend.engine.core import Game, IllegalAction, Sides, Transition, check_action_shape
from backend.engine.replay import LogEntry, ReplayMismatch, replay_log
from backend.engine.rulerefs import refusal_rule
from backend.lobby.schemas import table_out
from backend.store.repository import (
    RECENT_ACTION_IDS,
    Conflict,
    PlayLoad,
    Repository,
    TableRecord,
    Unsavable,
    constant_time_equal,
)
from backend.store.writer import CommitWriter

from . import chat, frames, protocol, seats, static, takeover
from .attendance import Attendance
from .backlog import Applied, Backlog
from .hub import CLOSE_BAD_TOKEN, Connection, Present
from .metrics import Metrics
from .record import log_write
from .resting import ActionIds, Kept
from .seatclock import SeatClock
from .sidewatch import SideStreams
from .tablechat import TableChat
from .timers import SideClock

log = logging.getLogger("dragontable.play")


class BadToken(Exception):
    pass


class TableHost(Protocol):
    """What a table's runtime is given by the worker that holds it (play/tables.py's
    ``Tables``), as boardgame.io's master is given its storage and transport: the runtime
    never knows who owns it."""

    settings: Settings
    repo: Repository
    writer: CommitWriter
    metrics: Metrics

    async def build(self, table_id: str) -> tuple[PlayLoad, Any, int]:
        """The table's stored record and its state rebuilt at its last committed seq."""
        ...

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Tell the other workers (nothing when there are none)."""
        ...

    def replicated(self) -> bool:
        """Whether other workers replay this worker's tables."""
        ...

    def evict_if_idle(self, table_id: str) -> None: ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a task that is held until it ends."""
        ...


class TableRuntime:
    def __init__(self, tables: TableHost, game: Game[Any], load: PlayLoad, state: Any, seq: int) -> None:
        self.tables = tables
        self.settings = tables.settings
        self.game = game
        self.record: TableRecord = load.table
        self.id = self.record.id
        self.static_text = static.static_text(game, self.record.options)  # one text, shared by tables
        self._sides = game.sides(self.record.options) if isinstance(game, Sides) else None
        self.backlog = Backlog(tables.repo, game, self.id, self.settings.missed_ring)
        # Spectators watching from a side, whole rounds behind (issue 14.4): None unless allowed.
        self.side_watch = SideStreams.for_table(
            game, self.record.options, entries=self.backlog.entries, missed_limit=self.settings.missed_from_db_limit,
            read_log=lambda upto: asyncio.to_thread(tables.repo.actions_after, self.id, 0, upto),
        )  # fmt: skip
        # The state and the newest action ids, compressed while nobody is here (play/resting.py).
        self.kept = Kept(game, state, dict(load.action_ids))
        self.seq = seq
        self.lock = asyncio.Lock()
        self.connections = Present()
        self.clock = SeatClock(game, self.settings, [s.seat for s in self.record.seats], self._fire)
        self.attendance = Attendance(self.settings.presence_interval_seconds, self._flush_presence)
        self.talk = TableChat(tables.repo, self.id, self.connections, self.seating,
                              lambda message: tables.publish(self.id, message), silent=not load.chatted)  # fmt: skip
        self._evict: asyncio.TimerHandle | None = None
        self.clock.refresh(self.state, self.live, actor=None)

    # -- the state (play/resting.py keeps it) --------------------------------
    @property
    def state(self) -> Any:
        return self.kept.state

    @state.setter
    def state(self, value: Any) -> None:
        self.kept.state = value

    @property
    def action_ids(self) -> ActionIds:
        """The ids of the newest actions, which make a retry idempotent."""
        return self.kept.ids

    @action_ids.setter
    def action_ids(self, value: ActionIds) -> None:
        self.kept.ids = value

    # -- who is here --------------------------------------------------------
    @property
    def live(self) -> bool:
        return self.record.status == "live" and self.kept.has_state

    def _person_present(self, conn: Connection) -> bool:
        """Whether ``conn`` shows its seat's holder here: a takeover bot is not its person."""
        return not conn.stand_in or (conn.seat is not None and conn.seat in seats.bot_seats(self.record))

    def local_presence(self) -> tuple[int, frozenset[str]]:
        spectators = len(self.connections.watching)
        here = frozenset(c.seat for c in self.connections.seated if c.seat is not None and self._person_present(c))
        return spectators, here

    def presence(self) -> tuple[int, frozenset[str]]:
        return self.attendance.total(self.local_presence())

    def table_dict(self) -> dict[str, Any]:
        spectators, here = self.presence()
        return table_out(self.record, here, spectators, self.clock.stand_ins).model_dump(mode="json")

    def _runner_seats(self) -> frozenset[str]:
        return seats.runner_seats(self.record)

    def seat_for_token(self, token: str) -> tuple[str, str] | None:
        return seats.seat_for_token(self.record, self.settings.bot_key, self.clock.stand_ins, token)

    def player_name(self, seat: str | None) -> str:
        return seats.player_name(self.record, seat)

    # -- messages (play/frames.py builds the welcome and the updates) ------------------------
    async def resync(self, conn: Connection, last_seq: int | None) -> None:
        """``conn``'s view went wrong (a patch whose ``view_hash`` did not match, a missing
        update): a welcome again, the whole view and the updates it did not take."""
        async with self.lock:
            if conn.closed or conn not in self.connections:
                return
            side = self.side_watch
            if side is not None and conn in side:
                frames.welcome(self, conn, await side.missed(conn, last_seq))
            else:
                frames.welcome(self, conn, await self._missed(conn.seat, last_seq))
            if self.record.status == "finished":
                conn.send(self.finished_message())

    def finished_message(self) -> dict[str, Any]:
        return protocol.finished(self.record.outcome, self.record.seed_hex)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = protocol.dumps(message)
        for conn in list(self.connections):
            conn.send_text(text)

    def broadcast_presence(self) -> None:
        frames.presence(self, *self.presence())

    # -- connecting ---------------------------------------------------------
    async def attach(self, conn: Connection, last_seq: int | None, watch: str | None = None) -> None:
        """``conn`` joins (``watch``: a spectator with that side, which ws.py checked is allowed)."""
        async with self.lock:
            if self.tables.replicated() and self.live:
                # A worker that died between its commit and its publish took that news with
                # it: never welcome anyone behind what the database holds.  With the database
                # away, what this worker holds is still the best there is.
                try:
                    await self._catch_up()
                except Exception as exc:
                    log.warning("table %s: cannot read the log to catch up (%s)", self.id, exc)
            side = self.side_watch
            if watch is not None and side is not None:
                missed = await side.attach(conn, watch, last_seq, self.record, self.state, self.seq)
            else:
                missed = await self._missed(conn.seat, last_seq)
            if conn.seat in self.clock.stand_ins and not conn.stand_in:
                takeover.hand_back(self, conn.seat)
            self.connections.add(conn)
            self.tables.metrics.connections.labels("spectator" if conn.seat is None else "seat").inc()
            if self._evict is not None:
                self._evict.cancel()
                self._evict = None
            # The clocks first: the welcome carries the deadline this arrival may have started.
            self.reschedule()
            frames.welcome(self, conn, missed)
            if self.record.status == "finished":
                conn.send(self.finished_message())
            self.attendance.dirty(local=True)
        await self.talk.send_history([conn])

    async def detach(self, conn: Connection) -> None:
        if conn not in self.connections:
            return
        self.forget(conn)
        self._presence_changed()
        if not self.connections:
            self._rest()
            self._evict = asyncio.get_running_loop().call_later(30.0, self.tables.evict_if_idle, self.id)

    def _rest(self) -> None:
        """Nobody is connected: let go of what only speeds up the next frames (issue 15 point 4),
        the ring of recent steps (a reconnect reads its missed steps from the stored log, where
        every committed one already is), and the state and the newest action ids, kept
        compressed until read again (play/resting.py)."""
        self.backlog.ring.clear()
        self.talk.forget_histories()
        self.kept.rest()

    def forget(self, conn: Connection) -> None:
        """``conn`` is gone; a seat left with no connection is away from now on."""
        self.connections.discard(conn)
        if self.side_watch is not None:
            self.side_watch.forget(conn)
        self.tables.metrics.connections.labels("spectator" if conn.seat is None else "seat").dec()
        if (
            conn.seat is not None
            and self._person_present(conn)
            and not any(c.seat == conn.seat and self._person_present(c) for c in self.connections.seated)
        ):
            self.clock.left_at[conn.seat] = time.time()

    def _presence_changed(self) -> None:
        """Who is here changed: the clocks at once (a seat that left is now answered for after
        the prompt timeout), the presence frames coalesced (play/attendance.py)."""
        self.reschedule()
        self.attendance.dirty(local=True)

    def _flush_presence(self, publish: bool) -> None:
        """The presence frame ``Attendance`` coalesced, and the bus message when ``publish``."""
        self.broadcast_presence()
        if publish:
            self.tables.publish(self.id, self.local_presence_message())

    # -- chat (play/chat.py: who may say and read what) ---------------------------
    def seating(self) -> chat.Seating:
        holders = {s.seat: s.player_id for s in self.record.seats}
        return chat.Seating.of(holders, self._sides, over=self.record.status == "finished")

    async def chat(self, conn: Connection, text: str, to: str | None) -> None:
        await self.talk.say(conn, text, to, self.seq)

    def deliver_chat(self, message: dict[str, Any]) -> None:
        """A line said on another worker, to the connections here that may read it."""
        self.talk.deliver(message)

    # -- the past (play/backlog.py) -----------------------------------------------
    async def _missed(self, seat: str | None, last_seq: int | None) -> list[dict[str, Any]]:
        if last_seq is None or last_seq >= self.seq or self.state is None:
            return []
        if self.seq - last_seq > self.settings.missed_from_db_limit:
            return []  # too far behind: the fresh view in the welcome is enough
        return await self.backlog.entries(seat, last_seq, self.seq)

    async def history(self, conn: Connection, before: int | None, limit: int) -> None:
        """A page of the table's past as ``conn``'s seat may see it (events filtered by their
        ``to``, exactly as they were sent live), so a reload or a late spectator shows the
        whole game's log from the first action."""
        seat, top = conn.seat, self.seq
        if self.side_watch is not None and conn in self.side_watch:
            seat, top = self.side_watch.reading(conn)  # never past the released step (-1: none)
        conn.send(await self.backlog.page(self.record, seat, top, before, limit))

    # -- the master ---------------------------------------------------------
    def _refuse(self, conn: Connection | None, aid: str, code: str, message: str) -> None:
        """Every refusal of an action goes out here: counted by code, one log line, and told
        to the sender (none for the server's own timeout answers)."""
        self.tables.metrics.refused.labels(code).inc()
        log.info("table %s: refused an action at seq %s: %s", self.id, self.seq, code,
                 extra={"table": self.id, "seq": self.seq, "code": code})  # fmt: skip
        if conn is not None:
            conn.send(protocol.rejected(aid, code, message, self.seq, refusal_rule(self.game, code)))

    async def act(self, conn: Connection, msg: protocol.Act) -> None:
        arrived = time.perf_counter()
        aid = msg.action_id
        if conn.seat is None:
            self._refuse(conn, aid, "not_a_seat", "Spectators cannot act; join a seat to play.")
            return
        async with self.lock:
            if conn.closed:
                return
            if conn.stand_in and conn.seat not in self.clock.stand_ins and conn.seat not in self._runner_seats():
                self._refuse(conn, aid, "handed_back", "The seat's player is back; the bot has stopped.")
                return
            if not conn.stand_in and conn.seat in self.clock.stand_ins:
                takeover.hand_back(self, conn.seat)  # the person acts: they are back, and this action is theirs
            if self.record.status != "live" or self.state is None:
                if self.record.status == "finished":
                    self._refuse(conn, aid, "game_over", "The game is over.")
                else:
                    self._refuse(conn, aid, "not_started", "The game has not started yet.")
                return
            prior = self.action_ids.get(aid)
            if prior is not None:
                self._answer_retry(conn, aid, prior)
                return
            if msg.seq != self.seq:
                self._refuse(conn, aid, "stale", f"The table moved on (now at {self.seq}); look again and retry.")
                return
            try:
                action = check_action_shape(msg.action)
                transition = self.game.apply(self.state, conn.seat, action)
            except IllegalAction as exc:
                self._refuse(conn, aid, exc.code, exc.message)
                return
            except Exception:
                log.exception("table %s: the rules engine failed on an action", self.id,
                              extra={"table": self.id, "seq": self.seq})  # fmt: skip
                self._refuse(conn, aid, "engine_error", "The rules engine could not apply that.")
                return
            await self.commit(conn.seat, action, aid, transition, conn=conn, auto=False, arrived=arrived)

    def _answer_retry(self, conn: Connection, aid: str, prior: tuple[int, str]) -> None:
        seq, seat = prior
        if seat == conn.seat:
            conn.send(protocol.ack(aid, seq))
        else:
            self._refuse(conn, aid, "duplicate_action_id", "That action id was already used.")

    async def commit(
        self,
        seat: str,
        action: dict[str, Any],
        aid: str,
        transition: Transition[Any],
        *,
        conn: Connection | None,
        auto: bool,
        arrived: float | None = None,
    ) -> bool:
        """Make the action durable, then answer and tell everyone; False when it was refused."""
        arrived = time.perf_counter() if arrived is None else arrived
        metrics = self.tables.metrics
        seq = self.seq + 1
        settings = self.settings
        item = log_write(self.game, self.id, seq, seat, action, aid, transition, auto=auto,
                         snapshot_every=settings.snapshot_every, hash_every=settings.hash_every,
                         hash_all=self.tables.replicated())  # fmt: skip
        digest = item.state_hash
        try:
            await self.tables.writer.commit(item)
        except Conflict:
            # Another worker committed this seq first: catch up, then answer.
            await self._catch_up()
            if conn is not None:
                prior = self.action_ids.get(aid)
                if prior is not None:
                    self._answer_retry(conn, aid, prior)
                else:
                    self._refuse(conn, aid, "stale", f"The table moved on (now at {self.seq}).")
            return False
        except Unsavable as exc:
            log.warning("table %s: the database refused action %s: %s", self.id, seq, exc,
                        extra={"table": self.id, "seq": seq})  # fmt: skip
            self._refuse(conn, aid, "unsavable", "The server cannot store that action as sent.")
            return False
        except Exception:
            metrics.db_errors.inc()
            log.exception("table %s: commit failed at seq %s", self.id, seq, extra={"table": self.id, "seq": seq})
            self._refuse(conn, aid, "unavailable", "The server could not save that; try again.")
            return False
        committed = time.perf_counter()
        metrics.commit_seconds.observe(committed - arrived)
        metrics.actions.labels(self.game.name).inc()
        if auto:
            metrics.timeouts.inc()
        if conn is not None:  # the ack goes out with the actor's update, in one write
            conn.hold(protocol.dumps(protocol.ack(aid, seq)))
        try:
            seated = self._advance(transition, seat, aid, auto)
        finally:
            if conn is not None:
                conn.release()
        metrics.fanout_seconds.observe(time.perf_counter() - committed)
        metrics.seats_seconds.observe(seated - arrived)
        self.tables.publish(
            self.id,
            {
                "kind": "action",
                "seq": seq,
                "seat": seat,
                "action": action,
                "action_id": aid,
                "auto": auto,
                "hash": digest,
            },
        )
        return True

    def _advance(self, transition: Transition[Any], seat: str, aid: str, auto: bool) -> float:
        """The state moves to the next committed seq; everyone hears of it.  Returns when (the
        ``perf_counter``) the last seat's update was handed to its socket."""
        self.state = transition.state
        self.seq += 1
        self.record.seq = self.seq
        self.action_ids[aid] = (self.seq, seat)
        if len(self.action_ids) > RECENT_ACTION_IDS:  # the oldest goes (store/records.py)
            del self.action_ids[next(iter(self.action_ids))]
        applied = Applied(self.seq, seat, aid, auto, tuple(transition.events))
        self.backlog.ring.append(applied)
        self.clock.moved_on()
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self.record.status = "finished"
            self.record.outcome = outcome.as_dict()
            log.info("table %s: finished at seq %s (%s)", self.id, self.seq, outcome.result,
                     extra={"table": self.id, "seq": self.seq, "result": outcome.result})  # fmt: skip
        self.clock.refresh(self.state, self.live, actor=seat)
        self.reschedule()
        seated = frames.fan_out(self, applied)
        if outcome is not None:
            self.broadcast(self.finished_message())
            # The spectators' channel opens to the seats now that the game is over.
            self.tables.spawn(self.talk.send_history(list(self.connections.seated)))
        return seated

    async def catch_up(self) -> None:
        """Read what other workers committed that this replica has not heard of."""
        async with self.lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Apply actions other workers committed (called with the lock held)."""
        if self.state is None:
            return
        rows = await asyncio.to_thread(self.tables.repo.actions_after, self.id, self.seq)
        try:
            for step in replay_log(self.game, self.state, rows, after=self.seq):
                row = rows[step.seq - rows[0].seq]
                self._advance(step.transition, row.seat, row.action_id, row.by_timeout)
        except (ReplayMismatch, IllegalAction) as exc:
            log.error("table %s: replica diverged (%s); reloading", self.id, exc)
            await self._reload()

    async def _reload(self) -> None:
        await self._replace(*await self.tables.build(self.id))

    async def _replace(self, load: PlayLoad, state: Any, seq: int) -> None:
        """The state was replaced (reloaded, or the game started): everyone is welcomed again,
        the side spectators after their window was rebuilt."""
        self.record, self.state, self.seq = load.table, state, seq
        self.action_ids = dict(load.action_ids)
        self.backlog.ring.clear()
        self.clock.refresh(self.state, self.live, actor=None)
        self.reschedule()
        if self.side_watch is not None:
            self.side_watch.reset()
            if self.side_watch.watchers:
                await self.side_watch.ensure(self.record, self.state, self.seq)
        for conn in list(self.connections):
            frames.welcome(self, conn, [])

    # -- from other workers ---------------------------------------------------
    async def remote_action(self, msg: dict[str, Any]) -> None:
        async with self.lock:
            seq = int(msg.get("seq", 0))
            if seq <= self.seq or not self.live:
                return
            if seq > self.seq + 1:
                await self._catch_up()
                return
            # Replicating workers hash every action (``record.log_write``): one without is not trusted.
            entry = LogEntry(seq, msg["seat"], msg["action"], msg.get("hash") or "")
            try:
                [step] = replay_log(self.game, self.state, [entry], after=self.seq)
            except Exception as exc:
                log.error("table %s: remote action %s does not replay (%s); reloading", self.id, seq, exc)
                await self._reload()
                return
            self._advance(step.transition, msg["seat"], msg["action_id"], bool(msg.get("auto")))

    def remote_presence(self, origin: str, spectators: int, connected: list[str]) -> None:
        self.attendance.heard(origin, spectators, connected)
        self.reschedule()
        self.attendance.dirty(local=False)

    def forget_silent_workers(self, heard_after: float) -> None:
        """A worker that has not told its presence since ``heard_after`` is gone (killed, cut
        off): its seats are away from now, so the clocks answer for them."""
        gone = self.attendance.forget_silent(heard_after)
        if not gone:
            return
        now = time.time()
        for held in gone:
            for seat in held:
                self.clock.left_at[seat] = now
        self.reschedule()
        self.attendance.dirty(local=False)

    def local_presence_message(self) -> dict[str, Any]:
        spectators, here = self.local_presence()
        return {"kind": "presence", "spectators": spectators, "connected": sorted(here)}

    async def lobby_changed(self) -> None:
        """Seats or status changed through the REST API (here or on another worker)."""
        async with self.lock:
            was_open = self.record.status == "open"
            load, state, seq = await self.tables.build(self.id)
            self.record = load.table
            valid = {s.seat: s.token_hash for s in self.record.seats}
            dropped = False
            for conn in list(self.connections):
                # A seat given up, or taken over with a new token, drops its old connections.
                if conn.stand_in:
                    gone = conn.seat not in self._runner_seats() and conn.seat not in self.clock.stand_ins
                else:
                    gone = conn.seat is not None and not constant_time_equal(valid.get(conn.seat), conn.token_hash)
                if gone:
                    conn.send(protocol.error("bad_token", "This seat is no longer yours."))
                    conn.close(CLOSE_BAD_TOKEN)
                    self.forget(conn)
                    dropped = True
            if dropped:
                # The seat is away from now: its clock must run even if nobody else moves.
                self._presence_changed()
            if was_open and self.record.status != "open":
                await self._replace(load, state, seq)
            else:
                self.broadcast(protocol.table(self.table_dict()))

    # -- the seat clock (play/seatclock.py) ----------------------------------------
    @property
    def stand_ins(self) -> dict[str, str]:
        """Takeovers on (issue 12): seat -> the level of the bot playing for its absent person."""
        return self.clock.stand_ins

    @property
    def side_clock(self) -> SideClock:
        return self.clock.side_clock

    @property
    def _no_default(self) -> set[str]:
        """Seats the server cannot answer for at this seq (tests/play/test_auto_backoff.py)."""
        return self.clock.no_default

    def reschedule(self) -> None:
        self.clock.reschedule(self.record, self.state, self.live, self.presence(), seats.bot_seats(self.record))

    def _fire(self) -> None:
        self.tables.spawn(takeover.on_timer(self))

    def close(self) -> None:
        self.clock.close()
        self.attendance.close()
        if self._evict is not None:
            self._evict.cancel()
