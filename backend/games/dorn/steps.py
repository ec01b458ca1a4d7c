"""The listed actions of each step (``STEPS``) and every question's answers (``PROMPTS``).

``actions.legal`` looks a step's generator up by phase, after what every Keeper step or every
hero step lists first.  The lists are the hottest code of the engine (the Keeper's movement
list is rebuilt after every move), so each generator builds only the part asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

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
    xy,
)

# ---------------------------------------------------------------------------------------
# The listed actions: one generator per step, looked up by phase (``STEPS``), after what every
# Keeper step or every hero step lists first.  A generator gets the read-only Work, the seat,
# ``only`` (one action type, when validating: the others are not built) and ``focus`` (one
# hero or creature, likewise).  Order matters: the steered simulator draws by position.

Step = Callable[[Work, str, "str | None", "str | None"], list[Action]]


def wants(only: str | None, kind: str) -> bool:
    return only is None or only == kind


PROMPTS: dict[str, PromptRule] = {
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
    s = w.s
    bats, moves = wants(only, "bat_form"), wants(only, "move")
    all_monsters = s["monsters"]
    if focus is None:
        monsters = all_monsters
    else:
        monsters = {focus: all_monsters[focus]} if focus in all_monsters else {}
    blocked, gate = w.blocked_bits(), bool(s["gate"])
    out: list[Action] = []
    for mid, m in monsters.items():
        if bats and not m["moved"] and turns.can_bat(m):
            out.append({"type": "bat_form", "figure": mid})
        mv = m["mv"]
        if moves and mv > 0:
            # ``_creature_paths``'s reuse test, inlined: this loop is the hot spot.
            f = _WALKS.get(mid)
            if (
                f is not None
                and f.cell == m["cell"]
                and f.budget == mv
                and f.gate == gate
                and blocked & f.looked == f.snapshot
            ):
                out += [{"type": "move", "figure": mid, "to": [x, y]} for x, y in f.dests]
            else:
                out += _creature_paths(w, mid, m["cell"], mv)
    z = s["zorkal"]
    if moves and (focus is None or focus == ZORKAL) and w.zorkal_active() and z["mv"] > 0:
        out += _creature_paths(w, ZORKAL, z["cell"], z["mv"])
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
    for hid in _mine(w, seat, focus):
        h = s["heroes"][hid]
        if wants(only, "undo_move"):
            out += [a for a in undo.listed(s, seat) if a["hero"] == hid]
        if wants(only, "move"):
            out += [{"type": "move", "hero": hid, "to": xy(c)} for c in sorted(destinations(w, hid))]
        if wants(only, "pick_up"):
            out += [{"type": "pick_up", "hero": hid, "artifact": a} for a in treasure.artifacts_here(w, hid)]
        carried = treasure.carried(w, hid)
        if wants(only, "drop"):
            out += [{"type": "drop", "hero": hid, "artifact": a} for a in carried]
        if wants(only, "give") and (carried or h["cards"]):
            for other in w.on_board_heroes():
                if other != hid and heroes_adjacent(placed(h["cell"]), placed(s["heroes"][other]["cell"])):
                    out += [{"type": "give", "hero": hid, "to": other, "artifact": a} for a in carried]
                    out += [
                        {"type": "give", "hero": hid, "to": other, "card": c} for c in sorted(set(h["cards"]))
                    ]
        if wants(only, "discard"):
            out += [{"type": "discard", "hero": hid, "card": c} for c in sorted(set(h["cards"]))]
        if wants(only, "use_item"):
            out += treasure.item_uses(w, hid)
        if wants(only, "ability"):
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


STEPS: dict[str, Step] = {
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


def _creature_paths(w: Work, cid: str, cell: int, budget: int) -> list[Action]:
    """The creature's move actions.  The Keeper's movement list is the longest the game has and
    is rebuilt after every move, while most creatures' walks do not change: each creature's last
    destinations are kept with what its walk depended on (``creature_walk``) and reused while
    that holds.  The actions themselves are new at every call: they leave the engine, and a
    caller's edit must not reach the next list."""
    gate = bool(w.s["gate"])
    found = _WALKS.get(cid)
    if (
        found is not None
        and found.cell == cell
        and found.budget == budget
        and found.gate == gate
        and w.blocked_bits() & found.looked == found.snapshot
    ):
        cells = found.dests
    else:
        looked, snapshot, dests = movement.creature_walk(w, cid, cell, budget)
        width = BOARD.width
        cells = tuple((c % width, c // width) for c in sorted(dests))
        if len(_WALKS) > 4000:
            _WALKS.clear()
        _WALKS[cid] = _Walk(cell, budget, gate, looked, snapshot, cells)
    return [{"type": "move", "figure": cid, "to": [x, y]} for x, y in cells]


class _Walk(NamedTuple):
    """A creature's last walk and what it depended on."""

    cell: int
    budget: int
    gate: bool
    looked: int  # the cells the walk looked at, one bit each
    snapshot: int  # their blocked bits then
    dests: tuple[tuple[int, int], ...]  # (x, y)


_WALKS: dict[str, _Walk] = {}


def zorkal_level_cost(s: State) -> int | None:
    """Zorkal's levels: 7 Blood Drops for level 2, 9 more for level 3 (RB; content 2.4)."""
    level = s["zorkal"]["level"]
    if level >= len(ZORKAL_STATS["life"]):
        return None
    cost = variants.zorkal_level_cost(s["options"], level)  # 8 and 10 with Four Heroes (6.6)
    return cost if s["blood"] >= cost else None
