"""Damage events, the Body-Swapping Doll, absorption, the checkpoint and revival.

One *damage event* (R8, R23) is: the damage of each target is known → the
Shaman may take some onto himself (R45) → each damaged hero holding resources
answers how much to absorb, one after another in seat order from the current
hero (R8) → Health drops → any
Dragon damage of the same result lands (head-on strike) → checkpoint (R24).
"""

from __future__ import annotations

import itertools
from typing import Any

from ..state import BATTLE, Hero, State
from .dragon import dragon_damage, life
from .flow import Ctx, PromptKind, ask, end_game, op, optional_prompt, pass_action, prompt_kind, push
from .heroes import name, place_home, points, servants_first, spend_options


@op("damage")
def _damage(ctx: Ctx, targets: dict[str, int], source: str, dragon: int) -> None:
    s = ctx.s
    live = {h: n for h, n in targets.items() if n > 0 and not s.heroes[h]["dead"] and s.heroes[h]["hp"] > 0}
    s.dmg = {"targets": live, "source": source, "dragon": dragon, "absorb": {}, "asked": []}
    push(s, ("dmg_absorb",), ("dmg_apply",))
    if live and doll_ready(s) and any(h != "shaman" for h in live):
        ask(s, "shaman", "doll")


def doll_ready(s: State) -> bool:
    """R45: the Doll needs the Shaman alive, in play, and the Treasure found (R39)."""
    h = s.heroes.get("shaman")
    return bool(h and s.relic and not h["dead"] and h["hp"] > 0)


def from_current(s: State) -> list[str]:
    """Seat order starting with the current hero (R8 step 3)."""
    i = s.order.index(s.current)
    return [*s.order[i:], *s.order[:i]]


@op("dmg_absorb")
def _dmg_absorb(ctx: Ctx) -> None:
    """R8 step 3: one damaged hero holding resources at a time, in seat order from the
    current hero; each answer is public before the next hero decides (a later hero may
    absorb freely when an earlier one lets himself fall: a successful revival zeroes
    every hero's resources anyway)."""
    s = ctx.s
    d = s.dmg
    assert d is not None
    asked = d["asked"]
    for hid in from_current(s):
        n = d["targets"].get(hid, 0)
        if hid not in asked and n > 0 and points(s.heroes[hid]) > 0:
            asked.append(hid)
            push(s, ("dmg_absorb",))
            ask(s, hid, "absorb", amount=n)
            return


@op("dmg_apply")
def _dmg_apply(ctx: Ctx) -> None:
    s = ctx.s
    d = s.dmg
    assert d is not None
    s.dmg = None
    hit: dict[str, int] = {}
    texts = []
    for hid in s.order:
        n = d["targets"].get(hid, 0)
        if n <= 0:
            continue
        h = s.heroes[hid]
        soaked = d["absorb"].get(hid, 0)
        lost = min(h["hp"], n - soaked)
        h["hp"] -= lost
        hit[hid] = lost
        part = f"{name(hid)} takes {n} damage"
        if soaked:
            part += f" (absorbs {soaked})"
        texts.append(part + (" and falls" if h["hp"] == 0 else ""))
        if h["hp"] == 0 and s.phase == BATTLE:
            kill(h)
    if texts:
        ctx.emit(
            "damage",
            "; ".join(texts) + f" ({d['source']}).",
            source=d["source"],
            damage={h: d["targets"][h] for h in hit},
            absorbed=dict(d["absorb"]),
            health={h: s.heroes[h]["hp"] for h in hit},
        )
    claws: list[int] = []
    if d["dragon"]:
        claws = dragon_damage(ctx, d["dragon"])  # same event as the hero damage (head-on strike)
    push(s, ("checkpoint", claws))


def kill(h: Hero) -> None:
    """R38: a dead hero has 0 Health and 0 resources."""
    h["hp"] = 0
    h["dead"] = True
    h["res"] = 0
    h["gold"] = 0


@op("checkpoint")
def _checkpoint(ctx: Ctx, claws: list[int] | tuple[int, ...] = ()) -> None:
    """R24: victory, then revival roll (phase 1) or defeat (phase 2)."""
    s = ctx.s
    if s.phase == BATTLE:
        if life(s) == 0:
            end_game(ctx, "players_win", "The Dragon is slain: the heroes win!")
            return
        if not s.living():
            end_game(ctx, "players_lose", "Every hero has fallen: the Dragon wins.")
            return
        push(s, *[("retaliation", box) for box in sorted(claws)])
        offer_kiss(s)
        return
    dying = [h for h in s.order if s.heroes[h]["hp"] <= 0]
    if not dying:
        return
    revival_roll(ctx, dying)


def revival_roll(ctx: Ctx, dying: list[str]) -> None:
    """R23: every hero in play rolls one die; any 6 saves all the dying heroes."""
    s = ctx.s
    faces = {h: ctx.d6() for h in s.order}
    names = ", ".join(name(h) for h in dying)
    rolled = " ".join(f"{name(h)} {f}" for h, f in faces.items())
    if 6 not in faces.values():
        ctx.emit(
            "revival", f"{names} fell; revival roll: {rolled}. No 6: the heroes are defeated.", dice=faces
        )
        end_game(ctx, "players_lose", f"{names} died and the revival roll showed no 6.")
        return
    ctx.emit(
        "revival",
        f"{names} fell; revival roll: {rolled}. A 6 saves them: back home at full Health, and every hero's resources drop to 0.",
        dice=faces,
        revived=dying,
    )
    for hid in dying:
        h = s.heroes[hid]
        h["hp"] = h["max_hp"]
        place_home(ctx, h)
    for h in s.heroes.values():
        h["res"] = 0
        h["gold"] = 0
    s.tflags = {**s.tflags, "revived": [*s.tflags.get("revived", []), *dying]}
    if s.current in dying:
        s.tflags = {**s.tflags, "dead": True}  # R25: his turn ends (pending 6s still resolve)


# -- Kiss of Death (R51): offered at phase-2 checkpoints and turn starts ----------------


def offer_kiss(s: State) -> None:
    v = s.heroes.get("vampire")
    if (
        v
        and s.relic
        and s.phase == BATTLE
        and not v["dead"]
        and "kiss_of_death" not in v["used"]
        and any(s.heroes[h]["dead"] for h in s.order)
        and s.prompt_for("vampire") is None
    ):
        ask(s, "vampire", "kiss")


def _kiss_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [pass_action()] + [{"type": "kiss", "hero": h} for h in s.order if s.heroes[h]["dead"]]


def _kiss_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    if a["type"] != "kiss":
        return
    s = ctx.s
    v = s.heroes["vampire"]
    v["used"] = (*v["used"], "kiss_of_death")
    h = s.heroes[a["hero"]]
    h["dead"] = False
    h["hp"] = min(2, h["max_hp"])
    h["res"] = 0
    h["gold"] = 0
    ctx.emit(
        "kiss_of_death",
        f"Kiss of Death: the Vampire brings {name(h['id'])} back with 2 Health.",
        hero=h["id"],
    )


optional_prompt(
    "kiss",
    legal=_kiss_legal,
    answer=_kiss_answer,
    describe=lambda s, p: "Vampire: use Kiss of Death to revive a fallen hero?",
)


# -- Absorption prompt (R8) -------------------------------------------------------------


def _absorb_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    return spend_options(s.heroes[p["seat"]], p["amount"], "absorb")


def absorb_default(s: State, p: dict[str, Any]) -> dict[str, Any]:
    """R8/R65: absorb only what keeps the hero at 1 Health or more (Servants first)."""
    h = s.heroes[p["seat"]]
    need = max(0, p["amount"] - (h["hp"] - 1))
    return {"type": "absorb", **servants_first(h, min(need, points(h)))}


def _absorb_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    s = ctx.s
    h = s.heroes[p["seat"]]
    amount = a["amount"]
    if amount:
        h["gold"] -= a.get("gold", 0)
        h["res"] -= amount - a.get("gold", 0)
        assert s.dmg is not None
        s.dmg["absorb"][p["seat"]] = amount


prompt_kind(
    "absorb",
    PromptKind(
        legal=_absorb_legal,
        default=absorb_default,
        answer=_absorb_answer,
        describe=lambda s, p: (
            f"{name(p['seat'])} is about to take {p['amount']} damage: absorb some with resources (1 point per damage)?"
        ),
    ),
)


# -- Body-Swapping Doll (R45) -----------------------------------------------------------


def _doll_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    assert s.dmg is not None
    allies = [(h, n) for h, n in s.dmg["targets"].items() if h != "shaman" and n > 0]
    out = [pass_action()]
    for combo in itertools.product(*[range(n + 1) for _, n in allies]):
        take = {h: k for (h, _), k in zip(allies, combo, strict=True) if k}
        if take:
            out.append({"type": "doll", "take": take})
    return out


def _doll_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    if a["type"] != "doll":
        return
    s = ctx.s
    assert s.dmg is not None
    t = s.dmg["targets"]
    moved = 0
    for h, k in a["take"].items():
        t[h] -= k
        moved += k
    t["shaman"] = t.get("shaman", 0) + moved
    s.dmg["targets"] = {h: n for h, n in t.items() if n > 0}
    who = ", ".join(f"{k} from {name(h)}" for h, k in a["take"].items())
    ctx.emit("doll", f"Body-Swapping Doll: the Shaman takes {who}.", take=dict(a["take"]))


optional_prompt(
    "doll",
    legal=_doll_legal,
    answer=_doll_answer,
    describe=lambda s, p: "Shaman: take some of your allies' damage with the Body-Swapping Doll?",
)


def lose_health(ctx: Ctx, hid: str, n: int, why: str) -> None:
    """Health loss that is not damage (Blood Magic, R9): no absorption, no Doll."""
    s = ctx.s
    h = s.heroes[hid]
    lost = min(n, h["hp"])
    h["hp"] -= lost
    if h["hp"] == 0 and s.phase == BATTLE:
        kill(h)
    ctx.emit("health_loss", f"{name(hid)} loses {lost} Health ({why}).", hero=hid, hp=h["hp"])


def blood_magic(ctx: Ctx, ones_count: int) -> None:
    """R50: each 1 among the Vampire's scored dice costs 1 Blood, or 1 Health at 0 Blood."""
    if ones_count <= 0:
        return
    s = ctx.s
    v = s.heroes["vampire"]
    paid = min(ones_count, v["res"])
    if paid:
        v["res"] -= paid
        ctx.emit(
            "blood_magic", f"Blood Magic: the Vampire's 1s cost {paid} Blood.", hero="vampire", blood=v["res"]
        )
    if ones_count > paid:
        lose_health(ctx, "vampire", ones_count - paid, "Blood Magic")
