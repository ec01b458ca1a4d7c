"""Dorn on the engine contract (backend/engine/core.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.engine.core import Action, Outcome, SeatInfo, Transition

from . import actions, sim, view
from .board import BOARD, load_json
from .catalog import HEROES, TIE_BREAK
from .rules import setup
from .state import State, clone


class DornGame:
    name = "dorn"
    title = "Dorn"
    rules_version = 1

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return setup.normalize_options(options)

    def seats(self, options: Mapping[str, Any]) -> list[SeatInfo]:
        out = [SeatInfo("keeper", "Zorkal, the Dornkeeper")]
        for i, group in enumerate(options["split"]):
            names = ", ".join(HEROES[h]["name"] for h in group)
            out.append(SeatInfo(f"heroes_{i + 1}", names))
        return out

    def static_info(self, options: Mapping[str, Any]) -> dict[str, Any]:
        board = load_json("board.json")
        return {
            "board": {
                "width": BOARD.width,
                "height": BOARD.height,
                "terrain": board["terrain"],
                "markers": board["markers"],
                "legend": board["legend"],
                "specials": board["specials"],
                "zones": board["zones"],
            },
            "tie_break": TIE_BREAK,
            **view.catalogue(),
        }

    def initial_state(self, seed: bytes, options: Mapping[str, Any]) -> State:
        return setup.initial_state(seed, options)

    def to_act(self, state: State) -> frozenset[str]:
        return actions.to_act(state)

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        return actions.legal(state, seat)

    def validate(self, state: State, seat: str, action: Action) -> None:
        actions.check(state, seat, action)

    def apply(self, state: State, seat: str, action: Action) -> Transition[State]:
        return actions.apply(state, seat, action)

    def default_action(self, state: State, seat: str) -> Action | None:
        return actions.default_action(state, seat)

    def batch_order(self, state: State, batch: list[tuple[str, Action]]) -> list[tuple[str, Action]]:
        return actions.batch_order(state, batch)

    def view(self, state: State, seat: str | None, *, reveal: bool = False) -> dict[str, Any]:
        return view.view(state, seat, actions.to_act(state), reveal=reveal)

    def outcome(self, state: State) -> Outcome | None:
        o = state["outcome"]
        if o is None:
            return None
        return Outcome(o["result"], frozenset(o["winners"]), o["reason"])

    def encode_state(self, state: State) -> dict[str, Any]:
        return state

    def decode_state(self, data: Mapping[str, Any]) -> State:
        return clone(dict(data))

    def sim_options(self, rng: Any, players: int | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """Random 5 heroes and a random split among ``players - 1`` hero seats (2-6 seats with
        the Keeper).  The engine limits of content 5.12 are only a safety net: steered random
        play (``sim.py``) ends almost every game in a victory within 30-60 Keeper turns, far
        below ``round_limit``.  Surrender is allowed in one game of ten (random play takes it
        at once when it is listed, so it would otherwise end every game)."""
        if players is None:
            players = 2 + rng.below(5)
        hero_seats = max(1, min(5, players - 1))
        heroes = rng.shuffled(TIE_BREAK)[:5]
        cuts = sorted(rng.shuffled(list(range(1, 5)))[: hero_seats - 1])
        bounds = [0, *cuts, 5]
        split = [heroes[bounds[i] : bounds[i + 1]] for i in range(hero_seats)]
        options: dict[str, Any] = {
            "heroes": sorted(heroes),
            "split": split,
            "round_limit": 200,
            "phase_action_limit": 40,
            "take_back_limit": 1,
            "allow_surrender": rng.below(10) == 0,
        }
        options.update(overrides)
        return options

    def sim_choice(self, state: State, seat: str, legal: list[Action], rng: Any) -> Action:
        """The random driver's pick, steered towards progress (see ``sim.py``)."""
        return sim.choose(state, seat, legal, rng)

    def secrets(self, state: State, seat: str | None) -> set[str]:
        return view.secrets(state, seat)


GAME = DornGame()
