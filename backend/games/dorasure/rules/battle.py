"""The Climactic Battle (R2, R31–R38; Battle chart §4.5, Team Combo §4.6, combo group §4.8)."""

from __future__ import annotations

from typing import Any

from ..content import CHARTS, GRAND_MASTER, chart_row
from ..state import State
from .damage import blood_magic, from_current, kill, offer_kiss
from .dice import ones, score_die
from .flow import Ctx, ask, damage, op, optional_prompt, pass_action, push
from .heroes import beside_ally, combo_group, gain_res, level6_strike, name, turn_start_refill
from .rolls import close_roll, start_roll


@op("battle_turn")
def _battle_turn(ctx: Ctx, seat: str, extra: bool) -> None:
    """R2 steps 1–2; the Kiss of Death window at the start of a turn (R51)."""
    s = ctx.s
    s.current = seat
    s.tflags = {"extra": extra}
    h = s.heroes[seat]
    if h["dead"]:
        push(s, ("battle_next",))
        return
    s.turn += 1
    ctx.emit(
        "turn",
        f"Battle turn {s.turn}: {name(seat)}" + (" (extra turn)." if extra else "."),
        hero=seat,
        turn=s.turn,
    )
    turn_start_refill(ctx, h)  # no Servants reset in the battle (R49)
    push(s, ("battle_attack",), ("battle_end",))
    offer_kiss(s)


@op("battle_attack")
def _battle_attack(ctx: Ctx) -> None:
    s = ctx.s
    if s.heroes[s.current]["dead"]:
        return
    start_roll(s, "combat", s.current, [s.current], None, ("battle_result",))


@op("battle_result")
def _battle_result(ctx: Ctx) -> None:
    s = ctx.s
    r = s.roll
    assert r is not None
    if r["big_bang"]:
        s.roll = None
        push(s, damage({}, "Big Bang", dragon=2))  # R55: one event, no chart row
        return
    tot, blood = close_roll(s)
    blood_magic(ctx, blood)
    resolve_row(ctx, tot, combo=True)


def dragon_hit(s: State, row: dict[str, Any], tot: int) -> int:
    d: int = row.get("dragon", 0)
    h = s.heroes[s.current]
    if h["id"] == GRAND_MASTER and level6_strike(h) and tot >= 4:
        d = 2  # R57 Level 6 Strike
    return d


def resolve_row(ctx: Ctx, tot: int, combo: bool) -> None:
    """One Battle-chart row (§4.5); a Team Combo re-read never combos again (R34)."""
    s = ctx.s
    cur = s.current
    row = chart_row("battle", tot)
    rid = row["id"]
    ctx.emit(
        "battle_result",
        f"{name(cur)}'s battle total is {tot}: {row['words']}.",
        hero=cur,
        total=tot,
        result=rid,
    )
    if rid == "chomp":
        h = s.heroes[cur]
        if not h["dead"]:
            kill(h)  # R9: instant death is not damage
            ctx.emit("chomp", f"{name(cur)} is devoured.", hero=cur)
        push(s, ("checkpoint", []))
    elif rid == "claw_barrage":
        push(s, damage({cur: row["self_damage"]}, "claw barrage"))
    elif rid == "fire_blast":
        push(s, damage({h: row["group_damage"] for h in combo_group(s, cur)}, "the Dragon's blast"))
    elif rid == "team_combo" and combo:
        team_combo(ctx)
    elif rid == "team_combo":
        push(s, damage({h: 1 for h in combo_group(s, cur)}, "a failed Team Combo"))
    else:
        self_dmg = {cur: row["self_damage"]} if row.get("self_damage") else {}
        push(s, damage(self_dmg, row["words"], dragon=dragon_hit(s, row, tot)))


def team_combo(ctx: Ctx) -> None:
    """§4.6: one scored die per group member added to 2, read once more (R34)."""
    s = ctx.s
    members = set(combo_group(s, s.current))
    group = [h for h in from_current(s) if h in members]  # §4.6: dice in seat order from the current hero
    scores: dict[str, int] = {}
    faces: dict[str, list[int]] = {}
    for hid in group:
        sc, chain = score_die(ctx.d6)
        scores[hid] = sc
        faces[hid] = chain
    t = CHARTS["team_combo_base"] + sum(scores.values())
    ctx.emit(
        "team_combo",
        "Team Combo: "
        + ", ".join(f"{name(h)} {'→'.join(map(str, faces[h]))}" for h in group)
        + f"; total {t}.",
        dice=faces,
        total=t,
    )
    if "vampire" in faces:
        blood_magic(ctx, ones([faces["vampire"]]))  # R50: her combo die counts
    resolve_row(ctx, t, combo=False)


@op("battle_end")
def _battle_end(ctx: Ctx) -> None:
    """R2 step 7: Hero's Song, the Werewolf's extra turn (R43), next living seat."""
    s = ctx.s
    cur = s.current
    h = s.heroes[cur]
    if not h["dead"] and cur == "minstrel" and beside_ally(s, cur):
        gain_res(ctx, h, 1, "Hero's Song")
    push(s, ("battle_next",))
    if cur == "werewolf" and s.relic and not h["dead"] and not s.tflags.get("extra"):
        ask(s, cur, "extra_turn")


@op("battle_next")
def _battle_next(ctx: Ctx) -> None:
    s = ctx.s
    if s.tflags.get("take_extra"):
        push(s, ("battle_turn", s.current, True))
        return
    i = s.order.index(s.current)
    for k in range(1, s.hero_count + 1):
        nxt = s.order[(i + k) % s.hero_count]
        if not s.heroes[nxt]["dead"]:
            push(s, ("battle_turn", nxt, False))
            return


def _extra_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    if a["type"] == "extra_turn":
        ctx.s.tflags = {**ctx.s.tflags, "take_extra": True}
        ctx.emit("gauntlets", "Werewolf Lord's Gauntlets: the Werewolf attacks again!", hero="werewolf")


optional_prompt(
    "extra_turn",
    legal=lambda s, p: [pass_action(), {"type": "extra_turn"}],
    answer=_extra_answer,
    describe=lambda s, p: "Werewolf: take a second battle turn in a row with the Gauntlets?",
)
