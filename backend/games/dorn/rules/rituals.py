"""Ritual cards (RB Ritual cards; content 4.1, 4.5; rulings 19, 21, 50).

A Ritual is paid from the Blood pool in K1 (at most one per Keeper turn) and goes to the
discard (one-shot) or stays face up in play (permanent).  Each card has an entry in
``RITUALS_IN_RULES``: its *choices* (the extra keys of each listed action: ``[{}]`` when it needs
none, ``[]`` when its precondition fails, so it is neither offered nor paid) and its *effect*.
Choices made after paying (which cells, which heroes) are asked with prompts (rules/prompts.py);
this module's ``PROMPTS`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..board import BOARD
from ..catalog import MONSTERS, RITUALS, ZORKAL_STATS
from ..state import State, Work, cell_name
from . import variants
from .effects import UNTIL_KEEPER_END, active, in_play
from .prompts import PromptRule

Choices = Callable[[Work], list[dict[str, Any]]]
Effect = Callable[[Work, dict[str, Any]], None]

SLIME_OF_DESPAIR = "R01"
BLACK_FOUNTAIN = "R02"
BLOODLUST = "R04"
HUNGRY_RATS = "R05"
BLOODLUST_BONUS = 2
HUNGRY_RAT_MOVE = 9
FOUNTAIN_CREATURE_HEAL = 2


class RitualRule(NamedTuple):
    choices: Choices
    effect: Effect | None  # None: a permanent card, read where it applies


def _none(w: Work) -> list[dict[str, Any]]:
    return [{}]


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
    return sorted({c for c in s["ritual_hand"] if variants.ritual_cost(s["options"], c) <= s["blood"]})


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
    rule = RITUALS_IN_RULES.get(card)
    if rule is not None and rule.effect is not None:
        rule.effect(w, action)


# Questions the Rituals ask after they are paid (rules/prompts.py).
PROMPTS: dict[str, PromptRule] = {}
