"""Who may act, what they may do, and doing it.

Every action is a small dict with a ``"type"``; ``legal`` lists them in canonical form and
``check`` accepts exactly the listed ones (it only generates the part of the list the action
could be in, so validating stays cheap).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from backend.engine.core import Action, IllegalAction, Transition

from .board import BOARD
from .catalog import HEROES, MONSTERS, ZORKAL_STATS
from .rules import (
    blessings,
    clock,
    combat,
    footwork,
    heal,
    movement,
    parries,
    rituals,
    setup,
    spells,
    summoning,
    tactics,
    treasure,
    triggers,
    turns,
    undo,
    variants,
    weapons,
)
from .rules.prompts import PromptRule, close
from .rules.reach import heroes_adjacent
from .rules.turns import HERO_PHASES, KEEPER
from .state import (
    ZORKAL,
    MonsterState,
    State,
    Work,
    ZorkalState,
    cell_name,
    hand_over,
    placed,
    reader,
    seat_words,
    xy,
)

# What each action type is, for refusals that name the rule.
WHY: dict[str, str] = {
    "done": "You can only end a step you are taking part in.",
    "take_back_done": "A hero seat may take back its Done only in the heroes' step it ended, before every "
    "seat has sent Done.",
    "surrender": "Surrender is not possible now.",
    "propose_surrender": "A hero player with a living hero may propose surrender at any time, unless a "
    "proposal is already being voted on.",
    "surrender_vote": "Only hero seats asked about the surrender proposal can vote.",
    "level_zorkal": "Zorkal levels up in the Blood step, paying 7 Blood Drops for level 2 and 9 for level 3.",
    "play_ritual": "A Ritual is played in the Blood step, once per Keeper turn, from the Keeper's hand, "
    "if the Blood pool pays its cost.",
    "summon": "Weak monsters are summoned into their own zone, onto a free cell, 1 by Day or 2 by Night, "
    "at most 8 of each type on the board.",
    "summon_strong": "A strong monster is summoned at Night instead of the weak ones, or with an artifact "
    "bonus, onto a free Dark Temple cell, while the bag has tokens; from Zorkal's level 3 (pandemonium) "
    "the Keeper names a type still in the bag, and the Crypt and Graveyard may take it too.",
    "bat_form": "A vampire takes bat form in the movement step, before its first step.",
    "attack": "An attack needs an action (heroes) or an attack left (creatures) and a target in reach: "
    "adjacent for melee, exactly 2 in a straight line for a pike, range with a clear line of sight for "
    "shooting, a path around corners but not past monsters for magic.",
    "parry": "Each hero parries up to its parries per Keeper turn, choosing among the attacks on it.",
    "place_monster": "The hidden monster goes on a free cell next to the hero who found it.",
    "choose": "Answer the open question with one of its listed choices.",
    "time_up": "Real Day and Night: a seat's time runs out only on its own side's turn, while it owes "
    "input there.",
    "play_blessing": "A Blessing is played in the Blessings step by its owner, naming a living hero of that "
    "seat on the board.",
    "move": "Heroes move orthogonally up to their Move, never through walls, monsters or the closed Gate; "
    "they pass other heroes only on the Outside trail, and stop only on a free cell (Argos holds any number).",
    "pick_up": "An artifact is picked up during movement by a hero standing on it.",
    "drop": "A hero drops an artifact it carries during movement, onto its own cell.",
    "give": "Items and artifacts pass between adjacent heroes during movement.",
    "discard": "A hero discards an item card it holds during movement.",
    "undo_move": "Only the last move of one of your heroes can be taken back, in the movement step, while "
    "nothing else has happened since and the move revealed nothing (no treasure, no damage).",
    "use_item": "Each hero uses at most 1 item per hero turn, in the item's window, paying any life cost "
    "with at least 2 life.",
    "ability": "A hero ability is used by its hero at its level, in its step (spells in the attack step for "
    "an action, movement abilities in the movement step), once per turn where the ability says so, paying "
    "any life cost with at least 2 life, on a target and cell in its reach.",
}

CREATURE_MOVE_WHY = (
    "Creatures move orthogonally up to the Move they have left, in the movement step, never through other "
    "figures, walls or the closed Gate, and never onto the Outside trail or into Argos."
)


def _hero_seat_list(s: State) -> list[str]:
    return list(s["seats"])


def to_act(s: State) -> frozenset[str]:
    if s["outcome"] is not None:
        return frozenset()
    if s["surrender"] is not None:
        return frozenset(v for v in s["surrender"]["voters"] if v not in s["surrender"]["accepted"])
    if s["prompt"] is not None:
        return frozenset({s["prompt"]["seat"]})
    phase = s["phase"]
    if phase in turns.KEEPER_PHASES:
        return frozenset({KEEPER})
    w = reader(s)
    found = w.memo.get("to_act")
    if found is None:
        if phase == turns.PARRIES:
            seats = parries.parry_seats(w)
        else:
            seats = turns.hero_phase_seats(w) + [o for o in s["done"] if turns.may_take_back(w, o)]
        found = w.memo["to_act"] = frozenset(seats)
    return found


def _may_surrender(s: State) -> bool:
    return bool(s["options"].get("allow_surrender", True))


# ---------------------------------------------------------------------------------------
# The listed actions: one generator per step, looked up by phase (``STEPS``), after what every
# Keeper step or every hero step lists first.  A generator gets the read-only Work, the seat,
# ``only`` (one action type, when validating: the others are not built) and ``focus`` (one
# hero or creature, likewise).  Order matters: the steered simulator draws by position.

Step = Callable[[Work, str, "str | None", "str | None"], list[Action]]


def _wants(only: str | None, kind: str) -> bool:
    return only is None or only == kind


# Content 5.9: "The Keeper seat may surrender at any time"; "Any hero seat may propose
# surrender" (at any time too): listed for a seat that owes nothing as well (``anytime``).
ANYTIME = ("surrender", "propose_surrender")


def anytime(s: State, seat: str, only: str | None = None) -> list[Action]:
    """The giving-up action ``seat`` may send now, whether or not it is on turn."""
    if s["outcome"] is not None or s["surrender"] is not None or not _may_surrender(s):
        return []
    if seat == KEEPER:
        kind = "surrender"
    elif seat in s["seats"] and any(s["heroes"][h]["alive"] for h in s["seats"][seat]):
        kind = "propose_surrender"
    else:
        return []
    return [{"type": kind}] if _wants(only, kind) else []


def legal(s: State, seat: str, only: str | None = None, hero: str | None = None) -> list[Action]:
    """The listed actions of ``seat`` (restricted to one type / hero when validating)."""
    if seat not in to_act(s):
        return anytime(s, seat, only)
    out = _on_turn(s, seat, only, hero)
    give_up = anytime(s, seat, only)
    if give_up and give_up[0] not in out:
        out += give_up
    return out


def _on_turn(s: State, seat: str, only: str | None, hero: str | None) -> list[Action]:
    w = reader(s)
    if s["surrender"] is not None:
        return _surrender_votes(only)
    if s["prompt"] is not None:
        return _answers(w, seat, only)
    phase = s["phase"]
    out: list[Action] = []
    if seat == KEEPER:
        # Every Keeper step may be ended or surrendered.
        if _wants(only, "done"):
            out.append({"type": "done"})
        if _wants(only, "surrender") and _may_surrender(s):
            out.append({"type": "surrender"})
        if _wants(only, "time_up"):
            out += clock.listed(s, seat)
    elif phase in HERO_PHASES:
        if seat in s["done"]:
            # Content 5.8: this seat has sent *done*; all it may do is take it back.
            return [{"type": "take_back_done"}] if _wants(only, "take_back_done") else []
        if _wants(only, "done"):
            out.append({"type": "done"})
        if _wants(only, "propose_surrender") and _may_surrender(s):
            out.append({"type": "propose_surrender"})
        if _wants(only, "time_up"):
            out += clock.listed(s, seat)
    out += STEPS[phase](w, seat, only, hero)
    return out


def _surrender_votes(only: str | None) -> list[Action]:
    if not _wants(only, "surrender_vote"):
        return []
    return [{"type": "surrender_vote", "accept": True}, {"type": "surrender_vote", "accept": False}]


# Every question an effect may ask (rules/prompts.py), by kind.
PROMPTS: dict[str, PromptRule] = {
    **treasure.PROMPTS,
    **rituals.PROMPTS,
    **blessings.PROMPTS,
    **setup.PROMPTS,
    **weapons.PROMPTS,
    **spells.PROMPTS,
    **parries.PROMPTS,
    **heal.PROMPTS,
}


def _answers(w: Work, seat: str, only: str | None) -> list[Action]:
    """The open question's answers; the Keeper may surrender instead (content 5.9)."""
    prompt = w.s["prompt"]
    assert prompt is not None
    out = [a for a in PROMPTS[prompt["kind"]].answers(w, prompt) if _wants(only, a["type"])]
    if seat == KEEPER and _wants(only, "surrender") and _may_surrender(w.s):
        out.append({"type": "surrender"})
    if _wants(only, "time_up"):
        out += clock.listed(w.s, seat)  # a prompt on the seat's own turn (content 6.5)
    return out


def _blood_step(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    out: list[Action] = []
    if _wants(only, "level_zorkal") and _zorkal_level_cost(w.s) is not None:
        out.append({"type": "level_zorkal"})
    if _wants(only, "play_ritual"):
        out += rituals.ritual_actions(w)
    return out


def _summoning(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    return summoning.summon_actions(w, _wants(only, "summon"), _wants(only, "summon_strong"))


def _creature_moves(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    s = w.s
    bats, moves = _wants(only, "bat_form"), _wants(only, "move")
    all_monsters = s["monsters"]
    if focus is None:
        monsters = all_monsters
    else:
        monsters = {focus: all_monsters[focus]} if focus in all_monsters else {}
    blocked, gate = w.blocked_bits(), bool(s["gate"])
    out: list[Action] = []
    for mid, m in monsters.items():
        if bats and not m["moved"] and turns.can_bat(m):
            out.append({"type": "bat_form", "figure": mid})
        mv = m["mv"]
        if moves and mv > 0:
            # ``_creature_paths``'s reuse test, inlined: this loop is the hot spot.
            f = _WALKS.get(mid)
            if (
                f is not None
                and f.cell == m["cell"]
                and f.budget == mv
                and f.gate == gate
                and blocked & f.looked == f.snapshot
            ):
                out += [{"type": "move", "figure": mid, "to": [x, y]} for x, y in f.dests]
            else:
                out += _creature_paths(w, mid, m["cell"], mv)
    z = s["zorkal"]
    if moves and (focus is None or focus == ZORKAL) and w.zorkal_active() and z["mv"] > 0:
        out += _creature_paths(w, ZORKAL, z["cell"], z["mv"])
    return out


def _declarations(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    if not _wants(only, "attack"):
        return []
    return [{"type": "attack", "figure": c, "target": h} for c, h in combat.attack_targets(w, focus)]


def _parries(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    out: list[Action] = []
    if _wants(only, "done"):
        out.append({"type": "done"})
    if _wants(only, "parry"):
        for indices in parries.parry_choices(w, seat).values():
            out += [{"type": "parry", "attack": i} for i in indices]
    return out


def _mine(w: Work, seat: str, focus: str | None) -> list[str]:
    """The seat's heroes on the board (only ``focus`` when validating one hero's action)."""
    return [h for h in w.seat_heroes_on_board(seat) if focus is None or h == focus]


def _blessings(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    if not _wants(only, "play_blessing"):
        return []
    return blessings.blessing_actions(w, seat, _mine(w, seat, focus))


def _hero_moves(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    s = w.s
    out: list[Action] = []
    for hid in _mine(w, seat, focus):
        h = s["heroes"][hid]
        if _wants(only, "undo_move"):
            out += [a for a in undo.listed(s, seat) if a["hero"] == hid]
        if _wants(only, "move"):
            out += [{"type": "move", "hero": hid, "to": xy(c)} for c in sorted(_destinations(w, hid))]
        if _wants(only, "pick_up"):
            out += [{"type": "pick_up", "hero": hid, "artifact": a} for a in treasure.artifacts_here(w, hid)]
        carried = treasure.carried(w, hid)
        if _wants(only, "drop"):
            out += [{"type": "drop", "hero": hid, "artifact": a} for a in carried]
        if _wants(only, "give") and (carried or h["cards"]):
            for other in w.on_board_heroes():
                if other != hid and heroes_adjacent(placed(h["cell"]), placed(s["heroes"][other]["cell"])):
                    out += [{"type": "give", "hero": hid, "to": other, "artifact": a} for a in carried]
                    out += [
                        {"type": "give", "hero": hid, "to": other, "card": c} for c in sorted(set(h["cards"]))
                    ]
        if _wants(only, "discard"):
            out += [{"type": "discard", "hero": hid, "card": c} for c in sorted(set(h["cards"]))]
        if _wants(only, "use_item"):
            out += treasure.item_uses(w, hid)
        if _wants(only, "ability"):
            out += footwork.move_actions(w, hid)
    return out


def _hero_attacks(w: Work, seat: str, only: str | None, focus: str | None) -> list[Action]:
    out: list[Action] = []
    for hid in _mine(w, seat, focus):
        if _wants(only, "attack"):
            out += weapons.attack_actions(w, hid)
        if _wants(only, "ability"):
            out += spells.spell_actions(w, hid)
        if _wants(only, "use_item"):
            out += treasure.item_uses(w, hid)
    return out


STEPS: dict[str, Step] = {
    turns.BLOOD_STEP: _blood_step,
    turns.SUMMONING: _summoning,
    turns.MONSTER_MOVES: _creature_moves,
    turns.DECLARATIONS: _declarations,
    turns.PARRIES: _parries,
    turns.BLESSINGS: _blessings,
    turns.HERO_MOVES: _hero_moves,
    turns.HERO_ATTACKS: _hero_attacks,
}


def _destinations(w: Work, hid: str) -> dict[int, int]:
    """The hero's destinations (cell -> steps), kept with the state's read-only Work: validating
    several moves of one hero walks once."""
    dests: dict[int, int] | None = w.memo.get(("dest", hid))
    if dests is None:
        dests = w.memo[("dest", hid)] = movement.hero_destinations(w, hid)
    return dests


def _creature_paths(w: Work, cid: str, cell: int, budget: int) -> list[Action]:
    """The creature's move actions.  The Keeper's movement list is the longest the game has and
    is rebuilt after every move, while most creatures' walks do not change: each creature's last
    destinations are kept with what its walk depended on (``creature_walk``) and reused while
    that holds.  The actions themselves are new at every call: they leave the engine, and a
    caller's edit must not reach the next list."""
    gate = bool(w.s["gate"])
    found = _WALKS.get(cid)
    if (
        found is not None
        and found.cell == cell
        and found.budget == budget
        and found.gate == gate
        and w.blocked_bits() & found.looked == found.snapshot
    ):
        cells = found.dests
    else:
        looked, snapshot, dests = movement.creature_walk(w, cid, cell, budget)
        width = BOARD.width
        cells = tuple((c % width, c // width) for c in sorted(dests))
        if len(_WALKS) > 4000:
            _WALKS.clear()
        _WALKS[cid] = _Walk(cell, budget, gate, looked, snapshot, cells)
    return [{"type": "move", "figure": cid, "to": [x, y]} for x, y in cells]


class _Walk(NamedTuple):
    """A creature's last walk and what it depended on."""

    cell: int
    budget: int
    gate: bool
    looked: int  # the cells the walk looked at, one bit each
    snapshot: int  # their blocked bits then
    dests: tuple[tuple[int, int], ...]  # (x, y)


_WALKS: dict[str, _Walk] = {}


def _zorkal_level_cost(s: State) -> int | None:
    """Zorkal's levels: 7 Blood Drops for level 2, 9 more for level 3 (RB; content 2.4)."""
    level = s["zorkal"]["level"]
    if level >= len(ZORKAL_STATS["life"]):
        return None
    cost = variants.zorkal_level_cost(s["options"], level)  # 8 and 10 with Four Heroes (6.6)
    return cost if s["blood"] >= cost else None


def check(s: State, seat: str, action: Any) -> Action:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "An action must be an object with a 'type'.")
    kind = action["type"]
    if kind not in WHY:
        raise IllegalAction("unknown_action", f"Dorn has no action {kind!r}.")
    if s["outcome"] is not None:
        raise IllegalAction("game_over", "The game is over.")
    if seat not in to_act(s) and not (kind in ANYTIME and anytime(s, seat, kind)):
        raise IllegalAction("not_your_turn", f"It is not your turn to act: {_waiting_for(s)}.")
    to = action.get("to")  # a cell, except in ``give`` (a hero)
    if (
        to is not None
        and kind != "give"
        and not (
            type(to) is list
            and len(to) == 2
            and type(to[0]) is int
            and type(to[1]) is int
            and BOARD.in_bounds(*to)
        )
    ):
        raise IllegalAction("malformed_action", "'to' must be a cell [x, y] on the board.")
    if kind == "move":
        if not _listed_move(s, seat, action):
            raise IllegalAction("illegal_move", CREATURE_MOVE_WHY if seat == KEEPER else WHY["move"])
        return action
    focus = action.get("hero") if isinstance(action.get("hero"), str) else action.get("figure")
    focus = focus if isinstance(focus, str) else None
    # The part of the list the action could be in, kept with the state's read-only Work: the
    # server and the tests validate several actions of one kind against the same state.
    memo = reader(s).memo
    key = ("legal", seat, kind, focus)
    listed = memo.get(key)
    if listed is None:
        listed = memo[key] = legal(s, seat, only=kind, hero=focus)
    if action not in listed:
        raise IllegalAction(f"illegal_{kind}", WHY[kind])
    return action


def _listed_move(s: State, seat: str, action: Action) -> bool:
    """Whether ``legal`` lists this move, without building the list (moves are most of a game's
    actions and their lists the longest): the same shape, and a destination of the same walk."""
    if s["prompt"] is not None or s["surrender"] is not None or action["to"] is None:
        return False
    cell = BOARD.idx(*action["to"])
    w = reader(s)
    if seat == KEEPER:
        cid = action.get("figure")
        if (
            s["phase"] != turns.MONSTER_MOVES
            or action.keys() != {"type", "figure", "to"}
            or not isinstance(cid, str)
        ):
            return False
        fig: ZorkalState | MonsterState | None
        if cid == ZORKAL:
            fig = s["zorkal"] if w.zorkal_active() else None
        else:
            fig = s["monsters"].get(cid)
        if fig is None or fig["mv"] <= 0:
            return False
        return cell in movement.creature_destinations(w, cid, fig["cell"], fig["mv"])
    hid = action.get("hero")
    if s["phase"] != turns.HERO_MOVES or action.keys() != {"type", "hero", "to"} or seat in s["done"]:
        return False
    if not isinstance(hid, str) or hid not in s["seats"][seat] or s["heroes"][hid]["cell"] is None:
        return False
    return cell in _destinations(w, hid)


def _waiting_for(s: State) -> str:
    if s["surrender"] is not None:
        return "a surrender proposal is being voted on"
    if s["prompt"] is not None:
        return "waiting for an answer: " + s["prompt"]["text"]
    return "now is " + turns.PHASE_NAMES[s["phase"]]


def apply(s: State, seat: str, action: Any) -> Transition[State]:
    check(s, seat, action)
    w = Work(s)
    before = reader(s)
    w.adopt_caches(before)  # same figures, same cells: the occupancy map carries over
    w.memo = dict(before.memo)  # what validating found (a hero's destinations), read first thing
    _perform(w, seat, action)
    if seat == KEEPER or action["type"] not in ("move", "undo_move"):
        undo.forget(w.s)
    limit = w.s["options"].get("phase_action_limit")
    if limit is not None and w.s["outcome"] is None and action["type"] != "done":
        _count_command(w, seat, limit)
    turns.settle(w)
    transition = w.finish()
    hand_over(w)
    return transition


def _count_command(w: Work, seat: str, limit: int) -> None:
    """Content 5.12 phase_action_limit: past the limit a hero seat counts as done and the Keeper's
    step takes its default (it ends)."""
    s = w.s
    if s["prompt"] is not None or s["surrender"] is not None:
        return
    phase = s["phase"]
    s["cmds"][seat] = s["cmds"].get(seat, 0) + 1
    if s["cmds"][seat] < limit:
        return
    if seat == KEEPER and phase in turns.KEEPER_PHASES:
        turns.end_keeper_phase(w)
    elif seat != KEEPER and phase in turns.HERO_PHASES and seat not in s["done"]:
        s["done"].append(seat)
    elif seat != KEEPER and phase == turns.PARRIES and seat not in s["done"]:
        parries.finish_parries(w, seat)


def _perform(w: Work, seat: str, a: Action) -> None:
    hid = a.get("hero") if seat != KEEPER else None
    h = w.s["heroes"].get(hid) if isinstance(hid, str) else None
    before = h["actions"] if h is not None else 0
    HANDLERS[a["type"]](w, seat, a)  # check() refuses every other type before we get here
    if h is not None and h["actions"] < before:
        triggers.acted(h)  # the hero spent an action this hero turn (cho.earth)


def _surrender(w: Work, seat: str, a: Action) -> None:
    w.emit("surrender", "The Keeper surrenders.", seat=seat)
    combat.finish(w, "heroes_win", "surrender")


def _propose_surrender(w: Work, seat: str, a: Action) -> None:
    s = w.s
    voters = [o for o in s["seats"] if o != seat and any(s["heroes"][h]["alive"] for h in s["seats"][o])]
    w.emit("surrender_proposed", f"{seat_words(s, seat, start=True)} proposes that the heroes surrender.", seat=seat)
    if not voters:
        combat.finish(w, "keeper_wins", "surrender")
    else:
        s["surrender"] = {"by": seat, "voters": voters, "accepted": []}


def _surrender_vote(w: Work, seat: str, a: Action) -> None:
    s = w.s
    sur = s["surrender"]
    assert sur is not None
    if a["accept"]:
        sur["accepted"].append(seat)
        w.emit("surrender_vote", f"{seat_words(s, seat, start=True)} accepts the surrender.", seat=seat, accept=True)
        if set(sur["accepted"]) >= set(sur["voters"]):
            s["surrender"] = None
            combat.finish(w, "keeper_wins", "surrender")
    else:
        s["surrender"] = None
        w.emit("surrender_vote", f"{seat_words(s, seat, start=True)} refuses: the heroes fight on.", seat=seat, accept=False)


def _take_back_done(w: Work, seat: str, a: Action) -> None:
    s = w.s
    s["done"].remove(seat)
    key = turns.TAKE_BACKS + seat
    s["cmds"][key] = s["cmds"].get(key, 0) + 1
    w.emit(
        "seat_resumes",
        f"{seat_words(s, seat, start=True)} takes back Done: {turns.PHASE_NAMES[s['phase']]} goes on.",
        seat=seat,
        phase=s["phase"],
    )


def _level_zorkal(w: Work, seat: str, a: Action) -> None:
    s = w.s
    z = s["zorkal"]
    cost = _zorkal_level_cost(s)
    assert cost is not None
    s["blood"] -= cost
    z["level"] += 1
    z["life"] += 1  # max life and current life each +1 (content 2.4)
    w.emit(
        "zorkal_level",
        f"The Keeper pays {cost} Blood Drops: Zorkal reaches level {z['level']}.",
        level=z["level"],
        cost=cost,
    )


def _play_ritual(w: Work, seat: str, a: Action) -> None:
    rituals.play_ritual(w, a)


def _summon(w: Work, seat: str, a: Action) -> None:
    summoning.summon(w, a["monster"], BOARD.idx(*a["to"]))


def _summon_strong(w: Work, seat: str, a: Action) -> None:
    summoning.summon(w, None, BOARD.idx(*a["to"]), a.get("monster"))  # a type: pandemonium


def _move(w: Work, seat: str, a: Action) -> None:
    if seat == KEEPER:
        _creature_move(w, a["figure"], BOARD.idx(*a["to"]))
    else:
        _hero_move(w, a["hero"], BOARD.idx(*a["to"]))


def _bat_form(w: Work, seat: str, a: Action) -> None:
    m = w.monster(a["figure"])
    m["bat"] = True
    m["mv"] = MONSTERS[m["type"]]["bat_move"]
    w.emit(
        "bat_form",
        f"The vampire at {cell_name(m['cell'])} takes bat form (Move 12, no attack).",
        monster=a["figure"],
    )


def _attack(w: Work, seat: str, a: Action) -> None:
    if seat == KEEPER:
        _declare(w, a["figure"], a["target"])
    else:
        weapons.attack(w, a)
        combat.check_deaths(w)


def _parry(w: Work, seat: str, a: Action) -> None:
    parries.parry(w, seat, a["attack"])


def _answer(w: Work, seat: str, a: Action) -> None:
    """An answer to the open question (``check`` found it listed): close it, then resolve."""
    prompt = close(w)
    PROMPTS[prompt["kind"]].resolve(w, seat, prompt, a)


def _time_up(w: Work, seat: str, a: Action) -> None:
    """Real Day and Night (content 6.5): the seat's own pending prompts take their defaults, then
    its turn ends (``rules/clock.py``)."""
    while w.s["prompt"] is not None and w.s["prompt"]["seat"] == seat:
        prompt = w.s["prompt"]
        rule = PROMPTS[prompt["kind"]]
        answer = rule.default(w, prompt) if rule.default is not None else rule.answers(w, prompt)[0]
        _answer(w, seat, answer)
    if w.s["outcome"] is None:
        clock.time_up(w, seat)


def _ability(w: Work, seat: str, a: Action) -> None:
    spells.perform(w, a)


def _play_blessing(w: Work, seat: str, a: Action) -> None:
    blessings.play_blessing(w, seat, a)


def _pick_up(w: Work, seat: str, a: Action) -> None:
    treasure.pick_up(w, a["hero"], a["artifact"])


def _drop(w: Work, seat: str, a: Action) -> None:
    treasure.drop(w, a["hero"], a["artifact"])


def _discard(w: Work, seat: str, a: Action) -> None:
    s = w.s
    s["heroes"][a["hero"]]["cards"].remove(a["card"])
    s["treasure_discard"].append(a["card"])
    w.emit(
        "card_discarded",
        f"{HEROES[a['hero']]['name']} discards an item card.",
        hero=a["hero"],
        card=a["card"],
    )


def _use_item(w: Work, seat: str, a: Action) -> None:
    treasure.use_item(w, a)


def _done(w: Work, seat: str, a: Action) -> None:
    s = w.s
    phase = s["phase"]
    if seat == KEEPER:
        turns.end_keeper_phase(w)
    elif phase == turns.PARRIES:
        parries.finish_parries(w, seat)
    else:
        s["done"].append(seat)
        w.emit("seat_done", f"{seat_words(s, seat, start=True)} has finished {turns.PHASE_NAMES[phase]}.", seat=seat, phase=phase)


def _creature_move(w: Work, cid: str, to: int) -> None:
    s = w.s
    fig: ZorkalState | MonsterState = s["zorkal"] if cid == ZORKAL else w.monster(cid)
    start = fig["cell"]
    cost = movement.creature_destinations(w, cid, start, fig["mv"])[to]
    w.relocate(cid, start, to)
    fig["cell"] = to
    fig["mv"] -= cost
    if cid != ZORKAL:
        w.monster(cid)["moved"] = True  # the dict ``fig`` is (this Work owns it now)
    w.emit(
        "creature_move",
        f"{w.creature_name(cid).capitalize()} moves to {cell_name(to)}.",
        figure=cid,
        cell=xy(to),
        steps=cost,
    )
    tactics.after_move(w, cid, start, to)  # Tactics and Flight: flee, stop (content 6.4)


def _declare(w: Work, cid: str, hid: str) -> None:
    s = w.s
    if cid == ZORKAL:
        s["zorkal"]["atk"] -= 1
        kind = ZORKAL
    else:
        m = w.monster(cid)
        m["atk"] -= 1
        kind = m["type"]
    name = w.creature_name(cid)
    s["attacks"].append({"by": cid, "kind": kind, "name": name, "target": hid, "parried": False})
    w.emit("attack_declared", f"{name.capitalize()} attacks {HEROES[hid]['name']}.", figure=cid, target=hid)


def _hero_move(w: Work, hid: str, to: int) -> None:
    s = w.s
    h = s["heroes"][hid]
    before, first_event = undo.before_move(w, hid), len(w.events)
    cost = _destinations(w, hid)[to]
    movement.spend(h, cost, movement.first_class(s, hid))  # Icy Prison: the Blessing class only
    start = placed(h["cell"])
    h["cell"] = to
    h["moved"] = True
    w.moved()
    w.emit("hero_move", f"{HEROES[hid]['name']} moves to {cell_name(to)}.", hero=hid, cell=xy(to), steps=cost)
    tactics.after_move(w, hid, start, to)  # Tactics and Flight: flee, stop (content 6.4)
    rituals.thorny_portals(w, hid, to, by_blessing=False)  # R10: a step onto a pad
    if h["alive"]:
        treasure.enter_cell(w, hid, to)
    undo.record(w, h["seat"], hid, before, first_event)


def _give(w: Work, seat: str, a: Action) -> None:
    s = w.s
    giver, taker = a["hero"], a["to"]
    if "artifact" in a:
        s["artifacts"][a["artifact"]]["carrier"] = taker
        w.emit(
            "artifact_passed",
            f"{HEROES[giver]['name']} hands an artifact to {HEROES[taker]['name']}.",
            hero=giver,
            to=taker,
            artifact=a["artifact"],
        )
    else:
        s["heroes"][giver]["cards"].remove(a["card"])
        s["heroes"][taker]["cards"].append(a["card"])
        w.emit(
            "card_passed",
            f"{HEROES[giver]['name']} hands an item card to {HEROES[taker]['name']}.",
            hero=giver,
            to=taker,
        )


Handler = Callable[[Work, str, Action], None]

# One handler per action type (``check`` has refused any other type and any unlisted action).
HANDLERS: dict[str, Handler] = {
    "done": _done,
    "take_back_done": _take_back_done,
    "surrender": _surrender,
    "propose_surrender": _propose_surrender,
    "surrender_vote": _surrender_vote,
    "level_zorkal": _level_zorkal,
    "play_ritual": _play_ritual,
    "summon": _summon,
    "summon_strong": _summon_strong,
    "bat_form": _bat_form,
    "attack": _attack,
    "parry": _parry,
    "place_monster": _answer,
    "choose": _answer,
    "time_up": _time_up,
    "play_blessing": _play_blessing,
    "move": _move,
    "pick_up": _pick_up,
    "drop": _drop,
    "give": _give,
    "discard": _discard,
    "use_item": _use_item,
    "undo_move": undo.take_back,
    "ability": _ability,
}
assert HANDLERS.keys() == WHY.keys()  # every action type has its refusal and its handler


def default_action(s: State, seat: str) -> Action | None:
    """The catalogue default (content 5.10): hidden monster on the first legal cell in reading
    order, surrender votes declined, parries by the default order, every step ended."""
    if seat not in to_act(s):
        return None
    if s["surrender"] is not None:
        return {"type": "surrender_vote", "accept": False}
    prompt = s["prompt"]
    if prompt is not None:
        rule = PROMPTS[prompt["kind"]]
        w = reader(s)
        return rule.default(w, prompt) if rule.default is not None else rule.answers(w, prompt)[0]
    if seat in s["done"]:
        return None  # it may take its Done back, but owes nothing
    return {"type": "done"}
