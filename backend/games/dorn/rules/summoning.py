"""Summoning (RB Summoning; content 2.4 coven and pandemonium, 5.2 K2, rulings 18-21, 30, 49) and
placing monsters.

A leaf below the Rituals (rules/rituals.py and rituals_summons.py place their monsters here):
Slime of Despair (R01), the one Ritual this module reads, is read from ``rituals_in_play``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from ..board import BOARD
from ..catalog import MONSTERS, STRONG_TYPES, STRONG_ZONES, WEAK_CAP, WEAK_TYPES
from ..state import State, Work, cell_name, xy
from .effects import in_play
from .movement import CREATURE_CLOSED, CREATURE_OPEN

SLIME_OF_DESPAIR: Final = "R01"
# Zorkal's summoning abilities (content 2.4): coven from level 2, pandemonium from level 3.
COVEN_LEVEL: Final = 2
COVEN_EXTRA_WEAK: Final = 1
PANDEMONIUM_LEVEL: Final = 3
DAY_WEAK: Final = 1  # RB Summoning: Day 1 weak; Night 2 weak or 1 strong
NIGHT_WEAK: Final = 2
PANDEMONIUM_ZONES: Final = ("crypt", "graveyard")  # besides the Dark Temple (content 2.4, 3.1)


def bog_beasts_wait(s: State) -> bool:
    """RB: a bog beast entering play waits a turn, unless Slime of Despair is in play (R01)."""
    return not in_play(s, SLIME_OF_DESPAIR)


def weak_count(w: Work, mtype: str) -> int:
    return sum(1 for m in w.s["monsters"].values() if m["type"] == mtype)


def below_cap(w: Work, mtype: str) -> bool:
    """At most 8 weak monsters of each type on the board, whatever placed them (ruling 19)."""
    return weak_count(w, mtype) < WEAK_CAP


def free_cells(w: Work, cells: tuple[int, ...] | list[int]) -> list[int]:
    """Cells with no figure and no obstacle (tokens do not count, ruling 18)."""
    return list(_free(w, cells))


def _any_free(w: Work, cells: tuple[int, ...] | list[int]) -> bool:
    """Whether ``free_cells`` would find one: the first answers."""
    return next(_free(w, cells), None) is not None


def _free(w: Work, cells: tuple[int, ...] | list[int]) -> Iterator[int]:
    """``creature_may_enter`` for no creature in particular, inlined: a zone is 10-40 cells, and
    the Keeper's summoning list and ``settle`` after each summon walk it."""
    occ = w.occupancy()
    obstacles = w.obstacle_cells()
    terrain = CREATURE_OPEN if w.s["gate"] else CREATURE_CLOSED
    footprint = BOARD.footprint
    for c in cells:
        if terrain[c]:
            for f in footprint[c]:
                if f in obstacles or f in occ:
                    break
            else:
                yield c


def weak_cells(w: Work, mtype: str) -> list[int]:
    """Weak monsters go into their own zone (RB)."""
    return free_cells(w, BOARD.zones[MONSTERS[mtype]["zone"]])


def pandemonium(s: State) -> bool:
    """zor.pandemonium (content 2.4): from level 3 the Keeper picks every strong monster's type
    from those still in the bag (ruling 49), and may also summon into the Crypt and Graveyard."""
    return s["zorkal"]["level"] >= PANDEMONIUM_LEVEL


def strong_cells(w: Work) -> list[int]:
    """Strong monsters go to the Dark Temple (RB); with pandemonium also the Crypt and the
    Graveyard (content 2.4)."""
    zones = list(STRONG_ZONES)
    if pandemonium(w.s):
        zones += PANDEMONIUM_ZONES
    cells: list[int] = []
    for zone in zones:
        cells.extend(BOARD.zones[zone])
    return free_cells(w, sorted(set(cells)))


def bag_types(s: State) -> list[str]:
    """The strong types still in the bag, in the catalogue order (ghost, mummy, vampire, gorgon:
    the timeout default's order, content 5.10).  Only the Keeper's own listed actions and
    prompt answers name them: the bag's contents are hidden (view.secrets)."""
    return [t for t in STRONG_TYPES if s["bag"][t] > 0]


def setup_allowance(w: Work) -> None:
    """K2 allowances: Day 1 weak; Night 2 weak or 1 strong (RB; ruling 20), and with coven
    (Zorkal level 2+, content 2.4) 1 weak more whichever the night's option; plus the pending
    artifact bonuses, day or night (ruling 30)."""
    s = w.s
    night = s["k"] % 2 == 0
    weak = NIGHT_WEAK + coven(s) if night else DAY_WEAK
    s["summon"] = {"weak": weak, "strong": 1 if night else 0, "exclusive": night}


def coven(s: State) -> int:
    """zor.coven (content 2.4): at Night, from level 2, 1 weak summon more whichever the night's
    option (ruling 20): 3 weak, or 1 strong and 1 weak, in either order."""
    return COVEN_EXTRA_WEAK if s["zorkal"]["level"] >= COVEN_LEVEL else 0


def summon_options(w: Work) -> list[tuple[str | None, int]]:
    """(weak type or None for a strong summon, cell) pairs the Keeper may summon now."""
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


def may_summon(w: Work) -> bool:
    """Whether ``summon_options`` has any pair: ``settle`` asks it after every summon, and the
    first free cell answers (the options are built only for the list)."""
    s = w.s
    allow = s["summon"]
    if allow["weak"] > 0:
        for t in WEAK_TYPES:
            if below_cap(w, t) and _any_free(w, BOARD.zones[MONSTERS[t]["zone"]]):
                return True
    return bool((allow["strong"] > 0 or s["bonus"] > 0) and sum(s["bag"].values()) > 0 and strong_cells(w))


def summon_actions(w: Work, weak: bool, strong: bool) -> list[dict[str, Any]]:
    """K2's listed actions (``steps.STEPS``): ``summon`` (a weak type and a cell) and
    ``summon_strong`` (a cell; with pandemonium also the type, one action per type in the bag)."""
    out: list[dict[str, Any]] = []
    if not (weak or strong):
        return out
    picks = bag_types(w.s) if strong and pandemonium(w.s) else None
    for mtype, cell in summon_options(w):
        if mtype is not None:
            if weak:
                out.append({"type": "summon", "monster": mtype, "to": xy(cell)})
        elif picks is not None:
            out.extend({"type": "summon_strong", "monster": t, "to": xy(cell)} for t in picks)
        elif strong:
            out.append({"type": "summon_strong", "to": xy(cell)})
    return out


def place_monster(
    w: Work, mtype: str, cell: int, *, keeper_turn: bool, why: str, acts_now: bool = False
) -> str:
    """Put a new monster on the board.  A bog beast entering play during a Keeper turn waits:
    no movement and no attack this Keeper turn (RB; ruling 21), unless Slime of Despair is in
    play or the card placing it says it acts (``acts_now``: Dark Fortress, R09)."""
    s = w.s
    mid = f"m{s['next_id']}"
    s["next_id"] += 1
    kind = MONSTERS[mtype]
    waits = keeper_turn and not acts_now and kind.get("waits", False) and bog_beasts_wait(s)
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


def take_strong(w: Work, chosen: str | None) -> str:
    """A strong token out of the bag: the chosen type (pandemonium, Ghostly Transformation;
    ruling 49: only a type still in the bag), else drawn."""
    if chosen is None:
        return draw_strong(w)
    bag = w.s["bag"]
    assert bag[chosen] > 0, chosen
    bag[chosen] -= 1
    return chosen


def summon(w: Work, mtype: str | None, cell: int, strong_type: str | None = None) -> None:
    """One K2 summon: a weak ``mtype``, or (None) a strong one, of ``strong_type`` when the Keeper
    picks it (pandemonium) or else drawn."""
    s = w.s
    allow = s["summon"]
    if mtype is not None:
        allow["weak"] -= 1
        if allow["exclusive"] and NIGHT_WEAK + coven(s) - allow["weak"] > coven(s):
            allow["strong"] = 0  # Night: 2 weak OR 1 strong (RB); coven's weak goes with either
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
            # The strong option: no weak summon but coven's one, if not made yet (ruling 20).
            used = NIGHT_WEAK + coven(s) - allow["weak"]
            allow["weak"] = max(0, coven(s) - used)
        why = "summoned at night"
    place_monster(w, take_strong(w, strong_type), cell, keeper_turn=True, why=why)
