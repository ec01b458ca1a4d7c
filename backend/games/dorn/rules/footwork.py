"""Movement-step abilities and hero teleports (content 1.7.2 teleport distance, 2.3 ``cho.bloodyrun``,
``ele.elvenwalk``, ``ele.astralleap``, 4.1 R03/R10, 4.5, 5.3 H2, 5.4; rulings 32, 35, 37, 38, 39,
A12-A15 in docs/rules/dorn.md).

Each is an ``ability`` action of the movement step (H2): bloody run (pay 1 life, +3 Move, as often
as wanted), elven walk (``to``: teleport 5, only before any step, then no more own steps) and
astral leap (``to``: teleport 4, steps before and after).  Teleports cost no Move and are not
steps, so Icy Prison allows them (content 4.1 R03); bloody run is refused under it.
``relocate`` is the one way a hero's own teleport lands: treasure, Thorny Portals, "moved".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from backend.engine.core import Action

from ..board import BOARD
from ..catalog import HEROES
from ..state import Work, cell_name, placed, xy
from . import combat, reach, rituals, treasure
from .movement import hero_may_stop
from .weapons import ABILITIES, has, icy

BLOODY_RUN: Final = "cho.bloodyrun"
ELVEN_WALK: Final = "ele.elvenwalk"
ASTRAL_LEAP: Final = "ele.astralleap"


def teleport_cells(w: Work, hid: str, limit: int) -> list[int]:
    """Legal hero cells at teleport distance 1..``limit`` from the hero's cell (content 1.7.2:
    over figures and obstacles, never through a pad link), in reading order."""
    cell = placed(w.s["heroes"][hid]["cell"])
    own = set(BOARD.cells_of(cell))
    dist = reach.teleport_distances(w, cell, limit)
    return sorted(c for c in dist if c not in own and hero_may_stop(w, hid, c))


def relocate(w: Work, hid: str, to: int, *, own: bool) -> None:
    """Put a hero on ``to`` by a teleport (not a step): it draws the treasure there (ruling 35)
    and, under Thorny Portals, loses 1 life on a pad (content 4.1 R10, 4.5: "Scroll of Teleport /
    Almanor's teleport onto a pad: loses 1 life").  ``own``: the hero moved itself (ruling 38)."""
    h = w.s["heroes"][hid]
    h["cell"] = to
    if own:
        h["moved"] = True
    w.moved()
    w.emit("hero_teleport", f"{HEROES[hid]['name']} appears at {cell_name(to)}.", hero=hid, cell=xy(to))
    rituals.thorny_portals(w, hid, to, by_blessing=False)
    if h["alive"]:
        treasure.enter_cell(w, hid, to)


def move_actions(w: Work, hid: str) -> list[Action]:
    """The hero's ``ability`` actions in the movement step."""
    s = w.s
    h = s["heroes"][hid]
    out: list[Action] = []
    if h["cell"] is None:
        return out
    if hid == "choros" and has(w, hid, BLOODY_RUN) and h["life"] >= 2 and not icy(w, hid):
        out.append({"type": "ability", "hero": hid, "ability": BLOODY_RUN})
    if hid == "eleanor" and ELVEN_WALK not in h["used"] and ASTRAL_LEAP not in h["used"]:
        if has(w, hid, ELVEN_WALK) and not h["moved"]:
            for c in teleport_cells(w, hid, ABILITIES[ELVEN_WALK]["range"]):
                out.append({"type": "ability", "hero": hid, "ability": ELVEN_WALK, "to": xy(c)})
        if has(w, hid, ASTRAL_LEAP):
            for c in teleport_cells(w, hid, ABILITIES[ASTRAL_LEAP]["range"]):
                out.append({"type": "ability", "hero": hid, "ability": ASTRAL_LEAP, "to": xy(c)})
    return out


def _bloody_run(w: Work, a: Action) -> None:
    """Content 2.3 ``cho.bloodyrun``: pay 1 life (2+ needed, ruling 32; blood to the Keeper) for
    3 more steps this turn, a class-1 bonus (content 4.5: cancelled by Icy Prison, lost to Rubble)."""
    hid = a["hero"]
    h = w.s["heroes"][hid]
    w.emit(
        "hero_ability",
        f"{HEROES[hid]['name']} pays in blood for 3 more steps (bloody run).",
        hero=hid,
        ability=BLOODY_RUN,
    )
    combat.lose_life(w, hid, ABILITIES[BLOODY_RUN]["life_cost"], "cost of bloody run")
    h["mv"][0] += ABILITIES[BLOODY_RUN]["bonus"]


def _elven_walk(w: Work, a: Action) -> None:
    """Content 2.3 ``ele.elvenwalk``: before her first step, teleport 5; then she takes no steps
    with her own Move or class-1 bonuses this turn (ruling A13: Ritual- and Blessing-class
    allowances stay, content 4.5), and no astral leap."""
    hid = a["hero"]
    h = w.s["heroes"][hid]
    to = BOARD.idx(*a["to"])
    h["used"].append(ELVEN_WALK)
    h["mv"][0] = 0
    w.emit("hero_ability", f"{HEROES[hid]['name']} takes the elven walk.", hero=hid, ability=ELVEN_WALK)
    relocate(w, hid, to, own=True)


def _astral_leap(w: Work, a: Action) -> None:
    """Content 2.3 ``ele.astralleap``: teleport 4 during her movement, no Move spent."""
    hid = a["hero"]
    h = w.s["heroes"][hid]
    h["used"].append(ASTRAL_LEAP)
    w.emit("hero_ability", f"{HEROES[hid]['name']} makes an astral leap.", hero=hid, ability=ASTRAL_LEAP)
    relocate(w, hid, BOARD.idx(*a["to"]), own=True)


MOVES: Final[dict[str, Callable[[Work, Action], None]]] = {
    BLOODY_RUN: _bloody_run,
    ELVEN_WALK: _elven_walk,
    ASTRAL_LEAP: _astral_leap,
}
