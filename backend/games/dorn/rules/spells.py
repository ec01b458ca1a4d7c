"""Hero spells chosen as actions in the attack step (RB Magic: "Difficult spells … cost 1 hit
point to cast"; content 1.7.2, 2.2, 2.3 Almanor and Gor, 2.4 cloak, 4.5, 5.5; rulings 5, 6, 22,
27, 32, 36, 38, 43, A8-A12, A16 in docs/rules/dorn.md).

Each is an ``ability`` action ``{"type": "ability", "hero", "ability", ...}`` costing one action
(and 1 life for a difficult spell, payable only with 2+ life): Almanor's fireball (``to``: the
aimed cell), teleport (``other``: the hero moved, ``to``), blizzard; Gor's regeneration
(``other``), healing aura (``others``: 1 or 2 heroes), holy peace (then a prompt per monster:
which one goes next and where) and apocalypse.  Spells are never blocked (content 2.2), and
Zorkal's cloak keeps him out of blizzard and holy peace (content 2.4).  The movement abilities
are in ``footwork.py``; ``perform`` runs either kind.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, Final

from backend.engine.core import Action

from ..board import BOARD
from ..catalog import HEROES, TIE_BREAK
from ..state import ZORKAL, PromptState, State, Work, cell_name, placed, xy
from . import combat, footwork, obstacles, reach, rituals, tactics, variants
from .effects import active
from .movement import creature_may_enter
from .prompts import PromptRule, ask
from .weapons import ABILITIES, has

FIREBALL: Final = "alm.fireball"
TELEPORT: Final = "alm.teleport"
BLIZZARD: Final = "alm.blizzard"
ARCHMAGE: Final = "alm.archmage"
REGEN: Final = "gor.regen"
AURA: Final = "gor.aura"
HOLY_PEACE: Final = "gor.holypeace"
APOCALYPSE: Final = "gor.apocalypse"

HOLY_PEACE_PROMPT: Final = "holy_peace"


def cost(w: Work, hid: str, ability: str) -> int:
    """The spell's life cost now: difficult spells cost 1, fireball and blizzard nothing from
    Almanor's level 3 (archmage)."""
    info = ABILITIES[ability]
    free_from = info.get("free_from")
    if free_from is not None and w.s["heroes"][hid]["level"] >= free_from:
        return 0
    return int(info.get("life_cost", 0))


def _payable(w: Work, hid: str, ability: str) -> bool:
    c = cost(w, hid, ability)
    return c == 0 or w.s["heroes"][hid]["life"] >= c + 1  # ruling 32


def helpable(w: Work, hid: str) -> bool:
    """A hero a healing spell would help: below its max life, or Rotting (any heal cures Rot)."""
    h = w.s["heroes"][hid]
    return h["rot"] or h["life"] < variants.max_life(w.s["options"], hid, h["level"])


def adjacent_heroes(w: Work, hid: str) -> list[str]:
    """Other on-board heroes next to ``hid`` (Argos counts as adjacent, content 1.7.1), in
    tie-break order."""
    s = w.s
    cell = placed(s["heroes"][hid]["cell"])
    on = set(w.on_board_heroes())
    return [
        o
        for o in TIE_BREAK
        if o in on and o != hid and reach.heroes_adjacent(cell, placed(s["heroes"][o]["cell"]))
    ]


def creatures_in_area(w: Work, src: int, limit: int, *, zorkal: bool) -> list[str]:
    """Creatures at area distance <= ``limit`` (content 1.7.2, a snapshot), in reading order;
    Zorkal only when ``zorkal`` (and the gate is open)."""
    s = w.s
    dist = reach.area_distances(w, src, limit)
    found = [
        (m["cell"], mid)
        for mid, m in s["monsters"].items()
        if reach.within(dist, BOARD.cells_of(m["cell"])) is not None
    ]
    z = s["zorkal"]
    if zorkal and w.zorkal_active() and reach.within(dist, BOARD.cells_of(z["cell"])) is not None:
        found.append((z["cell"], ZORKAL))
    return [cid for _, cid in sorted(found)]


def adjacent_monsters(w: Work, cell: int) -> list[str]:
    s = w.s
    return [
        mid
        for c, mid in sorted((m["cell"], mid) for mid, m in s["monsters"].items())
        if reach.adjacent(cell, c)
    ]


# ---------------------------------------------------------------------------------------
# Listing (H3)


def spell_actions(w: Work, hid: str) -> list[Action]:
    """The hero's ``ability`` actions in the attack step: an action left, not fled (content 6.4),
    the life cost payable, and something for the spell to do."""
    s = w.s
    h = s["heroes"][hid]
    if h["cell"] is None or h["actions"] <= 0 or not tactics.may_attack(s, hid):
        return []
    cell = h["cell"]
    out: list[Action] = []

    def add(ability: str, **keys: Any) -> None:
        out.append({"type": "ability", "hero": hid, "ability": ability, **keys})

    if hid == "almanor":
        if has(w, hid, FIREBALL) and _payable(w, hid, FIREBALL):
            for c in sorted(reach.magic_cells(w, cell, ABILITIES[FIREBALL]["range"])):
                add(FIREBALL, to=xy(c))
        if has(w, hid, TELEPORT):
            for other in [hid] + adjacent_heroes(w, hid):
                for c in footwork.teleport_cells(w, other, ABILITIES[TELEPORT]["range"]):
                    add(TELEPORT, other=other, to=xy(c))
        blizzard = has(w, hid, BLIZZARD) and _payable(w, hid, BLIZZARD)
        if blizzard and creatures_in_area(w, cell, ABILITIES[BLIZZARD]["range"], zorkal=False):
            add(BLIZZARD)
    elif hid == "gor":
        if has(w, hid, REGEN):
            for other in [hid] + adjacent_heroes(w, hid):
                if helpable(w, other):
                    add(REGEN, other=other)
        if has(w, hid, AURA) and _payable(w, hid, AURA):
            near = [o for o in adjacent_heroes(w, hid) if helpable(w, o)]
            for n in range(ABILITIES[AURA]["most"], 0, -1):
                for group in combinations(near, n):
                    add(AURA, others=list(group))
        if has(w, hid, HOLY_PEACE) and adjacent_monsters(w, cell):
            add(HOLY_PEACE)
        apocalypse = has(w, hid, APOCALYPSE) and _payable(w, hid, APOCALYPSE)
        if apocalypse and creatures_in_area(w, cell, ABILITIES[APOCALYPSE]["range"], zorkal=True):
            add(APOCALYPSE)
    return out


# ---------------------------------------------------------------------------------------
# Casting


def _cast(w: Work, hid: str, ability: str, text: str, **data: Any) -> None:
    """Pay for a spell (one action, then its life cost) and say so."""
    h = w.s["heroes"][hid]
    h["actions"] -= 1
    w.emit("hero_spell", text, hero=hid, ability=ability, **data)
    c = cost(w, hid, ability)
    if c:
        combat.lose_life(w, hid, c, f"cost of {ABILITIES[ability]['name']}")


def blast(w: Work, cell: int) -> list[int]:
    """Fireball's blast: the cell and its orthogonal non-wall neighbours (not the closed gate)."""
    gate = bool(w.s["gate"])
    return [cell] + [n for n in BOARD.neighbours[cell] if not BOARD.closed_gate_blocks(n, gate)]


def _fireball(w: Work, a: Action) -> None:
    """Content 2.3 ``alm.fireball``: every figure (heroes and Almanor included) and obstacle in
    the blast takes 1; Zorkal too.  A figure on a pad is hit once (content 1.7.4)."""
    s = w.s
    hid = a["hero"]
    cell = BOARD.idx(*a["to"])
    _cast(w, hid, FIREBALL, f"Almanor hurls a fireball at {cell_name(cell)}.", cell=xy(cell))
    hit = set(blast(w, cell))
    why = "Almanor's fireball"
    for other in TIE_BREAK:
        oh = s["heroes"].get(other)
        if oh is not None and oh["cell"] is not None and hit.intersection(BOARD.cells_of(oh["cell"])):
            combat.lose_life(w, other, 1, why)  # ruling 43: blood to the Keeper, no XP
    victims = [
        (m["cell"], mid) for mid, m in s["monsters"].items() if hit.intersection(BOARD.cells_of(m["cell"]))
    ]
    if w.zorkal_active() and hit.intersection(BOARD.cells_of(s["zorkal"]["cell"])):
        victims.append((s["zorkal"]["cell"], ZORKAL))
    for _, cid in sorted(victims):
        if s["outcome"] is None:
            combat.damage_creature(w, cid, 1, hid, why)
    for oid in sorted(oid for oid, o in s["obstacles"].items() if o["cell"] in hit):
        obstacles.damage(w, oid, 1, hid, "fireball")


def _teleport(w: Work, a: Action) -> None:
    """Content 2.3 ``alm.teleport``: Almanor or an adjacent hero to a legal hero cell at teleport
    distance <= 3.  Only Almanor's own teleport counts as his having moved (ruling 38)."""
    hid, other = a["hero"], a["other"]
    to = BOARD.idx(*a["to"])
    who = "himself" if other == hid else HEROES[other]["name"]
    _cast(w, hid, TELEPORT, f"Almanor teleports {who} to {cell_name(to)}.", other=other, cell=xy(to))
    footwork.relocate(w, other, to, own=other == hid)


def _blizzard(w: Work, a: Action) -> None:
    """Content 2.3 ``alm.blizzard``: every monster at area distance <= 3 of Almanor (snapshot) is
    Frozen for the next Keeper turn (``frozen``: no steps but Ritual-class bonuses, no bat form,
    no attack, content 4.5; cleared at K5.3).  Zorkal is immune (cloak)."""
    s = w.s
    hid = a["hero"]
    h = s["heroes"][hid]
    frozen = creatures_in_area(w, placed(h["cell"]), ABILITIES[BLIZZARD]["range"], zorkal=False)
    _cast(
        w, hid, BLIZZARD, f"Almanor casts a blizzard: {len(frozen)} monster(s) are Frozen.", monsters=frozen
    )
    for mid in frozen:
        w.monster(mid)["frozen"] = True
        w.emit(
            "monster_frozen",
            f"{w.creature_name(mid).capitalize()} at {cell_name(s['monsters'][mid]['cell'])} is Frozen "
            "for the next Keeper turn.",
            monster=mid,
        )


def frozen_move(s: State) -> int:
    """A Frozen monster's Move for the movement step: only Ritual-class bonuses (Bloodlust's 2),
    never its base Move nor Hungry Rats' changed base (content 4.5 "Blizzard + Bloodlust",
    "Blizzard + Hungry Rats")."""
    return rituals.BLOODLUST_BONUS if active(s, rituals.BLOODLUST) else 0


def _regen(w: Work, a: Action) -> None:
    hid, other = a["hero"], a["other"]
    who = "himself" if other == hid else HEROES[other]["name"]
    _cast(w, hid, REGEN, f"Gor casts regeneration on {who}.", other=other)
    combat.heal(w, other, ABILITIES[REGEN]["heal"], "Gor's regeneration", REGEN)


def _aura(w: Work, a: Action) -> None:
    hid, others = a["hero"], a["others"]
    names = " and ".join(HEROES[o]["name"] for o in others)
    _cast(w, hid, AURA, f"Gor's healing aura touches {names}.", others=others)
    for o in others:
        combat.heal(w, o, ABILITIES[AURA]["heal"], "Gor's healing aura", AURA)


def _apocalypse(w: Work, a: Action) -> None:
    """Content 2.3 ``gor.apocalypse``: 1 damage to every creature at area distance <= 3 of Gor,
    Zorkal included; heroes and obstacles are not hit.  XP to Gor (content 5.5)."""
    s = w.s
    hid = a["hero"]
    victims = creatures_in_area(
        w, placed(s["heroes"][hid]["cell"]), ABILITIES[APOCALYPSE]["range"], zorkal=True
    )
    _cast(
        w, hid, APOCALYPSE, f"Gor calls down the apocalypse on {len(victims)} creature(s).", targets=victims
    )
    for cid in victims:
        if s["outcome"] is None:
            combat.damage_creature(w, cid, 1, hid, "Gor's apocalypse")


# ---------------------------------------------------------------------------------------
# Holy peace: a prompt per monster


def _holy_peace(w: Work, a: Action) -> None:
    """Content 2.3 ``gor.holypeace``: each monster adjacent to Gor (a snapshot; Zorkal immune) is
    teleported, one at a time in the order Gor's player chooses, to a legal monster cell at
    teleport distance <= 8 from its own cell, which that player chooses (ruling A11)."""
    hid = a["hero"]
    monsters = adjacent_monsters(w, placed(w.s["heroes"][hid]["cell"]))
    _cast(
        w,
        hid,
        HOLY_PEACE,
        f"Gor casts holy peace on {len(monsters)} monster(s) around him.",
        monsters=monsters,
    )
    _next_holy_peace(w, hid, monsters)


def holy_peace_cells(w: Work, mid: str) -> list[int]:
    m = w.s["monsters"][mid]
    own = set(BOARD.cells_of(m["cell"]))
    dist = reach.teleport_distances(w, m["cell"], ABILITIES[HOLY_PEACE]["range"])
    return sorted(c for c in dist if c not in own and creature_may_enter(w, mid, c))


def _next_holy_peace(w: Work, hid: str, monsters: list[str]) -> None:
    left = [mid for mid in monsters if mid in w.s["monsters"]]
    movable = [mid for mid in left if holy_peace_cells(w, mid)]
    for mid in left:
        if mid not in movable:
            w.emit(
                "holy_peace_stays",
                f"{w.creature_name(mid).capitalize()} has nowhere to go and stays.",
                monster=mid,
            )
    if movable:
        ask(
            w,
            HOLY_PEACE_PROMPT,
            w.s["heroes"][hid]["seat"],
            f"Holy peace: choose the next monster and where it goes ({len(movable)} left).",
            hero=hid,
            monsters=movable,
        )


def _holy_peace_answers(w: Work, p: PromptState) -> list[Action]:
    # Default: the first legal option (content 5.10), monsters and cells in reading order.
    return [
        {"type": "choose", "target": mid, "to": xy(c)}
        for mid in p["data"]["monsters"]
        for c in holy_peace_cells(w, mid)
    ]


def _holy_peace_step(w: Work, seat: str, p: PromptState, a: Action) -> None:
    mid = a["target"]
    to = BOARD.idx(*a["to"])
    old = w.s["monsters"][mid]["cell"]
    w.monster(mid)["cell"] = to
    w.relocate(mid, old, to)
    w.emit(
        "monster_teleported",
        f"Holy peace sends {w.creature_name(mid)} from {cell_name(old)} to {cell_name(to)}.",
        monster=mid,
        cell=xy(to),
    )
    _next_holy_peace(w, p["data"]["hero"], [m for m in p["data"]["monsters"] if m != mid])


SPELLS: Final[dict[str, Callable[[Work, Action], None]]] = {
    FIREBALL: _fireball,
    TELEPORT: _teleport,
    BLIZZARD: _blizzard,
    REGEN: _regen,
    AURA: _aura,
    HOLY_PEACE: _holy_peace,
    APOCALYPSE: _apocalypse,
}
_ALL: Final = {**SPELLS, **footwork.MOVES}


def perform(w: Work, a: Action) -> None:
    """An ``ability`` action (listed by ``spell_actions`` or ``footwork.move_actions``)."""
    _ALL[a["ability"]](w, a)
    combat.check_deaths(w)  # a fireball may kill heroes (ruling 43); a life cost never does


PROMPTS: Final[dict[str, PromptRule]] = {HOLY_PEACE_PROMPT: PromptRule(_holy_peace_answers, _holy_peace_step)}
