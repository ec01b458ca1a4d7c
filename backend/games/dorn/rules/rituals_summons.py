"""The Rituals that put monsters on the board: R06 Reinforcements, R07 Ghostly Transformation,
R08 Curse of the Disciples, R09 Dark Fortress (content 4.1, 5.10; rulings 19, 21, 22, 49 and
K1-K9 in docs/rules/dorn.md).

Each card's precondition is checked before it is offered (``RULES``' choices: ``[]`` when it
fails), and every decision after paying is a Keeper prompt whose answers are listed in the
default order of content 5.10: cells in reading order, weak types zombie, rat, bog beast,
skeleton, strong types ghost, mummy, vampire, gorgon.  Strong types are named only in the
Keeper's answers, never in a prompt's public data: the bag's contents are hidden (view.secrets).
``rules/rituals.py`` puts ``RULES`` and ``PROMPTS`` into its tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from backend.engine.core import Action

from ..board import BOARD
from ..catalog import MONSTERS, STRONG_TYPES, WEAK_TYPES
from ..state import KEEPER, PromptState, Work, cell_name, xy
from . import summoning, variants
from .movement import creature_may_enter
from .prompts import PromptRule, ask

REINFORCEMENTS: Final = "R06"
GHOSTLY_TRANSFORMATION: Final = "R07"
CURSE_OF_THE_DISCIPLES: Final = "R08"
DARK_FORTRESS: Final = "R09"
DARK_FORTRESS_MONSTERS: Final = 2
STRONG: Final = "strong"  # the strong monster of the starting set (data: monsters.json, variants.json)

Choices = Callable[[Work], list[dict[str, Any]]]
Effect = Callable[[Work, dict[str, Any]], None]


def _name(mtype: str) -> str:
    return str(MONSTERS[mtype]["name"])


def _strong_on_board(w: Work) -> list[str]:
    """Strong monsters (never Zorkal) in reading order of their cells."""
    ms = w.s["monsters"]
    return sorted((m for m in ms if MONSTERS[ms[m]["type"]]["class"] == STRONG), key=lambda m: ms[m]["cell"])


def _around(w: Work, cell: int) -> list[int]:
    """Free legal monster cells orthogonally next to a figure on ``cell`` (both cells of a pad)."""
    return sorted(
        {n for c in BOARD.cells_of(cell) for n in BOARD.neighbours[c] if creature_may_enter(w, "", n)}
    )


# -- R06 Reinforcements --------------------------------------------------------------------

REINFORCEMENT: Final = "reinforcement"


def _empty_n_spaces(w: Work) -> list[int]:
    return [c for c in BOARD.n_spaces if creature_may_enter(w, "", c)]


def _reinforcements_choices(w: Work) -> list[dict[str, Any]]:
    """R06's precondition: an empty N space (no figure, no obstacle)."""
    return [{}] if _empty_n_spaces(w) else []


def _reinforcements(w: Work, action: dict[str, Any]) -> None:
    """R06: on each empty N space one monster of the starting set (content 5.1 S8; Four Heroes'
    set with that variant, ``variants.starting_monsters``), the Keeper's assignment one prompt at a
    time; when the set has more monsters than there are empty spaces, those he does not place
    are left out.  The weak cap and the bag apply: a type at its cap, or the strong one with the
    bag empty, is not offered.  They act this turn, bog beasts excepted (ruling 21)."""
    _ask_reinforcement(w, variants.starting_monsters(w.s["options"]))


def _reinforcement_types(w: Work, left: list[str]) -> list[str]:
    out: list[str] = []
    for t in left:
        if t in out:
            continue
        if (t == STRONG and sum(w.s["bag"].values()) > 0) or (t != STRONG and summoning.below_cap(w, t)):
            out.append(t)
    return out


def _ask_reinforcement(w: Work, left: list[str]) -> None:
    cells = _empty_n_spaces(w)
    if not left or not cells or not _reinforcement_types(w, left):
        return
    ask(
        w,
        REINFORCEMENT,
        KEEPER,
        f"Reinforcements: put a monster of the set on an empty N space ({len(left)} left in the set).",
        cells=cells,
        left=list(left),
    )


def _reinforcement_answers(w: Work, p: PromptState) -> list[Action]:
    """(type, N space) pairs: the set's order onto the spaces' order first (the S8 default, 5.10);
    with pandemonium the strong one is each type still in the bag."""
    out: list[Action] = []
    for t in _reinforcement_types(w, p["data"]["left"]):
        picks = summoning.bag_types(w.s) if t == STRONG and summoning.pandemonium(w.s) else [t]
        for c in p["data"]["cells"]:
            out.extend({"type": "choose", "monster": pick, "to": xy(c)} for pick in picks)
    return out


def _reinforcement_placed(w: Work, seat: str, p: PromptState, a: Action) -> None:
    pick = a["monster"]
    left = list(p["data"]["left"])
    if pick == STRONG or pick in STRONG_TYPES:
        left.remove(STRONG)
        mtype = summoning.take_strong(w, None if pick == STRONG else pick)
    else:
        left.remove(pick)
        mtype = pick
    summoning.place_monster(w, mtype, BOARD.idx(*a["to"]), keeper_turn=True, why="Reinforcements")
    _ask_reinforcement(w, left)


# -- R07 Ghostly Transformation ------------------------------------------------------------

GHOSTLY_FIRST: Final = "ghostly_first"
GHOSTLY_SECOND: Final = "ghostly_second"
GHOSTLY_STRONG: Final = "ghostly_strong"


def _weak_neighbours(w: Work, mid: str) -> list[str]:
    """Weak monsters orthogonally adjacent to the monster ``mid`` (ruling 1: a pad counts both
    cells), in reading order of their cells."""
    ms = w.s["monsters"]
    occ = w.occupancy()
    out = set()
    for c in BOARD.cells_of(ms[mid]["cell"]):
        for n in BOARD.neighbours[c]:
            fid = occ.get(n)
            if fid is not None and fid != mid and fid in ms and MONSTERS[ms[fid]["type"]]["class"] == "weak":
                out.add(fid)
    return sorted(out, key=lambda m: ms[m]["cell"])


def _paired_weak(w: Work) -> list[str]:
    ms = w.s["monsters"]
    weak = [m for m in ms if MONSTERS[ms[m]["type"]]["class"] == "weak"]
    return sorted((m for m in weak if _weak_neighbours(w, m)), key=lambda m: ms[m]["cell"])


def _ghostly_choices(w: Work) -> list[dict[str, Any]]:
    """R07's precondition: two orthogonally adjacent weak monsters, and a token in the bag."""
    if sum(w.s["bag"].values()) == 0:
        return []
    ms = w.s["monsters"]
    for m in ms:
        if MONSTERS[ms[m]["type"]]["class"] == "weak" and _weak_neighbours(w, m):
            return [{}]
    return []


def _ghostly(w: Work, action: dict[str, Any]) -> None:
    """R07: the Keeper picks a weak monster, then an adjacent weak one; both leave the board (to
    the supply: nobody gains XP, ruling 22); then a strong monster of the type he picks from the
    bag (ruling 49) comes at full life onto either vacated cell.  It may act this turn."""
    ask(w, GHOSTLY_FIRST, KEEPER, "Ghostly Transformation: pick a weak monster beside another one.")


def _ghostly_first_answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "target": m} for m in _paired_weak(w)]


def _ghostly_first(w: Work, seat: str, p: PromptState, a: Action) -> None:
    mid = a["target"]
    cell = w.s["monsters"][mid]["cell"]
    ask(
        w,
        GHOSTLY_SECOND,
        KEEPER,
        f"Ghostly Transformation: pick the weak monster beside the one at {cell_name(cell)}.",
        first=mid,
    )


def _ghostly_second_answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "target": m} for m in _weak_neighbours(w, p["data"]["first"])]


def _remove(w: Work, mid: str, why: str) -> int:
    """A weak monster leaves the board for the supply (no XP, no Blood); returns its cell."""
    m = w.s["monsters"].pop(mid)
    w.moved()
    w.emit(
        "monster_removed",
        f"The {_name(m['type'])} at {cell_name(m['cell'])} leaves the board ({why}).",
        monster=mid,
        cell=xy(m["cell"]),
    )
    return m["cell"]


def _ghostly_second(w: Work, seat: str, p: PromptState, a: Action) -> None:
    cells = sorted(_remove(w, m, "Ghostly Transformation") for m in (p["data"]["first"], a["target"]))
    ask(w, GHOSTLY_STRONG, KEEPER, "Ghostly Transformation: the strong monster's type and cell.", cells=cells)


def _ghostly_strong_answers(w: Work, p: PromptState) -> list[Action]:
    return [
        {"type": "choose", "monster": t, "to": xy(c)}
        for t in summoning.bag_types(w.s)
        for c in p["data"]["cells"]
    ]


def _ghostly_strong(w: Work, seat: str, p: PromptState, a: Action) -> None:
    mtype = summoning.take_strong(w, a["monster"])
    summoning.place_monster(w, mtype, BOARD.idx(*a["to"]), keeper_turn=True, why="Ghostly Transformation")


# -- R08 Curse of the Disciples ------------------------------------------------------------

CURSE_ORDER: Final = "curse_order"
CURSE_CELL: Final = "curse_cell"


def _curse_choices(w: Work) -> list[dict[str, Any]]:
    """R08's precondition: a strong monster on the board (Zorkal is not one)."""
    ms = w.s["monsters"]
    return [{}] if any(MONSTERS[m["type"]]["class"] == STRONG for m in ms.values()) else []


def _curse(w: Work, action: dict[str, Any]) -> None:
    """R08: for each strong monster, in the Keeper's order, a weak type drawn uniformly from
    those below their cap appears on a free legal monster cell next to it, the Keeper's pick;
    skipped when no cell is free or every type is at its cap (ruling 19).  They act this turn,
    bog beasts excepted (ruling 21)."""
    _next_curse(w, _strong_on_board(w))


def _next_curse(w: Work, pending: list[str]) -> None:
    if len(pending) > 1:
        ask(
            w,
            CURSE_ORDER,
            KEEPER,
            "Curse of the Disciples: which strong monster calls its disciple next?",
            pending=pending,
        )
    elif pending:
        _curse_one(w, pending[0], [])


def _curse_order_answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "target": m} for m in p["data"]["pending"]]


def _curse_order(w: Work, seat: str, p: PromptState, a: Action) -> None:
    _curse_one(w, a["target"], [m for m in p["data"]["pending"] if m != a["target"]])


def _curse_one(w: Work, mid: str, rest: list[str]) -> None:
    m = w.s["monsters"][mid]
    where = f"the {_name(m['type'])} at {cell_name(m['cell'])}"
    cells = _around(w, m["cell"])
    types = [t for t in WEAK_TYPES if summoning.below_cap(w, t)]
    if not cells or not types:
        w.emit("curse_none", f"No disciple can appear beside {where} (Curse of the Disciples).", monster=mid)
        _next_curse(w, rest)
        return
    mtype = types[w.rng.below(len(types))]
    ask(
        w,
        CURSE_CELL,
        KEEPER,
        f"Curse of the Disciples: put the {_name(mtype)} on a free cell beside {where}.",
        monster=mtype,
        cells=cells,
        rest=rest,
    )


def _curse_cell_answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "to": xy(c)} for c in p["data"]["cells"]]


def _curse_placed(w: Work, seat: str, p: PromptState, a: Action) -> None:
    mtype = p["data"]["monster"]
    summoning.place_monster(w, mtype, BOARD.idx(*a["to"]), keeper_turn=True, why="Curse of the Disciples")
    _next_curse(w, list(p["data"]["rest"]))


# -- R09 Dark Fortress ---------------------------------------------------------------------

FORTRESS_TYPE: Final = "fortress_type"
FORTRESS_CELL: Final = "fortress_cell"
_CELLS: Final = range(BOARD.width * BOARD.height)


def _fortress_cells(w: Work) -> list[int]:
    """Free legal monster cells outside the Ritual Chamber, in reading order."""
    return [c for c in _CELLS if c not in BOARD.chamber and creature_may_enter(w, "", c)]


def _fortress_types(w: Work) -> list[str]:
    return [t for t in WEAK_TYPES if summoning.below_cap(w, t)]


def _fortress_choices(w: Work) -> list[dict[str, Any]]:
    """R09's precondition: a weak type below its cap, and a free cell outside the chamber."""
    if not _fortress_types(w):
        return []
    return [{}] if any(c not in BOARD.chamber and creature_may_enter(w, "", c) for c in _CELLS) else []


def _fortress(w: Work, action: dict[str, Any]) -> None:
    """R09: 2 weak monsters, any types (mixed allowed, the cap applies), on any free legal monster
    cells outside the chamber: the type, then the cell, for each.  Both may move and attack this
    turn, bog beasts included (3.2; ruling 21)."""
    _ask_fortress(w, DARK_FORTRESS_MONSTERS)


def _ask_fortress(w: Work, left: int) -> None:
    if left <= 0:
        return
    if not _fortress_types(w) or not _fortress_cells(w):
        w.emit("fortress_none", "No more monsters fit (Dark Fortress).")
        return
    ask(w, FORTRESS_TYPE, KEEPER, f"Dark Fortress: pick a weak monster ({left} to place).", left=left)


def _fortress_type_answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "monster": t} for t in _fortress_types(w)]


def _fortress_type(w: Work, seat: str, p: PromptState, a: Action) -> None:
    mtype = a["monster"]
    ask(
        w,
        FORTRESS_CELL,
        KEEPER,
        f"Dark Fortress: put the {_name(mtype)} on a free cell outside the Ritual Chamber.",
        monster=mtype,
        left=p["data"]["left"],
    )


def _fortress_cell_answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "to": xy(c)} for c in _fortress_cells(w)]


def _fortress_placed(w: Work, seat: str, p: PromptState, a: Action) -> None:
    mtype = p["data"]["monster"]
    cell = BOARD.idx(*a["to"])
    summoning.place_monster(w, mtype, cell, keeper_turn=True, why="Dark Fortress", acts_now=True)
    _ask_fortress(w, int(p["data"]["left"]) - 1)


# (choices, effect) per card, for ``rituals.RITUALS_IN_RULES``.
RULES: Final[dict[str, tuple[Choices, Effect]]] = {
    REINFORCEMENTS: (_reinforcements_choices, _reinforcements),
    GHOSTLY_TRANSFORMATION: (_ghostly_choices, _ghostly),
    CURSE_OF_THE_DISCIPLES: (_curse_choices, _curse),
    DARK_FORTRESS: (_fortress_choices, _fortress),
}

PROMPTS: Final[dict[str, PromptRule]] = {
    REINFORCEMENT: PromptRule(_reinforcement_answers, _reinforcement_placed),
    GHOSTLY_FIRST: PromptRule(_ghostly_first_answers, _ghostly_first),
    GHOSTLY_SECOND: PromptRule(_ghostly_second_answers, _ghostly_second),
    GHOSTLY_STRONG: PromptRule(_ghostly_strong_answers, _ghostly_strong),
    CURSE_ORDER: PromptRule(_curse_order_answers, _curse_order),
    CURSE_CELL: PromptRule(_curse_cell_answers, _curse_placed),
    FORTRESS_TYPE: PromptRule(_fortress_type_answers, _fortress_type),
    FORTRESS_CELL: PromptRule(_fortress_cell_answers, _fortress_placed),
}
