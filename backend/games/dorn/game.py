"""Dorn on the engine contract (backend/engine/core.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from backend.engine.core import Action, Game, Outcome, SeatInfo, SideWatching, Transition

from . import actions, determinise, fork, sim, view
from .board import BOARD, load_json
from .catalog import (
    BLOOD_CAP,
    GATE_NEEDS,
    HEROES,
    LEVEL_XP,
    RULES,
    TIE_BREAK,
    VARIANT_ORDER,
    VARIANTS,
    WEAK_CAP,
    ZORKAL_STATS,
)
from .rules import clock, setup, variants
from .state import KEEPER, State, copy_json


class DornGame:
    name = "dorn"
    title = "Dorn"
    rules_version = 1

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return setup.normalize_options(options)

    def options_schema(self) -> dict[str, Any]:
        """What a host chooses (the JSON-schema subset of docs/protocol.md items 4-5): 5 of the
        9 heroes, how they are shared among 1-5 hero seats (the lobby's seat-split widget), and
        whether surrender is allowed.  The engine limits of content 5.12 (``round_limit``,
        ``phase_action_limit``, ``take_back_limit``) and ``hero_seats`` (a round-robin split) are
        for simulations: they are not offered, but ``x-engine`` states their bounds, because the
        server accepts no option its game's schema does not describe (backend/engine/options.py)."""
        default = setup.normalize_options({})
        names = {h: HEROES[h]["name"] for h in TIE_BREAK}
        return {
            "type": "object",
            "properties": {
                "heroes": {
                    "title": "Heroes",
                    "description": f"Dorn is played with {setup.HEROES_PER_GAME} of the {len(TIE_BREAK)} heroes "
                    f"({setup.FOUR['heroes']} with Four Heroes; with Random Group they are drawn instead).",
                    "type": "array",
                    "items": {"enum": list(TIE_BREAK)},
                    "x-labels": names,
                    "uniqueItems": True,
                    "minItems": min(setup.HEROES_PER_GAME, setup.FOUR["heroes"]),
                    "maxItems": setup.HEROES_PER_GAME,
                    "default": default["heroes"],
                },
                "split": {
                    "title": "Hero seats",
                    "description": "The chosen heroes shared among 1 to "
                    f"{setup.MAX_HERO_SEATS} hero seats (the Dornkeeper has a seat of his own); "
                    "each seat plays its heroes, and one person may take several seats.",
                    "type": "array",
                    "x-widget": "seat-split",
                    "x-of": "heroes",
                    "minItems": 1,
                    "maxItems": setup.MAX_HERO_SEATS,
                    "items": {"type": "array", "items": {"enum": list(TIE_BREAK)}, "minItems": 1},
                    "default": default["split"],
                },
                "allow_surrender": {
                    "title": "Allow surrender",
                    "description": "The Keeper may surrender; the hero seats may surrender when all agree.",
                    "type": "boolean",
                    "default": default["allow_surrender"],
                },
                **self._variant_schema(default),
                **self._watch_schema(default),
            },
            "required": ["heroes", "split"],
            "x-engine": {
                **{
                    key: {"type": ["integer", "null"], "minimum": 1, "maximum": top}
                    for key, top in setup.ENGINE_LIMITS.items()
                },
                "hero_seats": {"type": "integer", "minimum": 1, "maximum": setup.MAX_HERO_SEATS},
            },
        }

    @staticmethod
    def _variant_schema(default: Mapping[str, Any]) -> dict[str, Any]:
        """The six variants of content 6, one checkbox each in the lobby (any combination), and
        Real Day and Night's turn clock; titles and texts from data/variants.json."""
        out: dict[str, Any] = {
            key: {
                "title": VARIANTS[key]["title"],
                "description": VARIANTS[key]["description"],
                "type": "boolean",
                "default": default[key],
            }
            for key in VARIANT_ORDER
        }
        clock = VARIANTS[variants.REAL_DAY_NIGHT]
        out["turn_clock"] = {
            "title": "Turn clock (seconds)",
            "description": "Real Day and Night: the time each Keeper turn and each hero turn has.",
            "enum": list(clock["seconds"]),
            "default": default["turn_clock"],
        }
        return out

    @staticmethod
    def _watch_schema(default: Mapping[str, Any]) -> dict[str, Any]:
        """Watching from a side (issue 14.4; ``side_watching`` below)."""
        low, high = setup.WATCH_ROUNDS
        return {
            "side_watching": {
                "title": "Spectators may watch from a side",
                "description": "Spectators may choose to watch with the heroes or with the Keeper, seeing "
                "that side's hidden cards, but only whole rounds behind the table; the public view stays live.",
                "enum": list(setup.SIDE_WATCHING),
                "default": default["side_watching"],
            },
            "side_watch_rounds": {
                "title": "Side watching: rounds behind",
                "description": "How many full rounds (a Keeper turn and a hero turn) a side's spectators are behind.",
                "type": "integer",
                "enum": list(range(low, high + 1)),
                "minimum": low,
                "maximum": high,
                "default": default["side_watch_rounds"],
            },
        }

    def side_watching(self, options: Mapping[str, Any]) -> SideWatching:
        """Spectators with the Keeper see his seat's view; with the heroes, the first hero seat's:
        every item the heroes hold and that seat's Blessing (another hero seat's Blessing is hidden
        from it too, content 4).  Ruling W1 of docs/rules/dorn.md."""
        chosen = options.get("side_watching", "off")
        allowed = {"both": {"heroes", KEEPER}, "off": set()}.get(chosen, {chosen})
        return SideWatching(
            seats={"heroes": setup.seat_names(options)[1], KEEPER: KEEPER},
            allowed=frozenset(allowed),
            rounds=int(options.get("side_watch_rounds", setup.WATCH_ROUNDS[0])),
        )

    def round_of(self, state: State) -> int:
        """Round k is Keeper turn k and then hero turn k (RB Turn Structure; ruling W1)."""
        return int(state["k"])

    def seats(self, options: Mapping[str, Any]) -> list[SeatInfo]:
        out = [SeatInfo(KEEPER, "Zorkal, the Dornkeeper")]
        for i, group in enumerate(options["split"]):
            if variants.on(options, variants.RANDOM_GROUP):
                names = "heroes drawn at setup (Random Group)"
            else:
                names = ", ".join(HEROES[h]["name"] for h in group)
            out.append(SeatInfo(f"heroes_{i + 1}", names))
        return out

    def sides(self, options: Mapping[str, Any]) -> dict[str, list[str]]:
        """The Keeper plays against every hero seat (``backend/engine/core.py::Sides``)."""
        return {KEEPER: [KEEPER], "heroes": [s.seat for s in self.seats(options) if s.seat != KEEPER]}

    def static_info(self, options: Mapping[str, Any]) -> dict[str, Any]:
        board = load_json("board.json")
        info = {
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
            # docs/protocol.md client item 6: what the panels draw with.
            "artifacts": {
                aid: {"name": info["name"], "home": list(BOARD.xy(BOARD.artifact_homes[info["home"]]))}
                for aid, info in setup.in_game_artifacts(options).items()
            },
            "zorkal": {
                "name": ZORKAL_STATS["name"],
                "life": ZORKAL_STATS["life"],  # per level 1..3
                "attacks": ZORKAL_STATS["attacks"],  # per level 1..3
                "move": ZORKAL_STATS["move"],
                # Blood Drops for level 2, then level 3 (8 and 10 with Four Heroes)
                "level_cost": [variants.zorkal_level_cost(options, lv) for lv in (1, 2)],
            },
            "level_xp": LEVEL_XP,  # XP to reach level 1, 2, 3
            "blood_cap": BLOOD_CAP,
            "chamber_fill_turns": RULES["chamber_fill_turns"],
            "gate_needs": GATE_NEEDS,
            "summons": RULES["summons"],
            "weak_cap": WEAK_CAP,
        }
        out: dict[str, Any] = copy_json(
            info
        )  # copied: the stats and rules above are the catalogue's own tables
        if variants.on(options, variants.FOUR_HEROES):
            # The table's own numbers (content 6.6): every Ritual +1, every hero +1 life per level.
            for card, ritual in out["rituals"].items():
                ritual["cost"] = variants.ritual_cost(options, card)
            for hid, hero in out["heroes"].items():
                hero["life"] = [variants.max_life(options, hid, lv + 1) for lv in range(len(hero["life"]))]
        return out

    def initial_state(self, seed: bytes, options: Mapping[str, Any]) -> State:
        return setup.initial_transition(seed, options).state

    def initial_transition(self, seed: bytes, options: Mapping[str, Any]) -> Transition[State]:
        return setup.initial_transition(seed, options)

    def to_act(self, state: State) -> frozenset[str]:
        return actions.to_act(state)

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        return actions.legal(state, seat)

    # ``action: Any``, not ``Action``: it is what a client sent, and ``check`` refuses anything but
    # a well-formed action with IllegalAction.  Compiled by mypyc (backend/native.py), a method
    # checks its arguments' declared types on entry: a list or a number would raise TypeError.
    def validate(self, state: State, seat: str, action: Any) -> None:
        actions.check(state, seat, action)

    def apply(self, state: State, seat: str, action: Any) -> Transition[State]:
        return actions.apply(state, seat, action)

    def default_action(self, state: State, seat: str) -> Action | None:
        return actions.default_action(state, seat)

    def turn_clock(self, state: State) -> dict[str, Any] | None:
        """Real Day and Night (content 6.5; ``rules/clock.py``): the turn's clock, for the server
        (``backend/engine/core.py::TurnClock``)."""
        return clock.clock(state, actions.to_act(state))

    def sample_state(self, view: Mapping[str, Any], seat: str, rng: Any, events: Any = ()) -> State:
        """A full state ``seat`` cannot tell from the real one, for the bots (``determinise.py``)."""
        return determinise.sample_state(view, seat, rng, events)

    def fork_state(self, state: State, seed: bytes) -> State:
        """The state to play a fork from: the decks shuffled again from ``seed`` (``fork.py``)."""
        return fork.fork_state(state, seed)

    def view(self, state: State, seat: str | None, *, reveal: bool = False) -> dict[str, Any]:
        return view.view(state, seat, actions.to_act(state), reveal=reveal)

    def views(
        self, state: State, viewers: Sequence[str | None], *, reveal: bool = False
    ) -> dict[str | None, dict[str, Any]]:
        """``SharedViews``: the server's audiences' views from one build (``view.views``)."""
        return view.views(state, viewers, actions.to_act(state), reveal=reveal)

    def outcome(self, state: State) -> Outcome | None:
        o = state["outcome"]
        if o is None:
            return None
        return Outcome(o["result"], frozenset(o["winners"]), o["reason"])

    def encode_state(self, state: State) -> dict[str, Any]:
        """The state is JSON already; a copy, so that what is hashed or stored is not the state."""
        encoded: dict[str, Any] = copy_json(state)
        return encoded

    def decode_state(self, data: Mapping[str, Any]) -> State:
        decoded: State = copy_json(dict(data))  # data from encode_state: checked by the replays' hashes
        return decoded

    def sim_options(self, rng: Any, players: int | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """Random 5 heroes and a random split among ``players - 1`` hero seats (2-6 seats with
        the Keeper).  The engine limits of content 5.12 are only a safety net: steered random
        play (``sim.py``) ends every game in a victory or a surrender within 45 Keeper turns,
        far below ``round_limit``.  Surrender is allowed: the steering takes it deliberately
        (rarely at random, and by the side behind in a game that has lasted 45 Keeper turns),
        never as a uniform pick."""
        if players is None:
            players = 2 + rng.below(5)
        # Four Heroes (content 6.6), when the overrides ask for it: 4 heroes on 1-4 hero seats.
        count = setup.hero_count(overrides)
        hero_seats = max(1, min(setup.max_hero_seats(overrides), players - 1))
        heroes = rng.shuffled(TIE_BREAK)[:count]
        cuts = sorted(rng.shuffled(list(range(1, count)))[: hero_seats - 1])
        bounds = [0, *cuts, count]
        split = [heroes[bounds[i] : bounds[i + 1]] for i in range(hero_seats)]
        options: dict[str, Any] = {
            "heroes": sorted(heroes),
            "split": split,
            "round_limit": 200,
            "phase_action_limit": 40,
            "take_back_limit": 1,
            "allow_surrender": True,
        }
        options.update(overrides)
        return options

    def sim_choice(self, state: State, seat: str, legal: list[Action], rng: Any) -> Action:
        """The random driver's pick, steered towards progress (see ``sim.py``)."""
        return sim.choose(state, seat, legal, rng)

    def sim_pick(self, state: State, seat: str, rng: Any) -> Action | None:
        """``sim_choice`` on the seat's list without the list, in the Keeper's movement step
        (``sim.pick``); None elsewhere."""
        return sim.pick(state, seat, rng)

    def redact_action(
        self, options: Mapping[str, Any], actor: str, action: Action, viewers: frozenset[str]
    ) -> Action:
        """Item cards held by heroes are seen by every hero seat and by nobody else (content 4),
        so the card an item ``give`` names is kept from the Keeper and spectators; every other
        action is public once taken (a played card is face up, a discarded item lies face up)."""
        if action.get("type") == "give" and "card" in action and not viewers - {KEEPER}:
            return {**action, "card": None}
        return action

    def secrets(self, state: State, seat: str | None) -> set[str]:
        return view.secrets(state, seat)


GAME: Final[Game[State]] = DornGame()
