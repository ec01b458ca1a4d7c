"""Ritual and Blessing cards (RB Ritual cards, Blessing cards; content 4.1, 4.2, 4.5; rulings
24, 50).

A Ritual is paid from the Blood pool in K1 (at most one per Keeper turn) and goes to the
discard (one-shot) or stays face up in play (permanent); a Blessing is played in H1 by a seat
naming one of its living heroes as the user and goes to the discard.

Each card with an effect has an entry in ``RITUALS_IN_RULES`` / ``BLESSINGS_IN_RULES``: its
*choices* (the extra keys of each listed action: ``[{}]`` when it needs none, ``[]`` when its
precondition fails, so it is neither offered nor paid) and its *effect*.  Lasting effects are
kept in ``s["effects"]`` with the moment they end (``UNTIL_KEEPER_END``, ``UNTIL_HERO_END``);
permanent Rituals are read from ``s["rituals_in_play"]``.  Cards with no entry yet are played
and discarded with no effect (docs/rules/dorn.md lists which).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

from ..board import BOARD, TRAIL
from ..catalog import BLESSINGS, HEROES, MONSTERS, RITUALS, ZORKAL_STATS
from ..state import State, Work, cell_name, discard_blessing, placed, xy
from . import reach
from .combat import damage_creature, heal

Choices = Callable[[Work], list[dict[str, Any]]]
UserChoices = Callable[[Work, str], list[dict[str, Any]]]
Effect = Callable[[Work, dict[str, Any]], None]

# When a lasting effect in ``s["effects"]`` ends: K5.3 (RB; content 5.2) or H5 (content 5.3).
UNTIL_KEEPER_END = "keeper_turn_end"
UNTIL_HERO_END = "hero_turn_end"

SLIME_OF_DESPAIR = "R01"
BLACK_FOUNTAIN = "R02"
BLOODLUST = "R04"
HUNGRY_RATS = "R05"
JUDGEMENT_RANGE = 12  # content 4.2: "within 12" is area distance from the user
BLOODLUST_BONUS = 2
HUNGRY_RAT_MOVE = 9
FOUNTAIN_CREATURE_HEAL = 2
BLESSING_HEAL = 3  # B03
FERVOUR_ACTIONS = 2  # B07
SWIFTNESS_STEPS = 10  # B12
BLESSING_CLASS = 2  # index in a hero's ``mv``: the Blessing-class allowance (content 4.5)


class RitualRule(NamedTuple):
    choices: Choices
    effect: Effect | None  # None: a permanent card, read where it applies


class BlessingRule(NamedTuple):
    choices: UserChoices  # (work, user) -> the action's extra keys
    effect: Effect


def _none(w: Work) -> list[dict[str, Any]]:
    return [{}]


def _no_choice(w: Work, hid: str) -> list[dict[str, Any]]:
    return [{}]


def in_play(s: State, card: str) -> bool:
    return card in s["rituals_in_play"]


def active(s: State, effect: str) -> bool:
    return effect in s["effects"]


def expire(w: Work, until: str) -> None:
    """End every lasting effect that lasts until ``until``."""
    effects = w.s["effects"]
    for key in [k for k, v in effects.items() if v == until]:
        del effects[key]


# ---------------------------------------------------------------------------------------
# Rituals (content 4.1)


def bog_beasts_wait(s: State) -> bool:
    """RB: a bog beast entering play waits a turn, unless Slime of Despair is in play (R01)."""
    return not in_play(s, SLIME_OF_DESPAIR)


def fountains_heal_heroes(s: State) -> bool:
    return not in_play(s, BLACK_FOUNTAIN)


def black_fountain_heal(w: Work) -> None:
    """K5.1 (content 5.2): with Black Fountain in play, every creature on a fountain heals 2,
    Zorkal included (on the board he stands on the throne, never a fountain, so in practice
    only monsters), never above its life."""
    s = w.s
    if not in_play(s, BLACK_FOUNTAIN):
        return
    for mid in sorted(s["monsters"], key=lambda m: s["monsters"][m]["cell"]):
        m = s["monsters"][mid]
        if m["cell"] in BOARD.fountains and m["dmg"] > 0:
            healed = min(FOUNTAIN_CREATURE_HEAL, m["dmg"])
            w.monster(mid)["dmg"] -= healed
            w.emit(
                "monster_healed",
                f"{w.creature_name(mid).capitalize()} at {cell_name(m['cell'])} heals {healed} "
                "(Black Fountain).",
                monster=mid,
                amount=healed,
            )
    z = s["zorkal"]
    top = ZORKAL_STATS["life"][z["level"] - 1]
    if w.zorkal_active() and z["cell"] in BOARD.fountains and z["life"] < top:
        healed = min(FOUNTAIN_CREATURE_HEAL, top - z["life"])
        z["life"] += healed
        w.emit("zorkal_healed", f"Zorkal heals {healed} (Black Fountain).", amount=healed, life=z["life"])


def _bloodlust(w: Work, action: dict[str, Any]) -> None:
    """R04, this Keeper turn: +2 movement for every creature (read when K3 opens)."""
    w.s["effects"][BLOODLUST] = UNTIL_KEEPER_END


def monster_move(s: State, mtype: str) -> int:
    """A monster's Move for the movement step: its base Move (9 for rats under Hungry Rats,
    R05), +2 under Bloodlust (R04, a ritual-class bonus)."""
    move: int = MONSTERS[mtype]["move"]
    if mtype == "rat" and in_play(s, HUNGRY_RATS):
        move = HUNGRY_RAT_MOVE
    if active(s, BLOODLUST):
        move += BLOODLUST_BONUS
    return move


def zorkal_move(s: State) -> int:
    move: int = ZORKAL_STATS["move"]
    return move + BLOODLUST_BONUS if active(s, BLOODLUST) else move


RITUALS_IN_RULES: dict[str, RitualRule] = {
    SLIME_OF_DESPAIR: RitualRule(_none, None),  # bog_beasts_wait
    BLACK_FOUNTAIN: RitualRule(_none, None),  # fountains_heal_heroes, black_fountain_heal
    BLOODLUST: RitualRule(_none, _bloodlust),
    HUNGRY_RATS: RitualRule(_none, None),  # monster_move
}


def ritual_options(w: Work) -> list[str]:
    """Ritual cards the Keeper may pay for now: one per Keeper turn, cost from the pool."""
    s = w.s
    if s["ritual_played"]:
        return []
    return sorted({c for c in s["ritual_hand"] if RITUALS[c]["cost"] <= s["blood"]})


def ritual_actions(w: Work) -> list[dict[str, Any]]:
    """The Blood step's Ritual actions (``actions.STEPS``): one per card and choice; a card
    whose precondition fails lists none, so it is never paid for nothing."""
    out: list[dict[str, Any]] = []
    for card in ritual_options(w):
        rule = RITUALS_IN_RULES.get(card)
        for extra in rule.choices(w) if rule is not None else [{}]:
            out.append({"type": "play_ritual", "card": card, **extra})
    return out


def play_ritual(w: Work, action: dict[str, Any]) -> None:
    s = w.s
    card = action["card"]
    info = RITUALS[card]
    s["blood"] -= info["cost"]
    s["ritual_hand"].remove(card)
    s["ritual_played"] = True
    if info["duration"] == "permanent":
        s["rituals_in_play"].append(card)
    else:
        s["ritual_discard"].append(card)
    w.emit(
        "ritual_played",
        f"The Keeper plays the Ritual {info['name']}, paying {info['cost']} Blood Drops.",
        card=card,
        cost=info["cost"],
        blood=s["blood"],
    )
    rule = RITUALS_IN_RULES.get(card)
    if rule is not None and rule.effect is not None:
        rule.effect(w, action)


# ---------------------------------------------------------------------------------------
# Blessings (content 4.2)


def _user(w: Work, action: dict[str, Any]) -> str:
    hid: str = action["hero"]
    return hid


def _exchange_choices(w: Work, hid: str) -> list[dict[str, Any]]:
    """B02: any other hero on the board."""
    return [{"other": o} for o in w.on_board_heroes() if o != hid]


def _exchange_of_places(w: Work, action: dict[str, Any]) -> None:
    s = w.s
    hid, other = _user(w, action), action["other"]
    a, b = s["heroes"][hid], s["heroes"][other]
    a["cell"], b["cell"] = b["cell"], a["cell"]
    w.moved()
    w.emit(
        "heroes_swapped",
        f"{HEROES[hid]['name']} and {HEROES[other]['name']} swap places (Exchange of Places).",
        hero=hid,
        other=other,
        cells=[xy(placed(a["cell"])), xy(placed(b["cell"]))],
    )


def _mending_light(w: Work, action: dict[str, Any]) -> None:

    heal(w, _user(w, action), BLESSING_HEAL, "Mending Light")


def _judgement_choices(w: Work, hid: str) -> list[dict[str, Any]]:
    """B06: a monster (never Zorkal) within area distance 12 of the user; no sight needed."""
    s = w.s
    dist = reach.area_distances(w, placed(s["heroes"][hid]["cell"]), JUDGEMENT_RANGE)
    return [
        {"target": mid}
        for mid, m in sorted(s["monsters"].items())
        if reach.within(dist, BOARD.cells_of(m["cell"])) is not None
    ]


def _judgement(w: Work, action: dict[str, Any]) -> None:

    mid = action["target"]
    m = w.s["monsters"][mid]
    left = MONSTERS[m["type"]]["life"] - m["dmg"]
    damage_creature(w, mid, left, _user(w, action), "Judgement")


def _battle_fervour(w: Work, action: dict[str, Any]) -> None:
    """B07: +2 actions this hero turn; H1 comes before the attack step, whose allowance is
    fixed when it opens (ruling 23), so they wait among its bonus actions."""
    hid = _user(w, action)
    w.s["heroes"][hid]["bonus_actions"] += FERVOUR_ACTIONS
    w.emit("bonus_actions", f"{HEROES[hid]['name']} gains {FERVOUR_ACTIONS} attacks this turn.", hero=hid)


def herbalist_cell(w: Work) -> int | None:
    """B09: the Herbalist's cell, else the nearest free trail cell walking along the trail from
    it (ties: smaller y, then smaller x); None if the whole trail is taken."""
    occ = w.occupancy()
    start = BOARD.zones["herbalist"][0]
    if start not in occ:
        return start
    seen = {start: 0}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        for n in BOARD.neighbours[c]:
            if n not in seen and BOARD.terrain[n] == TRAIL:
                seen[n] = seen[c] + 1
                queue.append(n)
    free = [c for c, d in seen.items() if c != start and c not in occ]
    if not free:
        return None
    return min(free, key=lambda c: (seen[c], c // BOARD.width, c % BOARD.width))


def _herbalist_choices(w: Work, hid: str) -> list[dict[str, Any]]:
    """Not offered to a user already on the Herbalist's cell, nor with the trail full (ruling D2)."""
    if w.s["heroes"][hid]["cell"] == BOARD.zones["herbalist"][0] or herbalist_cell(w) is None:
        return []
    return [{}]


def _herbalists_call(w: Work, action: dict[str, Any]) -> None:
    hid = _user(w, action)
    cell = herbalist_cell(w)
    assert cell is not None  # the choices list it only then
    w.s["heroes"][hid]["cell"] = cell
    w.moved()
    w.emit(
        "hero_placed",
        f"{HEROES[hid]['name']} is called to {cell_name(cell)} (Herbalist's Call).",
        hero=hid,
        cell=xy(cell),
    )


def _swiftness(w: Work, action: dict[str, Any]) -> None:
    """B12: +10 movement this hero turn, in the Blessing class (content 4.5), which ritual and
    item prohibitions leave usable."""
    hid = _user(w, action)
    w.s["heroes"][hid]["mv"][BLESSING_CLASS] += SWIFTNESS_STEPS
    w.emit("bonus_move", f"{HEROES[hid]['name']} gains {SWIFTNESS_STEPS} movement this turn.", hero=hid)


BLESSINGS_IN_RULES: dict[str, BlessingRule] = {
    "B02": BlessingRule(_exchange_choices, _exchange_of_places),
    "B03": BlessingRule(_no_choice, _mending_light),
    "B06": BlessingRule(_judgement_choices, _judgement),
    "B07": BlessingRule(_no_choice, _battle_fervour),
    "B09": BlessingRule(_herbalist_choices, _herbalists_call),
    "B12": BlessingRule(_no_choice, _swiftness),
}


def blessing_options(w: Work, seat: str) -> list[tuple[str, str]]:
    """(card, user) pairs: the seat's Blessing, used by one of its living on-board heroes."""
    card = w.s["blessings"].get(seat)
    if card is None:
        return []
    return [(card, hid) for hid in w.seat_heroes_on_board(seat)]


def blessing_actions(w: Work, seat: str, heroes: list[str]) -> list[dict[str, Any]]:
    """The Blessings step's actions for the seat, used by one of ``heroes`` (``actions.STEPS``),
    one per choice the card needs."""
    out: list[dict[str, Any]] = []
    for card, hid in blessing_options(w, seat):
        if hid not in heroes:
            continue
        rule = BLESSINGS_IN_RULES.get(card)
        for extra in rule.choices(w, hid) if rule is not None else [{}]:
            out.append({"type": "play_blessing", "card": card, "hero": hid, **extra})
    return out


def play_blessing(w: Work, seat: str, action: dict[str, Any]) -> None:
    card = discard_blessing(w, seat)
    w.emit(
        "blessing_played",
        f"{HEROES[action['hero']]['name']} receives the Blessing {BLESSINGS[card]['name']}.",
        seat=seat,
        card=card,
        hero=action["hero"],
    )
    rule = BLESSINGS_IN_RULES.get(card)
    if rule is not None:
        rule.effect(w, action)
