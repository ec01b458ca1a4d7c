"""The listed actions of each step (``STEPS``) and every question's answers (``PROMPTS``).

``actions.legal`` looks a step's generator up by phase, after what every Keeper step or every
hero step lists first.  The lists are the hottest code of the engine (the Keeper's movement
list is rebuilt after every move), so each generator builds only the part asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from backend.engine.core import Action

from .board import BOARD
from .catalog import ZORKAL_STATS
from .rules import (
    blessings,
    combat,
    footwork,
    heal,
    movement,
    parries,
    rituals,
    setup,
    spells,
    summoning,
    treasure,
    turns,
    undo,
    variants,
    weapons,
)
from .rules.prompts import PromptRule
from .rules.reach import heroes_adjacent
from .state import (
    ZORKAL,
    State,
    Work,
    placed,
)

# ---------------------------------------------------------------------------------------
# The listed actions: one generator per step, looked up by phase (``STEPS``), after what every
# Keeper step or every hero step lists first.  A generator gets the read-only Work, the seat,
# ``only`` (one action type, when validating: the others are not built) and ``focus`` (one
# hero or creature, likewise).  Order matters: the steered simulator draws by position.

Step = Callable[[Work, str, "str | None", "str | None"], list[Action]]


def wants(only: str | None, kind: str) -> bool:
    return only is None or only == kind


PROMPTS: Final[dict[str, PromptRule]] = {
    **treasure.PROMPTS,
    **rituals.PROMPTS,
    **blessings.PROMPTS,
    **setup.PROMPTS,
    **weapons.PROMPTS,
    **spells.PROMPTS,
    **parries.PROMPTS,
    **heal.PROMPTS,
}


def _blood_step(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    out: list[Action] = []
    if wants(only, "level_zorkal") and zorkal_level_cost(w.s) is not None:
        out.append({"type": "level_zorkal"})
    if wants(only, "play_ritual"):
        out += rituals.ritual_actions(w)
    return out


def _summoning(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    return summoning.summon_actions(w, wants(only, "summon"), wants(only, "summon_strong"))


def _creature_moves(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    bats, moves = wants(only, "bat_form"), wants(only, "move")
    if focus is None:
        blocks = creature_blocks(w)
    else:
        blocks = [b for b in _blocks(w, (focus,) if focus in w.s["monsters"] else ()) if b[0] == focus]
    # The moves in one comprehension (this list is the longest the game builds, at every Keeper
    # move), then the few bat forms put in their places.
    out: list[Action] = []
    if moves:
        out = [
            {"type": "move", "figure": mid, "to": [x, y]}
            for mid, _bat, walk in blocks
            if walk is not None
            for x, y in walk.dests
        ]
    if bats:
        _insert_bat_forms(out, blocks, moves)
    return out


def _insert_bat_forms(out: list[Action], blocks: list[Block], moves: bool) -> None:
    """Each vampire's bat form (listed before its first step) just before its moves in ``out``,
    the blocks' moves (if ``moves``): a creature's block is its bat form, then its moves."""
    at = 0
    found: list[tuple[int, str]] = []
    for mid, bat, walk in blocks:
        if bat:
            found.append((at, mid))
        if moves and walk is not None:
            at += len(walk.dests)
    for at, mid in reversed(found):  # from the end: each insert leaves the earlier places
        out.insert(at, {"type": "bat_form", "figure": mid})


BATS: Final = turns.BAT_TYPES

Block = tuple[str, bool, "_Walk | None"]  # a creature, whether bat form is listed, its walk


def creature_blocks(w: Work) -> list[Block]:
    """The Keeper's movement list as it is built, one block per creature in list order (its bat
    form, then its moves): kept with a read-only Work, so the simulator reads the list it steers
    among without parsing it again."""
    found: list[Block] | None = w.keeper_moves
    if found is None:
        found = _blocks(w, w.s["monsters"])
        if w.walks is not None:
            w.keeper_moves = found
    return found


def _blocks(w: Work, monsters: Iterable[str]) -> list[Block]:
    s = w.s
    all_monsters = s["monsters"]
    blocked, gate = w.blocked_bits(), bool(s["gate"])
    walks: dict[str, _Walk] = w.walks if w.walks is not None else {}
    out: list[Block] = []
    for mid in monsters:
        m = all_monsters[mid]
        mv = m["mv"]
        walk = None
        if mv > 0:
            # ``_creature_walk``'s reuse test, inlined: this loop is the hot spot.
            walk = walks.get(mid)
            if walk is None or (
                walk.cell != m["cell"]
                or walk.budget != mv
                or walk.gate != gate
                or blocked & walk.looked != walk.snapshot
            ):
                walk = _new_walk(w, walks, mid, m["cell"], mv)
        # ``turns.can_bat``, the vampire's test first: most creatures are not.
        out.append((mid, m["type"] in BATS and turns.can_bat(m), walk))
    z = s["zorkal"]
    if w.zorkal_active() and z["mv"] > 0:
        out.append((ZORKAL, False, _creature_walk(w, walks, ZORKAL, z["cell"], z["mv"])))
    return out


def _declarations(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    if not wants(only, "attack"):
        return []
    return [{"type": "attack", "figure": c, "target": h} for c, h in combat.attack_targets(w, focus)]


def _parries(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    out: list[Action] = []
    if wants(only, "done"):
        out.append({"type": "done"})
    if wants(only, "parry"):
        for indices in parries.parry_choices(w, seat).values():
            out += [{"type": "parry", "attack": i} for i in indices]
    return out


def _mine(w: Work, seat: str, focus: str | None) -> list[str]:
    """The seat's heroes on the board (only ``focus`` when validating one hero's action)."""
    return [h for h in w.seat_heroes_on_board(seat) if focus is None or h == focus]


def _blessings(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    if not wants(only, "play_blessing"):
        return []
    return blessings.blessing_actions(w, seat, _mine(w, seat, focus))


def _hero_moves(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    s = w.s
    out: list[Action] = []
    # Which parts are built, asked once (the list is rebuilt after every command of the step).
    undos, moves, picks = wants(only, "undo_move"), wants(only, "move"), wants(only, "pick_up")
    drops, gives, discards = wants(only, "drop"), wants(only, "give"), wants(only, "discard")
    items, abilities = wants(only, "use_item"), wants(only, "ability")
    undone = undo.listed(s, seat) if undos else []
    heroes = s["heroes"]
    for hid in _mine(w, seat, focus):
        h = heroes[hid]
        if undone:
            out += [a for a in undone if a["hero"] == hid]
        if moves:
            # In cell order; ``[*XY[c]]`` builds the (x, y) list without a list of pairs between.
            out += [{"type": "move", "hero": hid, "to": [*XY[c]]} for c in sorted(destinations(w, hid))]
        # The parts below are mostly empty: each comprehension is made only for something to list.
        if picks:
            here = treasure.artifacts_here(w, hid)
            if here:
                out += [{"type": "pick_up", "hero": hid, "artifact": a} for a in here]
        carried = treasure.carried(w, hid)
        if drops and carried:
            out += [{"type": "drop", "hero": hid, "artifact": a} for a in carried]
        if gives and (carried or h["cards"]):
            at = placed(h["cell"])
            for other in w.on_board_heroes():
                if other != hid and heroes_adjacent(at, placed(heroes[other]["cell"])):
                    if carried:
                        out += [{"type": "give", "hero": hid, "to": other, "artifact": a} for a in carried]
                    out += [
                        {"type": "give", "hero": hid, "to": other, "card": c} for c in sorted(set(h["cards"]))
                    ]
        if discards and h["cards"]:
            out += [{"type": "discard", "hero": hid, "card": c} for c in sorted(set(h["cards"]))]
        if items:
            out += treasure.item_uses(w, hid)
        if abilities:
            out += footwork.move_actions(w, hid)
    return out


def _hero_attacks(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    out: list[Action] = []
    for hid in _mine(w, seat, focus):
        if wants(only, "attack"):
            out += weapons.attack_actions(w, hid)
        if wants(only, "ability"):
            out += spells.spell_actions(w, hid)
        if wants(only, "use_item"):
            out += treasure.item_uses(w, hid)
    return out


STEPS: Final[dict[str, Step]] = {
    turns.BLOOD_STEP: _blood_step,
    turns.SUMMONING: _summoning,
    turns.MONSTER_MOVES: _creature_moves,
    turns.DECLARATIONS: _declarations,
    turns.PARRIES: _parries,
    turns.BLESSINGS: _blessings,
    turns.HERO_MOVES: _hero_moves,
    turns.HERO_ATTACKS: _hero_attacks,
}


def destinations(w: Work, hid: str) -> dict[int, int]:
    """The hero's destinations (cell -> steps), kept with the state's read-only Work: validating
    several moves of one hero walks once."""
    dests: dict[int, int] | None = w.memo.get(("dest", hid))
    if dests is None:
        dests = w.memo[("dest", hid)] = movement.hero_destinations(w, hid)
    return dests


def _creature_walk(w: Work, walks: dict[str, _Walk], cid: str, cell: int, budget: int) -> _Walk:
    """The creature's destinations as (x, y), with what its walk depended on.  The Keeper's
    movement list is the longest the game has and is rebuilt after every move, while a move
    rarely changes most creatures' walks: each creature's last walk is kept in ``walks`` (a
    reader's, handed from state to state, ``state.hand_over``) and reused while what it looked
    at holds.  The actions built from it are new at every call: they leave the engine, and a
    caller's edit must not reach the next list."""
    gate = bool(w.s["gate"])
    found = walks.get(cid)
    if (
        found is not None
        and found.cell == cell
        and found.budget == budget
        and found.gate == gate
        and w.blocked_bits() & found.looked == found.snapshot
    ):
        return found
    return _new_walk(w, walks, cid, cell, budget)


def _new_walk(w: Work, walks: dict[str, _Walk], cid: str, cell: int, budget: int) -> _Walk:
    """``_creature_walk`` once the kept walk is known not to hold (``_blocks`` tests it inline)."""
    looked, snapshot, dests = movement.creature_walk(w, cid, cell, budget)
    order = tuple(sorted(dests))
    # The (x, y) of each cell as the table's own tuple (``XY_AS_IS``): read as ``tuple[int, int]``
    # compiled, each would be unpacked and packed again into a new tuple.
    xys: tuple[tuple[int, int], ...] = tuple([XY_AS_IS[c] for c in order])
    walk = walks[cid] = _Walk(cell, budget, bool(w.s["gate"]), looked, snapshot, xys, dests, order)
    return walk


def creature_costs(w: Work, cid: str, cell: int, budget: int) -> dict[int, int]:
    """The creature's destinations (cell -> steps), kept with the state's read-only Work like a
    hero's (``destinations``): checking a Keeper move and doing it look them up once (``apply``
    hands the Work's memo on to the Work that does the move, which asks first thing).  The walk
    the Keeper's list made for this state is used while it holds.  Shared: never change it."""
    key = ("costs", cid)
    found: dict[int, int] | None = w.memo.get(key)
    if found is None:
        walk = w.walks.get(cid) if w.walks is not None else None
        if (
            walk is not None
            and walk.cell == cell
            and walk.budget == budget
            and walk.gate == bool(w.s["gate"])
            and w.blocked_bits() & walk.looked == walk.snapshot
        ):
            found = walk.costs
        else:
            found = movement.creature_destinations(w, cid, cell, budget)
        w.memo[key] = found
    return found


# Per cell: its (x, y), as the moves name it.
XY: Final = tuple((i % BOARD.width, i // BOARD.width) for i in range(BOARD.width * BOARD.height))
XY_AS_IS: Final[tuple[Any, ...]] = XY


class _Walk:
    """A creature's last walk and what it depended on.  A class, not a NamedTuple: compiled, its
    fields are read directly and it is made by one native call (a NamedTuple is made by its
    interpreted ``__new__``)."""

    __slots__ = ("cell", "budget", "gate", "looked", "snapshot", "dests", "costs", "cells")

    def __init__(
        self,
        cell: int,
        budget: int,
        gate: bool,
        looked: int,
        snapshot: int,
        dests: tuple[tuple[int, int], ...],
        costs: dict[int, int],
        cells: tuple[int, ...],
    ) -> None:
        self.cell = cell
        self.budget = budget
        self.gate = gate
        self.looked = looked  # the cells the walk looked at, one bit each
        self.snapshot = snapshot  # their blocked bits then
        self.dests = dests  # (x, y)
        self.costs = costs  # cell -> steps (``movement.creature_walk``'s, shared: read only)
        self.cells = cells  # the destinations as cells, in ``dests`` order (for the steering)


def zorkal_level_cost(s: State) -> int | None:
    """Zorkal's levels: 7 Blood Drops for level 2, 9 more for level 3 (RB; content 2.4)."""
    level = s["zorkal"]["level"]
    if level >= len(ZORKAL_STATS["life"]):
        return None
    cost = variants.zorkal_level_cost(s["options"], level)  # 8 and 10 with Four Heroes (6.6)
    return cost if s["blood"] >= cost else None
