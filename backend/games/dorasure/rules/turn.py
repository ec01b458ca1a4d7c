"""The Adventure-phase turn (R1) and the move to the Climactic Battle (R28–R30).

Queue of one turn: ``turn_start`` → ``movement_roll`` (then the roll-reaction
prompt: Faith, Lullaby) → ``sixes`` (one ``six`` op per 6, R27) → ``move_stage``
→ ``action_stage`` → ``turn_end`` → next seat.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..content import GRAND_MASTER, HEROES, MOUNTAIN_SIDES, MOUNTAINS, NODE_MOUNTAINS, QUESTS, mountain_name
from ..state import ADVENTURE, BATTLE, State
from .adventure import adventure_ok, do_adventure, do_gather, do_rest, rest_amount
from .flow import Ctx, PromptKind, ask, op, optional_prompt, pass_action, prompt_kind, push
from .heroes import beside_ally, gain_res, heal, lycan, mark_used, name, turn_start_refill, used
from .quest import declare_quest


def begin_turn(s: State, seat: str) -> None:
    s.current = seat
    s.turn += 1
    s.tflags = {}
    s.move = None
    push(s, ("turn_start",))


@op("turn_start")
def _turn_start(ctx: Ctx) -> None:
    """R1 step 1, in the ruling's order."""
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    ctx.emit("turn", f"Turn {s.turn}: {name(hid)}.", hero=hid, turn=s.turn)
    if hid == "prince":
        h["res"] = h["level"]  # R49: Servants := level (phase 1 only)
    elif hid == "werewolf" and lycan(h):
        heal(ctx, h, 1, "Strength of the Wild")  # R44: phase-1 turns only
    else:
        turn_start_refill(ctx, h)
    push(s, ("movement_roll",))


@op("movement_roll")
def _movement_roll(ctx: Ctx) -> None:
    """R1 step 2: always roll Movement dice, even when trapped."""
    s = ctx.s
    hid = s.current
    h = s.heroes[hid]
    dice = [ctx.d6() for _ in range(h["move"])]
    sixes = dice.count(6)
    ones = dice.count(1)
    text = f"{name(hid)} rolls {' '.join(map(str, dice))} for movement"
    if ones:
        text += "; " + ("the 1 is" if ones == 1 else "the 1s are") + " void"
    ctx.emit("movement_roll", text + ".", hero=hid, dice=list(dice), sixes=sixes)  # kept in s.move
    s.move = {"rolled": dice, "dice": [f for f in dice if f != 1], "steps": 0, "path": [], "sixes": sixes}
    s.last = {**s.last, "movement": {"hero": hid, "dice": dice}}
    push(s, ("sixes",), ("move_stage",), ("action_stage",), ("turn_end",))
    if reaction_options(s):
        ask(s, hid, "reaction")


def reaction_options(s: State) -> list[dict[str, Any]]:
    """R1 step 3: Paladin Faith (R52), Minstrel Lullaby (R48)."""
    hid = s.current
    h = s.heroes[hid]
    mv = s.move
    assert mv is not None
    out = []
    if hid == "paladin" and not s.tflags.get("faith") and mv["rolled"]:
        out.append({"type": "faith"})
    if (
        hid == "minstrel"
        and s.relic
        and not used(h, "lullaby")
        and mv["sixes"]
        and not s.tflags.get("lullaby")
    ):
        out.append({"type": "lullaby"})
    return out


def _reaction_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    s = ctx.s
    h = s.heroes[s.current]
    mv = s.move
    assert mv is not None
    if a["type"] == "faith":
        top = max(mv["rolled"])
        dice = list(mv["dice"])
        if top in dice:
            dice.remove(top)  # that die cannot pay for a step; its 6 still counts (R52)
        s.move = {**mv, "dice": dice}
        s.tflags = {**s.tflags, "faith": True}
        ctx.emit("faith", f"Faith: the Paladin sets aside a {top}.", hero=s.current, die=top)
        gain_res(ctx, h, 1, "Faith")
    elif a["type"] == "lullaby":
        mark_used(h, "lullaby")
        s.tflags = {**s.tflags, "lullaby": True}
        ctx.emit("lullaby", "Lullaby: the Dragon sleeps through the Minstrel's 6s.", hero=s.current)
    if a["type"] != "pass" and reaction_options(s):
        ask(s, s.current, "reaction")


optional_prompt(
    "reaction",
    legal=lambda s, p: [pass_action(), *reaction_options(s)],
    answer=_reaction_answer,
    describe=lambda s, p: f"{name(p['seat'])}: use a power on this movement roll before the Dragon moves?",
)


@op("sixes")
def _sixes(ctx: Ctx) -> None:
    """R1 step 4: each 6 one at a time (Lullaby skips them all, R48)."""
    s = ctx.s
    mv = s.move
    assert mv is not None
    if s.tflags.get("lullaby"):
        return
    push(s, *[("six",)] * mv["sixes"])


# -- Actions (R13) ---------------------------------------------------------------------------


@op("action_stage")
def _action_stage(ctx: Ctx) -> None:
    s = ctx.s
    if s.tflags.get("dead") or s.phase != ADVENTURE:
        return
    s.move = None
    ask(s, s.current, "act")


def forced(s: State, hid: str) -> str | None:
    """R20 labyrinth duty first, then Mirage City's forced adventure (§9.2, R57)."""
    h = s.heroes[hid]
    if h["trapped"]:
        return "trapped"
    if s.lands.get(h["pos"]) == "mirage_city" and hid != GRAND_MASTER:
        return "mirage"
    return None


def forced_rule(s: State, hid: str) -> tuple[str, str] | None:
    """What forces the hero's action, as a refusal code and a sentence; None when he is free.

    Said for every other action he asks for, and in his prompt: the forcing rule is the one that
    forbids them, even where the action would otherwise be legal (a rest in Hollowmere)."""
    why = forced(s, hid)
    trap = s.heroes[hid]["trapped"]
    if trap is not None:
        where = mountain_name(trap)
        return "trapped", (
            f"{name(hid)} is trapped in the labyrinth of {where}: the action must be Do a Quest there, "
            "with any invitees beside it (R20)."
        )
    if why == "mirage":
        return (
            "mirage_city",
            f"{name(hid)} stands on Mirage City: the action must be Go Adventuring (§9.2, R57).",
        )
    return None


def invite_sets(s: State, hid: str, m: str) -> list[list[str]]:
    """Every set of heroes the leader may invite (R16): living, beside the mountain."""
    if QUESTS[s.mountains[m]["quest"]]["solo"]:
        return [[]]
    side = MOUNTAIN_SIDES[m]
    cands = [o for o in s.order if o != hid and not s.heroes[o]["dead"] and s.heroes[o]["pos"] in side]
    return [list(c) for k in range(len(cands) + 1) for c in itertools.combinations(cands, k)]


def legal_acts(s: State, hid: str) -> list[dict[str, Any]]:
    h = s.heroes[hid]
    why = forced(s, hid)
    out: list[dict[str, Any]] = []
    m = h["trapped"]
    if m is not None:
        return [{"type": "quest", "mountain": m, "invite": inv} for inv in invite_sets(s, hid, m)]
    if adventure_ok(s, hid):
        out.append({"type": "adventure"})
    if why == "mirage":
        return out
    if rest_amount(s, hid) > 0:
        out.append({"type": "rest"})
    for m in NODE_MOUNTAINS.get(h["pos"], ()):
        st = s.mountains[m]["state"]
        if st == "hidden":
            out.append({"type": "gather", "mountain": m})
        elif st == "revealed":
            out += [{"type": "quest", "mountain": m, "invite": inv} for inv in invite_sets(s, hid, m)]
    out.append({"type": "end_turn"})
    return out


def _act_default(s: State, p: dict[str, Any]) -> dict[str, Any]:
    why = forced(s, p["seat"])
    if why == "trapped":
        return {"type": "quest", "mountain": s.heroes[p["seat"]]["trapped"], "invite": []}
    if why == "mirage":
        return {"type": "adventure"}
    return {"type": "end_turn"}


def _act_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    t = a["type"]
    if t == "adventure":
        do_adventure(ctx)
    elif t == "rest":
        do_rest(ctx)
    elif t == "gather":
        do_gather(ctx, a["mountain"])
    elif t == "quest":
        declare_quest(ctx, a["mountain"], a["invite"])


def _act_describe(s: State, p: dict[str, Any]) -> str:
    rule = forced_rule(s, p["seat"])
    if rule is not None:
        return rule[1]
    return (
        f"{name(p['seat'])}: choose an action (adventure, rest, gather information, quest) or end the turn."
    )


prompt_kind(
    "act",
    PromptKind(
        legal=lambda s, p: legal_acts(s, p["seat"]),
        default=_act_default,
        answer=_act_answer,
        describe=_act_describe,
    ),
)


@op("turn_end")
def _turn_end(ctx: Ctx) -> None:
    """R1 step 7: Hero's Song (R47), then the next seat clockwise (R31)."""
    s = ctx.s
    hid = s.current
    if not s.tflags.get("dead") and hid == "minstrel" and beside_ally(s, hid):
        gain_res(ctx, s.heroes[hid], 1, "Hero's Song")
    i = s.order.index(hid)
    begin_turn(s, s.order[(i + 1) % s.hero_count])


@op("phase_end")
def _phase_end(ctx: Ctx) -> None:
    """R28/R30: the Adventure phase ends; the trigger hero opens the Climactic Battle."""
    s = ctx.s
    s.queue = []
    s.move = None
    s.roll = None
    s.quest = None
    s.phase = BATTLE
    s.trigger = s.current
    lost = []
    for m in MOUNTAINS:
        if s.mountains[m]["state"] in ("hidden", "revealed"):
            mt = s.mountain_to_change(m)
            mt["state"] = "removed"  # R64: unsolved quests and their rewards are lost
            if mt["reward_state"] == "hidden":
                mt["reward_state"] = "lost"
            lost.append(m)
    for h in s.heroes.values():
        h["trapped"] = None
    ctx.emit(
        "phase",
        f"The Adventure phase is over: the Dragon awakens! {name(s.current)} strikes first.",
        phase="battle",
        trigger=s.current,
        removed=lost,
    )
    if s.relic:
        g = s.heroes.get("gladiator")
        if g:
            g["hp"] = g["max_hp"]
            ctx.emit("mammoth_meat", "Mammoth Meat: the Gladiator is back to full Health.", hero="gladiator")
        pr = s.heroes.get("prince")
        if pr:
            pr["gold"] += HEROES["prince"]["gold"]["relic_bonus"]
            ctx.emit("true_wealth", "True Wealth: the Prince gains 3 Gold.", hero="prince", gold=pr["gold"])
    push(s, ("battle_turn", s.current, False))
