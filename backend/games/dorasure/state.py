"""Dorasure's game state: one plain object whose parts are JSON-shaped.

``apply`` works on ``state.clone()``: a copy of the top level, of every hero and
mountain dict, of the queue and prompt lists, and of the small in-flight records
(``roll``, ``dmg``, ``move``, ``quest``).  Everything deeper is treated as
immutable (tuples, or dicts that are replaced rather than edited), so the clone
is cheap and the input state is never mutated.  What the game hands out (legal
lists, views, events, the encoded state) is built fresh or copied with
``copy_json``, so no caller can reach into a state.

Resolution is a queue of *ops* (``("six",)``, ``("damage", {...})``...) run by
``rules/flow.py`` until a decision is owed; decisions are *prompts* (dicts with a
``seat`` and a ``kind``).  Both are part of the state, so a table can stop at any
prompt, be saved, and resume exactly.
"""

from __future__ import annotations

from typing import Any

HERO_TUPLES = ("used",)


class State:
    __slots__ = (
        "seed",
        "counter",
        "order",
        "fang",
        "lands",
        "phase",
        "turn",
        "current",
        "trigger",
        "heroes",
        "meter",
        "swords",
        "razed",
        "relic",
        "weapons",
        "lair_found",
        "replenished",
        "mountains",
        "reserve",
        "public",
        "queue",
        "prompts",
        "roll",
        "dmg",
        "move",
        "quest",
        "tflags",
        "last",
        "result",
        "_cache",
    )

    def __init__(self) -> None:
        self._cache: dict[Any, Any] = {}

    def clone(self) -> State:
        s = State.__new__(State)
        s.seed = self.seed
        s.counter = self.counter
        s.order = self.order
        s.fang = self.fang
        s.lands = self.lands  # fixed after setup
        s.phase = self.phase
        s.turn = self.turn
        s.current = self.current
        s.trigger = self.trigger
        s.heroes = {k: dict(v) for k, v in self.heroes.items()}
        s.meter = self.meter
        s.swords = self.swords
        s.razed = self.razed
        s.relic = self.relic
        s.weapons = self.weapons
        s.lair_found = self.lair_found
        s.replenished = self.replenished
        s.mountains = {k: dict(v) for k, v in self.mountains.items()}
        s.reserve = list(self.reserve)
        s.public = self.public
        s.queue = list(self.queue)
        s.prompts = list(self.prompts)
        s.roll = copy_json(self.roll) if self.roll is not None else None
        s.dmg = copy_json(self.dmg) if self.dmg is not None else None
        s.move = dict(self.move) if self.move is not None else None
        s.quest = dict(self.quest) if self.quest is not None else None
        s.tflags = dict(self.tflags)
        s.last = dict(self.last)
        s.result = self.result
        s._cache = {}
        return s

    # -- encoding -------------------------------------------------------------
    def encode(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "counter": self.counter,
            "order": list(self.order),
            "fang": self.fang,
            "lands": dict(self.lands),
            "phase": self.phase,
            "turn": self.turn,
            "current": self.current,
            "trigger": self.trigger,
            "heroes": {k: _jsonish(v) for k, v in self.heroes.items()},
            "meter": self.meter,
            "swords": self.swords,
            "razed": self.razed,
            "relic": self.relic,
            "weapons": self.weapons,
            "lair_found": self.lair_found,
            "replenished": self.replenished,
            "mountains": {k: dict(v) for k, v in self.mountains.items()},
            "reserve": list(self.reserve),
            "public": list(self.public),
            "queue": [_jsonish(op) for op in self.queue],
            "prompts": [_jsonish(p) for p in self.prompts],
            "roll": _jsonish(self.roll),
            "dmg": _jsonish(self.dmg),
            "move": _jsonish(self.move),
            "quest": _jsonish(self.quest),
            "tflags": _jsonish(self.tflags),
            "last": _jsonish(self.last),
            "result": list(self.result) if self.result else None,
        }

    @staticmethod
    def decode(data: dict[str, Any]) -> State:
        s = State()
        s.seed = data["seed"]
        s.counter = data["counter"]
        s.order = tuple(data["order"])
        s.fang = data["fang"]
        s.lands = dict(data["lands"])
        s.phase = data["phase"]
        s.turn = data["turn"]
        s.current = data["current"]
        s.trigger = data["trigger"]
        s.heroes = {}
        for k, v in data["heroes"].items():
            h = dict(v)
            for key in HERO_TUPLES:
                h[key] = tuple(h[key])
            s.heroes[k] = h
        s.meter = data["meter"]
        s.swords = data["swords"]
        s.razed = data["razed"]
        s.relic = data["relic"]
        s.weapons = data["weapons"]
        s.lair_found = data["lair_found"]
        s.replenished = data["replenished"]
        s.mountains = {k: dict(v) for k, v in data["mountains"].items()}
        s.reserve = list(data["reserve"])
        s.public = tuple(data["public"])
        s.queue = [tuple(copy_json(x) for x in op) for op in data["queue"]]
        s.prompts = [copy_json(p) for p in data["prompts"]]
        s.roll = copy_json(data["roll"])
        s.dmg = copy_json(data["dmg"])
        s.move = copy_json(data["move"])
        s.quest = copy_json(data["quest"])
        s.tflags = copy_json(data["tflags"])
        s.last = copy_json(data["last"])
        s.result = tuple(data["result"]) if data["result"] else None
        return s

    # -- small helpers used everywhere -----------------------------------------
    @property
    def n(self) -> int:
        return len(self.order)

    def living(self) -> list[str]:
        return [h for h in self.order if not self.heroes[h]["dead"]]

    def prompt_for(self, seat: str) -> dict[str, Any] | None:
        for p in self.prompts:
            if p["seat"] == seat:
                return p
        return None


def copy_json(x: Any) -> Any:
    """A deep copy of JSON-shaped data (much faster than copy.deepcopy).

    Also what the game hands out is made of: nothing returned by the engine may share a
    mutable part with a state, or a caller's edit would change the game."""
    # Exact types, and no call for the scalars that most values are: this runs in every apply.
    if type(x) is dict:
        out = dict(x)
        for k, v in x.items():
            if type(v) is dict or type(v) is list:
                out[k] = copy_json(v)
        return out
    if type(x) is list:
        return [copy_json(v) if type(v) is dict or type(v) is list else v for v in x]
    return x


def _jsonish(x: Any) -> Any:
    """Tuples → lists, recursively (the canonical JSON form used for hashing)."""
    if isinstance(x, dict):
        return {k: _jsonish(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonish(v) for v in x]
    return x
