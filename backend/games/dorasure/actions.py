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
  ``{"type": "end_move"}`` stop here; ``{"type": "undo_step"}`` take back the last step
  (listed while the movement lasts and that step rolled and revealed nothing, nor could:
  Quick Sand and the Poisonous Swamp make the steps before them final).  Nodes are space ids, except that the three
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

from backend.engine.core import IllegalAction, check_action_shape, listed

from .content import CITY, MOVE_NEIGHBOURS, NODE_TERRAIN
from .rules.flow import PROMPTS
from .rules.movement import can_share, occupied_by_others, place, threshold
from .rules.turn import forced_rule
from .state import Movement, State, copy_json

TYPES_BY_KIND: dict[str, set[str]] = {
    "reaction": {"faith", "lullaby", "pass"},
    "move": {"step", "move", "end_move", "undo_step"},
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
    """The seat's listed actions, for the caller to keep: a copy of the memoised list, which
    ``validate`` reads (a caller's edit must not change what is legal)."""
    return [copy_json(a) for a in _listed(state, seat)]


def legal_read(state: State, seat: str) -> list[dict[str, Any]]:
    """The seat's listed actions, the memoised list itself: read it, never edit it (the odds in
    a view read it; ``legal`` hands out copies)."""
    return _listed(state, seat)


# Every state's memo of a seat's list is filed under this one key (a seat is one of the heroes):
# a new key each time lived as long as its state, for the cyclic collector to scan (issue 15.2).
_LEGAL_KEYS: dict[str, tuple[str, str]] = {}


def _legal_key(seat: str) -> tuple[str, str]:
    key = _LEGAL_KEYS.get(seat)
    if key is None:
        key = _LEGAL_KEYS[seat] = ("legal", seat)
    return key


def _listed(state: State, seat: str) -> list[dict[str, Any]]:
    """The listed actions, memoised on the state: the server and the driver ask for the list,
    then validate one of them against the same state."""
    key = _legal_key(seat)
    cached: list[dict[str, Any]] | None = state._cache.get(key)
    if cached is not None:
        return cached
    p = state.prompt_for(seat) if state.result is None else None
    out = PROMPTS[p["kind"]].legal(state, p) if p else []
    state._cache[key] = out
    return out


def _listed_of(state: State, seat: str, p: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The listed actions an action of type ``kind`` may be among: the whole list when it is
    known or its prompt has no cheaper part (``PromptKind.legal_of``), else that type's part,
    memoised too.  The same actions are accepted either way (tests/games/dorasure/
    test_speed_equivalence.py)."""
    part_of = PROMPTS[p["kind"]].legal_of
    if part_of is None or _legal_key(seat) in state._cache:
        return _listed(state, seat)
    key = ("legal", seat, kind)
    cached: list[dict[str, Any]] | None = state._cache.get(key)
    if cached is None:
        cached = state._cache[key] = part_of(state, p, kind) if kind in TYPES_BY_KIND[p["kind"]] else []
    return cached


# The fields of each action type besides ``type``: (required, optional).  Listed actions always
# have exactly these; a refusal names a missing or unknown field before any rule of play.
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    t: (frozenset(required), frozenset(optional))
    for t, required, optional in [
        ("faith", (), ()),
        ("lullaby", (), ()),
        ("pass", (), ()),
        ("step", ("to", "die"), ()),
        ("move", ("to",), ()),
        ("end_move", (), ()),
        ("undo_step", (), ()),
        ("adventure", (), ()),
        ("rest", (), ()),
        ("gather", ("mountain",), ()),
        ("quest", ("mountain", "invite"), ()),
        ("end_turn", (), ()),
        ("spend", ("amount",), ("gold", "gust", "elixir")),
        ("big_bang", (), ()),
        ("tune", ("to", "amount"), ()),
        ("reroll", (), ()),
        ("poison", ("die", "at"), ()),
        ("accept", (), ()),
        ("decline", (), ()),
        ("doll", ("take",), ()),
        ("absorb", ("amount",), ("gold",)),
        ("shield", (), ()),
        ("kiss", ("hero",), ()),
        ("extra_turn", (), ()),
    ]
}
# The hero's own turn: what the labyrinth trap (R20) and Mirage City (§9.2) take away.
ON_TURN = TYPES_BY_KIND["move"] | TYPES_BY_KIND["act"]


def validate(state: State, seat: str, action: object) -> None:
    # Most often the whole list is memoised (the server and the driver list, then validate, and
    # apply validates again): one look-up. ``listed`` takes only an exact dict of exact types.
    legal = state._cache.get(_legal_key(seat))
    if legal is not None and listed(action, legal):
        return
    action = check_action_shape(action)
    if state.result is not None:
        raise IllegalAction("game_over", "The game is over.")
    p = state.prompt_for(seat)
    if p is not None and listed(action, _listed_of(state, seat, p, action["type"])):
        return
    raise IllegalAction(*refusal_reason(state, seat, p, action))


def refusal_reason(state: State, seat: str, p: dict[str, Any] | None, a: dict[str, Any]) -> tuple[str, str]:
    """Why an unlisted action is refused: the first rule that forbids it, from the action's
    own shape, to the seat's prompt, to what forces the hero's action, to the action's own
    conditions.  A player-readable reason, never naming hidden information."""
    t = a["type"]
    if t not in ALL_TYPES:
        return "unknown_action", f"Dorasure has no action called {t!r}."
    required, optional = FIELDS[t]
    fields = a.keys() - {"type"}
    if fields - required - optional:
        unknown = ", ".join(repr(f) for f in sorted(fields - required - optional))
        return "unknown_field", f"A {t!r} action has no field {unknown}."
    if required - fields:
        missing = ", ".join(repr(f) for f in sorted(required - fields))
        return "missing_field", f"A {t!r} action needs the field {missing}."
    if p is None:
        return "not_your_turn", "You owe no decision now: wait for the heroes who are acting."
    kind = p["kind"]
    if kind == "act" and t in ON_TURN and not _the_forced_action(state, seat, a):
        rule = forced_rule(state, seat)
        if rule is not None:
            return rule
    if t not in TYPES_BY_KIND[kind]:
        return "not_now", f"That is not possible now: {PROMPTS[kind].describe(state, p)}"
    if t == "step" and state.move is not None:
        return _step_refusal(state, seat, state.move, a["to"], a["die"])
    if t == "end_move":
        return (
            "cannot_stop",
            "You cannot stop on another hero's space except in a village or the City (rulebook).",
        )
    if t == "undo_step":
        return "nothing_to_undo", (
            "There is no step to take back: only steps of this movement can be, and not once the "
            "movement has ended or a step made it final (Quick Sand, Poisonous Swamp)."
        )
    if t == "move" and state.move is not None:
        return _move_refusal(state, seat, state.move, a["to"])
    if t == "rest":
        return _no_rest(state, seat)
    if t == "adventure":
        return "no_adventure", "Adventures happen only on plains and forest spaces (rulebook)."
    if t in ("gather", "quest"):
        return "not_beside_quest", (
            "Gather information needs a face-down quest next to you; Do a Quest needs a revealed quest next to you, "
            "and only heroes beside that mountain can be invited (none for the Sphinx)."
        )
    if t in ("spend", "absorb"):
        return "not_enough", "You cannot pay that many points from your resources."
    return "not_allowed", f"That is not one of your options now: {PROMPTS[kind].describe(state, p)}"


def _space_refusal(to: object) -> tuple[str, str] | None:
    """What refuses any movement into ``to`` whatever the dice: no such space, or a mountain."""
    if not isinstance(to, str) or to not in NODE_TERRAIN:
        return "no_such_space", "There is no such space on the board."
    if NODE_TERRAIN[to] == "mountain":
        return "mountain", "Mountain spaces can never be entered (rulebook, Movement of Hero)."
    return None


def _threshold_refusal(
    state: State, seat: str, to: str, best: int | None, dice: str
) -> tuple[str, str] | None:
    """The threshold of ``to`` against ``best``, the highest die that could pay for entering it
    (§1.6); ``dice`` says which dice those were."""
    need = threshold(state, seat, to)
    if best is None or best < need:
        return (
            "die_too_low",
            f"Entering {place(state, to)} needs a die of {need} or more; {dice} (rulebook thresholds).",
        )
    return None


def _dice_left(dice: list[int]) -> str:
    if not dice:
        return "you have no movement dice left"
    return "your dice left: " + ", ".join(map(str, sorted(dice)))


def _step_refusal(state: State, seat: str, mv: Movement, to: object, die: object) -> tuple[str, str]:
    """Movement of Hero, one step: the first rule that forbids entering ``to`` with ``die``."""
    here = state.heroes[seat]["pos"]
    space = _space_refusal(to)
    if space is not None:
        return space
    assert isinstance(to, str)
    if to not in MOVE_NEIGHBOURS[here]:
        return "not_adjacent", "Each step must enter a space next to the hero."
    if die == 1:
        return "die_void", "A die showing 1 is void for movement this turn (rulebook)."
    if die not in mv["dice"]:
        return "no_such_die", "You have no unused movement die with that face."
    if isinstance(die, int):
        too_low = _threshold_refusal(state, seat, to, die, f"this die is a {die}")
        if too_low is not None:
            return too_low
    return "cannot_stop", (
        "That step would leave you unable to finish your move: you can pass other heroes "
        "but only stop with them in a village or the City (rulebook)."
    )


def _move_refusal(state: State, seat: str, mv: Movement, to: object) -> tuple[str, str]:
    """Movement of Hero, a whole move to ``to``: the step's reasons, then why no route ends there."""
    space = _space_refusal(to)
    if space is not None:
        return space
    assert isinstance(to, str)
    here = state.heroes[seat]["pos"]
    if to == here:
        return "already_there", "You are already there: stop here instead (end the movement)."
    if to in occupied_by_others(state, seat) and not can_share(state, to):
        return "cannot_stop", (
            f"Another hero stands on {place(state, to)}: you can pass other heroes but only stop "
            "with them in a village or the City (rulebook)."
        )
    dice = list(mv["dice"])
    if to in MOVE_NEIGHBOURS[here]:
        too_low = _threshold_refusal(state, seat, to, max(dice, default=None), _dice_left(dice))
        if too_low is not None:
            return too_low
    return "unreachable", (
        f"{place(state, to)} is out of reach: every step needs its own unused die meeting the "
        f"threshold of the space it enters, and {_dice_left(dice)} (rulebook thresholds)."
    )


def _the_forced_action(state: State, seat: str, a: dict[str, Any]) -> bool:
    """Whether ``a`` is the action the trap or the Mirage asks for (then refused for itself)."""
    h = state.heroes[seat]
    if h["trapped"]:
        return bool(a["type"] == "quest" and a["mountain"] == h["trapped"])
    return bool(a["type"] == "adventure")


def _no_rest(state: State, seat: str) -> tuple[str, str]:
    """R15: the place that allows no rest, named."""
    pos = state.heroes[seat]["pos"]
    if pos == "belk" and state.razed:
        return "no_rest", "Belk has been razed: nobody can rest there any more (R15)."
    if pos == CITY and seat == "shaman":
        return "no_rest", "Hatred for Humans: the Shaman never rests in the City (R15)."
    return "no_rest", "You can rest only in a village or the City (rulebook, R15)."


def default(state: State, seat: str) -> dict[str, Any] | None:
    p = state.prompt_for(seat) if state.result is None else None
    return PROMPTS[p["kind"]].default(state, p) if p else None
