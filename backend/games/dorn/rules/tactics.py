"""Tactics and Flight, the variant of content 6.4 (ruling V7 in docs/rules/dorn.md).

- *Engaged*: orthogonally adjacent (1.7.1, through either pad cell) to an enemy figure: a
  creature (a monster, or Zorkal once the Gate is open) for a hero, a hero on the board for a
  creature.
- **Stop**: a step that ends on a cell where the figure is engaged ends its movement for the
  step (allowance 0); a path never goes *through* such a cell (``movement.py`` stops its walks
  there, for heroes and creatures alike).
- **Flee**: a move that starts on a cell where the figure is engaged marks it *fled*: a hero makes
  no weapon attacks and casts no spells this hero turn (items are allowed), a creature makes no
  attacks this Keeper turn.  A figure that takes no step keeps its attacks.
- Teleports, placements and the other relocations of 6.4 are not steps: only ``after_move``
  (called for walked moves) stops or marks a figure.

The fled marks are lasting effects (``rules/effects.py``): ``"fled:<figure>"`` until the end of
the hero turn (heroes) or of the Keeper turn (creatures).
"""

from __future__ import annotations

from typing import Final

from ..board import BOARD
from ..catalog import HEROES
from ..state import State, Work, cell_name
from . import variants
from .effects import UNTIL_HERO_END, UNTIL_KEEPER_END

# The lasting effect of a figure that fled this turn: ``FLED + figure id`` (rules/effects.py).
FLED: Final = "fled:"


def playing(s: State) -> bool:
    return variants.on(s["options"], variants.TACTICS)


def _around(cells: list[int]) -> frozenset[int]:
    """Every cell orthogonally next to one of ``cells`` (each figure's footprint included)."""
    out: set[int] = set()
    for c in cells:
        for f in BOARD.footprint[c]:
            out.update(BOARD.neighbours[f])
    return frozenset(out)


def hero_engaged_cells(w: Work) -> frozenset[int]:
    """Cells where a hero is engaged: next to a monster, or to Zorkal once he is active."""
    cells = [m["cell"] for m in w.s["monsters"].values()]
    if w.zorkal_active():
        cells.append(w.s["zorkal"]["cell"])
    return _around(cells)


def creature_engaged_cells(w: Work) -> frozenset[int]:
    """Cells where a creature is engaged: next to a hero on the board."""
    heroes = w.s["heroes"]
    return _around([c for hid in w.on_board_heroes() if (c := heroes[hid]["cell"]) is not None])


def engaged(w: Work, fid: str, cell: int) -> bool:
    """Whether figure ``fid`` standing on ``cell`` is engaged (either pad cell counts)."""
    near = hero_engaged_cells(w) if w.is_hero(fid) else creature_engaged_cells(w)
    return any(c in near for c in BOARD.footprint[cell])


def fled(s: State, fid: str) -> bool:
    return FLED + fid in s["effects"]


def may_attack(s: State, fid: str) -> bool:
    """False for a figure that fled this turn: no weapon attacks or spells for a hero, no attacks
    for a creature (content 6.4)."""
    return not fled(s, fid)


def _name(w: Work, fid: str) -> str:
    return str(HEROES[fid]["name"]) if w.is_hero(fid) else w.creature_name(fid).capitalize()


def after_move(w: Work, fid: str, start: int, end: int) -> None:
    """After a walked move from ``start`` to ``end`` (the figure is already on ``end``): flee if it
    left an engaged cell, stop if it ended engaged.  The engagement at ``start`` is judged with
    the figures as they are now; only the mover has changed cell, and it is nobody's enemy of its
    own side."""
    s = w.s
    if not playing(s):
        return
    hero = w.is_hero(fid)
    if engaged(w, fid, start) and not fled(s, fid):
        s["effects"][FLED + fid] = UNTIL_HERO_END if hero else UNTIL_KEEPER_END
        no = "no weapon attacks or spells this hero turn" if hero else "no attacks this Keeper turn"
        w.emit(
            "figure_fled",
            f"{_name(w, fid)} flees from {cell_name(start)}: {no} (Tactics and Flight).",
            figure=fid,
        )
    if engaged(w, fid, end):
        if hero:
            s["heroes"][fid]["mv"] = [0, 0, 0]
        elif fid in s["monsters"]:
            w.monster(fid)["mv"] = 0
        else:
            s["zorkal"]["mv"] = 0
        w.emit(
            "figure_engaged",
            f"{_name(w, fid)} stops next to an enemy at {cell_name(end)} (Tactics and Flight).",
            figure=fid,
        )
