"""The heroes' answer to the creature attacks: K4.2 parries and protecting hand, K4.3 the hits,
K4.4 riposte (RB Monster Attack; content 2.2 Parry, 2.3 ``rag.parry``, ``rag.hand``,
``rag.riposte``, 5.2 K4, 5.5, 5.10; rulings 8-10, 12, 37, 42, P2, P3).

Every hero marks up to its unused parries among the attacks declared on it (a hero with no more
attacks than parries parries them all at once; otherwise its seat chooses, and *done* fills the
rest in the default order of ruling 9).  Then Ragnar L3 may spend a parry left over on an attack
on a hero next to him (a prompt to his seat), the hits resolve together, and Ragnar L3 ripostes
once against a creature next to him whose attack he parried (a prompt when several qualify).
``finish_attacks`` runs those three in order and stops at each open prompt; ``settle`` calls it
again once the prompt is answered, and it goes on where it stopped.
"""

from __future__ import annotations

from typing import Any, Final

from backend.engine.core import Action

from ..catalog import HEROES, TIE_BREAK
from ..state import PromptState, Work
from . import combat, reach, triggers
from .effects import UNTIL_KEEPER_END
from .prompts import PromptRule, ask

RIPOSTE: Final = "rag.riposte"
HAND: Final = "rag.hand"
HAND_PARRY: Final = "rag.hand:attack"  # the attack the hand parried, until the riposte reads it
RAGNAR: Final = "ragnar"


def start_parries(w: Work) -> None:
    """K4.2 opens (``turns`` has opened the step): a hero with more attacks on it than unused
    parries chooses which to parry; one with at most that many parries them all (a parry is
    never worth keeping for itself; Ragnar's protecting hand uses what is left, ruling P2)."""
    s = w.s
    for hid in TIE_BREAK:
        h = s["heroes"].get(hid)
        if h is None:
            continue
        mine = [i for i, a in enumerate(s["attacks"]) if a["target"] == hid]
        if mine and len(mine) <= h["parries"]:
            for i in mine:
                mark(w, i, hid)


def parry_choices(w: Work, seat: str) -> dict[str, list[int]]:
    """Hero -> attack indices it may still mark as parried (K4.2)."""
    s = w.s
    if seat in s["done"]:
        return {}
    out: dict[str, list[int]] = {}
    for hid in s["seats"].get(seat, []):
        h = s["heroes"][hid]
        if h["parries"] <= 0:
            continue
        open_ = [i for i, a in enumerate(s["attacks"]) if a["target"] == hid and not a["parried"]]
        if open_:
            out[hid] = open_
    return out


def parry_seats(w: Work) -> list[str]:
    return [seat for seat in w.s["seats"] if parry_choices(w, seat)]


def parry(w: Work, seat: str, index: int) -> None:
    """The seat marks attack ``index`` on one of its heroes as parried."""
    mark(w, index, w.s["attacks"][index]["target"])


def mark(w: Work, index: int, by: str) -> None:
    """Hero ``by`` spends a parry on attack ``index`` (on itself, or through protecting hand)."""
    s = w.s
    a = s["attacks"][index]
    a["parried"] = True
    s["heroes"][by]["parries"] -= 1
    name = HEROES[by]["name"]
    if by == a["target"]:
        text = f"{name} parries an attack by {a['name']}."
    else:
        text = f"{name}'s protecting hand parries an attack by {a['name']} on {HEROES[a['target']]['name']}."
    extra: dict[str, Any] = {} if by == a["target"] else {"ability": HAND}
    w.emit("parry", text, hero=a["target"], attack=index, by=by, **extra)


def finish_parries(w: Work, seat: str) -> None:
    """The seat is done: its heroes' remaining parries go by the default order (ruling 9)."""
    s = w.s
    for hid in s["seats"][seat]:
        h = s["heroes"][hid]
        while h["parries"] > 0:
            open_ = default_parries_open(w, hid)
            if not open_:
                break
            mark(w, open_[0], hid)
    s["done"].append(seat)


def default_parries_open(w: Work, hid: str) -> list[int]:
    """Unparried attacks on the hero in the default parry order (ruling 9): mummy attacks first,
    then, when Ragnar L3 defends, attacks from creatures next to him (riposte may answer them),
    then in declaration order."""
    s = w.s
    mine = [i for i, a in enumerate(s["attacks"]) if a["target"] == hid and not a["parried"]]
    first = [i for i in mine if s["attacks"][i]["kind"] == "mummy"]
    if hid == RAGNAR and _ragnar_ready(w, RIPOSTE):
        first += [i for i in mine if i not in first and _adjacent_to_ragnar(w, s["attacks"][i]["by"])]
    return first + [i for i in mine if i not in first]


# ---------------------------------------------------------------------------------------
# After the parries: protecting hand, the hits, riposte


def finish_attacks(w: Work) -> bool:
    """K4.2 protecting hand, K4.3 the hits, K4.4 riposte, in order.  Returns False while a prompt
    is open (``settle`` calls again once it is answered) or once the game is over."""
    s = w.s
    if _ragnar_ready(w, HAND) and _hand_targets(w):
        _use(w, HAND)
        ask(
            w,
            HAND,
            s["heroes"][RAGNAR]["seat"],
            "Protecting hand: Ragnar may spend his unused parry on an attack on a hero next to him.",
        )
        return False
    if not s["attacks"]:
        return s["outcome"] is None
    targets = _riposte_targets(w)  # before the hits clear the declarations
    s["effects"].pop(HAND_PARRY, None)
    combat.resolve_attacks(w)  # K4.3, deaths included (ruling 12)
    combat.check_victory(w)
    if s["outcome"] is not None:
        return False
    if not _ragnar_ready(w, RIPOSTE):
        return True  # Ragnar died in the hits: no riposte (ruling P3)
    if len(targets) == 1:
        _riposte(w, targets[0])
    elif targets:
        _use(w, RIPOSTE)
        ask(
            w,
            RIPOSTE,
            s["heroes"][RAGNAR]["seat"],
            "Riposte: which creature next to Ragnar takes 1 damage?",
            targets=targets,
        )
        return False
    return s["outcome"] is None


def _ragnar_ready(w: Work, ability: str) -> bool:
    h = w.s["heroes"].get(RAGNAR)
    return (
        h is not None
        and h["cell"] is not None
        and triggers.has(w, RAGNAR, ability)
        and ability not in h["used"]
    )


def _use(w: Work, ability: str) -> None:
    w.s["heroes"][RAGNAR]["used"].append(ability)  # once per Keeper turn (ruling 37)


def _adjacent_to_ragnar(w: Work, cid: str) -> bool:
    h = w.s["heroes"].get(RAGNAR)
    if h is None or h["cell"] is None or not w.is_creature(cid):
        return False
    return reach.adjacent(w.creature_cell(cid), h["cell"])


def _hand_targets(w: Work) -> list[int]:
    """Attacks protecting hand may parry, in the default order (content 5.2 K4.2: the first
    unparried mummy attack, else the earliest declared): unparried attacks on a hero next to
    Ragnar (not on Ragnar), while he has a parry left."""
    s = w.s
    ragnar = s["heroes"].get(RAGNAR)
    if ragnar is None or ragnar["cell"] is None or ragnar["parries"] <= 0:
        return []
    cell = ragnar["cell"]
    out = []
    for i, a in enumerate(s["attacks"]):
        other = s["heroes"][a["target"]]["cell"]
        if a["target"] != RAGNAR and not a["parried"] and other is not None and reach.adjacent(cell, other):
            out.append(i)
    mummies = [i for i in out if s["attacks"][i]["kind"] == "mummy"]
    return mummies + [i for i in out if i not in mummies]


def _hand_answers(w: Work, p: PromptState) -> list[Action]:
    """Each (attacker, hero attacked) pair the hand may answer (one attack of it: a creature's
    attacks on one hero are alike), the default first, then keeping the parry (``skip``)."""
    attacks = w.s["attacks"]
    out: list[Action] = []
    for i in _hand_targets(w):
        answer = {"type": "choose", "target": attacks[i]["by"], "hero": attacks[i]["target"]}
        if answer not in out:
            out.append(answer)
    return out + [{"type": "choose", "skip": True}]


def _hand_resolve(w: Work, seat: str, p: PromptState, a: Action) -> None:
    if a.get("skip"):
        w.emit("protecting_hand_kept", "Ragnar keeps his parry: no protecting hand this turn.", hero=RAGNAR)
        return
    attacks = w.s["attacks"]
    index = next(
        i for i in _hand_targets(w) if (attacks[i]["by"], attacks[i]["target"]) == (a["target"], a["hero"])
    )
    mark(w, index, RAGNAR)
    # Read by the riposte a moment later, in this same command (``finish_attacks``).
    w.s["effects"][HAND_PARRY] = {"until": UNTIL_KEEPER_END, "attack": index}


def _riposte_targets(w: Work) -> list[str]:
    """Creatures next to Ragnar L3 whose attack he parried this step, his own or through the
    hand (content 2.3 ``rag.riposte``), earliest declared first (content 5.10 default)."""
    s = w.s
    if not _ragnar_ready(w, RIPOSTE):
        return []
    hand = s["effects"].get(HAND_PARRY)
    out: list[str] = []
    for i, a in enumerate(s["attacks"]):
        mine = a["target"] == RAGNAR or (hand is not None and hand["attack"] == i)
        if a["parried"] and mine and a["by"] not in out and _adjacent_to_ragnar(w, a["by"]):
            out.append(a["by"])
    return out


def _riposte_answers(w: Work, p: PromptState) -> list[Action]:
    return [{"type": "choose", "target": cid} for cid in p["data"]["targets"] if w.is_creature(cid)]


def _riposte_resolve(w: Work, seat: str, p: PromptState, a: Action) -> None:
    _riposte(w, a["target"], spent=True)


def _riposte(w: Work, cid: str, spent: bool = False) -> None:
    """K4.4: the creature takes 1 damage from Ragnar, who gets the XP (ruling 22)."""
    if not spent:
        _use(w, RIPOSTE)
    w.emit(
        "riposte",
        f"Ragnar ripostes: {w.creature_name(cid)} takes 1 damage.",
        hero=RAGNAR,
        target=cid,
        ability=RIPOSTE,
    )
    combat.damage_creature(w, cid, 1, RAGNAR, "Ragnar's riposte")
    combat.check_victory(w)


PROMPTS: Final[dict[str, PromptRule]] = {
    HAND: PromptRule(_hand_answers, _hand_resolve),
    RIPOSTE: PromptRule(_riposte_answers, _riposte_resolve),
}
