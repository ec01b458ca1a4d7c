"""B01 Astral Journey: a hero off the board but alive, and its return at H0 (content 4.2, 5.3
H0.2, 5.10 "astral placement"; rulings 35, 38, 41, B1, B2).

The user leaves at once: ``cell`` None, ``away`` the cell it left, ``alive`` still True.  Every
rule that needs a hero on the board reads ``cell`` (``Work.on_board_heroes``, the occupancy map,
creature targets, the chamber check, the heal step), so an away hero is unseen, untargetable,
blocks nothing and fills no chamber cell, while the victory check (``alive``) and Mummy Rot
(K0.3) still count it.  At H0 of the next hero turn its seat places it (a prompt, default the
first Argos cell) on any legal hero cell but the gate and throne; it takes a treasure token
there, and no Thorny Portals damage (content 4.5: Blessing placements never hurt).
"""

from __future__ import annotations

from typing import Final

from backend.engine.core import Action

from ..board import BOARD
from ..catalog import HEROES, TIE_BREAK
from ..state import PromptState, Work, cell_name, placed, xy
from .movement import hero_may_stop
from .prompts import PromptRule, ask
from .treasure import enter_cell

RETURN: Final = "astral_return"  # the H0 question (content 5.10)
_NOT_THERE: Final = BOARD.gate | BOARD.throne
_ALL_CELLS: Final = range(BOARD.width * BOARD.height)
ARGOS: Final = frozenset(BOARD.argos)


def leave(w: Work, hid: str) -> None:
    """The user leaves the board and takes no further part in this hero turn (no move,
    actions, items, healing): its allowances go with it."""
    h = w.s["heroes"][hid]
    cell = placed(h["cell"])
    h["away"] = cell
    h["cell"] = None
    h["mv"] = [0, 0, 0]
    h["actions"] = h["bonus_actions"] = 0
    w.moved()
    w.emit(
        "hero_away",
        f"{HEROES[hid]['name']} leaves the board from {cell_name(cell)} on an Astral Journey.",
        hero=hid,
        cell=xy(cell),
    )


def ask_returns(w: Work) -> None:
    """H0.2: each absent hero's seat places it, in tie-break order."""
    heroes = w.s["heroes"]
    for hid in TIE_BREAK:
        h = heroes.get(hid)
        if h is not None and h["alive"] and h["away"] is not None:
            ask(
                w,
                RETURN,
                h["seat"],
                f"Where does {HEROES[hid]['name']} come back from the Astral Journey?",
                hero=hid,
            )


def return_cells(w: Work, hid: str) -> list[int]:
    """Legal hero cells (content 1.6) but the gate and throne, in reading order (built only while
    the question is open, so not memoised: a Work may place several heroes in one command)."""
    return [c for c in _ALL_CELLS if c not in _NOT_THERE and hero_may_stop(w, hid, c)]


def _answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "to": xy(c)} for c in return_cells(w, p["data"]["hero"])]


def _default(w: Work, p: PromptState) -> Action:
    """The first free Argos cell, (10,18) (content 5.3 H0.2): Argos holds any number of heroes."""
    cells = return_cells(w, p["data"]["hero"])
    argos = [c for c in BOARD.argos if c in cells]
    return {"type": "choose", "to": xy(argos[0] if argos else cells[0])}


def _come_back(w: Work, seat: str, p: PromptState, a: Action) -> None:
    hid = p["data"]["hero"]
    h = w.s["heroes"][hid]
    cell = BOARD.idx(*a["to"])
    h["cell"] = cell
    h["away"] = None
    h["moved"] = True  # it relocated itself by its own Blessing this hero turn (ruling 38; B2)
    w.moved()
    w.emit(
        "hero_returns",
        f"{HEROES[hid]['name']} comes back from the Astral Journey at {cell_name(cell)}.",
        hero=hid,
        cell=xy(cell),
    )
    enter_cell(w, hid, cell)  # a treasure token there is taken (ruling 35)


PROMPTS: Final[dict[str, PromptRule]] = {RETURN: PromptRule(_answers, _come_back, _default)}
