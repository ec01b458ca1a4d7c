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

from typing import Any

from ..content import LANDS, MOVE_NEIGHBOURS, NODE_TERRAIN, TERRAINS
from ..state import State
from .damage import damage
from .flow import Ctx, PromptKind, ask, op, prompt_kind, push
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


def explore(s: State, hid: str) -> dict[str, Any]:
    """BFS over (node, unused dice) from the current movement position (R3).

    Returns ``good`` (positions from which a legal ending is reachable) and
    ``dest`` (node → canonical path of (node, die) steps) for every legal end node
    other than the current one.  Cached on the (immutable) state.
    """
    key = ("explore", hid)
    if key in s._cache:
        return s._cache[key]
    mv = s.move
    assert mv is not None
    start: Pos = (s.heroes[hid]["pos"], tuple(sorted(mv["dice"])))
    others = occupied_by_others(s, hid)
    thresholds: dict[str, int] = {}

    def need(node: str) -> int:
        t = thresholds.get(node)
        if t is None:
            t = thresholds[node] = threshold(s, hid, node)
        return t

    def ends_ok(node: str) -> bool:
        return node not in others or can_share(s, node)

    parent: dict[Pos, tuple[Pos, str, int] | None] = {start: None}
    frontier = [start]
    order: list[Pos] = [start]
    while frontier:
        nxt: list[Pos] = []
        for pos in frontier:
            node, dice = pos
            if s.lands.get(node) == "quick_sand" and pos != start:
                continue  # §9.2: entering Quick Sand ends the movement
            for m in MOVE_NEIGHBOURS[node]:
                t = need(m)
                last = -1
                for i, f in enumerate(dice):
                    if f < t or f == last:
                        continue
                    last = f
                    np: Pos = (m, dice[:i] + dice[i + 1 :])
                    if np not in parent:
                        parent[np] = (pos, m, f)
                        nxt.append(np)
                        order.append(np)
        frontier = nxt
    # A position is good when it is a legal end, or one of its children is good.
    children: dict[Pos, list[Pos]] = {}
    for pos, link in parent.items():
        if link is not None:
            children.setdefault(link[0], []).append(pos)
    good: set[Pos] = set()
    for pos in reversed(order):
        node = pos[0]
        if (
            pos == start
            and mv["steps"] == 0
            or ends_ok(node)
            or any(c in good for c in children.get(pos, ()))
        ):
            good.add(pos)
    dest: dict[str, list[tuple[str, int]]] = {}
    here = start[0]
    for pos in order:  # BFS order: fewest steps first, dice ascending
        node = pos[0]
        if pos == start or node == here or node in dest or not ends_ok(node):
            continue
        path: list[tuple[str, int]] = []
        p: Pos = pos
        while parent[p] is not None:
            prev, m, f = parent[p]  # type: ignore[misc]
            path.append((m, f))
            p = prev
        dest[node] = path[::-1]
    result = {"good": good, "dest": dest, "start": start}
    s._cache[key] = result
    return result


def can_end(s: State, hid: str) -> bool:
    mv = s.move
    assert mv is not None
    node = s.heroes[hid]["pos"]
    return mv["steps"] == 0 or node not in occupied_by_others(s, hid) or can_share(s, node)


def legal_moves(s: State, hid: str) -> list[dict[str, Any]]:
    info = explore(s, hid)
    node, dice = info["start"]
    out: list[dict[str, Any]] = []
    if s.lands.get(node) != "quick_sand" or s.move["steps"] == 0:  # type: ignore[index]
        for m in MOVE_NEIGHBOURS[node]:
            for f in sorted(set(dice)):
                rest = list(dice)
                rest.remove(f)
                if f >= threshold(s, hid, m) and (m, tuple(rest)) in info["good"]:
                    out.append({"type": "step", "to": m, "die": f})
    out += [{"type": "move", "to": d} for d in sorted(info["dest"])]
    if can_end(s, hid):
        out.append({"type": "end_move"})
    return out


@op("move_stage")
def _move_stage(ctx: Ctx) -> None:
    s = ctx.s
    h = s.heroes[s.current]
    if s.tflags.get("dead") or s.phase != 1 or h["trapped"] or s.move is None:
        return
    if s.lands.get(h["pos"]) == "quick_sand" and s.move["steps"] > 0:
        return
    ask(s, s.current, "move")


def do_step(ctx: Ctx, to: str, die: int) -> None:
    """One movement step with its entering effects (R62, §9.2)."""
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    mv = s.move
    assert mv is not None
    dice = list(mv["dice"])
    dice.remove(die)
    s.move = {**mv, "dice": dice, "steps": mv["steps"] + 1, "path": [*mv["path"], to]}
    frm = h["pos"]
    h["pos"] = to
    ctx.emit("step", f"{name(hid)} moves to {label(to)} with a {die}.", hero=hid, frm=frm, to=to, die=die)
    cls = node_class(s, to)
    if hid == "ninja" and cls == "forest":
        gain_res(ctx, h, 1, "Ninjutsu")
    land = s.lands.get(to)
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


@op("step")
def _step_op(ctx: Ctx, to: str, die: int) -> None:
    """One step of a routed ``move`` (skipped if the mover fell on the way)."""
    if ctx.s.tflags.get("dead") or ctx.s.phase != 1:
        return
    do_step(ctx, to, die)


def label(node: str) -> str:
    from ..content import SPACES

    if node == "city":
        return "the City"
    n = SPACES[node]["name"]
    return n or node


def _move_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    return legal_moves(s, p["seat"])


def _move_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    s = ctx.s
    if a["type"] == "end_move":
        return
    if a["type"] == "step":
        push(s, ("move_stage",))  # entering effects queue in front of it
        do_step(ctx, a["to"], a["die"])
        return
    path = explore(s, p["seat"])["dest"][a["to"]]
    push(s, *[("step", m, f) for m, f in path])


prompt_kind(
    "move",
    PromptKind(
        legal=_move_legal,
        default=lambda s, p: {"type": "end_move"},
        answer=_move_answer,
        describe=lambda s, p: f"{name(p['seat'])}: move (one die per step) or stop here.",
    ),
)
