"""Blessing cards (RB Blessing cards; content 4.2, 4.5; rulings 24, D1-D3, B1-B5).

A Blessing is played in H1 by a seat naming one of its living heroes as the user and goes to
the discard.  Each card has an entry in ``BLESSINGS_IN_RULES``: its *choices* (the extra keys of
each listed action; ``[]`` when it cannot be played now, ruling B3) and its *effect*.  Choices
made after it is played are asked with prompts (rules/prompts.py); this module's ``PROMPTS``
lists them (B04 Tremor, B05 Discord, and B01's return from rules/astral.py).  Zorkal's cloak
makes him immune to every Blessing (content 2.4): the cards that touch creatures read only
``s["monsters"]``, which never holds him.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from backend.engine.core import Action

from ..board import BOARD, TRAIL
from ..catalog import BLESSINGS, HEROES, MONSTERS
from ..state import PromptState, Work, cell_name, discard_blessing, placed, xy
from . import astral, reach
from .combat import aegis_key, damage_creature, heal
from .effects import BLESSING_CLASS, UNTIL_KEEPER_END
from .movement import creature_can_move, creature_destinations, hero_may_stop
from .prompts import PromptRule, ask
from .treasure import enter_cell

UserChoices = Callable[[Work, str], list[dict[str, Any]]]
Effect = Callable[[Work, dict[str, Any]], None]

JUDGEMENT_RANGE: Final = 12  # content 4.2: "within 12" is area distance from the user
BLESSING_HEAL: Final = 3  # B03
FERVOUR_ACTIONS: Final = 2  # B07
SWIFTNESS_STEPS: Final = 10  # B12
BLINK_RANGE: Final = 5  # B10: teleport distance (content 1.7.2)
TREMOR_STEPS: Final = 2  # B04


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


def _astral_journey(w: Work, action: dict[str, Any]) -> None:
    """B01: the user leaves the board (rules/astral.py)."""
    astral.leave(w, _user(w, action))


def _aegis(w: Work, action: dict[str, Any]) -> None:
    """B08: the user loses no life during the next Keeper turn (``combat.under_aegis``): the
    effect holds that turn's number and ends at its K5.3 (content 5.2)."""
    hid = _user(w, action)
    w.s["effects"][aegis_key(hid)] = {"until": UNTIL_KEEPER_END, "k": w.s["k"] + 1}
    w.emit(
        "aegis_granted",
        f"{HEROES[hid]['name']} will lose no life during the next Keeper turn (Aegis).",
        hero=hid,
    )


def _blink_cells(w: Work, hid: str) -> list[int]:
    """B10: legal hero cells at teleport distance 1-5 (content 1.7.2: over figures and
    obstacles, never through a pad link), in reading order."""
    cell = placed(w.s["heroes"][hid]["cell"])
    dist = reach.teleport_distances(w, cell, BLINK_RANGE)
    own = BOARD.cells_of(cell)
    return [c for c in sorted(dist) if c not in own and hero_may_stop(w, hid, c)]


def _blink_choices(w: Work, hid: str) -> list[dict[str, Any]]:
    return [{"to": xy(c)} for c in _blink_cells(w, hid)]


def _blink(w: Work, action: dict[str, Any]) -> None:
    """B10: it relocates itself (ruling 38); no Thorny Portals on a pad (content 4.5)."""
    hid = _user(w, action)
    h = w.s["heroes"][hid]
    to = BOARD.idx(*action["to"])
    h["cell"] = to
    h["moved"] = True
    w.moved()
    w.emit("hero_teleported", f"{HEROES[hid]['name']} blinks to {cell_name(to)}.", hero=hid, cell=xy(to))
    enter_cell(w, hid, to)  # ruling 35


def _beside(w: Work, hid: str) -> list[int]:
    """Cells adjacent to the hero (content 1.7.1: either pad cell's neighbours; in Argos, every
    Argos cell, as all heroes there are adjacent), in reading order."""
    cell = placed(w.s["heroes"][hid]["cell"])
    out = {n for c in BOARD.cells_of(cell) for n in BOARD.neighbours[c]}
    if cell in astral.ARGOS:
        out |= astral.ARGOS
    return sorted(out)


def _rescue_choices(w: Work, hid: str) -> list[dict[str, Any]]:
    """B11: another on-board hero and a legal hero cell beside the user, not where that hero
    already stands; none at all makes the card unplayable (content 4.2)."""
    heroes = w.s["heroes"]
    cells = _beside(w, hid)
    out: list[dict[str, Any]] = []
    for other in w.on_board_heroes():
        if other == hid:
            continue
        there = BOARD.cells_of(placed(heroes[other]["cell"]))
        out += [{"other": other, "to": xy(c)} for c in cells if c not in there and hero_may_stop(w, other, c)]
    return out


def _rescue(w: Work, action: dict[str, Any]) -> None:
    """B11: being moved by another hero is not moving (ruling 38); no Thorny Portals."""
    hid, other = _user(w, action), action["other"]
    to = BOARD.idx(*action["to"])
    w.s["heroes"][other]["cell"] = to
    w.moved()
    w.emit(
        "hero_placed",
        f"{HEROES[other]['name']} is rescued to {cell_name(to)}, beside {HEROES[hid]['name']} (Rescue).",
        hero=other,
        by=hid,
        cell=xy(to),
    )
    enter_cell(w, other, to)  # ruling 35


# -- B04 Tremor and B05 Discord: the monsters within 12 of the user, snapshot at play --------


def _within_twelve(w: Work, hid: str) -> list[str]:
    """Monsters (never Zorkal) within area distance 12 of the user, by id."""
    s = w.s
    dist = reach.area_distances(w, placed(s["heroes"][hid]["cell"]), JUDGEMENT_RANGE)
    return [mid for mid, m in sorted(s["monsters"].items()) if reach.within(dist, BOARD.cells_of(m["cell"]))]


def _tremor_choices(w: Work, hid: str) -> list[dict[str, Any]]:
    """B04 is offered when some monster within 12 can take a step (ruling B3)."""
    monsters = w.s["monsters"]
    found = any(creature_can_move(w, mid, monsters[mid]["cell"]) for mid in _within_twelve(w, hid))
    return [{}] if found else []


def _tremor(w: Work, action: dict[str, Any]) -> None:
    hid = _user(w, action)
    _tremor_next(w, w.s["heroes"][hid]["seat"], hid, _within_twelve(w, hid))


def _tremor_left(w: Work, left: list[str]) -> list[str]:
    monsters = w.s["monsters"]
    return [mid for mid in left if mid in monsters and creature_can_move(w, mid, monsters[mid]["cell"])]


def _tremor_next(w: Work, seat: str, hid: str, left: list[str]) -> None:
    """Ask for the next monster's move while one of the snapshot can still move (ruling B4)."""
    left = _tremor_left(w, left)
    if not left:
        return
    ask(
        w,
        TREMOR,
        seat,
        f"Tremor ({HEROES[hid]['name']}): move a monster within 12 up to 2 steps, or stop.",
        hero=hid,
        left=left,
    )


def _tremor_answers(w: Work, p: PromptState) -> list[Action]:
    """Stop first (``skip``; the default: 0 steps for every monster left, content 5.10), then
    each monster's destinations within 2 steps by the monsters' movement rules."""
    monsters = w.s["monsters"]
    out: list[Action] = [{"type": "choose", "skip": True}]
    for mid in _tremor_left(w, p["data"]["left"]):
        dests = creature_destinations(w, mid, monsters[mid]["cell"], TREMOR_STEPS)
        out += [{"type": "choose", "monster": mid, "to": xy(c)} for c in sorted(dests)]
    return out


def _tremor_move(w: Work, seat: str, p: PromptState, a: Action) -> None:
    hid = p["data"]["hero"]
    if a.get("skip"):
        w.emit("tremor_ends", f"The Tremor of {HEROES[hid]['name']} dies down.", hero=hid)
        return
    mid = a["monster"]
    m = w.monster(mid)
    start, to = m["cell"], BOARD.idx(*a["to"])
    w.relocate(mid, start, to)
    m["cell"] = to
    w.emit(
        "creature_shoved",
        f"The Tremor moves {w.creature_name(mid)} from {cell_name(start)} to {cell_name(to)}.",
        figure=mid,
        cell=xy(to),
    )
    _tremor_next(w, seat, hid, [x for x in p["data"]["left"] if x != mid])


def _discord_pairs(w: Work, left: list[str]) -> list[tuple[str, str]]:
    """(strong, weak) for each strong monster of the snapshot still on the board and each weak
    monster adjacent to it now."""
    monsters = w.s["monsters"]
    weak = [mid for mid, m in sorted(monsters.items()) if MONSTERS[m["type"]]["class"] == "weak"]
    out = []
    for sid in left:
        strong = monsters.get(sid)
        if strong is None:
            continue
        out += [(sid, x) for x in weak if reach.adjacent(strong["cell"], monsters[x]["cell"])]
    return out


def _discord_snapshot(w: Work, hid: str) -> list[str]:
    monsters = w.s["monsters"]
    return [mid for mid in _within_twelve(w, hid) if MONSTERS[monsters[mid]["type"]]["class"] == "strong"]


def _discord_choices(w: Work, hid: str) -> list[dict[str, Any]]:
    """B05 is offered when some strong monster within 12 has a weak one beside it (ruling B3)."""
    return [{}] if _discord_pairs(w, _discord_snapshot(w, hid)) else []


def _discord(w: Work, action: dict[str, Any]) -> None:
    hid = _user(w, action)
    _discord_next(w, w.s["heroes"][hid]["seat"], hid, _discord_snapshot(w, hid))


def _discord_next(w: Work, seat: str, hid: str, left: list[str]) -> None:
    """One strike at a time, in the player's order; a single possible strike needs no question
    (ruling B5)."""
    while True:
        pairs = _discord_pairs(w, left)
        if not pairs:
            return
        if len(pairs) > 1:
            ask(
                w,
                DISCORD,
                seat,
                f"Discord ({HEROES[hid]['name']}): pick a strong monster and the weak one beside it that "
                "it strikes.",
                hero=hid,
                left=left,
            )
            return
        strong, weak = pairs[0]
        _strike(w, hid, strong, weak)
        left = [x for x in left if x != strong]


def _strike(w: Work, hid: str, strong: str, weak: str) -> None:
    """The strong monster deals the weak one damage equal to its Attacks; XP to the user."""
    monsters = w.s["monsters"]
    n = MONSTERS[monsters[strong]["type"]]["attacks"]
    w.emit(
        "discord_strike",
        f"Discord: {w.creature_name(strong)} at {cell_name(monsters[strong]['cell'])} strikes "
        f"{w.creature_name(weak)} at {cell_name(monsters[weak]['cell'])} for {n}.",
        figure=strong,
        target=weak,
        amount=n,
    )
    damage_creature(w, weak, n, hid, "Discord")


def _discord_answers(w: Work, p: PromptState) -> list[Action]:
    """The strong monster that strikes (``monster``) and its weak neighbour (``target``)."""
    return [{"type": "choose", "monster": a, "target": b} for a, b in _discord_pairs(w, p["data"]["left"])]


def _discord_strike(w: Work, seat: str, p: PromptState, a: Action) -> None:
    hid, strong = p["data"]["hero"], a["monster"]
    _strike(w, hid, strong, a["target"])
    _discord_next(w, seat, hid, [x for x in p["data"]["left"] if x != strong])


TREMOR: Final = "tremor"
DISCORD: Final = "discord"


BLESSINGS_IN_RULES: Final[dict[str, BlessingRule]] = {
    "B01": BlessingRule(_no_choice, _astral_journey),
    "B02": BlessingRule(_exchange_choices, _exchange_of_places),
    "B03": BlessingRule(_no_choice, _mending_light),
    "B04": BlessingRule(_tremor_choices, _tremor),
    "B05": BlessingRule(_discord_choices, _discord),
    "B06": BlessingRule(_judgement_choices, _judgement),
    "B07": BlessingRule(_no_choice, _battle_fervour),
    "B08": BlessingRule(_no_choice, _aegis),
    "B09": BlessingRule(_herbalist_choices, _herbalists_call),
    "B10": BlessingRule(_blink_choices, _blink),
    "B11": BlessingRule(_rescue_choices, _rescue),
    "B12": BlessingRule(_no_choice, _swiftness),
}


def blessing_options(w: Work, seat: str) -> list[tuple[str, str]]:
    """(card, user) pairs: the seat's Blessing, used by one of its living on-board heroes."""
    card = w.s["blessings"].get(seat)
    if card is None:
        return []
    return [(card, hid) for hid in w.seat_heroes_on_board(seat)]


def blessing_actions(w: Work, seat: str, heroes: list[str]) -> list[dict[str, Any]]:
    """The Blessings step's actions for the seat, used by one of ``heroes`` (``steps.STEPS``),
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


# Questions the Blessings ask once played (rules/prompts.py); each defaults to its first answer
# (Tremor: stop; Discord: the first strike) except the astral return (the first Argos cell).
PROMPTS: Final[dict[str, PromptRule]] = {
    TREMOR: PromptRule(_tremor_answers, _tremor_move),
    DISCORD: PromptRule(_discord_answers, _discord_strike),
    **astral.PROMPTS,
}
