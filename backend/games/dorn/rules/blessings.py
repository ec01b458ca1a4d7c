"""Blessing cards (RB Blessing cards; content 4.2, 4.5; rulings 24, D1-D3).

A Blessing is played in H1 by a seat naming one of its living heroes as the user and goes to
the discard.  Each card has an entry in ``BLESSINGS_IN_RULES``: its *choices* (the extra keys of
each listed action; ``[]`` when it cannot be played now) and its *effect*.  Choices made after it
is played are asked with prompts (rules/prompts.py); this module's ``PROMPTS`` lists them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

from ..board import BOARD, TRAIL
from ..catalog import BLESSINGS, HEROES, MONSTERS
from ..state import Work, cell_name, discard_blessing, placed, xy
from . import reach
from .combat import damage_creature, heal
from .effects import BLESSING_CLASS
from .prompts import PromptRule

UserChoices = Callable[[Work, str], list[dict[str, Any]]]
Effect = Callable[[Work, dict[str, Any]], None]

JUDGEMENT_RANGE = 12  # content 4.2: "within 12" is area distance from the user
BLESSING_HEAL = 3  # B03
FERVOUR_ACTIONS = 2  # B07
SWIFTNESS_STEPS = 10  # B12


class BlessingRule(NamedTuple):
    choices: UserChoices  # (work, user) -> the action's extra keys
    effect: Effect


def _no_choice(w: Work, hid: str) -> list[dict[str, Any]]:
    return [{}]


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


# Questions the Blessings ask once played (rules/prompts.py).
PROMPTS: dict[str, PromptRule] = {}
