"""The Dorn board, loaded once from data/board.json (content file section 1).

Cells are stored in states and computed on as one integer ``i = y * WIDTH + x``
(compact, hashable, JSON-safe); actions and views use ``[x, y]``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Final

from backend.engine.squaregrid import DIRECTIONS

# By the package, not by ``__file__``: compiled by mypyc (backend/native.py), a module's
# ``__file__`` names a path that does not exist (the package's directory twice).
DATA: Final = files("backend.games.dorn") / "data"

# Terrain characters of layer T (content 1.1).
# A cell index where a hot loop reads it from a table and only tests it against dicts and sets:
# compiled by mypyc, a value typed ``int`` is unboxed when read and boxed again (a new object
# above 256) at each dict or set operation; typed ``Cell`` it stays the table's object.
Cell = Any

WALL: Final = "#"
TRAIL: Final = "~"
HERBALIST: Final = "H"
ARGOS: Final = "a"
GATE: Final = "G"
THRONE: Final = "Z"
ZONE_CHARS: Final = {
    "c": "crypt",
    "d": "dark_temple",
    "g": "graveyard",
    "m": "black_moor",
    "s": "sewers",
    "r": "chamber",
}
# Creatures may stand on floor, spawn zones and the chamber (gate/throne once open); never on
# trail, Herbalist or Argos (RB "Monsters cannot enter Outside trail spaces", content 1.6).
CREATURE_TERRAIN: Final = frozenset(".cdgmsr")
# Heroes may pass through other heroes only here (RB "heroes can pass each other on Outside
# trails"; ruling 15 adds Herbalist and Argos).
PASS_THROUGH_TERRAIN: Final = frozenset("~Ha")


def load_json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text())
    return data


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    terrain: tuple[str, ...]  # per cell index
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal, in bounds, not wall (gate included)
    step_to: tuple[dict[str, int], ...]  # direction name -> neighbour index (not wall)
    partner: dict[int, int]  # teleport pads
    zones: dict[str, tuple[int, ...]]
    n_spaces: tuple[int, ...]  # N1..N6
    artifact_homes: dict[str, int]  # A1..A6 -> cell
    treasure_spaces: tuple[int, ...]  # P01..P24
    fountains: frozenset[int]
    cave_in_sites: tuple[int, ...]
    entrances: tuple[int, ...]
    throne_seat: int
    gate: frozenset[int]
    throne: frozenset[int]
    chamber: frozenset[int]
    argos: tuple[int, ...]
    safe: frozenset[int]  # Argos and the Herbalist: creatures never target heroes here (ruling 36)
    footprint: tuple[tuple[int, ...], ...]  # per cell: the cells a figure there occupies

    def idx(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, i: int) -> tuple[int, int]:
        return (i % self.width, i // self.width)

    def cells_of(self, i: int) -> tuple[int, ...]:
        """The cells a figure standing on ``i`` occupies (both cells of a pad, content 1.7.4)."""
        return self.footprint[i]

    def is_wall(self, i: int) -> bool:
        return self.terrain[i] == WALL

    def closed_gate_blocks(self, i: int, gate_open: bool) -> bool:
        """Gate and throne count as wall while the gate is closed (content 1.6)."""
        return not gate_open and self.terrain[i] in (GATE, THRONE)

    def hero_terrain(self, i: int, gate_open: bool) -> bool:
        t = self.terrain[i]
        return t != WALL and (gate_open or t not in (GATE, THRONE))

    def creature_terrain(self, i: int, gate_open: bool) -> bool:
        t = self.terrain[i]
        return t in CREATURE_TERRAIN or (gate_open and t in (GATE, THRONE))

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height


def _load() -> Board:
    data = load_json("board.json")
    w, h = data["width"], data["height"]
    rows: list[str] = data["terrain"]
    terrain = tuple(ch for row in rows for ch in row)
    assert len(terrain) == w * h
    neighbours: list[tuple[int, ...]] = []
    step_to: list[dict[str, int]] = []
    for i in range(w * h):
        x, y = i % w, i // w
        steps: dict[str, int] = {}
        for name, (dx, dy) in DIRECTIONS.items():
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and terrain[ny * w + nx] != WALL:
                steps[name] = ny * w + nx
        step_to.append(steps)
        neighbours.append(tuple(steps.values()))
    specials = data["specials"]

    def cells(kind: str) -> list[tuple[str, int]]:
        return [(s["id"], s["y"] * w + s["x"]) for s in specials if s["kind"] == kind]

    partner: dict[int, int] = {}
    by_id = {s["id"]: s for s in specials}
    for sid, cell in cells("TP"):
        note = by_id[sid]["note"]
        other = by_id[note.split("=")[1]]
        partner[cell] = other["y"] * w + other["x"]
    zones = {name: tuple(sorted(c[1] * w + c[0] for c in cs)) for name, cs in data["zones"].items()}
    (seat,) = [c for _, c in cells("SEAT")]
    return Board(
        width=w,
        height=h,
        terrain=terrain,
        neighbours=tuple(neighbours),
        step_to=tuple(step_to),
        partner=partner,
        zones=zones,
        n_spaces=tuple(c for _, c in cells("N")),
        artifact_homes=dict(cells("A")),
        treasure_spaces=tuple(c for _, c in cells("P")),
        fountains=frozenset(c for _, c in cells("F")),
        cave_in_sites=tuple(c for _, c in cells("X")),
        entrances=tuple(c for _, c in cells("ENT")),
        throne_seat=seat,
        gate=frozenset(zones["gate"]),
        throne=frozenset(zones["throne"]),
        chamber=frozenset(zones["chamber"]),
        argos=zones["argos"],
        safe=frozenset(zones["argos"] + zones["herbalist"]),
        footprint=tuple((i,) if i not in partner else (i, partner[i]) for i in range(w * h)),
    )


BOARD: Final = _load()
