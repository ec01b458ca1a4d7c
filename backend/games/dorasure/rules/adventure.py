"""Go Adventuring (§4.3), Rest (R15) and Gather Information (R14)."""

from __future__ import annotations

from ..content import CITY, GRAND_MASTER, LANDS, NODE_TERRAIN, QUESTS, TERRAINS, chart_row, mountain_name
from ..state import State
from .damage import blood_magic
from .flow import Ctx, damage, op, push
from .heroes import gain_exp, gain_res, heal, name, node_class
from .rolls import close_roll, start_roll


def adventure_ok(s: State, hid: str) -> bool:
    """Plains- or forest-class spaces only (§4.3; Fang tiles by class, §9.2)."""
    return node_class(s, s.heroes[hid]["pos"]) in ("plains", "forest")


def rest_amount(s: State, hid: str) -> int:
    """R15: City (never the Shaman) and unrazed villages +2; the Caravan +1; else no rest."""
    pos = s.heroes[hid]["pos"]
    land = s.lands.get(pos)
    if land:
        return LANDS[land]["rest"]
    if pos == "belk" and s.razed:
        return 0
    if pos == CITY and hid == "shaman":
        return 0  # Hatred for Humans
    return TERRAINS[NODE_TERRAIN[pos]]["rest"]


def do_adventure(ctx: Ctx) -> None:
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    cls = node_class(s, h["pos"])
    ctx.emit("adventure", f"{name(hid)} goes adventuring in the {cls}.", hero=hid, terrain=cls)
    if hid == "gladiator" and cls == "plains":
        heal(ctx, h, 1, "Battle Hardened")  # R56: before rolling, whatever the outcome
    start_roll(s, "adventure", hid, [hid], None, ("adventure_result",))


@op("adventure_result")
def _adventure_result(ctx: Ctx) -> None:
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    tot, ones = close_roll(s)
    row = chart_row("adventure", tot)
    exp, dmg = row["exp"], row["damage"]
    note = ""
    if hid == "samurai" and row["id"] == "adv_scrape":
        exp, dmg, note = 0, 0, " Never Targets the Weak: nothing happens."
    if hid == GRAND_MASTER:
        exp = 0  # the Grand Master gains no EXP from adventures
    ctx.emit(
        "adventure_result",
        f"{name(hid)}'s adventure scores {tot}: {row['words']}.{note}",
        hero=hid,
        total=tot,
        result=row["id"],
    )
    blood_magic(ctx, ones)
    if exp:
        gain_exp(ctx, h, exp, "adventure")
    if dmg:
        push(s, damage({hid: dmg}, "adventure"))
    else:
        push(s, ("checkpoint", []))


def do_rest(ctx: Ctx) -> None:
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    pos = h["pos"]
    ctx.emit("rest", f"{name(hid)} rests.", hero=hid)
    heal(ctx, h, rest_amount(s, hid), "rest")
    town = pos == CITY or (NODE_TERRAIN[pos] == "village" and pos not in s.lands)
    if hid == "hunter" and town:
        gain_res(ctx, h, h["max_res"], "Magical Ammo")
    elif hid == "vampire" and town:
        gain_res(ctx, h, 2 if pos == CITY else 1, "Blood")


def do_gather(ctx: Ctx, m: str) -> None:
    """R14: the quest is revealed to all and the hero's turn ends."""
    s = ctx.s
    mt = s.mountain_to_change(m)
    mt["state"] = "revealed"
    q = QUESTS[mt["quest"]]
    s.public = tuple(sorted({*s.public, q["id"]}))
    ctx.emit(
        "gather",
        f"{name(s.current)} gathers information at {mountain_name(m)}: {q['name']} ({q['text']})",
        hero=s.current,
        mountain=m,
        quest=q["id"],
    )
