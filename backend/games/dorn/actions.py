"""Who may act, what they may do, and doing it: the contract's side of the actions.

Every action is a small dict with a ``"type"``; ``legal`` lists them in canonical form and
``check`` accepts exactly the listed ones (it only generates the part of the list the action
could be in, so validating stays cheap).  What each step lists is in ``steps.py`` (``STEPS``,
and every question's answers, ``PROMPTS``); what each action does is in ``handlers.py``
(``HANDLERS``); the refusal of each type (``WHY``) is here.
"""

from __future__ import annotations

from typing import Any, Final

from backend.engine.core import Action, IllegalAction, Transition
from backend.engine.core import listed as is_listed

from .board import BOARD
from .handlers import HANDLERS
from .rules import (
    clock,
    parries,
    triggers,
    turns,
    undo,
)
from .rules.turns import HERO_PHASES, KEEPER
from .state import (
    ZORKAL,
    MonsterState,
    State,
    Work,
    ZorkalState,
    copy_actions,
    hand_over,
    reader,
)
from .steps import PROMPTS, STEPS, Block, creature_blocks, creature_costs, destinations, wants

# What each action type is, for refusals that name the rule.
WHY: Final[dict[str, str]] = {
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

CREATURE_MOVE_WHY: Final = (
    "Creatures move orthogonally up to the Move they have left, in the movement step, never through other "
    "figures, walls or the closed Gate, and never onto the Outside trail or into Argos."
)


def _hero_seat_list(s: State) -> list[str]:
    return list(s["seats"])


KEEPER_ONLY: Final = frozenset({KEEPER})


def to_act(s: State) -> frozenset[str]:
    if s["outcome"] is not None:
        return frozenset()
    if s["surrender"] is not None:
        return frozenset(v for v in s["surrender"]["voters"] if v not in s["surrender"]["accepted"])
    if s["prompt"] is not None:
        return frozenset({s["prompt"]["seat"]})
    phase = s["phase"]
    if phase in turns.KEEPER_PHASES:
        return KEEPER_ONLY
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


# Content 5.9: "The Keeper seat may surrender at any time"; "Any hero seat may propose
# surrender" (at any time too): listed for a seat that owes nothing as well (``anytime``).
ANYTIME: Final = ("surrender", "propose_surrender")


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
    return [{"type": kind}] if wants(only, kind) else []


def legal(s: State, seat: str, only: str | None = None, hero: str | None = None) -> list[Action]:
    """The listed actions of ``seat`` (restricted to one type / hero when validating)."""
    if seat not in to_act(s):
        return anytime(s, seat, only)
    out = _on_turn(s, seat, only, hero)
    give_up = anytime(s, seat, only)
    if give_up and give_up[0] not in out:
        out += give_up
    if only is None and hero is None:
        w = reader(s)
        if seat == KEEPER and s["phase"] == turns.MONSTER_MOVES:
            # The list handed out, beside the blocks it was made of: the simulator steers among
            # the creatures' moves by block when it is handed this very list (``sim.py``).
            w.memo["keeper_list"] = (out, len(out))
        elif s["phase"] != turns.HERO_MOVES or s["prompt"] is not None:
            # The actions listed, but moves (``_listed_move`` checks those against their walks),
            # kept for ``check``: a listed action is usually sent next.  Copied, as the list
            # leaves the engine and its holder may edit it.  Not the movement steps' lists (the
            # Keeper's, the heroes'): moves but for a few actions that are cheap to list again
            # and cost more to copy at every list than to check once.
            w.memo[("listed", seat)] = copy_actions([a for a in out if a["type"] != "move"])
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
        out = _keeper_head(s, only)
    elif phase in HERO_PHASES:
        if seat in s["done"]:
            # Content 5.8: this seat has sent *done*; all it may do is take it back.
            return [{"type": "take_back_done"}] if wants(only, "take_back_done") else []
        out = _head(s, seat, only, "propose_surrender")
    out += STEPS[phase](w, seat, only, hero)
    return out


def _keeper_head(s: State, only: str | None) -> list[Action]:
    """What every Keeper step lists first: it may be ended or surrendered."""
    return _head(s, KEEPER, only, "surrender")


def _head(s: State, seat: str, only: str | None, give_up: str) -> list[Action]:
    """What a seat's step lists first: it may be ended, given up (``give_up``: the Keeper
    surrenders, a hero proposes surrender to the others) or its clock's run-out claimed."""
    out: list[Action] = []
    if wants(only, "done"):
        out.append({"type": "done"})
    if wants(only, give_up) and _may_surrender(s):
        out.append({"type": give_up})
    if wants(only, "time_up"):
        out += clock.listed(s, seat)
    return out


def keeper_movement_list(s: State) -> tuple[list[Action], list[Block], list[Action]] | None:
    """``legal(s, KEEPER)`` in the Keeper's movement step with no question or vote open, in three
    parts: its head, the creatures' blocks (``steps.creature_blocks``: each creature's bat form,
    then its moves) and its tail; None in any other state.  For the simulator, which draws from
    the list by position without building its ≈ 230 move dicts (``sim.pick``)."""
    if (
        s["outcome"] is not None
        or s["surrender"] is not None
        or s["prompt"] is not None
        or s["phase"] != turns.MONSTER_MOVES
    ):
        return None
    head = _keeper_head(s, None)
    give_up = anytime(s, KEEPER)  # as ``legal`` appends it: listed once
    return head, creature_blocks(reader(s)), [] if not give_up or give_up[0] in head else give_up


def _surrender_votes(only: str | None) -> list[Action]:
    if not wants(only, "surrender_vote"):
        return []
    return [{"type": "surrender_vote", "accept": True}, {"type": "surrender_vote", "accept": False}]


# Every question an effect may ask (rules/prompts.py), by kind.


def _answers(w: Work, seat: str, only: str | None) -> list[Action]:
    """The open question's answers; the Keeper may surrender instead (content 5.9)."""
    prompt = w.s["prompt"]
    assert prompt is not None
    out = [a for a in PROMPTS[prompt["kind"]].answers(w, prompt) if wants(only, a["type"])]
    if seat == KEEPER and wants(only, "surrender") and _may_surrender(w.s):
        out.append({"type": "surrender"})
    if wants(only, "time_up"):
        out += clock.listed(w.s, seat)  # a prompt on the seat's own turn (content 6.5)
    return out


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
    memo = reader(s).memo
    # Listed (legal lists it, so it is valid): found without building the list's part again.
    full = memo.get(("listed", seat))
    if full is not None and is_listed(action, full):
        return action
    # The part of the list the action could be in, kept with the state's read-only Work: the
    # server and the tests validate several actions of one kind against the same state.
    key = ("legal", seat, kind, focus)
    listed = memo.get(key)
    if listed is None:
        listed = memo[key] = legal(s, seat, only=kind, hero=focus)
    if not is_listed(action, listed):
        raise IllegalAction(f"illegal_{kind}", WHY[kind])
    return action


def _listed_move(s: State, seat: str, action: Action) -> bool:
    """Whether ``legal`` lists this move, without building the list (moves are most of a game's
    actions and their lists the longest): the same shape, and a destination of the same walk."""
    if s["prompt"] is not None or s["surrender"] is not None or action.get("to") is None:
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
        return cell in creature_costs(w, cid, fig["cell"], fig["mv"])
    hid = action.get("hero")
    if s["phase"] != turns.HERO_MOVES or action.keys() != {"type", "hero", "to"} or seat in s["done"]:
        return False
    if not isinstance(hid, str) or hid not in s["seats"][seat] or s["heroes"][hid]["cell"] is None:
        return False
    return cell in destinations(w, hid)


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
    hand_over(w, before)
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
