"""The resolution loop: ops, prompts and the per-apply context.

Rules are written as *ops*: small named steps kept in ``state.queue``.  ``run``
pops and runs ops until one of them raises a *prompt* (a decision owed by a seat),
the game ends or the queue is empty.  An answer to a prompt is handled by the
prompt kind's ``answer`` function, then the loop resumes.  Ops are tuples of
JSON values, so a paused resolution is part of the saved state.

``push`` puts ops at the *front* of the queue (they run next, in the given
order): an op that needs follow-up work pushes it before returning.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from backend.engine.core import Event
from backend.engine.rng import Rng

from ..state import OVER, Op, State

T = TypeVar("T")


class Dice(Protocol):
    """What the rules draw from: the engine's Rng in play, a script of faces in tests."""

    counter: int

    def d6(self) -> int: ...

    def below(self, n: int) -> int: ...

    def shuffled(self, items: Sequence[T]) -> list[T]: ...


def _seeded(seed_hex: str, counter: int) -> Dice:
    return Rng(seed_hex, counter)


# The dice source of one apply: play always uses the seeded Rng carried in the state; tests
# replace this factory to script dice. A module attribute read at each first draw, not a def
# called by name: compiled (backend/native.py), a call to a def is bound at build time and a
# test's replacement would never be seen.
new_rng: Callable[[str, int], Dice] = _seeded


class Ctx:
    """One apply's working state, dice and collected events.

    ``before`` is the state the apply started from, unchanged: what was listed or validated
    there (its memoised movement search) need not be found again on the working copy."""

    __slots__ = ("s", "before", "_rng", "events")

    def __init__(self, state: State, before: State | None = None) -> None:
        self.s = state
        self.before = before
        self._rng: Dice | None = None  # made at the first draw: most applies draw nothing
        self.events: list[Event] = []

    @property
    def rng(self) -> Dice:
        if self._rng is None:
            self._rng = new_rng(self.s.seed, self.s.counter)
        return self._rng

    def d6(self) -> int:
        return (self._rng if self._rng is not None else self.rng).d6()

    def below(self, n: int) -> int:
        return self.rng.below(n)

    def emit(self, kind: str, text: str, **data: Any) -> None:
        """One event. Its lists and dicts become the event's own, and events leave the engine: a
        rule passes ones of its own making, never a part of the state or of the action (it copies
        those: tests/games/dorasure/test_copies.py). Not copied here, where most data needs none."""
        self.events.append(Event(kind, {"text": text, **data}))

    def finish(self) -> None:
        if self._rng is not None:
            self.s.counter = self._rng.counter


OPS: dict[str, Callable[..., None]] = {}


def op(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        OPS[name] = fn
        return fn

    return register


def push(s: State, *ops: Op) -> None:
    s.queue[0:0] = ops


def run(ctx: Ctx) -> None:
    s = ctx.s
    while not s.prompts and s.result is None and s.queue:
        o = s.queue.pop(0)
        if len(o) == 1:
            OPS[o[0]](ctx)  # most ops have no arguments, and a plain call is the cheaper one
        else:
            OPS[o[0]](ctx, *o[1:])


@dataclass(frozen=True)
class PromptKind:
    """How one kind of decision is offered, defaulted, answered and described."""

    legal: Callable[[State, dict[str, Any]], list[dict[str, Any]]]
    default: Callable[[State, dict[str, Any]], dict[str, Any]]
    answer: Callable[[Ctx, dict[str, Any], dict[str, Any]], None]
    describe: Callable[[State, dict[str, Any]], str]
    # The listed answers of one action type, when ``legal`` is costly and most answers can be
    # checked without all of it (``move``): ``legal`` is these parts, one type after another.
    legal_of: Callable[[State, dict[str, Any], str], list[dict[str, Any]]] | None = None


PROMPTS: dict[str, PromptKind] = {}


def prompt_kind(name: str, kind: PromptKind) -> None:
    PROMPTS[name] = kind


def ask(s: State, seat: str, kind: str, **data: Any) -> None:
    """Raise a prompt.  A seat owes at most one answer at a time."""
    assert s.prompt_for(seat) is None, f"{seat} already owes an answer"
    s.prompts.append({"seat": seat, "kind": kind, **data})


def end_game(ctx: Ctx, result: str, reason: str) -> None:
    s = ctx.s
    s.result = (result, reason)
    s.phase = OVER
    s.queue = []
    s.prompts = []
    s.move = None
    ctx.emit("game_over", reason, result=result)


def pass_action() -> dict[str, Any]:
    return {"type": "pass"}


def damage(targets: dict[str, int], source: str, dragon: int = 0) -> Op:
    """The op for one damage event (hero damage plus simultaneous Dragon damage), run by
    ``rules/damage.py``: ops are looked up by name, so building one needs no handler."""
    return ("damage", dict(targets), source, dragon)


def optional_prompt(
    name: str,
    legal: Callable[[State, dict[str, Any]], list[dict[str, Any]]],
    answer: Callable[[Ctx, dict[str, Any], dict[str, Any]], None],
    describe: Callable[[State, dict[str, Any]], str],
) -> None:
    """A prompt offering an optional power: its default is not to use it (R65)."""
    prompt_kind(
        name, PromptKind(legal=legal, default=lambda s, p: pass_action(), answer=answer, describe=describe)
    )
