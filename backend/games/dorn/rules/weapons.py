"""Hero attacks and their flow (RB Actions, "Some heroes have special attacks (Round attack,
Piercing attack, etc.)"; content 2.2, 2.3, 5.3 H0/H2/H3, 5.5, 6.3; rulings 22, 32, 37, A1-A7 in
docs/rules/dorn.md).

An attack action is declared with its targets fixed, then resolved hit by hit:

1. the hero pays (an action, once-per-turn use, the life cost of a spell);
2. each hit on a creature that may block it (``blocking.py``: Zorkal's sinister parry, Zombie
   Frenzy) opens the Keeper's block prompt first: weapon hits only, never spells (content 2.2);
3. damage, XP to the hero (``combat.damage_creature``), obstacle damage (``obstacles.damage``);
4. follow-ups: Choros's tactical advance after an axe action that killed (``cho.advance``),
   Guelin's next inexorable-advance shot (``gue.advance``).

The state of a declared attack between prompts is a small JSON record, a *run*: ``hero``,
``with`` (the attack id), ``hits`` (targets still to resolve, in order), ``killed`` (cells of the
creatures it killed) and ``then`` (the follow-up).  Special attacks: the Round attack
(``cho.whirlwind``, every adjacent creature), the Piercing attack (``ele.pierce``, an adjacent
creature and the one beyond it), knife master at H0 (``gue.knife``) and inexorable advance at
the start of H2 (``gue.advance``), both asked with prompts.
"""

from __future__ import annotations

from typing import Any, Final

from backend.engine.core import Action

from ..board import BOARD, WALL
from ..catalog import HEROES, hero_stat
from ..state import KEEPER, ZORKAL, PromptState, Work, cell_name, placed, xy
from . import blocking, combat, movement, obstacles, reach, tactics, treasure, triggers
from .effects import UNTIL_HERO_END
from .prompts import PromptRule, ask

W: Final = BOARD.width

# Every ability of data/heroes.json "abilities", by id (with its hero).
ABILITIES: Final[dict[str, dict[str, Any]]] = {
    a["id"]: {**a, "hero": hid} for hid, h in HEROES.items() for a in h.get("abilities", [])
}
BASIC: Final[dict[str, dict[str, Any]]] = {a["id"]: a for h in HEROES.values() for a in h["basic"]}

AXE: Final = "cho.axe"
WHIRLWIND: Final = "cho.whirlwind"
ADVANCE: Final = "cho.advance"
PIERCE: Final = "ele.pierce"
BOW: Final = "gue.bow"
INEXORABLE: Final = "gue.advance"
KNIFE: Final = "gue.knife"
AXE_ACTIONS: Final = (AXE, WHIRLWIND)

# Prompt kinds.
BLOCK: Final = "block"
TACTICAL_ADVANCE: Final = "tactical_advance"
KNIFE_MASTER: Final = "knife_master"
INEXORABLE_ADVANCE: Final = "inexorable_advance"


def has(w: Work, hid: str, ability: str) -> bool:
    """The hero is in play with ``ability`` at its level (levels change only where a step ends)."""
    h = w.s["heroes"].get(hid)
    return h is not None and h["cell"] is not None and h["level"] in ABILITIES[ability]["levels"]


def icy(w: Work, hid: str) -> bool:
    """Under R03 Icy Prison the hero takes no steps: no tactical advance, no bloody run (4.1)."""
    return movement.imprisoned(w.s, hid)


def name_of(w: Work, target: str) -> str:
    """A target in words: a creature, or an obstacle with its cell."""
    o = w.s["obstacles"].get(target)
    if o is not None:
        return f"the {obstacles.name(o['kind'])} at {cell_name(o['cell'])}"
    return w.creature_name(target)


def adjacent_creatures(w: Work, cell: int) -> list[str]:
    """Creatures next to ``cell`` (Zorkal once the gate is open), in reading order."""
    s = w.s
    found = [(m["cell"], mid) for mid, m in s["monsters"].items() if reach.adjacent(cell, m["cell"])]
    if w.zorkal_active() and reach.adjacent(cell, s["zorkal"]["cell"]):
        found.append((s["zorkal"]["cell"], ZORKAL))
    return [cid for _, cid in sorted(found)]


def beyond(w: Work, src: int, cid: str) -> str | None:
    """The creature on the next cell beyond ``cid`` seen from ``src``, in the same direction
    (content 2.3 ``ele.pierce``); a hero, wall or empty cell there: None."""
    occ = w.occupancy()
    for a in BOARD.cells_of(src):
        ax, ay = a % W, a // W
        for b in BOARD.cells_of(w.creature_cell(cid)):
            bx, by = b % W, b // W
            if abs(ax - bx) + abs(ay - by) != 1:
                continue
            x, y = 2 * bx - ax, 2 * by - ay
            if not BOARD.in_bounds(x, y) or BOARD.terrain[y * W + x] == WALL:
                return None
            fid = occ.get(y * W + x)
            return fid if fid is not None and fid != cid and w.is_creature(fid) else None
    return None


# ---------------------------------------------------------------------------------------
# Listing (H3)


def attack_actions(w: Work, hid: str) -> list[Action]:
    """The hero's ``attack`` actions in H3: basic attacks on creatures and obstacles, then the
    Round attack (once per turn, needs an adjacent creature; creatures only, content 6.3) and
    the Piercing attack (once per turn, on an adjacent creature)."""
    s = w.s
    h = s["heroes"][hid]
    out: list[Action] = [
        {"type": "attack", "hero": hid, "with": a, "target": t} for a, t in combat.hero_targets(w, hid)
    ]
    if h["cell"] is None or h["actions"] <= 0 or not tactics.may_attack(s, hid):
        return out
    whirlwind = hid == "choros" and has(w, hid, WHIRLWIND) and WHIRLWIND not in h["used"]
    if whirlwind and adjacent_creatures(w, h["cell"]):
        out.append({"type": "attack", "hero": hid, "with": WHIRLWIND})
    if hid == "eleanor" and has(w, hid, PIERCE) and PIERCE not in h["used"]:
        out += [
            {"type": "attack", "hero": hid, "with": PIERCE, "target": c}
            for c in adjacent_creatures(w, h["cell"])
        ]
    return out


# ---------------------------------------------------------------------------------------
# Declaring and resolving


def attack(w: Work, a: Action) -> None:
    """An ``attack`` action of a hero (listed by ``attack_actions``): one action spent."""
    s = w.s
    hid, with_ = a["hero"], a["with"]
    h = s["heroes"][hid]
    h["actions"] -= 1
    name = HEROES[hid]["name"]
    cell = placed(h["cell"])
    if with_ == WHIRLWIND:
        h["used"].append(WHIRLWIND)
        hits = adjacent_creatures(w, cell)
        w.emit(
            "hero_attack",
            f"{name} makes a Round attack on every creature next to him ({len(hits)}).",
            hero=hid,
            attack=with_,
            targets=hits,
        )
    elif with_ == PIERCE:
        h["used"].append(PIERCE)
        behind = beyond(w, cell, a["target"])
        hits = [a["target"]] + ([behind] if behind is not None else [])
        w.emit(
            "hero_attack",
            f"{name} makes a Piercing attack on {w.creature_name(a['target'])}"
            + (f" and {w.creature_name(behind)} beyond it." if behind is not None else "."),
            hero=hid,
            attack=with_,
            targets=hits,
        )
    else:
        basic = BASIC[with_]
        hits = [a["target"]]
        w.emit(
            "hero_attack",
            f"{name} uses {basic['name']} on {name_of(w, a['target'])}.",
            hero=hid,
            attack=with_,
            target=a["target"],
        )
        if basic["life_cost"]:
            combat.lose_life(w, hid, basic["life_cost"], f"cost of {basic['name']}")
    run(w, {"hero": hid, "with": with_, "hits": hits, "killed": [], "then": None})


def _is_weapon(with_: str) -> bool:
    basic = BASIC.get(with_)
    if basic is not None:
        return bool(basic["class"] == "weapon")
    return bool(ABILITIES[with_]["kind"] == "weapon")


def _present(w: Work, target: str) -> bool:
    s = w.s
    if target == ZORKAL:
        return w.zorkal_active()
    return target in s["monsters"] or target in s["obstacles"]


def run(w: Work, r: dict[str, Any]) -> None:
    """Resolve a declared attack's hits in order; a blockable weapon hit pauses it on the
    Keeper's block prompt (content 5.5: "Each hit has its own block check, damage and XP")."""
    weapon = _is_weapon(r["with"])
    hits = list(r["hits"])
    while hits and w.s["outcome"] is None:
        target = hits.pop(0)
        if not _present(w, target):
            continue
        key = blocking.use_key(w, target) if weapon else None
        if key is not None:
            rest = {**r, "hits": hits}
            hero = HEROES[r["hero"]]["name"]
            ask(
                w,
                BLOCK,
                KEEPER,
                f"{hero} attacks {w.creature_name(target)}: block it with {blocking.name(key)}?",
                run=rest,
                target=target,
                key=key,
            )
            return
        r = _hit(w, r, target)
    _after(w, {**r, "hits": []})


def _hit(w: Work, r: dict[str, Any], target: str) -> dict[str, Any]:
    """One hit: 1 damage (a basic attack's own damage), XP to the hero on a kill."""
    hid, with_ = r["hero"], r["with"]
    basic = BASIC.get(with_)
    what = basic["name"] if basic is not None else ABILITIES[with_]["name"]
    why = f"{HEROES[hid]['name']}'s {what}"
    damage = int(basic["damage"]) if basic is not None else 1
    if _is_weapon(with_):
        damage = triggers.weapon_damage(w, hid, target, damage)  # swamp huntress (rie.huntress)
    if target in w.s["obstacles"]:
        obstacles.damage(w, target, 1, hid, what)  # each hit deals 1 to an obstacle (content 6.3)
        return r
    cell = w.creature_cell(target)
    if combat.damage_creature(w, target, damage, hid, why):
        return {**r, "killed": r["killed"] + [cell]}
    return r


def _after(w: Work, r: dict[str, Any]) -> None:
    if w.s["outcome"] is not None:
        return
    if r["with"] in AXE_ACTIONS and r["killed"]:
        _offer_advance(w, r["hero"], r["killed"])
    if r["then"] == INEXORABLE:
        open_inexorable_advance(w)


def _block_answers(w: Work, p: PromptState) -> list[Action]:
    # Content 5.10: the default is to block (first listed).
    return [{"type": "choose", "answer": "block"}, {"type": "choose", "answer": "let_through"}]


def _block(w: Work, seat: str, p: PromptState, a: Action) -> None:
    d = p["data"]
    r, target = d["run"], d["target"]
    if a["answer"] == "block":
        blocking.spend(w, d["key"])
        text = (
            f"The Keeper cancels {HEROES[r['hero']]['name']}'s attack on {w.creature_name(target)} "
            f"({blocking.name(d['key'])})."
        )
        if d["key"] == blocking.SINISTER_PARRY:  # Zorkal's ability, named for the usage tally
            w.emit("attack_blocked", text, hero=r["hero"], target=target, block=d["key"], ability=d["key"])
        else:
            w.emit("attack_blocked", text, hero=r["hero"], target=target, block=d["key"])
    else:
        w.emit(
            "attack_let_through",
            f"The Keeper lets {HEROES[r['hero']]['name']}'s attack on {w.creature_name(target)} through.",
            hero=r["hero"],
            target=target,
        )
        r = _hit(w, r, target)
    run(w, r)


# ---------------------------------------------------------------------------------------
# Tactical advance (cho.advance)


def _offer_advance(w: Work, hid: str, killed: list[int]) -> None:
    """Content 2.3 ``cho.advance``: after an axe action kills, Choros may step into one vacated
    cell that is a legal hero cell next to him; never under Icy Prison (it is a step)."""
    h = w.s["heroes"][hid]
    if h["cell"] is None or icy(w, hid):
        return
    cells = sorted({c for c in killed if reach.adjacent(h["cell"], c) and movement.hero_may_stop(w, hid, c)})
    if cells:
        ask(
            w,
            TACTICAL_ADVANCE,
            h["seat"],
            f"{HEROES[hid]['name']} may advance into a cell his axe emptied.",
            hero=hid,
            cells=cells,
        )


def _advance_answers(w: Work, p: PromptState) -> list[Action]:
    # Default: no (content 5.10), listed first.
    return [{"type": "choose", "answer": "stay"}] + [
        {"type": "choose", "to": xy(c)} for c in p["data"]["cells"]
    ]


def _advance(w: Work, seat: str, p: PromptState, a: Action) -> None:
    if "to" not in a:
        return
    hid = p["data"]["hero"]
    h = w.s["heroes"][hid]
    start = placed(h["cell"])
    to = BOARD.idx(*a["to"])
    h["cell"] = to
    h["moved"] = True  # a step of his own (ruling 38)
    w.moved()
    w.emit(
        "hero_advance",
        f"{HEROES[hid]['name']} advances to {cell_name(to)} (tactical advance).",
        hero=hid,
        cell=xy(to),
        ability=ADVANCE,
    )
    tactics.after_move(w, hid, start, to)
    treasure.enter_cell(w, hid, to)


# ---------------------------------------------------------------------------------------
# Knife master (gue.knife, H0) and inexorable advance (gue.advance, H2 start)


def open_knife_master(w: Work) -> None:
    """H0.3 (content 5.3): Guelin L2+ may deal 1 damage to one adjacent creature, a free weapon
    attack the Keeper may block, once per hero turn; asked as a prompt (ruling A5)."""
    hid = ABILITIES[KNIFE]["hero"]
    if not has(w, hid, KNIFE) or KNIFE in w.s["heroes"][hid]["used"] or not tactics.may_attack(w.s, hid):
        return
    cell = placed(w.s["heroes"][hid]["cell"])
    if adjacent_creatures(w, cell):
        ask(
            w, KNIFE_MASTER, w.s["heroes"][hid]["seat"], "Guelin may throw his knife at an adjacent creature."
        )


def _knife_answers(w: Work, p: PromptState) -> list[Action]:
    h = w.s["heroes"][ABILITIES[KNIFE]["hero"]]
    targets = adjacent_creatures(w, h["cell"]) if h["cell"] is not None else []
    # Default: skip (content 5.10), listed first.
    return [{"type": "choose", "answer": "skip"}] + [{"type": "choose", "target": t} for t in targets]


def _knife(w: Work, seat: str, p: PromptState, a: Action) -> None:
    if "target" not in a:
        return
    hid = ABILITIES[KNIFE]["hero"]
    w.s["heroes"][hid]["used"].append(KNIFE)
    w.emit(
        "hero_attack",
        f"Guelin throws his knife at {w.creature_name(a['target'])} (knife master).",
        hero=hid,
        attack=KNIFE,
        ability=KNIFE,
        target=a["target"],
    )
    run(w, {"hero": hid, "with": KNIFE, "hits": [a["target"]], "killed": [], "then": None})


def advance_spent(w: Work, hid: str) -> int:
    """Actions Guelin spent on inexorable advance this hero turn (gone for H3)."""
    e = w.s["effects"].get(INEXORABLE) if hid == ABILITIES[INEXORABLE]["hero"] else None
    return int(e["spent"]) if e else 0


def _advance_left(w: Work, hid: str) -> int:
    h = w.s["heroes"][hid]
    return hero_stat(hid, "attacks", h["level"]) + h["bonus_actions"] - advance_spent(w, hid)


def _bow_targets(w: Work, hid: str) -> list[str]:
    h = w.s["heroes"][hid]
    return [t for _, t in combat.attacks_of(w, hid, [BASIC[BOW]])] if h["cell"] is not None else []


def open_inexorable_advance(w: Work) -> None:
    """H2.1 (content 5.3): at the very start of the movement step, before any hero acts, Guelin's
    seat may spend his actions on bow shots, one prompt per shot (default: none)."""
    hid = ABILITIES[INEXORABLE]["hero"]
    if not has(w, hid, INEXORABLE) or _advance_left(w, hid) <= 0 or not _bow_targets(w, hid):
        return
    left = _advance_left(w, hid)
    ask(
        w,
        INEXORABLE_ADVANCE,
        w.s["heroes"][hid]["seat"],
        f"Inexorable advance: Guelin may shoot now ({left} action(s) left; each one is gone for the attack step).",
        hero=hid,
    )


def _inexorable_answers(w: Work, p: PromptState) -> list[Action]:
    hid = p["data"]["hero"]
    return [{"type": "choose", "answer": "stop"}] + [
        {"type": "choose", "target": t} for t in _bow_targets(w, hid)
    ]


def _inexorable(w: Work, seat: str, p: PromptState, a: Action) -> None:
    if "target" not in a:
        return
    hid = p["data"]["hero"]
    s = w.s
    spent = advance_spent(w, hid) + 1
    s["effects"][INEXORABLE] = {"until": UNTIL_HERO_END, "spent": spent}  # replaced, never edited
    w.emit(
        "hero_attack",
        f"Guelin shoots {name_of(w, a['target'])} with his short bow (inexorable advance).",
        hero=hid,
        attack=BOW,
        ability=INEXORABLE,
        target=a["target"],
    )
    run(w, {"hero": hid, "with": BOW, "hits": [a["target"]], "killed": [], "then": INEXORABLE})


PROMPTS: Final[dict[str, PromptRule]] = {
    BLOCK: PromptRule(_block_answers, _block),
    TACTICAL_ADVANCE: PromptRule(_advance_answers, _advance),
    KNIFE_MASTER: PromptRule(_knife_answers, _knife),
    INEXORABLE_ADVANCE: PromptRule(_inexorable_answers, _inexorable),
}
