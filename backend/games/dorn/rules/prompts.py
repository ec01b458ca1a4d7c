"""Questions asked in the middle of an effect (content 5.10, the prompt catalogue).

A card, an ability or a treasure sometimes needs a decision from one seat before the game can
go on: where the hidden monster goes, which heroes the Icy Prison names, whether Zombie Frenzy
blocks an attack, where Choros advances.  While a prompt is open only its seat acts, and only
with the prompt's listed answers (content 5.8: "Prompts owed to other seats pause the phase").

A prompt is a small public record in ``s["prompt"]``: its ``kind`` (the ``PromptRule`` that lists
and resolves its answers), the ``seat`` that answers, the question in words, and the rule's own
``data`` (JSON).  Prompts raised while one is open wait in ``s["queue"]`` in order.  Records are
replaced, never edited in place: a rule that asks again builds a new one with ``ask``.

Answers are actions of type ``choose`` (plus whatever keys the rule lists, e.g. ``to``, ``target``,
``hero``) except where a rule keeps an older type (``place_monster``).  Each rules module that asks
questions exports ``PROMPTS: dict[str, PromptRule]``; ``actions.py`` gathers them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from backend.engine.core import Action

from ..state import PromptState, Work


class PromptRule(NamedTuple):
    # (read-only work, the open prompt) -> the listed answers, in canonical form; the first is
    # the timeout default unless ``default`` says otherwise (content 5.10).
    answers: Callable[[Work, PromptState], list[Action]]
    # (work, seat, the prompt answered, the answer): the prompt is already closed when this runs
    # (the next queued one is open), so it may ``ask`` again.
    resolve: Callable[[Work, str, PromptState, Action], None]
    default: Callable[[Work, PromptState], Action] | None = None


def ask(w: Work, kind: str, seat: str, text: str, **data: Any) -> None:
    """Open a prompt for ``seat`` (or queue it behind the open one)."""
    record: PromptState = {"kind": kind, "seat": seat, "text": text, "data": data}
    s = w.s
    if s["prompt"] is None:
        s["prompt"] = record
    else:
        s["queue"].append(record)


def close(w: Work) -> PromptState:
    """Take the open prompt off (the next queued one opens); returns the one closed."""
    s = w.s
    prompt = s["prompt"]
    assert prompt is not None
    s["prompt"] = s["queue"].pop(0) if s["queue"] else None
    return prompt


def pending(w: Work, kind: str) -> list[PromptState]:
    """The open and queued prompts of one kind."""
    s = w.s
    out = [s["prompt"]] if s["prompt"] is not None else []
    return [p for p in out + s["queue"] if p["kind"] == kind]
