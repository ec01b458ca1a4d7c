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
* replaying the recorded actions reproduces the final state hash.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from backend.engine.core import Action, Game, IllegalAction, Seat
from backend.engine.playout import Playout, play_random
from backend.engine.replay import replay, state_hash
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


def json_roundtrip(payload: Any, where: str) -> None:
    again = json.loads(json.dumps(payload, allow_nan=False))
    assert again == payload, f"{where}: not JSON-safe"


class Checker:
    def __init__(self, game: Game, seed: int, options: Mapping[str, Any], *, full_every: int = 1):
        self.game = game
        self.seed_hex = seed_from_int(seed).hex()
        self.all_seats = [s.seat for s in game.seats(game.normalize_options(options))]
        self.seen_actions: list[Action] = []
        self.seen_keys: set[str] = set()
        self.rng = Rng(seed_from_int(seed ^ 0xC0FFEE))
        self.step = 0
        self.full_every = full_every

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
            if other not in to_act:
                self.refused(state, other, action, "seat not on turn")
                break
        self.refused(state, seat, MALFORMED[self.rng.below(len(MALFORMED))], "malformed action")
        if full:
            before = state_hash(game, state)
            transition = game.apply(state, seat, action)
            assert state_hash(game, state) == before, "apply mutated its input state"
            self.check_views(transition.state, transition.events)

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
    game: Game, seed: int, options: Mapping[str, Any], *, full_every: int = 1, max_actions: int = 200_000
) -> Playout:
    checker = Checker(game, seed, options, full_every=full_every)
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
