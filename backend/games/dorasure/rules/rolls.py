"""Scored rolls with their windows (R2 step 4–5, R7, R46, R53, R57).

A scored roll (Adventure, Quest, Combat) runs as ops:

1. ``roll_pre``: every participant holding resources (or a pre-roll power) is asked
   how many points to spend — simultaneous prompts (R7).  Elixir, Gust and Big
   Bang are options of the same answer.
2. ``roll_tune``: the Minstrel may add dice to an ally's pool (R46).
3. ``roll_throw``: pools are sized now (R51: Thirst counts Blood spent in the
   window) and rolled with full chains.
4. ``roll_post``: the roller may reroll (Ninja, Grand Master) or change a die
   (Hunter) (R53, R57).
5. the ``then`` op reads the total (``total``) and applies the chart.
"""

from __future__ import annotations

from typing import Any

from ..content import GRAND_MASTER, QUESTS
from ..state import Hero, State
from .dice import continue_chain, ones, pool_score, roll_pool
from .flow import Ctx, PromptKind, ask, op, optional_prompt, pass_action, prompt_kind, push
from .heroes import mark_used, name, pay, points, pool_base, spend_options, used

KIND_WORD = {"adventure": "an Adventure", "quest": "a Quest", "combat": "a Combat roll"}


def start_roll(
    s: State, kind: str, roller: str, participants: list[str], mountain: str | None, then: tuple[Any, ...]
) -> None:
    qid = s.mountains[mountain]["quest"] if mountain else None
    s.roll = {
        "kind": kind,
        "roller": roller,
        "mountain": mountain,
        "quest": qid,
        "order": list(participants),
        "parts": {h: {"extra": 0, "tune": 0} for h in participants},
        "chains": {},
        "big_bang": False,
    }
    push(s, ("roll_pre",), ("roll_tune",), ("roll_throw",), ("roll_post",), then)


def _elixir_ok(s: State, h: Hero, kind: str) -> bool:
    return (
        h["id"] == GRAND_MASTER
        and kind == "combat"
        and s.relic
        and not used(h, "elixir")
        and h["hp"] < h["max_hp"]
    )


def _gust_ok(s: State, h: Hero, kind: str) -> bool:
    return h["id"] == "samurai" and kind == "combat" and s.relic and h["res"] >= 1


def _big_bang_ok(s: State, h: Hero, kind: str) -> bool:
    return h["id"] == "magician" and kind == "combat" and s.relic and h["res"] >= 5


@op("roll_pre")
def _roll_pre(ctx: Ctx) -> None:
    s = ctx.s
    r = s.roll
    assert r is not None
    for hid in r["order"]:
        h = s.heroes[hid]
        if h["dead"]:
            continue
        if points(h) > 0 or _elixir_ok(s, h, r["kind"]):
            ask(s, hid, "spend", roll=r["kind"])


def _spend_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    h = s.heroes[p["seat"]]
    kind = p["roll"]
    out = spend_options(h, points(h), "spend")
    if _gust_ok(s, h, kind):
        out += [{**o, "gust": True} for o in out if o["amount"] >= 1]
    if _elixir_ok(s, h, kind):
        out += [{**o, "elixir": True} for o in out]
    if _big_bang_ok(s, h, kind) and s.roll and s.roll["roller"] == h["id"]:
        out.append({"type": "big_bang"})
    return out


def _spend_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    s = ctx.s
    r = s.roll
    assert r is not None
    hid = p["seat"]
    h = s.heroes[hid]
    if a["type"] == "big_bang":
        pay(h, 5, 0)  # R55: 5 points at once
        r["big_bang"] = True
        ctx.emit(
            "big_bang", "Big Bang! The Magician spends 5 Magic instead of rolling Combat dice.", hero=hid
        )
        return
    if a.get("elixir"):
        mark_used(h, "elixir")
        h["hp"] = h["max_hp"]
        ctx.emit("elixir", "Elixir: the Grand Master regains all lost Health.", hero=hid, hp=h["hp"])
    amount = a["amount"]
    if amount:
        pay(h, amount, a.get("gold", 0))
        dice = amount + (1 if a.get("gust") else 0)  # Gust: that point buys 2 dice
        r["parts"][hid]["extra"] += dice
        why = " with Final Move: Gust" if a.get("gust") else ""
        ctx.emit(
            "spend",
            f"{name(hid)} spends {amount} for {dice} extra dice{why}.",
            hero=hid,
            amount=amount,
            dice=dice,
        )


def _spend_default(s: State, p: dict[str, Any]) -> dict[str, Any]:
    h = s.heroes[p["seat"]]
    return {"type": "spend", "amount": 0, **({"gold": 0} if h["id"] == "prince" else {})}


prompt_kind(
    "spend",
    PromptKind(
        legal=_spend_legal,
        default=_spend_default,
        answer=_spend_answer,
        describe=lambda s, p: (
            f"{name(p['seat'])}: spend resources for extra dice on {KIND_WORD[p['roll']]} (1 point = 1 die)?"
        ),
    ),
)


# -- Heroic Tune (R46) -------------------------------------------------------------------


def tune_allies(s: State) -> list[str]:
    r = s.roll
    m = s.heroes.get("minstrel")
    if r is None or m is None or m["dead"] or m["res"] <= 0 or r["big_bang"]:
        return []
    if r["quest"] and QUESTS[r["quest"]]["solo"]:
        return []  # the Sphinx: "alone"
    return [h for h in r["order"] if h != "minstrel" and not s.heroes[h]["dead"]]


@op("roll_tune")
def _roll_tune(ctx: Ctx) -> None:
    if tune_allies(ctx.s):
        ask(ctx.s, "minstrel", "tune")


def _tune_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    res = s.heroes["minstrel"]["res"]
    return [pass_action()] + [
        {"type": "tune", "to": ally, "amount": k} for ally in tune_allies(s) for k in range(1, res + 1)
    ]


def _tune_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    if a["type"] != "tune":
        return
    s = ctx.s
    assert s.roll is not None
    s.heroes["minstrel"]["res"] -= a["amount"]
    s.roll["parts"][a["to"]]["tune"] += a["amount"]
    ctx.emit(
        "heroic_tune",
        f"Heroic Tune: the Minstrel adds {a['amount']} {'die' if a['amount'] == 1 else 'dice'} to {name(a['to'])}'s roll.",
        to=a["to"],
        amount=a["amount"],
    )


optional_prompt(
    "tune",
    legal=_tune_legal,
    answer=_tune_answer,
    describe=lambda s, p: "Minstrel: play a Heroic Tune to add dice to an ally's roll?",
)


# -- Throw and post-roll --------------------------------------------------------------------


def show(chains: list[list[int]]) -> str:
    return " ".join("→".join(str(f) for f in c) for c in chains) or "no dice"


@op("roll_throw")
def _roll_throw(ctx: Ctx) -> None:
    s = ctx.s
    r = s.roll
    assert r is not None
    if r["big_bang"]:
        return
    parts = []
    for hid in r["order"]:
        h = s.heroes[hid]
        if h["dead"]:
            continue
        part = r["parts"][hid]
        size = max(0, pool_base(s, h, r["kind"], r["quest"])) + part["extra"] + part["tune"]
        chains = roll_pool(size, ctx.d6)
        r["chains"][hid] = chains
        parts.append(f"{name(hid)} rolls {size} {'die' if size == 1 else 'dice'}: {show(chains)}")
    ctx.emit(
        "roll",
        "; ".join(parts) + f" ({KIND_WORD[r['kind']]}).",
        roll=r["kind"],
        dice={h: [list(c) for c in cs] for h, cs in r["chains"].items()},
        score={h: pool_score(cs) for h, cs in r["chains"].items()},
    )


def post_options(s: State, hid: str) -> tuple[bool, bool]:
    """(may reroll, may change a die) for the roller's own pool now."""
    r = s.roll
    h = s.heroes[hid]
    if r is None or r["big_bang"] or h["dead"] or hid != r["roller"] or hid not in r["chains"]:
        return False, False
    reroll = (h["id"] == GRAND_MASTER and not used(h, "grand_reroll")) or (
        h["id"] == "ninja" and r["kind"] == "combat" and s.relic and not s.tflags.get("ninja_rerolled")
    )
    change = h["id"] == "hunter" and r["kind"] == "combat" and s.relic and not used(h, "poisoned_bullets")
    if change and not any(f != 6 for c in r["chains"][hid] for f in c):
        change = False
    return reroll, change


@op("roll_post")
def _roll_post(ctx: Ctx) -> None:
    s = ctx.s
    if s.roll is None:
        return
    reroll, change = post_options(s, s.roll["roller"])
    if reroll or change:
        ask(s, s.roll["roller"], "post_roll")


def _post_legal(s: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    reroll, change = post_options(s, p["seat"])
    out = [pass_action()]
    if reroll:
        out.append({"type": "reroll"})
    if change:
        assert s.roll is not None
        for i, chain in enumerate(s.roll["chains"][p["seat"]]):
            for j, f in enumerate(chain):
                if f != 6:
                    out.append({"type": "poison", "die": i, "at": j})
    return out


def _post_answer(ctx: Ctx, p: dict[str, Any], a: dict[str, Any]) -> None:
    s = ctx.s
    r = s.roll
    assert r is not None
    hid = p["seat"]
    h = s.heroes[hid]
    chains = r["chains"][hid]
    if a["type"] == "reroll":
        if h["id"] == GRAND_MASTER:
            mark_used(h, "grand_reroll")
            power = "Grand Reroll"
        else:
            s.tflags = {**s.tflags, "ninja_rerolled": True}
            power = "Oboro-Gasumi"
        r["chains"][hid] = roll_pool(len(chains), ctx.d6)
        ctx.emit(
            "reroll",
            f"{power}: {name(hid)} rerolls every die: {show(r['chains'][hid])}.",
            hero=hid,
            dice=[list(c) for c in r["chains"][hid]],
        )
    elif a["type"] == "poison":
        mark_used(h, "poisoned_bullets")
        i, j = a["die"], a["at"]
        chains[i] = continue_chain([*chains[i][:j], 6], ctx.d6)  # R53: scores as a 6 with its chain
        ctx.emit(
            "poisoned_bullets",
            f"Poisoned Bullets: the Hunter turns a die into a 6: {show(chains)}.",
            hero=hid,
            dice=[list(c) for c in chains],
        )


optional_prompt(
    "post_roll",
    legal=_post_legal,
    answer=_post_answer,
    describe=lambda s, p: f"{name(p['seat'])}: keep these dice, or use a reroll/change power?",
)


def close_roll(s: State, flags: int = 0) -> tuple[int, int]:
    """Total the roll (flags included), count the Vampire's 1s (R50), remember it: (total, ones)."""
    tot = total(s, flags)
    ones_count = vampire_ones(s)
    finish_roll(s, tot)
    return tot, ones_count


def total(s: State, flags: int = 0) -> int:
    r = s.roll
    assert r is not None
    return flags + sum(pool_score(cs) for cs in r["chains"].values())


def vampire_ones(s: State) -> int:
    r = s.roll
    assert r is not None
    return ones(r["chains"].get("vampire", []))


def finish_roll(s: State, tot: int) -> None:
    """Remember the roll for the view and clear the in-flight record."""
    r = s.roll
    assert r is not None
    s.last = {
        **s.last,
        "roll": {
            "kind": r["kind"],
            "roller": r["roller"],
            "dice": {h: [list(c) for c in cs] for h, cs in r["chains"].items()},
            "total": tot,
        },
    }
    s.roll = None
