"""Doing each action: one handler per action type (``HANDLERS``), called by ``actions.apply``
once ``actions.check`` has found the action listed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from backend.engine.core import Action

from .board import BOARD
from .catalog import HEROES, MONSTERS
from .rules import (
    blessings,
    clock,
    combat,
    movement,
    parries,
    rituals,
    spells,
    summoning,
    tactics,
    treasure,
    turns,
    undo,
    weapons,
)
from .rules.prompts import close
from .rules.turns import KEEPER
from .state import (
    ZORKAL,
    MonsterState,
    Work,
    ZorkalState,
    cell_name,
    placed,
    seat_words,
    xy,
)
from .steps import PROMPTS, creature_costs, destinations, zorkal_level_cost


def _surrender(w: Work, seat: str, a: Action) -> None:
    w.emit("surrender", "The Keeper surrenders.", seat=seat)
    combat.finish(w, "heroes_win", "surrender")


def _propose_surrender(w: Work, seat: str, a: Action) -> None:
    s = w.s
    voters = [o for o in s["seats"] if o != seat and any(s["heroes"][h]["alive"] for h in s["seats"][o])]
    w.emit(
        "surrender_proposed",
        f"{seat_words(s, seat, start=True)} proposes that the heroes surrender.",
        seat=seat,
    )
    if not voters:
        combat.finish(w, "keeper_wins", "surrender")
    else:
        s["surrender"] = {"by": seat, "voters": voters, "accepted": []}


def _surrender_vote(w: Work, seat: str, a: Action) -> None:
    s = w.s
    sur = s["surrender"]
    assert sur is not None
    if a["accept"]:
        sur["accepted"].append(seat)
        w.emit(
            "surrender_vote",
            f"{seat_words(s, seat, start=True)} accepts the surrender.",
            seat=seat,
            accept=True,
        )
        if set(sur["accepted"]) >= set(sur["voters"]):
            s["surrender"] = None
            combat.finish(w, "keeper_wins", "surrender")
    else:
        s["surrender"] = None
        w.emit(
            "surrender_vote",
            f"{seat_words(s, seat, start=True)} refuses: the heroes fight on.",
            seat=seat,
            accept=False,
        )


def _take_back_done(w: Work, seat: str, a: Action) -> None:
    s = w.s
    s["done"].remove(seat)
    key = turns.TAKE_BACKS + seat
    s["cmds"][key] = s["cmds"].get(key, 0) + 1
    w.emit(
        "seat_resumes",
        f"{seat_words(s, seat, start=True)} takes back Done: {turns.PHASE_NAMES[s['phase']]} goes on.",
        seat=seat,
        phase=s["phase"],
    )


def _level_zorkal(w: Work, seat: str, a: Action) -> None:
    s = w.s
    z = s["zorkal"]
    cost = zorkal_level_cost(s)
    assert cost is not None
    s["blood"] -= cost
    z["level"] += 1
    z["life"] += 1  # max life and current life each +1 (content 2.4)
    w.emit(
        "zorkal_level",
        f"The Keeper pays {cost} Blood Drops: Zorkal reaches level {z['level']}.",
        level=z["level"],
        cost=cost,
    )


def _play_ritual(w: Work, seat: str, a: Action) -> None:
    rituals.play_ritual(w, a)


def _summon(w: Work, seat: str, a: Action) -> None:
    summoning.summon(w, a["monster"], BOARD.idx(*a["to"]))


def _summon_strong(w: Work, seat: str, a: Action) -> None:
    summoning.summon(w, None, BOARD.idx(*a["to"]), a.get("monster"))  # a type: pandemonium


def _move(w: Work, seat: str, a: Action) -> None:
    if seat == KEEPER:
        _creature_move(w, a["figure"], BOARD.idx(*a["to"]))
    else:
        _hero_move(w, a["hero"], BOARD.idx(*a["to"]))


def _bat_form(w: Work, seat: str, a: Action) -> None:
    m = w.monster(a["figure"])
    m["bat"] = True
    m["mv"] = MONSTERS[m["type"]]["bat_move"]
    w.emit(
        "bat_form",
        f"The vampire at {cell_name(m['cell'])} takes bat form (Move 12, no attack).",
        monster=a["figure"],
    )


def _attack(w: Work, seat: str, a: Action) -> None:
    if seat == KEEPER:
        _declare(w, a["figure"], a["target"])
    else:
        weapons.attack(w, a)
        combat.check_deaths(w)


def _parry(w: Work, seat: str, a: Action) -> None:
    parries.parry(w, seat, a["attack"])


def _answer(w: Work, seat: str, a: Action) -> None:
    """An answer to the open question (``check`` found it listed): close it, then resolve."""
    prompt = close(w)
    PROMPTS[prompt["kind"]].resolve(w, seat, prompt, a)


def _time_up(w: Work, seat: str, a: Action) -> None:
    """Real Day and Night (content 6.5): the seat's own pending prompts take their defaults, then
    its turn ends (``rules/clock.py``)."""
    while w.s["prompt"] is not None and w.s["prompt"]["seat"] == seat:
        prompt = w.s["prompt"]
        rule = PROMPTS[prompt["kind"]]
        answer = rule.default(w, prompt) if rule.default is not None else rule.answers(w, prompt)[0]
        _answer(w, seat, answer)
    if w.s["outcome"] is None:
        clock.time_up(w, seat)


def _ability(w: Work, seat: str, a: Action) -> None:
    spells.perform(w, a)


def _play_blessing(w: Work, seat: str, a: Action) -> None:
    blessings.play_blessing(w, seat, a)


def _pick_up(w: Work, seat: str, a: Action) -> None:
    treasure.pick_up(w, a["hero"], a["artifact"])


def _drop(w: Work, seat: str, a: Action) -> None:
    treasure.drop(w, a["hero"], a["artifact"])


def _discard(w: Work, seat: str, a: Action) -> None:
    s = w.s
    s["heroes"][a["hero"]]["cards"].remove(a["card"])
    s["treasure_discard"].append(a["card"])
    w.emit(
        "card_discarded",
        f"{HEROES[a['hero']]['name']} discards an item card.",
        hero=a["hero"],
        card=a["card"],
    )


def _use_item(w: Work, seat: str, a: Action) -> None:
    treasure.use_item(w, a)


def _done(w: Work, seat: str, a: Action) -> None:
    s = w.s
    phase = s["phase"]
    if seat == KEEPER:
        turns.end_keeper_phase(w)
    elif phase == turns.PARRIES:
        parries.finish_parries(w, seat)
    else:
        s["done"].append(seat)
        w.emit(
            "seat_done",
            f"{seat_words(s, seat, start=True)} has finished {turns.PHASE_NAMES[phase]}.",
            seat=seat,
            phase=phase,
        )


def _creature_move(w: Work, cid: str, to: int) -> None:
    s = w.s
    fig: ZorkalState | MonsterState = s["zorkal"] if cid == ZORKAL else w.monster(cid)
    start = fig["cell"]
    cost = creature_costs(w, cid, start, fig["mv"])[to]  # found by the check, ``apply``'s memo
    w.relocate(cid, start, to)
    fig["cell"] = to
    fig["mv"] -= cost
    if cid != ZORKAL:
        w.monster(cid)["moved"] = True  # the dict ``fig`` is (this Work owns it now)
    w.emit(
        "creature_move",
        f"{w.creature_name(cid).capitalize()} moves to {cell_name(to)}.",
        figure=cid,
        cell=xy(to),
        steps=cost,
    )
    tactics.after_move(w, cid, start, to)  # Tactics and Flight: flee, stop (content 6.4)


def _declare(w: Work, cid: str, hid: str) -> None:
    s = w.s
    if cid == ZORKAL:
        s["zorkal"]["atk"] -= 1
        kind = ZORKAL
    else:
        m = w.monster(cid)
        m["atk"] -= 1
        kind = m["type"]
    name = w.creature_name(cid)
    s["attacks"].append({"by": cid, "kind": kind, "name": name, "target": hid, "parried": False})
    w.emit("attack_declared", f"{name.capitalize()} attacks {HEROES[hid]['name']}.", figure=cid, target=hid)


def _hero_move(w: Work, hid: str, to: int) -> None:
    s = w.s
    h = s["heroes"][hid]
    before, first_event = undo.before_move(w, hid), len(w.events)
    cost = destinations(w, hid)[to]
    movement.spend(h, cost, movement.first_class(s, hid))  # Icy Prison: the Blessing class only
    start = placed(h["cell"])
    h["cell"] = to
    h["moved"] = True
    w.hero_moved(hid, start, to)
    w.emit("hero_move", f"{HEROES[hid]['name']} moves to {cell_name(to)}.", hero=hid, cell=xy(to), steps=cost)
    tactics.after_move(w, hid, start, to)  # Tactics and Flight: flee, stop (content 6.4)
    rituals.thorny_portals(w, hid, to, by_blessing=False)  # R10: a step onto a pad
    if h["alive"]:
        treasure.enter_cell(w, hid, to)
    undo.record(w, h["seat"], hid, before, first_event)


def _give(w: Work, seat: str, a: Action) -> None:
    s = w.s
    giver, taker = a["hero"], a["to"]
    if "artifact" in a:
        w.artifact(a["artifact"])["carrier"] = taker
        w.emit(
            "artifact_passed",
            f"{HEROES[giver]['name']} hands an artifact to {HEROES[taker]['name']}.",
            hero=giver,
            to=taker,
            artifact=a["artifact"],
        )
    else:
        s["heroes"][giver]["cards"].remove(a["card"])
        s["heroes"][taker]["cards"].append(a["card"])
        w.emit(
            "card_passed",
            f"{HEROES[giver]['name']} hands an item card to {HEROES[taker]['name']}.",
            hero=giver,
            to=taker,
        )


Handler = Callable[[Work, str, Action], None]

# One handler per action type (``check`` has refused any other type and any unlisted action).
HANDLERS: Final[dict[str, Handler]] = {
    "done": _done,
    "take_back_done": _take_back_done,
    "surrender": _surrender,
    "propose_surrender": _propose_surrender,
    "surrender_vote": _surrender_vote,
    "level_zorkal": _level_zorkal,
    "play_ritual": _play_ritual,
    "summon": _summon,
    "summon_strong": _summon_strong,
    "bat_form": _bat_form,
    "attack": _attack,
    "parry": _parry,
    "place_monster": _answer,
    "choose": _answer,
    "time_up": _time_up,
    "play_blessing": _play_blessing,
    "move": _move,
    "pick_up": _pick_up,
    "drop": _drop,
    "give": _give,
    "discard": _discard,
    "use_item": _use_item,
    "undo_move": undo.take_back,
    "ability": _ability,
}
