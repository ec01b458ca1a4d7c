"""Hero sheets in play: attributes, EXP and levels, resources, Health, placement, and who
stands with whom (the combo group, R33; an ally beside the Minstrel, R47).

Hero records are dicts (see ``new_hero``).  Per-hero powers that only adjust
numbers live here; powers that open a decision live with the rule they touch
(Faith in turn.py, Tune in rolls.py, the Doll in damage.py...).
"""

from __future__ import annotations

from typing import Any, Literal

from ..content import (
    CHARTS,
    CITY,
    EXP,
    GRAND_MASTER,
    HEROES,
    LAKE,
    LANDS,
    NODE_NEIGHBOURS,
    NODE_TERRAIN,
    QUESTS,
    TERRAINS,
    WOLF_ICONS,
)
from ..state import ADVENTURE, BATTLE, Hero, State
from .flow import Ctx

Attribute = Literal["combat", "search", "knowledge"]
# Growth-list entries that raise one number, and the sheet key each raises (stored keys: Hero).
GROWTH_KEYS: dict[str, Literal["combat", "search", "knowledge", "pd", "fd"]] = {
    "combat": "combat",
    "search": "search",
    "knowledge": "knowledge",
    "plains_danger": "pd",
    "forest_danger": "fd",
}


def new_hero(hid: str) -> Hero:
    """A level-1 hero (content §8.2 step 2)."""
    d = HEROES[hid]
    res = d["resource"]
    return {
        "id": hid,
        "pos": LAKE if d["start"] == "lake" else CITY,
        "hp": d["max_health"],
        "max_hp": d["max_health"],
        "res": res["start"] if res else 0,
        "max_res": (1 if res["max"] == "level" else res["max"]) if res else 0,
        "gold": d["gold"]["start"] if "gold" in d else 0,
        "exp": 0,
        "level": 1,
        "move": d["move"],
        "pd": d["plains_danger"],
        "fd": d["forest_danger"],
        "combat": d["combat"],
        "search": d["search"],
        "knowledge": d["knowledge"],
        "regain": d["regain"]["base"] if "regain" in d else 1,
        "l6": False,
        "trapped": None,
        "dead": False,
        "used": (),
    }


# The sheet's short stored keys by their rulebook names (renaming the keys would change hashes).
def plains_danger(h: Hero) -> int:
    return h["pd"]


def forest_danger(h: Hero) -> int:
    return h["fd"]


def level6_strike(h: Hero) -> bool:
    """R57: the Grand Master's Level 6 Strike, gained from his growth list."""
    return h["l6"]


def has_pool(h: Hero) -> bool:
    return HEROES[h["id"]]["resource"] is not None


def points(h: Hero) -> int:
    """Resource points the hero may spend or absorb with (Prince: Servants + Gold)."""
    return h["res"] + h["gold"]


def lycan(h: Hero) -> bool:
    """R44 Lycanthropy: the Werewolf is in wolf form while his EXP sits on an icon."""
    return h["id"] == "werewolf" and h["exp"] in WOLF_ICONS


def attr(h: Hero, name: Attribute) -> int:
    """Current Combat/Search/Knowledge with Lycanthropy and Thirst (floors at 0)."""
    v = h[name]
    if h["id"] == "werewolf" and h["exp"] in WOLF_ICONS:
        v += EXP["lycan"][name]
    if h["id"] == "vampire" and h["res"] == 0:
        v += EXP["thirst"][name]  # R51 Thirst for Blood
    return max(0, v)


def pool_base(s: State, h: Hero, kind: str, quest: str | None) -> int:
    """Dice a hero rolls for a scored roll before resources and Tune (§4.3, §7.3, §4.5)."""
    if kind == "adventure":
        return plains_danger(h) if node_class(s, h["pos"]) == "plains" else forest_danger(h)
    if kind == "quest":
        q = QUESTS[quest] if quest else None
        assert q is not None
        n = attr(h, q["attribute"])
        if q["magical"] and h["id"] == "magician" and q["attribute"] in ("search", "knowledge"):
            n += 2  # Magic Mastery
        if q["magical"] and h["id"] == GRAND_MASTER:
            n += 1  # R57 Arcane Insight
        return n
    n = attr(h, "combat")
    if s.weapons:
        n += 1  # R40 Anti-Dragon Weapons, after the Werewolf/Vampire modifiers
    return n


def node_class(s: State, node: str) -> str:
    """Terrain class of a node now: Belk razed → road (R42), Fang tiles by class (§9.2)."""
    if node in s.lands:
        return LANDS[s.lands[node]]["class"]
    if node == "belk" and s.razed:
        return "road"
    return TERRAINS[NODE_TERRAIN[node]]["class"]


# -- EXP and levels (§5) ---------------------------------------------------------


def level_for(hid: str, exp: int) -> int:
    track = EXP["grand_master"] if hid == GRAND_MASTER else EXP["standard"]
    top: int = track["max_level"]
    per: int = track["per_level"]
    return min(top, 1 + exp // per)


def exp_cap(hid: str) -> int:
    cap: int = EXP["grand_master"]["cap"] if hid == GRAND_MASTER else EXP["standard"]["cap"]
    return cap


def gain_exp(ctx: Ctx, h: Hero, n: int, why: str) -> None:
    if n <= 0:
        return
    before = h["exp"]
    h["exp"] = min(exp_cap(h["id"]), before + n)  # R60: excess EXP is lost
    gained = h["exp"] - before
    name = HEROES[h["id"]]["name"]
    if gained:
        ctx.emit("exp", f"{name} gains {gained} EXP ({why}).", hero=h["id"], exp=h["exp"], gained=gained)
    new_level = level_for(h["id"], h["exp"])
    while h["level"] < new_level:
        h["level"] += 1
        entry = HEROES[h["id"]]["growth"][h["level"] - 2]
        _grow(h, entry)
        ctx.emit(
            "level_up",
            f"{name} reaches level {h['level']} ({entry.replace('_', ' ')}).",
            hero=h["id"],
            level=h["level"],
            growth=entry,
        )


def _grow(h: Hero, entry: str) -> None:
    """One growth-list entry (§5.4)."""
    if entry in GROWTH_KEYS:
        h[GROWTH_KEYS[entry]] += 1
    elif entry == "max_health":
        h["max_hp"] += 1
        h["hp"] += 1
    elif entry == "max_resource":
        h["max_res"] += 1
    elif entry == "magic_regain":
        h["regain"] = HEROES[h["id"]]["regain"]["boosted"]
    elif entry == "l6_strike":
        h["l6"] = True
    if h["id"] == "prince":
        h["max_res"] = h["level"]  # R49 Servant cap = level


# -- Health and resources ---------------------------------------------------------


def on_mirage(s: State, h: Hero) -> bool:
    return s.phase == ADVENTURE and s.lands.get(h["pos"]) == "mirage_city"


def heal(ctx: Ctx, h: Hero, n: int, why: str) -> int:
    """Regain Health up to max (R60); none on Mirage City (§9.2)."""
    if h["dead"] or n <= 0 or on_mirage(ctx.s, h):
        return 0
    gained = min(n, h["max_hp"] - h["hp"])
    if gained:
        h["hp"] += gained
        name = HEROES[h["id"]]["name"]
        ctx.emit("heal", f"{name} regains {gained} Health ({why}).", hero=h["id"], hp=h["hp"], gained=gained)
    return gained


def gain_res(ctx: Ctx, h: Hero, n: int, why: str) -> int:
    """Regain resource points up to max (R60; the Prince's Servants cap at his level)."""
    if not has_pool(h) or h["dead"] or n <= 0:
        return 0
    gained = min(n, h["max_res"] - h["res"])
    if gained:
        h["res"] += gained
        name = HEROES[h["id"]]["name"]
        pool = HEROES[h["id"]]["resource"]["name"]
        ctx.emit(
            "resource", f"{name} regains {gained} {pool} ({why}).", hero=h["id"], res=h["res"], gained=gained
        )
    return gained


def turn_start_refill(ctx: Ctx, h: Hero) -> None:
    """Refills at the start of every turn, both phases (R1 step 1, R2 step 2):
    Shaman Voodoo while hurt, Magician Magic (2 from L4), Grand Master Mana."""
    hid = h["id"]
    if hid == "shaman" and h["hp"] < h["max_hp"]:
        gain_res(ctx, h, 1, "Voodoo")
    elif hid == "magician":
        gain_res(ctx, h, h["regain"], "Magic")
    elif hid == GRAND_MASTER:
        gain_res(ctx, h, 1, "Mana")


def pay(h: Hero, amount: int, gold: int) -> None:
    """Spend ``amount`` points, ``gold`` of them from the Prince's Gold (R49)."""
    h["gold"] -= gold
    h["res"] -= amount - gold
    assert h["res"] >= 0 and h["gold"] >= 0


def spend_options(h: Hero, upto: int, kind: str) -> list[dict[str, Any]]:
    """Every way to pay 0..upto points: the Prince names the pool (R49)."""
    out: list[dict[str, Any]] = []
    if h["id"] == "prince":
        for amount in range(0, min(upto, points(h)) + 1):
            for g in range(0, min(amount, h["gold"]) + 1):
                if amount - g <= h["res"]:
                    out.append({"type": kind, "amount": amount, "gold": g})
    else:
        for amount in range(0, min(upto, h["res"]) + 1):
            out.append({"type": kind, "amount": amount})
    return out


def servants_first(h: Hero, amount: int) -> dict[str, int]:
    """R65: the Prince pays with Servants first."""
    if h["id"] != "prince":
        return {"amount": amount}
    servants = min(amount, h["res"])
    return {"amount": amount, "gold": amount - servants}


def home(h: Hero) -> str:
    """Where forced returns put a hero: the City, or the lake for the Shaman (§6.5)."""
    return LAKE if HEROES[h["id"]]["start"] == "lake" else CITY


def place_home(ctx: Ctx, h: Hero) -> None:
    """Forced placement (R61): ignores sharing, releases any trap (R20)."""
    h["pos"] = home(h)
    h["trapped"] = None


def used(h: Hero, power: str) -> bool:
    return power in h["used"]


def mark_used(h: Hero, power: str) -> None:
    h["used"] = (*h["used"], power)


def name(hid: str) -> str:
    shown: str = HEROES[hid]["name"]
    return shown


# -- Who stands with whom ---------------------------------------------------------


def combo_group(s: State, anchor: str) -> list[str]:
    """R33: all living heroes when 5 or fewer; else the anchor and 2 living each side."""
    order = s.order
    live = s.living()
    size = CHARTS["combo_group_size"]
    if len(live) <= size:
        return live
    i = order.index(anchor)
    n = len(order)
    cw = [order[(i + k) % n] for k in range(1, n) if not s.heroes[order[(i + k) % n]]["dead"]][:2]
    ccw = [order[(i - k) % n] for k in range(1, n) if not s.heroes[order[(i - k) % n]]["dead"]][:2]
    group = set(cw) | set(ccw)
    if not s.heroes[anchor]["dead"]:
        group.add(anchor)
    return [h for h in order if h in group]


def beside_ally(s: State, hid: str) -> bool:
    """R47: phase 1 — an ally on her space or an adjacent one; phase 2 — any living ally."""
    others = [o for o in s.living() if o != hid]
    if s.phase == BATTLE:
        return bool(others)
    pos = s.heroes[hid]["pos"]
    near = {pos, *NODE_NEIGHBOURS[pos]}
    return any(s.heroes[o]["pos"] in near for o in others)
