"""What each seat sees, and what each seat must not see (the leak tests' ``secrets``).

Hidden information (content 4): the Keeper's Ritual hand (Keeper only), each seat's Blessing
(its owner only), item cards held by heroes (every hero seat; the Keeper and spectators see
counts), the order and contents of every deck and of the strong-monster bag (counts only),
and the RNG (nobody, not even with ``reveal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .catalog import BLESSINGS, CARD_NAMES, HEROES, MONSTERS, RITUALS, TREASURES
from .rules import turns, variants
from .rules.combat import aegis_key
from .state import KEEPER, HeroState, PromptState, State, copy_json, xy


def _cell(i: int | None) -> list[int] | None:
    return None if i is None else xy(i)


def view(s: State, seat: str | None, to_act: frozenset[str], *, reveal: bool = False) -> dict[str, Any]:
    return views(s, [seat], to_act, reveal=reveal)[seat]


def views(
    s: State, viewers: Sequence[str | None], to_act: frozenset[str], *, reveal: bool = False
) -> dict[str | None, dict[str, Any]]:
    """Several viewers' views from one build of what they all see. Views differ only in the
    heroes' item cards (every hero seat sees them), the Keeper's Ritual hand and a hero seat's
    own Blessing; viewers who see alike get one object (the spectators; the hero seats holding
    the same Blessing, most often none). The views share their parts: read them, never edit them."""
    keeper = _keeper_part(s)
    # The keys keep their established order, so a view's JSON text is what it was.
    head: dict[str, Any] = {
        "k": s["k"],
        # ``day``: Keeper turn k (and so this round) is a Day turn.  ``day_night_token``: the
        # face the token shows now, flipped to the next Keeper turn's during the heroes' turn.
        "day": turns.is_day(s["k"]),
        "day_night_token": "day" if turns.token_shows_day(s["k"], s["phase"]) else "night",
        "phase": s["phase"],
        "phase_name": turns.PHASE_NAMES[s["phase"]],
        "blood": s["blood"],
        "fill": s["fill"],
        "gate_open": s["gate"],
        "bonus_summons": s["bonus"],
        "zorkal": keeper["zorkal"],
    }
    tail: dict[str, Any] = {
        "seats": {seat_: list(hs) for seat_, hs in s["seats"].items()},
        "monsters": keeper["monsters"],
        "tokens": [xy(c) for c in s["tokens"]],
        "artifacts": {
            aid: {"cell": _cell(a["cell"]), "carrier": a["carrier"], "picked": a["picked"]}
            for aid, a in s["artifacts"].items()
        },
        "obstacles": {
            oid: {"cell": xy(o["cell"]), "life": o["life"], "kind": o["kind"]}
            for oid, o in s["obstacles"].items()
        },
        **_decks(s),
        "bag": keeper["bag"],
        "summon": keeper["summon"],
        "attacks": keeper["attacks"],
        "done": list(s["done"]),
        "prompt": _prompt(s["prompt"]),
        "queue": [_prompt(p) for p in s["queue"]],
        "undo": copy_json(s["undo"]),  # public (rules/undo.py): the determiniser rebuilds from it
        # Lasting effects (rules/effects.py): every one is public, announced when it began
        # (Bloodlust, Icy Prison's heroes, Aegis, the blocks spent, who fled or ran out of time).
        "effects": copy_json(s["effects"]),
        "surrender": copy_json(s["surrender"]),
        "to_act": sorted(to_act),
        "outcome": copy_json(s["outcome"]),
        "options": copy_json(s["options"]),
    }
    heroes: dict[bool, dict[str, Any]] = {}  # by whether the viewer sees the item cards
    built: dict[tuple[str, Any], dict[str, Any]] = {}  # by what sets the viewer's view apart
    out: dict[str | None, dict[str, Any]] = {}
    for seat in viewers:
        hero_seat = seat is not None and seat in s["seats"]
        sees_items = reveal or hero_seat
        if reveal:
            apart: tuple[str, Any] = ("reveal", None)
        elif seat == KEEPER:
            apart = ("keeper", None)
        elif hero_seat and seat is not None:
            apart = ("hero", s["blessings"].get(seat))
        else:
            apart = ("spectator", None)
        v = built.get(apart)
        if v is None:
            if sees_items not in heroes:
                heroes[sees_items] = {
                    hid: _hero_entry(hid, h, sees_items, s["options"], s["effects"].get(aegis_key(hid)))
                    for hid, h in s["heroes"].items()
                }
            v = built[apart] = {**head, "heroes": heroes[sees_items], **tail}
            if reveal or seat == KEEPER:
                v["ritual_hand"] = sorted(s["ritual_hand"])
            if reveal:
                v["blessings"] = dict(s["blessings"])
                v["treasure_deck_order"] = list(s["treasure_deck"])
                v["blessing_deck_order"] = list(s["blessing_deck"])
                v["ritual_deck_order"] = list(s["ritual_deck"])
                v["bag_contents"] = dict(s["bag"])
            elif hero_seat:
                v["my_blessing"] = apart[1]
        out[seat] = v
    return out


def _hero_entry(
    hid: str, h: HeroState, sees_items: bool, options: dict[str, Any], aegis: dict[str, Any] | None
) -> dict[str, Any]:
    """A hero as every seat sees it; its item cards only for hero seats (content 4).  Played
    Blessings are public: ``away`` is the cell a hero left on an Astral Journey (B01), ``aegis``
    the Keeper turn in which B08 protects it (this one or the next), else None."""
    entry: dict[str, Any] = {
        "seat": h["seat"],
        "cell": _cell(h["cell"]),
        "alive": h["alive"],
        "level": h["level"],
        "life": h["life"],
        "max_life": variants.max_life(options, hid, h["level"]),
        "xp": h["xp"],
        "parries": h["parries"],
        "rot": h["rot"],
        "move_left": sum(h["mv"]),
        "actions": h["actions"],
        "item_used": h["item_used"],
        "moved": h["moved"],
        "rubble": h["rubble"],
        "used": list(h["used"]),
        "card_count": len(h["cards"]),
        "away": _cell(h["away"]),
        "aegis": None if aegis is None else aegis["k"],
    }
    if sees_items:
        entry["cards"] = sorted(h["cards"])
    return entry


def _keeper_part(s: State) -> dict[str, Any]:
    """Zorkal, the monsters, this turn's summons and attack declarations: all public."""
    z = s["zorkal"]
    return {
        "zorkal": {
            "level": z["level"],
            "life": z["life"],
            "cell": _cell(z["cell"]),
            "move_left": z["mv"],
            "attacks_left": z["atk"],
        },
        "monsters": {
            mid: {
                "type": m["type"],
                "cell": _cell(m["cell"]),
                "life": MONSTERS[m["type"]]["life"] - m["dmg"],
                "waiting": m["wait"],
                "move_left": m["mv"],
                "attacks_left": m["atk"],
                "bat": m["bat"],
                "no_attack": m["no_attack"],
                "frozen": m["frozen"],
            }
            for mid, m in s["monsters"].items()
        },
        "bag": sum(s["bag"].values()),
        "summon": dict(s["summon"]) if s["phase"] == turns.SUMMONING else None,
        "attacks": [
            {"by": a["by"], "kind": a["kind"], "target": a["target"], "parried": a["parried"]}
            for a in s["attacks"]
        ],
    }


def _decks(s: State) -> dict[str, Any]:
    """Every deck as a count, every discard and the Rituals in play face up (content 4)."""
    return {
        "treasure_deck": len(s["treasure_deck"]),
        "treasure_discard": list(s["treasure_discard"]),
        "blessing_deck": len(s["blessing_deck"]),
        "blessing_discard": list(s["blessing_discard"]),
        "has_blessing": {seat_: card is not None for seat_, card in s["blessings"].items()},
        "ritual_deck": len(s["ritual_deck"]),
        "ritual_hand_count": len(s["ritual_hand"]),
        "ritual_discard": list(s["ritual_discard"]),
        "rituals_in_play": list(s["rituals_in_play"]),
        "ritual_played": s["ritual_played"],
    }


def _prompt(p: PromptState | None) -> dict[str, Any] | None:
    """A question, as every seat sees it (prompts are public: rules/prompts.py): its data beside
    kind, seat and text (rules never name their data so), a ``cells`` list as [x, y]."""
    if p is None:
        return None
    data = {k: [xy(c) for c in v] if k == "cells" else copy_json(v) for k, v in p["data"].items()}
    return {"kind": p["kind"], "seat": p["seat"], "text": p["text"], **data}


def secrets(s: State, seat: str | None) -> set[str]:
    """Card ids and names, and strong-monster types, that ``seat`` must not receive now.

    Only strings that nothing visible to that seat carries: a treasure kind lying face up in
    the discard is public even while another copy is still in the deck.
    """
    hero_seat = seat is not None and seat in s["seats"]
    visible: set[str] = set(s["treasure_discard"]) | set(s["blessing_discard"])
    visible |= set(s["ritual_discard"]) | set(s["rituals_in_play"])
    hidden: set[str] = set(s["treasure_deck"]) | set(s["blessing_deck"]) | set(s["ritual_deck"])
    held = {c for h in s["heroes"].values() for c in h["cards"]}
    if hero_seat and seat is not None:
        visible |= held
        own = s["blessings"].get(seat)
        if own is not None:
            visible.add(own)
    else:
        hidden |= held
    if seat == KEEPER:
        visible |= set(s["ritual_hand"])
    else:
        hidden |= set(s["ritual_hand"])
    for other, card in s["blessings"].items():
        if card is not None and other != seat:
            hidden.add(card)
    hidden -= visible
    visible_names = [CARD_NAMES[c] for c in visible]
    out = set(hidden)
    for card in hidden:
        name = CARD_NAMES[card]
        # A hidden name inside a visible one ("Healing Potion" in "Greater Healing Potion") is
        # not a leak of the hidden card.
        if not any(name in v for v in visible_names):
            out.add(name)
    if seat != KEEPER:
        # The Keeper picks strong types from the bag (Pandemonium, Ghostly Transformation;
        # ruling 49): its listed choices name them, so for it they are no secret.
        out |= {t for t, n in s["bag"].items() if n > 0 and t not in s["seen_strong"]}
    return out


def catalogue() -> dict[str, Any]:
    """The cards and figures: the rules' own tables (``static_info`` hands out a copy)."""
    return {
        "heroes": HEROES,
        "monsters": MONSTERS,
        "rituals": RITUALS,
        "blessings": BLESSINGS,
        "treasures": TREASURES,
    }
