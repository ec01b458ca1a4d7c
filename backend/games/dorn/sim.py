"""Steered random play for simulations, conformance games and benchmarks.

Uniformly random legal actions never end a game of Dorn: nothing in the rules forces progress
(content 5.12), a random Keeper's monsters rarely end next to a hero, and random heroes never
carry three artifacts into the chamber.  Measured before this module existed: 0 real victories
in 12 games of 120 Keeper turns, however the movement lists were cut (steps, paths, or paths
plus "charge" shortcuts).

So the simulator's driver (``backend/engine/playout.py``) asks the game for its pick when the
game offers ``sim_choice``.  The pick is always one of the listed actions, drawn with the
driver's own Rng: with probability ``NUDGE`` (1/2 for the Keeper, 3/4 for hero seats) it is
drawn among the *purposeful* listed actions (below), otherwise uniformly among all of them.
No rule is bent: every action is validated and applied like a player's, and the conformance
harness checks the whole list.

Purposeful actions:

* Keeper, creature movement: a path ending where the creature could attack a hero (next to it;
  2 in line for a skeleton; within 3 for a gorgon), else one into the Ritual Chamber.
* Keeper, Blood step: levelling Zorkal.
* Heroes, movement: picking up an artifact; dropping one inside the chamber; a carrier walking
  towards the chamber; an empty-handed hero walking towards the nearest loose artifact, or, once
  the Gate is open, towards Zorkal.
* Heroes, attacks: any attack on Zorkal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from backend.engine.core import Action
from backend.engine.rng import Rng

from .board import BOARD, WALL
from .catalog import MONSTERS
from .state import ZORKAL, State

# Chance (numerator, denominator) that a pick is drawn among the purposeful listed actions,
# per side: the heroes need more purpose (artifacts, chamber, Zorkal) than the Keeper (reach).
NUDGE = {"keeper": (1, 2), "heroes": (3, 4)}

W = BOARD.width
CHAMBER = BOARD.chamber


def choose(state: State, seat: str, legal: list[Action], rng: Rng) -> Action:
    """The driver's pick among ``legal`` (see the module docstring)."""
    num, den = NUDGE["keeper" if seat == "keeper" else "heroes"]
    if rng.below(den) < num:
        purposeful = _purposeful(state, seat, legal)
        if purposeful:
            return purposeful[rng.below(len(purposeful))]
    return legal[rng.below(len(legal))]


def _purposeful(s: State, seat: str, legal: list[Action]) -> list[Action]:
    phase = s["phase"]
    if s["prompt"] is not None or s["surrender"] is not None:
        return []
    if seat == "keeper":
        if phase == "K1":
            return [a for a in legal if a["type"] == "level_zorkal"]
        if phase == "K3":
            return _keeper_moves(s, legal)
        return []
    if phase == "H2":
        return _hero_moves(s, legal)
    if phase == "H3":
        return [a for a in legal if a["type"] == "attack" and a.get("target") == ZORKAL]
    return []


# ---------------------------------------------------------------------------------------
# Keeper


def _keeper_moves(s: State, legal: list[Action]) -> list[Action]:
    targets = tuple(sorted(h["cell"] for h in s["heroes"].values() if h["cell"] is not None))
    melee, pike, shot = _engagement(targets)
    monsters = s["monsters"]
    engage: list[Action] = []
    chamber: list[Action] = []
    figure = None
    wanted = melee
    for a in legal:
        if a["type"] != "move":
            continue
        if a["figure"] != figure:  # the list holds each creature's moves together
            figure = a["figure"]
            kind = "melee" if figure == ZORKAL else MONSTERS[monsters[figure]["type"]]["reach"]
            wanted = pike if kind == "pike" else shot if kind == "shot" else melee
        x, y = a["to"]
        cell = y * W + x
        if cell in wanted:
            engage.append(a)
        elif cell in CHAMBER:
            chamber.append(a)
    return engage or chamber


def _engagement(hero_cells: tuple[int, ...]) -> tuple[set[int], set[int], set[int]]:
    """Cells from which a melee, a pike and a shooting creature could reach one of the heroes
    outside Argos and the Herbalist (lines of sight are not checked: a nudge, not a rule).  A
    pad cell counts when either cell of its pad does."""
    found = _ENGAGE.get(hero_cells)
    if found is not None:
        return found
    melee: set[int] = set()
    pike: set[int] = set()
    shot: set[int] = set()
    for hc in hero_cells:
        if hc in BOARD.safe:
            continue
        for c in BOARD.footprint[hc]:
            melee.update(BOARD.neighbours[c])
            x, y = c % W, c // W
            for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
                px, py = x + dx, y + dy
                if BOARD.in_bounds(px, py) and BOARD.terrain[py * W + px] != WALL:
                    pike.add(py * W + px)
            for dx in range(-3, 4):
                for dy in range(-3 + abs(dx), 4 - abs(dx)):
                    if BOARD.in_bounds(x + dx, y + dy):
                        shot.add((y + dy) * W + x + dx)
    for cells in (melee, pike, shot):
        cells.update([p for c, p in BOARD.partner.items() if c in cells])
    if len(_ENGAGE) > 5000:
        _ENGAGE.clear()
    found = _ENGAGE[hero_cells] = (melee, pike, shot)
    return found


_ENGAGE: dict[tuple[int, ...], tuple[set[int], set[int], set[int]]] = {}


# ---------------------------------------------------------------------------------------
# Heroes


def _hero_moves(s: State, legal: list[Action]) -> list[Action]:
    out = [a for a in legal if a["type"] == "pick_up"]
    out += [a for a in legal if a["type"] == "drop" and s["heroes"][a["hero"]]["cell"] in CHAMBER]
    if out:
        return out
    carriers = {a["carrier"] for a in s["artifacts"].values() if a["carrier"] is not None}
    loose = [a["cell"] for a in s["artifacts"].values() if a["carrier"] is None and a["cell"] not in CHAMBER]
    gate = bool(s["gate"])
    by_hero: dict[str, list[Action]] = {}
    for a in legal:
        if a["type"] == "move":
            by_hero.setdefault(a["hero"], []).append(a)
    for hid, moves in by_hero.items():
        if hid in carriers and s["heroes"][hid]["cell"] not in CHAMBER:
            goal: Iterable[int] = CHAMBER
        elif gate and s["zorkal"]["life"] > 0:
            goal = BOARD.footprint[s["zorkal"]["cell"]]
        elif loose:
            goal = loose
        else:
            continue
        out += _closest(moves, _distances(frozenset(goal), gate))
    return out


def _closest(moves: list[Action], dist: dict[int, int]) -> list[Action]:
    best: list[Action] = []
    best_d = None
    for a in moves:
        x, y = a["to"]
        d = dist.get(y * W + x)
        if d is None:
            continue
        if best_d is None or d < best_d:
            best, best_d = [a], d
        elif d == best_d:
            best.append(a)
    return best


_DIST: dict[tuple[frozenset[int], bool], dict[int, int]] = {}


def _distances(goal: frozenset[int], gate: bool) -> dict[int, int]:
    """Walking distance to the nearest goal cell on the empty board (pads link)."""
    key = (goal, gate)
    found = _DIST.get(key)
    if found is None:
        if len(_DIST) > 2000:
            _DIST.clear()
        found = {c: 0 for c in goal}
        queue = deque(goal)
        while queue:
            c = queue.popleft()
            d = found[c] + 1
            for n in BOARD.neighbours[c]:
                if n not in found and BOARD.hero_terrain(n, gate):
                    found[n] = d
                    queue.append(n)
                    p = BOARD.partner.get(n)
                    if p is not None and p not in found:
                        found[p] = d
                        queue.append(p)
        _DIST[key] = found
    return found
