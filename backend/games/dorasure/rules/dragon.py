"""The Dragon: Rampaging Meter (§2, R27), Roaming Dragon Chart (§2.2), Special Chance
(§8.3, R58), Dragon health with Final Breath (§3.2, R36) and Retaliation (§4.7, R35, R52)."""

from __future__ import annotations

from typing import Any

from ..content import (
    CLAWS,
    DRAGON,
    DRAGON_BOXES,
    FINAL_BREATH_LIFE,
    FIRE,
    LARGE_FROM,
    METER_FINAL,
    REPLENISH_AT,
    RETALIATION,
    ROAMING,
)
from ..state import ADVENTURE, State
from .flow import Ctx, ask, damage, op, optional_prompt, pass_action, push
from .heroes import combo_group, name, place_home

ROAMING_DAMAGE: dict[str, int] = DRAGON["roaming_damage"]


def life(s: State) -> int:
    return DRAGON_BOXES - s.swords


def meter_step(ctx: Ctx, why: str) -> list[tuple[Any, ...]]:
    """Move the Dragon token up one space (R27) and return the ops it triggers."""
    s = ctx.s
    if s.phase != ADVENTURE or s.meter >= METER_FINAL:
        return []  # R27: steps past the final space are ignored
    s.meter += 1
    fire = s.meter in FIRE
    ctx.emit(
        "meter",
        f"The Dragon token moves up to space {s.meter} ({why})" + (": a Rampage!" if fire else "."),
        meter=s.meter,
        rampage=fire,
    )
    if not fire:
        return []
    if s.meter == METER_FINAL:
        # §2.1 / R29: the final Rampage resolves twice, then the Adventure phase ends.
        return [("rampage", 1), ("rampage", 2), ("phase_end",)]
    ops: list[tuple[Any, ...]] = [("rampage", 0)]
    if s.meter == REPLENISH_AT and s.hero_count >= LARGE_FROM and not s.replenished:
        ops.append(("replenish",))  # §8.4 / R59
    return ops


# Stored as "six": ops sit in saved states' queues by name, so the name stays.
@op("six")
def _movement_six(ctx: Ctx) -> None:
    """One movement 6 (R27), or its Special Chance roll with 6+ heroes (§8.3, R58)."""
    s = ctx.s
    if s.phase != ADVENTURE:
        return
    if s.hero_count < LARGE_FROM:
        push(s, *meter_step(ctx, f"a 6 rolled by {name(s.current)}"))
        return
    face = ctx.d6()
    if face <= 3:
        ctx.emit("special_chance", f"Special Chance: {face}, the Dragon stirs.", die=face, hero=s.current)
        push(s, *meter_step(ctx, "Special Chance"))
    else:
        ctx.emit(
            "special_chance",
            f"Special Chance: {face}, {name(s.current)} takes 1 damage instead.",
            die=face,
            hero=s.current,
        )
        push(s, damage({s.current: 1}, "Special Chance"))


def comparison(ctx: Ctx, why: str) -> dict[str, int]:
    """R12 / §4.9: every living hero rolls one plain die."""
    s = ctx.s
    faces = {h: ctx.d6() for h in s.living()}
    ctx.emit(
        "comparison",
        f"Every hero rolls for {why}: " + ", ".join(f"{name(h)} {f}" for h, f in faces.items()) + ".",
        dice=faces,
    )
    return faces


def names(heroes: list[str]) -> str:
    return ", ".join(name(h) for h in heroes)


def verb(heroes: list[str], one: str, many: str) -> str:
    return one if len(heroes) == 1 else many


def extreme(faces: dict[str, int], highest: bool) -> list[str]:
    """Everyone tied at the extreme (no re-roll; a lone hero is both, R12)."""
    target = max(faces.values()) if highest else min(faces.values())
    return [h for h, f in faces.items() if f == target]


@op("rampage")
def _rampage(ctx: Ctx, which: int) -> None:
    """One Roaming Dragon roll (§2.2); ``which`` 1/2 marks the two final rolls."""
    s = ctx.s
    face = ctx.d6()
    result = ROAMING[face]
    label = f" (final Rampage, roll {which} of 2)" if which else ""
    ctx.emit(
        "rampage",
        f"Rampage{label}: the Dragon rolls {face}. " + DRAGON["roaming_text"][result],
        die=face,
        result=result,
        meter=s.meter,
    )
    s.last = {**s.last, "rampage": {"die": face, "result": result}}
    if result == "belk_in_flames":
        if not s.razed:
            s.razed = True  # R42: Belk becomes a road-type space
            ctx.emit("belk_razed", "Belk is razed: it is now just a road.", space="belk")
        on_belk = {h: ROAMING_DAMAGE[result] for h in s.living() if s.heroes[h]["pos"] == "belk"}
        push(s, damage(on_belk, "Belk in flames"))
    elif result == "driven_back":
        hit = extreme(comparison(ctx, "the Dragon's charge"), highest=True)
        for hid in hit:
            place_home(ctx, s.heroes[hid])  # R20/R26/R61: forced placement, trap released
        ctx.emit("driven_back", f"{names(hit)} {verb(hit, 'is', 'are')} driven back home.", heroes=hit)
        # §2.2 / R24: every chart result is one event followed by a checkpoint, even one that
        # deals no damage (a hero left at 0 Health by Blood Magic must get his revival roll).
        push(s, ("checkpoint", []))
    elif result == "scorch_all":
        push(s, damage({h: ROAMING_DAMAGE[result] for h in s.living()}, "the Dragon's fire"))
    elif result in ("claw_lowest", "claw_highest"):
        hit = extreme(comparison(ctx, "the Dragon's claws"), highest=result == "claw_highest")
        push(s, damage({h: ROAMING_DAMAGE[result] for h in hit}, "the Dragon's claws"))
    else:  # plunder_lowest
        hit = extreme(comparison(ctx, "the Dragon's plunder"), highest=False)
        for hid in hit:
            s.heroes[hid]["res"] = 0  # the Prince's Gold is immune, his Servants are not
        ctx.emit("plunder", f"{names(hit)} {verb(hit, 'loses', 'lose')} all resources.", heroes=hit)
        push(s, ("checkpoint", []))  # §2.2 / R24, as above


def dragon_damage(ctx: Ctx, d: int) -> list[int]:
    """Place Swords for one damage event (§3.2); return the claw boxes newly covered."""
    s = ctx.s
    if s.phase == ADVENTURE:
        # §3.1: never below 1 life in the Adventure phase, and no retaliation (R41).
        d = min(d, life(s) - 1)
        s.swords += max(0, d)
        ctx.emit("dragon_hit", f"The Dragon takes {d} damage (life {life(s)}).", damage=d, life=life(s))
        return []
    if life(s) == FINAL_BREATH_LIFE and d >= 2:
        d = 1  # R36 Final Breath
        ctx.emit("final_breath", "Final Breath: the Dragon only takes 1 damage.")
    d = min(d, life(s))
    covered = list(range(s.swords + 1, s.swords + d + 1))
    s.swords += d
    ctx.emit(
        "dragon_hit", f"The Dragon takes {d} damage (life {life(s)}).", damage=d, life=life(s), boxes=covered
    )
    if life(s) == 0:
        return []
    return [b for b in covered if b in CLAWS]


# -- Retaliation (§4.7) -----------------------------------------------------------------


@op("retaliation")
def _retaliation(ctx: Ctx, box: int) -> None:
    s = ctx.s
    face = ctx.d6()
    result = RETALIATION[face]
    ctx.emit(
        "retaliation",
        f"Dragon Retaliation (claw box {box}): {name(s.current)} rolls {face}. "
        + DRAGON["retaliation_text"][result],
        die=face,
        result=result,
        box=box,
    )
    s.last = {**s.last, "retaliation": {"die": face, "result": result}}
    push(s, ("ret_resolve", result))
    p = s.heroes.get("paladin")
    if p and s.relic and result != "ret_miss" and not p["dead"] and "platinum_shield" not in p["used"]:
        ask(s, "paladin", "shield", result=result)


@op("ret_resolve")
def _ret_resolve(ctx: Ctx, result: str) -> None:
    s = ctx.s
    if s.tflags.get("shielded"):
        s.tflags = {**s.tflags, "shielded": False}
        return
    if result == "ret_blast":
        push(s, damage({h: 1 for h in combo_group(s, s.current)}, "the Dragon's retaliation"))
    elif result == "ret_critical":
        hit = extreme(comparison(ctx, "the Dragon's critical slash"), highest=False)
        push(s, damage({h: 2 for h in hit}, "the Dragon's critical slash"))


def _shield_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    if a["type"] != "shield":
        return
    s = ctx.s
    pal = s.heroes["paladin"]
    pal["used"] = (*pal["used"], "platinum_shield")
    s.tflags = {**s.tflags, "shielded": True}
    ctx.emit(
        "platinum_shield", "Platinum Shield: the Paladin protects the whole party from this retaliation."
    )


optional_prompt(
    "shield",
    legal=lambda s, p: [pass_action(), {"type": "shield"}],
    answer=_shield_answer,
    describe=lambda s, p: "Paladin: cancel this Dragon Retaliation with the Platinum Shield (once per game)?",
)
