"""Steered random play for simulations, conformance games and benchmarks.

Uniformly random Dorasure heroes wander, rarely reach a mountain, waste their
resources and let the meter fill: about 1 game in 100 was won (measured before
this module: 1 win in 200 four-hero games).  So the driver
(``backend/engine/playout.py``) asks for ``sim_choice``: with probability
``NUDGE`` the pick is the *purposeful* listed action below, otherwise a uniform
one, so every listed action still gets played.  The pick is always one of the
listed actions and is validated and applied like a player's.

Purposeful picks, by prompt kind:

* ``move``: walk towards a revealed quest's mountain, else a face-down one; a hero
  at 2 Health or less walks to a place where he may rest.
* ``act``: a quest (inviting every helper), rest when hurt, gather information,
  adventure when healthy, else end the turn.
* ``spend``/``tune``: everything on Combat and Quest rolls (Big Bang, Gust,
  Elixir when offered); nothing on Adventures.
* ``post_roll``: reroll a poor roll; Poisoned Bullets on the lowest main die.
* ``doll``: the Shaman takes the damage that would fell an ally, if he survives it.
* every other optional power is used (Faith, Lullaby, Shield, Kiss, extra turn);
  an invited hero accepts; absorption keeps its default (R65).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from backend.engine.rng import Rng

from .content import CITY, MOUNTAIN_SIDES, MOUNTAINS, MOVE_NEIGHBOURS
from .rules.adventure import rest_amount
from .rules.damage import absorb_default
from .rules.dice import pool_score
from .state import State

Action = dict[str, Any]
# A purposeful pick for one prompt kind: None when it has no opinion (the uniform pick then).
Pick = Callable[[State, str, list[Action]], Action | None]
NUDGE = (3, 4)  # numerator, denominator: chance of the purposeful pick


def _distances() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for start in MOVE_NEIGHBOURS:
        seen = {start: 0}
        todo = deque([start])
        while todo:
            n = todo.popleft()
            for m in MOVE_NEIGHBOURS[n]:
                if m not in seen:
                    seen[m] = seen[n] + 1
                    todo.append(m)
        out[start] = seen
    return out


DIST = _distances()
FAR = 99


def choose(s: State, seat: str, legal: list[Action], rng: Rng) -> Action:
    # Never take a step back: it only lengthens the playouts (and keeps their picks as before).
    legal = [a for a in legal if a["type"] != "undo_step"] or legal
    if len(legal) > 1 and rng.below(NUDGE[1]) < NUDGE[0]:
        p = s.prompt_for(seat)
        pick = PICKS.get(p["kind"]) if p else None
        if pick is not None:
            a: Action | None = pick(s, seat, legal)
            if a is not None and a in legal:
                return a
    return legal[rng.below(len(legal))]


def _goal(s: State, seat: str) -> set[str]:
    h = s.heroes[seat]
    if h["hp"] <= 2:
        rest = {n for n in MOVE_NEIGHBOURS if _rest_at(s, seat, n)}
        if rest:
            return rest
    for wanted in ("revealed", "hidden"):
        sides = {n for m in MOUNTAINS if s.mountains[m]["state"] == wanted for n in MOUNTAIN_SIDES[m]}
        if sides:
            return sides
    return {CITY}


def _rest_at(s: State, seat: str, node: str) -> bool:
    h = s.heroes[seat]
    here = h["pos"]
    h["pos"] = node  # rest_amount reads the position; restored at once
    try:
        return rest_amount(s, seat) > 0
    finally:
        h["pos"] = here


def _pick_move(s: State, seat: str, legal: list[Action]) -> Action | None:
    goal = _goal(s, seat)
    here = s.heroes[seat]["pos"]

    def dist(node: str) -> int:
        return min((DIST[node].get(g, FAR) for g in goal), default=FAR)

    options = [(dist(a["to"]), a) for a in legal if a["type"] == "move"]
    if {"type": "end_move"} in legal:
        options.append((dist(here), {"type": "end_move"}))
    return min(options, key=lambda o: o[0])[1] if options else None


def _pick_act(s: State, seat: str, legal: list[Action]) -> Action | None:
    h = s.heroes[seat]
    quests = [a for a in legal if a["type"] == "quest"]
    if quests:
        return max(quests, key=lambda a: len(a["invite"]))
    hurt = h["hp"] <= 2
    for kind in (("rest",) if hurt else ()) + ("gather",) + (() if hurt else ("adventure",)) + ("rest",):
        for a in legal:
            if a["type"] == kind and (kind != "rest" or h["hp"] < h["max_hp"]):
                return a
    return {"type": "end_turn"}


def _pick_spend(s: State, seat: str, legal: list[Action]) -> Action | None:
    if s.roll is None or s.roll["kind"] == "adventure":
        return None
    if {"type": "big_bang"} in legal:
        return {"type": "big_bang"}
    spends = [a for a in legal if a["type"] == "spend"]
    return max(spends, key=lambda a: (a["amount"], bool(a.get("gust")), bool(a.get("elixir"))))


def _pick_tune(s: State, seat: str, legal: list[Action]) -> Action | None:
    if s.roll is None or s.roll["kind"] == "adventure":
        return None
    roller = s.roll["roller"]
    tunes = [a for a in legal if a["type"] == "tune"]
    return max(tunes, key=lambda a: (a["to"] == roller, a["amount"])) if tunes else None


def _pick_post(s: State, seat: str, legal: list[Action]) -> Action | None:
    assert s.roll is not None
    chains = s.roll["chains"][seat]
    if {"type": "reroll"} in legal and pool_score(chains) <= 1:
        return {"type": "reroll"}
    poisons = [a for a in legal if a["type"] == "poison" and a["at"] == 0]
    return min(poisons, key=lambda a: chains[a["die"]][0]) if poisons else None


def _pick_doll(s: State, seat: str, legal: list[Action]) -> Action | None:
    assert s.dmg is not None
    targets = s.dmg["targets"]
    shaman = s.heroes["shaman"]
    room = shaman["hp"] + shaman["res"] - targets.get("shaman", 0) - 1
    take: dict[str, int] = {}
    for h, n in targets.items():
        ally = s.heroes[h]
        if h != "shaman" and n >= ally["hp"] + ally["res"] + ally["gold"] and n <= room:
            take[h] = n
            room -= n
    return {"type": "doll", "take": take} if take else None


def _pick_absorb(s: State, seat: str, legal: list[Action]) -> Action | None:
    p = s.prompt_for(seat)
    assert p is not None
    return absorb_default(s, p)


def _first_use(kind: str) -> Pick:
    def pick(s: State, seat: str, legal: list[Action]) -> Action | None:
        return next((a for a in legal if a["type"] == kind), None)

    return pick


PICKS: dict[str, Pick] = {
    "reaction": lambda s, seat, legal: next((a for a in legal if a["type"] != "pass"), None),
    "move": _pick_move,
    "act": _pick_act,
    "spend": _pick_spend,
    "tune": _pick_tune,
    "post_roll": _pick_post,
    "doll": _pick_doll,
    "absorb": _pick_absorb,
    "assist": _first_use("accept"),
    "shield": _first_use("shield"),
    "kiss": _first_use("kiss"),
    "extra_turn": _first_use("extra_turn"),
}
