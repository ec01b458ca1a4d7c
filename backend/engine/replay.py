"""Rebuilding a state from its history, and hashing states.

A table's state is always ``replay(game, seed, options, actions)``: snapshots in
the database are only a cache of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, Protocol, TypeGuard, TypeVar

import orjson

from .core import Action, Event, Game, Seat, SharedEncoding, Transition, implements
from .digest import sha256_hex

S = TypeVar("S")


def canonical_json(data: Any) -> str:
    """The one JSON spelling of a value: sorted keys, no spaces, UTF-8, as Python's ``json``
    writes it (stored hashes and snapshots are of these bytes).

    Spelled by orjson, ≈ 6× faster (a state is hashed every ``hash_every`` actions), where its
    text is ``json``'s: every value but a float from about 1e-4 down, which ``json`` writes
    "1e-05" or "5e-07" and orjson "0.00001" or "5e-7", and what orjson refuses (an int past 64
    bits, a key that is not a string). A text that may hold such a float (an exponent's "e-",
    or ".0000") is spelled by ``json`` instead, as is a refused value (tests/engine/
    test_canonical_json.py compares the two on every game's states and on generated values).
    Both sort keys by code point. Not for NaN or infinities, which no state holds (JSON has
    none: ``json`` writes NaN, orjson null).

    The marks are looked for only in a text with a "-" or a "." at all (memchr, ≈ 0.5 µs on a
    2.5 KB Dorasure state; few states hold either): a two-byte search walks the text a byte at a
    time, 3.9 µs for the two (bench/README.md, issue 15 point 2, eighth session)."""
    try:
        text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _json_spelling(data)
    if (b"-" in text and b"e-" in text) or (b"." in text and b".0000" in text):
        return _json_spelling(data)
    return text.decode()


def _json_spelling(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hash_and_text(game: Game[S], state: S) -> tuple[str, str]:
    """The state's canonical JSON (a snapshot) and its hash, computed once for both."""
    text = canonical_json(encoded_to_spell(game, state))
    return sha256_hex(text.encode()), text


def encoded_to_spell(game: Game[S], state: S) -> dict[str, Any]:
    """``encode_state(state)``, or the same data without copies where the game gives it
    (``SharedEncoding``): for a caller that spells it at once."""
    if _shares_encoding(game):
        return game.encode_read(state)
    return game.encode_state(state)


def _shares_encoding(game: Game[S]) -> TypeGuard[SharedEncoding[S]]:
    return implements(game, SharedEncoding)


def state_hash(game: Game[S], state: S) -> str:
    """A stable hash of a state, equal across processes, machines and replays."""
    return hash_and_text(game, state)[0]


def replay(
    game: Game[S],
    seed: bytes,
    options: Mapping[str, Any],
    actions: Iterable[tuple[Seat, Action]],
    *,
    collect_events: bool = False,
) -> tuple[S, list[list[Event]]]:
    """Apply ``actions`` in order from the initial state.

    Every action is validated again, so a corrupted log fails loudly with
    IllegalAction rather than producing a wrong game.  Returns the final state
    and, when asked, the events of each action.
    """
    state = game.initial_state(seed, game.normalize_options(options))
    events: list[list[Event]] = []
    for seat, action in actions:
        transition = game.apply(state, seat, action)
        state = transition.state
        if collect_events:
            events.append(list(transition.events))
    return state, events


class Logged(Protocol):
    """One entry of an action log: the store's rows and a record's entries both fit."""

    @property
    def seq(self) -> int: ...
    @property
    def seat(self) -> Seat: ...
    @property
    def action(self) -> Action: ...
    @property
    def state_hash(self) -> str | None: ...


class LogEntry(NamedTuple):
    """A ``Logged`` made from plain values (a record's JSON entry)."""

    seq: int
    seat: Seat
    action: Action
    state_hash: str | None


class ReplayMismatch(Exception):
    """The log does not replay (at ``seq``): see the two kinds below."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq
        self.message = message


class LogGap(ReplayMismatch):
    """The log's seqs do not follow one another."""


class HashMismatch(ReplayMismatch):
    """The state after an action differs from the hash the log recorded for it."""


@dataclass(frozen=True, slots=True)
class Replayed(Generic[S]):
    seq: int
    seat: Seat
    action: Action
    transition: Transition[S]
    # The state hash after this action: where the log recorded one (then checked equal),
    # or after every action when the caller asks for them all.
    digest: str | None

    @property
    def state(self) -> S:
        return self.transition.state


def replay_log(
    game: Game[S], state: S, log: Iterable[Logged], *, after: int = 0, every_hash: bool = False
) -> Iterator[Replayed[S]]:
    """The one replay-and-check loop: apply each logged action from ``state`` (the state at seq
    ``after``), checking that seqs follow one another and that every recorded hash matches.

    Yields each step as it is applied, so a caller can stop, advance a live table or collect
    views on the way.  Raises ReplayMismatch at the first step that does not check, and lets
    the game's IllegalAction through (a log of an action the rules refuse is corrupt too).
    """
    seq = after
    for entry in log:
        if entry.seq != seq + 1:
            raise LogGap(seq + 1, f"the action log jumps from {seq} to {entry.seq}")
        transition = game.apply(state, entry.seat, entry.action)
        state, seq = transition.state, entry.seq
        digest = None
        if every_hash or entry.state_hash is not None:
            digest = state_hash(game, state)
            if entry.state_hash is not None and digest != entry.state_hash:
                raise HashMismatch(seq, f"the state after seq {seq} differs from its recorded hash")
        yield Replayed(seq, entry.seat, entry.action, transition, digest)
