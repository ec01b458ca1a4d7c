"""The round: Keeper turn K0-K5 then hero turn H0-H5, in fixed order (RB Turn Structure;
content 5.2, 5.3).  Steps with no decision run here automatically; ``settle`` moves the
game past every step in which nobody owes a decision.
"""

from __future__ import annotations

from typing import Final

from ..board import BOARD
from ..catalog import MONSTERS, RULES, TIE_BREAK, hero_stat
from ..state import KEEPER as KEEPER  # defined in state.py (a leaf); rules and bots import it here
from ..state import ZORKAL, MonsterState, Work
from . import (
    astral,
    combat,
    effects,
    heal,
    parries,
    rituals,
    spells,
    summoning,
    tactics,
    treasure,
    triggers,
    weapons,
)
from .movement import creature_can_move

# The steps that wait for a decision, by their rulebook numbers.  The stored values are the
# codes saved tables hold (and hash): rename the constants freely, never their values.
BLOOD_STEP: Final = "K1"  # Ritual, Zorkal's level
SUMMONING: Final = "K2"
MONSTER_MOVES: Final = "K3"
DECLARATIONS: Final = "K4"  # the monsters' attack declarations
PARRIES: Final = "K4P"  # K4.2, the heroes' answer to the declarations
BLESSINGS: Final = "H1"
HERO_MOVES: Final = "H2"
HERO_ATTACKS: Final = "H3"  # attacks and spells

# Abilities used once per Keeper turn (ruling 37); every other once-per-turn use is per hero turn.
KEEPER_TURN_USES: Final = ("rag.riposte", "rag.hand")

KEEPER_PHASES: Final = (BLOOD_STEP, SUMMONING, MONSTER_MOVES, DECLARATIONS)
HERO_PHASES: Final = (BLESSINGS, HERO_MOVES, HERO_ATTACKS)
PHASE_NAMES: Final = {
    BLOOD_STEP: "the Keeper's Blood step (Ritual, Zorkal's level)",
    SUMMONING: "the Keeper's summoning",
    MONSTER_MOVES: "the monsters' movement",
    DECLARATIONS: "the monsters' attack declarations",
    PARRIES: "the heroes' parries",
    BLESSINGS: "the heroes' Blessings",
    HERO_MOVES: "the heroes' movement",
    HERO_ATTACKS: "the heroes' attacks and spells",
}
# Each step and the one after it (the last Keeper step opens the parries, the last hero step
# ends the hero turn: both are functions below, not steps).
_NEXT_KEEPER: Final = {BLOOD_STEP: SUMMONING, SUMMONING: MONSTER_MOVES, MONSTER_MOVES: DECLARATIONS}
_NEXT_HERO: Final = {BLESSINGS: HERO_MOVES, HERO_MOVES: HERO_ATTACKS}


def is_day(k: int) -> bool:
    """Keeper turn k is Day when k is odd (RB; ruling 20)."""
    return k % 2 == 1


def token_shows_day(k: int, phase: str) -> bool:
    """The Day/Night token's face now: Keeper turn k's until the Keeper flips it at the end of
    his turn (RB K5 "Flip Day/Night token"), then the next Keeper turn's for the heroes' turn
    (content 5.2: "the token shows the state of the *next* Keeper turn once flipped in K5")."""
    return is_day(k + 1 if phase in HERO_PHASES else k)


# ---------------------------------------------------------------------------------------
# Keeper turn


def start_keeper_turn(w: Work) -> None:
    s = w.s
    limit = s["options"].get("round_limit")
    if limit is not None and s["k"] > limit:
        # Engine-only end (content 5.12): no winner.
        combat.finish(w, "abandoned", "round_limit")
        return
    w.emit("keeper_turn", f"Keeper turn {s['k']} begins ({'Day' if is_day(s['k']) else 'Night'}).", k=s["k"])
    # K0.1 the gate opens at the start of the Keeper's turn (RB; ruling 46).
    treasure.gate_check(w)
    # K0.3 Mummy Rot: each Rotting hero loses 1 life (content 3.2).
    for hid in TIE_BREAK:
        h = s["heroes"].get(hid)
        if h is not None and h["alive"] and h["rot"]:
            combat.lose_life(w, hid, 1, "Mummy Rot")
    combat.check_deaths(w)
    combat.check_victory(w)
    if s["outcome"] is not None:
        return
    # K0.4 parries reset to capacity; unused ones never carry over (ruling 10).
    for hid, h in s["heroes"].items():
        h["parries"] = hero_stat(hid, "parry", h["level"])
        h["used"] = [u for u in h["used"] if u not in KEEPER_TURN_USES]
    s["ritual_played"] = False
    enter_phase(w, BLOOD_STEP)


def enter_phase(w: Work, phase: str) -> None:
    s = w.s
    s["phase"] = phase
    s["done"] = []
    s["cmds"] = {}
    if phase == SUMMONING:
        summoning.setup_allowance(w)
    elif phase == MONSTER_MOVES:
        s["bonus"] = 0  # unused artifact bonuses are lost after K2 (ruling 30)
        for m in w.all_monsters().values():
            m["moved"] = False
            if m["frozen"]:  # blizzard: only Ritual-class bonus steps (content 4.5)
                m["mv"] = 0 if m["wait"] else spells.frozen_move(s)
            else:
                m["mv"] = 0 if m["wait"] else rituals.monster_move(s, m["type"])
        z = s["zorkal"]
        z["mv"] = rituals.zorkal_move(s) if w.zorkal_active() else 0
    elif phase == DECLARATIONS:
        s["attacks"] = []
        for mid, m in w.all_monsters().items():
            # Waiting bog beasts, bats and stunned monsters do not attack (content 3.2, 4.3 T07),
            # nor those that fled this turn (Tactics and Flight, content 6.4).
            can = not (m["wait"] or m["bat"] or m["no_attack"] or m["frozen"]) and tactics.may_attack(s, mid)
            m["atk"] = MONSTERS[m["type"]]["attacks"] if can else 0
        z = s["zorkal"]
        z_can = w.zorkal_active() and tactics.may_attack(s, ZORKAL)
        z["atk"] = combat.zorkal_attacks(z["level"]) if z_can else 0
    elif phase == HERO_MOVES:
        weapons.open_inexorable_advance(w)  # H2.1: Guelin's seat is asked first (content 5.3)
    elif phase == HERO_ATTACKS:
        for hid, h in s["heroes"].items():
            if h["cell"] is not None:
                # Attacks per level, fixed when the phase opens (ruling 23), plus bonuses.
                # Inexorable advance's shots in H2 are gone for H3 (content 2.3 gue.advance).
                # Ragnar's fencing: +1 if he did not move (content 2.3 ``rag.fencing``).
                bonus = h["bonus_actions"] + triggers.fencing(w, hid, h) - weapons.advance_spent(w, hid)
                h["actions"] = hero_stat(hid, "attacks", h["level"]) + bonus
                h["bonus_actions"] = 0


def keeper_has_choice(w: Work) -> bool:
    """Whether the open Keeper step offers anything but ending it (if not, it passes by)."""
    s = w.s
    phase = s["phase"]
    if phase == BLOOD_STEP:
        return True  # passing is a choice the Keeper makes himself (surrender, hand review)
    if phase == SUMMONING:
        return summoning.may_summon(w)
    if phase == MONSTER_MOVES:
        for mid, m in s["monsters"].items():
            if m["mv"] > 0 and (can_bat(m) or creature_can_move(w, mid, m["cell"])):
                return True
        z = s["zorkal"]
        return w.zorkal_active() and z["mv"] > 0 and creature_can_move(w, ZORKAL, z["cell"])
    if phase == DECLARATIONS:
        return bool(combat.attack_targets(w, first=True))
    return False


def can_bat(m: MonsterState) -> bool:
    """Bat form is declared in K3 before the vampire's first step (content 3.2)."""
    return m["type"] in BAT_TYPES and not m["moved"] and not m["bat"] and not m["frozen"]


BAT_TYPES: Final[frozenset[str]] = frozenset(
    t for t, kind in MONSTERS.items() if "bat_move" in kind
)  # the vampire


def end_keeper_phase(w: Work) -> None:
    combat.check_levels(w)  # levels come at the end of a step (content 2.2; ruling 23, V9)
    phase = w.s["phase"]
    if phase == DECLARATIONS:
        start_parries(w)
    else:
        enter_phase(w, _NEXT_KEEPER[phase])


def start_parries(w: Work) -> None:
    """K4.2 opens: the heroes' parries (``rules/parries.py``)."""
    s = w.s
    s["phase"] = PARRIES
    s["done"] = []
    s["cmds"] = {}
    parries.start_parries(w)


def resolve_and_end_keeper_turn(w: Work) -> None:
    """K4.2 protecting hand, K4.3 the hits, K4.4 riposte (``rules/parries.py``; they may stop at
    a question to Ragnar's seat, then ``settle`` comes back here), then K5."""
    s = w.s
    combat.check_levels(w)  # the end of the parries step (ruling V9)
    if not parries.finish_attacks(w):
        return
    rituals.black_fountain_heal(w)  # K5.1 (content 5.2)
    # K5.2 chamber check (RB; ruling 28): all 14 chamber cells hold a figure.
    occ = w.occupancy()
    if all(c in occ for c in BOARD.chamber):
        s["fill"] += 1
        w.emit("chamber_full", f"The Ritual Chamber is full ({s['fill']} of 3).", fill=s["fill"])
        if s["fill"] >= RULES["chamber_fill_turns"]:
            combat.finish(
                w, "keeper_wins", "The Ritual Chamber was full at the end of 3 Keeper turns in a row."
            )
            return
    elif s["fill"]:
        s["fill"] = 0
        w.emit("chamber_gap", "The Ritual Chamber has a gap: the fill count restarts.", fill=0)
    # K5.3 this-Keeper-turn effects expire.
    for m in w.all_monsters().values():
        m["wait"] = m["bat"] = m["no_attack"] = m["frozen"] = False
        m["mv"] = m["atk"] = 0
    s["zorkal"]["mv"] = s["zorkal"]["atk"] = 0
    effects.expire(w, effects.UNTIL_KEEPER_END)
    # K5.4 flip Day/Night (RB).
    w.emit(
        "day_night", f"The token turns to {'Day' if is_day(s['k'] + 1) else 'Night'}.", day=is_day(s["k"] + 1)
    )
    start_hero_turn(w)


# ---------------------------------------------------------------------------------------
# Hero turn


def start_hero_turn(w: Work) -> None:
    s = w.s
    combat.check_levels(w)  # the end of K5 (ruling V9)
    w.emit("hero_turn", f"Hero turn {s['k']} begins.", k=s["k"])
    # H0.1 per-turn flags reset.
    for hid, h in s["heroes"].items():
        h["moved"] = False
        h["item_used"] = False
        h["rubble"] = False
        h["used"] = [u for u in h["used"] if u in KEEPER_TURN_USES]  # ruling 37: per hero turn
        h["actions"] = 0
        h["bonus_actions"] = 0
        h["mv"] = [hero_stat(hid, "move", h["level"]), 0, 0]
    astral.ask_returns(w)  # H0.2: heroes away on an Astral Journey come back (B01)
    weapons.open_knife_master(w)  # H0.3: Guelin's knife (content 5.3; ruling A5)
    enter_phase(w, BLESSINGS)


def hero_phase_seats(w: Work) -> list[str]:
    """Hero seats that still owe a decision in the open hero phase (content 5.8)."""
    s = w.s
    done, effects, heroes = s["done"], s["effects"], s["heroes"]
    blessings = s["phase"] == BLESSINGS
    out = []
    # Asked after every hero command (``settle``) and by ``to_act``: the tests inlined.
    for seat, mine in s["seats"].items():
        if seat in done or (effects and OUT_OF_TIME + seat in effects):
            continue
        if blessings and s["blessings"].get(seat) is None:
            continue
        for hid in mine:
            if heroes[hid]["cell"] is not None:  # a hero on the board (``seat_heroes_on_board``)
                out.append(seat)
                break
    return out


# Real Day and Night (rules/clock.py): a hero seat whose time ran out owes nothing more until H5;
# the effect ``OUT_OF_TIME + seat`` lasts until the end of the hero turn.
OUT_OF_TIME: Final = "time_up:"


def may_take_back(w: Work, seat: str) -> bool:
    """A hero seat that has sent *done* may take it back until the last seat's arrives (content
    5.8); the phase is still open, so that one has not.  A seat the §5.12 phase_action_limit
    declared done is done for good: that limit is what keeps random play from looping.  The
    engine option ``take_back_limit`` (like those of §5.12, for simulations only: no rule counts
    take-backs) caps them per seat and step, so random seats do not spend the step undoing
    each other's *done*."""
    s = w.s
    if s["phase"] not in HERO_PHASES or seat not in s["done"] or not w.seat_heroes_on_board(seat):
        return False
    if OUT_OF_TIME + seat in s["effects"]:
        return False
    if s["phase"] == BLESSINGS and s["blessings"].get(seat) is None:
        return False
    limit = s["options"].get("phase_action_limit")
    if limit is not None and s["cmds"].get(seat, 0) >= limit:
        return False
    backs = s["options"].get("take_back_limit")
    return backs is None or s["cmds"].get(TAKE_BACKS + seat, 0) < backs


# ``cmds`` also counts each seat's take-backs in the open step, under this prefix.
TAKE_BACKS: Final = "take_back:"


def end_hero_phase(w: Work) -> None:
    combat.check_levels(w)  # before H4 heals with the new max life, when H3 ends (ruling V9)
    phase = w.s["phase"]
    if phase == HERO_ATTACKS:
        end_hero_turn(w)
    else:
        enter_phase(w, _NEXT_HERO[phase])


def end_hero_turn(w: Work) -> None:
    s = w.s
    # H4 Heal (``rules/heal.py``): it may stop at Kaerdrak's question, then ``settle`` comes back.
    if not heal.heal_phase(w):
        return
    # H5: movement and action bonuses and Rubble expire.
    for h in s["heroes"].values():
        h["mv"] = [0, 0, 0]
        h["actions"] = 0
        h["bonus_actions"] = 0
        h["rubble"] = False
    effects.expire(w, effects.UNTIL_HERO_END)
    s["k"] += 1
    start_keeper_turn(w)


# ---------------------------------------------------------------------------------------


def settle(w: Work) -> None:
    """Run automatic steps until some seat owes a decision or the game is over.  Levels are not
    checked here but where a step ends (``end_keeper_phase``, ``end_hero_phase``...): a level
    gained mid-step applies from the next phase (content 2.2; ruling V9)."""
    s = w.s
    combat.check_victory(w)
    while s["outcome"] is None and s["prompt"] is None and s["surrender"] is None:
        phase = s["phase"]
        if phase in KEEPER_PHASES:
            if keeper_has_choice(w):
                return
            end_keeper_phase(w)
        elif phase == PARRIES:
            if parries.parry_seats(w):
                return
            resolve_and_end_keeper_turn(w)
        else:
            if hero_phase_seats(w):
                return
            end_hero_phase(w)
        combat.check_victory(w)
