"""Watching from a side, whole rounds behind (issue 14.4; docs/protocol.md "Watching from a side").

A table whose game offers it (``WatchSides`` in backend/engine/core.py) may let spectators watch
*with* a side: they get the view of that side's seat, its hidden cards included, but only as the
table stood when round r - N began while the table plays round r (N full rounds, the table's
option; Dorn's ruling W1).  Nothing they see can help a player then, however they pass it on.

The one rule this module keeps: no frame to a side spectator is about a step newer than the
released one (the step that began round r - N).  Not the welcome, not a reconnect's ``missed``
(a ``last_seq`` ahead of the released step gets only what is released), not a history page.
Released steps go out in order, each with the events that side's seat was sent live, the last
one with the view.  The public stream is untouched.  Once the game is over everything is
released: the replay reveals it all anyway.

Memory, per table and only once someone has watched it from a side: the state at the start of
each round not released yet (N of them, references: ``apply`` never mutates a state) and the
steps after the released one, whose events go out when they are released.  The first side
spectator has them built by replaying the log from the seed (a 1000-step Dorn game in about
0.2 s, off the event loop); they are kept until the table is unloaded, so a spectator who comes
and goes never makes the server replay the game again.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from backend.engine.core import Event, Game, SideWatching, WatchSides
from backend.engine.replay import replay_log
from backend.store.repository import LoggedAction, TableRecord

from . import protocol
from .hub import Connection

# The updates after seq ``after`` up to ``upto`` as ``seat`` was sent them (backlog.py: the ring, then the log).
Entries = Callable[[str, int, int], Awaitable[list[dict[str, Any]]]]
# The table's stored log up to a seq (the master reads it from the repository).
ReadLog = Callable[[int], Awaitable[list[LoggedAction]]]


class StepLike(Protocol):
    """One committed step as the master keeps it (its ``Applied`` fits)."""

    @property
    def seq(self) -> int: ...
    @property
    def by(self) -> str | None: ...
    @property
    def action_id(self) -> str | None: ...
    @property
    def auto(self) -> bool: ...
    @property
    def events(self) -> tuple[Event, ...]: ...


@dataclass(frozen=True, slots=True)
class Step:
    """A step rebuilt by replay (seq 0 is the setup: no seat, no action id)."""

    seq: int
    by: str | None
    action_id: str | None
    auto: bool
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class RoundStart:
    """The state a round began with: after the step ``seq`` that opened it (seq 0: the setup)."""

    round: int
    seq: int
    state: Any


@dataclass(slots=True)
class _Window:
    """What the streams hold between the released step and the live one."""

    live_round: int
    live_seq: int
    starts: deque[RoundStart]  # rounds begun and not released yet, oldest first
    pending: deque[StepLike]  # the steps after the released one, in order
    released: RoundStart | None = None
    finished: bool = False


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a hello asking to watch from a side is refused: a stable code, a player's words."""

    code: str
    message: str


def refusal(game: Game[Any], options: Mapping[str, Any], side: str, *, seated: bool) -> Refusal | None:
    """Why a hello asking to watch ``side`` is refused, or None when the table allows it."""
    if seated:
        return Refusal(
            "watch_seated", "A seat plays live; only spectators watch from a side (hello without a token)."
        )
    if not isinstance(game, WatchSides):
        return Refusal("watch_refused", f"{game.title} tables offer no watching from a side.")
    rules = game.side_watching(options)
    if side not in rules.seats:
        sides = ", ".join(sorted(rules.seats))
        return Refusal(
            "unknown_side", f"There is no side {side[:32]!r} to watch; this table's sides are {sides}."
        )
    if side not in rules.allowed:
        if not rules.allowed:
            return Refusal(
                "watch_refused", "This table does not let spectators watch from a side; watch live instead."
            )
        only = " or ".join(sorted(rules.allowed))
        return Refusal("watch_refused", f"This table lets spectators watch only with the {only}.")
    return None


class SideStreams:
    """One table's delayed streams, one per watched side (all spectators of a side share it)."""

    def __init__(
        self, game: Game[Any], watch: WatchSides[Any], rules: SideWatching, *, entries: Entries,
        read_log: ReadLog, missed_limit: int,
    ) -> None:  # fmt: skip
        self.game = game
        self.watch = watch
        self.rules = rules
        self.watchers: dict[Connection, str] = {}
        self._entries = entries
        self._read_log = read_log
        self._missed_limit = missed_limit
        self._window: _Window | None = None

    @classmethod
    def for_table(
        cls,
        game: Game[Any],
        options: Mapping[str, Any],
        *,
        entries: Entries,
        read_log: ReadLog,
        missed_limit: int,
    ) -> SideStreams | None:
        """The streams of a table whose options allow watching from a side; None otherwise."""
        if not isinstance(game, WatchSides):
            return None
        rules = game.side_watching(options)
        if not rules.allowed:
            return None
        return cls(game, game, rules, entries=entries, read_log=read_log, missed_limit=missed_limit)

    def offer(self) -> dict[str, Any]:
        """What a spectator's welcome says this table offers (docs/protocol.md)."""
        return {"sides": sorted(self.rules.allowed), "rounds": self.rules.rounds}

    # -- who watches ------------------------------------------------------------
    def __contains__(self, conn: object) -> bool:
        return conn in self.watchers

    def forget(self, conn: Connection) -> None:
        """``conn`` left (the window stays: see the module's docstring)."""
        self.watchers.pop(conn, None)

    def reset(self) -> None:
        """The table's state was replaced (it started, or a replica reloaded): rebuild on next use."""
        self._window = None

    def reading(self, conn: Connection) -> tuple[str, int]:
        """The seat whose events ``conn`` reads and the newest seq it may read (-1: none yet)."""
        released = self._window.released if self._window is not None else None
        return self.rules.seats[self.watchers[conn]], -1 if released is None else released.seq

    # -- connecting -------------------------------------------------------------
    async def attach(
        self, conn: Connection, side: str, last_seq: int | None, record: TableRecord, state: Any, seq: int
    ) -> list[dict[str, Any]]:
        """``conn`` watches ``side`` from now (called with the table's lock held); returns the
        released updates after ``last_seq`` it missed (none beyond the released step)."""
        await self.ensure(record, state, seq)
        self.watchers[conn] = side
        return await self.missed(conn, last_seq)

    async def missed(self, conn: Connection, last_seq: int | None) -> list[dict[str, Any]]:
        """The released updates after ``last_seq`` (a reconnect's, a resync's), as ``conn``'s side
        was sent them: none beyond the released step, however far ahead ``last_seq`` claims to be."""
        seat, released = self.reading(conn)
        if last_seq is None or last_seq >= released or released - last_seq > self._missed_limit:
            return []  # nothing missed, or so much that the welcome's view is enough
        return await self._entries(seat, last_seq, released)

    def welcome(self, conn: Connection, table: dict[str, Any], static: orjson.Fragment,
                missed: list[dict[str, Any]]) -> dict[str, Any]:  # fmt: skip
        """The welcome of a side spectator: the released step's view of its side's seat."""
        side = self.watchers[conn]
        window = self._window
        assert window is not None, "ensure() builds the window before any welcome"
        released = window.released
        view, to_act = self._view(side, window) if released is not None else (None, [])
        seq = None if released is None else released.seq
        message = protocol.welcome(table, None, seq, static, view, [], to_act, None, missed)
        return {**message, "delayed": self._delayed(side, window), "side_watching": self.offer()}

    async def ensure(self, record: TableRecord, state: Any, seq: int) -> None:
        """Build the window when nobody has needed it since the table was loaded (or reset)."""
        if self._window is not None:
            return
        finished = record.status == "finished"
        if record.seed_hex is None or state is None:
            self._window = _Window(0, seq, deque(), deque())  # not started: nothing to show yet
        elif finished:
            # Over: everything is released (play/record.py's replay reveals it all), nothing held.
            start = RoundStart(self.watch.round_of(state), seq, state)
            self._window = _Window(start.round, seq, deque(), deque(), released=start, finished=True)
        else:
            actions = await self._read_log(seq)
            seed, options = bytes.fromhex(record.seed_hex), record.options
            # Built off the event loop, into a new window: the old one is never half-built.
            self._window = await asyncio.to_thread(self._replayed, seed, options, actions)

    def _replayed(self, seed: bytes, options: Mapping[str, Any], actions: list[LoggedAction]) -> _Window:
        start = self.game.initial_transition(seed, options)
        first = RoundStart(self.watch.round_of(start.state), 0, start.state)
        window = _Window(first.round, 0, deque([first]), deque([Step(0, None, None, False, start.events)]))
        by_seq = {a.seq: a for a in actions}
        for step in replay_log(self.game, start.state, actions):
            row = by_seq[step.seq]
            self._advance(window, Step(step.seq, row.seat, row.action_id, row.by_timeout, step.transition.events),
                          step.state, finished=False)  # fmt: skip
        return window

    # -- the live table moved on ----------------------------------------------------
    def on_step(self, step: StepLike, state: Any, *, finished: bool) -> None:
        """A step was committed (called by the master's fan-out, before the public updates):
        send each side's spectators the steps this releases, if it releases any."""
        window = self._window
        if window is None:
            return  # nobody watches from a side: nothing is held
        released = self._advance(window, step, state, finished=finished)
        if released:
            self._send(window, released)

    def _advance(self, window: _Window, step: StepLike, state: Any, *, finished: bool) -> list[StepLike]:
        """Take ``step`` in; return the steps it releases, oldest first."""
        window.pending.append(step)
        window.live_seq = step.seq
        now = self.watch.round_of(state)
        if now > window.live_round:
            window.starts.append(RoundStart(now, step.seq, state))
            window.live_round = now
        if finished:
            window.finished = True
            window.starts.clear()
            target: RoundStart | None = RoundStart(now, step.seq, state)
        else:
            # Released: the state the round ``rounds`` before the live one began with.  A round
            # the game skipped has no start: the one before it is shown, older still.
            target = None
            while window.starts and window.starts[0].round <= now - self.rules.rounds:
                target = window.starts.popleft()
        if target is None:
            return []
        window.released = target
        out: list[StepLike] = []
        while window.pending and window.pending[0].seq <= target.seq:
            out.append(window.pending.popleft())
        return out

    def _send(self, window: _Window, steps: list[StepLike]) -> None:
        """Each side's frames are built and encoded once for all its spectators."""
        texts: dict[str, list[str]] = {}
        for conn, side in list(self.watchers.items()):
            frames = texts.get(side)
            if frames is None:
                frames = texts[side] = self._frames(side, window, steps)
            for text in frames:
                conn.send_text(text)

    def _frames(self, side: str, window: _Window, steps: list[StepLike]) -> list[str]:
        seat = self.rules.seats[side]
        delayed = self._delayed(side, window)
        frames = []
        for i, step in enumerate(steps):
            events = [e.as_dict() for e in step.events if e.visible_to(seat)]
            frame = protocol.missed_update(step.seq, events, step.by, step.action_id, step.auto)
            if i == len(steps) - 1:
                view, to_act = self._view(side, window)
                frame.update(view=view, legal=[], to_act=to_act, deadline=None)
            frames.append(protocol.dumps({**frame, "delayed": delayed}))
        return frames

    def _view(self, side: str, window: _Window) -> tuple[dict[str, Any], list[str]]:
        """The released state as the side's seat saw it, and who owed a decision then."""
        assert window.released is not None
        state = window.released.state
        view = self.game.view(state, self.rules.seats[side], reveal=window.finished)
        return view, sorted(self.game.to_act(state)) if not window.finished else []

    def _delayed(self, side: str, window: _Window) -> dict[str, Any]:
        released = window.released
        return protocol.delayed(
            side, self.rules.seats[side], self.rules.rounds, window.live_seq, window.live_round,
            None if released is None else released.round, window.finished,
        )  # fmt: skip
