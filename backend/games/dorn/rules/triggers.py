"""Passive and triggered hero abilities that other rules consult (content 2.3; rulings 37, 38,
P1-P5 in docs/rules/dorn.md): the creature attacks a hero is immune to (``ele.pikemastery``,
``rie.avoid``, ``kae.aura``), Ragnar's fencing and transmuted blood, Riel's swamp huntress and
combat spirit, Vargen's three bites, and the note that a hero spent an action (``cho.earth``).

A leaf below combat (which credits kills and calls ``on_kill``): it imports only the state, the
catalogue and the board, and heals nobody itself — a bite returns its reason and combat heals.
Once-per-turn uses go in the hero's ``used`` list (ruling 37; reset in rules/turns.py).
"""

from __future__ import annotations

from typing import Final

from ..board import BOARD
from ..catalog import HEROES, MONSTERS
from ..state import ZORKAL, HeroState, Work
from .variants import max_life

# The attack step's code (``turns.HERO_ATTACKS``; turns imports combat, which imports this).
ATTACK_STEP: Final = "H3"

# In a hero's ``used``: the hero spent at least one action this hero turn (``cho.earth``).
ACTED: Final = "acted"

# The levels of every non-basic ability (data/heroes.json ``abilities``), by id.
LEVELS: Final[dict[str, list[int]]] = {
    a["id"]: a["levels"] for h in HEROES.values() for a in h.get("abilities", [])
}
NAMES: Final[dict[str, str]] = {a["id"]: a["name"] for h in HEROES.values() for a in h.get("abilities", [])}

# Vargen's bites (content 2.3): ability id and the monster types whose kill heals him 1.
BITES: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("var.fresh", ("rat", "bogbeast")),
    ("var.stale", ("skeleton", "zombie")),
    ("var.brutal", tuple(t for t, m in MONSTERS.items() if m["class"] == "strong")),
)
BITE_NAMES: Final = {bite: NAMES[bite] for bite, _ in BITES}


def has(w: Work, hid: str, ability: str) -> bool:
    """The hero (alive) has ``ability`` at its level (levels change only where a step ends)."""
    h = w.s["heroes"].get(hid)
    return h is not None and h["alive"] and h["level"] in LEVELS[ability]


# ---------------------------------------------------------------------------------------
# Creature attacks a hero is immune to (content 3.3)


def shielded(w: Work, cid: str, hid: str) -> bool:
    """Whether ``hid``'s own ability forbids declaring ``cid``'s attack on it (content 3.2, 3.3):
    Eleanor L3 against skeleton pikes (``ele.pikemastery``), Riel against gorgons (``rie.avoid``),
    Kaerdrak L3 against any creature attack from Manhattan distance 2 or more, measured from
    the nearer pad cell (``kae.aura``; rulings 42, 48: Zorkal's pitchfork is melee)."""
    if hid == "riel":
        return cid != ZORKAL and w.s["monsters"][cid]["type"] == "gorgon"
    if hid == "eleanor":
        return has(w, hid, "ele.pikemastery") and cid != ZORKAL and w.s["monsters"][cid]["type"] == "skeleton"
    if hid == "kaerdrak" and has(w, hid, "kae.aura"):
        cell = w.s["heroes"][hid]["cell"]
        assert cell is not None
        return manhattan(w.creature_cell(cid), cell) >= 2
    return False


def manhattan(a: int, b: int) -> int:
    """The smallest Manhattan distance between the cells of two figures (either pad cell)."""
    width = BOARD.width
    return min(
        abs(ca % width - cb % width) + abs(ca // width - cb // width)
        for ca in BOARD.cells_of(a)
        for cb in BOARD.cells_of(b)
    )


# ---------------------------------------------------------------------------------------
# Actions and damage


def fencing(w: Work, hid: str, h: HeroState) -> int:
    """``rag.fencing`` (content 2.2, 2.3): Ragnar gets +1 action in the Attack phase if he did not
    move this hero turn (ruling 38); counted when the phase opens (``turns.enter_phase``)."""
    if hid != "ragnar" or h["moved"]:
        return 0
    w.emit(
        "fencing",
        f"{HEROES[hid]['name']} did not move: fencing gives him 1 more action this attack step.",
        hero=hid,
        ability="rag.fencing",
    )
    return 1


def weapon_damage(w: Work, hid: str, cid: str, damage: int) -> int:
    """``rie.huntress`` (content 2.3): from L2 Riel's weapon attacks deal 2 to bog beasts."""
    monster = w.s["monsters"].get(cid) if hid == "riel" and has(w, hid, "rie.huntress") else None
    if monster is None or monster["type"] != "bogbeast" or damage >= 2:
        return damage
    w.emit(
        "swamp_huntress",
        f"{HEROES[hid]['name']}'s swamp huntress: 2 damage to the bog beast.",
        hero=hid,
        ability="rie.huntress",
    )
    return 2


def acted(h: HeroState) -> None:
    """The hero spent an action this hero turn (``actions.py`` notes it after any command that
    lowers its actions: an attack, a spell, inexorable advance; ruling P6)."""
    if ACTED not in h["used"]:
        h["used"].append(ACTED)


# ---------------------------------------------------------------------------------------
# Kills and levels


def on_kill(w: Work, by: str, mtype: str) -> list[str]:
    """A monster of ``mtype`` was killed and credited to hero ``by`` (content 2.2 XP).  Applies
    ``rie.spirit`` (L2, once per hero turn: a strong kill in the Attack phase gives +1 action
    this phase) and returns the bites that heal Vargen 1 each (``var.fresh`` L1 rats and bog
    beasts, ``var.stale`` L2 skeletons and zombies, ``var.brutal`` L3 strong monsters; each its
    own once-per-turn use).  A bite is spent only when it heals or cures something (ruling P3),
    so the bites returned are spent here and the caller heals 1 for each."""
    s = w.s
    h = s["heroes"][by]
    if h["cell"] is None or h["life"] <= 0:
        return []
    strong = MONSTERS[mtype]["class"] == "strong"
    if (
        by == "riel"
        and strong
        and has(w, by, "rie.spirit")
        and s["phase"] == ATTACK_STEP
        and "rie.spirit" not in h["used"]
    ):
        h["used"].append("rie.spirit")
        h["actions"] += 1
        w.emit(
            "combat_spirit",
            f"Riel's combat spirit: 1 more action this attack step ({h['actions']} left).",
            hero=by,
            actions=h["actions"],
            ability="rie.spirit",
        )
    if by != "vargen" or not (h["rot"] or h["life"] < max_life(s["options"], by, h["level"])):
        return []
    bites = [b for b, types in BITES if has(w, by, b) and mtype in types and b not in h["used"]]
    h["used"] += bites
    return bites


def on_level(w: Work, hid: str) -> None:
    """``rag.blood`` (content 2.3, 3.2): reaching L2 ends any Rot Ragnar already has."""
    h = w.s["heroes"][hid]
    if hid == "ragnar" and has(w, hid, "rag.blood") and h["rot"]:
        h["rot"] = False
        w.emit(
            "rot_ended",
            f"{HEROES[hid]['name']}'s transmuted blood ends the Mummy Rot.",
            hero=hid,
            ability="rag.blood",
        )


def rot_immune(w: Work, hid: str) -> bool:
    """``rag.blood``: Ragnar L2+ never becomes Rotting (content 3.2)."""
    return hid == "ragnar" and has(w, hid, "rag.blood")
