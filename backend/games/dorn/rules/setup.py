"""Options and setup (RB Setup; content 5.1 S1-S10, 5.12)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.engine.core import InvalidOptions, Transition
from backend.engine.rng import Rng

from ..board import BOARD
from ..catalog import (
    ARTIFACTS,
    BAG,
    BLESSINGS,
    HEROES,
    RITUAL_HAND,
    RITUALS,
    RULES,
    STARTING_MONSTERS,
    TIE_BREAK,
    TREASURES,
    ZORKAL_STATS,
    hero_stat,
)
from ..state import KEEPER, HeroState, State, Work, copy_json
from . import summoning, turns

HEROES_PER_GAME: int = RULES["heroes_per_game"]
MAX_HERO_SEATS: int = RULES["max_hero_seats"]


# The engine limits of content 5.12 and their largest values.  Simulations use 200, 40 and 1;
# the bounds keep a table's options encodable (a round_limit of 2**70 was accepted and then
# broke every welcome) and are what options_schema publishes.
ENGINE_LIMITS: dict[str, int] = {"round_limit": 1000, "phase_action_limit": 1000, "take_back_limit": 100}


def _limit(options: Mapping[str, Any], key: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    top = ENGINE_LIMITS[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
        raise InvalidOptions("bad_option", f"'{key}' must be a whole number from 1 to {top}, or null.")
    return value


def normalize_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Check heroes and split (S1): 5 different heroes of the 9, shared among 1-5 hero seats,
    each seat at least one hero.  Without a split, round-robin in tie-break order."""
    known = {
        "heroes",
        "split",
        "round_limit",
        "phase_action_limit",
        "take_back_limit",
        "allow_surrender",
        "hero_seats",
    }
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidOptions("unknown_option", f"Dorn has no option {unknown[0]!r}.")
    heroes = options.get("heroes")
    if heroes is None:
        heroes = TIE_BREAK[:HEROES_PER_GAME]
    if not isinstance(heroes, list | tuple) or not all(isinstance(h, str) for h in heroes):
        raise InvalidOptions("bad_heroes", "'heroes' must be a list of hero ids.")
    for h in heroes:
        if h not in HEROES:
            raise InvalidOptions(
                "unknown_hero", f"There is no hero {h!r}; choose from {', '.join(TIE_BREAK)}."
            )
    if len(set(heroes)) != len(heroes):
        raise InvalidOptions("duplicate_hero", "Each hero can be chosen only once.")
    if len(heroes) != HEROES_PER_GAME:
        raise InvalidOptions("hero_count", f"Dorn is played with {HEROES_PER_GAME} heroes (of the 9).")
    ordered = sorted(heroes, key=TIE_BREAK.index)
    split = options.get("split")
    if split is None:
        n = options.get("hero_seats", 1)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_HERO_SEATS:
            raise InvalidOptions("bad_hero_seats", f"'hero_seats' must be 1 to {MAX_HERO_SEATS}.")
        split = [[h for i, h in enumerate(ordered) if i % n == j] for j in range(n)]
    if not isinstance(split, list | tuple) or not all(isinstance(g, list | tuple) for g in split):
        raise InvalidOptions("bad_split", "'split' must be a list of lists of hero ids, one per hero seat.")
    if not 1 <= len(split) <= MAX_HERO_SEATS:
        raise InvalidOptions("bad_split", f"There must be 1 to {MAX_HERO_SEATS} hero seats.")
    if any(not group for group in split):
        raise InvalidOptions("bad_split", "Every hero seat needs at least one hero.")
    flat = [h for group in split for h in group]
    if sorted(flat) != sorted(heroes) or len(flat) != len(set(flat)):
        raise InvalidOptions("bad_split", "The split must share exactly the chosen heroes, each once.")
    allow = options.get("allow_surrender", True)
    if not isinstance(allow, bool):
        raise InvalidOptions("bad_option", "'allow_surrender' must be true or false.")
    return {
        "heroes": ordered,
        "split": [sorted(group, key=TIE_BREAK.index) for group in split],
        "round_limit": _limit(options, "round_limit"),
        "phase_action_limit": _limit(options, "phase_action_limit"),
        "take_back_limit": _limit(options, "take_back_limit"),
        "allow_surrender": allow,
    }


def seat_names(options: Mapping[str, Any]) -> list[str]:
    return [KEEPER] + [f"heroes_{i + 1}" for i in range(len(options["split"]))]


def initial_transition(seed: bytes, options: Mapping[str, Any]) -> Transition[State]:
    """S1-S10, then the first Keeper turn up to its first decision.  The events tell every
    change a seat may know of: the heroes in Argos and the cards dealt (counts only: content 4),
    the starting monsters, the first Keeper turn."""
    rng = Rng(seed)
    seats = {f"heroes_{i + 1}": list(group) for i, group in enumerate(options["split"])}
    seat_of = {h: seat for seat, group in seats.items() for h in group}
    heroes: dict[str, HeroState] = {}
    for i, hid in enumerate(options["heroes"]):
        # S2: in Argos, level 1, starting life, no XP, no cards.
        heroes[hid] = {
            "seat": seat_of[hid],
            "cell": BOARD.argos[i % len(BOARD.argos)],
            "alive": True,
            "level": 1,
            "life": hero_stat(hid, "life", 1),
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
        }
    # S4 treasure deck, S5 Blessings, S7-S8 bag and starting monsters, S9 Rituals: seeded shuffles.
    treasure_deck = rng.shuffled([c for c, info in TREASURES.items() for _ in range(info["copies"])])
    blessing_deck = rng.shuffled(sorted(BLESSINGS))
    blessings: dict[str, str | None] = {seat: blessing_deck.pop(0) for seat in seats}
    state: State = {
        "rng": [seed.hex(), 0],
        "options": copy_json(dict(options)),  # the caller keeps its own lists
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
            for aid, info in ARTIFACTS.items()
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
        "surrender": None,
        "effects": {},
        "outcome": None,
    }
    state["rng"][1] = rng.counter
    w = Work(state, copy=False)
    names = ", ".join(HEROES[h]["name"] for h in options["heroes"])
    w.emit(
        "setup",
        f"{names} gather in Argos; each hero seat draws a Blessing.",
        heroes=list(options["heroes"]),
        seats=seats,
    )
    # S8: 2 zombies, 1 rat, 1 bog beast, 1 skeleton and 1 strong drawn from the bag, onto
    # N1..N6 in list order (the catalogue default, content 5.10).
    for mtype, cell in zip(STARTING_MONSTERS, BOARD.n_spaces, strict=True):
        if mtype == "strong":
            mtype = summoning.draw_strong(w)
        summoning.place_monster(w, mtype, cell, keeper_turn=False, why="starting monster")
    ritual_deck = w.rng.shuffled(sorted(RITUALS))
    state["ritual_hand"] = sorted(ritual_deck[:RITUAL_HAND])
    state["ritual_deck"] = ritual_deck[RITUAL_HAND:]
    w.emit("rituals_drawn", f"The Keeper draws {RITUAL_HAND} Rituals.", count=RITUAL_HAND)
    w.finish()
    turns.start_keeper_turn(w)
    turns.settle(w)
    return w.finish()
