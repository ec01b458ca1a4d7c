"""Who may say and read what in a table's chat (issue 14, point 3): the channel rules, pure.

Every line is said on one channel (the ``chat_line.channel`` of migration 0004):

* ``table``: everyone at the table, seats and spectators;
* ``side:<side>``: the seats of one side only (Dorn: the heroes among themselves, unheard by the
  Keeper; a game's sides come from its ``Sides`` hook, backend/engine/core.py);
* ``seat:<seat>``: one seat privately; its sender reads it too;
* ``spectators``: the spectators among themselves.  No seat reads it while the game is on (no
  coaching); once the game is over everyone does, and the replay shows it.

A connection speaks for one seat (or none: a spectator) but reads for every seat its player
holds at the table (hot-seat: one browser, several seats, one chat).  Spectators never write to
the seats' channels while the game is on; once it is over they may talk to the table.

The server applies these rules on every path a line takes: live delivery on this worker, the
bus to the other workers (each filters for its own connections) and the history sent on
arrival, so a line never reaches a connection that may not read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

TABLE = "table"
SPECTATORS = "spectators"
SIDE = "side"  # what a client writes for "my side"; the line's channel names the side
SIDE_PREFIX = "side:"
SEAT_PREFIX = "seat:"
# How many past lines a connection is sent when it arrives (the newest it may read).
HISTORY_LINES = 100
# The channels a finished game's replay shows, to everyone: the table's and the spectators'.  A
# side's talk and private lines stay with those who had them.
REPLAY_CHANNELS = ("table", "spectators")
REPLAY_LINES = 2000


class ChatRefused(Exception):
    """A channel this connection may not write to; ``message`` says why, in a player's words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def side_channel(side: str) -> str:
    return SIDE_PREFIX + side


def seat_channel(seat: str) -> str:
    return SEAT_PREFIX + seat


@dataclass(frozen=True, slots=True)
class Seating:
    """What the rules need to know of a table: who holds which seat, each seat's side, and
    whether the game is over."""

    holders: Mapping[str, str | None]  # seat -> its player's id (None: nobody sits there)
    sides: Mapping[str, str]  # seat -> its side; empty when the game has no sides
    over: bool

    @classmethod
    def of(
        cls, holders: Mapping[str, str | None], sides: Mapping[str, Iterable[str]] | None, over: bool
    ) -> Seating:
        """``sides`` as a game's ``Sides`` hook gives them; one side (or none) is no sides."""
        side_of = {seat: side for side, seats in (sides or {}).items() for seat in seats}
        return cls(dict(holders), side_of if len(set(side_of.values())) > 1 else {}, over)

    def held(self, seat: str | None) -> frozenset[str]:
        """Every seat the player of ``seat`` holds here (empty for a spectator)."""
        if seat is None:
            return frozenset()
        player = self.holders.get(seat)
        if player is None:
            return frozenset({seat})
        return frozenset(s for s, p in self.holders.items() if p == player) | {seat}

    def side_of(self, seat: str) -> str | None:
        return self.sides.get(seat)

    def readable(self, seat: str | None) -> frozenset[str]:
        """The channels a connection of ``seat`` reads (besides the lines its seats said)."""
        if seat is None:
            return frozenset({TABLE, SPECTATORS})
        held = self.held(seat)
        channels = {TABLE, *(seat_channel(s) for s in held)}
        channels |= {side_channel(side) for s in held if (side := self.side_of(s)) is not None}
        if self.over:
            channels.add(SPECTATORS)
        return frozenset(channels)

    def may_read(self, seat: str | None, channel: str, from_seat: str | None) -> bool:
        """Whether a connection of ``seat`` may read a line said on ``channel`` by ``from_seat``:
        a private line reaches its sender's seats too."""
        if channel in self.readable(seat):
            return True
        return from_seat is not None and from_seat in self.held(seat)

    def channel_for(self, seat: str | None, to: str | None) -> str:
        """The channel a line from ``seat`` asking for ``to`` is said on; ChatRefused if it may
        not be.  ``to`` is ``table``, ``side``, ``seat:<seat>`` or ``spectators``; by default a
        seat talks to the table and a spectator to the spectators."""
        if seat is None:
            return self._spectator_channel(to)
        if to is None or to == TABLE:
            return TABLE
        if to == SIDE:
            side = self.side_of(seat)
            if side is None:
                raise ChatRefused("no_sides", "Everyone at this table plays on one side: write to the table.")
            return side_channel(side)
        if to == SPECTATORS:
            if not self.over:
                raise ChatRefused(
                    "spectators_channel",
                    "The spectators' channel opens to the seats when the game is over.",
                )
            return SPECTATORS
        if to.startswith(SEAT_PREFIX):
            return self._private_channel(seat, to.removeprefix(SEAT_PREFIX))
        raise ChatRefused("bad_channel", "Write to the table, your side, one seat or the spectators.")

    def _spectator_channel(self, to: str | None) -> str:
        if to is None or to == SPECTATORS:
            return SPECTATORS
        if to == TABLE:
            if not self.over:
                raise ChatRefused(
                    "spectators_only",
                    "While the game is on, spectators talk among themselves (no coaching).",
                )
            return TABLE
        raise ChatRefused("not_a_seat", "Only a seat can write to a side or to one seat.")

    def _private_channel(self, seat: str, target: str) -> str:
        if target not in self.holders:
            raise ChatRefused("no_such_seat", "There is no such seat at this table.")
        if target in self.held(seat):
            raise ChatRefused("own_seat", "You hold that seat yourself.")
        if self.holders[target] is None:
            raise ChatRefused("empty_seat", "Nobody sits in that seat yet.")
        return seat_channel(target)
