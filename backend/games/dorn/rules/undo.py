"""Taking back a step (RB "Movement can be interrupted and resumed within the same phase";
ruling 45: movement is a series of paths), as players of the physical game do: a hero put down
on the wrong cell is picked up again, as long as the table learnt nothing from the move.

A hero's move that made no other event than the move itself (no treasure drawn, no hidden
monster, no life lost on a Thorny Portal, no engaged stop of Tactics and Flight) is recorded in
``s["undo"]`` with the hero as it was before (its item cards aside: they cannot change in such
a move, and the record is public).  Its seat may take the last record back while nothing else
has happened: any other action clears the records (``forget``), so a take-back never undoes
what another seat saw or built on.  Records stack, so a path walked in several moves is taken
back move by move, the last first.
"""

from __future__ import annotations

from typing import Any, Final, cast

from backend.engine.core import Action

from ..catalog import HEROES
from ..state import State, Work, cell_name, placed, xy
from .turns import HERO_MOVES

# The events a move may make and still be taken back.
QUIET: Final = frozenset({"hero_move"})


def record(w: Work, seat: str, hid: str, before: dict[str, Any], first_event: int) -> None:
    """After a hero's move: keep it for a take-back if it made no event but the move."""
    if all(e.kind in QUIET for e in w.events[first_event:]):
        w.s["undo"].append({"seat": seat, "hero": hid, "before": before})
    else:
        w.s["undo"] = []


def before_move(w: Work, hid: str) -> dict[str, Any]:
    """The hero as the record keeps it: every field but its item cards (copied)."""
    h = w.s["heroes"][hid]
    # A copy without the cards, and new copies of the hero's two other lists (``HeroState``; the
    # clone copies the same three): at every hero move, where a comprehension tested each field.
    kept: dict[str, Any] = dict(h)
    del kept["cards"]
    kept["mv"] = h["mv"][:]
    kept["used"] = h["used"][:]
    return kept


def forget(s: State) -> None:
    """Any action but a move or a take-back ends every take-back."""
    if s["undo"]:
        s["undo"] = []


def listed(s: State, seat: str) -> list[Action]:
    """The take-back the seat may send: its hero's last recorded move, in the movement step."""
    if s["phase"] != HERO_MOVES or not s["undo"] or seat in s["done"]:
        return []
    last = s["undo"][-1]
    return [{"type": "undo_move", "hero": last["hero"]}] if last["seat"] == seat else []


def take_back(w: Work, seat: str, a: Action) -> None:
    s = w.s
    last = s["undo"].pop()
    hid = last["hero"]
    h = s["heroes"][hid]
    left = placed(h["cell"])
    # The record is every field but the cards; its lists are shared with earlier states: copied.
    fields = cast(dict[str, Any], h)
    for k, v in last["before"].items():
        fields[k] = list(v) if isinstance(v, list) else v
    w.moved()
    w.emit(
        "hero_move_taken_back",
        f"{HEROES[hid]['name']} steps back from {cell_name(left)} to {cell_name(placed(h['cell']))}.",
        hero=hid,
        cell=xy(placed(h["cell"])),
    )
