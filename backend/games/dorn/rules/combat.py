"""Attacks, damage, deaths, blood, XP and levels (RB Actions, Monster Attack, Special Rules;
content 2.2, 3.3, 5.2 K4, 5.5, 5.7, 5.9)."""

from __future__ import annotations

from typing import Any, Final

from ..board import BOARD, Cell
from ..catalog import (
    BLOOD_CAP,
    HEROES,
    MONSTERS,
    TIE_BREAK,
    ZORKAL_STATS,
    level_for_xp,
)
from ..state import KEEPER, ZORKAL, Work, cell_name, discard_blessing, placed, seat_words, xy
from . import obstacles, reach, tactics, triggers, variants

# ---------------------------------------------------------------------------------------
# Blood, life, death


def gain_blood(w: Work, n: int) -> None:
    """Each hero life lost is a Blood Drop for the Keeper, pool capped at 16 (RB; ruling 26:
    drops above the cap are lost)."""
    s = w.s
    s["blood"] = min(BLOOD_CAP, s["blood"] + n)


def aegis_key(hid: str) -> str:
    """B08 Aegis's lasting effect on one hero (rules/effects.py key)."""
    return "B08:" + hid


def under_aegis(w: Work, hid: str) -> bool:
    """B08 Aegis (content 4.2, 4.5): during the Keeper turn after it was played (its ``k``) the
    user loses no life from any source: attacks, Rot, Rituals (a Blessing-class protection)."""
    found = w.s["effects"].get(aegis_key(hid))
    return found is not None and found["k"] == w.s["k"]


def lose_life(w: Work, hid: str, n: int, why: str) -> int:
    """The hero loses up to ``n`` life (never below 0); each point is a Blood Drop.  Death is
    checked by the caller (attacks resolve together first, ruling 12).  Returns the life lost:
    none under Aegis."""
    h = w.s["heroes"][hid]
    lost = min(n, h["life"])
    if lost <= 0:
        return 0
    if under_aegis(w, hid):
        w.emit("aegis", f"{HEROES[hid]['name']} loses no life ({why}): the Aegis holds.", hero=hid)
        return 0
    h["life"] -= lost
    gain_blood(w, lost)
    name = HEROES[hid]["name"]
    w.emit(
        "hero_hurt",
        f"{name} loses {lost} life ({why}); the Keeper's Blood pool is {w.s['blood']}.",
        hero=hid,
        amount=lost,
        life=h["life"],
        blood=w.s["blood"],
    )
    return lost


def check_deaths(w: Work) -> None:
    """Heroes at 0 life die (RB Death of a Hero): treasure cards destroyed, artifacts drop on
    the primary cell, XP lost; the seat's Blessing goes when it has no living hero (ruling 24)."""
    s = w.s
    for hid in TIE_BREAK:
        h = s["heroes"].get(hid)
        if h is None or not h["alive"] or h["life"] > 0:
            continue
        # A hero away on an Astral Journey (Rot ticks there) drops what it carries on the cell it
        # left (ruling B1).
        cell = placed(h["cell"] if h["away"] is None else h["away"])
        where = f"at {cell_name(cell)}" if h["away"] is None else "on its Astral Journey"
        there = "there" if h["away"] is None else f"at {cell_name(cell)}, where it left"
        h["alive"] = False
        h["cell"] = h["away"] = None  # ``cell`` above: where it died
        destroyed = len(h["cards"])
        h["cards"] = []
        dropped = []
        for aid in [aid for aid, a in s["artifacts"].items() if a["carrier"] == hid]:
            a = w.artifact(aid)
            a["carrier"] = None
            a["cell"] = cell
            dropped.append(aid)
        w.moved()
        w.emit(
            "hero_died",
            f"{HEROES[hid]['name']} dies {where}"
            + (f"; {len(dropped)} artifact(s) fall {there}" if dropped else "")
            + (f"; {destroyed} treasure card(s) are destroyed" if destroyed else "")
            + ".",
            hero=hid,
            cell=xy(cell),
            artifacts=dropped,
            cards_destroyed=destroyed,
        )
        seat = h["seat"]
        if not any(s["heroes"][o]["alive"] for o in s["seats"][seat]) and s["blessings"].get(seat):
            card = discard_blessing(w, seat)
            w.emit(
                "blessing_discarded",
                f"{seat_words(s, seat, start=True)} has no living hero left; that player's Blessing is discarded unplayed.",
                seat=seat,
                card=card,
            )


def heal(w: Work, hid: str, n: int, why: str, ability: str | None = None) -> int:
    """Heal up to ``n``, never above max life; from the supply, never from the Keeper's pool
    (ruling 27).  Any healing removes Mummy Rot (content 3.2).  ``ability``: the hero ability
    that heals, named in the event (the simulator's usage tally)."""
    h = w.s["heroes"][hid]
    top = variants.max_life(w.s["options"], hid, h["level"])
    gained = max(0, min(n, top - h["life"]))
    h["life"] += gained
    cured = h["rot"]
    h["rot"] = False
    if gained or cured:
        named: dict[str, Any] = {"ability": ability} if ability is not None else {}
        w.emit(
            "hero_healed",
            f"{HEROES[hid]['name']} heals {gained} ({why})" + ("; the rot is gone" if cured else "") + ".",
            hero=hid,
            amount=gained,
            life=h["life"],
            **named,
        )
    return gained


# ---------------------------------------------------------------------------------------
# Creatures taking damage


def damage_creature(w: Work, cid: str, n: int, by: str | None, why: str) -> bool:
    """Deal ``n`` damage to a monster or Zorkal; a kill gives its XP to ``by`` (ruling 22).
    Returns True if the creature died."""
    s = w.s
    if cid == ZORKAL:
        z = s["zorkal"]
        z["life"] = max(0, z["life"] - n)
        w.emit("zorkal_hurt", f"Zorkal takes {n} damage ({why}); life {z['life']}.", amount=n, life=z["life"])
        if z["life"] == 0:
            w.moved()
            w.emit("zorkal_died", "Zorkal falls: the heroes have won.", by=by)
            finish(w, "heroes_win", "Zorkal's life reached 0.")
        return z["life"] == 0
    m = w.monster(cid)
    kind = MONSTERS[m["type"]]
    m["dmg"] += n
    if m["dmg"] < kind["life"]:
        w.emit(
            "monster_hurt",
            f"The {kind['name']} at {cell_name(m['cell'])} takes {n} damage ({why}).",
            monster=cid,
            amount=n,
        )
        return False
    del s["monsters"][cid]
    w.moved()
    if kind["class"] == "strong":
        s["bag"][m["type"]] += 1  # killed strong tokens go back into the bag (ruling 49)
    text = f"The {kind['name']} at {cell_name(m['cell'])} is killed ({why})"
    if by is not None:
        h = s["heroes"][by]
        h["xp"] += kind["xp"]
        text += f"; {HEROES[by]['name']} gains {kind['xp']} XP"
    w.emit("monster_killed", text + ".", monster=cid, type=m["type"], by=by, xp=kind["xp"] if by else 0)
    if by is not None:
        # Kill triggers (``rules/triggers.py``): combat spirit, Vargen's bites.
        for bite in triggers.on_kill(w, by, m["type"]):
            heal(w, by, 1, f"Vargen's {triggers.BITE_NAMES[bite]}", bite)
    return True


def check_levels(w: Work) -> None:
    """Level 2 at 5 XP, level 3 at 12 (RB); gaining a level adds the difference in max life to
    current life (ruling 23).  Run where a step ends (``turns.py``), never mid-step, so a level
    and its abilities apply from the next phase (content 2.2; ruling V9)."""
    for hid, h in w.s["heroes"].items():
        if not h["alive"]:
            continue
        new = level_for_xp(h["xp"])
        if new > h["level"]:
            old = h["level"]
            options = w.s["options"]
            h["life"] += variants.max_life(options, hid, new) - variants.max_life(options, hid, old)
            h["level"] = new
            w.emit(
                "hero_level",
                f"{HEROES[hid]['name']} reaches level {new} (life {h['life']}).",
                hero=hid,
                level=new,
                life=h["life"],
            )
            triggers.on_level(w, hid)  # transmuted blood ends Ragnar's Rot (rag.blood)


def finish(w: Work, result: str, reason: str) -> None:
    """End the game; the first decisive result stands."""
    s = w.s
    if s["outcome"] is not None:
        return
    heroes = sorted(seat for seat in s["seats"])
    winners = heroes if result == "heroes_win" else ([KEEPER] if result == "keeper_wins" else [])
    s["outcome"] = {"result": result, "winners": winners, "reason": reason}
    w.emit("game_over", reason, result=result, winners=winners)


def check_victory(w: Work) -> None:
    """Victory checks after each resolved effect (content 5.9): Zorkal at 0 first, then no
    hero alive (the chamber check runs at K5 only)."""
    s = w.s
    if s["outcome"] is not None:
        return
    if s["zorkal"]["life"] <= 0:
        finish(w, "heroes_win", "Zorkal's life reached 0.")
        return
    # A loop, not ``any`` over a generator: this runs several times in every apply.
    for h in s["heroes"].values():
        if h["alive"]:
            return
    finish(w, "keeper_wins", "Every hero is dead.")


# ---------------------------------------------------------------------------------------
# Heroes attacking (H3): the basic attacks of content 2.3, per level


def basic_attacks(hid: str, level: int) -> list[dict[str, Any]]:
    return [a for a in HEROES[hid]["basic"] if level in a["levels"]]


def attack_range(attack: dict[str, Any], level: int) -> int | None:
    """A shot's or a spell's range at the hero's level (None for melee and pike)."""
    ranges = attack.get("range")
    return int(ranges[level - 1]) if ranges else None


def hero_attack_reaches(w: Work, hid: str, attack: dict[str, Any], cid: str) -> bool:
    h = w.s["heroes"][hid]
    src = placed(h["cell"])
    dst = w.creature_cell(cid)
    reach_kind = attack["reach"]
    if reach_kind == "adjacent":
        return reach.adjacent(src, dst)
    if reach_kind == "shot":
        return reach.shot_in_range(w, src, dst, attack["range"][h["level"] - 1], True)
    if reach_kind == "pike":
        return reach.pike_reach(w, src, dst, True)
    if reach_kind == "magic":
        return reach.magic_distance(w, src, dst, attack["range"][h["level"] - 1]) is not None
    raise ValueError(reach_kind)


# The farthest a hero's attack of each kind reaches, in Manhattan distance (``hero_attack_reaches``):
# fixed for adjacent and pike; a shot's and a spell's range (a magic path is never shorter).
_HERO_REACH: Final = {"adjacent": 1, "pike": 2}
_RANGED: Final = ("shot", "magic")


def hero_targets(w: Work, hid: str) -> list[tuple[str, str]]:
    """(attack id, target id) pairs the hero may use now in H3: an action left (``attacks_of``)."""
    s = w.s
    h = s["heroes"][hid]
    if h["cell"] is None or h["actions"] <= 0:
        return []
    return attacks_of(w, hid, basic_attacks(hid, h["level"]))


def attacks_of(w: Work, hid: str, attacks: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(attack id, target id) pairs for these basic attacks, whatever the actions left: the
    attack's life cost payable with 2+ life (ruling 32); a creature in reach (Zorkal once the
    gate is open, unless he is immune to that attack, content 2.4 cloak); an obstacle in reach
    for weapon attacks and magic missile (content 6.3; ``obstacles.targets``)."""
    s = w.s
    h = s["heroes"][hid]
    if h["cell"] is None or not tactics.may_attack(s, hid):
        return []  # a hero that fled makes no weapon attacks and casts no spells (content 6.4)
    creatures = list(s["monsters"])
    if w.zorkal_active():
        creatures.append(ZORKAL)
    footprint: tuple[tuple[Cell, ...], ...] = BOARD.footprint
    cells = [footprint[w.creature_cell(cid)] for cid in creatures]
    out = []
    for attack in attacks:
        if attack["life_cost"] and h["life"] < attack["life_cost"] + 1:
            continue
        # A creature farther than the attack reaches in Manhattan distance is not asked: each kind
        # of reach is at most that far (adjacent 1, pike 2, a shot its range, magic a path).
        reach_kind = attack["reach"]
        radius = _HERO_REACH.get(reach_kind) or (
            int(attack["range"][h["level"] - 1]) if reach_kind in _RANGED else None
        )
        zone = _within(placed(h["cell"]), radius) if radius is not None else None
        for k in range(len(creatures)):
            cid = creatures[k]
            if cid == ZORKAL and not attack["zorkal"]:
                continue
            if zone is not None and not _touches(zone, cells[k]):
                continue
            if hero_attack_reaches(w, hid, attack, cid):
                out.append((attack["id"], cid))
        if attack["obstacles"] and s["obstacles"]:
            rng = attack_range(attack, h["level"])
            out += [(attack["id"], oid) for oid in obstacles.targets(w, h["cell"], attack["reach"], rng)]
    return out


# ---------------------------------------------------------------------------------------
# Creatures attacking (K4)


def creature_attacks_allowed(w: Work, cid: str) -> int:
    """Attacks a creature may still declare this Keeper turn."""
    if cid == ZORKAL:
        return w.s["zorkal"]["atk"] if w.zorkal_active() else 0
    return w.s["monsters"][cid]["atk"]


def creature_may_target(w: Work, cid: str, hid: str) -> bool:
    """Creature targeting restrictions (content 3.3): an on-board hero, not in Argos or on the
    Herbalist (ruling 36), not immune by its own ability (``triggers.shielded``: pike mastery,
    avoid arrows, Kaerdrak's aura), within reach of the attack kind."""
    h = w.s["heroes"][hid]
    if h["cell"] is None or h["cell"] in BOARD.safe or triggers.shielded(w, cid, hid):
        return False
    src = w.creature_cell(cid)
    if cid == ZORKAL:
        return reach.adjacent(src, h["cell"])  # pitchfork: melee
    kind = MONSTERS[w.s["monsters"][cid]["type"]]
    if kind["reach"] == "adjacent":
        return reach.adjacent(src, h["cell"])
    if kind["reach"] == "pike":  # skeleton: exactly 2 away, never adjacent (ruling 7)
        return reach.pike_reach(w, src, h["cell"], False)
    if kind["reach"] == "shot":  # gorgon: range 3 with LOS, heroes block (ruling 4)
        return reach.shot_in_range(w, src, h["cell"], kind["range"], False)
    raise ValueError(kind["reach"])


# The farthest any creature attacks, in Manhattan distance between the nearer cells (content
# 3.3): adjacent 1, a skeleton's pike 2, a gorgon's shot its range.
_REACH: Final = max([2] + [int(m["range"]) for m in MONSTERS.values() if m.get("range") is not None])
_XY: Final = tuple((i % BOARD.width, i // BOARD.width) for i in range(BOARD.width * BOARD.height))


def attack_targets(w: Work, figure: str | None = None, *, first: bool = False) -> list[tuple[str, str]]:
    """(creature, hero) pairs the Keeper may declare now (only ``figure``'s when given; only the
    first pair found when ``first``, to ask whether there is any)."""
    s = w.s
    creatures = [
        mid for mid, m in s["monsters"].items() if m["atk"] > 0 and (figure is None or mid == figure)
    ]
    if (figure is None or figure == ZORKAL) and w.zorkal_active() and s["zorkal"]["atk"] > 0:
        creatures.append(ZORKAL)
    heroes = [hid for hid in w.on_board_heroes() if s["heroes"][hid]["cell"] not in BOARD.safe]
    # Each hero's reach zone: a pair farther apart than any creature reaches is not asked.
    zones = [_within(placed(s["heroes"][hid]["cell"]), _REACH) for hid in heroes]
    # Cells as the table's objects (``board.Cell``), and a loop by index: compiled, ``zip`` is a
    # call looked up by name, for each creature.
    footprint: tuple[tuple[Cell, ...], ...] = BOARD.footprint
    out = []
    for cid in creatures:
        cells = footprint[w.creature_cell(cid)]
        for k in range(len(heroes)):
            if not _touches(zones[k], cells):
                continue
            hid = heroes[k]
            if creature_may_target(w, cid, hid):
                out.append((cid, hid))
                if first:
                    return out
    return out


def _touches(zone: frozenset[int], cells: tuple[Cell, ...]) -> bool:
    """Whether a figure on ``cells`` stands in ``zone``: ``not zone.isdisjoint(cells)``, which
    compiled is a method looked up by name, at every creature and hero (``any`` of a generator
    compiles to a loop)."""
    return any(c in zone for c in cells)


def _within(cell: int, radius: int) -> frozenset[int]:
    """The cells within ``radius`` (Manhattan) of a figure on ``cell`` (either cell of a pad)."""
    zone = _ZONES.get((cell, radius))
    if zone is None:
        found: set[int] = set()
        for c in BOARD.footprint[cell]:
            hx, hy = _XY[c]
            for dx in range(-radius, radius + 1):
                for dy in range(abs(dx) - radius, radius - abs(dx) + 1):
                    if BOARD.in_bounds(hx + dx, hy + dy):
                        found.add((hy + dy) * BOARD.width + hx + dx)
        zone = _ZONES[(cell, radius)] = frozenset(found)
    return zone


# By (cell, radius): at most a few radii (the reaches of the attacks) per board cell.
_ZONES: Final[dict[tuple[int, int], frozenset[int]]] = {}


def zorkal_attacks(level: int) -> int:
    attacks: int = ZORKAL_STATS["attacks"][level - 1]
    return attacks


def resolve_attacks(w: Work) -> None:
    """K4.3: every unparried attack deals 1 (ruling 8), all together; a mummy hit makes the
    hero Rotting (never Ragnar L2+, ``rag.blood``); then deaths (ruling 12)."""
    s = w.s
    for a in s["attacks"]:
        if a["parried"]:
            continue
        hid = a["target"]
        h = s["heroes"][hid]
        if h["life"] <= 0:
            continue
        hurt = lose_life(w, hid, 1, f"hit by {a['name']}")
        if hurt and a["kind"] == "mummy" and not h["rot"]:
            if triggers.rot_immune(w, hid):
                w.emit(
                    "rot_resisted",
                    f"{HEROES[hid]['name']}'s transmuted blood resists the Mummy Rot.",
                    hero=hid,
                    ability="rag.blood",
                )
            else:
                h["rot"] = True
                w.emit("hero_rotting", f"{HEROES[hid]['name']} is Rotting (Mummy Rot).", hero=hid)
    s["attacks"] = []
    check_deaths(w)
