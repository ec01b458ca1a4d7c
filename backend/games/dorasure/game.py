"""Dorasure as an engine Game: options, setup (content §8.2), and the contract glue."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from backend.engine.core import Game, InvalidOptions, Outcome, SeatInfo, Transition
from backend.engine.rng import Rng

from . import actions, determinise, sim
from . import view as view_mod
from .content import (
    FANG_SITES,
    GRAND_MASTER,
    HEROES,
    LANDS,
    MOUNTAINS,
    PARTY_HEROES,
    PRIORITY,
    QUESTS,
    REWARD_POOL,
)
from .rules import adventure, battle, damage, dragon, movement, quest, rolls, turn  # noqa: F401  (registers ops)
from .rules.flow import PROMPTS, Ctx, run
from .rules.heroes import new_hero
from .state import State

OPTION_KEYS = {"heroes", "fang"}


class Dorasure:
    name = "dorasure"
    title = "Dorasure"
    rules_version = 1

    # -- options ---------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - OPTION_KEYS
        if unknown:
            raise InvalidOptions(
                "unknown_option", f"Unknown Dorasure option(s): {', '.join(sorted(unknown))}."
            )
        heroes = options.get("heroes")
        if heroes is None:
            raise InvalidOptions("no_heroes", "Choose the heroes for this table (1 to 11).")
        if not isinstance(heroes, list | tuple) or not all(isinstance(h, str) for h in heroes):
            raise InvalidOptions("bad_heroes", "Heroes must be a list of hero ids.")
        for h in heroes:
            if h not in HEROES:
                raise InvalidOptions("unknown_hero", f"There is no hero called {h!r}.")
        if len(set(heroes)) != len(heroes):
            raise InvalidOptions("duplicate_hero", "Each character can be played at most once.")
        if not 1 <= len(heroes) <= 11:
            raise InvalidOptions("player_count", "Dorasure is played with 1 to 11 heroes.")
        if GRAND_MASTER in heroes and len(heroes) > 1:
            raise InvalidOptions(
                "grand_master_alone", "If the Grand Master is used, no other heroes are allowed."
            )
        if len(heroes) == 1 and heroes[0] != GRAND_MASTER:
            raise InvalidOptions(
                "lone_hero",
                "A one-hero game is played with the Grand Master; choose him or at least two heroes.",
            )
        fang = options.get("fang", False)
        if not isinstance(fang, bool):
            raise InvalidOptions("bad_fang", "The Fang option is true or false.")
        return {"heroes": sorted(heroes, key=PRIORITY.__getitem__), "fang": fang}

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
        fang = bool(overrides.get("fang", False))
        chosen = list(overrides.get("heroes") or [])
        if players is None:
            players = len(chosen) if chosen else 1 + rng.below(5)
        if players == 1 and not chosen:
            return {"heroes": [GRAND_MASTER], "fang": fang}
        pool = [h for h in PARTY_HEROES if h not in chosen]
        while len(chosen) < players and pool:
            chosen.append(pool.pop(rng.below(len(pool))))
        return {"heroes": chosen, "fang": fang}

    # -- setup (§8.2) ------------------------------------------------------------
    def initial_state(self, seed: bytes, options: Mapping[str, Any]) -> State:
        return self.initial_transition(seed, options).state

    def initial_transition(self, seed: bytes, options: Mapping[str, Any]) -> Transition[State]:
        """Setup, then the first hero's turn up to his first decision: its movement roll, and
        any Rampage or damage the roll causes, are setup events (the log's first entry)."""
        s = blank_state(seed.hex(), self.normalize_options(options))
        ctx = Ctx(s)
        rewards = ctx.rng.shuffled(list(REWARD_POOL))
        quests = ctx.rng.shuffled(sorted(QUESTS))
        s.mountains = {
            m: {
                "quest": quests[i],
                "reward": rewards[i],
                "state": "hidden",
                "reward_state": "hidden",
                "flags": 0,
                "replenished": False,
            }
            for i, m in enumerate(MOUNTAINS)
        }
        s.reserve = sorted(quests[len(MOUNTAINS) :])
        if s.fang:
            tiles = ctx.rng.shuffled(sorted(LANDS))
            s.lands = dict(zip(FANG_SITES, tiles[: len(FANG_SITES)], strict=True))
        # Face-down tiles stay unnamed; Fang's land tiles are placed face up (§9.1).
        lands = {"lands": dict(s.lands)} if s.fang else {}
        ctx.emit("setup", "The heroes gather in the City; the Dragon sleeps.", heroes=list(s.order), **lands)
        turn.begin_turn(s, s.order[0])
        run(ctx)
        ctx.finish()
        return Transition(s, tuple(ctx.events))

    # -- play --------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[str]:
        if state.result is not None:
            return frozenset()
        return frozenset(p["seat"] for p in state.prompts)

    def legal_actions(self, state: State, seat: str) -> list[dict[str, Any]]:
        return actions.legal(state, seat)

    def validate(self, state: State, seat: str, action: dict[str, Any]) -> None:
        actions.validate(state, seat, action)

    def apply(self, state: State, seat: str, action: dict[str, Any]) -> Transition[State]:
        actions.validate(state, seat, action)
        s = state.clone()
        ctx = Ctx(s)
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

    def view(self, state: State, seat: str | None, *, reveal: bool = False) -> dict[str, Any]:
        return view_mod.view(state, seat, reveal)

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        result, reason = state.result
        winners = frozenset(state.order) if result == "players_win" else frozenset()
        return Outcome(result, winners, reason)

    def encode_state(self, state: State) -> dict[str, Any]:
        return state.encode()

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


def blank_state(seed_hex: str, opts: Mapping[str, Any]) -> State:
    """Heroes placed at level 1 (§8.2 steps 1–3, 6); tiles and the first turn come after."""
    order = tuple(opts["heroes"])
    return State(
        seed=seed_hex,
        order=order,
        fang=opts["fang"],
        current=order[0],
        heroes={h: new_hero(h) for h in order},
    )


GAME: Game[State] = Dorasure()
