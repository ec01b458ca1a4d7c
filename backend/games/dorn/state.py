"""Dorn state: a JSON-safe dict (content 5.11), and ``Work``, the copy one action edits.

Its shape is the ``State`` TypedDict below (and the records it holds), so the type checker
knows every key.  Cells are integers ``y * 24 + x``; phases are the codes of
``rules/turns.py`` (``BLOOD_STEP``…``HERO_ATTACKS``).

``apply`` never edits its input: it builds a ``Work`` (a structural copy, far
cheaper than deepcopy), edits that, and returns the new dict with the events.
Nothing the game hands out (legal lists, views, events, the encoded state) shares a
list or dict with a state: it is built fresh or copied with ``copy_json``.
"""

from __future__ import annotations

import marshal
from typing import Any, Final, TypedDict, cast

from backend.engine.core import Event, Transition
from backend.engine.rng import Rng

from .board import BOARD
from .catalog import HEROES, MONSTERS

ZORKAL: Final = "zorkal"
KEEPER: Final = "keeper"  # the Dornkeeper's seat id; hero seats are "heroes_1"...


class ZorkalState(TypedDict):
    level: int
    life: int
    cell: int
    mv: int  # Move left this step
    atk: int  # attacks left this step


class HeroState(TypedDict):
    seat: str
    cell: int | None  # None once dead or while away (Astral Journey)
    alive: bool
    level: int
    life: int
    xp: int
    cards: list[str]  # item cards held (treasure ids)
    parries: int  # left this Keeper turn
    rot: bool  # Mummy Rot
    mv: list[int]  # Move left by class: [own Move, bonus class 2, bonus class 3]
    actions: int  # attacks left in the attack step
    bonus_actions: int  # extra attacks for the next attack step
    item_used: bool  # this hero turn
    moved: bool
    rubble: bool
    # Once-per-turn abilities already used (ruling 37): hero-turn ids reset at H0, the parry
    # abilities' (riposte, protecting hand) at K0.
    used: list[str]
    # B01 Astral Journey (content 4.2): off the board but alive; the cell it left, else None.
    away: int | None


class MonsterState(TypedDict):
    type: str
    cell: int
    dmg: int  # damage taken
    wait: bool  # a bog beast's first Keeper turn
    mv: int
    atk: int
    moved: bool
    bat: bool  # a vampire in bat form
    frozen: bool
    no_attack: bool


class ArtifactState(TypedDict):
    cell: int | None
    carrier: str | None  # hero id
    picked: bool  # its first pick-up's bonus summon has been given


class ObstacleState(TypedDict):
    cell: int
    life: int
    kind: str


class SummonAllowance(TypedDict):
    weak: int
    strong: int
    exclusive: bool  # Night: 2 weak OR 1 strong


class AttackState(TypedDict):
    by: str  # creature id
    kind: str  # monster type, or "zorkal"
    name: str
    target: str  # hero id
    parried: bool


class PromptState(TypedDict):
    """An open question (rules/prompts.py): public, replaced and never edited in place."""

    kind: str  # the PromptRule that lists and resolves its answers
    seat: str  # who answers
    text: str  # the question, in words
    data: dict[str, Any]  # the rule's own (JSON)


class SurrenderState(TypedDict):
    by: str
    voters: list[str]
    accepted: list[str]


class OutcomeState(TypedDict):
    result: str
    winners: list[str]
    reason: str


class State(TypedDict):
    rng: list[Any]  # [seed_hex, counter]: never shown to anyone
    options: dict[str, Any]  # normalized table options
    k: int  # Keeper turn number (Day when odd)
    phase: str  # the open step (rules/turns.py)
    blood: int  # pool 0-16
    fill: int  # Keeper turns in a row the chamber was full
    gate: bool
    bonus: int  # pending artifact strong summons
    zorkal: ZorkalState
    heroes: dict[str, HeroState]
    seats: dict[str, list[str]]  # hero seat -> its heroes, in table order
    monsters: dict[str, MonsterState]  # "m7" -> ...
    next_id: int
    tokens: list[int]  # treasure-token cells still on the board
    artifacts: dict[str, ArtifactState]
    obstacles: dict[str, ObstacleState]
    treasure_deck: list[str]
    treasure_discard: list[str]
    blessing_deck: list[str]
    blessings: dict[str, str | None]  # hero seat -> its Blessing in hand
    blessing_discard: list[str]
    ritual_deck: list[str]
    ritual_hand: list[str]
    ritual_discard: list[str]
    rituals_in_play: list[str]
    ritual_played: bool  # this Keeper turn
    bag: dict[str, int]  # strong tokens left per type
    seen_strong: list[str]  # strong types that have been on the board
    summon: SummonAllowance
    attacks: list[AttackState]  # K4 declarations
    done: list[str]  # hero seats that ended the open step
    # Commands per seat in the open step (and, keyed "take_back:<seat>", its take-backs of done).
    cmds: dict[str, int]
    prompt: PromptState | None  # the open question (rules/prompts.py)
    queue: list[PromptState]  # questions waiting behind it, in order
    undo: list[dict[str, Any]]  # moves that may be taken back (rules/undo.py), the last last
    surrender: SurrenderState | None  # a pending heroes' surrender proposal
    effects: dict[str, Any]  # active card and ability effects, by id
    outcome: OutcomeState | None


# ``monsters`` (30-45 of them late in a game) and ``artifacts`` (written a few times a game) are
# copied one level only: each monster's or artifact's dict is shared with the input state until
# ``Work.monster`` or ``Work.artifact`` copies it for writing (copy-on-write).  ``heroes`` and
# ``obstacles`` are copied two levels deep.


# The state's lists, by what they hold: plain values (ids, cells), or dicts each copied once.
# Named rather than found by type at every clone (tests/games/dorn/test_copies.py checks them
# against ``State``).
_PLAIN_LISTS: Final = (
    "rng",
    "tokens",
    "treasure_deck",
    "treasure_discard",
    "blessing_deck",
    "blessing_discard",
    "ritual_deck",
    "ritual_hand",
    "ritual_discard",
    "rituals_in_play",
    "seen_strong",
    "done",
)
_DICT_LISTS: Final = ("attacks", "queue", "undo")
# The state's dicts of plain values, copied one level.
_PLAIN_DICTS: Final = ("bag", "blessings", "summon", "cmds", "effects")


def clone(state: State) -> State:
    # Walked generically (by key, over every list): typed as a plain dict here.  ``copy()``
    # rather than ``dict()``, and empty containers skipped: this runs in every apply.  Each part
    # is read into a local typed as what it is (a dict, a list): compiled, a ``copy()`` or a
    # slice of a value typed ``Any`` is a method looked up by name and a slice object made.
    src = cast(dict[str, Any], state)
    s: dict[str, Any] = src.copy()
    monsters: dict[str, Any] = src["monsters"]
    s["monsters"] = monsters.copy()
    artifacts: dict[str, Any] = src["artifacts"]
    s["artifacts"] = artifacts.copy()
    heroes: dict[str, Any] = {}
    src_heroes: dict[str, dict[str, Any]] = src["heroes"]
    for hid, hero in src_heroes.items():
        h = heroes[hid] = hero.copy()
        cards: list[str] = h["cards"]
        h["cards"] = cards[:]
        mv: list[Any] = h["mv"]
        h["mv"] = mv[:]
        used: list[str] = h["used"]
        h["used"] = used[:]
    s["heroes"] = heroes
    obstacles: dict[str, dict[str, Any]] = src["obstacles"]
    s["obstacles"] = {k: v.copy() for k, v in obstacles.items()} if obstacles else {}
    zorkal: dict[str, Any] = src["zorkal"]
    s["zorkal"] = zorkal.copy()
    for key in _PLAIN_LISTS:
        values: list[Any] = src[key]
        s[key] = values[:]
    for key in _DICT_LISTS:
        records: list[dict[str, Any]] = src[key]
        s[key] = [v.copy() for v in records] if records else []
    for key in _PLAIN_DICTS:
        d: dict[str, Any] = src[key]
        s[key] = d.copy()
    # Prompt records are replaced, never edited (rules/prompts.py): shared with the input.
    if state["surrender"] is not None:
        s["surrender"] = {k: list(v) if isinstance(v, list) else v for k, v in state["surrender"].items()}
    return cast(State, s)


def copy_json(x: Any) -> Any:
    """A deep copy of JSON-shaped data: what the game hands out (events, the encoded state,
    static info) is made of it, so no caller's edit can reach a state or the catalogue."""
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


def copy_actions(actions: list[Any]) -> list[Any]:
    """``[copy_json(a) for a in actions]`` for a whole list at once (``actions.legal`` keeps one
    of each list it hands out): ``marshal`` copies plain JSON data (dicts, lists, strings,
    numbers, in order) in C, about twice as fast; anything it cannot copy falls back."""
    try:
        copied: list[Any] = marshal.loads(marshal.dumps(actions))
    except ValueError:
        return [copy_json(a) for a in actions]
    return copied


def placed(cell: int | None) -> int:
    """The cell of a hero the caller knows is on the board (only the dead have none)."""
    assert cell is not None
    return cell


def xy(i: int) -> list[int]:
    return [i % BOARD.width, i // BOARD.width]


def seat_words(s: State, seat: str, *, start: bool = False) -> str:
    """A seat in a sentence, by what it plays (seat ids are for machines): "the Keeper", "the
    player of Almanor and Choros" ("The …" to ``start`` a sentence)."""
    words = _seat_words(s, seat)
    return words[0].upper() + words[1:] if start else words


def _seat_words(s: State, seat: str) -> str:
    if seat == KEEPER:
        return "the Keeper"
    heroes = [str(HEROES[h]["name"]) for h in s["seats"].get(seat, [])]
    if not heroes:
        return "a hero player"
    names = heroes[0] if len(heroes) == 1 else ", ".join(heroes[:-1]) + " and " + heroes[-1]
    return f"the player of {names}"


def cell_name(i: int) -> str:
    x, y = i % BOARD.width, i // BOARD.width
    return f"({x},{y})"


# ``Work.blocked_flags``: one bit per cell.
FLAG_BYTES: Final = (BOARD.width * BOARD.height + 7) // 8


def is_blocked(flags: bytes, cell: int) -> int:
    """1 if ``cell`` holds a figure or an obstacle, by ``Work.blocked_flags``, else 0."""
    return flags[cell >> 3] >> (cell & 7) & 1


# [(state, its read-only Work)]: one pair, replaced in one assignment (safe under threads).
_LAST_READ: Final[list[tuple[State | None, Work | None]]] = [(None, None)]


def reader(state: State) -> Work:
    """A read-only ``Work`` over ``state``, shared by every query on the same state object.

    The server, the simulator and the tests ask ``to_act``, ``legal_actions``, ``validate`` and
    ``apply`` about one state in a row; they share its occupancy map and the like.  States are
    values (``apply`` returns a new one and nobody edits a state handed out), and the last one
    read is held here, so its identity cannot be reused by another object.
    """
    last_state, last_work = _LAST_READ[0]
    if last_state is state and last_work is not None:
        return last_work
    w = Work(state, copy=False)
    w.walks = {}
    _LAST_READ[0] = (state, w)
    return w


def hand_over(w: Work, before: Work) -> None:
    """After ``apply``: the Work that made a state has its occupancy right, so the next queries
    about that state start from it (every change of cell goes through ``moved``/``relocate``).
    ``before`` read the input state: its creature walks go on to the new state's reader, where
    each is reused while what it looked at holds (``steps.creature_blocks``): the Keeper's
    movement list is rebuilt incrementally along a game's states."""
    fresh = Work(w.s, copy=False)
    # ``w`` is done with: its caches pass on as they are (``adopt_caches`` would copy them).
    fresh._occ, fresh._blocked, fresh._obst = w._occ, w._blocked, w._obst
    fresh.walks = before.walks if before.walks is not None else {}
    _LAST_READ[0] = (w.s, fresh)


class Work:
    """One action's working copy: the state, its events, the RNG and an occupancy cache."""

    __slots__ = (
        "s",
        "events",
        "_rng",
        "_occ",
        "_obst",
        "_blocked",
        "memo",
        "_own",
        "_own_artifacts",
        "walks",
        "keeper_moves",
        "_flags",
    )

    def __init__(self, state: State, *, copy: bool = True) -> None:
        self.s: State = clone(state) if copy else state
        # Monsters this Work may write (see ``clone``); None: it owns the whole state.
        self._own: set[str] | None = set() if copy else None
        self._own_artifacts: set[str] | None = set() if copy else None  # likewise artifacts
        self.events: list[Event] = []
        self._rng: Rng | None = None
        self._occ: dict[int, str] | None = None
        self._obst: set[int] | None = None
        self._blocked: int | None = None
        self.memo: dict[Any, Any] = {}  # derived data of a read-only Work (see ``reader``)
        # A reader's creature walks by figure (shared along a game's states, ``hand_over``), and
        # the Keeper's movement list of its state (``steps.creature_blocks``): None elsewhere.
        self.walks: dict[str, Any] | None = None
        self.keeper_moves: Any = None
        # ``blocked_flags``: (the blocked bits, as bytes).
        self._flags: tuple[int, bytes] | None = None

    # -- randomness -------------------------------------------------------------------
    @property
    def rng(self) -> Rng:
        if self._rng is None:
            seed, counter = self.s["rng"]
            self._rng = Rng(seed, counter)
        return self._rng

    # -- events -----------------------------------------------------------------------
    def emit(self, kind: str, text: str, *, seen_by: frozenset[str] | None = None, **data: Any) -> None:
        # ``seen_by``: the seats the event is for (None: everyone).  Not ``to``, which is a data
        # field of its own (a give's taker): named ``to`` it was taken as the audience.
        # Copied: rules pass parts of the state, and events leave the engine.  The dict is new
        # here, so only the values that are containers are (``copy_json`` would copy it again).
        payload = {"text": text, **data}
        for key, value in data.items():
            if type(value) is dict or type(value) is list:
                payload[key] = copy_json(value)
        self.events.append(Event(kind, payload, seen_by))

    def finish(self) -> Transition[State]:
        if self._rng is not None:
            self.s["rng"] = [self.s["rng"][0], self._rng.counter]
        return Transition(self.s, tuple(self.events))

    # -- figures ----------------------------------------------------------------------
    def monster(self, mid: str) -> MonsterState:
        """The monster's dict, to write to: copied first if it is still the input state's.
        Every change to a monster goes through here (or ``all_monsters``); a reference read
        from ``s["monsters"]`` before is the input state's and must not be written."""
        monsters = self.s["monsters"]
        own = self._own
        if own is not None and mid not in own:
            monsters[mid] = monsters[mid].copy()
            own.add(mid)
        return monsters[mid]

    def artifact(self, aid: str) -> ArtifactState:
        """The artifact's dict, to write to (copy-on-write, as ``monster``): every change to an
        artifact goes through here."""
        artifacts = self.s["artifacts"]
        own = self._own_artifacts
        if own is not None and aid not in own:
            artifacts[aid] = artifacts[aid].copy()
            own.add(aid)
        return artifacts[aid]

    def all_monsters(self) -> dict[str, MonsterState]:
        """Every monster, to write to (for the steps that reset them all)."""
        if self._own is not None:
            for mid in self.s["monsters"]:
                self.monster(mid)
        return self.s["monsters"]

    def owns(self, mid: str) -> None:
        """A monster this Work created (its dict is new)."""
        if self._own is not None:
            self._own.add(mid)

    def occupancy(self) -> dict[int, str]:
        """Cell -> figure id for every figure on the board (both cells of a pad)."""
        occ = self._occ
        if occ is None:
            occ = {}
            footprint = BOARD.footprint
            for hid, h in self.s["heroes"].items():
                if h["cell"] is not None:
                    for c in footprint[h["cell"]]:
                        occ[c] = hid
            for mid, m in self.s["monsters"].items():
                for c in footprint[m["cell"]]:
                    occ[c] = mid
            z = self.s["zorkal"]
            if z["life"] > 0:
                for c in footprint[z["cell"]]:
                    occ[c] = ZORKAL
            self._occ = occ
        return occ

    def adopt_caches(self, other: Work) -> None:
        """Start from ``other``'s occupancy caches (``other`` reads the state this one copies)."""
        if other._occ is not None:
            self._occ = dict(other._occ)
            self._blocked = other._blocked
        self._obst = other._obst

    def relocate(self, fid: str, old: int, new: int) -> None:
        """Keep the caches right when a creature changes cell (cheaper than ``moved``).  Not for
        heroes: several may share an Argos cell, which the map records only once."""
        occ = self._occ
        if occ is None:
            return
        footprint = BOARD.footprint
        bits = self._blocked
        for c in footprint[old]:
            if occ.get(c) == fid:
                del occ[c]
                if bits is not None:
                    bits &= ~(1 << c)
        for c in footprint[new]:
            occ[c] = fid
            if bits is not None:
                bits |= 1 << c
        self._blocked = bits

    def hero_moved(self, hid: str, old: int, new: int) -> None:
        """Keep the caches right when a hero changes cell (cheaper than ``moved``, which has the
        next query rebuild them: a hero's move is most of the heroes' commands).  Each cell it
        left or entered gets the occupant a rebuild gives it: the last hero there in table order
        (several may share an Argos cell), as no creature or obstacle shares a hero's cell."""
        occ = self._occ
        if occ is None:
            return
        footprint = BOARD.footprint
        heroes = self.s["heroes"]
        bits = self._blocked
        for c in footprint[old] + footprint[new]:
            who = None
            for other, h in heroes.items():
                cell = h["cell"]
                if cell is not None and c in footprint[cell]:
                    who = other
            if who is None:
                occ.pop(c, None)
                if bits is not None:
                    bits &= ~(1 << c)
            else:
                occ[c] = who
                if bits is not None:
                    bits |= 1 << c
        self._blocked = bits

    def moved(self) -> None:
        """Forget the caches after a figure or obstacle appears, leaves or changes cell."""
        self._occ = None
        self._obst = None
        self._blocked = None

    def obstacle_cells(self) -> set[int]:
        if self._obst is None or len(self._obst) != len(self.s["obstacles"]):
            self._obst = {o["cell"] for o in self.s["obstacles"].values()}
        return self._obst

    def blocked_bits(self) -> int:
        """Every cell holding a figure or an obstacle, as one bit per cell (cheap to compare
        with the cells a memoised walk looked at, see ``rules/movement.py``)."""
        if self._blocked is None:
            bits = 0
            for c in self.occupancy():
                bits |= 1 << c
            for c in self.obstacle_cells():
                bits |= 1 << c
            self._blocked = bits
        return self._blocked

    def blocked_flags(self) -> bytes:
        """``blocked_bits`` as bytes, eight cells a byte (cell ``c``: bit ``c & 7`` of byte
        ``c >> 3``, see ``is_blocked``): the walks' inner loops read it by index, where two lookups
        (the obstacle cells, the occupancy map) hashed a cell, and a bit of the 480-bit integer
        itself would be a new integer.  Kept while the bits are the same."""
        bits = self.blocked_bits()
        made = self._flags
        if made is None or made[0] != bits:
            made = self._flags = (bits, bits.to_bytes(FLAG_BYTES, "little"))
        return made[1]

    def is_hero(self, fid: str) -> bool:
        return fid in self.s["heroes"]

    def is_creature(self, fid: str) -> bool:
        return fid == ZORKAL or fid in self.s["monsters"]

    def creature_cell(self, cid: str) -> int:
        return self.s["zorkal"]["cell"] if cid == ZORKAL else self.s["monsters"][cid]["cell"]

    def figure_cell(self, fid: str) -> int | None:
        if fid in self.s["heroes"]:
            return self.s["heroes"][fid]["cell"]
        return self.creature_cell(fid)

    def on_board_heroes(self) -> list[str]:
        return [hid for hid, h in self.s["heroes"].items() if h["cell"] is not None]

    def living_heroes(self) -> list[str]:
        return [hid for hid, h in self.s["heroes"].items() if h["alive"]]

    def seat_heroes_on_board(self, seat: str) -> list[str]:
        heroes = self.s["heroes"]
        return [hid for hid in self.s["seats"][seat] if heroes[hid]["cell"] is not None]

    def zorkal_active(self) -> bool:
        """Before the gate opens Zorkal cannot act or be affected (content 2.4)."""
        return bool(self.s["gate"]) and self.s["zorkal"]["life"] > 0

    def creature_name(self, cid: str) -> str:
        if cid == ZORKAL:
            return "Zorkal"
        return "the " + str(MONSTERS[self.s["monsters"][cid]["type"]]["name"])


def discard_blessing(w: Work, seat: str) -> str:
    """The seat's Blessing leaves its hand for the discard pile (played, or lost with its heroes):
    here, below both the cards and combat (a hero's death discards it), which use it."""
    card = w.s["blessings"][seat]
    assert card is not None
    w.s["blessings"][seat] = None
    w.s["blessing_discard"].append(card)
    return card
