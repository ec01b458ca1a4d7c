"""Dorasure actions: shapes, legal lists and the reasons for refusals.

Every decision is a *prompt* owed by one seat (``view["prompts"]``); a seat owes
at most one at a time, and its legal actions are the answers to it.

On-turn prompts (Adventure phase, the hero whose turn it is):

* ``reaction`` — right after the movement roll: ``{"type": "faith"}`` (Paladin:
  set aside the highest die, +1 Faith), ``{"type": "lullaby"}`` (Minstrel, once
  per game: her 6s do not move the Dragon), ``{"type": "pass"}``.
* ``move`` — ``{"type": "step", "to": node, "die": face}`` one step paid with one
  unused die; ``{"type": "move", "to": node}`` walk to a reachable end space by
  the canonical route (fewest steps, lowest dice) and stop there;
  ``{"type": "end_move"}`` stop here.  Nodes are space ids, except that the three
  City hexes form the one node ``"city"`` (see ``static_info["spaces"][i]["node"]``).
* ``act`` — ``{"type": "adventure"}``, ``{"type": "rest"}``,
  ``{"type": "gather", "mountain": "m3"}``,
  ``{"type": "quest", "mountain": "m3", "invite": [seat, ...]}`` (invitees in seat
  order), ``{"type": "end_turn"}`` (absent when the action is forced).

Roll windows (any participant):

* ``spend`` — ``{"type": "spend", "amount": n}``; the Prince adds ``"gold": g``
  (how many of the n points come from Gold); the Samurai may add
  ``"gust": true`` (his first point buys 2 dice), the Grand Master
  ``"elixir": true``; the Magician may answer ``{"type": "big_bang"}``.
* ``tune`` — Minstrel: ``{"type": "tune", "to": seat, "amount": n}`` or pass.
* ``post_roll`` — roller: ``{"type": "reroll"}``, Hunter
  ``{"type": "poison", "die": i, "at": j}`` (chain i, face j becomes a 6), or pass.

Damage and other out-of-turn prompts:

* ``assist`` — ``{"type": "accept"}`` / ``{"type": "decline"}``.
* ``doll`` — Shaman: ``{"type": "doll", "take": {seat: n, ...}}`` or pass.
* ``absorb`` — ``{"type": "absorb", "amount": n}`` (+ ``"gold": g`` for the Prince).
* ``shield`` — Paladin: ``{"type": "shield"}`` or pass.
* ``kiss`` — Vampire: ``{"type": "kiss", "hero": seat}`` or pass.
* ``extra_turn`` — Werewolf: ``{"type": "extra_turn"}`` or pass.
"""

from __future__ import annotations

from typing import Any

from backend.engine.core import IllegalAction, check_action_shape

from .content import MOVE_NEIGHBOURS, NODE_TERRAIN
from .rules.flow import PROMPTS
from .state import State

TYPES_BY_KIND: dict[str, set[str]] = {
    "reaction": {"faith", "lullaby", "pass"},
    "move": {"step", "move", "end_move"},
    "act": {"adventure", "rest", "gather", "quest", "end_turn"},
    "spend": {"spend", "big_bang"},
    "tune": {"tune", "pass"},
    "post_roll": {"reroll", "poison", "pass"},
    "assist": {"accept", "decline"},
    "doll": {"doll", "pass"},
    "absorb": {"absorb"},
    "shield": {"shield", "pass"},
    "kiss": {"kiss", "pass"},
    "extra_turn": {"extra_turn", "pass"},
}
ALL_TYPES = set().union(*TYPES_BY_KIND.values())


def legal(state: State, seat: str) -> list[dict[str, Any]]:
    key = ("legal", seat)
    cached = state._cache.get(key)
    if cached is not None:
        return cached
    p = state.prompt_for(seat) if state.result is None else None
    out = PROMPTS[p["kind"]].legal(state, p) if p else []
    state._cache[key] = out
    return out


def validate(state: State, seat: str, action: Any) -> None:
    check_action_shape(action)
    t = action["type"]
    if state.result is not None:
        raise IllegalAction("game_over", "The game is over.")
    if t not in ALL_TYPES:
        raise IllegalAction("unknown_action", f"Dorasure has no action called {t!r}.")
    p = state.prompt_for(seat)
    if p is None:
        raise IllegalAction("not_your_turn", "You owe no decision now: wait for the heroes who are acting.")
    if action in legal(state, seat):
        return
    kind = p["kind"]
    if t not in TYPES_BY_KIND[kind]:
        raise IllegalAction("not_now", f"That is not possible now: {PROMPTS[kind].describe(state, p)}")
    raise IllegalAction(*_why(state, seat, p, action))


def _why(state: State, seat: str, p: dict[str, Any], a: dict[str, Any]) -> tuple[str, str]:
    """A player-readable reason for refusing an action of the right type."""
    t = a["type"]
    if t == "step" and state.move is not None:
        from .rules.movement import threshold

        here = state.heroes[seat]["pos"]
        to, die = a.get("to"), a.get("die")
        if not isinstance(to, str) or to not in NODE_TERRAIN:
            return "no_such_space", "There is no such space on the board."
        if NODE_TERRAIN[to] == "mountain":
            return "mountain", "Mountain spaces can never be entered (rulebook, Movement of Hero)."
        if to not in MOVE_NEIGHBOURS[here]:
            return "not_adjacent", "Each step must enter a space next to the hero."
        if die == 1:
            return "die_void", "A die showing 1 is void for movement this turn (rulebook)."
        if die not in state.move["dice"]:
            return "no_such_die", "You have no unused movement die with that face."
        need = threshold(state, seat, to)
        if isinstance(die, int) and die < need:
            return "die_too_low", f"Entering that space needs a die of {need} or more (rulebook thresholds)."
        return "cannot_stop", (
            "That step would leave you unable to finish your move: you can pass other heroes "
            "but only stop with them in a village or the City (rulebook)."
        )
    if t == "end_move":
        return (
            "cannot_stop",
            "You cannot stop on another hero's space except in a village or the City (rulebook).",
        )
    if t == "move":
        return "unreachable", "You cannot reach and stop on that space with your remaining dice."
    if t == "rest":
        return (
            "no_rest",
            "You can rest only in a village or the City (the Shaman never in the City) — rulebook.",
        )
    if t == "adventure":
        return "no_adventure", "Adventures happen only on plains and forest spaces (rulebook)."
    if t in ("gather", "quest"):
        return "not_beside_quest", (
            "Gather information needs a face-down quest next to you; Do a Quest needs a revealed quest next to you, "
            "and only heroes beside that mountain can be invited (none for the Sphinx)."
        )
    if t == "end_turn":
        return "action_forced", "Your action is forced this turn (labyrinth trap or Mirage City)."
    if t in ("spend", "absorb"):
        return "not_enough", "You cannot pay that many points from your resources."
    return "not_allowed", f"That is not one of your options now: {PROMPTS[p['kind']].describe(state, p)}"


def default(state: State, seat: str) -> dict[str, Any] | None:
    p = state.prompt_for(seat) if state.result is None else None
    return PROMPTS[p["kind"]].default(state, p) if p else None
