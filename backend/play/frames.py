"""What a table's connections are sent of its present: each one's welcome (the whole view, its
legal actions, who owes a decision, the deadline) and, after each committed step, the update
of each audience, built once (play/audience.py).

Separate from play/master.py because it only reads the table, through ``Table`` (what it reads
of the master's ``TableRuntime``); the master calls it with its lock held, after each change.
"""

from __future__ import annotations

import time
from typing import Any, Protocol, TypeGuard

import orjson

from backend.engine.core import Game, SharedLegal, SharedViews, implements
from backend.store.repository import TableRecord

from . import patch, protocol
from .audience import Audience
from .backlog import Applied, events_for
from .hub import Connection, Present
from .seatclock import SeatClock
from .sidewatch import SideStreams


class Table(Protocol):
    """A live table as its frames read it."""

    @property
    def game(self) -> Game[Any]: ...
    @property
    def static_text(self) -> orjson.Fragment: ...
    @property
    def record(self) -> TableRecord: ...
    @property
    def state(self) -> Any: ...
    @property
    def seq(self) -> int: ...
    @property
    def live(self) -> bool: ...
    @property
    def clock(self) -> SeatClock: ...
    @property
    def connections(self) -> Present: ...
    @property
    def side_watch(self) -> SideStreams | None: ...

    def table_dict(self) -> dict[str, Any]: ...


def view(t: Table, seat: str | None) -> dict[str, Any] | None:
    if t.state is None:
        return None
    return t.game.view(t.state, seat, reveal=t.record.status == "finished")


def views(t: Table, seats: list[str | None]) -> dict[str | None, dict[str, Any] | None]:
    """The views of these audiences, from one build of what they share where the game can
    (``SharedViews``): read only, like every view the frames are made of."""
    game, state = t.game, t.state
    if state is None or not _shares_views(game):
        return {seat: view(t, seat) for seat in seats}
    return dict(game.views(state, seats, reveal=t.record.status == "finished"))


def _shares_views(game: Game[Any]) -> TypeGuard[SharedViews[Any]]:
    return implements(game, SharedViews)


def _shares_legal(game: Game[Any]) -> TypeGuard[SharedLegal[Any]]:
    return implements(game, SharedLegal)


def legal(t: Table, seat: str | None) -> list[dict[str, Any]]:
    """The seat's listed actions, read only, like the views: the game's own list where it keeps
    one (``SharedLegal``)."""
    # Asked of every seat, on turn or not: a game may list what a seat may do at any time
    # (Dorn's surrender, content 5.9); ``to_act`` is who owes a decision (clocks, defaults).
    if seat is None or not t.live:
        return []
    game = t.game
    if _shares_legal(game):
        return game.legal_read(t.state, seat)
    return game.legal_actions(t.state, seat)


def welcome(t: Table, conn: Connection, missed: list[dict[str, Any]]) -> None:
    """Send ``conn`` its welcome; one that takes patches keeps what it was sent to patch from."""
    side = t.side_watch
    if side is not None and conn in side:
        conn.send(side.welcome(conn, t.table_dict(), t.static_text, missed))
        return
    seat = conn.seat
    # Read only, as an update's (``views``): the parts a game keeps are then the very objects the
    # next update's are, which its patch passes over by identity.
    message = protocol.welcome(t.table_dict(), seat, t.seq, t.static_text, views(t, [seat])[seat], legal(t, seat),
                               sorted(t.clock.to_act), t.clock.deadline(), missed)  # fmt: skip
    if side is not None and seat is None:
        message["side_watching"] = side.offer()  # what a spectator may choose instead
    if conn.patches:
        conn.sent = {"v": message["view"], "l": message["legal"], "t": message["to_act"]}
    conn.send(message)


def presence(t: Table, spectators: int, here: frozenset[str]) -> None:
    """Who is here, to every connection, with the live deadline their coming or going moved,
    except to side spectators: their view is held back, and the live clock would tell them
    when the table last moved."""
    frame = protocol.presence(spectators, sorted(here), t.clock.deadline())
    live = protocol.dumps(frame)
    side = t.side_watch
    held = live if side is None or frame["deadline"] is None else protocol.dumps({**frame, "deadline": None})
    for conn in list(t.connections):
        conn.send_text(held if side is not None and conn in side else live)


def fan_out(t: Table, applied: Applied) -> float:
    """Each audience's view and legal actions are built once, each distinct frame is encoded
    once and the same text goes to every connection it fits (all spectators share one); a
    connection that takes patches is sent what changed since what it was last sent, when
    that is shorter (play/audience.py).  Returns when (``perf_counter``) the seats' frames were
    all handed to their sockets, before the crowd's: the players' path (metrics)."""
    deadline = t.clock.deadline()
    to_act = sorted(t.clock.to_act)
    public = all(e.to is None for e in applied.events)
    shared_events = [e.as_dict() for e in applied.events] if public else None
    side = t.side_watch
    if side is not None:  # the steps this releases to side spectators, who get no live update
        side.on_step(applied, t.state, finished=t.record.status == "finished")
    # The seats first: their frames are sent before the crowd of spectators is so much as
    # counted, so that it does not stand between the players and the game (issue 15, point 5).
    present = t.connections
    seated = list(present.seated)
    audiences_of: list[str | None] = list(dict.fromkeys(c.seat for c in seated))
    if present.watching:
        audiences_of.append(None)
    built = views(t, audiences_of)
    # The audiences' docs share the parts of their views (and audiences that see alike, the
    # views): diffed once, spelled once.
    memo: patch.Memo = {}
    texts: patch.Texts = {}
    audiences: dict[str | None, Audience] = {}
    # The audiences sent what the spectators are: the same view object, nothing listed, the
    # public events. One update for them all, by their view: one doc, one hash, one patch from
    # the one doc they were all sent before. The actor is one of them when it has nothing left
    # to do (half the steps of a Dorasure game): only its frame differs, naming its action.
    alike: dict[int, Audience] = {}

    def send(conn: Connection) -> None:
        seat = conn.seat
        audience = audiences.get(seat)
        if audience is None:
            view, listed = built[seat], legal(t, seat)
            if shared_events is not None and not listed:
                audience = alike.get(id(view))
                if audience is None:
                    audience = alike[id(view)] = Audience(applied.seq, shared_events, applied.by, applied.action_id,
                                                          applied.auto, view, listed, to_act, deadline, memo, texts)  # fmt: skip
            else:
                events = events_for(applied.events, seat) if shared_events is None else shared_events
                audience = Audience(applied.seq, events, applied.by, applied.action_id, applied.auto, view, listed,
                                    to_act, deadline, memo, texts)  # fmt: skip
            audiences[seat] = audience
        conn.send_text(audience.frame_for(conn))

    for conn in seated:
        send(conn)
    seated_at = time.perf_counter()
    crowd = list(present.watching)
    for conn in crowd if side is None else [c for c in crowd if c not in side]:
        send(conn)
    return seated_at
