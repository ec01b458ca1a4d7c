"""Quests (§7.3, R16–R22), rewards (§7.2, R41) and Quest Replenishing (§8.4, R59)."""

from __future__ import annotations

from typing import Any

from ..content import EXP, GRAND_MASTER, MOUNTAINS, QUESTS, REWARDS, mountain_name
from ..state import ADVENTURE, State
from .damage import blood_magic
from .dragon import dragon_damage, meter_step
from .flow import Ctx, PromptKind, ask, damage, op, prompt_kind, push
from .heroes import gain_exp, gain_res, name, place_home
from .rolls import close_roll, start_roll


def reveal_public(s: State, tile: str) -> None:
    s.public = tuple(sorted({*s.public, tile}))


def declare_quest(ctx: Ctx, m: str, invite: list[str]) -> None:
    """§7.3 steps 2–3: the leader declares and invites; invitees answer first (R16)."""
    s = ctx.s
    q = QUESTS[s.mountains[m]["quest"]]
    s.quest = {
        "mountain": m,
        "leader": s.current,
        "accepted": [],
        "revived_before": list(s.tflags.get("revived", [])),
    }
    text = f"{name(s.current)} attempts {q['name']} at {mountain_name(m)}"
    if invite:
        text += ", asking " + ", ".join(name(h) for h in invite) + " to help"
    ctx.emit("quest", text + ".", hero=s.current, mountain=m, quest=q["id"], invite=list(invite))
    for h in invite:
        ask(s, h, "assist", leader=s.current, mountain=m)
    push(s, ("quest_begin",))


def _assist_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    s = ctx.s
    assert s.quest is not None
    if a["type"] == "accept":
        s.quest = {**s.quest, "accepted": [*s.quest["accepted"], p["seat"]]}
    ctx.emit(
        "assist",
        f"{name(p['seat'])} {'joins' if a['type'] == 'accept' else 'declines'} the quest.",
        hero=p["seat"],
        accepted=a["type"] == "accept",
    )


prompt_kind(
    "assist",
    PromptKind(
        legal=lambda s, p: [{"type": "accept"}, {"type": "decline"}],
        default=lambda s, p: {"type": "decline"},
        answer=_assist_answer,
        describe=lambda s, p: (
            f"{name(p['leader'])} asks {name(p['seat'])} to help with the quest at {mountain_name(p['mountain'])}."
        ),
    ),
)


def participants(s: State) -> list[str]:
    q = s.quest
    assert q is not None
    return [h for h in s.order if h == q["leader"] or h in q["accepted"]]


@op("quest_begin")
def _quest_begin(ctx: Ctx) -> None:
    """§7.3 steps 4–5: Training, then the start effect (Golem, Chimera)."""
    s = ctx.s
    assert s.quest is not None
    group = participants(s)
    for hid in group:
        if hid == "samurai":
            gain_res(ctx, s.heroes[hid], 1, "Training")  # R54: before pools are sized
    q = QUESTS[s.mountains[s.quest["mountain"]]["quest"]]
    push(s, ("quest_pools",))
    if q["start_damage"]:
        hit = {h: q["start_damage"] for h in group if h != "samurai"}  # Godspeed
        push(s, damage(hit, f"{q['name']} as the quest begins"))


@op("quest_pools")
def _quest_pools(ctx: Ctx) -> None:
    """§7.3 step 5–6: revived participants drop out; a revived leader aborts the attempt."""
    s = ctx.s
    q = s.quest
    assert q is not None
    fallen = set(s.tflags.get("revived", [])) - set(q["revived_before"])
    if q["leader"] in fallen:
        ctx.emit(
            "quest_abort", "The leader fell as the quest began: the attempt ends.", mountain=q["mountain"]
        )
        s.quest = None
        return
    if fallen:
        s.quest = {**q, "accepted": [h for h in q["accepted"] if h not in fallen]}
    start_roll(s, "quest", q["leader"], participants(s), q["mountain"], ("quest_result",))


@op("quest_result")
def _quest_result(ctx: Ctx) -> None:
    s = ctx.s
    q = s.quest
    assert q is not None and s.roll is not None
    m = q["mountain"]
    mt = s.mountain_to_change(m)  # solved, or its flags change
    tile = QUESTS[mt["quest"]]
    group = participants(s)
    tot, ones = close_roll(s, mt["flags"])
    s.quest = None
    leader = s.heroes[q["leader"]]
    if tot >= tile["target"]:
        mt["flags"] = 0
        mt["state"] = "solved"
        ctx.emit(
            "quest_success",
            f"{tile['name']} is solved with a total of {tot} (needed {tile['target']})!",
            mountain=m,
            quest=tile["id"],
            total=tot,
        )
        blood_magic(ctx, ones)
        # R17: +1 each with assistants, +2 alone; the Grand Master always +1.
        if leader["id"] == GRAND_MASTER:
            gain_exp(ctx, leader, EXP["quest_exp_grand_master"], "quest")
        elif len(group) > 1:
            for hid in group:
                gain_exp(ctx, s.heroes[hid], EXP["quest_exp_assisted"], "quest")
        else:
            gain_exp(ctx, leader, EXP["quest_exp_alone"], "quest")
        for h in s.heroes.values():
            if h["trapped"] == m:
                h["trapped"] = None  # R20: released when anyone solves the labyrinth
        ops = reward(ctx, m)
        push(s, *ops, ("checkpoint", []), ("quest_end_check",))
        return
    old = mt["flags"]
    mt["flags"] = max(0, tot)  # R18
    ctx.emit(
        "quest_failure",
        f"{tile['name']} fails with a total of {tot} (needed {tile['target']}); flags {old} → {mt['flags']}.",
        mountain=m,
        quest=tile["id"],
        total=tot,
        flags=mt["flags"],
    )
    blood_magic(ctx, ones)
    effect = tile["failure"]  # R19: the leader only
    if effect.startswith("damage_"):
        push(s, damage({leader["id"]: int(effect.split("_")[1])}, f"{tile['name']} failed"))
        return
    if effect == "teleport":
        place_home(ctx, leader)  # R21
        ctx.emit(
            "teleport", f"{name(leader['id'])} is teleported back home.", hero=leader["id"], to=leader["pos"]
        )
    elif effect == "trap":
        leader["trapped"] = m  # R20
        ctx.emit(
            "trapped",
            f"{name(leader['id'])} is lost in the labyrinth and must try again.",
            hero=leader["id"],
            mountain=m,
        )
    push(s, ("checkpoint", []))


def reward(ctx: Ctx, m: str) -> list[tuple[Any, ...]]:
    """R22: reveal and resolve the reward of a mountain's first solve (§7.2)."""
    s = ctx.s
    mt = s.mountains[m]
    if mt["replenished"]:
        ctx.emit("scale", "A replenished quest is solved: the Dragon loses a scale.", mountain=m)
        dragon_damage(ctx, 1)  # §8.4: no reward, no meter, no retaliation
        return []
    if mt["reward_state"] != "hidden":
        return []
    s.mountain_to_change(m)["reward_state"] = "revealed"
    rid = mt["reward"]
    reveal_public(s, rid)
    ctx.emit(
        "reward",
        f"Reward at {mountain_name(m)}: {REWARDS[rid]['name']}! {REWARDS[rid]['text']}",
        mountain=m,
        reward=rid,
    )
    if rid == "dragons_lair":
        dragon_damage(ctx, 1)  # R41
        if not s.lair_found:
            s.lair_found = True
            return meter_step(ctx, "the Dragon's lair was found")
    elif rid == "book_of_dragons":
        for hid in s.order:
            gain_exp(ctx, s.heroes[hid], 1, "Book of Dragons")
    elif rid == "anti_dragon_weapons":
        s.weapons = True
    else:
        s.relic = True
    return []


@op("quest_end_check")
def _quest_end_check(ctx: Ctx) -> None:
    """R28: the Adventure phase ends when no mountain holds an unsolved quest."""
    s = ctx.s
    if s.phase == ADVENTURE and not unsolved(s):
        push(s, ("phase_end",))


def unsolved(s: State) -> list[str]:
    return [m for m in MOUNTAINS if s.mountains[m]["state"] in ("hidden", "revealed")]


@op("replenish")
def _replenish(ctx: Ctx) -> None:
    """§8.4 / R59: solved tiles are replaced by new face-down quests from the reserve."""
    s = ctx.s
    if s.phase != ADVENTURE or not unsolved(s) or s.replenished:
        return  # R59: not when the last solve's Lair ends the phase
    s.replenished = True
    solved = [m for m in MOUNTAINS if s.mountains[m]["state"] == "solved"]
    taken = [s.mountains[m]["quest"] for m in solved]
    pool = list(s.reserve)
    for m in solved:
        if not pool:
            pool = list(taken)
            taken = []
        tile = pool.pop(ctx.below(len(pool)))
        s.mountains[m] = {**s.mountains[m], "quest": tile, "state": "hidden", "flags": 0, "replenished": True}
    s.reserve = sorted(pool + taken)
    ctx.emit(
        "replenish",
        "Quest Replenishing: new quests appear on "
        + (", ".join(mountain_name(m) for m in solved) or "no mountain")
        + ".",
        mountains=solved,
    )
