"""The game contract every game implements, and the value types around it.

A game is data plus pure functions (see docs/architecture.md).  Nothing in this
package may import web, database, asyncio, clock or global-random code: a test
(tests/engine/test_purity.py) enforces it, because the server, the simulator and
replays all depend on ``apply`` being a pure function of (state, seat, action).

Conventions shared by all games:

* A *seat* is a short string chosen by the game (``"ninja"``, ``"keeper"``...).
  It comes from the authenticated connection, never from the action itself.
* An *action* is a JSON-safe ``dict`` with a ``"type"`` key.  Two actions are the
  same action when they compare equal, so ``legal_actions`` lists them in a
  canonical form and ``validate`` accepts exactly the listed ones.
* A *state* is whatever the game likes, as long as ``encode_state`` turns it into
  JSON-safe data (used for hashing and snapshots) and ``decode_state`` back.
  ``apply`` never mutates the state it is given.
* Decisions owed outside one's turn are *prompts* kept in the state: ``to_act``
  names every seat that owes an answer and ``default_action`` gives the answer a
  server applies when that seat's time runs out.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

from .rng import Rng

Seat = str
Action = dict[str, Any]
JSON = Any

S = TypeVar("S")
# The optional hooks only take states in: a hook for a wider state type serves a narrower one.
S_in = TypeVar("S_in", contravariant=True)
S_out = TypeVar("S_out", covariant=True)


class IllegalAction(Exception):
    """An action the rules refuse.

    ``code`` is a stable machine-readable reason (``"not_your_turn"``,
    ``"die_too_low"``...); ``message`` says, in a player's words, which rule
    forbids it.  Messages never mention hidden information.  Every code cites its rule: the
    game's ``data/refusals.json`` maps it to a rulebook heading or a numbered ruling and the
    Rules panel section (engine/rulerefs.py), which a refusal carries to the player.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class InvalidOptions(ValueError):
    """Table options a game cannot be set up with (wrong player count, unknown hero...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat a table offers: its id and the label a lobby shows."""

    seat: Seat
    label: str


# Events and transitions are made at every apply: a NamedTuple is built by one C call, where a
# frozen dataclass's __init__ sets each field through object.__setattr__ (issue 15.3).
class Event(NamedTuple):
    """Something that happened, for logs and animations.

    ``to`` is ``None`` for a public event, otherwise the seats allowed to see it.
    A game that must tell the public a redacted version of a private event emits
    two events (one private, one public).
    """

    kind: str
    data: Mapping[str, JSON] = MappingProxyType({})
    to: frozenset[Seat] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def as_dict(self) -> dict[str, JSON]:
        return {"kind": self.kind, **dict(self.data)}


class Transition(NamedTuple, Generic[S]):
    state: S
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``result`` is a short id (``"players_win"``, ``"keeper_wins"``...), ``winners``
    the seats that won (empty when nobody did) and ``reason`` a sentence for people.
    """

    result: str
    winners: frozenset[Seat]
    reason: str

    def as_dict(self) -> dict[str, JSON]:
        return {"result": self.result, "winners": sorted(self.winners), "reason": self.reason}


@runtime_checkable
class Game(Protocol[S]):
    """What the server, the simulator, replays and the conformance test rely on."""

    name: str
    title: str
    rules_version: int

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check table options; raise InvalidOptions with a clear message."""
        ...

    def options_schema(self) -> dict[str, JSON]:
        """How a lobby offers the options: a JSON-schema subset (docs/protocol.md)."""
        ...

    def seats(self, options: Mapping[str, JSON]) -> list[SeatInfo]:
        """The seats a table with these (normalized) options has, in turn order."""
        ...

    def static_info(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """What never changes during a table's life (board layout, charts, names).

        Sent once to each connection (it is public), so views stay small.
        """
        ...

    def initial_state(self, seed: bytes, options: Mapping[str, JSON]) -> S: ...

    def initial_transition(self, seed: bytes, options: Mapping[str, JSON]) -> Transition[S]:
        """Called when a table starts (and to show its log from the start): initial_state and the setup's events."""
        ...

    def to_act(self, state: S) -> frozenset[Seat]:
        """Every seat that owes a decision now (the player on turn, and any owing a prompt):
        the seats whose clocks run and whose defaults are taken on a timeout."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """What ``seat`` may do now: for a seat in ``to_act`` its decision; for any other, the
        actions it may take at any time (giving up), usually none."""
        ...

    def validate(self, state: S, seat: Seat, action: Action) -> None:
        """Raise IllegalAction unless ``seat`` may take ``action`` now."""
        ...

    def apply(self, state: S, seat: Seat, action: Action) -> Transition[S]:
        """Validate, then return the next state and the events; never mutates ``state``."""
        ...

    def default_action(self, state: S, seat: Seat) -> Action | None:
        """The answer applied when ``seat`` times out (prompt default, or ending the turn)."""
        ...

    def view(self, state: S, seat: Seat | None, *, reveal: bool = False) -> dict[str, JSON]:
        """What ``seat`` may see (``None``: a spectator).  JSON-safe.

        ``reveal=True`` shows everything except the RNG state; it is only used for
        finished games (replays).
        """
        ...

    def outcome(self, state: S) -> Outcome | None: ...

    def encode_state(self, state: S) -> dict[str, JSON]: ...

    def decode_state(self, data: Mapping[str, JSON]) -> S: ...

    def sim_options(self, rng: Rng, players: int | None, overrides: Mapping[str, JSON]) -> dict[str, JSON]:
        """Options for a simulated game: ``players`` seats (None: the game picks), varied by
        ``rng`` (an engine Rng) where the table would choose (heroes...), then ``overrides``."""
        ...

    def redact_action(
        self, options: Mapping[str, JSON], actor: Seat, action: Action, viewers: frozenset[Seat]
    ) -> Action:
        """``action`` (taken by ``actor``) as someone holding ``viewers`` may read it while the
        game is live: the action itself, or a public form without what those seats may not see
        (``viewers`` empty: a spectator, or anyone unauthenticated).

        Every path that serialises the action log of a live table goes through this one point
        (the export, play/record.py); once the game is over the full log is public.
        """
        ...

    def secrets(self, state: S, seat: Seat | None) -> set[str]:
        """Strings that must not appear in anything ``seat`` receives now.

        Used by the leak tests: identities of face-down tiles, cards in other
        hands, deck and bag contents that are not otherwise public.  The seed is
        checked separately by the harness.
        """
        ...


@runtime_checkable
class PromptSeats(Protocol[S_in]):
    """Optional: a game that says which seats owe a *prompt* (a decision outside their turn),
    so the server gives exactly those the prompt timeout.  Without it, every seat is prompted
    when several may act at once (play/timers.py).  Asked after every committed action."""

    def prompt_seats(self, state: S_in) -> frozenset[Seat]: ...


@runtime_checkable
class TurnClock(Protocol[S_in]):
    """Optional: a game whose sides play against a clock per turn (Dorn's Real Day and Night).
    ``turn_clock(state)`` says, after every committed action, which clock runs: ``{"turn": key,
    "seats": [...], "seconds": T, "running": bool}`` (a new ``turn`` key starts a fresh T; it runs
    only while ``running``), or None.  When T has passed, the server sends each of those seats
    that is asked to act the game's listed ``{"type": "time_up"}``: the game keeps no time."""

    def turn_clock(self, state: S_in) -> Mapping[str, JSON] | None: ...


@runtime_checkable
class Sides(Protocol):
    """Optional: a game whose seats play on sides (Dorn: the Keeper against the heroes), so that
    a side can talk among itself unheard by the other (play/chat.py, issue 14.3).  ``sides``
    gives every seat of a table with ``options`` its side: ``{side: [seats]}``.  Without it every
    seat is on one side, as at a cooperative table (Dorasure), and there is no side channel."""

    def sides(self, options: Mapping[str, JSON]) -> dict[str, list[Seat]]: ...


@dataclass(frozen=True, slots=True)
class SideWatching:
    """How a table lets spectators watch from one side (issue 14.4): ``seats`` names every side
    of the table with the seat whose view shows it, ``allowed`` the sides its options open to
    watching (empty: none), ``rounds`` the delay in full rounds (at least 1)."""

    seats: Mapping[str, Seat]
    allowed: frozenset[str]
    rounds: int


@runtime_checkable
class WatchSides(Protocol[S_in]):
    """Optional: a game whose spectators may watch from a side, seeing that side's hidden cards,
    whole rounds behind so that nothing they see can help a player (play/sidewatch.py).
    ``side_watching(options)`` is asked when a table is loaded; ``round_of(state)`` after every
    committed action: the round the game is in, never smaller than the one before."""

    def side_watching(self, options: Mapping[str, JSON]) -> SideWatching: ...

    def round_of(self, state: S_in) -> int: ...


@runtime_checkable
class Odds(Protocol):
    """Optional: a game that tells a seat the exact chance of each outcome that matters before
    it commits to an action that rolls dice (issue 14.1).  ``view`` is that seat's own ``view``
    (never the state, so no hidden card or tile can change a number) and ``action`` one of its
    listed actions; the answer is ``{"title", "key", "outcomes": [{"id", "label", "p": "n/d",
    "value": float}]}`` (``key`` is one outcome, the one to weigh first), or None for an action
    that rolls nothing.  Dorasure also puts the answers for every listed action in the seat's
    view (``view["odds"]``, docs/protocol.md)."""

    def odds(self, view: Mapping[str, JSON], seat: Seat, action: Action) -> dict[str, JSON] | None: ...


@runtime_checkable
class SharedViews(Protocol[S_in]):
    """Optional: the views of several viewers of one state built at once, from one build of
    what they all see (Dorasure's differ only in a seat's ``odds``, a viewer with none getting the
    common view itself; Dorn's in the item cards, the Ritual hand and a seat's own Blessing).
    ``views(state, viewers)[v] == view(state, v)`` for each viewer, but the views share their
    common parts, so they are read, never edited: the server builds its audiences' views so
    after each step and only reads them (issue 15 point 2)."""

    def views(
        self, state: S_in, viewers: Sequence[Seat | None], *, reveal: bool = False
    ) -> dict[Seat | None, dict[str, JSON]]: ...


@runtime_checkable
class SharedLegal(Protocol[S_in]):
    """Optional: a seat's listed actions as the game keeps them (Dorasure memoises the list on
    the state, for ``validate``), handed out as they are instead of copied: equal to
    ``legal_actions(state, seat)``, read, never edited. The server's frames hold each seat's
    list for the next patch and only read it (issue 15 point 2)."""

    def legal_read(self, state: S_in, seat: Seat) -> list[Action]: ...


@runtime_checkable
class SharedEncoding(Protocol[S_in]):
    """Optional: ``encode_state``'s data without its copies, sharing the state's own parts (a
    tuple where the state keeps one: JSON writes it as a list), for a caller that spells it at
    once and keeps nothing of it (the state hash every ``hash_every`` actions, a resting state):
    the same JSON text as ``encode_state(state)``. Copying a Dorasure state's parts cost ten
    times spelling them (issue 15 point 2)."""

    def encode_read(self, state: S_in) -> dict[str, JSON]: ...


@runtime_checkable
class AtRest(Protocol[S_in]):
    """Optional: a game whose states keep what only speeds up their next listing or apply (the
    Dorasure movement search and legal actions), which ``at_rest(state)`` lets go. Asked when
    nobody is connected to the table any more (issue 15 point 4); the state's value, its view,
    its legal actions and its hash, is the same afterwards."""

    def at_rest(self, state: S_in) -> None: ...


@runtime_checkable
class SimSteering(Protocol[S_in]):
    """Optional: a game whose random playouts (simulator, conformance, benchmarks) pick among the
    listed actions with purpose rather than uniformly (engine/playout.py).  ``rng`` is the
    driver's own stream, never the game's, so the dice do not depend on the picks."""

    def sim_choice(self, state: S_in, seat: Seat, legal: list[Action], rng: Rng) -> Action: ...


@runtime_checkable
class SimPicking(Protocol[S_in]):
    """Optional, beside ``SimSteering``: the steered pick made without the seat's list, for a
    driver that only plays (the simulator, benchmarks; not the conformance harness, which checks
    every list).  Contract: ``sim_pick(state, seat, rng)`` is either None (the driver builds the
    list and calls ``sim_choice``) or equal to ``sim_choice(state, seat, legal_actions(state,
    seat), rng)``, drawing the same numbers from ``rng``: the games played are the same."""

    def sim_pick(self, state: S_in, seat: Seat, rng: Rng) -> Action | None: ...


@runtime_checkable
class Determinise(Protocol[S_out]):
    """Optional: a game that builds a full state consistent with what one seat has seen, for the
    bots that search (backend/bots).  ``view`` is that seat's ``view``, ``events`` every event it
    was sent since the table started (``Event.as_dict()``, in order) and ``rng`` the bot's own
    stream: hidden cards are drawn from what the seat has not seen, and the sampled state's seed
    is drawn from ``rng``, never the table's.  Contract: ``view(sampled, seat) == view``."""

    def sample_state(
        self, view: Mapping[str, JSON], seat: Seat, rng: Rng, events: Sequence[Mapping[str, JSON]] = ()
    ) -> S_out: ...


@runtime_checkable
class Fork(Protocol[S]):
    """Optional: a game whose finished tables can be forked at any step (issue 14.5, "Play from
    here").  ``fork_state(state, seed)`` is ``state`` (the original's at that step) with every
    random thing from then on drawn from the fork's own ``seed``: the RNG reseeded, and whatever
    no seat could see at that step (deck order, face-down tiles) dealt again from it, so the
    original's revealed replay does not tell the fork's future.  Everything a seat sees stays:
    ``view(fork, seat) == view(state, seat)`` for every seat.  Pure; called when a fork starts and
    by ``verify`` (play/record.py)."""

    def fork_state(self, state: S, seed: bytes) -> S: ...


# Whether a game's class is one of the optional Protocols above, asked once per class and
# Protocol: ``isinstance`` against a runtime-checkable Protocol walks its members each time
# (≈ 3 % of the server's fan-out when it was asked every step).
_IMPLEMENTS: dict[tuple[type, type], bool] = {}


def implements(game: object, kind: type) -> bool:
    """``isinstance(game, kind)`` for one of the engine's optional Protocols, remembered by class."""
    key = (type(game), kind)
    known = _IMPLEMENTS.get(key)
    if known is None:
        known = _IMPLEMENTS[key] = isinstance(game, kind)
    return known


def check_action_shape(action: object) -> Action:
    """Refuse anything that is not an action-shaped dict, with a player-readable reason."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "An action must be an object with a 'type'.")
    return action


def listed(action: object, legal: Sequence[Action]) -> bool:
    """Whether ``legal`` lists ``action``, value for value and type for type. ``in`` alone takes
    1.0 or true for a listed 1, and the rule would then carry the float into the state (a later
    ``range`` fails, after the step is committed: found by the WebSocket fuzzer). Anything but
    an action-shaped dict is never listed, so a game may ask before ``check_action_shape``."""
    try:
        # One scan, at C speed; then the types alone. (operator.indexOf, not list.index: a miss
        # raises without the action's repr, which a 5000-deep action would not survive.)
        match = legal[operator.indexOf(legal, action)]
    except ValueError:
        return False
    return same_types(action, match)


def same_types(a: Any, b: Any) -> bool:
    """Whether two JSON values that are equal (``a == b``) are so type for type: 1 is neither
    1.0 nor true. Loops, not ``all()``: this runs in every validate."""
    t = type(a)
    if t is not type(b):
        return False
    if t is dict:
        for k, v in a.items():
            w = b[k]
            tv = type(v)
            if tv is not type(w) or ((tv is dict or tv is list) and not same_types(v, w)):
                return False
    elif t is list:
        for v, w in zip(a, b, strict=True):
            tv = type(v)
            if tv is not type(w) or ((tv is dict or tv is list) and not same_types(v, w)):
                return False
    return True


def require_listed(legal: Sequence[Action], action: Action, *, why: str) -> None:
    """Generic fallback check: an action is legal when it is listed."""
    if not listed(action, legal):
        raise IllegalAction("not_allowed", why)
