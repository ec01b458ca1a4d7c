"""ASCII positions for Dorn rule tests.

A picture is a window of the real board, one character per cell, starting at ``origin``
(x, y).  ``#`` must be a wall there (and every wall must be drawn ``#``), ``.`` is any open
cell, and letters are figures:

    heroes   A almanor  C choros  E eleanor  G gor  U guelin  K kaerdrak  R ragnar  I riel  V vargen
    monsters r rat  z zombie  s skeleton  b bog beast  h ghost  m mummy  v vampire  o gorgon
    @        Zorkal

Heroes not drawn stay in Argos; every monster not drawn is removed; treasure tokens are
removed unless ``tokens=True``.
"""

from __future__ import annotations

import textwrap

from backend.engine.registry import get_game
from backend.engine.rng import seed_from_int
from backend.games.dorn.board import BOARD, WALL
from backend.games.dorn.catalog import TIE_BREAK, hero_stat
from backend.games.dorn.rules import summoning, turns
from backend.games.dorn.state import ZORKAL, Work

GAME = get_game("dorn")
HERO_LETTERS = {
    "A": "almanor",
    "C": "choros",
    "E": "eleanor",
    "G": "gor",
    "U": "guelin",
    "K": "kaerdrak",
    "R": "ragnar",
    "I": "riel",
    "V": "vargen",
}
MONSTER_LETTERS = {
    "r": "rat",
    "z": "zombie",
    "s": "skeleton",
    "b": "bogbeast",
    "h": "ghost",
    "m": "mummy",
    "v": "vampire",
    "o": "gorgon",
}


def c(x: int, y: int) -> int:
    return BOARD.idx(x, y)


def position(
    picture: str = "",
    origin: tuple[int, int] = (0, 0),
    *,
    phase: str = "H2",
    k: int = 1,
    heroes: list[str] | None = None,
    split: list[list[str]] | None = None,
    tokens: bool = False,
    seed: int = 1,
) -> dict:
    rows = [r for r in textwrap.dedent(picture).strip("\n").split("\n")] if picture.strip() else []
    drawn_heroes = [HERO_LETTERS[ch] for r in rows for ch in r if ch in HERO_LETTERS]
    chosen = list(dict.fromkeys((heroes or []) + drawn_heroes))
    for h in TIE_BREAK:
        if len(chosen) >= 5:
            break
        if h not in chosen:
            chosen.append(h)
    options = {"heroes": chosen}
    if split is not None:
        options["split"] = split
    state = GAME.initial_state(seed_from_int(seed), GAME.normalize_options(options))
    w = Work(state)
    s = w.s
    s["monsters"] = {}
    if not tokens:
        s["tokens"] = []
    s["k"] = k
    ox, oy = origin
    for dy, row in enumerate(rows):
        for dx, ch in enumerate(row.strip()):
            x, y = ox + dx, oy + dy
            cell = c(x, y)
            wall = BOARD.terrain[cell] == WALL
            assert (ch == "#") == wall, (
                f"picture says {ch!r} at ({x},{y}) but the board has {BOARD.terrain[cell]!r}"
            )
            if ch in HERO_LETTERS:
                s["heroes"][HERO_LETTERS[ch]]["cell"] = cell
            elif ch in MONSTER_LETTERS:
                summoning.place_monster(w, MONSTER_LETTERS[ch], cell, keeper_turn=False, why="test")
            elif ch == "@":
                s["zorkal"]["cell"] = cell
    w.moved()
    goto(w, phase)
    return w.finish().state


def goto(w: Work, phase: str) -> None:
    """Open ``phase`` as the turn would (per-turn resets included), without the steps before."""
    s = w.s
    s["prompt"] = None
    if phase.startswith("H"):
        for hid, h in s["heroes"].items():
            h.update(moved=False, item_used=False, rubble=False, actions=0, bonus_actions=0)
            h["mv"] = [hero_stat(hid, "move", h["level"]), 0, 0]
    else:
        for hid, h in s["heroes"].items():
            h["parries"] = hero_stat(hid, "parry", h["level"])
        s["ritual_played"] = False
    if phase == "K4":
        turns.enter_phase(w, "K3")
    turns.enter_phase(w, phase)


def edit(state: dict, fn) -> dict:
    """Return a copy of ``state`` changed by ``fn(work)``."""
    w = Work(state)
    fn(w)
    w.moved()
    return w.finish().state


def at(state: dict, x: int, y: int) -> str | None:
    return Work(state, copy=False).occupancy().get(c(x, y))


def monster_at(state: dict, x: int, y: int) -> str:
    fid = at(state, x, y)
    assert fid is not None and fid.startswith("m"), f"no monster at ({x},{y})"
    return fid


def act(state: dict, seat: str, action: dict) -> dict:
    return GAME.apply(state, seat, action).state


def act_events(state: dict, seat: str, action: dict):
    t = GAME.apply(state, seat, action)
    return t.state, t.events


def seat_of(state: dict, hero: str) -> str:
    return state["heroes"][hero]["seat"]


def legal(state: dict, seat: str, kind: str | None = None) -> list[dict]:
    return [a for a in GAME.legal_actions(state, seat) if kind is None or a["type"] == kind]


__all__ = ["ZORKAL", "GAME", "position", "goto", "edit", "at", "monster_at", "act", "legal", "seat_of", "c"]
