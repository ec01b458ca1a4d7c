"""Movement (rulebook "Movement of Hero"; R3, R4, R5, R61, R62; Fang §9).

A movement position is (node, unused dice).  A step enters an adjacent enterable
node paying one unused die whose face meets that node's threshold (a 1 never
pays).  A hero may pass through other heroes but may end only where sharing is
allowed (City, unrazed village) or where nobody else stands; a hero who took
zero steps stays where he is (R61).  ``explore`` is the BFS over positions the
rules ask for: it tells which steps keep a legal ending reachable and which
destinations can be reached (``move``), paid canonically (R65: fewest steps, then
lowest dice).
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypedDict

from ..content import LANDS, MOVE_NEIGHBOURS, NODE_TERRAIN, PLACE_NAMES, TERRAINS
from ..state import ADVENTURE, State, StepUndo
from .flow import Ctx, PromptKind, ask, damage, op, prompt_kind, push
from .heroes import attr, gain_res, has_pool, heal, name, node_class

Pos = tuple[str, tuple[int, ...]]


def threshold(s: State, hid: str, node: str) -> int:
    """Lowest die face that pays for entering ``node`` (§1.6, §9.2); 1s never pay."""
    land = s.lands.get(node)
    if land:
        t = LANDS[land]
        need = t["threshold"]
        alt = t.get("search_threshold")
        if alt and attr(s.heroes[hid], "search") >= alt["search"]:
            need = alt["threshold"]  # Sea of Trees
        return max(2, need)
    if node == "belk" and s.razed:
        return TERRAINS["road"]["threshold"]
    return max(2, TERRAINS[NODE_TERRAIN[node]]["threshold"])


def can_share(s: State, node: str) -> bool:
    """R4/R42: only the City and unrazed villages may hold several heroes."""
    if node in s.lands:
        return False
    if node == "belk" and s.razed:
        return False
    return bool(TERRAINS[NODE_TERRAIN[node]]["share"])


def occupied_by_others(s: State, hid: str) -> frozenset[str]:
    return frozenset(h["pos"] for k, h in s.heroes.items() if k != hid and not h["dead"])


_THRESHOLDS: dict[tuple[Any, ...], dict[str, int]] = {}


def thresholds(s: State, hid: str) -> dict[str, int]:
    """Every node's threshold for this hero now (memoised: it depends on few things)."""
    key = _board_key(s, hid)
    table = _THRESHOLDS.get(key)
    if table is None:
        if len(_THRESHOLDS) >= 1024:  # a long-lived server sees many boards: keep the recent ones
            _THRESHOLDS.clear()
        table = _THRESHOLDS[key] = {n: threshold(s, hid, n) for n in MOVE_NEIGHBOURS}
    return table


def _board_key(s: State, hid: str) -> tuple[Any, ...]:
    """What the thresholds and the sharing rules of every node depend on: the lands, Belk's
    razing, and which lands this hero's Search makes easier (Sea of Trees, its data's
    ``search_threshold``)."""
    search = attr(s.heroes[hid], "search")
    eased = tuple(
        sorted(
            {
                t
                for t in s.lands.values()
                if (alt := LANDS[t].get("search_threshold")) and search >= alt["search"]
            }
        )
    )
    return (tuple(sorted(s.lands.items())), s.razed, eased)


def _dominated(kept: list[tuple[int, ...]], dice: tuple[int, ...]) -> bool:
    """True when an earlier position on the same node keeps at least as good dice
    (as many or more, each at least as high): it can do everything this one can."""
    for k in kept:
        if len(k) >= len(dice) and all(a >= b for a, b in zip(k[len(k) - len(dice) :], dice, strict=True)):
            return True
    return False


class Basics(TypedDict):
    """What every movement question of one position reads: the other heroes' nodes, the
    thresholds and the Quick Sand nodes; ``explore`` adds ``dest``."""

    others: frozenset[str]
    need: dict[str, int]
    sink: frozenset[str]


def basics(s: State, hid: str) -> Basics:
    """The cheap part of ``explore``: enough to check one step, a stop or a take-back."""
    key = ("basics", hid)
    cached: Basics | None = s._cache.get(key)
    if cached is None:
        cached = Basics(
            others=occupied_by_others(s, hid),
            need=thresholds(s, hid),
            sink=frozenset(n for n, t in s.lands.items() if t == "quick_sand"),
        )
        s._cache[key] = cached
    return cached


# A route to an end node: its steps' nodes and dice faces, one after the other
# (node, face, node, face, ...). One flat tuple of strings and ints, which the cyclic collector
# stops tracking at its first pass, where a list of (node, face) pairs was 1 + n objects that
# it tracked for as long as the search was kept: the routes of the live tables' last searches
# were ≈ 15 % of the objects in each young pass at 1,000 actions a second (bench/README.md,
# issue 15 point 2, tenth session).
Route = tuple[str | int, ...]


def route_steps(route: Route) -> list[tuple[str, int]]:
    """A route's steps as (node, die face) pairs, in order."""
    return [(str(route[i]), int(route[i + 1])) for i in range(0, len(route), 2)]


# Searches by what they depend on (position, dice, the others' nodes, the board's lands): the
# server lists a seat's moves, validates the answer against the same state and applies it to
# a copy, and each would search again.  Bounded: only the last few positions come back.
_EXPLORED: dict[tuple[Any, ...], dict[str, Route]] = {}
_EXPLORED_MAX = 256


def explore(s: State, hid: str) -> dict[str, Any]:
    """Reachable end spaces from the current movement position (R3), cached on the state.

    BFS over (node, unused dice) in order of steps, trying the lowest qualifying die
    first, so the first route found to a node is the canonical one (R65: fewest
    steps, lowest dice).  A position whose dice are beaten by an earlier position on
    the same node is not expanded: the earlier one reaches everything it could.
    Returns ``basics`` and ``dest``: node → its ``Route`` (``route_steps``: [(node, die), ...])
    for every legal end node other than the current one (shared: read, never edit).
    """
    key = ("explore", hid)
    if key in s._cache:
        cached: dict[str, Any] = s._cache[key]
        return cached
    mv = s.move
    assert mv is not None
    here = s.heroes[hid]["pos"]
    start = tuple(sorted(mv["dice"]))
    info = basics(s, hid)
    others, need, sink = info["others"], info["need"], info["sink"]
    memo = (here, start, others, _board_key(s, hid))
    dest = _EXPLORED.get(memo)
    if dest is None:
        dest = _search(s, here, start, others, need, sink)
        if len(_EXPLORED) >= _EXPLORED_MAX:
            _EXPLORED.clear()
        _EXPLORED[memo] = dest
    result = {**info, "dest": dest}
    s._cache[key] = result
    return result


class _Dice(NamedTuple):
    """The sub-multisets of one movement roll, numbered (0 is the whole roll): from each, the
    steps it can pay (each distinct face, lowest first, with what is left), and which ones it
    dominates (``_dominated``), as a bit mask: the BFS then checks a position in one operation."""

    steps: list[list[tuple[int, int]]]
    dominates: list[int]


_DICE: dict[tuple[int, ...], _Dice] = {}


def _dice_table(start: tuple[int, ...]) -> _Dice:
    table = _DICE.get(start)
    if table is not None:
        return table
    ids: dict[tuple[int, ...], int] = {start: 0}
    subsets = [start]
    steps: list[list[tuple[int, int]]] = []
    for dice in subsets:  # grows while it is walked: every sub-multiset, by fewer dice
        row: list[tuple[int, int]] = []
        last = -1
        for i, f in enumerate(dice):
            if f == last:
                continue
            last = f
            rest = dice[:i] + dice[i + 1 :]
            if rest not in ids:
                ids[rest] = len(subsets)
                subsets.append(rest)
            row.append((f, ids[rest]))
        steps.append(row)
    dominates = [sum(1 << j for j, b in enumerate(subsets) if _dominated([a], b)) for a in subsets]
    if len(_DICE) >= 1024:
        _DICE.clear()
    table = _DICE[start] = _Dice(steps, dominates)
    return table


def _search(
    s: State,
    here: str,
    start: tuple[int, ...],
    others: frozenset[str],
    need: dict[str, int],
    sink: frozenset[str],
) -> dict[str, Route]:
    """The BFS of ``explore``, over (node, number of the dice left in ``_dice_table``)."""
    table = _dice_table(start)
    steps, dominates = table.steps, table.dominates
    parent: dict[tuple[str, int], tuple[tuple[str, int], str, int] | None] = {(here, 0): None}
    covered: dict[str, int] = {here: dominates[0]}  # per node: the dice some kept position beats
    dest: dict[str, Route] = {}
    frontier: list[tuple[str, int]] = [(here, 0)]
    while frontier:
        nxt: list[tuple[str, int]] = []
        for pos in frontier:
            node, dice = pos
            if dice and node in sink:
                continue  # §9.2: entering Quick Sand ends the movement
            paying = steps[dice]
            for m in MOVE_NEIGHBOURS[node]:
                t = need[m]
                seen = covered.get(m, 0)
                for f, rest in paying:
                    if f < t or seen >> rest & 1:
                        continue
                    seen |= dominates[rest]
                    np = (m, rest)
                    parent[np] = (pos, m, f)
                    nxt.append(np)
                    if m != here and m not in dest and (m not in others or can_share(s, m)):
                        path: list[str | int] = []
                        p = np
                        while (link := parent[p]) is not None:
                            p, mm, ff = link
                            path += (ff, mm)  # backwards: turned round below
                        dest[m] = tuple(reversed(path))
                covered[m] = seen
        frontier = nxt
    return dest


def can_finish(s: State, info: Basics, node: str, dice: tuple[int, ...], here: str) -> bool:
    """From (node, dice) after at least one step, can the mover end legally (R4)?"""
    others, need = info["others"], info["need"]
    if node not in others or can_share(s, node):
        return True
    if node in info["sink"]:
        return False
    seen: set[Pos] = set()
    stack: list[Pos] = [(node, dice)]
    while stack:
        n, d = stack.pop()
        for m in MOVE_NEIGHBOURS[n]:
            for i, f in enumerate(d):
                if f < need[m]:
                    continue
                np = (m, d[:i] + d[i + 1 :])
                if np in seen:
                    continue
                seen.add(np)
                if m not in others or can_share(s, m):
                    return True
                if m not in info["sink"]:
                    stack.append(np)
    return False


def can_end(s: State, hid: str) -> bool:
    mv = s.move
    assert mv is not None
    node = s.heroes[hid]["pos"]
    return mv["steps"] == 0 or node not in occupied_by_others(s, hid) or can_share(s, node)


def legal_moves(s: State, hid: str) -> list[dict[str, Any]]:
    """The ``move`` prompt's answers, in this order: steps, moves, the stop, the take-back."""
    return [a for kind in MOVE_TYPES for a in legal_moves_of(s, hid, kind)]


MOVE_TYPES = ("step", "move", "end_move", "undo_step")


def legal_moves_of(s: State, hid: str, kind: str) -> list[dict[str, Any]]:
    """The listed answers of one type: ``validate`` checks an action against its own type's
    part, so a step or a stop is checked without the search for whole moves."""
    mv = s.move
    assert mv is not None
    if kind == "move":
        return [{"type": "move", "to": d} for d in sorted(explore(s, hid)["dest"])]
    if kind == "end_move":
        return [{"type": "end_move"}] if can_end(s, hid) else []
    if kind == "undo_step":
        return [{"type": "undo_step"}] if can_undo(s) else []
    if kind != "step":
        return []
    info = basics(s, hid)
    node = s.heroes[hid]["pos"]
    dice = tuple(sorted(mv["dice"]))
    out: list[dict[str, Any]] = []
    if node not in info["sink"] or mv["steps"] == 0:
        for m in MOVE_NEIGHBOURS[node]:
            t = info["need"][m]
            for f in sorted(set(dice)):
                if f < t:
                    continue
                rest = list(dice)
                rest.remove(f)
                if can_finish(s, info, m, tuple(rest), node):
                    out.append({"type": "step", "to": m, "die": f})
    return out


@op("move_stage")
def _move_stage(ctx: Ctx) -> None:
    s = ctx.s
    h = s.heroes[s.current]
    if s.tflags.get("dead") or s.phase != ADVENTURE or h["trapped"] or s.move is None:
        return
    if s.lands.get(h["pos"]) == "quick_sand" and s.move["steps"] > 0:
        return
    ask(s, s.current, "move")


def do_step(ctx: Ctx, to: str, die: int) -> None:
    """One movement step with its entering effects (R62, §9.2).

    A step that rolls nothing and can cause no roll keeps what it changed in ``undo``, so that
    ``undo_step`` can take it back while the movement lasts (issue 13.5); entering Quick Sand
    or the Poisonous Swamp (damage, maybe a revival roll) makes every step so far final."""
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    mv = s.move
    assert mv is not None
    before: StepUndo = {"frm": h["pos"], "dice": list(mv["dice"]), "hp": h["hp"], "res": h["res"]}
    dice = list(mv["dice"])
    dice.remove(die)
    s.move = {**mv, "dice": dice, "steps": mv["steps"] + 1, "path": [*mv["path"], to]}
    frm = h["pos"]
    h["pos"] = to
    ctx.emit("step", f"{name(hid)} moves to {place(s, to)} with a {die}.", hero=hid, frm=frm, to=to, die=die)
    if hid == "ninja" and node_class(s, to) == "forest":
        gain_res(ctx, h, 1, "Ninjutsu")
    land = s.lands.get(to)
    final = land in ("quick_sand", "poisonous_swamp")
    s.move["undo"] = [] if final else [*mv.get("undo", []), before]
    if land == "herbal_meadow" and die == 6:
        heal(ctx, h, 1, "Herbal Meadow")
    elif land == "tree_of_truth" and has_pool(h) and attr(h, "knowledge") >= 2:
        gain_res(ctx, h, 1, "Tree of Truth")
    elif land == "quick_sand":
        s.move = {**s.move, "dice": []}
        ctx.emit("quick_sand", f"{name(hid)} sinks into the Quick Sand: movement ends.", hero=hid)
    elif land == "poisonous_swamp":
        # §9.2: one damage event; a mover who falls ends his turn (R25 via the checkpoint).
        push(s, damage({hid: 1}, "Poisonous Swamp"))


def can_undo(s: State) -> bool:
    """Whether the last step of the movement in progress may be taken back (see ``do_step``)."""
    return bool(s.move is not None and s.move.get("undo"))


def undo_step(ctx: Ctx) -> None:
    """Take back the last step: the hero, the die and whatever the step gave him return."""
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    mv = s.move
    assert mv is not None and mv.get("undo")
    last = mv["undo"][-1]
    back = h["pos"]
    h["pos"] = last["frm"]
    h["hp"] = last["hp"]
    h["res"] = last["res"]
    s.move = {
        **mv,
        "dice": list(last["dice"]),
        "steps": mv["steps"] - 1,
        "path": mv["path"][:-1],
        "undo": mv["undo"][:-1],
    }
    ctx.emit(
        "undo_step",
        f"{name(hid)} takes back the step to {place(s, back)} and is on {place(s, last['frm'])} again.",
        hero=hid,
        frm=back,
        to=last["frm"],
    )


@op("step")
def _step_op(ctx: Ctx, to: str, die: int) -> None:
    """One step of a routed ``move`` (skipped if the mover fell on the way)."""
    if ctx.s.tflags.get("dead") or ctx.s.phase != ADVENTURE:
        return
    do_step(ctx, to, die)


def place(s: State, node: str) -> str:
    """A node as the map names it now (content.PLACE_NAMES; razed Belk as the client marks it)."""
    if node == "belk" and s.razed:
        return f"{PLACE_NAMES[node]} (razed)"
    return PLACE_NAMES[node]


def _move_default(s: State, p: dict[str, Any]) -> dict[str, Any]:
    """R65: stop here; a mover standing on another hero's road walks to the nearest legal end."""
    legal = legal_moves(s, p["seat"])
    if {"type": "end_move"} in legal:
        return {"type": "end_move"}
    return next(a for a in legal if a["type"] == "move")


def _move_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    return legal_moves(s, p["seat"])


def _move_legal_of(s: State, p: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return legal_moves_of(s, p["seat"], kind)


def _move_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    s = ctx.s
    if a["type"] == "end_move":
        return
    if a["type"] == "undo_step":
        push(s, ("move_stage",))
        undo_step(ctx)
        return
    if a["type"] == "step":
        push(s, ("move_stage",))  # entering effects queue in front of it
        do_step(ctx, a["to"], a["die"])
        return
    # The route was found when the move was listed or validated, on the state this apply started
    # from: the working copy differs from it only by the prompt being answered.
    found_on = ctx.before if ctx.before is not None else s
    route = explore(found_on, p["seat"])["dest"][a["to"]]
    push(s, *[("step", m, f) for m, f in route_steps(route)])


prompt_kind(
    "move",
    PromptKind(
        legal=_move_legal,
        legal_of=_move_legal_of,
        default=_move_default,
        answer=_move_answer,
        describe=lambda s, p: f"{name(p['seat'])}: move (one die per step) or stop here.",
    ),
)
