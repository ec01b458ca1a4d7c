"""Summoning (RB Summoning; content 5.2 K2, rulings 18-21, 30, 49) and placing monsters."""

from __future__ import annotations

from ..board import BOARD
from ..catalog import MONSTERS, STRONG_TYPES, STRONG_ZONES, WEAK_CAP, WEAK_TYPES
from ..state import Work, cell_name, xy
from . import rituals
from .movement import creature_may_enter


def weak_count(w: Work, mtype: str) -> int:
    return sum(1 for m in w.s["monsters"].values() if m["type"] == mtype)


def below_cap(w: Work, mtype: str) -> bool:
    """At most 8 weak monsters of each type on the board, whatever placed them (ruling 19)."""
    return weak_count(w, mtype) < WEAK_CAP


def free_cells(w: Work, cells: tuple[int, ...] | list[int]) -> list[int]:
    """Cells with no figure and no obstacle (tokens do not count, ruling 18)."""
    return [c for c in cells if creature_may_enter(w, "", c)]


def weak_cells(w: Work, mtype: str) -> list[int]:
    """Weak monsters go into their own zone (RB)."""
    return free_cells(w, BOARD.zones[MONSTERS[mtype]["zone"]])


def strong_cells(w: Work) -> list[int]:
    """Strong monsters go to the Dark Temple (RB)."""
    cells: list[int] = []
    for zone in STRONG_ZONES:
        cells.extend(BOARD.zones[zone])
    return free_cells(w, sorted(cells))


def setup_allowance(w: Work) -> None:
    """K2 allowances: Day 1 weak; Night 2 weak or 1 strong (RB; ruling 20); plus the pending
    artifact bonuses, day or night (ruling 30)."""
    night = w.s["k"] % 2 == 0
    w.s["summon"] = {"weak": 2 if night else 1, "strong": 1 if night else 0, "exclusive": night}


def summon_options(w: Work) -> list[tuple[str | None, int]]:
    """(weak type or None for a strong draw, cell) pairs the Keeper may summon now."""
    s = w.s
    allow = s["summon"]
    out: list[tuple[str | None, int]] = []
    if allow["weak"] > 0:
        for t in WEAK_TYPES:
            if below_cap(w, t):
                out.extend((t, c) for c in weak_cells(w, t))
    if (allow["strong"] > 0 or s["bonus"] > 0) and sum(s["bag"].values()) > 0:
        out.extend((None, c) for c in strong_cells(w))
    return out


def place_monster(w: Work, mtype: str, cell: int, *, keeper_turn: bool, why: str) -> str:
    """Put a new monster on the board.  A bog beast entering play during a Keeper turn waits:
    no movement and no attack this Keeper turn (RB; ruling 21)."""
    s = w.s
    mid = f"m{s['next_id']}"
    s["next_id"] += 1
    kind = MONSTERS[mtype]
    waits = keeper_turn and kind.get("waits", False) and rituals.bog_beasts_wait(s)
    s["monsters"][mid] = {
        "type": mtype,
        "cell": cell,
        "dmg": 0,
        "wait": waits,
        "mv": 0 if waits else kind["move"],
        "atk": 0,
        "moved": False,
        "bat": False,
        "frozen": False,
        "no_attack": False,
    }
    w.owns(mid)
    if kind["class"] == "strong" and mtype not in s["seen_strong"]:
        s["seen_strong"].append(mtype)
    w.moved()
    w.emit(
        "monster_placed",
        f"A {kind['name']} appears at {cell_name(cell)} ({why}).",
        monster=mid,
        type=mtype,
        cell=xy(cell),
    )
    return mid


def draw_strong(w: Work) -> str:
    """Draw one strong token uniformly from the bag (content 5.1 S7)."""
    bag = w.s["bag"]
    pick = w.rng.below(sum(bag.values()))
    for t in STRONG_TYPES:
        if pick < bag[t]:
            bag[t] -= 1
            return t
        pick -= bag[t]
    raise AssertionError("bag count mismatch")


def summon(w: Work, mtype: str | None, cell: int) -> None:
    s = w.s
    allow = s["summon"]
    if mtype is not None:
        allow["weak"] -= 1
        if allow["exclusive"]:
            allow["strong"] = 0  # Night: 2 weak OR 1 strong (RB)
        place_monster(w, mtype, cell, keeper_turn=True, why="summoned")
        return
    # The token is drawn only after the cell is chosen (ruling 18).  An artifact bonus is used
    # before the night's own strong summon, which would rule out the two weak ones.
    if s["bonus"] > 0:
        s["bonus"] -= 1
        why = "artifact bonus summon"
    else:
        allow["strong"] -= 1
        if allow["exclusive"]:
            allow["weak"] = 0
        why = "summoned at night"
    place_monster(w, draw_strong(w), cell, keeper_turn=True, why=why)
