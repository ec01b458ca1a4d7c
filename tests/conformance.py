"""The generic conformance check every game must pass (OpenSpiel-style).

``check_random_games(game, cases)`` plays seeded random games to the end and,
at every step, checks the contract in backend/engine/core.py:

* every listed action validates, and ``apply`` accepts it without mutating the
  state it was given;
* unlisted actions are refused with IllegalAction (actions that were legal
  earlier in the game but are not listed now, the same action from a seat that
  may not act, and malformed actions);
* every view (each seat and the spectator) and every event survives a JSON round
  trip and contains none of the game's current ``secrets`` nor the seed;
* nothing the engine hands out shares mutable parts with a state or with the engine's
  memos: after everything returned about a state (legal lists, the default action, every
  view, the secrets, the encoded state) and the events of its transition are mutated
  deeply, both states hash the same and every listed action is still listed and valid;
  mutating ``static_info`` changes no later ``static_info``;
* ``initial_transition`` gives ``initial_state`` and setup events that pass the same checks;
* replaying the recorded actions reproduces the final state hash.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from backend.engine.core import Action, Game, IllegalAction, Seat
from backend.engine.playout import Playout, play_random
from backend.engine.replay import canonical_json, replay, state_hash
from backend.engine.rng import Rng, seed_from_int

MALFORMED: list[Any] = [
    None,
    "move",
    42,
    [],
    {},
    {"type": None},
    {"type": "no_such_action_type"},
    {"type": "move", "to": {"deeply": ["wrong"]}},
]


@dataclass
class Case:
    seed: int
    options: Mapping[str, Any]


def strings_in(data: Any, out: set[str] | None = None) -> set[str]:
    """Every string value and key anywhere inside JSON-like data."""
    if out is None:
        out = set()
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, Mapping):
        for k, v in data.items():
            out.add(str(k))
            strings_in(v, out)
    elif isinstance(data, list | tuple):
        for v in data:
            strings_in(v, out)
    return out


def assert_no_leak(payload: Any, secrets: Iterable[str], where: str) -> None:
    seen = strings_in(payload)
    text = json.dumps(payload)
    for secret in secrets:
        assert secret not in seen, f"{where}: hidden {secret!r} appears"
        if len(secret) >= 8:
            assert secret not in text, f"{where}: hidden {secret!r} appears inside a text"


VANDAL = "__vandal__"


def vandalise(data: Any) -> None:
    """Mutate everything reachable inside ``data``: each list is emptied and refilled with a
    marker, each dict and set gets one more entry (depth first, so nothing escapes).  A part
    the engine still holds shows up as a changed state, view or legal list."""
    if isinstance(data, dict):
        for v in list(data.values()):
            if not isinstance(v, str | int | float | None):
                vandalise(v)
        data[VANDAL] = [VANDAL]
    elif isinstance(data, list):
        for v in data:
            if not isinstance(v, str | int | float | None):
                vandalise(v)
        data.clear()
        data.append(VANDAL)
    elif isinstance(data, set):
        data.clear()
        data.add(VANDAL)
    elif isinstance(data, tuple | frozenset):
        for v in data:
            vandalise(v)


def json_roundtrip(payload: Any, where: str) -> None:
    again = json.loads(json.dumps(payload, allow_nan=False))
    assert again == payload, f"{where}: not JSON-safe"


class Checker:
    def __init__(
        self, game: Game, seed: int, options: Mapping[str, Any], *, full_every: int = 1, copies_every: int = 1
    ):
        self.game = game
        self.seed_hex = seed_from_int(seed).hex()
        self.all_seats = [s.seat for s in game.seats(game.normalize_options(options))]
        self.seen_actions: list[Action] = []
        self.seen_keys: set[str] = set()
        self.rng = Rng(seed_from_int(seed ^ 0xC0FFEE))
        self.step = 0
        self.full_every = full_every
        self.copies_every = copies_every

    # Long legal lists (a Dorn Keeper's movement list runs to hundreds of actions) are
    # remembered as a sample: keying every action as JSON at every step would cost more than
    # the game itself, and the sample still grows to thousands of actions over a game.
    SAMPLE = 8

    def remember(self, actions: list[Action]) -> None:
        if len(actions) > self.SAMPLE:
            actions = [actions[self.rng.below(len(actions))] for _ in range(self.SAMPLE)]
        for a in actions:
            key = json.dumps(a, sort_keys=True)
            if key not in self.seen_keys and len(self.seen_actions) < 4000:
                self.seen_keys.add(key)
                self.seen_actions.append(a)

    def refused(self, state: Any, seat: Seat, action: Any, why: str) -> None:
        try:
            self.game.validate(state, seat, action)
        except IllegalAction as e:
            assert e.code and e.message, f"{why}: IllegalAction without code/message"
            assert self.seed_hex not in e.message
            return
        raise AssertionError(f"{why}: {action!r} from {seat!r} was accepted")

    def __call__(self, state: Any, seat: Seat, action: Action, legal: list[Action]) -> None:
        game = self.game
        self.step += 1
        to_act = game.to_act(state)
        assert seat in to_act
        full = self.step % self.full_every == 0
        # Listed actions validate (a sample when the list is long).
        sample = legal if len(legal) <= 12 else [legal[self.rng.below(len(legal))] for _ in range(12)]
        for a in sample:
            json_roundtrip(a, "action")
            game.validate(state, seat, a)
        # Actions legal earlier (or for others) but not listed now are refused.
        if self.seen_actions:
            for _ in range(6):
                a = self.seen_actions[self.rng.below(len(self.seen_actions))]
                if a not in legal:
                    self.refused(state, seat, a, "unlisted action")
        self.remember(legal)
        # A seat that may not act cannot take the chosen action.
        for other in self.all_seats:
            # (Unless the other seat may take it too: giving up is open to every seat, Dorn 5.9.)
            if other not in to_act and action not in game.legal_actions(state, other):
                self.refused(state, other, action, "seat not on turn")
                break
        self.refused(state, seat, MALFORMED[self.rng.below(len(MALFORMED))], "malformed action")
        if full:
            before = state_hash(game, state)
            transition = game.apply(state, seat, action)
            assert state_hash(game, state) == before, "apply mutated its input state"
            self.check_views(transition.state, transition.events)
            if self.step % (self.full_every * self.copies_every) == 0:
                self.check_copies(state, seat, action, legal, transition)

    def handed_out(self, state: Any, seat: Seat, transition: Any) -> list[tuple[str, Any]]:
        """Everything the engine returns about ``state`` (views first, one per viewer), and the
        events that left it."""
        game = self.game
        out: list[tuple[str, Any]] = [(f"view({v})", game.view(state, v)) for v in [*self.all_seats, None]]
        out += [
            ("legal_actions", game.legal_actions(state, seat)),
            ("default_action", game.default_action(state, seat)),
            ("encode_state", game.encode_state(state)),
        ]
        out += [(f"secrets({v})", game.secrets(state, v)) for v in [*self.all_seats, None]]
        out += [(f"event {i} ({ev.kind})", ev.data) for i, ev in enumerate(transition.events)]
        return out

    def copies_problem(
        self, state: Any, seat: Seat, transition: Any, listed: list[Action], seen: list[str]
    ) -> str | None:
        """What changed after vandalising what was handed out (None: nothing).  ``seen``: both
        states encoded, and this step's viewer's view, before."""
        game = self.game
        try:
            if canonical_json(game.encode_state(state)) != seen[0]:
                return "the state changed"
            if canonical_json(game.encode_state(transition.state)) != seen[1]:
                return "the next state changed"
            if game.legal_actions(state, seat) != listed:
                return "legal_actions lists other actions"
            for a in listed:
                game.validate(state, seat, a)
            # One viewer a step (in turn) is enough to catch a view the engine memoises.
            viewers = [*self.all_seats, None]
            viewer = viewers[self.step % len(viewers)]
            if canonical_json(game.view(state, viewer)) != seen[2]:
                return f"view({viewer}) changed"
        except Exception as e:  # a vandalised part the engine still reads
            return f"{type(e).__name__}: {e}"
        return None

    def check_copies(
        self, state: Any, seat: Seat, action: Action, legal: list[Action], transition: Any
    ) -> None:
        """Mutate, deeply, everything returned about ``state`` and the events of its transition:
        neither state, nor what the engine lists or shows about them, may change."""
        game = self.game
        listed = json.loads(json.dumps(legal))
        taken = json.loads(json.dumps(action))
        handed = self.handed_out(state, seat, transition)
        seen = [canonical_json(game.encode_state(state)), canonical_json(game.encode_state(transition.state))]
        seen.append(canonical_json(handed[self.step % (len(self.all_seats) + 1)][1]))
        for _, data in handed:
            vandalise(data)
        problem = self.copies_problem(state, seat, transition, listed, seen)
        if problem is None:
            return
        # Name the culprit: vandalise one thing at a time on a fresh copy of the state.
        for name, _ in handed:
            try:
                fresh = game.decode_state(json.loads(seen[0]))
                again = game.apply(fresh, seat, taken)
                vandalise(dict(self.handed_out(fresh, seat, again))[name])
                found = self.copies_problem(fresh, seat, again, listed, seen)
            except Exception as e:  # an engine cache the first pass vandalised
                found = f"{type(e).__name__}: {e}"
            if found is not None:
                raise AssertionError(f"step {self.step}: what {name} returned is still the engine's: {found}")
        raise AssertionError(f"step {self.step}: mutating what the engine handed out: {problem}")

    def check_views(self, state: Any, events: Iterable[Any]) -> None:
        game = self.game
        events = list(events)
        for viewer in [*self.all_seats, None]:
            v = game.view(state, viewer)
            json_roundtrip(v, f"view({viewer})")
            secrets = game.secrets(state, viewer)
            assert_no_leak(v, secrets | {self.seed_hex}, f"view({viewer})")
            for ev in events:
                if ev.visible_to(viewer):
                    d = ev.as_dict()
                    json_roundtrip(d, f"event {ev.kind}")
                    assert_no_leak(d, secrets | {self.seed_hex}, f"event {ev.kind} to {viewer}")


def check_game(
    game: Game,
    seed: int,
    options: Mapping[str, Any],
    *,
    full_every: int = 1,
    copies_every: int = 1,
    max_actions: int = 200_000,
) -> Playout:
    """Play one seeded random game through the checks: the cheap ones at every step, the full
    ones (``apply``, views, events) every ``full_every``-th step, and ``check_copies`` on every
    ``copies_every``-th full step (it mutates everything handed out, and costs as much as the
    rest together)."""
    checker = Checker(game, seed, options, full_every=full_every, copies_every=copies_every)
    check_static_info(game, game.normalize_options(options))
    check_setup(checker, seed, options)
    record = play_random(game, seed, options, on_step=checker, max_actions=max_actions)
    assert record.outcome is not None, f"seed {seed}: game did not finish in {max_actions} actions"
    checker.check_views(record.state, [])
    # Replaying the log reproduces the game exactly.
    again, _ = replay(game, seed_from_int(seed), options, record.actions)
    assert state_hash(game, again) == record.final_hash, f"seed {seed}: replay differs"
    # The encoded state round-trips.
    decoded = game.decode_state(json.loads(json.dumps(game.encode_state(record.state))))
    assert state_hash(game, decoded) == record.final_hash
    return record


def check_static_info(game: Game, options: Mapping[str, Any]) -> None:
    """``static_info`` is built from the game's content: what one caller does to it reaches
    no other caller (nor the rules reading that content)."""
    first = game.static_info(options)
    text = json.dumps(first, sort_keys=True)
    vandalise(first)
    assert json.dumps(game.static_info(options), sort_keys=True) == text, (
        "static_info shares the game's content"
    )


def check_setup(checker: Checker, seed: int, options: Mapping[str, Any]) -> None:
    """``initial_transition`` is ``initial_state`` with the setup's events: they pass the checks
    every event passes, and they hold no part of the initial state."""
    game = checker.game
    opts = game.normalize_options(options)
    setup = game.initial_transition(seed_from_int(seed), opts)
    start = state_hash(game, setup.state)
    assert start == state_hash(game, game.initial_state(seed_from_int(seed), opts)), "setup differs"
    checker.check_views(setup.state, setup.events)
    for ev in setup.events:
        vandalise(ev.data)
    assert state_hash(game, setup.state) == start, "a setup event shares the initial state"


def shared_views_of_random_games(
    game: Game, seeds: Iterable[int], options_of: Any, max_actions: int
) -> Iterator[tuple[Any, bool, list[Seat | None], dict[Seat | None, Any]]]:
    """Every state of seeded random games (``options_of(seed)``), in play and revealed, with the
    views a ``SharedViews`` game builds at once for every seat and the spectators: each checked
    to be that viewer's own ``view`` (the same JSON text, key order included) and to hold none
    of its secrets; a ``SharedLegal`` game's kept lists, each seat's ``legal_actions``. Yields
    (state, reveal, viewers, views) for the game's own checks."""
    from backend.engine.core import SharedLegal
    from backend.engine.rng import seed_from_int

    for seed in seeds:
        options = game.normalize_options(options_of(seed))
        viewers: list[Seat | None] = [s.seat for s in game.seats(options)] + [None]
        record = play_random(game, seed, options, max_actions=max_actions)
        state = game.initial_state(seed_from_int(seed), options)
        for n in range(len(record.actions) + 1):
            if n:
                state = game.apply(state, *record.actions[n - 1]).state
            if isinstance(game, SharedLegal):
                for seat in viewers[:-1]:
                    assert seat is not None
                    assert json.dumps(game.legal_read(state, seat)) == json.dumps(game.legal_actions(state, seat))
            for reveal in (False, True):
                views = game.views(state, viewers, reveal=reveal)  # type: ignore[attr-defined]
                assert set(views) == set(viewers)
                for viewer in viewers:
                    assert json.dumps(views[viewer]) == json.dumps(game.view(state, viewer, reveal=reveal))
                    if not reveal:
                        assert_no_leak(views[viewer], game.secrets(state, viewer), f"views()[{viewer}] at {n}")
                yield state, reveal, viewers, views
