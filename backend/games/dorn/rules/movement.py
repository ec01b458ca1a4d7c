"""Walking: where heroes may go in H2 and where creatures may step in K3 (content 1.6, 5.4).

Heroes submit *moves*: a path to a cell where they may stop.  A path may pass through
other heroes only on trail, Herbalist and Argos cells (RB; ruling 15), and it ends at
the first treasure token or teleport pad it enters, so everything a cell triggers
(treasure cards now, Thorny Portals later) happens between two commands.  Any route can
still be walked as a series of such moves (ruling 45: movement is interruptible).

Creatures also submit moves to any cell they can reach within their allowance left (they
never pass through figures, ruling 16, so every cell they may enter is a cell they may stop on).
"""

from __future__ import annotations

from typing import Final

from ..board import BOARD, PASS_THROUGH_TERRAIN, Cell
from ..state import ZORKAL, HeroState, State, Work, is_blocked
from . import tactics, triggers
from .effects import BLESSING_CLASS

ARGOS: Final = frozenset(BOARD.zones["argos"])


ICY_PRISON: Final = "R03"  # the lasting effect rules/rituals.py records for the named heroes


def imprisoned(s: State, hid: str) -> bool:
    """R03 Icy Prison (content 4.1, 5.4): the named heroes take no movement steps in the next hero
    turn (walking, bloody run, tactical advance, push through), but for what a Blessing allows
    (content 4.5; ruling 39).  Teleports and being moved by others are not steps."""
    effect = s["effects"].get(ICY_PRISON)
    return effect is not None and hid in effect["heroes"]


def first_class(s: State, hid: str) -> int:
    """The lowest Move class the hero may spend: a ritual-class prohibition (Icy Prison) cancels
    its own Move and every bonus of class <= 2, leaving the Blessing-class allowance (4.5)."""
    return BLESSING_CLASS if imprisoned(s, hid) else 0


def steps_left(s: State, hid: str) -> int:
    """The steps the hero may still take this step (``allowance`` less what a prohibition cancels)."""
    return _total(s["heroes"][hid]["mv"], first_class(s, hid))


def allowance(hero: HeroState) -> int:
    return _total(hero["mv"], 0)


def _total(mv: list[int], start: int) -> int:
    """``sum(mv[start:])`` in a loop: compiled, ``sum`` is a builtin looked up by name (and the
    slice a new list), asked at every hero's walk."""
    total = 0
    for i in range(start, len(mv)):
        total += mv[i]
    return total


def spend(hero: HeroState, steps: int, start: int = 0) -> None:
    """Pay steps from the lowest class first: base Move and class-1 bonuses, then ritual-class,
    then Blessing-class (content 4.5), so a later prohibition leaves the right remainder.
    ``start`` (``first_class``): the classes below it are cancelled and never pay."""
    mv = hero["mv"]
    for i in range(start, len(mv)):
        take = min(mv[i], steps)
        mv[i] -= take
        steps -= take
    assert steps == 0


def hero_may_stop(w: Work, hid: str, cell: int) -> bool:
    """Legal hero cell (content 1.6): enterable terrain, no obstacle, no creature, and no other
    hero unless it is Argos; on a pad, both cells must be free."""
    if not BOARD.hero_terrain(cell, w.s["gate"]):
        return False
    occ = w.occupancy()
    obstacles = w.obstacle_cells()
    for c in BOARD.cells_of(cell):
        if c in obstacles:
            return False
        fid = occ.get(c)
        if fid is None or fid == hid:
            continue
        if w.is_creature(fid) or c not in ARGOS:
            return False
    return True


def hero_destinations(w: Work, hid: str, budget: int | None = None) -> dict[int, int]:
    """Cells the hero may move to in one path, with the steps each costs."""
    hero = w.s["heroes"][hid]
    if hero["cell"] is None:
        return {}
    limit = steps_left(w.s, hid) if budget is None else budget
    if limit <= 0:
        return {}
    gate_open = w.s["gate"]
    occ = w.occupancy()
    obstacles = w.obstacle_cells()
    # A figure or an obstacle, one flag per cell: most cells have neither, and are passed after
    # one read by index (``Work.blocked_flags``).
    flags = w.blocked_flags()
    tokens = set(w.s["tokens"])
    # Tactics and Flight: a path stops where the hero is engaged, never passes it (content 6.4).
    engaged = tactics.hero_engaged_cells(w) if tactics.playing(w.s) else frozenset()
    starts = BOARD.cells_of(hero["cell"])
    dist: dict[Cell, int] = {c: 0 for c in starts}
    result: dict[int, int] = {}
    # Cells as the tables' objects (``board.Cell``): tested against dicts and sets, not unboxed.
    # The queue is a list read from ``head`` on: compiled, a deque's ``append`` and ``popleft``
    # are method calls looked up by name.
    queue: list[Cell] = list(starts)
    head = 0
    # Vargen L2 push through (content 2.3 ``var.push``; ruling P5): through any figure, never
    # stopping there; an occupied pad cell is crossed as a plain cell (no link).
    push = hid == "vargen" and triggers.has(w, hid, "var.push")
    plain: set[int] = set()
    footprint: tuple[tuple[Cell, ...], ...] = BOARD.footprint
    neighbours: tuple[tuple[Cell, ...], ...] = BOARD.neighbours
    partners: dict[Cell, Cell] = BOARD.partner
    terrain = BOARD.terrain
    enterable = HERO_OPEN if gate_open else HERO_CLOSED
    monsters = w.s["monsters"]
    while head < len(queue):
        cell = queue[head]
        head += 1
        at: int = cell
        d = dist[cell]
        if d > 0:
            # ``hero_may_stop``, inlined (this loop runs for every cell of every hero's walk);
            # the BFS only enters hero terrain.
            for c in footprint[at]:
                j: int = c
                if not is_blocked(flags, j):
                    continue
                if c in obstacles:
                    break
                fid = occ.get(c)
                if fid is not None and fid != hid and (fid == ZORKAL or fid in monsters or c not in ARGOS):
                    break
            else:
                result[cell] = d
            # A path ends on a token or a pad; it continues only through cells it may cross.
            if cell in tokens or (cell in partners and cell not in plain) or cell in engaged:
                continue
        if d >= limit:
            continue
        for n in neighbours[at]:
            i: int = n
            if not enterable[i] or n in dist:
                continue
            if is_blocked(flags, i):
                if n in obstacles:
                    continue
                fid = occ.get(n)
                # Only heroes pass heroes, and only on trail, Herbalist and Argos (ruling 15).
                if (
                    fid is not None
                    and fid != hid
                    and (fid == ZORKAL or fid in monsters or terrain[i] not in PASS_THROUGH_TERRAIN)
                    and (not push or n in tokens)
                ):
                    continue
            partner = partners.get(n)
            if partner is not None:
                pf = occ.get(partner)
                if pf is not None and pf != hid:
                    if not push:
                        continue
                    plain.add(n)
            dist[n] = d + 1
            queue.append(n)
    for c in starts:
        result.pop(c, None)
    return result


def creature_may_enter(w: Work, cid: str, cell: int) -> bool:
    """Legal monster cell (content 1.6): floor, zone or chamber (gate and throne once open), no
    figure and no obstacle; on a pad both cells must be free.  Never trail, Herbalist, Argos."""
    if not BOARD.creature_terrain(cell, w.s["gate"]):
        return False
    occ = w.occupancy()
    obstacles = w.obstacle_cells()
    for c in BOARD.cells_of(cell):
        if c in obstacles:
            return False
        fid = occ.get(c)
        if fid is not None and fid != cid:
            return False
    return True


def creature_destinations(w: Work, cid: str, cell: int, budget: int) -> dict[int, int]:
    """Cells the creature may move to in one path of at most ``budget`` steps, with the steps
    each costs (content 5.4: movement is submitted as paths; ruling 45).  Creatures never pass
    through figures (ruling 16), so every cell a path crosses is also a cell it may stop on, and
    any walk is a series of such moves.  Entering a pad puts the creature on both pad cells and
    the next step may leave from either (content 1.7.4); the far pad cell is not offered as a
    destination of its own, as standing on it is the same position.

    The answer depends only on the start, the budget, the gate and which of the cells the walk
    looked at hold a figure or an obstacle (``creature_walk``), so a reader keeps each creature's
    last walk while those hold (``steps._creature_walk``): the Keeper's list is rebuilt after
    every move, and a move rarely touches most creatures' walks.  The returned dict may be such a
    kept walk's: read it, never change it."""
    if budget <= 0:
        return {}
    return creature_walk(w, cid, cell, budget)[2]


def creature_walk(w: Work, cid: str, cell: int, budget: int) -> tuple[int, int, dict[int, int]]:
    """``creature_destinations`` with what it depends on: (bits of the cells the walk looked at,
    their blocked bits then, destinations).  The walk is valid while ``blocked & looked`` is
    unchanged, whoever the creature is.  Not memoised here: a process-wide memo on (start,
    budget, gate) answered 5 % of the walks the Keeper's lists make, and testing its entries
    cost more than the walks it saved (issue 15.3)."""
    gate = bool(w.s["gate"])
    blocked = w.blocked_bits()
    engaged: frozenset[int] | None = None
    if tactics.playing(w.s):
        # Tactics and Flight (content 6.4): the walk also depends on where the heroes stand, so
        # those cells join the memo's snapshot (above the board's bits), flagged by TACTICS_BIT.
        engaged = tactics.creature_engaged_cells(w)
        blocked |= TACTICS_BIT | _hero_bits(w) << HERO_SHIFT
    dests, looked = _walk(w, cid, cell, budget, gate, engaged)
    return (looked, blocked & looked, dests)


def _walk(
    w: Work, cid: str, cell: int, budget: int, gate: bool, engaged: frozenset[int] | None
) -> tuple[dict[int, int], int]:
    """Breadth-first walk; also returns the bits of the cells whose contents it looked at.  With
    ``engaged`` (Tactics and Flight) a walk stops on those cells, and it looked at the heroes'
    cells next to every cell it entered; TACTICS_BIT tells the two kinds of walk apart.

    Only the creature itself stands on the cells it starts from, and those are seen first: any
    figure on a cell the walk looks at is another one, and blocks it."""
    if engaged is None:
        return _plain_walk(w, cell, budget, gate)
    own = BOARD.footprint[cell]
    occ = w.occupancy()
    obstacles = w.obstacle_cells()
    ways = CREATURE_WAYS_OPEN if gate else CREATURE_WAYS_CLOSED
    partner = BOARD.partner
    bit = BIT
    seen = set(own)
    # The board's bits and the heroes' (Tactics and Flight) apart: small integers to OR into.
    looked = around = 0
    out: dict[int, int] = {}
    frontier = list(own)
    d = 0
    while frontier and d < budget:
        d += 1
        nxt: list[int] = []
        for c in frontier:
            for n in ways[c]:
                if n in seen:
                    continue
                looked |= bit[n]
                if n in obstacles or n in occ:
                    continue
                p = partner.get(n)
                if p is not None:
                    looked |= bit[p]
                    if p in obstacles or p in occ:
                        continue
                goes_on = True
                if engaged is not None:
                    around |= AROUND_BITS[n]
                    goes_on = n not in engaged
                    if p is not None:
                        around |= AROUND_BITS[p]
                        goes_on = goes_on and p not in engaged
                if p is not None:
                    seen.add(p)
                    if goes_on:
                        nxt.append(p)
                seen.add(n)
                out[n] = d
                if goes_on:
                    nxt.append(n)
        frontier = nxt
    return out, TACTICS_BIT | around << HERO_SHIFT | looked


def _plain_walk(w: Work, cell: int, budget: int, gate: bool) -> tuple[dict[int, int], int]:
    """``_walk`` without Tactics and Flight (most tables): no engaged cells to stop on, so the
    inner loop, run for every neighbour of every cell entered, tests only what blocks it.

    The same cells in the same order as ``_walk`` (the order decides which cell of a pad is the
    destination when both are reached in one step), for fewer operations: ``out`` is also the
    set of cells seen (the creature's own cells and the far cells of pads are taken out at the
    end), the blocked cells are flags read by index, the looked-at bits are ORed once per cell
    gone on from (``CREATURE_NEAR``: its neighbours and their pad partners, a few more than the
    walk reads, so a kept walk is redone a little more often, never wrongly kept), and the pad
    test is made only next to a pad."""
    own: tuple[Cell, ...] = BOARD.footprint[cell]
    # A figure or an obstacle, one flag per cell: read by index (``Work.blocked_flags``).
    flags = w.blocked_flags()
    # Cells as the objects the tables hold (``Cell``): compiled, an ``int`` read from a tuple is
    # unboxed, and boxed anew (a new object above 256) for every dict and set test it meets.
    ways: tuple[tuple[Cell, ...], ...]
    if gate:
        ways, near, by_pad = CREATURE_WAYS_OPEN, CREATURE_NEAR_OPEN, NEXT_TO_PAD_OPEN
    else:
        ways, near, by_pad = CREATURE_WAYS_CLOSED, CREATURE_NEAR_CLOSED, NEXT_TO_PAD_CLOSED
    partner: dict[Cell, Cell] = BOARD.partner
    out: dict[Cell, int] = {c: 0 for c in own}
    hidden: list[Cell] = list(own)  # in ``out`` only as seen
    looked = 0
    frontier: list[Cell] = list(own)
    d = 0
    while frontier and d < budget:
        d += 1
        nxt: list[Cell] = []
        for c in frontier:
            i: int = c
            looked |= near[i]
            if by_pad[i]:
                for n in ways[i]:
                    k: int = n  # unboxed once, to index the flags
                    if is_blocked(flags, k) or n in out:
                        continue
                    if n in partner:
                        p = partner[n]
                        j: int = p
                        if is_blocked(flags, j):
                            continue
                        out[p] = d
                        hidden.append(p)
                        nxt.append(p)
                    out[n] = d
                    nxt.append(n)
            else:
                for n in ways[i]:
                    k = n
                    if is_blocked(flags, k) or n in out:
                        continue
                    out[n] = d
                    nxt.append(n)
        frontier = nxt
    for c in hidden:
        del out[c]
    return out, TACTICS_BIT | looked


def _hero_bits(w: Work) -> int:
    bits = 0
    heroes = w.s["heroes"]
    for hid in w.on_board_heroes():
        cell = heroes[hid]["cell"]
        assert cell is not None
        for c in BOARD.footprint[cell]:
            bits |= 1 << c
    return bits


def creature_can_move(w: Work, cid: str, cell: int) -> bool:
    """Whether a first step exists (then a one-step path does): a neighbour the walk of one step
    would enter, looked at directly (``settle`` asks it of each creature after every Keeper move
    in his movement step, where most creatures can move and the first one answers)."""
    occ = w.occupancy()
    obstacles = w.obstacle_cells()
    ways = CREATURE_WAYS_OPEN if w.s["gate"] else CREATURE_WAYS_CLOSED
    partner = BOARD.partner
    own = BOARD.footprint[cell]
    for c in own:
        for n in ways[c]:
            if n in own or n in obstacles or n in occ:
                continue  # no figure but the creature itself stands on its own cells (``_walk``)
            p = partner.get(n)
            if p is None or not (p in obstacles or p in occ):
                return True
    return False


# Per cell: may a creature stand there (gate closed / gate open), content 1.6.
CREATURE_CLOSED: Final = tuple(BOARD.creature_terrain(i, False) for i in range(BOARD.width * BOARD.height))
CREATURE_OPEN: Final = tuple(BOARD.creature_terrain(i, True) for i in range(BOARD.width * BOARD.height))
# Likewise for heroes (content 1.6: anything but wall, gate and throne once open).
HERO_CLOSED: Final = tuple(BOARD.hero_terrain(i, False) for i in range(BOARD.width * BOARD.height))
HERO_OPEN: Final = tuple(BOARD.hero_terrain(i, True) for i in range(BOARD.width * BOARD.height))

# Per cell: its neighbours a creature may stand on (gate closed / gate open), in
# ``BOARD.neighbours`` order, and its bit in a walk's ``looked``.
CREATURE_WAYS_CLOSED: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(n for n in ns if CREATURE_CLOSED[n]) for ns in BOARD.neighbours
)
CREATURE_WAYS_OPEN: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(n for n in ns if CREATURE_OPEN[n]) for ns in BOARD.neighbours
)
BIT: Final = tuple(1 << i for i in range(BOARD.width * BOARD.height))


def _near_bits(ways: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Per cell: the bits of ``ways`` there and of their pad partners (``_plain_walk``)."""
    return tuple(sum({1 << c for n in ns for c in BOARD.footprint[n]}) for ns in ways)


CREATURE_NEAR_CLOSED: Final = _near_bits(CREATURE_WAYS_CLOSED)
CREATURE_NEAR_OPEN: Final = _near_bits(CREATURE_WAYS_OPEN)
# Per cell: whether a teleport pad is among ``ways`` there (``_plain_walk``).
NEXT_TO_PAD_CLOSED: Final = tuple(any(n in BOARD.partner for n in ns) for ns in CREATURE_WAYS_CLOSED)
NEXT_TO_PAD_OPEN: Final = tuple(any(n in BOARD.partner for n in ns) for ns in CREATURE_WAYS_OPEN)

# Tactics and Flight walks (``creature_walk``): the heroes' cells sit above the board's bits in a
# walk's snapshot, and one more bit says the walk was made under that variant.
CELLS: Final = BOARD.width * BOARD.height
HERO_SHIFT: Final = CELLS
TACTICS_BIT: Final = 1 << (2 * CELLS)
# Per cell: the bits of its orthogonal neighbours (where an enemy would engage a figure there).
AROUND_BITS: Final = tuple(sum(1 << n for n in BOARD.neighbours[i]) for i in range(CELLS))
