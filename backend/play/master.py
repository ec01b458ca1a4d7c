"""One live table: its state, its serial master, its connections and timers.

Per table everything that changes the state runs under one asyncio lock:

    seat from the token → stale seq → action_id idempotency → validate/apply
    → COMMIT (group commit, durable) → ack → each connection's own update

Nobody hears of an action before it is on disk.  The state is only ever the
replay of the committed log (snapshots are a verified cache), so a restarted
server rebuilds every table at its last committed seq.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from backend.config import Settings
from backend.engine.core import (
    Event,
    Game,
    IllegalAction,
    PromptSeats,
    Sides,
    Transition,
    TurnClock,
    check_action_shape,
)
from backend.engine.replay import LogEntry, ReplayMismatch, hash_and_text, replay_log
from backend.engine.rulerefs import refusal_rule
from backend.lobby.schemas import table_out
from backend.store.repository import (
    ActionWrite,
    ChatRecord,
    Conflict,
    LoggedEvent,
    PlayLoad,
    Repository,
    TableRecord,
    Unsavable,
    constant_time_equal,
    token_hash,
)
from backend.store.writer import CommitWriter

from . import chat, protocol
from .audience import Audience
from .botauth import stand_in_seat
from .hub import CLOSE_BAD_TOKEN, CLOSE_HANDED_BACK, Connection
from .metrics import Metrics
from .record import start_transition
from .sidewatch import SideStreams
from .timers import SideClock, seat_deadlines

log = logging.getLogger("dragontable.play")


class BadToken(Exception):
    pass


def _utc(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def chat_message(line: ChatRecord) -> dict[str, Any]:
    """A kept line as the ``chat`` message it was sent as."""
    message = protocol.chat(line.from_name, line.from_seat, line.text, line.at.timestamp(), line.channel)
    return {**message, "system": True} if line.system else message


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


@dataclass(slots=True)
class Applied:
    seq: int
    by: str
    action_id: str
    auto: bool
    events: tuple[Event, ...]


class TableRuntime:
    def __init__(self, tables: TableHost, game: Game[Any], load: PlayLoad, state: Any, seq: int) -> None:
        self.tables = tables
        self.settings = tables.settings
        self.game = game
        self.record: TableRecord = load.table
        self.id = self.record.id
        self.static = game.static_info(self.record.options)
        self._prompt_seats = game.prompt_seats if isinstance(game, PromptSeats) else None
        # A game's own per-turn side clock (Dorn's Real Day and Night), when it has one.
        self._turn_clock = game.turn_clock if isinstance(game, TurnClock) else None
        self._sides = game.sides(self.record.options) if isinstance(game, Sides) else None
        self.side_clock = SideClock()
        # Spectators watching from a side, whole rounds behind (issue 14.4): None unless allowed.
        self.side_watch = SideStreams.for_table(
            game, self.record.options, entries=self._entries, missed_limit=self.settings.missed_from_db_limit,
            read_log=lambda upto: asyncio.to_thread(tables.repo.actions_after, self.id, 0, upto),
        )  # fmt: skip
        self.state = state
        self.seq = seq
        self.action_ids: dict[str, tuple[int, str]] = dict(load.action_ids)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.ring: deque[Applied] = deque(maxlen=self.settings.missed_ring)
        now = time.time()
        self.since: dict[str, float] = {}
        self.left_at: dict[str, float] = {s.seat: now for s in self.record.seats}
        self.to_act: frozenset[str] = frozenset()
        self.deadlines: dict[str, float] = {}
        # Other workers' connections to this table: origin -> (spectators, seats, when heard).
        self.remote: dict[str, tuple[int, frozenset[str], float]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._takeover_due: dict[str, float] = {}
        self._evict: asyncio.TimerHandle | None = None
        self._presence_timer: asyncio.TimerHandle | None = None
        self._presence_sent = float("-inf")
        self._presence_publish = False
        self._setup_events: tuple[Event, ...] | None = None
        # The server's own timeout answers that failed to save, and when to try again.
        self._auto_failures = 0
        self._auto_retry_at = 0.0
        # Seats whose time ran out but whose game offers no default at this seq.
        self._no_default: set[str] = set()
        # Takeovers (issue 12): seat -> the level of the bot playing for its absent person.
        self.stand_ins: dict[str, str] = {}
        self._refresh_to_act(actor=None)

    # -- who is here --------------------------------------------------------
    @property
    def live(self) -> bool:
        return self.record.status == "live" and self.state is not None

    def bot_seats(self) -> dict[str, str]:
        """Seats a bot holds (for the whole game), with its level."""
        return {s.seat: s.player_bot for s in self.record.seats if s.player_bot is not None}

    def runner_seats(self) -> frozenset[str]:
        """Bot seats the host gave the bot runner (a bot that joined by itself has its own token)."""
        return frozenset(s.seat for s in self.record.seats if s.player_runner)

    def _person_present(self, conn: Connection) -> bool:
        """Whether ``conn`` shows its seat's holder here: a takeover bot is not its person."""
        return not conn.stand_in or (conn.seat is not None and conn.seat in self.bot_seats())

    def local_presence(self) -> tuple[int, frozenset[str]]:
        spectators = sum(1 for c in self.connections if c.seat is None)
        seats = frozenset(c.seat for c in self.connections if c.seat is not None and self._person_present(c))
        return spectators, seats

    def presence(self) -> tuple[int, frozenset[str]]:
        spectators, seats = self.local_presence()
        for n, remote_seats, _heard in self.remote.values():
            spectators += n
            seats |= remote_seats
        return spectators, seats

    def table_dict(self) -> dict[str, Any]:
        spectators, seats = self.presence()
        return table_out(self.record, seats, spectators, self.stand_ins).model_dump(mode="json")

    def seat_for_token(self, token: str) -> tuple[str, str] | None:
        stand_in = stand_in_seat(self.settings.bot_key, self.id, [s.seat for s in self.record.seats], token)
        if stand_in is not None:
            # The runner may play a bot's seat, or a person's while the takeover is on.
            if stand_in in self.runner_seats() or stand_in in self.stand_ins:
                return stand_in, token_hash(token)
            return None
        wanted = token_hash(token)
        found = None
        for s in self.record.seats:  # constant time per seat, every seat checked
            if constant_time_equal(s.token_hash, wanted):
                found = (s.seat, wanted)
        return found

    def player_name(self, seat: str | None) -> str:
        if seat is None:
            return "spectator"
        for s in self.record.seats:
            if s.seat == seat:
                return s.player_name or s.label
        return seat

    # -- messages -----------------------------------------------------------
    def _view(self, seat: str | None) -> dict[str, Any] | None:
        if self.state is None:
            return None
        return self.game.view(self.state, seat, reveal=self.record.status == "finished")

    def _legal(self, seat: str | None) -> list[dict[str, Any]]:
        # Asked of every seat, on turn or not: a game may list what a seat may do at any time
        # (Dorn's surrender, content 5.9); ``to_act`` is who owes a decision (clocks, defaults).
        if seat is None or not self.live:
            return []
        return self.game.legal_actions(self.state, seat)

    def _deadline(self) -> float | None:
        return round(min(self.deadlines.values()), 3) if self.deadlines else None

    @staticmethod
    def _events_for(events: Iterable[Event], seat: str | None) -> list[dict[str, Any]]:
        return [e.as_dict() for e in events if e.visible_to(seat)]

    def welcome(self, seat: str | None, missed: list[dict[str, Any]]) -> dict[str, Any]:
        return protocol.welcome(self.table_dict(), seat, self.seq, self.static, self._view(seat),
                                self._legal(seat), sorted(self.to_act), self._deadline(), missed)  # fmt: skip

    def _welcome(self, conn: Connection, missed: list[dict[str, Any]]) -> None:
        """Send ``conn`` its welcome; one that takes patches keeps what it was sent to patch from."""
        if self.side_watch is not None and conn in self.side_watch:
            conn.send(self.side_watch.welcome(conn, self.table_dict(), self.static, missed))
            return
        message = self.welcome(conn.seat, missed)
        if self.side_watch is not None and conn.seat is None:
            message["side_watching"] = self.side_watch.offer()  # what a spectator may choose instead
        if conn.patches:
            conn.sent = {"v": message["view"], "l": message["legal"], "t": message["to_act"]}
        conn.send(message)

    async def resync(self, conn: Connection, last_seq: int | None) -> None:
        """``conn``'s view went wrong (a patch whose ``view_hash`` did not match, a missing
        update): a welcome again, the whole view and the updates it did not take."""
        async with self.lock:
            if conn.closed or conn not in self.connections:
                return
            side = self.side_watch
            if side is not None and conn in side:
                self._welcome(conn, await side.missed(conn, last_seq))
            else:
                self._welcome(conn, await self._missed(conn.seat, last_seq))
            if self.record.status == "finished":
                conn.send(self.finished_message())

    def finished_message(self) -> dict[str, Any]:
        return protocol.finished(self.record.outcome, self.record.seed_hex)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = protocol.dumps(message)
        for conn in list(self.connections):
            conn.send_text(text)

    def broadcast_presence(self) -> None:
        spectators, seats = self.presence()
        self.broadcast(protocol.presence(spectators, sorted(seats)))

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
            if conn.seat in self.stand_ins and not conn.stand_in:
                self._hand_back(conn.seat)
            self.connections.add(conn)
            self.tables.metrics.connections.labels("spectator" if conn.seat is None else "seat").inc()
            if self._evict is not None:
                self._evict.cancel()
                self._evict = None
            # The clocks first: the welcome carries the deadline this arrival may have started.
            self._reschedule()
            self._welcome(conn, missed)
            if self.record.status == "finished":
                conn.send(self.finished_message())
            self._presence_dirty()
        await self.send_chat_history([conn])

    async def detach(self, conn: Connection) -> None:
        if conn not in self.connections:
            return
        self._forget(conn)
        self._presence_changed()
        if not self.connections:
            self._evict = asyncio.get_running_loop().call_later(30.0, self.tables.evict_if_idle, self.id)

    def _forget(self, conn: Connection) -> None:
        """``conn`` is gone; a seat left with no connection is away from now on."""
        self.connections.discard(conn)
        if self.side_watch is not None:
            self.side_watch.forget(conn)
        self.tables.metrics.connections.labels("spectator" if conn.seat is None else "seat").dec()
        if (
            conn.seat is not None
            and self._person_present(conn)
            and not any(c.seat == conn.seat and self._person_present(c) for c in self.connections)
        ):
            self.left_at[conn.seat] = time.time()

    def _presence_changed(self) -> None:
        """Who is here changed: the clocks at once (a seat that left is now answered for after
        the prompt timeout), the presence frames coalesced (see ``_flush_presence``)."""
        self._reschedule()
        self._presence_dirty()

    def _presence_dirty(self, *, local: bool = True) -> None:
        """Presence changed (``local``: this worker's connections, which the bus must hear of)."""
        self._presence_publish |= local
        if self._presence_timer is not None:
            return  # a flush is already due
        wait = self._presence_sent + self.settings.presence_interval_seconds - time.monotonic()
        if wait <= 0:
            self._flush_presence()
        else:
            self._presence_timer = asyncio.get_running_loop().call_later(wait, self._flush_presence)

    def _flush_presence(self) -> None:
        """One presence frame to everyone (and one bus message) for every change since the
        last: at most one per ``presence_interval_seconds``, so an audience of n costs O(n)
        frames per interval however many arrive in it (spectators are a count, never a list)."""
        self._presence_timer = None
        self._presence_sent = time.monotonic()
        self.broadcast_presence()
        if self._presence_publish:
            self._presence_publish = False
            self.tables.publish(self.id, self.local_presence_message())

    # -- chat (play/chat.py: who may say and read what) ---------------------------
    def seating(self) -> chat.Seating:
        holders = {s.seat: s.player_id for s in self.record.seats}
        return chat.Seating.of(holders, self._sides, over=self.record.status == "finished")

    async def chat(self, conn: Connection, text: str, to: str | None) -> None:
        """Keep the line, then tell every connection that may read it, here and on the bus."""
        try:
            channel = self.seating().channel_for(conn.seat, to)
        except chat.ChatRefused as exc:
            conn.send(protocol.error(exc.code, exc.message))
            return
        at = time.time()
        try:
            await self._keep_line(ChatRecord(self.seq, channel, conn.name, conn.seat, text, False, _utc(at)))
        except Exception:
            log.exception("table %s: a chat line could not be kept", self.id, extra={"table": self.id})
            conn.send(protocol.error("unavailable", "The server could not keep that line; try again."))
            return
        message = protocol.chat(conn.name, conn.seat, text, at, channel)
        self.deliver_chat(message)
        self.tables.publish(self.id, {"kind": "chat", "message": message})

    async def _keep_line(self, line: ChatRecord) -> None:
        await asyncio.to_thread(self.tables.repo.add_chat_line, self.id, line)

    def deliver_chat(self, message: dict[str, Any]) -> None:
        """A line said here or on another worker (the bus) to the connections here that may
        read it; a line from a worker that knew no channels was said to the table."""
        seating = self.seating()
        channel, from_seat = message.get("channel", chat.TABLE), message.get("seat")
        text = protocol.dumps({**message, "channel": channel})
        for conn in list(self.connections):
            if seating.may_read(conn.seat, channel, from_seat):
                conn.send_text(text)

    async def send_chat_history(self, conns: Iterable[Connection]) -> None:
        """Each connection's ``chat_history``: the newest lines it may read, one read per seat."""
        seating = self.seating()
        texts: dict[str | None, str] = {}
        for conn in conns:
            text = texts.get(conn.seat)
            if text is None:
                try:
                    lines = await asyncio.to_thread(
                        self.tables.repo.chat_lines, self.id, sorted(seating.readable(conn.seat)),
                        sorted(seating.held(conn.seat)), chat.HISTORY_LINES,
                    )  # fmt: skip
                except Exception as exc:  # the live lines still come; the past waits for a reconnect
                    log.warning("table %s: cannot read the chat (%s)", self.id, exc)
                    return
                side = seating.side_of(conn.seat) if conn.seat is not None else None
                history = protocol.chat_history([chat_message(line) for line in lines], side)
                text = texts[conn.seat] = protocol.dumps(history)
            conn.send_text(text)

    async def _missed(self, seat: str | None, last_seq: int | None) -> list[dict[str, Any]]:
        if last_seq is None or last_seq >= self.seq or self.state is None:
            return []
        if self.seq - last_seq > self.settings.missed_from_db_limit:
            return []  # too far behind: the fresh view in the welcome is enough
        return await self._entries(seat, last_seq, self.seq)

    async def _entries(self, seat: str | None, after: int, upto: int) -> list[dict[str, Any]]:
        """The updates after seq ``after`` up to ``upto``, each with the events ``seat`` may see:
        from memory when the ring still holds them, otherwise from the stored log."""
        if self.ring and self.ring[0].seq <= after + 1:
            return [self._missed_entry(a, seat) for a in self.ring if after < a.seq <= upto]
        repo = self.tables.repo
        actions = await asyncio.to_thread(repo.actions_after, self.id, after, upto)
        events = await asyncio.to_thread(repo.events_between, self.id, after, upto)
        out = []
        for a in actions:
            evs = tuple(
                Event(e.kind, e.data, frozenset(e.to) if e.to is not None else None)
                for e in events.get(a.seq, [])
            )
            out.append(self._missed_entry(Applied(a.seq, a.seat, a.action_id, a.by_timeout, evs), seat))
        return out

    async def history(self, conn: Connection, before: int | None, limit: int) -> None:
        """A page of the table's past as ``conn``'s seat may see it (events filtered by their
        ``to``, exactly as they were sent live), so a reload or a late spectator shows the
        whole game's log from the first action."""
        seat, top = conn.seat, self.seq
        if self.side_watch is not None and conn in self.side_watch:
            seat, top = self.side_watch.reading(conn)  # never past the released step (-1: none)
        upto = top if before is None else min(before - 1, top)
        after = max(0, upto - limit)
        entries = await self._entries(seat, after, upto) if upto > 0 else []
        if after == 0 and upto >= 0 and self.record.seed_hex is not None and (before is None or before > 0):
            entries.insert(0, self._setup_entry(seat))
        conn.send(protocol.history(entries, complete=after == 0))

    def _setup_entry(self, seat: str | None) -> dict[str, Any]:
        """Seq 0: the setup's events (a first roll, its damage, the deal as counts), which
        explain every change the setup made; a pure function of the seed, made once."""
        if self._setup_events is None:
            r = self.record  # a fork's seq 0 tells where it came from (issue 14.5)
            assert r.seed_hex is not None
            start = start_transition(self.game, bytes.fromhex(r.seed_hex), r.options, r.origin, r.origin_state)
            self._setup_events = start.events
        return protocol.missed_update(0, self._events_for(self._setup_events, seat), None, None, False)

    def _missed_entry(self, applied: Applied, seat: str | None) -> dict[str, Any]:
        return protocol.missed_update(
            applied.seq, self._events_for(applied.events, seat), applied.by, applied.action_id, applied.auto
        )

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
            if conn.stand_in and conn.seat not in self.stand_ins and conn.seat not in self.runner_seats():
                self._refuse(conn, aid, "handed_back", "The seat's player is back; the bot has stopped.")
                return
            if not conn.stand_in and conn.seat in self.stand_ins:
                self._hand_back(conn.seat)  # the person acts: they are back, and this action is theirs
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
            await self._commit(conn.seat, action, aid, transition, conn=conn, auto=False, arrived=arrived)

    def _answer_retry(self, conn: Connection, aid: str, prior: tuple[int, str]) -> None:
        seq, seat = prior
        if seat == conn.seat:
            conn.send(protocol.ack(aid, seq))
        else:
            self._refuse(conn, aid, "duplicate_action_id", "That action id was already used.")

    def _proof_point(self, seq: int, snapshot: bool, finished: bool) -> bool:
        """Whether the state hash after ``seq`` is computed and recorded.

        A full canonical hash costs more than applying the action, so a lone
        worker records it every ``hash_every`` actions, at every snapshot and at
        the end: a restart replays from a checked snapshot and checks every
        recorded hash on the way; the export fills the others by replay, so
        ``verify`` still checks every roll.  Workers replicating a table over the
        bus hash every action, to prove their replicas agree at every step.
        """
        return snapshot or finished or seq % self.settings.hash_every == 0 or self.tables.replicated()

    async def _commit(
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
        outcome = self.game.outcome(transition.state)
        snapshot = seq % self.settings.snapshot_every == 0
        digest = text = None
        if self._proof_point(seq, snapshot, outcome is not None):
            digest, text = hash_and_text(self.game, transition.state)
        item = ActionWrite(
            table_id=self.id,
            seq=seq,
            seat=seat,
            action=action,
            action_id=aid,
            by_timeout=auto,
            state_hash=digest,
            events=[
                LoggedEvent(e.kind, dict(e.data), sorted(e.to) if e.to is not None else None)
                for e in transition.events
            ],
            snapshot=text if snapshot else None,
            outcome=outcome.as_dict() if outcome is not None else None,
        )
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
        if conn is not None:
            conn.send(protocol.ack(aid, seq))
        self._advance(transition, seat, aid, auto)
        metrics.fanout_seconds.observe(time.perf_counter() - committed)
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

    def _advance(self, transition: Transition[Any], seat: str, aid: str, auto: bool) -> None:
        """The state moves to the next committed seq; everyone hears of it."""
        self.state = transition.state
        self.seq += 1
        self.record.seq = self.seq
        self.action_ids[aid] = (self.seq, seat)
        applied = Applied(self.seq, seat, aid, auto, tuple(transition.events))
        self.ring.append(applied)
        self._no_default.clear()
        self._auto_failures, self._auto_retry_at = 0, 0.0
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self.record.status = "finished"
            self.record.outcome = outcome.as_dict()
            log.info("table %s: finished at seq %s (%s)", self.id, self.seq, outcome.result,
                     extra={"table": self.id, "seq": self.seq, "result": outcome.result})  # fmt: skip
        self._refresh_to_act(actor=seat)
        self._reschedule()
        self._fan_out(applied)
        if outcome is not None:
            self.broadcast(self.finished_message())
            # The spectators' channel opens to the seats now that the game is over.
            self.tables.spawn(self.send_chat_history([c for c in self.connections if c.seat is not None]))

    def _fan_out(self, applied: Applied) -> None:
        """Each audience's view and legal actions are built once, each distinct frame is encoded
        once and the same text goes to every connection it fits (all spectators share one); a
        connection that takes patches is sent what changed since what it was last sent, when
        that is shorter (play/audience.py)."""
        deadline = self._deadline()
        to_act = sorted(self.to_act)
        public = all(e.to is None for e in applied.events)
        shared_events = [e.as_dict() for e in applied.events] if public else None
        side = self.side_watch
        if side is not None:  # the steps this releases to side spectators, who get no live update
            side.on_step(applied, self.state, finished=self.record.status == "finished")
        audiences: dict[str | None, Audience] = {}
        # The seats first: their writers wake first, so a crowd of spectators (whose frames
        # go out after) does not stand between the players and the game (issue 15, point 5).
        conns = list(self.connections)
        for conn in [c for c in conns if c.seat is not None] + [c for c in conns if c.seat is None]:
            if side is not None and conn in side:
                continue
            seat = conn.seat
            audience = audiences.get(seat)
            if audience is None:
                events = self._events_for(applied.events, seat) if shared_events is None else shared_events
                audience = audiences[seat] = Audience(applied.seq, events, applied.by, applied.action_id, applied.auto,
                                                      self._view(seat), self._legal(seat), to_act, deadline)  # fmt: skip
            conn.send_text(audience.frame_for(conn))

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
        load, state, seq = await self.tables.build(self.id)
        self.record, self.state, self.seq = load.table, state, seq
        self.action_ids = dict(load.action_ids)
        self.ring.clear()
        self._refresh_to_act(actor=None)
        self._reschedule()
        await self._rebuild_side_watch()
        for conn in list(self.connections):
            self._welcome(conn, [])

    async def _rebuild_side_watch(self) -> None:
        """The state was replaced: the side spectators' window is rebuilt before their welcome."""
        if self.side_watch is not None:
            self.side_watch.reset()
            if self.side_watch.watchers:
                await self.side_watch.ensure(self.record, self.state, self.seq)

    # -- from other workers ---------------------------------------------------
    async def remote_action(self, msg: dict[str, Any]) -> None:
        async with self.lock:
            seq = int(msg.get("seq", 0))
            if seq <= self.seq or not self.live:
                return
            if seq > self.seq + 1:
                await self._catch_up()
                return
            # Replicating workers hash every action (``_proof_point``): one without is not trusted.
            entry = LogEntry(seq, msg["seat"], msg["action"], msg.get("hash") or "")
            try:
                [step] = replay_log(self.game, self.state, [entry], after=self.seq)
            except Exception as exc:
                log.error("table %s: remote action %s does not replay (%s); reloading", self.id, seq, exc)
                await self._reload()
                return
            self._advance(step.transition, msg["seat"], msg["action_id"], bool(msg.get("auto")))

    def remote_presence(self, origin: str, spectators: int, connected: list[str]) -> None:
        self.remote[origin] = (int(spectators), frozenset(connected), time.monotonic())
        self._reschedule()
        self._presence_dirty(local=False)

    def forget_silent_workers(self, heard_after: float) -> None:
        """A worker that has not told its presence since ``heard_after`` is gone (killed, cut
        off): its seats are away from now, so the clocks answer for them."""
        gone = [origin for origin, (_n, _s, heard) in self.remote.items() if heard < heard_after]
        if not gone:
            return
        now = time.time()
        for origin in gone:
            for seat in self.remote.pop(origin)[1]:
                self.left_at[seat] = now
        self._reschedule()
        self._presence_dirty(local=False)

    def local_presence_message(self) -> dict[str, Any]:
        spectators, seats = self.local_presence()
        return {"kind": "presence", "spectators": spectators, "connected": sorted(seats)}

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
                    gone = conn.seat not in self.runner_seats() and conn.seat not in self.stand_ins
                else:
                    gone = conn.seat is not None and not constant_time_equal(valid.get(conn.seat), conn.token_hash)
                if gone:
                    conn.send(protocol.error("bad_token", "This seat is no longer yours."))
                    conn.close(CLOSE_BAD_TOKEN)
                    self._forget(conn)
                    dropped = True
            if dropped:
                # The seat is away from now: its clock must run even if nobody else moves.
                self._presence_changed()
            if was_open and self.record.status != "open":
                self.state, self.seq = state, seq
                self.action_ids = dict(load.action_ids)
                self._refresh_to_act(actor=None)
                self._reschedule()
                await self._rebuild_side_watch()
                for conn in list(self.connections):
                    self._welcome(conn, [])
            else:
                self.broadcast(protocol.table(self.table_dict()))

    # -- timers -------------------------------------------------------------
    def _refresh_to_act(self, actor: str | None) -> None:
        now = time.time()
        new = self.game.to_act(self.state) if self.live else frozenset()
        # A seat's clock runs from when it was asked; others acting do not reset it.
        self.since = {
            s: (self.since[s] if s in self.to_act and s != actor and s in self.since else now) for s in new
        }
        self.to_act = frozenset(new)
        if self._turn_clock is not None:
            self.side_clock.update(self._turn_clock(self.state) if self.live else None, now)

    def _reschedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        spectators, connected = self.presence()
        bots = self.bot_seats()
        # Clocks run while a person is here: a table of bots whose people left waits for them.
        if not self.live or not (connected - bots.keys() or spectators):
            self.deadlines = {}
            self._takeover_due = {}
            return
        self._takeover_due = self._takeovers_due(connected, bots)
        if self._prompt_seats is not None:
            prompted = frozenset(self._prompt_seats(self.state))
        else:
            prompted = self.to_act if len(self.to_act) > 1 else frozenset()
        self.deadlines = seat_deadlines(
            self.to_act - self._no_default,
            prompted,
            self.since,
            connected,
            self.left_at,
            self.record.prompt_timeout_seconds,
            self.record.turn_clock_seconds,
        )
        side_due = self.side_clock.deadline()
        if side_due is not None:
            for seat in (self.to_act & self.side_clock.seats) - self._no_default:
                self.deadlines[seat] = min(self.deadlines.get(seat, side_due), side_due)
        dues = list(self._takeover_due.values())
        if self.deadlines:
            dues.append(max(min(self.deadlines.values()), self._auto_retry_at))
        if dues:
            delay = max(0.0, min(dues) - time.time())
            self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self.tables.spawn(self._on_timer())

    async def _on_timer(self) -> None:
        async with self.lock:
            now = time.time()
            for seat, due in sorted(self._takeover_due.items()):
                if due <= now + 0.05:
                    self._take_over(seat)
        await self._answer_for_late_seats()

    # -- takeover (issue 12, point 5) --------------------------------------------
    def _takeovers_due(self, connected: frozenset[str], bots: dict[str, str]) -> dict[str, float]:
        """When each away person gets a bot: ``takeover_after_seconds`` after they left (the
        bot waits for the seat's turn; the table hears at once who plays for whom).  None for a
        table whose takeover is off, nor for a bot's own seat."""
        if self.record.takeover == "off":
            return {}
        after = self.settings.takeover_after_seconds
        now = time.time()
        return {
            s.seat: self.left_at.get(s.seat, now) + after
            for s in self.record.seats
            if s.player_id is not None
            and s.seat not in connected
            and s.seat not in bots
            and s.seat not in self.stand_ins
        }

    def _take_over(self, seat: str) -> None:
        """A bot plays ``seat`` until its person is back (called with the lock held)."""
        if self.record.takeover == "off" or seat in self.stand_ins or seat in self.bot_seats() or not self.live:
            return
        self.stand_ins[seat] = self.record.takeover
        log.info("table %s: a %s bot plays for %s", self.id, self.record.takeover, seat,
                 extra={"table": self.id, "seat": seat})  # fmt: skip
        self._announce(f"A bot is playing for {self.player_name(seat)}.")
        self._reschedule()

    def _hand_back(self, seat: str) -> None:
        """The person is back: the bot stops at once (called with the lock held, so an answer
        the bot is still working out arrives after this and is refused: no double action)."""
        if self.stand_ins.pop(seat, None) is None:
            return
        for conn in list(self.connections):
            if conn.stand_in and conn.seat == seat:
                conn.send(protocol.error("handed_back", "The seat's player is back."))
                conn.close(CLOSE_HANDED_BACK)
                self._forget(conn)
        self._announce(f"{self.player_name(seat)} is back; the bot has stopped playing for them.")

    def _announce(self, text: str) -> None:
        """The table's own line, to everyone at once (its place among the updates tells when),
        and kept for those who arrive later."""
        at = time.time()
        self.broadcast(protocol.announcement(text, at))
        self.broadcast(protocol.table(self.table_dict()))
        line = ChatRecord(self.seq, chat.TABLE, protocol.ANNOUNCER, None, text, True, _utc(at))
        self.tables.spawn(self._keep_announcement(line))

    async def _keep_announcement(self, line: ChatRecord) -> None:
        try:
            await self._keep_line(line)
        except Exception as exc:
            log.warning("table %s: an announcement could not be kept (%s)", self.id, exc)

    def auto_action_id(self, seat: str) -> str:
        """The id of the server's own answer for ``seat`` at the next seq.

        Deterministic, so that workers racing to answer for the same seat commit it once; in
        a namespace clients cannot write (their ids may not contain ':', play/protocol.py).
        An id a client stored before that rule is stepped over, never collided with.
        """
        aid = base = f"auto:{self.seq + 1}:{seat}"
        n = 1
        while aid in self.action_ids:
            aid, n = f"{base}:{n}", n + 1
        return aid

    async def _answer_for_late_seats(self) -> None:
        async with self.lock:
            now = time.time()
            late = sorted(s for s, t in self.deadlines.items() if t <= now + 0.05)
            for seat in late:
                if not self.live or seat not in self.to_act:
                    continue
                action = self._time_up(seat, now)
                if action is None:
                    # A person who let the clock run out gets a bot from the next decision on.
                    self._take_over(seat)
                    action = self.game.default_action(self.state, seat)
                if action is None:
                    self._no_default.add(seat)
                    continue
                try:
                    transition = self.game.apply(self.state, seat, action)
                except IllegalAction:
                    log.exception("table %s: default action for %s is illegal", self.id, seat)
                    self._no_default.add(seat)
                    continue
                seq = self.seq
                if await self._commit(seat, action, self.auto_action_id(seat), transition, conn=None, auto=True):
                    self._auto_failures = 0
                elif self.seq == seq:
                    self._auto_failed(seat)
                    break
            self._reschedule()

    def _time_up(self, seat: str, now: float) -> dict[str, Any] | None:
        """The game's ``time_up`` when ``seat``'s side has spent its turn clock (engine/core.py
        ``TurnClock``): a rule of the game, not an absence, so no bot takes the seat over."""
        due = self.side_clock.deadline()
        if due is None or due > now + 0.05 or seat not in self.side_clock.seats:
            return None
        action: dict[str, Any] = {"type": "time_up"}
        return action if action in self.game.legal_actions(self.state, seat) else None

    def _auto_failed(self, seat: str) -> None:
        """A timeout answer that could not be saved is tried again later, never in a loop:
        after a pause that doubles each time, and not at all after ``auto_retry_limit`` tries
        (until the table moves on)."""
        self._auto_failures += 1
        if self._auto_failures >= self.settings.auto_retry_limit:
            log.error("table %s: giving up answering for %s at seq %s", self.id, seat, self.seq)
            self._no_default.add(seat)
            self._auto_failures = 0
            return
        pause = min(self.settings.auto_retry_max_seconds, 0.25 * 2**self._auto_failures)
        self._auto_retry_at = time.time() + pause

    def close(self) -> None:
        for handle in (self._timer, self._evict, self._presence_timer):
            if handle is not None:
                handle.cancel()
