"""Setup (content §8.2; Fang §9.1) and the table options it starts from (§8.1).

A table's options name the heroes (one seat each, in the character list's order) and whether
Fang's land tiles replace the Fang sites.  Setup deals the quest and reward tiles face down under
the mountains, keeps the spare quests in reserve, places the heroes at level 1, and starts the
first hero's turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.engine.core import InvalidOptions, Transition
from backend.engine.rng import Rng

from ..content import (
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
from ..state import State
from .flow import Ctx, run
from .heroes import new_hero
from .turn import begin_turn

OPTION_KEYS = {"heroes", "fang"}


def normalize_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Fill defaults and check a table's options (§8.1: who plays; §9: Fang)."""
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise InvalidOptions("unknown_option", f"Unknown Dorasure option(s): {', '.join(sorted(unknown))}.")
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


def sim_options(rng: Rng, players: int | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """A simulated table: ``players`` heroes drawn by ``rng`` (the Grand Master alone for one)."""
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


def setup(seed: bytes, opts: Mapping[str, Any]) -> Transition[State]:
    """Setup (§8.2), then the first hero's turn up to his first decision: its movement roll,
    and any Rampage or damage the roll causes, are setup events (the log's first entry).
    ``opts`` are normalized options."""
    s = blank_state(seed.hex(), opts)
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
    begin_turn(s, s.order[0])
    run(ctx)
    ctx.finish()
    return Transition(s, tuple(ctx.events))
