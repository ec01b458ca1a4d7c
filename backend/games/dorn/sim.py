"""Steered random play for simulations, conformance games and benchmarks.

Uniformly random legal actions never end a game of Dorn: nothing in the rules forces progress
(content 5.12), a random Keeper's monsters rarely end next to a hero, and random heroes never
carry three artifacts into the chamber.  Measured before this module existed: 0 real victories
in 12 games of 120 Keeper turns, however the movement lists were cut (steps, paths, or paths
plus "charge" shortcuts).

So the simulator's driver (``backend/engine/playout.py``) asks the game for its pick when the
game offers ``sim_choice``.  The pick is always one of the listed actions, drawn with the
driver's own Rng: with probability ``NUDGE`` (3/4 for hero seats, 1/2 for the Keeper outside
his movement step) it is drawn among the *purposeful* listed actions (below), otherwise
uniformly among all of them.  No rule is bent: every action is validated and applied like a
player's, and the conformance harness checks the whole list.

Purposeful actions:

* Keeper, creature movement (``_keeper_move_pick``): while some creature has a path ending
  where it could attack a hero (next to it; 2 in line for a skeleton; within 3 for a gorgon),
  or one into the Ritual Chamber (as deep as it goes; a creature inside only moves deeper or
  to attack), half of the picks are such paths and half uniform.  Then the step ends in half of
  the picks, a creature walks closer to a hero in a quarter, the rest are uniform.  Creatures
  already placed to attack stay put.  (Before, every creature wandered until the step's
  action limit: ≈ 30 moves per Keeper turn, half the game's actions.)
* Keeper, Blood step: levelling Zorkal, playing a Ritual.
* Heroes, Blessings step: playing the seat's Blessing.
* Heroes, movement: picking up an artifact (outside the chamber, by a hero that can still
  move); dropping one inside the chamber; a carrier walking towards the chamber; an
  empty-handed hero walking towards the nearest loose artifact, or, once the Gate is open,
  towards Zorkal.
* Heroes, movement, when none of the above is listed: movement abilities (bloody run, elven
  walk…) and the attacks some heroes make in that step (inexorable advance).
* Heroes, attacks: any attack on Zorkal; else any attack, spell or ability (so that each
  hero's abilities occur in simulations: the usage table of docs/rules/dorn.md).

Giving up: see ``GIVE_UP_TURN`` and ``SURRENDER_CHANCE``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Final, overload

from backend.engine.core import Action
from backend.engine.rng import Rng

from . import actions
from .board import BOARD, Cell
from .catalog import MONSTERS
from .rules import clock
from .rules.turns import BLESSINGS, BLOOD_STEP, HERO_ATTACKS, HERO_MOVES, MONSTER_MOVES
from .sim_distances import CHAMBER_DEPTH, UNKNOWN, creature_distances, engagement, hero_distances
from .state import KEEPER, ZORKAL, State, reader
from .steps import Block

# Chance (numerator, denominator) that a pick is drawn among the purposeful listed actions,
# per side: the heroes need more purpose (artifacts, chamber, Zorkal) than the Keeper (reach).
NUDGE: Final = {KEEPER: (1, 2), "heroes": (3, 4)}

# Giving up (when the table allows surrender): never in a uniform pick (random play would take
# it at once), but with chance 1/SURRENDER_CHANCE per pick where it is listed, and always for
# the side behind once a game has lasted GIVE_UP_TURN Keeper turns (median ≈ 28; past 45 few
# games still end in a victory: most are stalemates random play does not break, such as the
# last heroes waiting on the trail, out of reach of a labyrinth full of monsters).
GIVE_UP_TYPES: Final = ("surrender", "propose_surrender")
# Never drawn uniformly: giving up (above), and Real Day and Night's ``time_up``, which the
# server sends when a side's clock runs out (drawn uniformly, it would skip most turns of that
# variant).  A side runs out of time with chance 1/TIME_UP_CHANCE per pick where it is listed.
NOT_DRAWN: Final = (*GIVE_UP_TYPES, "time_up")
TIME_UP_CHANCE: Final = 150
SURRENDER_CHANCE: Final = 20_000
GIVE_UP_TURN: Final = 45

W: Final = BOARD.width
CHAMBER: Final = BOARD.chamber


def pick(state: State, seat: str, rng: Rng) -> Action | None:
    """``choose(state, seat, <the seat's list>, rng)`` without the list, in the Keeper's movement
    step: the same pick, with the same draws from ``rng``, read by position from the list's parts
    (``actions.keeper_movement_list``), building only the actions looked at instead of the ≈ 230
    move dicts the list is, at every Keeper move.  None in any other step: there the driver builds
    the list and calls ``choose``."""
    if seat != KEEPER:
        return None
    parts = actions.keeper_movement_list(state)
    if parts is None:
        return None
    return choose(state, seat, _KeeperList(*parts), rng)


def choose(state: State, seat: str, legal: Sequence[Action], rng: Rng) -> Action:
    """The driver's pick among ``legal`` (see the module docstring)."""
    if state["options"].get("allow_surrender", True):
        if state["surrender"] is not None and _gives_up(state, seat):
            return {"type": "surrender_vote", "accept": True}
        # ``actions.legal`` lists them at the head (one listed after a hidden monster's cells is
        # only ever skipped by ``_uniform``).  A loop, not ``next()`` of a generator: every pick.
        give_up = None
        for a in legal[:3]:
            if a["type"] in GIVE_UP_TYPES:
                give_up = a
                break
        if give_up is not None and (_gives_up(state, seat) or rng.below(SURRENDER_CHANCE) == 0):
            return give_up
    if clock.playing(state) and rng.below(TIME_UP_CHANCE) == 0:
        time_up = next((a for a in legal if a["type"] == "time_up"), None)
        if time_up is not None:
            return time_up
    if (
        seat == KEEPER
        and state["phase"] == MONSTER_MOVES
        and state["prompt"] is None
        and state["surrender"] is None
    ):
        return _keeper_move_pick(state, legal, rng)
    num, den = NUDGE[KEEPER if seat == KEEPER else "heroes"]
    if rng.below(den) < num:
        purposeful = _purposeful(state, seat, legal)
        if purposeful:
            return _spread(purposeful, rng)
    return _uniform(legal, rng)


def _spread(actions: list[Action], rng: Rng) -> Action:
    """A pick that gives each kind of purposeful action the same chance, then each of its
    choices: an ability or card listed once per cell (fireball, teleport) would otherwise crowd
    out one listed once (blizzard, healing aura), and never occur in simulations."""
    kinds: dict[tuple[str, str], list[Action]] = {}
    for a in actions:
        what = a.get("ability") or a.get("with") or a.get("card") or ""
        kinds.setdefault((a["type"], what if isinstance(what, str) else ""), []).append(a)
    group = list(kinds.values())[rng.below(len(kinds))]
    return group[rng.below(len(group))]


def _uniform(legal: Sequence[Action], rng: Rng) -> Action:
    """A uniform pick among the listed actions other than ``NOT_DRAWN`` (a step always lists a
    way on, ``done`` at least; those are picked only when nothing else is listed)."""
    for _ in range(8):
        a = legal[rng.below(len(legal))]
        if a["type"] not in NOT_DRAWN:
            return a
    rest = [a for a in legal if a["type"] not in NOT_DRAWN]
    return rest[rng.below(len(rest))] if rest else legal[0]


def _gives_up(s: State, seat: str) -> bool:
    """Past ``GIVE_UP_TURN`` the side that is behind surrenders: the heroes while the Gate is
    closed, the Keeper once it is open."""
    return s["k"] >= GIVE_UP_TURN and bool(s["gate"]) == (seat == KEEPER)


def _purposeful(s: State, seat: str, legal: Sequence[Action]) -> list[Action]:
    phase = s["phase"]
    if s["prompt"] is not None or s["surrender"] is not None:
        return []
    if seat == KEEPER:
        if phase == BLOOD_STEP:
            # Cards are played with purpose too, so every card's rule occurs in simulations.
            return [a for a in legal if a["type"] in ("level_zorkal", "play_ritual")]
        return []
    if phase == BLESSINGS:
        return [a for a in legal if a["type"] == "play_blessing"]
    if phase == HERO_MOVES:
        return _hero_moves(s, legal) or [a for a in legal if a["type"] in ("ability", "attack")]
    if phase == HERO_ATTACKS:
        on_zorkal = [a for a in legal if a["type"] == "attack" and a.get("target") == ZORKAL]
        # Else every attack, spell and ability: heroes fight, so that each of them occurs.
        return on_zorkal or [a for a in legal if a["type"] in ("ability", "attack")]
    return []


# ---------------------------------------------------------------------------------------
# Keeper


def _keeper_move_pick(s: State, legal: Sequence[Action], rng: Rng) -> Action:
    """While some creature can move to attack (or into the chamber), half of the picks are
    such moves; then the step mostly ends, with now and then a creature walking closer."""
    primary, approach = _keeper_moves(s, legal)
    if primary:
        if rng.below(2) == 0:
            return primary[rng.below(len(primary))]
    else:
        r = rng.below(4)
        if r < 2:
            return {"type": "done"}
        if r == 2 and approach:
            return approach[rng.below(len(approach))]
    return _uniform(legal, rng)


def _keeper_moves(s: State, legal: Sequence[Action]) -> tuple[Sequence[Action], Sequence[Action]]:
    """(purposeful moves, moves that only bring a creature closer to a hero).

    Purposeful: a path ending where the creature can attack a hero; else one into the Ritual
    Chamber, as deep as it goes (the chamber fills from its far end, so its doors stay open
    until the last cells: content 5.9's full chamber); a creature inside only moves deeper.

    Handed the list ``actions.legal`` just built for this state, the moves are sorted block by
    block (``steps.creature_blocks``), each creature's block remembered while its walk and the
    heroes' cells are the same, so a step's picks do not look at every move again; any other
    list is read move by move (``_keeper_moves_listed``), with the same answer."""
    if isinstance(legal, _KeeperList):
        blocks = legal.blocks
    else:
        w = reader(s)
        listed = w.memo.get("keeper_list")
        found = w.keeper_moves
        if listed is None or listed[0] is not legal or listed[1] != len(legal) or found is None:
            return _keeper_moves_listed(s, list(legal))
        blocks = found
    targets = tuple(sorted([h["cell"] for h in s["heroes"].values() if h["cell"] is not None]))
    gate = bool(s["gate"])
    # The heroes' cells and the gate, as one object while they hold (the whole Keeper movement
    # step): each block's test is then two identity tests.
    context = _CONTEXT[0]
    if context.targets != targets or context.gate != gate:
        context = _CONTEXT[0] = _Context(targets, gate)
    monsters = s["monsters"]
    engage, chamber, approach = _Moves(), _Moves(), _Moves()
    for figure, _bat, walk in blocks:
        if walk is None or not walk.dests:
            continue
        # A walk is one creature's (``steps._creature_walk``), so it also fixes the reach.
        known = _BLOCKS.get(figure)
        if known is None or known[0] is not walk or known[1] is not context:
            if len(_BLOCKS) > 4000:
                _BLOCKS.clear()
            kind = "melee" if figure == ZORKAL else REACH[monsters[figure]["type"]]
            known = _BLOCKS[figure] = (
                walk,
                context,
                _sort_block(walk.cell, walk.cells, walk.dests, kind, targets, gate),
            )
        ours, deeper, closer = known[2]
        # ``_Moves.add``, inlined: once per creature and pick.
        if ours:
            engage.runs.append((figure, ours))
            engage.size += len(ours)
        if deeper:
            chamber.runs.append((figure, deeper))
            chamber.size += len(deeper)
        if closer:
            approach.runs.append((figure, closer))
            approach.size += len(closer)
    return engage or chamber, approach


# Per monster type: its reach ("melee", "pike", "shot").
REACH: Final[dict[str, str]] = {t: str(m["reach"]) for t, m in MONSTERS.items()}


class _ByPosition(Sequence[Action]):
    """A list of actions read by position, each built when it is read (``_at``), a new dict
    each time as the list's would be: ``size`` actions, indexed and sliced as a list is."""

    size = 0

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self._at(k) for k in range(*i.indices(self.size))]
        if i < 0:
            i += self.size
        if i < 0 or i >= self.size:
            raise IndexError(i)
        return self._at(i)

    @abstractmethod
    def _at(self, i: int) -> Action:
        """The action at ``i``, 0 <= i < size."""


class _Moves(_ByPosition):
    """Creature moves kept as (figure, cells) runs, in list order: a pick draws one by position,
    and only the move drawn is built."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, Cells]] = []
        self.size = 0

    def add(self, figure: str, cells: Cells) -> None:
        self.runs.append((figure, cells))
        self.size += len(cells)

    def _at(self, i: int) -> Action:
        for figure, cells in self.runs:
            if i < len(cells):
                x, y = cells[i]
                return {"type": "move", "figure": figure, "to": [x, y]}
            i -= len(cells)
        raise IndexError(i)


class _KeeperList(_ByPosition):
    """The Keeper's movement list (``actions.legal``) read by position from its parts: the head,
    each creature's block (its bat form, then its moves) and the tail."""

    def __init__(self, head: list[Action], blocks: list[Block], tail: list[Action]) -> None:
        self.head = head
        self.blocks = blocks
        self.tail = tail
        self.size = len(head) + len(tail)
        for _figure, bat, walk in blocks:
            self.size += bat + (len(walk.dests) if walk is not None else 0)

    def _at(self, i: int) -> Action:
        if i < len(self.head):
            return self.head[i]
        i -= len(self.head)
        for figure, bat, walk in self.blocks:
            if bat:
                if i == 0:
                    return {"type": "bat_form", "figure": figure}
                i -= 1
            if walk is not None:
                if i < len(walk.dests):
                    x, y = walk.dests[i]
                    return {"type": "move", "figure": figure, "to": [x, y]}
                i -= len(walk.dests)
        return self.tail[i]


Cells = tuple[tuple[int, int], ...]


class _Context:
    """The heroes' cells and the gate.  A class, not a tuple: the blocks test it by identity, and
    compiled by mypyc a ``tuple[...]`` is a C struct boxed anew wherever it is stored, so the
    test would never hold (every block sorted again at every pick)."""

    __slots__ = ("targets", "gate")

    def __init__(self, targets: tuple[int, ...], gate: bool) -> None:
        self.targets = targets
        self.gate = gate


# Per creature: the walk (by identity) and the context (likewise) its block was sorted for.
_BLOCKS: Final[dict[str, tuple[object, _Context, tuple[Cells, Cells, Cells]]]] = {}
# The last context (``_keeper_moves``), one object while the heroes' cells and the gate hold.
_CONTEXT: Final[list[_Context]] = [_Context((), False)]


def _sort_block(
    at: int, cells: tuple[int, ...], dests: Cells, kind: str, targets: tuple[int, ...], gate: bool
) -> tuple[Cells, Cells, Cells]:
    """One creature's moves (to ``dests``, in list order, which are ``cells``) sorted as
    ``_keeper_moves_listed`` does: (to attack, into the chamber, closer to a hero)."""
    melee, pike, shot = engagement(targets)
    wanted = pike if kind == "pike" else shot if kind == "shot" else melee
    if at in wanted:
        return (), (), ()  # placed to attack: no purpose in moving on
    inside = at in CHAMBER
    depth = CHAMBER_DEPTH[at] if inside else -1
    dist = creature_distances(targets, kind, gate)
    # Walked out only as far as ``at``: every cell nearer than it is known then, and only those
    # count as closer (below); a creature in the chamber only goes deeper.
    here = None if inside else dist.reach(at)
    found = dist.found
    # Cells and moves as the objects the walk's tuples hold (``board.Cell``): compiled, a cell
    # typed ``int`` is boxed anew for each set test, and an (x, y) typed ``tuple[int, int]`` is
    # unpacked when read and packed again into a new tuple when appended.
    at_cells: tuple[Cell, ...] = cells
    moves: tuple[Any, ...] = dests
    engage: list[Any] = []
    deeper: list[Any] = []
    closer: list[Any] = []
    best: int | None = None
    for k in range(len(at_cells)):
        cell = at_cells[k]
        if cell in wanted:
            engage.append(moves[k])
        elif cell in CHAMBER:
            d: int = CHAMBER_DEPTH[cell]
            if d > depth:
                deeper, depth = [moves[k]], d
            elif d == depth and deeper:
                deeper.append(moves[k])
        elif inside:
            continue
        elif here is not None:
            j: int = cell
            near = found[j]
            if near != UNKNOWN and near < here and (best is None or near <= best):
                if best is None or near < best:
                    closer, best = [], near
                closer.append(moves[k])
    return tuple(engage), tuple(deeper), tuple(closer)


def _keeper_moves_listed(s: State, legal: list[Action]) -> tuple[list[Action], list[Action]]:
    """``_keeper_moves`` for any list: each creature's moves (the list holds them together)
    sorted by ``_sort_block``, as the blocks are."""
    targets = tuple(sorted(h["cell"] for h in s["heroes"].values() if h["cell"] is not None))
    gate = bool(s["gate"])
    monsters = s["monsters"]
    engage: list[Action] = []
    chamber: list[Action] = []
    approach: list[Action] = []
    runs: list[tuple[str, dict[tuple[int, int], Action]]] = []
    for a in legal:
        if a["type"] != "move":
            continue
        if not runs or runs[-1][0] != a["figure"]:
            runs.append((a["figure"], {}))
        runs[-1][1][(a["to"][0], a["to"][1])] = a
    for figure, moves in runs:
        if figure == ZORKAL:
            at, kind = s["zorkal"]["cell"], "melee"
        else:
            m = monsters[figure]
            at, kind = m["cell"], MONSTERS[m["type"]]["reach"]
        dests = tuple(moves)
        cells = tuple([y * W + x for x, y in dests])
        ours, deeper, closer = _sort_block(at, cells, dests, kind, targets, gate)
        engage += (moves[c] for c in ours)
        chamber += (moves[c] for c in deeper)
        approach += (moves[c] for c in closer)
    return engage or chamber, approach


# ---------------------------------------------------------------------------------------
# Heroes


def _hero_moves(s: State, legal: Sequence[Action]) -> list[Action]:
    # The list read once: each hero's moves (in list order), the pick-ups and the drops.
    by_hero: dict[str, list[Action]] = {}
    picks: list[Action] = []
    drops: list[Action] = []
    for a in legal:
        kind = a["type"]
        if kind == "move":
            moves = by_hero.get(a["hero"])
            if moves is None:
                by_hero[a["hero"]] = [a]
            else:
                moves.append(a)
        elif kind == "pick_up":
            picks.append(a)
        elif kind == "drop":
            drops.append(a)
    heroes = s["heroes"]
    # Picking up is purposeful for a hero that can still carry it somewhere, and never in the
    # chamber (where artifacts are delivered): otherwise the pick-ups undo the drops.
    out = [a for a in picks if a["hero"] in by_hero and heroes[a["hero"]]["cell"] not in CHAMBER]
    out += [a for a in drops if heroes[a["hero"]]["cell"] in CHAMBER]
    if out:
        return out
    carriers = {a["carrier"] for a in s["artifacts"].values() if a["carrier"] is not None}
    loose = [a["cell"] for a in s["artifacts"].values() if a["cell"] is not None and a["cell"] not in CHAMBER]
    gate = bool(s["gate"])
    for hid, moves in by_hero.items():
        if hid in carriers and heroes[hid]["cell"] not in CHAMBER:
            goal: Iterable[int] = CHAMBER
        elif gate and s["zorkal"]["life"] > 0:
            goal = BOARD.footprint[s["zorkal"]["cell"]]
        elif loose:
            goal = loose
        else:
            continue
        out += _closest(moves, hero_distances(frozenset(goal), gate))
    return out


def _closest(moves: list[Action], dist: list[int]) -> list[Action]:
    best: list[Action] = []
    best_d = None
    for a in moves:
        x, y = a["to"]
        d = dist[y * W + x]
        if d == UNKNOWN:
            continue
        if best_d is None or d < best_d:
            best, best_d = [a], d
        elif d == best_d:
            best.append(a)
    return best
