"""Who may act, what they may do, and doing it.

Every action is a small dict with a ``"type"``; ``legal`` lists them in canonical form and
``check`` accepts exactly the listed ones (it only generates the part of the list the action
could be in, so validating stays cheap).
"""

from __future__ import annotations

from typing import Any

from backend.engine.core import Action, IllegalAction, Transition

from .board import BOARD
from .catalog import HEROES, MONSTERS, TIE_RANK, ZORKAL_STATS
from .rules import cards, combat, movement, summoning, treasure, turns
from .rules.turns import KEEPER
from .state import ZORKAL, State, Work, cell_name, hand_over, reader, xy

# What each action type is, for refusals that name the rule.
WHY: dict[str, str] = {
    "done": "You can only end a step you are taking part in.",
    "take_back_done": "A hero seat may take back its Done only in the heroes' step it ended, before every "
    "seat has sent Done.",
    "surrender": "Surrender is not possible now.",
    "propose_surrender": "A surrender can be proposed only by a hero seat on turn, with no proposal pending.",
    "surrender_vote": "Only hero seats asked about the surrender proposal can vote.",
    "level_zorkal": "Zorkal levels up in the Blood step, paying 7 Blood Drops for level 2 and 9 for level 3.",
    "play_ritual": "A Ritual is played in the Blood step, once per Keeper turn, from the Keeper's hand, "
    "if the Blood pool pays its cost.",
    "summon": "Weak monsters are summoned into their own zone, onto a free cell, 1 by Day or 2 by Night, "
    "at most 8 of each type on the board.",
    "summon_strong": "A strong monster is summoned at Night instead of the weak ones, or with an artifact "
    "bonus, onto a free Dark Temple cell, while the bag has tokens.",
    "bat_form": "A vampire takes bat form in the movement step, before its first step.",
    "attack": "An attack needs an action (heroes) or an attack left (creatures) and a target in reach: "
    "adjacent for melee, exactly 2 in a straight line for a pike, range with a clear line of sight for "
    "shooting, a path around corners but not past monsters for magic.",
    "parry": "Each hero parries up to its parries per Keeper turn, choosing among the attacks on it.",
    "place_monster": "The hidden monster goes on a free cell next to the hero who found it.",
    "play_blessing": "A Blessing is played in the Blessings step by its owner, naming a living hero of that "
    "seat on the board.",
    "move": "Heroes move orthogonally up to their Move, never through walls, monsters or the closed Gate; "
    "they pass other heroes only on the Outside trail, and stop only on a free cell (Argos holds any number).",
    "pick_up": "An artifact is picked up during movement by a hero standing on it.",
    "drop": "A hero drops an artifact it carries during movement, onto its own cell.",
    "give": "Items and artifacts pass between adjacent heroes during movement.",
    "discard": "A hero discards an item card it holds during movement.",
    "use_item": "Each hero uses at most 1 item per hero turn, in the item's window, paying any life cost "
    "with at least 2 life.",
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
        return frozenset({KEEPER})
    phase = s["phase"]
    if phase in turns.KEEPER_PHASES:
        return frozenset({KEEPER})
    w = reader(s)
    found = w.memo.get("to_act")
    if found is None:
        if phase == "K4P":
            seats = turns.parry_seats(w)
        else:
            seats = turns.hero_phase_seats(w) + [o for o in s["done"] if turns.may_take_back(w, o)]
        found = w.memo["to_act"] = frozenset(seats)
    return found


def _may_surrender(s: State) -> bool:
    return bool(s["options"].get("allow_surrender", True))


def legal(s: State, seat: str, only: str | None = None, hero: str | None = None) -> list[Action]:
    """The listed actions of ``seat`` (restricted to one type / hero when validating)."""
    if seat not in to_act(s):
        return []
    w = reader(s)
    out: list[Action] = []

    def want(t: str) -> bool:
        return only is None or only == t

    if s["surrender"] is not None:
        if want("surrender_vote"):
            out += [{"type": "surrender_vote", "accept": True}, {"type": "surrender_vote", "accept": False}]
        return out
    if s["prompt"] is not None:
        if want("place_monster"):
            out += [{"type": "place_monster", "to": xy(c)} for c in s["prompt"]["cells"]]
        if want("surrender") and _may_surrender(s):
            out.append({"type": "surrender"})
        return out
    phase = s["phase"]
    if seat == KEEPER:
        if want("done"):
            out.append({"type": "done"})
        if want("surrender") and _may_surrender(s):
            out.append({"type": "surrender"})
        if phase == "K1":
            if want("level_zorkal") and _zorkal_level_cost(s) is not None:
                out.append({"type": "level_zorkal"})
            if want("play_ritual"):
                out += [{"type": "play_ritual", "card": c} for c in cards.ritual_options(w)]
        elif phase == "K2":
            if want("summon") or want("summon_strong"):
                for mtype, cell in summoning.summon_options(w):
                    if mtype is None:
                        if want("summon_strong"):
                            out.append({"type": "summon_strong", "to": xy(cell)})
                    elif want("summon"):
                        out.append({"type": "summon", "monster": mtype, "to": xy(cell)})
        elif phase == "K3":
            bats, moves = want("bat_form"), want("move")
            monsters = (
                s["monsters"]
                if hero is None
                else {hero: s["monsters"][hero]}
                if hero in s["monsters"]
                else {}
            )
            blocked, gate = w.blocked_bits(), bool(s["gate"])
            for mid, m in monsters.items():
                if bats and not m["moved"] and turns.can_bat(m):
                    out.append({"type": "bat_form", "figure": mid})
                mv = m["mv"]
                if moves and mv > 0:
                    # ``_creature_moves``'s reuse test, inlined: this loop is the hot spot.
                    f = _MOVES.get(mid)
                    if (
                        f is not None
                        and f[0] == m["cell"]
                        and f[1] == mv
                        and f[2] == gate
                        and blocked & f[3] == f[4]
                    ):
                        out += [{"type": "move", "figure": mid, "to": [x, y]} for x, y in f[5]]
                    else:
                        out += _creature_moves(w, mid, m["cell"], mv)
            z = s["zorkal"]
            if moves and (hero is None or hero == ZORKAL) and w.zorkal_active() and z["mv"] > 0:
                out += _creature_moves(w, ZORKAL, z["cell"], z["mv"])
        elif phase == "K4" and want("attack"):
            out += [{"type": "attack", "figure": c, "target": h} for c, h in combat.attack_targets(w, hero)]
        return out
    # Hero seats.
    if phase == "K4P":
        if want("done"):
            out.append({"type": "done"})
        if want("parry"):
            for indices in turns.parry_choices(w, seat).values():
                out += [{"type": "parry", "attack": i} for i in indices]
        return out
    if seat in s["done"]:
        # Content 5.8: this seat has sent *done*; all it may do is take it back.
        if want("take_back_done"):
            out.append({"type": "take_back_done"})
        return out
    if want("done"):
        out.append({"type": "done"})
    if want("propose_surrender") and _may_surrender(s):
        out.append({"type": "propose_surrender"})
    mine = [h for h in w.seat_heroes_on_board(seat) if hero is None or h == hero]
    if phase == "H1":
        if want("play_blessing"):
            out += [
                {"type": "play_blessing", "card": c, "hero": h}
                for c, h in cards.blessing_options(w, seat)
                if h in mine
            ]
    elif phase == "H2":
        for hid in mine:
            h = s["heroes"][hid]
            if want("move"):
                # ``w`` is the shared read-only Work of this state: validating several moves of
                # one hero walks once.
                dests = w.memo.get(("dest", hid))
                if dests is None:
                    dests = w.memo[("dest", hid)] = movement.hero_destinations(w, hid)
                out += [{"type": "move", "hero": hid, "to": xy(c)} for c in sorted(dests)]
            if want("pick_up"):
                out += [
                    {"type": "pick_up", "hero": hid, "artifact": a} for a in treasure.artifacts_here(w, hid)
                ]
            carried = treasure.carried(w, hid)
            if want("drop"):
                out += [{"type": "drop", "hero": hid, "artifact": a} for a in carried]
            if want("give") and (carried or h["cards"]):
                for other in w.on_board_heroes():
                    if other != hid and _heroes_adjacent(w, hid, other):
                        out += [{"type": "give", "hero": hid, "to": other, "artifact": a} for a in carried]
                        out += [
                            {"type": "give", "hero": hid, "to": other, "card": c}
                            for c in sorted(set(h["cards"]))
                        ]
            if want("discard"):
                out += [{"type": "discard", "hero": hid, "card": c} for c in sorted(set(h["cards"]))]
            if want("use_item"):
                out += treasure.item_uses(w, hid)
    elif phase == "H3":
        for hid in mine:
            if want("attack"):
                out += [
                    {"type": "attack", "hero": hid, "with": a, "target": c}
                    for a, c in combat.hero_targets(w, hid)
                ]
            if want("use_item"):
                out += treasure.item_uses(w, hid)
    return out


def _creature_moves(w: Work, cid: str, cell: int, budget: int) -> list[Action]:
    """The creature's move actions.  The Keeper's movement list is the longest the game has and
    is rebuilt after every move, while most creatures' walks do not change: each creature's last
    destinations are kept with what its walk depended on (``creature_walk``) and reused while
    that holds.  The actions themselves are new at every call: they leave the engine, and a
    caller's edit must not reach the next list."""
    gate = bool(w.s["gate"])
    found = _MOVES.get(cid)
    if (
        found is not None
        and found[0] == cell
        and found[1] == budget
        and found[2] == gate
        and w.blocked_bits() & found[3] == found[4]
    ):
        cells = found[5]
    else:
        looked, snapshot, dests = movement.creature_walk(w, cid, cell, budget)
        width = BOARD.width
        cells = tuple((c % width, c // width) for c in sorted(dests))
        if len(_MOVES) > 4000:
            _MOVES.clear()
        _MOVES[cid] = (cell, budget, gate, looked, snapshot, cells)
    return [{"type": "move", "figure": cid, "to": [x, y]} for x, y in cells]


# creature id -> (cell, budget, gate, cells looked at, their blocked bits, destinations (x, y))
_MOVES: dict[str, tuple[int, int, bool, int, int, tuple[tuple[int, int], ...]]] = {}


def _heroes_adjacent(w: Work, a: str, b: str) -> bool:
    from .rules.reach import heroes_adjacent

    return heroes_adjacent(w.s["heroes"][a]["cell"], w.s["heroes"][b]["cell"])


def _zorkal_level_cost(s: State) -> int | None:
    """Zorkal's levels: 7 Blood Drops for level 2, 9 more for level 3 (RB; content 2.4)."""
    level = s["zorkal"]["level"]
    if level >= len(ZORKAL_STATS["life"]):
        return None
    cost = ZORKAL_STATS["level_cost"][level - 1]
    return cost if s["blood"] >= cost else None


def check(s: State, seat: str, action: Any) -> Action:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "An action must be an object with a 'type'.")
    kind = action["type"]
    if kind not in WHY:
        raise IllegalAction("unknown_action", f"Dorn has no action {kind!r}.")
    if s["outcome"] is not None:
        raise IllegalAction("game_over", "The game is over.")
    if seat not in to_act(s):
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
        if s["phase"] != "K3" or action.keys() != {"type", "figure", "to"} or not isinstance(cid, str):
            return False
        if cid == ZORKAL:
            fig = s["zorkal"] if w.zorkal_active() else None
        else:
            fig = s["monsters"].get(cid)
        if fig is None or fig["mv"] <= 0:
            return False
        return cell in movement.creature_destinations(w, cid, fig["cell"], fig["mv"])
    hid = action.get("hero")
    if s["phase"] != "H2" or action.keys() != {"type", "hero", "to"} or seat in s["done"]:
        return False
    if not isinstance(hid, str) or hid not in s["seats"][seat] or s["heroes"][hid]["cell"] is None:
        return False
    dests = w.memo.get(("dest", hid))
    if dests is None:
        dests = w.memo[("dest", hid)] = movement.hero_destinations(w, hid)
    return cell in dests


def _waiting_for(s: State) -> str:
    if s["surrender"] is not None:
        return "a surrender proposal is being voted on"
    if s["prompt"] is not None:
        return "the Keeper is placing a hidden monster"
    return "now is " + turns.PHASE_NAMES[s["phase"]]


def apply(s: State, seat: str, action: Any) -> Transition[State]:
    check(s, seat, action)
    w = Work(s)
    before = reader(s)
    w.adopt_caches(before)  # same figures, same cells: the occupancy map carries over
    w.memo = dict(before.memo)  # what validating found (a hero's destinations), read first thing
    _do(w, seat, action)
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
    elif seat != KEEPER and phase == "K4P" and seat not in s["done"]:
        turns.finish_parries(w, seat)


def _do(w: Work, seat: str, a: Action) -> None:
    s = w.s
    kind = a["type"]
    if kind == "surrender":
        w.emit("surrender", "The Keeper surrenders.", seat=seat)
        combat.finish(w, "heroes_win", "surrender")
    elif kind == "propose_surrender":
        voters = [o for o in s["seats"] if o != seat and any(s["heroes"][h]["alive"] for h in s["seats"][o])]
        w.emit("surrender_proposed", f"{seat} proposes that the heroes surrender.", seat=seat)
        if not voters:
            combat.finish(w, "keeper_wins", "surrender")
        else:
            s["surrender"] = {"by": seat, "voters": voters, "accepted": []}
    elif kind == "surrender_vote":
        sur = s["surrender"]
        if a["accept"]:
            sur["accepted"].append(seat)
            w.emit("surrender_vote", f"{seat} accepts the surrender.", seat=seat, accept=True)
            if set(sur["accepted"]) >= set(sur["voters"]):
                s["surrender"] = None
                combat.finish(w, "keeper_wins", "surrender")
        else:
            s["surrender"] = None
            w.emit("surrender_vote", f"{seat} refuses: the heroes fight on.", seat=seat, accept=False)
    elif kind == "done":
        _done(w, seat)
    elif kind == "take_back_done":
        s["done"].remove(seat)
        key = turns.TAKE_BACKS + seat
        s["cmds"][key] = s["cmds"].get(key, 0) + 1
        w.emit(
            "seat_resumes",
            f"{seat} takes back Done: {turns.PHASE_NAMES[s['phase']]} goes on.",
            seat=seat,
            phase=s["phase"],
        )
    elif kind == "level_zorkal":
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
    elif kind == "play_ritual":
        cards.play_ritual(w, a)
    elif kind == "summon":
        summoning.summon(w, a["monster"], BOARD.idx(*a["to"]))
    elif kind == "summon_strong":
        summoning.summon(w, None, BOARD.idx(*a["to"]))
    elif kind == "move" and seat == KEEPER:
        _creature_move(w, a["figure"], BOARD.idx(*a["to"]))
    elif kind == "bat_form":
        m = w.monster(a["figure"])
        m["bat"] = True
        m["mv"] = MONSTERS[m["type"]]["bat_move"]
        w.emit(
            "bat_form",
            f"The vampire at {cell_name(m['cell'])} takes bat form (Move 12, no attack).",
            monster=a["figure"],
        )
    elif kind == "attack" and seat == KEEPER:
        _declare(w, a["figure"], a["target"])
    elif kind == "parry":
        turns.parry(w, seat, a["attack"])
    elif kind == "place_monster":
        prompt = s["prompt"]
        s["prompt"] = None
        summoning.place_monster(
            w, prompt["monster"], BOARD.idx(*a["to"]), keeper_turn=False, why="hidden in the treasure"
        )
    elif kind == "play_blessing":
        cards.play_blessing(w, seat, a)
    elif kind == "move":
        _hero_move(w, a["hero"], BOARD.idx(*a["to"]))
    elif kind == "pick_up":
        treasure.pick_up(w, a["hero"], a["artifact"])
    elif kind == "drop":
        treasure.drop(w, a["hero"], a["artifact"])
    elif kind == "give":
        _give(w, a)
    elif kind == "discard":
        s["heroes"][a["hero"]]["cards"].remove(a["card"])
        s["treasure_discard"].append(a["card"])
        w.emit(
            "card_discarded",
            f"{HEROES[a['hero']]['name']} discards an item card.",
            hero=a["hero"],
            card=a["card"],
        )
    elif kind == "use_item":
        treasure.use_item(w, a)
    elif kind == "attack":
        combat.hero_attack(w, a["hero"], a["with"], a["target"])
        combat.check_deaths(w)
    else:  # check() refuses every other type before we get here
        raise AssertionError(kind)


def _done(w: Work, seat: str) -> None:
    s = w.s
    phase = s["phase"]
    if seat == KEEPER:
        turns.end_keeper_phase(w)
    elif phase == "K4P":
        turns.finish_parries(w, seat)
    else:
        s["done"].append(seat)
        w.emit("seat_done", f"{seat} has finished {turns.PHASE_NAMES[phase]}.", seat=seat, phase=phase)


def _creature_move(w: Work, cid: str, to: int) -> None:
    s = w.s
    fig = s["zorkal"] if cid == ZORKAL else w.monster(cid)
    cost = movement.creature_destinations(w, cid, fig["cell"], fig["mv"])[to]
    w.relocate(cid, fig["cell"], to)
    fig["cell"] = to
    fig["mv"] -= cost
    if cid != ZORKAL:
        fig["moved"] = True
    w.emit(
        "creature_move",
        f"{w.creature_name(cid).capitalize()} moves to {cell_name(to)}.",
        figure=cid,
        cell=xy(to),
        steps=cost,
    )


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
    dests = w.memo.get(("dest", hid))
    cost = (dests if dests is not None else movement.hero_destinations(w, hid))[to]
    movement.spend(h, cost)
    h["cell"] = to
    h["moved"] = True
    w.moved()
    w.emit("hero_move", f"{HEROES[hid]['name']} moves to {cell_name(to)}.", hero=hid, cell=xy(to), steps=cost)
    treasure.enter_cell(w, hid, to)


def _give(w: Work, a: Action) -> None:
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


def default_action(s: State, seat: str) -> Action | None:
    """The catalogue default (content 5.10): hidden monster on the first legal cell in reading
    order, surrender votes declined, parries by the default order, every step ended."""
    if seat not in to_act(s):
        return None
    if s["surrender"] is not None:
        return {"type": "surrender_vote", "accept": False}
    if s["prompt"] is not None:
        return {"type": "place_monster", "to": xy(s["prompt"]["cells"][0])}
    if seat in s["done"]:
        return None  # it may take its Done back, but owes nothing
    return {"type": "done"}


def batch_order(s: State, batch: list[tuple[str, Action]]) -> list[tuple[str, Action]]:
    """Actions from several hero seats arriving together are applied in tie-break order of the
    heroes acting (RB "If players disagree, resolve alphabetically by character name"; content
    5.8).  Actions naming no hero keep their place after the named ones, in arrival order."""

    def rank(item: tuple[int, tuple[str, Action]]) -> tuple[int, int]:
        i, (_, action) = item
        hid = action.get("hero") if isinstance(action, dict) else None
        return (TIE_RANK.get(hid, len(TIE_RANK)) if isinstance(hid, str) else len(TIE_RANK), i)

    return [pair for _, pair in sorted(enumerate(batch), key=rank)]
