"""Exact Dorasure positions for rule tests, with scripted dice.

``Table(monkeypatch, {"ninja": "p05", "hunter": {"pos": "city", "hp": 2}}, ...)``
places heroes (a space id, or a dict of hero fields) and tiles; mountains are
written ``"quest/reward[:state[:flags]]"``.  Dice are scripted: every die the
rules roll is taken from the faces a test passes (``start_turn(6, 2, 3)``,
``act(seat, action, 4, 5)``), and a test fails if the rules roll more or fewer
dice than scripted.  Play never uses this: it replaces ``flow.new_rng``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from backend.games.dorasure.content import HEROES
from backend.games.dorasure.game import GAME
from backend.games.dorasure.rules import flow
from backend.games.dorasure.rules.heroes import _grow, level_for
from backend.games.dorasure.rules.setup import blank_state
from backend.games.dorasure.rules.turn import begin_turn

DEFAULT_MOUNTAINS = {
    "m1": "mysterious_inscriptions/dragons_lair",
    "m2": "golem_guardian/book_of_dragons",
    "m3": "teleportation_trap/anti_dragon_weapons",
    "m4": "underground_labyrinth/treasure",
    "m5": "horde_of_goblins/dragons_lair",
}
DEFAULT_RESERVE = ["evil_chimera", "riddle_of_the_sphinx"]
# The rulebook's character list, in turn priority (the Grand Master plays alone).
PARTY = [
    "ninja",
    "gladiator",
    "samurai",
    "hunter",
    "werewolf",
    "shaman",
    "minstrel",
    "magician",
    "prince",
    "paladin",
    "vampire",
]


class Script:
    def __init__(self) -> None:
        self.faces: deque[int] = deque()
        self.counter = 0

    def _next(self) -> int:
        if not self.faces:
            raise AssertionError("the rules rolled more dice than the test scripted")
        self.counter += 1
        return self.faces.popleft()

    def d6(self) -> int:
        f = self._next()
        assert 1 <= f <= 6
        return f

    def below(self, n: int) -> int:
        v = self._next()
        assert 0 <= v < n
        return v


class Table:
    def __init__(
        self,
        monkeypatch: Any,
        heroes: dict[str, Any],
        *,
        current: str | None = None,
        mountains: dict[str, str] | None = None,
        reserve: list[str] | None = None,
        lands: dict[str, str] | None = None,
        **fields: Any,
    ) -> None:
        self.script = Script()
        monkeypatch.setattr(flow, "new_rng", lambda seed, counter: self.script)
        opts = GAME.normalize_options({"heroes": list(heroes), "fang": bool(lands)})
        s = blank_state("00" * 32, opts)
        for hid, spec in heroes.items():
            h = s.heroes[hid]
            spec = {"pos": spec} if isinstance(spec, str) else dict(spec)
            if "exp" in spec:
                h["exp"] = spec["exp"]
                while h["level"] < level_for(hid, h["exp"]):
                    h["level"] += 1
                    _grow(h, HEROES[hid]["growth"][h["level"] - 2])
            for k, v in spec.items():
                h[k] = tuple(v) if k == "used" else v
        s.lands = dict(lands or {})
        ms = dict(DEFAULT_MOUNTAINS)
        ms.update(mountains or {})
        s.mountains = {}
        for m, text in ms.items():
            parts = text.split(":")
            quest, reward = parts[0].split("/")
            state = parts[1] if len(parts) > 1 else "hidden"
            s.mountains[m] = {
                "quest": quest,
                "reward": reward,
                "state": state,
                "reward_state": "revealed" if state == "solved" else "hidden",
                "flags": int(parts[2]) if len(parts) > 2 else 0,
                "replenished": False,
            }
            if state in ("revealed", "solved"):
                s.public = tuple(sorted({*s.public, quest}))
        s.reserve = list(DEFAULT_RESERVE if reserve is None else reserve)
        for k, v in fields.items():
            setattr(s, k, v)
        s.current = current or s.order[0]
        self.s = s
        self.events: list[Any] = []

    # -- driving ---------------------------------------------------------------
    def _run(self, ops: list[tuple[Any, ...]], dice: tuple[int, ...]) -> list[Any]:
        self.script.faces.extend(dice)
        s = self.s.clone()
        ctx = flow.Ctx(s)
        flow.push(s, *ops)
        flow.run(ctx)
        ctx.finish()
        self.s = s
        self._done(ctx.events)
        return ctx.events

    def _done(self, events: list[Any]) -> None:
        self.events = list(events)
        left = list(self.script.faces)
        self.script.faces.clear()
        assert not left, f"the rules did not roll the scripted dice {left}"

    def start_turn(self, *dice: int) -> list[Any]:
        """Begin the current hero's Adventure-phase turn (R1)."""
        s = self.s.clone()
        begin_turn(s, s.current)
        ops, s.queue = list(s.queue), []
        self.s = s
        return self._run(ops, dice)

    def start_battle_turn(self, *dice: int) -> list[Any]:
        self.s.phase = 2
        return self._run([("battle_turn", self.s.current, False)], dice)

    def run_op(self, op: tuple[Any, ...], *dice: int) -> list[Any]:
        return self._run([op], dice)

    def act(self, seat: str, action: dict[str, Any], *dice: int) -> list[Any]:
        self.script.faces.extend(dice)
        tr = GAME.apply(self.s, seat, action)
        self.s = tr.state
        self._done(list(tr.events))
        return self.events

    # -- looking -----------------------------------------------------------------
    def legal(self, seat: str) -> list[dict[str, Any]]:
        return GAME.legal_actions(self.s, seat)

    def prompt(self, seat: str) -> str | None:
        p = self.s.prompt_for(seat)
        return p["kind"] if p else None

    def hero(self, hid: str) -> dict[str, Any]:
        return self.s.heroes[hid]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def text(self) -> str:
        return "\n".join(e.data["text"] for e in self.events)

    def event(self, kind: str) -> dict[str, Any]:
        found = [e.data for e in self.events if e.kind == kind]
        assert found, f"no {kind} event in {self.kinds()}"
        return found[-1]

    def to_act(self) -> frozenset[str]:
        return GAME.to_act(self.s)

    def answer_defaults(self) -> None:
        """Answer every open prompt with its default (no dice may be rolled)."""
        while self.s.prompts and self.s.result is None:
            p = self.s.prompts[0]
            if p["kind"] in ("move", "act"):
                return
            self.act(p["seat"], GAME.default_action(self.s, p["seat"]))


def at_action(monkeypatch: Any, heroes: dict[str, Any], current: str, **kw: Any) -> Table:
    """The current hero's turn at its action step: movement dice all 1s, zero steps (R13)."""
    t = Table(monkeypatch, heroes, current=current, **kw)
    t.start_turn(*([1] * t.hero(current)["move"]))
    t.act(current, {"type": "end_move"})
    assert t.prompt(current) == "act"
    return t
