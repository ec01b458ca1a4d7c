"""Treasure tokens and cards, items, artifacts (RB Treasure Cards, Artifacts; content 4.3, 4.4,
5.6; rulings 29, 30, 33-35, 47).

Immediate cards are resolved in the open and discarded.  Item cards go to the finder's hand:
every hero seat sees them, the Keeper and spectators only see how many a hero holds.
"""

from __future__ import annotations

from typing import Any, Final

from backend.engine.core import Action

from ..board import BOARD
from ..catalog import GATE_NEEDS, HEROES, MONSTERS, TREASURES
from ..state import KEEPER, PromptState, Work, cell_name, placed, xy
from . import combat, reach, rituals, summoning, tactics
from .movement import creature_may_enter, hero_may_stop
from .prompts import PromptRule, ask
from .summoning import below_cap


def hero_seats(w: Work) -> frozenset[str]:
    return frozenset(w.s["seats"])


def draw_card(w: Work) -> str | None:
    s = w.s
    if not s["treasure_deck"]:
        # Content 4.3: never happens with 24 cards for 24 tokens; reshuffle the discard if a
        # rules change ever empties the deck.
        if not s["treasure_discard"]:
            return None
        s["treasure_deck"] = w.rng.shuffled(s["treasure_discard"])
        s["treasure_discard"] = []
    return s["treasure_deck"].pop(0)


def enter_cell(w: Work, hid: str, cell: int) -> None:
    """A hero entering a Treasure-token cell by any means takes the token and draws a card
    (ruling 35)."""
    s = w.s
    if cell not in s["tokens"]:
        return
    s["tokens"].remove(cell)
    card = draw_card(w)
    name = HEROES[hid]["name"]
    if card is None:
        w.emit("treasure_empty", f"{name} takes the treasure token at {cell_name(cell)}: nothing is left.")
        return
    info = TREASURES[card]
    if info["kind"] == "item":
        s["heroes"][hid]["cards"].append(card)
        w.emit(
            "treasure_item",
            f"{name} finds {info['name']} at {cell_name(cell)}.",
            seen_by=hero_seats(w),
            hero=hid,
            card=card,
            cell=xy(cell),
        )
        w.emit("treasure_found", f"{name} finds an item at {cell_name(cell)}.", hero=hid, cell=xy(cell))
        return
    s["treasure_discard"].append(card)
    w.emit(
        "treasure_immediate",
        f"{name} finds {info['name']} at {cell_name(cell)}.",
        hero=hid,
        card=card,
        cell=xy(cell),
    )
    effect = info["effect"]
    if effect == "rubble":
        # T03: no more steps this turn except Blessing-class allowance (content 4.5).
        h = s["heroes"][hid]
        h["mv"][0] = h["mv"][1] = 0
        h["rubble"] = True
    elif effect == "hidden_monster":
        hidden_monster(w, hid, info["monster"])


def hidden_monster(w: Work, hid: str, mtype: str) -> None:
    """T04-T06: the Keeper places the monster on a legal monster cell adjacent to the finder;
    none if there is no such cell or the type is at its cap (ruling 47)."""
    cell = placed(w.s["heroes"][hid]["cell"])
    cells = sorted(
        {n for c in BOARD.cells_of(cell) for n in BOARD.neighbours[c] if creature_may_enter(w, "", n)}
    )
    kind = MONSTERS[mtype]
    if not cells or not below_cap(w, mtype):
        w.emit("hidden_none", f"No {kind['name']} can appear: no room or none left.", type=mtype)
        return
    ask(
        w,
        HIDDEN_MONSTER,
        KEEPER,
        f"Place the hidden {kind['name']} on a free cell next to {HEROES[hid]['name']}.",
        monster=mtype,
        finder=hid,
        cells=cells,
    )


HIDDEN_MONSTER: Final = "hidden_monster"


def _hidden_cells(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "place_monster", "to": xy(c)} for c in p["data"]["cells"]]


def _place_hidden(w: Work, seat: str, p: PromptState, a: Action) -> None:
    mtype = p["data"]["monster"]
    summoning.place_monster(w, mtype, BOARD.idx(*a["to"]), keeper_turn=False, why="hidden in the treasure")
    finder = w.s["heroes"][p["data"]["finder"]]
    if tactics.playing(w.s) and finder["cell"] is not None:
        # Tactics and Flight: the monster is next to the finder, who stops there (content 6.4).
        finder["mv"] = [0, 0, 0]


# The default is the first listed cell, in reading order (content 5.10).
PROMPTS: Final[dict[str, PromptRule]] = {HIDDEN_MONSTER: PromptRule(_hidden_cells, _place_hidden)}


# ---------------------------------------------------------------------------------------
# Items


def item_uses(w: Work, hid: str) -> list[dict[str, Any]]:
    """Item actions the hero may take now: one item per hero per hero turn (RB), in the card's
    window (H2 movement / H3 attack), a life cost needs 2+ life (ruling 32)."""
    s = w.s
    h = s["heroes"][hid]
    if h["cell"] is None or h["item_used"]:
        return []
    out: list[dict[str, Any]] = []
    for card in sorted(set(h["cards"])):
        info = TREASURES[card]
        if s["phase"] not in info["windows"] or (info["life_cost"] and h["life"] < info["life_cost"] + 1):
            continue
        base = {"type": "use_item", "hero": hid, "card": card}
        effect = info["effect"]
        if effect == "heal_other":
            out.extend({**base, "target": o} for o in w.on_board_heroes() if o != hid)
        elif effect == "magic_arrow":  # Zorkal is immune to treasure cards (cloak)
            for mid in s["monsters"]:
                if reach.magic_distance(w, h["cell"], w.creature_cell(mid), info["range"]) is not None:
                    out.append({**base, "target": mid})
        elif effect == "teleport":
            dist = reach.teleport_distances(w, h["cell"], info["range"])
            out.extend(
                {**base, "to": xy(c)}
                for c in sorted(dist)
                if c not in BOARD.cells_of(h["cell"]) and hero_may_stop(w, hid, c)
            )
        else:
            out.append(base)
    return out


def use_item(w: Work, action: dict[str, Any]) -> None:
    s = w.s
    hid, card = action["hero"], action["card"]
    h = s["heroes"][hid]
    info = TREASURES[card]
    name = HEROES[hid]["name"]
    h["cards"].remove(card)
    h["item_used"] = True
    s["treasure_discard"].append(card)
    w.emit("item_used", f"{name} uses {info['name']}.", hero=hid, card=card)
    if info["life_cost"]:
        combat.lose_life(w, hid, info["life_cost"], f"cost of {info['name']}")
    effect = info["effect"]
    if effect == "heal_self":
        combat.heal(w, hid, info["heal"], info["name"])
    elif effect == "heal_other":
        combat.heal(w, action["target"], info["heal"], info["name"])
    elif effect == "extra_move":
        if not h.get("rubble"):
            h["mv"][0] += info["move"]  # an item-class bonus (content 4.5)
    elif effect == "extra_action":
        if s["phase"] == "H3":
            h["actions"] += info["actions"]
        else:
            h["bonus_actions"] += info["actions"]
    elif effect == "medusa":
        dist = reach.area_distances(w, placed(h["cell"]), info["area"])
        for mid, m in s["monsters"].items():
            if reach.within(dist, BOARD.cells_of(m["cell"])) is not None:
                w.monster(mid)["no_attack"] = True
                w.emit(
                    "monster_stunned", f"{w.creature_name(mid)} may not attack next Keeper turn.", monster=mid
                )
    elif effect == "magic_arrow":
        combat.damage_creature(w, action["target"], info["damage"], hid, info["name"])
    elif effect == "scorching":
        dist = reach.area_distances(w, placed(h["cell"]), info["area"])
        for mid in list(s["monsters"]):
            m = s["monsters"][mid]
            if reach.within(dist, BOARD.cells_of(m["cell"])) is not None:
                combat.damage_creature(w, mid, info["damage"], hid, info["name"])
        for other in w.on_board_heroes():
            if (
                other != hid
                and reach.within(dist, BOARD.cells_of(placed(s["heroes"][other]["cell"]))) is not None
            ):
                combat.lose_life(w, other, info["damage"], info["name"])
    elif effect == "teleport":
        to = BOARD.idx(*action["to"])
        h["cell"] = to
        h["moved"] = True
        w.moved()
        w.emit("hero_teleported", f"{name} teleports to {cell_name(to)}.", hero=hid, cell=xy(to))
        rituals.thorny_portals(w, hid, to, by_blessing=False)  # R10 (content 4.5: Scroll of Teleport)
        if h["alive"]:
            enter_cell(w, hid, to)
    combat.check_deaths(w)


# ---------------------------------------------------------------------------------------
# Artifacts


def artifacts_here(w: Work, hid: str) -> list[str]:
    """The artifacts lying where the hero stands: on a teleport pad, on either of its cells (RB
    "A hero on a teleport exists on both spaces simultaneously"; content 1.7.4; ruling V10)."""
    cell = w.s["heroes"][hid]["cell"]
    if cell is None:
        return []
    cells = BOARD.cells_of(cell)
    return [aid for aid, a in w.s["artifacts"].items() if a["carrier"] is None and a["cell"] in cells]


def carried(w: Work, hid: str) -> list[str]:
    return [aid for aid, a in w.s["artifacts"].items() if a["carrier"] == hid]


def pick_up(w: Work, hid: str, aid: str) -> None:
    """Pick up an artifact on the hero's cell; the first pick-up of each artifact gives the
    Keeper one extra strong summon on his next turn (RB; ruling 30)."""
    s = w.s
    a = w.artifact(aid)
    a["carrier"], a["cell"] = hid, None
    text = f"{HEROES[hid]['name']} picks up an artifact."
    if not a["picked"]:
        a["picked"] = True
        s["bonus"] += 1
        text += " First pick-up: the Keeper may summon an extra strong monster next turn."
    w.emit("artifact_picked", text, hero=hid, artifact=aid)


def drop(w: Work, hid: str, aid: str) -> None:
    a = w.artifact(aid)
    cell = placed(w.s["heroes"][hid]["cell"])  # the primary cell on a pad (ruling 40)
    a["carrier"], a["cell"] = None, cell
    w.emit(
        "artifact_dropped",
        f"{HEROES[hid]['name']} drops an artifact at {cell_name(cell)}.",
        hero=hid,
        artifact=aid,
    )


def artifacts_in_chamber(w: Work) -> int:
    """Artifacts lying on a chamber cell or carried by a hero standing there (ruling 29)."""
    s = w.s
    count = 0
    for a in s["artifacts"].values():
        if a["carrier"] is None:
            count += a["cell"] is not None and a["cell"] in BOARD.chamber
        else:
            cell = s["heroes"][a["carrier"]]["cell"]
            count += cell is not None and any(c in BOARD.chamber for c in BOARD.cells_of(cell))
    return count


def gate_check(w: Work) -> None:
    """K0: the gate opens for good once 3+ artifacts are in the chamber (RB; ruling 46)."""
    s = w.s
    if not s["gate"] and artifacts_in_chamber(w) >= GATE_NEEDS:
        s["gate"] = True
        w.moved()
        w.emit("gate_opened", "The Gate of Doom opens: Zorkal will move and attack.")
