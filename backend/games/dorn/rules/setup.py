"""Options and setup (RB Setup; content 5.1 S1-S10, 5.12)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from backend.engine.core import Action, InvalidOptions, Transition
from backend.engine.rng import Rng

from ..board import BOARD, load_json
from ..catalog import (
    ARTIFACTS,
    BAG,
    BLESSINGS,
    HEROES,
    RITUAL_HAND,
    RITUALS,
    RULES,
    TIE_BREAK,
    TREASURES,
    VARIANT_ORDER,
    VARIANTS,
    ZORKAL_STATS,
    hero_stat,
)
from ..state import KEEPER, HeroState, PromptState, State, Work, copy_json, xy
from . import obstacles, summoning, turns, variants
from .prompts import PromptRule, ask

HEROES_PER_GAME: Final[int] = RULES["heroes_per_game"]
MAX_HERO_SEATS: Final[int] = RULES["max_hero_seats"]
FOUR: Final[dict[str, Any]] = VARIANTS[variants.FOUR_HEROES]
CLOCK: Final[dict[str, Any]] = VARIANTS[variants.REAL_DAY_NIGHT]


# The engine limits of content 5.12 and their largest values.  Simulations use 200, 40 and 1;
# the bounds keep a table's options encodable (a round_limit of 2**70 was accepted and then
# broke every welcome) and are what options_schema publishes.
ENGINE_LIMITS: Final[dict[str, int]] = {
    "round_limit": 1000,
    "phase_action_limit": 1000,
    "take_back_limit": 100,
}

# Watching from a side (issue 14.4; docs/rules/dorn.md "Watching from a side"): which sides
# spectators may watch with, and how many full rounds behind.  The server's options, not the
# rules': they are kept out of the state, so they change no state hash (tables and records
# stored before them replay unchanged).
SIDE_WATCHING: Final = ("off", "heroes", "keeper", "both")
WATCH_ROUNDS: Final = (1, 3)
WATCH_OPTIONS: Final = ("side_watching", "side_watch_rounds")


def _side_watching(options: Mapping[str, Any]) -> tuple[str, int]:
    side = options.get("side_watching", "off")
    if side not in SIDE_WATCHING:
        raise InvalidOptions("bad_option", f"'side_watching' must be one of {', '.join(SIDE_WATCHING)}.")
    rounds = options.get("side_watch_rounds", WATCH_ROUNDS[0])
    low, high = WATCH_ROUNDS
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not low <= rounds <= high:
        raise InvalidOptions(
            "bad_option", f"'side_watch_rounds' must be a whole number from {low} to {high}."
        )
    return side, rounds


def _limit(options: Mapping[str, Any], key: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    top = ENGINE_LIMITS[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
        raise InvalidOptions("bad_option", f"'{key}' must be a whole number from 1 to {top}, or null.")
    return value


def _flag(options: Mapping[str, Any], key: str) -> bool:
    value = options.get(key, False)
    if not isinstance(value, bool):
        raise InvalidOptions("bad_option", f"'{key}' must be true or false.")
    return value


def hero_count(options: Mapping[str, Any]) -> int:
    """5 heroes, 4 with Four Heroes (content 6.6)."""
    return int(FOUR["heroes"]) if options.get(variants.FOUR_HEROES) else HEROES_PER_GAME


def max_hero_seats(options: Mapping[str, Any]) -> int:
    """1-5 hero seats, 1-4 with Four Heroes (content 6.6)."""
    return int(FOUR["max_hero_seats"]) if options.get(variants.FOUR_HEROES) else MAX_HERO_SEATS


def _turn_clock(options: Mapping[str, Any]) -> int:
    value = options.get("turn_clock", CLOCK["default_seconds"])
    if isinstance(value, bool) or value not in CLOCK["seconds"]:
        shown = ", ".join(str(v) for v in CLOCK["seconds"])
        raise InvalidOptions("bad_option", f"'turn_clock' must be one of {shown} seconds.")
    return int(value)


def normalize_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Check heroes and split (S1): 5 different heroes of the 9 (4 with Four Heroes), shared
    among 1-5 hero seats (1-4), each seat at least one hero.  Without a split, round-robin in
    tie-break order.  The variants of content 6 are flags, in any combination; ``turn_clock`` is
    Real Day and Night's T (kept, and unused, when that variant is off).  With Random Group the
    heroes are drawn at setup (``initial_transition``): the chosen ones and the split only give
    the number of hero seats (ruling V5).  ``side_watching`` and ``side_watch_rounds`` are
    the table's watching from a side (``WATCH_OPTIONS``)."""
    known = {
        "heroes",
        "split",
        "round_limit",
        "phase_action_limit",
        "take_back_limit",
        "allow_surrender",
        "hero_seats",
        "turn_clock",
        *WATCH_OPTIONS,
        *VARIANT_ORDER,
    }
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidOptions("unknown_option", f"Dorn has no option {unknown[0]!r}.")
    flags = {key: _flag(options, key) for key in VARIANT_ORDER}
    count, top = hero_count(flags), max_hero_seats(flags)
    heroes = options.get("heroes")
    if heroes is None:
        heroes = TIE_BREAK[:count]
    if not isinstance(heroes, list | tuple) or not all(isinstance(h, str) for h in heroes):
        raise InvalidOptions("bad_heroes", "'heroes' must be a list of hero ids.")
    for h in heroes:
        if h not in HEROES:
            raise InvalidOptions(
                "unknown_hero", f"There is no hero {h!r}; choose from {', '.join(TIE_BREAK)}."
            )
    if len(set(heroes)) != len(heroes):
        raise InvalidOptions("duplicate_hero", "Each hero can be chosen only once.")
    if len(heroes) != count:
        four = " with Four Heroes" if flags[variants.FOUR_HEROES] else ""
        raise InvalidOptions("hero_count", f"Dorn is played with {count} heroes (of the 9){four}.")
    ordered = sorted(heroes, key=TIE_BREAK.index)
    split = options.get("split")
    if split is None:
        n = options.get("hero_seats", 1)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= top:
            raise InvalidOptions("bad_hero_seats", f"'hero_seats' must be 1 to {top}.")
        split = round_robin(ordered, n)
    if not isinstance(split, list | tuple) or not all(isinstance(g, list | tuple) for g in split):
        raise InvalidOptions("bad_split", "'split' must be a list of lists of hero ids, one per hero seat.")
    if not 1 <= len(split) <= top:
        raise InvalidOptions("bad_split", f"There must be 1 to {top} hero seats.")
    if any(not group for group in split):
        raise InvalidOptions("bad_split", "Every hero seat needs at least one hero.")
    flat = [h for group in split for h in group]
    if sorted(flat) != sorted(heroes) or len(flat) != len(set(flat)):
        raise InvalidOptions("bad_split", "The split must share exactly the chosen heroes, each once.")
    allow = options.get("allow_surrender", True)
    if not isinstance(allow, bool):
        raise InvalidOptions("bad_option", "'allow_surrender' must be true or false.")
    side, rounds = _side_watching(options)
    return {
        "heroes": ordered,
        "split": [sorted(group, key=TIE_BREAK.index) for group in split],
        "round_limit": _limit(options, "round_limit"),
        "phase_action_limit": _limit(options, "phase_action_limit"),
        "take_back_limit": _limit(options, "take_back_limit"),
        "allow_surrender": allow,
        **flags,
        "turn_clock": _turn_clock(options),
        "side_watching": side,
        "side_watch_rounds": rounds,
    }


def round_robin(heroes: list[str], seats: int) -> list[list[str]]:
    """The default split (content 5.1 S1): hero i (in tie-break order) to seat i mod n."""
    return [[h for i, h in enumerate(heroes) if i % seats == j] for j in range(seats)]


def seat_names(options: Mapping[str, Any]) -> list[str]:
    return [KEEPER] + [f"heroes_{i + 1}" for i in range(len(options["split"]))]


def initial_transition(seed: bytes, options: Mapping[str, Any]) -> Transition[State]:
    """S1-S10, then the first Keeper turn up to its first decision.  The events tell every
    change a seat may know of: the heroes in Argos and the cards dealt (counts only: content 4),
    the starting monsters, the first Keeper turn."""
    rng = Rng(seed)
    split = options["split"]
    if variants.on(options, variants.RANDOM_GROUP):
        # S1 Random Group (content 6.1): drawn from the 9 with the game's RNG, dealt round-robin in
        # tie-break order among the table's hero seats (ruling V5).
        drawn = sorted(rng.shuffled(TIE_BREAK)[: hero_count(options)], key=TIE_BREAK.index)
        split = round_robin(drawn, len(split))
    seats = {f"heroes_{i + 1}": list(group) for i, group in enumerate(split)}
    seat_of = {h: seat for seat, group in seats.items() for h in group}
    chosen = sorted(seat_of, key=TIE_BREAK.index)
    heroes: dict[str, HeroState] = {}
    for i, hid in enumerate(chosen):
        # S2: in Argos, level 1, starting life, no XP, no cards.
        heroes[hid] = {
            "seat": seat_of[hid],
            "cell": BOARD.argos[i % len(BOARD.argos)],
            "alive": True,
            "level": 1,
            "life": variants.starting_life(options, hid),
            "xp": 0,
            "cards": [],
            "parries": hero_stat(hid, "parry", 1),
            "rot": False,
            "mv": [0, 0, 0],
            "actions": 0,
            "bonus_actions": 0,
            "item_used": False,
            "moved": False,
            "rubble": False,
            "used": [],
            "away": None,
        }
    # S4 treasure deck, S5 Blessings, S7-S8 bag and starting monsters, S9 Rituals: seeded shuffles.
    treasure_deck = rng.shuffled([c for c, info in TREASURES.items() for _ in range(info["copies"])])
    blessing_deck = rng.shuffled(sorted(BLESSINGS))
    blessings: dict[str, str | None] = {seat: blessing_deck.pop(0) for seat in seats}
    state: State = {
        "rng": [seed.hex(), 0],
        # The caller keeps its own lists; the watching options are the server's (WATCH_OPTIONS).
        "options": copy_json({k: v for k, v in options.items() if k not in WATCH_OPTIONS}),
        "k": 1,
        "phase": turns.BLOOD_STEP,
        "blood": 0,
        "fill": 0,
        "gate": False,
        "bonus": 0,
        "zorkal": {"level": 1, "life": ZORKAL_STATS["life"][0], "cell": BOARD.throne_seat, "mv": 0, "atk": 0},
        "heroes": heroes,
        "seats": seats,
        "monsters": {},
        "next_id": 1,
        "tokens": list(BOARD.treasure_spaces),
        "artifacts": {
            aid: {"cell": BOARD.artifact_homes[info["home"]], "carrier": None, "picked": False}
            for aid, info in in_game_artifacts(options).items()
        },
        "obstacles": {},
        "treasure_deck": treasure_deck,
        "treasure_discard": [],
        "blessing_deck": blessing_deck,
        "blessings": blessings,
        "blessing_discard": [],
        "ritual_deck": [],
        "ritual_hand": [],
        "ritual_discard": [],
        "rituals_in_play": [],
        "ritual_played": False,
        "bag": dict(BAG),
        "seen_strong": [],
        "summon": {"weak": 0, "strong": 0, "exclusive": False},
        "attacks": [],
        "done": [],
        "cmds": {},
        "prompt": None,
        "queue": [],
        "undo": [],
        "surrender": None,
        "effects": {},
        "outcome": None,
    }
    state["rng"][1] = rng.counter
    w = Work(state, copy=False)
    names = ", ".join(HEROES[h]["name"] for h in chosen)
    w.emit(
        "setup",
        f"{names} gather in Argos; each hero seat draws a Blessing.",
        heroes=chosen,
        seats=seats,
    )
    for aid in missing_artifacts(options):
        info = ARTIFACTS[aid]
        w.emit(
            "artifact_missing",
            f"Missing Artifact: the {info['name']} is out of the game; {info['home']} stays empty.",
            artifact=aid,
        )
    # S8: 2 zombies, 1 rat, 1 bog beast, 1 skeleton and 1 strong drawn from the bag (Four Heroes:
    # one zombie fewer), onto N1... in list order (the catalogue default, content 5.10; ruling V6).
    for mtype, cell in zip(variants.starting_monsters(options), BOARD.n_spaces, strict=False):
        if mtype == "strong":
            mtype = summoning.draw_strong(w)
        summoning.place_monster(w, mtype, cell, keeper_turn=False, why="starting monster")
    ritual_deck = w.rng.shuffled(sorted(RITUALS))
    state["ritual_hand"] = sorted(ritual_deck[:RITUAL_HAND])
    state["ritual_deck"] = ritual_deck[RITUAL_HAND:]
    w.emit("rituals_drawn", f"The Keeper draws {RITUAL_HAND} Rituals.", count=RITUAL_HAND)
    w.finish()
    if variants.on(options, variants.CAVE_IN):
        ask_cave_in(w, VARIANTS[variants.CAVE_IN]["tokens"])  # S11; Keeper turn 1 starts after
    else:
        turns.start_keeper_turn(w)
    turns.settle(w)
    return w.finish()


def missing_artifacts(options: Mapping[str, Any]) -> list[str]:
    """The artifacts Missing Artifact removes at S3: the axe, whose home A1 stays empty (6.2)."""
    removed: list[str] = VARIANTS[variants.MISSING_ARTIFACT]["removed"]
    return list(removed) if variants.on(options, variants.MISSING_ARTIFACT) else []


def in_game_artifacts(options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The artifacts on the board at S3 (5 with Missing Artifact; 3 still open the Gate)."""
    gone = missing_artifacts(options)
    return {aid: info for aid, info in ARTIFACTS.items() if aid not in gone}


# The Cave-in sites X1-X8 (content 1.4) by id, read once from the board data.
_X_SITES: Final = {
    x["id"]: BOARD.idx(x["x"], x["y"]) for x in load_json("board.json")["specials"] if x["kind"] == "X"
}


def cave_in_sites() -> list[int]:
    """The cells of the Cave-in sites, in the order data/variants.json lists them (content 6.3)."""
    sites: list[str] = VARIANTS[variants.CAVE_IN]["sites"]
    return [_X_SITES[x] for x in sites]


# S11 Cave-in (content 6.3, 5.10): the Keeper's setup question, asked once per token.
CAVE_IN_SITE: Final = "cave_in_site"


def ask_cave_in(w: Work, left: int) -> None:
    """Ask the Keeper for the next cave-in site.  X sites never hold tokens, pads or N spaces and
    nobody stands near them at setup, so every free one is legal (content 6.3)."""
    sites = [c for c in cave_in_sites() if obstacles.can_place(w, c)]
    ask(
        w,
        CAVE_IN_SITE,
        KEEPER,
        f"Cave-in: put a cave-in on a cave-in site ({left} to place).",
        cells=sites,
        left=left,
    )


def _cave_in_sites(w: Work, p: PromptState) -> list[Action]:
    """The free X sites in the data's order, so the timeout default is X1, then X2 (content
    5.10; ruling V4)."""
    return [{"type": "choose", "to": xy(c)} for c in p["data"]["cells"]]


def _place_cave_in(w: Work, seat: str, p: PromptState, a: Action) -> None:
    obstacles.place(w, BOARD.idx(*a["to"]), obstacles.CAVE_IN, "Cave-in variant")
    left = int(p["data"]["left"]) - 1
    if left > 0:
        ask_cave_in(w, left)
    else:
        turns.start_keeper_turn(w)


PROMPTS: Final[dict[str, PromptRule]] = {CAVE_IN_SITE: PromptRule(_cave_in_sites, _place_cave_in)}
