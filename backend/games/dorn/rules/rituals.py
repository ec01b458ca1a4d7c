"""Ritual cards (RB Ritual cards; content 4.1, 4.5, 5.10; rulings 19, 21, 50 and K1-K9 in
docs/rules/dorn.md).

A Ritual is paid from the Blood pool in K1 (at most one per Keeper turn) and goes to the
discard (one-shot) or stays face up in play (permanent).  Each card has an entry in
``RITUALS_IN_RULES``: its *choices* (the extra keys of each listed action: ``[{}]`` when it needs
none, ``[]`` when its precondition fails, so it is neither offered nor paid) and its *effect*.
Choices made after paying (which cells, which heroes) are asked with prompts (rules/prompts.py);
this module's ``PROMPTS`` lists them, with those of the placing Rituals (R06-R09,
rules/rituals_summons.py).  Their timeout default is the first listed answer (content 5.10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from backend.engine.core import Action

from ..board import BOARD
from ..catalog import HEROES, MONSTERS, RITUALS, TIE_BREAK, ZORKAL_STATS
from ..state import KEEPER, PromptState, State, Work, cell_name, xy
from . import combat, obstacles, rituals_summons, variants
from .effects import UNTIL_HERO_END, UNTIL_KEEPER_END, active, in_play
from .movement import ICY_PRISON as ICY_PRISON  # R03, read by movement and the determiniser
from .prompts import PromptRule, ask
from .summoning import SLIME_OF_DESPAIR as SLIME_OF_DESPAIR
from .summoning import bog_beasts_wait as bog_beasts_wait  # R01, read where monsters are placed

Choices = Callable[[Work], list[dict[str, Any]]]
Effect = Callable[[Work, dict[str, Any]], None]

BLACK_FOUNTAIN: Final = "R02"
BLOODLUST: Final = "R04"
HUNGRY_RATS: Final = "R05"
THORNY_PORTALS: Final = "R10"
EARTH_AWAKENS: Final = "R11"
ZOMBIE_FRENZY: Final = "R12"  # permanent: the block window (hero weapon attacks) reads ``in_play``
BLOODLUST_BONUS: Final = 2
HUNGRY_RAT_MOVE: Final = 9
FOUNTAIN_CREATURE_HEAL: Final = 2
ICY_PRISON_NAMES: Final = 3
EARTH_AWAKENS_BARRIERS: Final = 2
THORN_LIFE: Final = 1


class RitualRule(NamedTuple):
    choices: Choices
    effect: Effect | None  # None: a permanent card, read where it applies


def _none(w: Work) -> list[dict[str, Any]]:
    return [{}]


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


# -- R03 Icy Prison ------------------------------------------------------------------------

ICY_PRISON_NAME: Final = "icy_prison"


def _icy_prison_choices(w: Work) -> list[dict[str, Any]]:
    """R03's precondition: a living hero to name (content 4.1)."""
    return [{}] if w.living_heroes() else []


def _icy_prison(w: Work, action: dict[str, Any]) -> None:
    """R03 (content 4.1): the Keeper names 3 heroes, all of them if fewer are alive (heroes away
    on an Astral Journey may be named), one prompt each."""
    _ask_icy_prison(w, [])


def _ask_icy_prison(w: Work, named: list[str]) -> None:
    left = min(ICY_PRISON_NAMES, len(w.living_heroes())) - len(named)
    if left <= 0:
        w.s["effects"][ICY_PRISON] = {"until": UNTIL_HERO_END, "heroes": list(named)}
        names = _and([HEROES[h]["name"] for h in named])
        w.emit(
            "icy_prison",
            f"The Icy Prison holds {names}: no movement steps in the next hero turn.",
            heroes=list(named),
        )
        return
    ask(
        w,
        ICY_PRISON_NAME,
        KEEPER,
        f"Icy Prison: name a hero to hold ({left} to name).",
        named=list(named),
    )


def _icy_prison_answers(w: Work, p: PromptState) -> list[Action]:
    """The living heroes not named yet, in tie-break order (the default is the first, 5.10)."""
    named = p["data"]["named"]
    return [
        {"type": "choose", "hero": h}
        for h in TIE_BREAK
        if h in w.s["heroes"] and w.s["heroes"][h]["alive"] and h not in named
    ]


def _icy_prison_named(w: Work, seat: str, p: PromptState, a: Action) -> None:
    _ask_icy_prison(w, [*p["data"]["named"], a["hero"]])


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- R10 Thorny Portals --------------------------------------------------------------------


def thorny_portals(w: Work, hid: str, cell: int, by_blessing: bool) -> None:
    """R10 (content 4.1, 4.5): a hero that comes to occupy a teleport pad loses 1 life (Blood to
    the Keeper), whether it stepped on, teleported itself or was moved there by another hero's
    effect; not when a Blessing moved or placed it (``by_blessing``; B01, B02, B10, B11).  Every
    code that puts a hero on a cell calls this with the new cell: the step (``handlers._hero_move``),
    Scroll of Teleport, Almanor's teleport, swaps and pulls.  A hero brought to 0 dies at once."""
    if by_blessing or cell not in BOARD.partner or not in_play(w.s, THORNY_PORTALS):
        return
    if not w.s["heroes"][hid]["alive"]:
        return
    combat.lose_life(w, hid, THORN_LIFE, "Thorny Portals")
    combat.check_deaths(w)


# -- R11 The Earth Awakens -----------------------------------------------------------------

BARRIER_CELL: Final = "barrier_cell"


def _earth_awakens_choices(w: Work) -> list[dict[str, Any]]:
    """R11's precondition: a barrier fits somewhere (content 4.1: "place as many as fit")."""
    if obstacles.supply(w) <= 0:
        return []
    return [{}] if obstacles.fits(w) else []


def _earth_awakens(w: Work, action: dict[str, Any]) -> None:
    _ask_barrier(w, EARTH_AWAKENS_BARRIERS)


def _ask_barrier(w: Work, left: int) -> None:
    """One prompt per barrier, while one fits (the placement rules are ``obstacles.can_place``)."""
    if left <= 0:
        return
    if not obstacles.placeable(w):
        w.emit("barrier_none", "No more barriers fit on the board (The Earth Awakens).")
        return
    ask(w, BARRIER_CELL, KEEPER, f"The Earth Awakens: raise a barrier ({left} to place).", left=left)


def _barrier_answers(w: Work, p: PromptState) -> list[Action]:
    """Every cell a barrier may go on now, in reading order (the default is the first, 5.10)."""
    return [{"type": "choose", "to": xy(c)} for c in obstacles.placeable(w)]


def _barrier_placed(w: Work, seat: str, p: PromptState, a: Action) -> None:
    obstacles.place(w, BOARD.idx(*a["to"]), obstacles.BARRIER, "The Earth Awakens")
    _ask_barrier(w, int(p["data"]["left"]) - 1)


# -- the table -----------------------------------------------------------------------------

RITUALS_IN_RULES: Final[dict[str, RitualRule]] = {
    SLIME_OF_DESPAIR: RitualRule(_none, None),  # bog_beasts_wait
    BLACK_FOUNTAIN: RitualRule(_none, None),  # fountains_heal_heroes, black_fountain_heal
    ICY_PRISON: RitualRule(_icy_prison_choices, _icy_prison),  # movement.imprisoned
    BLOODLUST: RitualRule(_none, _bloodlust),
    HUNGRY_RATS: RitualRule(_none, None),  # monster_move
    **{card: RitualRule(*rule) for card, rule in rituals_summons.RULES.items()},  # R06-R09
    THORNY_PORTALS: RitualRule(_none, None),  # thorny_portals
    EARTH_AWAKENS: RitualRule(_earth_awakens_choices, _earth_awakens),
    ZOMBIE_FRENZY: RitualRule(_none, None),  # the Keeper's block window reads in_play(s, "R12")
}
assert set(RITUALS_IN_RULES) == set(RITUALS)  # every Ritual card has its rule


def ritual_options(w: Work) -> list[str]:
    """Ritual cards the Keeper may pay for now: one per Keeper turn, cost from the pool."""
    s = w.s
    if s["ritual_played"]:
        return []
    return sorted({c for c in s["ritual_hand"] if variants.ritual_cost(s["options"], c) <= s["blood"]})


def ritual_actions(w: Work) -> list[dict[str, Any]]:
    """The Blood step's Ritual actions (``steps.STEPS``): one per card and choice; a card
    whose precondition fails lists none, so it is never paid for nothing."""
    out: list[dict[str, Any]] = []
    for card in ritual_options(w):
        for extra in RITUALS_IN_RULES[card].choices(w):
            out.append({"type": "play_ritual", "card": card, **extra})
    return out


def play_ritual(w: Work, action: dict[str, Any]) -> None:
    s = w.s
    card = action["card"]
    info = RITUALS[card]
    cost = variants.ritual_cost(s["options"], card)  # +1 with Four Heroes (content 6.6)
    s["blood"] -= cost
    s["ritual_hand"].remove(card)
    s["ritual_played"] = True
    if info["duration"] == "permanent":
        s["rituals_in_play"].append(card)
    else:
        s["ritual_discard"].append(card)
    w.emit(
        "ritual_played",
        f"The Keeper plays the Ritual {info['name']}, paying {cost} Blood Drops.",
        card=card,
        cost=cost,
        blood=s["blood"],
    )
    effect = RITUALS_IN_RULES[card].effect
    if effect is not None:
        effect(w, action)


# Questions the Rituals ask after they are paid (rules/prompts.py).
PROMPTS: Final[dict[str, PromptRule]] = {
    ICY_PRISON_NAME: PromptRule(_icy_prison_answers, _icy_prison_named),
    BARRIER_CELL: PromptRule(_barrier_answers, _barrier_placed),
    **rituals_summons.PROMPTS,
}
