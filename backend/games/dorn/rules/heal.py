"""H4 Heal: healing places and the heroes' HEAL abilities, hero by hero in tie-break order (RB
Healing Locations; content 2.3 ``gue.regen``, ``cho.earth``, ``kae.virtue``, ``kae.touch``,
5.3 H4, 5.10 "virtue / touch"; rulings 27, 37, 38, P4, P6).

For each hero on the board: a fountain (unless Black Fountain is in play), Argos or the Herbalist
heals 2; then Guelin L3 heals 1, Choros L3 heals 2 if he neither moved nor spent an action this
hero turn, and Kaerdrak, if he did not move, heals himself 1 (virtue) or, from L2, one adjacent
hero 1 (touch).  Kaerdrak's seat is asked only when more than one of those heals would do
something (ruling P4); the step stops at the question and goes on after the answer, so the
heroes after him heal after his choice.  A hero whose Heal is over carries ``HEALED`` in its
``used`` list until the step ends (public, so a sampled state resumes at the same hero).
"""

from __future__ import annotations

from typing import Final

from backend.engine.core import Action

from ..board import BOARD
from ..catalog import HEROES, RULES, TIE_BREAK
from ..state import PromptState, Work
from . import combat, rituals, variants
from .prompts import PromptRule, ask
from .reach import heroes_adjacent
from .triggers import ACTED, has

HEALED: Final = "healed"  # in a hero's ``used`` while H4 runs: its Heal is over
REGEN: Final = "gue.regen"
EARTH: Final = "cho.earth"
VIRTUE: Final = "kae.virtue"
TOUCH: Final = "kae.touch"
KAERDRAK: Final = "kaerdrak"


def heal_phase(w: Work) -> bool:
    """Run H4 from the first hero whose Heal is not over.  Returns False while Kaerdrak's
    question is open (``settle`` calls again once it is answered)."""
    s = w.s
    for hid in TIE_BREAK:
        h = s["heroes"].get(hid)
        if h is None or h["cell"] is None or HEALED in h["used"]:
            continue
        cell = h["cell"]
        if (cell in BOARD.fountains and rituals.fountains_heal_heroes(s)) or cell in BOARD.safe:
            combat.heal(w, hid, RULES["heal_location"], "healing place")
        if hid == "guelin" and has(w, hid, REGEN):
            combat.heal(w, hid, 1, "Guelin's regeneration", REGEN)
        if hid == "choros" and has(w, hid, EARTH) and not h["moved"] and ACTED not in h["used"]:
            combat.heal(w, hid, 2, "Choros's earth strength", EARTH)
        h["used"].append(HEALED)
        if hid == KAERDRAK and not h["moved"]:
            choices = _kaerdrak_choices(w)
            if len(choices) == 1:
                _kaerdrak_heals(w, choices[0])
            elif choices:
                ask(
                    w,
                    VIRTUE,
                    h["seat"],
                    "Kaerdrak did not move: heal himself 1 (virtue) or one adjacent hero 1 (touch)?",
                )
                return False
    for h in s["heroes"].values():
        if HEALED in h["used"]:
            h["used"].remove(HEALED)
    return True


def _wants_healing(w: Work, hid: str) -> bool:
    h = w.s["heroes"][hid]
    return h["rot"] or h["life"] < variants.max_life(w.s["options"], hid, h["level"])


def _damage(w: Work, hid: str) -> int:
    h = w.s["heroes"][hid]
    return variants.max_life(w.s["options"], hid, h["level"]) - h["life"]


def _kaerdrak_choices(w: Work) -> list[Action]:
    """The heals virtue or touch would make, the catalogue default first (content 5.3 H4: virtue
    if he is damaged, else touch on the most damaged adjacent hero, tie-break order on ties).
    Only heals that do something are offered: a hero below max life or Rotting (ruling P4)."""
    s = w.s
    k = s["heroes"][KAERDRAK]
    if VIRTUE in k["used"] or TOUCH in k["used"] or k["cell"] is None:
        return []
    out: list[Action] = []  # {"hero": Kaerdrak}: virtue; another hero: touch
    if _wants_healing(w, KAERDRAK):
        out.append({"type": "choose", "hero": KAERDRAK})
    if has(w, KAERDRAK, TOUCH):
        here = k["cell"]
        near = []
        for hid in TIE_BREAK:
            other = s["heroes"].get(hid)
            if hid == KAERDRAK or other is None or other["cell"] is None:
                continue
            if heroes_adjacent(here, other["cell"]) and _wants_healing(w, hid):
                near.append(hid)
        near.sort(key=lambda hid: -_damage(w, hid))  # stable: tie-break order on ties
        out += [{"type": "choose", "hero": hid} for hid in near]
    if out and out[0]["hero"] == KAERDRAK and _damage(w, KAERDRAK) == 0 and len(out) > 1:
        out.append(out.pop(0))  # only Rotting, not damaged: the default is a touch
    return out


def _kaerdrak_heals(w: Work, choice: Action) -> None:
    k = w.s["heroes"][KAERDRAK]
    virtue = choice["hero"] == KAERDRAK
    k["used"].append(VIRTUE if virtue else TOUCH)  # once per hero turn, one of the two (content 2.3)
    if virtue:
        combat.heal(w, KAERDRAK, 1, "Kaerdrak's virtue", VIRTUE)
    else:
        combat.heal(w, choice["hero"], 1, f"{HEROES[KAERDRAK]['name']}'s healing touch", TOUCH)


def _answers(w: Work, p: PromptState) -> list[Action]:
    return _kaerdrak_choices(w)


def _resolve(w: Work, seat: str, p: PromptState, a: Action) -> None:
    _kaerdrak_heals(w, a)


PROMPTS: Final[dict[str, PromptRule]] = {VIRTUE: PromptRule(_answers, _resolve)}
