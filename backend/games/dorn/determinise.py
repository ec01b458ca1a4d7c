"""A full Dorn state consistent with what one seat has seen (issue 12: search bots).

A bot decides from its seat's view, never from the game's state; to simulate it needs full
states, so ``sample_state(view, seat, rng, events)`` builds one that the seat cannot tell from
the real one: ``view(sampled, seat) == view`` (tests/bots/test_determinise.py checks it at every
step of many games).  ``events`` are the events the seat was sent since the table started
(``Event.as_dict()``, setup included), in order.

What is drawn, from the bot's ``rng`` (content 4 says who sees what):

* the RNG seed: a fresh one, never the table's;
* the treasure deck's order and contents: every card not face up in the discard and not in a
  hand the seat sees.  For the Keeper (and spectators) the hands are drawn too, from the unseen
  *item* cards (only items are ever held), as are the cards destroyed with dead heroes, which
  left the game face down;
* the Blessings of the other hero seats and the Blessing deck, from the Blessings neither
  discarded nor the seat's own;
* the Ritual deck's order, and for hero seats the Keeper's hand, from the Rituals neither
  discarded, in play nor (for the Keeper) in his hand;

What is rebuilt from the events, because the view does not show it: the strong types already
seen (``seen_strong``), the next monster id, which creatures moved this Keeper turn (a vampire
takes bat form only before its first step), extra attacks bought before the attack step (an
item, Battle Fervour), what is left of a Swiftness bonus in its own move class, the lasting
effects of this turn's cards and abilities (``_effects``: Bloodlust, Icy Prison, fled figures,
time run out, blocks and the protecting hand spent, inexorable advance), the id counter that
monsters and obstacles share, and each seat's take-backs of *done* in the open step.
An Aegis (B08, with the Keeper turn it protects in), a hero away on an Astral Journey (B01, with
the cell it left) and every open or queued prompt (Tremor, Discord, the astral return) are public
and come back from the view.

Known gaps: the per-step command counts of content 5.12's ``phase_action_limit`` (an engine
safety net for simulations) restart at 0; a dead hero's destroyed cards are drawn again from
the unseen items, even by a hero seat that saw them (neither the view nor the events name a
card passed between heroes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from backend.engine.rng import Rng

from .board import BOARD
from .catalog import BAG, BLESSINGS, MONSTERS, RITUALS, TREASURES
from .rules import blessings, combat, effects, parries, rituals, turns, weapons
from .rules.turns import HERO_PHASES, KEEPER_PHASES, TAKE_BACKS
from .state import (
    KEEPER,
    ZORKAL,
    HeroState,
    MonsterState,
    PromptState,
    State,
    SummonAllowance,
    ZorkalState,
    copy_json,
)

Event = Mapping[str, Any]
FLED: Final = "fled:"  # rules/tactics.py: a figure that fled this turn (Tactics and Flight, content 6.4)
HERO_STEPS: Final = (turns.BLESSINGS, turns.HERO_MOVES)  # extra attacks bought here wait for the attack step
KEEPER_MOVED: Final = (
    turns.MONSTER_MOVES,
    turns.DECLARATIONS,
    turns.PARRIES,
    *HERO_PHASES,
)  # this Keeper turn's movement is over or on


def fresh_seed(rng: Rng) -> str:
    """A 256-bit seed drawn from the bot's own stream (hex, as the state keeps it)."""
    return b"".join(rng.next_u64().to_bytes(8, "little") for _ in range(4)).hex()


def sample_state(view: Mapping[str, Any], seat: str | None, rng: Rng, events: Sequence[Event] = ()) -> State:
    hands = _hands(view, seat, rng)
    treasure_deck = hands.pop("")
    blessings, blessing_deck = _blessings(view, seat, rng)
    ritual_hand, ritual_deck = _rituals(view, seat, rng)
    bag, seen_strong = _bag(view, events)
    monsters = _monsters(view, events)
    s: State = {
        "rng": [fresh_seed(rng), 0],
        "options": copy_json(view["options"]),
        "k": view["k"],
        "phase": view["phase"],
        "blood": view["blood"],
        "fill": view["fill"],
        "gate": view["gate_open"],
        "bonus": view["bonus_summons"],
        "zorkal": _zorkal(view["zorkal"]),
        "heroes": {hid: _hero(view, hid, h, hands[hid], events) for hid, h in view["heroes"].items()},
        "seats": {k: list(v) for k, v in view["seats"].items()},
        "monsters": monsters,
        "next_id": _next_id(view, monsters, events),
        "tokens": [BOARD.idx(*c) for c in view["tokens"]],
        "artifacts": {
            aid: {"cell": _cell(a["cell"]), "carrier": a["carrier"], "picked": a["picked"]}
            for aid, a in view["artifacts"].items()
        },
        "obstacles": {
            oid: {"cell": BOARD.idx(*o["cell"]), "life": o["life"], "kind": o["kind"]}
            for oid, o in view["obstacles"].items()
        },
        "treasure_deck": treasure_deck,
        "treasure_discard": list(view["treasure_discard"]),
        "blessing_deck": blessing_deck,
        "blessings": blessings,
        "blessing_discard": list(view["blessing_discard"]),
        "ritual_deck": ritual_deck,
        "ritual_hand": ritual_hand,
        "ritual_discard": list(view["ritual_discard"]),
        "rituals_in_play": list(view["rituals_in_play"]),
        "ritual_played": view["ritual_played"],
        "bag": bag,
        "seen_strong": seen_strong,
        "summon": _summon(view["summon"]),
        "attacks": [
            {
                "by": a["by"],
                "kind": a["kind"],
                "name": _creature_name(a["kind"]),
                "target": a["target"],
                "parried": a["parried"],
            }
            for a in view["attacks"]
        ],
        "done": list(view["done"]),
        "cmds": _take_backs(view, events),
        "prompt": _prompt(view["prompt"]),
        "undo": copy_json(view.get("undo", [])),
        "queue": [q for q in (_prompt(v) for v in view.get("queue", [])) if q is not None],
        "surrender": copy_json(view["surrender"]),
        "effects": _effects(view, events),
        "outcome": copy_json(view["outcome"]),
    }
    return s


def _cell(xy: Sequence[int] | None) -> int | None:
    return None if xy is None else BOARD.idx(*xy)


def _creature_name(kind: str) -> str:
    """How a declared attack names its creature (``Work.creature_name``)."""
    return "Zorkal" if kind == ZORKAL else "the " + MONSTERS[kind]["name"]


def _zorkal(v: Mapping[str, Any]) -> ZorkalState:
    return {
        "level": v["level"],
        "life": v["life"],
        "cell": BOARD.idx(*v["cell"]),
        "mv": v["move_left"],
        "atk": v["attacks_left"],
    }


def _summon(v: Mapping[str, Any] | None) -> SummonAllowance:
    """The summoning allowance (the view shows it only in the summoning step)."""
    if not v:
        return {"weak": 0, "strong": 0, "exclusive": False}
    return {"weak": v["weak"], "strong": v["strong"], "exclusive": v["exclusive"]}


def _prompt(v: Mapping[str, Any] | None) -> PromptState | None:
    """A question back from its view (view.py ``_prompt``): prompts are public."""
    if v is None:
        return None
    data = {
        k: [BOARD.idx(*c) for c in x] if k == "cells" else copy_json(x)
        for k, x in v.items()
        if k not in ("kind", "seat", "text")
    }
    return {"kind": v["kind"], "seat": v["seat"], "text": v["text"], "data": data}


# -- figures ---------------------------------------------------------------------------------


def _since(events: Sequence[Event], kind: str, back: int = 1) -> Sequence[Event]:
    """The events after the ``back``-th last event of ``kind`` (all of them if there are fewer)."""
    found = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i]["kind"] == kind:
            found += 1
            if found == back:
                return events[i:]
    return events


def _hero(
    view: Mapping[str, Any], hid: str, v: Mapping[str, Any], cards: list[str], events: Sequence[Event]
) -> HeroState:
    bonus = 0
    blessed = 0
    if view["phase"] in HERO_PHASES:
        for e in _since(events, "hero_turn"):
            if e.get("hero") != hid:
                continue
            if e["kind"] == "item_used" and TREASURES[e["card"]]["effect"] == "extra_action":
                bonus += TREASURES[e["card"]]["actions"]
            elif e["kind"] == "bonus_actions":
                bonus += blessings.FERVOUR_ACTIONS  # B07 Battle Fervour
            elif e["kind"] == "bonus_move":
                blessed += blessings.SWIFTNESS_STEPS  # B12 Swiftness
    if view["phase"] not in HERO_STEPS:
        bonus = 0  # the attack step took them when it opened
    # Move classes (content 4.5): base and item bonuses, Ritual-, Blessing-granted.  Steps are paid
    # from the first class first, so what is left of a Blessing's bonus is the last to go.
    left = v["move_left"]
    mv = [left, 0, 0]
    mv[effects.BLESSING_CLASS] = min(blessed, left)
    mv[0] = left - mv[effects.BLESSING_CLASS]
    return {
        "seat": v["seat"],
        "cell": _cell(v["cell"]),
        "alive": v["alive"],
        "level": v["level"],
        "life": v["life"],
        "xp": v["xp"],
        "cards": cards,
        "parries": v["parries"],
        "rot": v["rot"],
        "mv": mv,
        "actions": v["actions"],
        "bonus_actions": bonus,
        "item_used": v["item_used"],
        "moved": v["moved"],
        "rubble": v["rubble"],
        "used": list(v["used"]),
        "away": _cell(v["away"]),
    }


def _monsters(view: Mapping[str, Any], events: Sequence[Event]) -> dict[str, MonsterState]:
    # ``moved`` is cleared when the movement step opens: before it, it is last Keeper turn's.
    window = _since(events, "keeper_turn", 1 if view["phase"] in KEEPER_MOVED else 2)
    upto = len(window) if view["phase"] in KEEPER_MOVED else _index_of_last(window, "keeper_turn")
    moved = {e["figure"] for e in window[:upto] if e["kind"] == "creature_move"}
    out: dict[str, MonsterState] = {}
    for mid, m in view["monsters"].items():
        out[mid] = {
            "type": m["type"],
            "cell": BOARD.idx(*m["cell"]),
            "dmg": MONSTERS[m["type"]]["life"] - m["life"],
            "wait": m["waiting"],
            "mv": m["move_left"],
            "atk": m["attacks_left"],
            "moved": mid in moved,
            "bat": m["bat"],
            "frozen": m["frozen"],  # blizzard (the view shows it)
            "no_attack": m["no_attack"],
        }
    return out


def _effects(view: Mapping[str, Any], events: Sequence[Event]) -> dict[str, Any]:
    """Lasting effects (rules/effects.py) back from the view and this turn's events: each Aegis
    (B08), whose Keeper turn the view shows; the Icy Prison (R03) from its K1 to H5; in the Keeper
    turn, Bloodlust (R04), the creatures that fled (Tactics and Flight) and, in the parry step, the
    attack Ragnar's protecting hand parried; in the hero turn, the heroes that fled, the seats
    whose time ran out (Real Day and Night), the blocks spent (Zombie Frenzy, sinister parry) and
    the actions Guelin's inexorable advance spent."""
    out: dict[str, Any] = {
        combat.aegis_key(hid): {"until": effects.UNTIL_KEEPER_END, "k": h["aegis"]}
        for hid, h in view["heroes"].items()
        if h.get("aegis") is not None
    }
    phase = view["phase"]
    for e in _since(events, "keeper_turn"):
        if e["kind"] == "icy_prison":
            out[rituals.ICY_PRISON] = {"until": effects.UNTIL_HERO_END, "heroes": list(e["heroes"])}
    if phase in KEEPER_PHASES or phase == turns.PARRIES:
        for e in _since(events, "keeper_turn"):
            kind = e["kind"]
            if kind == "ritual_played" and e["card"] == rituals.BLOODLUST:
                out[rituals.BLOODLUST] = effects.UNTIL_KEEPER_END
            elif kind == "figure_fled":
                out[FLED + e["figure"]] = effects.UNTIL_KEEPER_END
            elif kind == "parry" and e.get("ability") == parries.HAND and phase == turns.PARRIES:
                out[parries.HAND_PARRY] = {"until": effects.UNTIL_KEEPER_END, "attack": e["attack"]}
        return out
    spent = 0
    for e in _since(events, "hero_turn"):
        kind = e["kind"]
        if kind == "figure_fled":
            out[FLED + e["figure"]] = effects.UNTIL_HERO_END
        elif kind == "time_up" and e["seat"] != KEEPER:
            out[turns.OUT_OF_TIME + e["seat"]] = effects.UNTIL_HERO_END
        elif kind == "attack_blocked":
            out[e["block"]] = effects.UNTIL_HERO_END
        elif kind == "hero_attack" and e.get("ability") == weapons.INEXORABLE:
            spent += 1
            out[weapons.INEXORABLE] = {"until": effects.UNTIL_HERO_END, "spent": spent}
    return out


def _index_of_last(events: Sequence[Event], kind: str) -> int:
    return max((i for i, e in enumerate(events) if e["kind"] == kind), default=len(events))


def _next_id(view: Mapping[str, Any], monsters: Mapping[str, Any], events: Sequence[Event]) -> int:
    """Monsters ("m7") and obstacles ("o8", rules/obstacles.py) draw their ids from one counter."""
    ids = [int(m[1:]) for m in monsters] + [int(o[1:]) for o in view["obstacles"]]
    for e in events:
        if e["kind"] == "monster_placed":
            ids.append(int(e["monster"][1:]))
        elif e["kind"] == "obstacle_placed":
            ids.append(int(e["obstacle"][1:]))
    return max(ids, default=0) + 1


def _take_backs(view: Mapping[str, Any], events: Sequence[Event]) -> dict[str, int]:
    """Each seat's take-backs of *done* in the open hero step (they are capped per step)."""
    out: dict[str, int] = {}
    for e in _since(events, "hero_turn"):
        if e["kind"] == "seat_resumes" and e["phase"] == view["phase"] and view["phase"] in HERO_PHASES:
            key = TAKE_BACKS + e["seat"]
            out[key] = out.get(key, 0) + 1
    return out


def _bag(view: Mapping[str, Any], events: Sequence[Event]) -> tuple[dict[str, int], list[str]]:
    """Strong tokens left in the bag: every strong monster on the board was drawn from it, and a
    killed one goes back (ruling 49); the hidden monsters of T04-T06 are weak.  ``seen_strong``
    lists the strong types in the order they first appeared."""
    bag = dict(BAG)
    seen: list[str] = []
    for e in events:
        if e["kind"] == "monster_placed" and e["type"] in bag and e["type"] not in seen:
            seen.append(e["type"])
    for m in view["monsters"].values():
        if m["type"] in bag:
            bag[m["type"]] -= 1
            if m["type"] not in seen:
                seen.append(m["type"])  # without the events: at least what stands on the board
    return bag, seen


# -- cards -------------------------------------------------------------------------------------


def _minus(pool: list[str], cards: Sequence[str]) -> list[str]:
    out = list(pool)
    for c in cards:
        out.remove(c)
    return out


def _hands(view: Mapping[str, Any], seat: str | None, rng: Rng) -> dict[str, list[str]]:
    """Every hero's item cards, and under ``""`` the treasure deck, in draw order."""
    heroes = view["heroes"]
    unseen = _minus(
        [c for c, info in TREASURES.items() for _ in range(info["copies"])], view["treasure_discard"]
    )
    known = {hid: list(h["cards"]) for hid, h in heroes.items() if "cards" in h}
    for cards in known.values():
        unseen = _minus(unseen, cards)
    hidden = [hid for hid in heroes if hid not in known]
    held = sum(heroes[hid]["card_count"] for hid in hidden)
    # Cards destroyed with dead heroes left the game; they were items, and nobody sees them now.
    destroyed = len(unseen) - view["treasure_deck"] - held
    items = rng.shuffled([c for c in unseen if TREASURES[c]["kind"] == "item"])
    taken = items[: held + destroyed]
    out = dict(known)
    at = 0
    for hid in hidden:
        n = heroes[hid]["card_count"]
        out[hid] = sorted(taken[at : at + n])
        at += n
    out[""] = rng.shuffled(_minus(unseen, taken))
    return out


def _blessings(
    view: Mapping[str, Any], seat: str | None, rng: Rng
) -> tuple[dict[str, str | None], list[str]]:
    mine = view.get("my_blessing")
    unseen = [b for b in sorted(BLESSINGS) if b not in view["blessing_discard"] and b != mine]
    drawn = rng.shuffled(unseen)
    out: dict[str, str | None] = {}
    for other, has in view["has_blessing"].items():
        out[other] = (mine if other == seat else drawn.pop()) if has else None
    return out, drawn


def _rituals(view: Mapping[str, Any], seat: str | None, rng: Rng) -> tuple[list[str], list[str]]:
    hand = list(view["ritual_hand"]) if "ritual_hand" in view else None
    public = {*view["ritual_discard"], *view["rituals_in_play"], *(hand or ())}
    drawn = rng.shuffled([r for r in sorted(RITUALS) if r not in public])
    if hand is None:
        n = view["ritual_hand_count"]
        hand, drawn = sorted(drawn[:n]), drawn[n:]
    return hand, drawn
