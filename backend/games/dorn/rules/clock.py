"""Real Day and Night, the variant of content 6.5 (ruling V8 in docs/rules/dorn.md): each Keeper
turn and each hero turn has T seconds (the ``turn_clock`` option: 120, 180, 240 or 300).

The engine keeps no time: it is pure.  It says whose clock runs (``clock``: the turn, its side's
seats, T, and whether that side owes input now; prompts owed by the other side pause it) and
what happens when it runs out: the seat's ``time_up`` action, which the server sends for each
seat of that side when T has passed (a player may also send it: ending one's own turn early is
always allowed).

- The Keeper's ``time_up``: his pending prompts take their defaults, the open step ends and the
  remaining optional steps (K1-K4) are skipped; K4's declared attacks stand, the heroes still
  parry, and K5 happens.
- A hero seat's ``time_up``: its pending prompts take their defaults and it is *out* for the rest
  of this hero turn: done in the open step and in every later one (H1-H3); H4 and H5 happen.
  Other hero seats play on until their own ``time_up`` (the server sends them together).
"""

from __future__ import annotations

from typing import Any, Final

from backend.engine.core import Action

from ..state import KEEPER, State, Work, seat_words
from . import turns, variants
from .effects import UNTIL_HERO_END

TIME_UP: Final = "time_up"


def playing(s: State) -> bool:
    return variants.on(s["options"], variants.REAL_DAY_NIGHT)


def keeper_turn(s: State) -> bool:
    return s["phase"] in turns.KEEPER_PHASES or s["phase"] == turns.PARRIES


def side_seats(s: State) -> list[str]:
    """The seats of the side whose turn it is."""
    return [KEEPER] if keeper_turn(s) else list(s["seats"])


def out(s: State, seat: str) -> bool:
    """A hero seat whose time ran out this hero turn (it owes nothing more until H5)."""
    return turns.OUT_OF_TIME + seat in s["effects"]


def _on_turn(s: State, seat: str) -> bool:
    """Whether ``seat`` is owed input on its own side's turn (K1-K4 for the Keeper, H1-H3 for a
    hero seat), with no prompt of another seat and no surrender vote open."""
    if s["surrender"] is not None or s["outcome"] is not None:
        return False
    prompt = s["prompt"]
    if prompt is not None and prompt["seat"] != seat:
        return False
    if seat == KEEPER:
        return s["phase"] in turns.KEEPER_PHASES
    return s["phase"] in turns.HERO_PHASES and seat not in s["done"] and not out(s, seat)


def listed(s: State, seat: str) -> list[Action]:
    """The ``time_up`` action, for a seat of the side on turn that owes input now."""
    return [{"type": TIME_UP}] if playing(s) and _on_turn(s, seat) else []


def clock(s: State, to_act: frozenset[str]) -> dict[str, Any] | None:
    """The running turn clock for the server: ``turn`` (a key that changes with every Keeper and
    hero turn), ``seats`` (its side), ``seconds`` (T) and ``running`` (its side owes input now).
    None without the variant or once the game is over."""
    if not playing(s) or s["outcome"] is not None:
        return None
    seats = side_seats(s)
    return {
        "turn": f"{s['k']}:{'keeper' if keeper_turn(s) else 'heroes'}",
        "seats": seats,
        "seconds": s["options"]["turn_clock"],
        "running": any(seat in to_act for seat in seats),
    }


def time_up(w: Work, seat: str) -> None:
    """The seat's time has run out (its own pending prompts were answered by default first)."""
    s = w.s
    if seat == KEEPER:
        w.emit("time_up", "The Keeper's time is up: the rest of his turn's steps are skipped.", seat=seat)
        while s["phase"] in turns.KEEPER_PHASES and s["outcome"] is None:
            turns.end_keeper_phase(w)
        return
    s["effects"][turns.OUT_OF_TIME + seat] = UNTIL_HERO_END
    if seat not in s["done"]:
        s["done"].append(seat)
    w.emit(
        "time_up",
        f"Time is up for {seat_words(w.s, seat)}: those heroes do nothing more this hero turn.",
        seat=seat,
    )
