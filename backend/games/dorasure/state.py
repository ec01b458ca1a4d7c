"""Dorasure's game state: one plain object whose parts are JSON-shaped.

``apply`` works on ``state.clone()``: a copy of the top level, of every hero dict,
of the queue and prompt lists, and of the small in-flight records (``roll``, ``dmg``,
``move``, ``quest``).  Everything deeper is treated as immutable (tuples, or dicts
that are replaced rather than edited), so the clone is cheap and the input state is
never mutated.  Mountains are such dicts: most applies change none, so a rule that
changes one takes it with ``State.mountain_to_change``.  The turn's flags (``tflags``),
``last`` and the ``reserve`` are replaced whole by the rules that change them, never edited,
so the clone shares them too.  What the game hands out (legal
lists, views, events, the encoded state) is built fresh or copied with
``copy_json``, so no caller can reach into a state.

Resolution is a queue of *ops* (``("six",)``, ``("damage", {...})``...) run by
``rules/flow.py`` until a decision is owed; decisions are *prompts* (dicts with a
``seat`` and a ``kind``).  Both are part of the state, so a table can stop at any
prompt, be saved, and resume exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal, NotRequired, TypedDict, TypeVar, cast

HERO_TUPLES = ("used",)

# Phase codes, stored as these numbers (renaming them would change every saved state's hash).
Phase = Literal[1, 2, 3]
ADVENTURE: Final = 1
BATTLE: Final = 2
OVER: Final = 3

# An op: its registered name (rules/flow.py ``op``), then JSON arguments.  Stored in the queue.
Op = tuple[Any, ...]
# A decision owed: ``seat``, ``kind`` and the kind's own data (amount, roll, leader, mountain...).
Prompt = dict[str, Any]


class Hero(TypedDict):
    """A hero's sheet in play (rules/heroes.py ``new_hero``).  The short stored keys stay as they
    are, since renaming a stored key changes every state hash: ``res`` the resource pool
    (Magic, Voodoo, Servants...), ``pd``/``fd`` plains/forest danger (the data's
    ``plains_danger``/``forest_danger``), ``l6`` the Level 6 Strike (R57)."""

    id: str
    pos: str
    hp: int
    max_hp: int
    res: int
    max_res: int
    gold: int
    exp: int
    level: int
    move: int
    pd: int
    fd: int
    combat: int
    search: int
    knowledge: int
    regain: int
    l6: bool
    trapped: str | None
    dead: bool
    used: tuple[str, ...]


class Mountain(TypedDict):
    """One mountain's tiles: the quest and reward ids with their faces, and the flags (R18)."""

    quest: str
    reward: str
    state: str  # hidden | revealed | solved | removed
    reward_state: str  # hidden | revealed | lost
    flags: int
    replenished: bool


class RollPart(TypedDict):
    extra: int  # dice bought with the participant's own points
    tune: int  # dice the Minstrel's Heroic Tune added


class Roll(TypedDict):
    """The scored roll in progress (rules/rolls.py)."""

    kind: str  # adventure | quest | combat
    roller: str
    mountain: str | None
    quest: str | None
    order: list[str]
    parts: dict[str, RollPart]
    chains: dict[str, list[list[int]]]
    big_bang: bool


class DamageEvent(TypedDict):
    """The damage event being resolved (stored as ``dmg``; rules/damage.py)."""

    targets: dict[str, int]
    source: str
    dragon: int
    absorb: dict[str, int]
    asked: list[str]


class StepUndo(TypedDict):
    """What one step changed, kept while it may be taken back (rules/movement.py ``undo_step``)."""

    frm: str
    dice: list[int]
    hp: int
    res: int


class Movement(TypedDict):
    """The movement in progress (R1 steps 2–5): dice rolled, dice left to pay steps with;
    ``undo``, once a step was taken, what each step since the last final one changed."""

    rolled: list[int]
    dice: list[int]
    steps: int
    path: list[str]
    sixes: int
    undo: NotRequired[list[StepUndo]]


class QuestAttempt(TypedDict):
    mountain: str
    leader: str
    accepted: list[str]
    revived_before: list[str]


class TurnFlags(TypedDict, total=False):
    """What the current turn has used or owes (stored as ``tflags``; cleared each turn)."""

    extra: bool  # this battle turn is the Werewolf's extra one (R43)
    take_extra: bool  # ... and he chose to take it
    dead: bool  # the current hero fell this turn (R25)
    revived: list[str]  # heroes revived this turn (R23)
    faith: bool
    lullaby: bool
    shielded: bool
    ninja_rerolled: bool


@dataclass(slots=True, eq=False)
class State:
    seed: str
    order: tuple[str, ...]
    fang: bool
    current: str
    heroes: dict[str, Hero]
    counter: int = 0
    lands: dict[str, str] = field(default_factory=dict)  # Fang site -> land tile, fixed after setup
    phase: Phase = ADVENTURE
    turn: int = 0
    trigger: str | None = None  # the hero who opened the Climactic Battle (R30)
    meter: int = 0
    swords: int = 0
    razed: bool = False
    relic: bool = False
    weapons: bool = False
    lair_found: bool = False
    replenished: bool = False
    mountains: dict[str, Mountain] = field(default_factory=dict)
    reserve: list[str] = field(default_factory=list)
    public: tuple[str, ...] = ()  # tiles ever seen face up
    queue: list[Op] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    roll: Roll | None = None
    dmg: DamageEvent | None = None
    move: Movement | None = None
    quest: QuestAttempt | None = None
    tflags: TurnFlags = field(default_factory=TurnFlags)
    last: dict[str, Any] = field(default_factory=dict)  # last movement, roll, rampage, retaliation
    result: tuple[str, str] | None = None
    # Memoised answers about this state (legal lists, movement search); never copied or stored.
    _cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False)
    # The view parts last built along this state's line of applies (view.py ``_kept``): one dict
    # shared by a state and the states cloned from it, never copied or stored.
    _shown: dict[Any, Any] = field(default_factory=dict, init=False, repr=False)

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
        s.heroes = {k: v.copy() for k, v in self.heroes.items()}
        s.meter = self.meter
        s.swords = self.swords
        s.razed = self.razed
        s.relic = self.relic
        s.weapons = self.weapons
        s.lair_found = self.lair_found
        s.replenished = self.replenished
        s.mountains = dict(self.mountains)  # shared dicts: see mountain_to_change
        s.reserve = self.reserve  # replaced, never edited (see above), as tflags and last
        s.public = self.public
        s.queue = list(self.queue)
        s.prompts = list(self.prompts)
        s.roll = copy_json(self.roll) if self.roll is not None else None
        s.dmg = copy_json(self.dmg) if self.dmg is not None else None
        s.move = self.move.copy() if self.move is not None else None
        s.quest = self.quest.copy() if self.quest is not None else None
        s.tflags = self.tflags
        s.last = self.last
        s.result = self.result
        s._cache = {}
        s._shown = self._shown
        return s

    # -- encoding -------------------------------------------------------------
    def encode(self) -> dict[str, Any]:
        """The state as JSON data of its own: every part a copy (tuples made lists)."""
        data: dict[str, Any] = _jsonish(self.encode_read())
        return data

    def encode_read(self) -> dict[str, Any]:
        """The same data, sharing the state's parts: spelled at once, never kept or edited
        (engine ``SharedEncoding``)."""
        return {
            "seed": self.seed,
            "counter": self.counter,
            "order": self.order,
            "fang": self.fang,
            "lands": self.lands,
            "phase": self.phase,
            "turn": self.turn,
            "current": self.current,
            "trigger": self.trigger,
            "heroes": self.heroes,
            "meter": self.meter,
            "swords": self.swords,
            "razed": self.razed,
            "relic": self.relic,
            "weapons": self.weapons,
            "lair_found": self.lair_found,
            "replenished": self.replenished,
            "mountains": self.mountains,
            "reserve": self.reserve,
            "public": self.public,
            "queue": self.queue,
            "prompts": self.prompts,
            "roll": self.roll,
            "dmg": self.dmg,
            "move": self.move,
            "quest": self.quest,
            "tflags": self.tflags,
            "last": self.last,
            "result": self.result,
        }

    @staticmethod
    def decode(data: dict[str, Any]) -> State:
        heroes: dict[str, Hero] = {}
        for k, v in data["heroes"].items():
            h = dict(v)
            for key in HERO_TUPLES:
                h[key] = tuple(h[key])
            heroes[k] = cast(Hero, h)
        return State(
            seed=data["seed"],
            counter=data["counter"],
            order=tuple(data["order"]),
            fang=data["fang"],
            lands=dict(data["lands"]),
            phase=data["phase"],
            turn=data["turn"],
            current=data["current"],
            trigger=data["trigger"],
            heroes=heroes,
            meter=data["meter"],
            swords=data["swords"],
            razed=data["razed"],
            relic=data["relic"],
            weapons=data["weapons"],
            lair_found=data["lair_found"],
            replenished=data["replenished"],
            mountains={k: cast(Mountain, dict(v)) for k, v in data["mountains"].items()},
            reserve=list(data["reserve"]),
            public=tuple(data["public"]),
            queue=[tuple(copy_json(x) for x in op) for op in data["queue"]],
            prompts=[copy_json(p) for p in data["prompts"]],
            roll=copy_json(data["roll"]),
            dmg=copy_json(data["dmg"]),
            move=copy_json(data["move"]),
            quest=copy_json(data["quest"]),
            tflags=copy_json(data["tflags"]),
            last=copy_json(data["last"]),
            result=tuple(data["result"]) if data["result"] else None,
        )

    # -- small helpers used everywhere -----------------------------------------
    @property
    def hero_count(self) -> int:
        """Heroes at the table, fallen ones included (the 6+ rules, §8)."""
        return len(self.order)

    def living(self) -> list[str]:
        return [h for h in self.order if not self.heroes[h]["dead"]]

    def mountain_to_change(self, m: str) -> Mountain:
        """Mountain ``m``'s tiles, to change in this state: a copy of its own put in place of
        the dict ``clone`` shares with the state the apply started from."""
        mt = self.mountains[m] = self.mountains[m].copy()
        return mt

    def prompt_for(self, seat: str) -> dict[str, Any] | None:
        for p in self.prompts:
            if p["seat"] == seat:
                return p
        return None


T = TypeVar("T")


def copy_json(x: T) -> T:
    """A deep copy of JSON-shaped data (much faster than copy.deepcopy).

    Also what the game hands out is made of: nothing returned by the engine may share a
    mutable part with a state, or a caller's edit would change the game."""
    # Exact types, and no call for the scalars that most values are: this runs in every apply.
    d: Any = x  # the checker cannot narrow a type variable by ``type(x) is dict``
    if type(d) is dict:
        out = dict(d)
        for k, v in d.items():
            if type(v) is dict or type(v) is list:
                out[k] = copy_json(v)
        return cast(T, out)
    if type(d) is list:
        return cast(T, [copy_json(v) if type(v) is dict or type(v) is list else v for v in d])
    return x


def _jsonish(x: Any) -> Any:
    """Tuples → lists, recursively (the canonical JSON form used for hashing)."""
    if isinstance(x, dict):
        return {k: _jsonish(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonish(v) for v in x]
    return x
