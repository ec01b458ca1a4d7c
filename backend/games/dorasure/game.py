"""Dorasure as an engine Game: a thin adapter from the contract (backend/engine/core.py) to the
rules (``rules/``: setup, flow and one module per chapter), ``actions.py`` and ``view.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from backend.engine.core import Game, Outcome, SeatInfo, Transition
from backend.engine.rng import Rng

from . import actions, determinise, fork, sim
from . import odds as odds_mod
from . import view as view_mod
from .content import HEROES, PRIORITY
from .rules import adventure, battle, damage, dragon, movement, quest, rolls, turn  # noqa: F401  (registers ops)
from .rules.flow import PROMPTS, Ctx, run
from .rules.setup import normalize_options, setup, sim_options
from .state import State


class Dorasure:
    name = "dorasure"
    title = "Dorasure"
    rules_version = 2  # 2: undo_step (the movement keeps what each step changed)

    # -- options ---------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return normalize_options(options)

    def options_schema(self) -> dict[str, Any]:
        """How a lobby offers the options above (a JSON-schema subset, see docs/protocol.md)."""
        ids = sorted(HEROES, key=lambda h: PRIORITY.get(h, len(PRIORITY)))
        return {
            "type": "object",
            "properties": {
                "heroes": {
                    "title": "Heroes",
                    "description": "One seat per hero, 2 to 11 heroes; the Grand Master plays alone.",
                    "type": "array",
                    "items": {"enum": ids},
                    "x-labels": {h: HEROES[h]["name"] for h in ids},
                    "minItems": 1,
                    "maxItems": 11,
                    "default": ["ninja", "hunter"],
                },
                "fang": {
                    "title": "Fang expansion",
                    "description": "Five land tiles replace the Fang sites.",
                    "type": "boolean",
                    "default": False,
                },
            },
            "required": ["heroes"],
        }

    def seats(self, options: Mapping[str, Any]) -> list[SeatInfo]:
        return [SeatInfo(h, HEROES[h]["name"]) for h in options["heroes"]]

    def static_info(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return view_mod.static_info(list(options["heroes"]), bool(options.get("fang")))

    def sim_options(self, rng: Rng, players: int | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
        return sim_options(rng, players, overrides)

    # -- setup (§8.2) ------------------------------------------------------------
    def initial_state(self, seed: bytes, options: Mapping[str, Any]) -> State:
        return self.initial_transition(seed, options).state

    def initial_transition(self, seed: bytes, options: Mapping[str, Any]) -> Transition[State]:
        return setup(seed, self.normalize_options(options))

    # -- play --------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[str]:
        if state.result is not None:
            return frozenset()
        return frozenset(p["seat"] for p in state.prompts)

    def legal_actions(self, state: State, seat: str) -> list[dict[str, Any]]:
        return actions.legal(state, seat)

    def legal_read(self, state: State, seat: str) -> list[dict[str, Any]]:
        """``SharedLegal``: the memoised list itself, read only."""
        return actions.legal_read(state, seat)

    def validate(self, state: State, seat: str, action: object) -> None:  # any JSON: refused unless listed
        actions.validate(state, seat, action)

    def apply(self, state: State, seat: str, action: dict[str, Any]) -> Transition[State]:
        actions.validate(state, seat, action)
        s = state.clone()
        ctx = Ctx(s, before=state)
        p = s.prompt_for(seat)
        assert p is not None
        s.prompts.remove(p)
        PROMPTS[p["kind"]].answer(ctx, p, action)
        run(ctx)
        ctx.finish()
        return Transition(s, tuple(ctx.events))

    def sim_choice(self, state: State, seat: str, legal: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
        """The random driver's pick, steered towards progress (see ``sim.py``)."""
        return sim.choose(state, seat, legal, rng)

    def default_action(self, state: State, seat: str) -> dict[str, Any] | None:
        return actions.default(state, seat)

    def sample_state(
        self, view: Mapping[str, Any], seat: str, rng: Rng, events: Sequence[Mapping[str, Any]] = ()
    ) -> State:
        """A full state ``seat`` cannot tell from the real one, for the bots (``determinise.py``)."""
        return determinise.sample_state(view, seat, rng, events)

    def at_rest(self, state: State) -> None:
        # The movement searches and listed actions of this state (rules/movement.py,
        # actions.py), and the view parts kept for its next views (view.py): built again on
        # the next ask.
        state._cache.clear()
        state._shown.clear()

    def fork_state(self, state: State, seed: bytes) -> State:
        """The state to play a fork from: face-down tiles dealt again from ``seed`` (``fork.py``)."""
        return fork.fork_state(state, seed)

    def odds(self, view: Mapping[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """Exact odds of a listed action that rolls, from the seat's own view (``odds.py``)."""
        return odds_mod.odds(view, seat, action)

    def view(self, state: State, seat: str | None, *, reveal: bool = False) -> dict[str, Any]:
        return view_mod.view(state, seat, reveal)

    def views(
        self, state: State, viewers: Sequence[str | None], *, reveal: bool = False
    ) -> dict[str | None, dict[str, Any]]:
        return view_mod.views(state, viewers, reveal)

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        result, reason = state.result
        winners = frozenset(state.order) if result == "players_win" else frozenset()
        return Outcome(result, winners, reason)

    def encode_state(self, state: State) -> dict[str, Any]:
        return state.encode()

    def encode_read(self, state: State) -> dict[str, Any]:
        """``SharedEncoding``: the state's data without copies, to be spelled at once."""
        return state.encode_read()

    def decode_state(self, data: Mapping[str, Any]) -> State:
        return State.decode(dict(data))

    def redact_action(
        self, options: Mapping[str, Any], actor: str, action: dict[str, Any], viewers: frozenset[str]
    ) -> dict[str, Any]:
        """Every Dorasure action is public: they name spaces, dice, amounts and seats, never a
        face-down tile (tiles are revealed by the rules, in events, when a hero reaches them)."""
        return action

    def secrets(self, state: State, seat: str | None) -> set[str]:
        return view_mod.secrets(state)


GAME: Game[State] = Dorasure()
