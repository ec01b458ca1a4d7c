"""Exact odds of every listed action that leads to a roll (issue 14.1; content §4.1–§4.6, R10,
R23, R34, R46, R51, R53, R57).

``odds(view, seat, action)`` reads only ``view`` — the seat's own view, in which face-down
tiles are absent — and the public content tables, so no hidden tile can change a number.
It returns ``{"title", "key", "outcomes"}`` (an Adventure or a Quest adds ``spending``: the key
outcome if the seat then spends 1, 2... of its points) or None for an action that rolls nothing:
``outcomes`` are the chart rows (or success/failure) that matter, each with its exact
probability as a ``"p/q"`` string and a float, and ``key`` is the one a player weighs first
("the quest succeeds").  Other heroes' answers still to come (their spending, an invitee
declining, the Minstrel's Tune) are not guessed: the numbers are for the dice declared so far.

The arithmetic is exact: a scored die is -1 (a 1), 0 (2–3) or +1 (4–5); a 6 is +1 and calls a
bonus die (+1 on 2–6, -1 on a 1), which explodes again on a 6 without limit (R10).  The chain
is unbounded, but every question asked of a total is "at most m" or "at least m" for a few
small m, so each die's score is capped at ``cap + dice`` (a die that high makes the total
exceed ``cap`` whatever the others show) and the mass above the cap is one minus the rest.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from .content import (
    BONUS_SCORE,
    CHARTS,
    DIE_SCORE,
    EXP,
    EXPLODE,
    GRAND_MASTER,
    LANDS,
    NODE_TERRAIN,
    QUESTS,
    TERRAINS,
)
from .rules.dice import score_chain
from .state import copy_json

Dist = dict[int, Fraction]
SIXTH = Fraction(1, 6)
# Every chart row is read as "total <= max"; above the last finite max all totals read alike.
ADVENTURE_CAP = max(r["max"] for r in CHARTS["adventure"] if r["max"] is not None) + 1
BATTLE_CAP = max(r["max"] for r in CHARTS["battle"] if r["max"] is not None) + 1
COMBO_BASE: int = CHARTS["team_combo_base"]
COMBO_SIZE: int = CHARTS["combo_group_size"]
REVIVAL_FACE: int = CHARTS["revival_face"]


# -- Distributions ---------------------------------------------------------------------------


@cache
def bonus_dist(cap: int) -> tuple[tuple[int, Fraction], ...]:
    """Score of one bonus die and every die it calls (R10), totals >= ``cap`` lumped at ``cap``."""
    out: Dist = {}
    below = Fraction(0)
    # k sixes (+1 each) then a last face: k + BONUS_SCORE[last].
    k = 0
    while k + min(BONUS_SCORE.values()) < cap:
        pk = SIXTH**k
        for face in range(1, 7):
            if face == EXPLODE:
                continue
            v = k + BONUS_SCORE[face]
            if v < cap:
                out[v] = out.get(v, Fraction(0)) + pk * SIXTH
                below += pk * SIXTH
        k += 1
    out[cap] = 1 - below
    return tuple(sorted(out.items()))


@cache
def die_dist(cap: int) -> tuple[tuple[int, Fraction], ...]:
    """Score of one main die with its chain (§4.1), scores >= ``cap`` lumped at ``cap``."""
    out: Dist = {}
    for face in range(1, 7):
        if face == EXPLODE:
            for b, p in bonus_dist(cap - DIE_SCORE[face]):
                v = min(cap, DIE_SCORE[face] + b)
                out[v] = out.get(v, Fraction(0)) + SIXTH * p
        else:
            v = min(cap, DIE_SCORE[face])
            out[v] = out.get(v, Fraction(0)) + SIXTH
    return tuple(sorted(out.items()))


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction], cap: int) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            v = min(cap, x + y)
            out[v] = out.get(v, Fraction(0)) + p * q
    return out


@cache
def _die_sixths(cap: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """``die_dist(cap)`` as integer numerators over 6**e (every probability is a multiple of a
    power of 1/6): big-integer sums are far cheaper than Fractions when pools grow large."""
    dist = die_dist(cap)
    e = 0
    for _, p in dist:
        while 6**e % p.denominator:
            e += 1
    return tuple((v, int(p * 6**e)) for v, p in dist), e


@cache
def _pool(n: int, cap: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """min(score of n dice, cap) as integer numerators over 6**e."""
    if n <= 0:
        return ((min(0, cap), 1),), 0
    # Capping each die at cap + n keeps min(total, cap) exact: one die that high leaves the
    # total above cap even if the n - 1 others all show -1.
    die, e1 = _die_sixths(cap + n)
    others, e2 = _pool(n - 1, cap + 1)  # the n - 1 others, capped one higher
    out: dict[int, int] = {}
    for x, a in others:
        for y, b in die:
            v = min(cap, x + y)
            out[v] = out.get(v, 0) + a * b
    return _reduced(out, e1 + e2)


def _reduced(dist: dict[int, int], e: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """The same distribution over the smallest power of 6 (the capped tails need long
    denominators that the sums do not keep): keeps the integers short."""
    g = math.gcd(*dist.values())
    k = 0
    while k < e and g % 6 == 0:
        g //= 6
        k += 1
    scale = 6**k
    return tuple(sorted((v, a // scale) for v, a in dist.items())), e - k


def pool_dist(n: int, cap: int, offset: int = 0) -> Dist:
    """Distribution of ``offset`` + the score of ``n`` scored dice, totals >= ``cap`` lumped at ``cap``."""
    if n <= 0:
        return {min(cap, offset): Fraction(1)}
    dist, e = _pool(n, cap - offset)
    return {min(cap, v + offset): Fraction(a, 6**e) for v, a in dist}


def _merge(d: Dist) -> Dist:
    return {k: v for k, v in d.items() if v}


# -- Reading the charts -----------------------------------------------------------------------


def fraction(p: Fraction) -> dict[str, Any]:
    # A certainty's value is written 0 or 1, as a client writes it: a float 1.0 would be the
    # one number in a view that the server's canonical text has to spell again (play/patch.py).
    return {"p": f"{p.numerator}/{p.denominator}", "value": float(p) if 0 < p < 1 else int(p)}


def outcome(oid: str, label: str, p: Fraction) -> dict[str, Any]:
    return {"id": oid, "label": label, **fraction(p)}


def chart_dist(chart: str, totals: Mapping[int, Fraction]) -> dict[str, Fraction]:
    """Probability of each row of ``chart`` for a total distributed as ``totals``."""
    out: dict[str, Fraction] = {r["id"]: Fraction(0) for r in CHARTS[chart]}
    for t, p in totals.items():
        for r in CHARTS[chart]:
            if r["max"] is None or t <= r["max"]:
                out[r["id"]] += p
                break
    return out


def battle_rows(totals: Mapping[int, Fraction], combo_dice: int) -> dict[str, Fraction]:
    """§4.5 with the Team Combo of §4.6: a total of 2 is re-read as 2 + one die per group
    member, and a re-read Team Combo means each member takes 1 damage (R34)."""
    first = chart_dist("battle", totals)
    combo = first.pop("team_combo")
    again = chart_dist("battle", pool_dist(combo_dice, BATTLE_CAP, COMBO_BASE))
    out = {rid: p + combo * again[rid] for rid, p in first.items()}
    out["combo_failed"] = combo * again["team_combo"]
    return out


ROW_WORDS = {r["id"]: r["words"] for r in (*CHARTS["adventure"], *CHARTS["battle"])}
ROW_WORDS["combo_failed"] = "a Team Combo that fails (1 damage each)"


def adventure_odds(totals: Mapping[int, Fraction], hero: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows = chart_dist("adventure", totals)
    words = dict(ROW_WORDS)
    if hero == "samurai":
        # Never Targets the Weak: a score of 1 does nothing for the Samurai.
        rows["adv_nothing"] += rows.pop("adv_scrape")
    outs = [outcome(rid, words[rid], p) for rid, p in rows.items()]
    win = rows.get("adv_scrape", Fraction(0)) + rows["adv_clean"]
    return outcome("success", "adventure succeeds", win), outs


def quest_odds(totals: Mapping[int, Fraction], target: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    win = sum((p for t, p in totals.items() if t >= target), Fraction(0))
    return outcome("success", "quest succeeds", win), [
        outcome("success", "success", win),
        outcome("failure", "failure", 1 - win),
    ]


def combat_odds(
    totals: Mapping[int, Fraction], combo_dice: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rows = battle_rows(totals, combo_dice)
    order = [r["id"] for r in CHARTS["battle"] if r["id"] != "team_combo"] + ["combo_failed"]
    outs = [outcome(rid, ROW_WORDS[rid], rows[rid]) for rid in order]
    hit = sum((rows[r["id"]] for r in CHARTS["battle"] if r.get("dragon")), Fraction(0))
    return outcome("dragon_hit", "the Dragon is hit", hit), outs


# -- What the view says ------------------------------------------------------------------------


def _heroes(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {h["id"]: h for h in view["heroes"]}


def node_class(view: Mapping[str, Any], node: str) -> str:
    """rules.heroes.node_class, from the view: Fang tiles by class, razed Belk a road."""
    land = view["lands"].get(node)
    if land:
        return str(LANDS[land]["class"])
    if node == "belk" and view["belk_razed"]:
        return "road"
    return str(TERRAINS[NODE_TERRAIN[node]]["class"])


def _thirsty(h: Mapping[str, Any], attribute: str, spent: int) -> int:
    """R51: the Vampire's attribute when the throw sizes her pool after spending ``spent``."""
    v = int(h["attrs"][attribute])
    if h["id"] == "vampire" and h["res"] > 0 and h["res"] - spent <= 0:
        v = max(0, v + EXP["thirst"][attribute])
    return v


def base_pool(
    view: Mapping[str, Any], h: Mapping[str, Any], kind: str, quest: str | None, spent: int = 0
) -> int:
    """rules.heroes.pool_base from the view (attributes there already carry Lycanthropy and
    Thirst; ``spent`` is Blood the Vampire pays in this window)."""
    if h["dead"]:
        return 0
    if kind == "adventure":
        cls = node_class(view, h["pos"])
        return int(h["attrs"]["plains_danger"] if cls == "plains" else h["attrs"]["forest_danger"])
    if kind == "quest":
        assert quest is not None
        q = QUESTS[quest]
        n = _thirsty(h, q["attribute"], spent)
        if q["magical"] and h["id"] == "magician" and q["attribute"] in ("search", "knowledge"):
            n += 2
        if q["magical"] and h["id"] == GRAND_MASTER:
            n += 1
        return n
    return _thirsty(h, "combat", spent) + (1 if view["party"]["weapons_bonus"] else 0)


def combo_dice(view: Mapping[str, Any], anchor: str) -> int:
    """R33: the combo group's size (all living heroes when 5 or fewer, else 5)."""
    live = [h for h in view["heroes"] if not h["dead"]]
    if len(live) <= COMBO_SIZE:
        return len(live)
    return COMBO_SIZE if not _heroes(view)[anchor]["dead"] else COMBO_SIZE - 1


def _read(
    view: Mapping[str, Any], kind: str, roller: str, quest: str | None, dice: int, offset: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The chance of each outcome of a ``kind`` roll of ``dice`` dice plus ``offset`` (new
    dicts: they go into a view)."""
    key, outs = _reading(
        kind, roller if kind == "adventure" else "", quest, dice, offset,
        combo_dice(view, roller) if kind not in ("adventure", "quest") else 0,
    )  # fmt: skip
    return copy_json(key), copy_json(outs)


@cache
def _reading(
    kind: str, roller: str, quest: str | None, dice: int, offset: int, combo: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``_read``'s answer, worked out once per process for each roll it reads (what decides
    it: the kind, the adventurer (the Samurai reads a 1 otherwise), the quest's target, the
    dice, the offset and a combat's Team Combo group): the same few rolls come up step after
    step, and their exact fractions were most of a view's cost (bench/README.md, issue 15)."""
    if kind == "adventure":
        return adventure_odds(pool_dist(dice, ADVENTURE_CAP, offset), roller)
    if kind == "quest":
        assert quest is not None
        target: int = QUESTS[quest]["target"]
        return quest_odds(pool_dist(dice, target, offset), target)
    return combat_odds(pool_dist(dice, BATTLE_CAP, offset), combo)


def _answer(title: str, key: dict[str, Any], outs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"title": title, "key": key, "outcomes": outs}


def _dice_word(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


# -- Per action --------------------------------------------------------------------------------


def odds(view: Mapping[str, Any], seat: str, action: Mapping[str, Any]) -> dict[str, Any] | None:
    """The exact odds of ``action`` for ``seat`` from its own ``view``, or None (no roll)."""
    if view.get("outcome") is not None:
        return None
    t = action.get("type")
    if t == "adventure":
        return _adventure(view, seat)
    if t == "quest":
        return _quest(view, seat, action)
    if t == "spend":
        return _spend(view, seat, action)
    if t == "tune":
        return _tune(view, action)
    if t in ("reroll", "poison", "pass") and _prompt_kind(view, seat) == "post_roll":
        return _post(view, seat, action)
    if t == "absorb":
        return _absorb(view, seat, action)
    return None


def _prompt_kind(view: Mapping[str, Any], seat: str) -> str | None:
    return next((p["kind"] for p in view["prompts"] if p["seat"] == seat), None)


def _spending(
    view: Mapping[str, Any], seat: str, kind: str, quest: str | None, dice: int, offset: int
) -> list[dict[str, Any]]:
    """The key outcome if the seat then spends 1, 2... of its points (1 point = 1 die, R7)."""
    h = _heroes(view)[seat]
    out = []
    for k in range(1, int(h["res"]) + int(h["gold"]) + 1):
        thirst = base_pool(view, h, kind, quest, k) - base_pool(view, h, kind, quest)
        key, _ = _read(view, kind, seat, quest, max(0, dice + k + thirst), offset)
        out.append({"spend": k, "label": f"spending {k}", **fraction(Fraction(key["p"]))})
    return out


def _adventure(view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    h = _heroes(view)[seat]
    n = max(0, base_pool(view, h, "adventure", None))
    key, outs = _read(view, "adventure", seat, None, n, 0)
    where = node_class(view, h["pos"])
    answer = _answer(f"Adventure in the {where}: {_dice_word(n)}, before spending", key, outs)
    answer["spending"] = _spending(view, seat, "adventure", None, n, 0)
    return answer


def _quest(view: Mapping[str, Any], seat: str, action: Mapping[str, Any]) -> dict[str, Any] | None:
    m = next((mt for mt in view["mountains"] if mt["id"] == action.get("mountain")), None)
    if m is None or m["quest"] is None:
        return None  # only a face-up quest can be attempted, and only a face-up one is read
    qid = m["quest"]["id"]
    heroes = _heroes(view)
    group = [seat, *[i for i in action.get("invite", []) if i in heroes]]
    n = sum(max(0, base_pool(view, heroes[g], "quest", qid)) for g in group)
    key, outs = _read(view, "quest", seat, qid, n, int(m["flags"]))
    who = "with every invited hero" if len(group) > 1 else "alone"
    flags = f" + {m['flags']} flags" if m["flags"] else ""
    answer = _answer(
        f"{m['quest']['name']} (needs {QUESTS[qid]['target']}), {who}: {_dice_word(n)}{flags}, before spending",
        key,
        outs,
    )
    answer["spending"] = _spending(view, seat, "quest", qid, n, int(m["flags"]))
    return answer


def _roll_dice(
    view: Mapping[str, Any], extra: Mapping[str, int], spent: Mapping[str, int]
) -> tuple[int, str | None]:
    """Dice of the roll in progress: each living participant's base pool plus extras."""
    r = view["roll"]
    heroes = _heroes(view)
    quest = _roll_quest(view)
    total = 0
    for hid in r["participants"]:
        h = heroes[hid]
        if h["dead"]:
            continue
        total += max(0, base_pool(view, h, r["kind"], quest, spent.get(hid, 0))) + extra.get(hid, 0)
    return total, quest


def _roll_quest(view: Mapping[str, Any]) -> str | None:
    r = view["roll"]
    if r["kind"] != "quest":
        return None
    m = next(mt for mt in view["mountains"] if mt["id"] == r["mountain"])
    return str(m["quest"]["id"])


def _flags(view: Mapping[str, Any]) -> int:
    r = view["roll"]
    if r["kind"] != "quest":
        return 0
    return int(next(mt for mt in view["mountains"] if mt["id"] == r["mountain"])["flags"])


def _spend(view: Mapping[str, Any], seat: str, action: Mapping[str, Any]) -> dict[str, Any] | None:
    r = view["roll"]
    if r is None:
        return None
    amount = int(action.get("amount", 0))
    dice = amount + (1 if action.get("gust") and amount else 0)
    extra = dict(r["extra"])
    extra[seat] = extra.get(seat, 0) + dice
    blood = amount - int(action.get("gold", 0))
    n, quest = _roll_dice(view, extra, {seat: blood})
    key, outs = _read(view, r["kind"], r["roller"], quest, n, _flags(view))
    return _answer(f"{_dice_word(n)} in all if the others add nothing more", key, outs)


def _tune(view: Mapping[str, Any], action: Mapping[str, Any]) -> dict[str, Any] | None:
    r = view["roll"]
    if r is None:
        return None
    extra = dict(r["extra"])
    extra[action["to"]] = extra.get(action["to"], 0) + int(action["amount"])
    n, quest = _roll_dice(view, extra, {})
    key, outs = _read(view, r["kind"], r["roller"], quest, n, _flags(view))
    return _answer(f"{_dice_word(n)} in all", key, outs)


def _post(view: Mapping[str, Any], seat: str, action: Mapping[str, Any]) -> dict[str, Any] | None:
    """After the throw: keep, reroll every die of one's own pool, or turn one die into a 6."""
    r = view["roll"]
    if r is None or seat not in r["dice"]:
        return None
    chains: Sequence[Sequence[int]] = r["dice"][seat]
    others = sum(score_chain(c) for h, cs in r["dice"].items() if h != seat for c in cs) + _flags(view)
    quest = _roll_quest(view)
    kind = r["kind"]
    if action["type"] == "pass":
        fixed = others + sum(score_chain(c) for c in chains)
        key, outs = _read(view, kind, r["roller"], quest, 0, fixed)
        return _answer("keeping these dice", key, outs)
    if action["type"] == "reroll":
        key, outs = _read(view, kind, r["roller"], quest, len(chains), others)
        return _answer(f"rerolling your {_dice_word(len(chains))}", key, outs)
    i, j = int(action["die"]), int(action["at"])
    rest = others + sum(score_chain(c) for k, c in enumerate(chains) if k != i)
    head = score_chain([*chains[i][:j], EXPLODE])  # the new 6 scores, then calls a bonus die
    cap = {"adventure": ADVENTURE_CAP, "combat": BATTLE_CAP}.get(kind) or int(QUESTS[quest or ""]["target"])
    totals: Dist = {}
    for b, p in bonus_dist(cap - rest - head):
        v = min(cap, rest + head + b)
        totals[v] = totals.get(v, Fraction(0)) + p
    key, outs = _totals_read(view, kind, r["roller"], quest, totals)
    return _answer("with this die turned into a 6", key, outs)


def _totals_read(
    view: Mapping[str, Any], kind: str, roller: str, quest: str | None, totals: Dist
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if kind == "adventure":
        return adventure_odds(totals, roller)
    if kind == "quest":
        assert quest is not None
        return quest_odds(totals, QUESTS[quest]["target"])
    return combat_odds(totals, combo_dice(view, roller))


def revival_chance(heroes: int) -> Fraction:
    """R23: every hero in play rolls one die, and any 6 saves all the dying heroes."""
    return 1 - Fraction(5, 6) ** heroes


def _absorb(view: Mapping[str, Any], seat: str, action: Mapping[str, Any]) -> dict[str, Any] | None:
    """Absorbing too little in the Adventure phase leaves the hero at 0: then the revival roll."""
    dmg = view["damage"]
    if dmg is None or view["phase"] != "adventure":
        return None
    h = _heroes(view)[seat]
    left = int(h["hp"]) - (int(dmg["targets"].get(seat, 0)) - int(action.get("amount", 0)))
    if left > 0:
        return None
    n = len(view["heroes"])
    save = revival_chance(n)
    return _answer(
        f"you fall: the revival roll ({_dice_word(n)}, any {REVIVAL_FACE} saves)",
        outcome("revived", "the revival roll saves the party", save),
        [outcome("revived", "revived", save), outcome("defeat", "the heroes lose", 1 - save)],
    )


def table_odds(
    view: Mapping[str, Any], seat: str, legal: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``view["odds"]``: one entry per listed action that rolls, in the legal list's order (each
    action copied: ``legal`` may be the game's own list)."""
    out = []
    for i, a in enumerate(legal):
        o = odds(view, seat, a)
        if o is not None:
            out.append({"index": i, "action": copy_json(a), **o})
    return out
