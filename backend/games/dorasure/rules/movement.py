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
    sea = any(t == "sea_of_trees" for t in s.lands.values()) and attr(s.heroes[hid], "search") >= 2
    key = (tuple(sorted(s.lands.items())), s.razed, sea)
    table = _THRESHOLDS.get(key)
    if table is None:
        table = _THRESHOLDS[key] = {n: threshold(s, hid, n) for n in MOVE_NEIGHBOURS}
    return table


def _dominated(kept: list[tuple[int, ...]], dice: tuple[int, ...]) -> bool:
    """True when an earlier position on the same node keeps at least as good dice
    (as many or more, each at least as high): it can do everything this one can."""
    for k in kept:
        if len(k) >= len(dice) and all(a >= b for a, b in zip(k[len(k) - len(dice) :], dice, strict=True)):
            return True
    return False


def explore(s: State, hid: str) -> dict[str, Any]:
    """Reachable end spaces from the current movement position (R3), cached on the state.

    BFS over (node, unused dice) in order of steps, trying the lowest qualifying die
    first, so the first route found to a node is the canonical one (R65: fewest
    steps, lowest dice).  A position whose dice are beaten by an earlier position on
    the same node is not expanded: the earlier one reaches everything it could.
    Returns ``dest``: node → [(node, die), ...] for every legal end node other than
    the current one.
    """
    key = ("explore", hid)
    if key in s._cache:
        cached: dict[str, Any] = s._cache[key]
        return cached
    mv = s.move
    assert mv is not None
    here = s.heroes[hid]["pos"]
    start = tuple(sorted(mv["dice"]))
    others = occupied_by_others(s, hid)
    need = thresholds(s, hid)
    sink = {n for n, t in s.lands.items() if t == "quick_sand"}
    parent: dict[Pos, tuple[Pos, str, int] | None] = {(here, start): None}
    kept: dict[str, list[tuple[int, ...]]] = {here: [start]}
    dest: dict[str, list[tuple[str, int]]] = {}
    frontier: list[Pos] = [(here, start)]
    while frontier:
        nxt: list[Pos] = []
        for pos in frontier:
            node, dice = pos
            if node in sink and dice != start:
                continue  # §9.2: entering Quick Sand ends the movement
            for m in MOVE_NEIGHBOURS[node]:
                t = need[m]
                last = -1
                for i, f in enumerate(dice):
                    if f < t or f == last:
                        continue
                    last = f
                    rest = dice[:i] + dice[i + 1 :]
                    np: Pos = (m, rest)
                    seen = kept.setdefault(m, [])
                    if np in parent or _dominated(seen, rest):
                        continue
                    seen.append(rest)
                    parent[np] = (pos, m, f)
                    nxt.append(np)
                    if m != here and m not in dest and (m not in others or can_share(s, m)):
                        path: list[tuple[str, int]] = []
                        p: Pos = np
                        while parent[p] is not None:
                            prev, mm, ff = parent[p]  # type: ignore[misc]
                            path.append((mm, ff))
                            p = prev
                        dest[m] = path[::-1]
        frontier = nxt
    result = {"dest": dest, "others": others, "need": need, "sink": sink}
    s._cache[key] = result
    return result


def can_finish(s: State, info: dict[str, Any], node: str, dice: tuple[int, ...], here: str) -> bool:
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
    info = explore(s, hid)
    mv = s.move
    assert mv is not None
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
    out += [{"type": "move", "to": d} for d in sorted(info["dest"])]
    if can_end(s, hid):
        out.append({"type": "end_move"})
    if can_undo(s):
        out.append({"type": "undo_step"})
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
    cls = node_class(s, to)
    if hid == "ninja" and cls == "forest":
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
    path = explore(s, p["seat"])["dest"][a["to"]]
    push(s, *[("step", m, f) for m, f in path])


prompt_kind(
    "move",
    PromptKind(
        legal=_move_legal,
        default=_move_default,
        answer=_move_answer,
        describe=lambda s, p: f"{name(p['seat'])}: move (one die per step) or stop here.",
    ),
)
