"""A full Dorasure state consistent with what one seat has seen (issue 12: search bots).

A bot decides from its seat's view, never from the game's state; to simulate it needs full
states, so ``sample_state(view, seat, rng, events)`` builds one that the seat cannot tell from
the real one: ``view(sampled, seat) == view`` (tests/bots/test_determinise.py checks it at every
step of many games).  ``events`` are the events the seat was sent since the table started
(``Event.as_dict()``, setup included), in order.

What is drawn, from the bot's ``rng``:

* the RNG seed: a fresh one, never the table's (so the sampled future dice are the bot's guess);
* the face-down quest tiles (mountains and reserve), uniformly among the tiles not seen face up.
  After Quest Replenishing (§8.4) the solved tiles went to the reserve and the new tiles came
  from the old reserve first; ``_quest_slots`` keeps that apart, so the spread stays the
  posterior of what was seen;
* the face-down rewards, uniformly among the rewards not revealed.

What is rebuilt: everything the view shows, read back; the hero sheets' hidden parts (base
attributes, Magic regain, Level 6 Strike) from the level and the growth list; and what the view
does not carry but the rules keep while a decision is pending: the op queue, the turn flags, the
quest record, the roll's split between spent and tuned dice and the damage record.  Those come
from the prompt and from this turn's events (``_continuation``): how many movement 6s are left,
which rampage of the final pair is resolving, which claw boxes still retaliate.

Known gap: a routed ``move`` stopped half-way by a Poisonous Swamp (Fang) keeps its remaining
steps in the queue, and neither the view nor the events name the destination; the sampled state
lets the mover walk on from where he stands instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from backend.engine.rng import Rng

from .content import (
    CHARTS,
    CLAWS,
    HEROES,
    LARGE_FROM,
    METER_FINAL,
    MOUNTAINS,
    QUESTS,
    REPLENISH_AT,
    REWARD_POOL,
    chart_row,
)
from .rules.battle import dragon_hit
from .rules.damage import from_current
from .rules.heroes import _grow, new_hero, points
from .state import (
    ADVENTURE,
    BATTLE,
    DamageEvent,
    Hero,
    Mountain,
    Movement,
    Phase,
    QuestAttempt,
    Roll,
    State,
    TurnFlags,
    copy_json,
)
from .view import PHASES

Event = Mapping[str, Any]
Op = tuple[Any, ...]

PHASE_CODES: dict[str, Phase] = {name: code for code, name in PHASES.items()}
THEN = {"adventure": ("adventure_result",), "quest": ("quest_result",), "combat": ("battle_result",)}
ROLL_OPS = (("roll_tune",), ("roll_throw",), ("roll_post",))
# Damage sources (the ``damage`` op's text) and where each comes from in the rules.
RAMPAGE_SOURCES = frozenset({"Belk in flames", "the Dragon's fire", "the Dragon's claws"})
RETALIATION_SOURCES = frozenset({"the Dragon's retaliation", "the Dragon's critical slash"})
# Battle rows whose hero damage lands with Dragon damage (rules/battle.py ``resolve_row``), by the
# words the rules name their damage with.
STRIKES: dict[str, str] = {row["id"]: row["words"] for row in CHARTS["battle"] if row.get("dragon")}


def fresh_seed(rng: Rng) -> str:
    """A 256-bit seed drawn from the bot's own stream (hex, as the state keeps it)."""
    return b"".join(rng.next_u64().to_bytes(8, "little") for _ in range(4)).hex()


def sample_state(view: Mapping[str, Any], seat: str, rng: Rng, events: Sequence[Event] = ()) -> State:
    lands = dict(view["lands"])
    s = State(
        seed=fresh_seed(rng),
        order=tuple(h["id"] for h in view["heroes"]),
        fang=bool(lands),
        current=view["current"],
        heroes={h["id"]: _hero(h) for h in view["heroes"]},
        lands=lands,
        phase=PHASE_CODES[view["phase"]],
    )
    s.turn = view["turn"]
    s.trigger = view["trigger"]
    s.meter = view["meter"]
    s.swords = view["dragon"]["swords"]
    s.razed = view["belk_razed"]
    party = view["party"]
    s.relic = party["relics_unlocked"]
    s.weapons = party["weapons_bonus"]
    s.lair_found = party["first_lair_found"]
    s.replenished = any(e["kind"] == "replenish" for e in events)
    s.mountains, s.reserve = _tiles(view, rng, events)
    s.public = _public(view, events)
    s.prompts = [{k: v for k, v in p.items() if k != "text"} for p in copy_json(view["prompts"])]
    s.last = copy_json(view["last"])
    outcome = view["outcome"]
    s.result = (outcome["result"], outcome["reason"]) if outcome else None
    turn = _this_turn(events)
    s.move = _move(view["movement"])
    s.tflags = _turn_flags(s, turn, _previous_turn(events))
    s.quest = _quest(s, turn)
    s.roll = _roll(s, view["roll"], turn)
    s.dmg = _damage(s, view["damage"], turn)
    s.queue = _continuation(s, turn) if s.result is None else []
    return s


# -- the parts the view shows ---------------------------------------------------------------


def _hero(v: Mapping[str, Any]) -> Hero:
    """The hero sheet: the view's numbers, with the base attributes, Magic regain and Level 6
    Strike the view does not show grown from level 1 by the rules' own growth step."""
    hid = v["id"]
    h = new_hero(hid)
    for level in range(2, v["level"] + 1):
        _grow(h, HEROES[hid]["growth"][level - 2])
    attrs = v["attrs"]
    h.update(
        {
            "pos": v["pos"],
            "hp": v["hp"],
            "max_hp": v["max_hp"],
            "res": v["res"],
            "max_res": v["max_res"],
            "gold": v["gold"],
            "exp": v["exp"],
            "level": v["level"],
            "move": attrs["move"],
            "pd": attrs["plains_danger"],
            "fd": attrs["forest_danger"],
            "trapped": v["trapped"],
            "dead": v["dead"],
            "used": tuple(v["used"]),
        }
    )
    return h


def _move(v: Mapping[str, Any] | None) -> Movement | None:
    if v is None:
        return None
    rolled = list(v["rolled"])
    mv: Movement = {
        "rolled": rolled,
        "dice": list(v["dice"]),
        "steps": v["steps"],
        "path": list(v["path"]),
        "sixes": rolled.count(6),
    }
    if "undo" in v:
        mv["undo"] = copy_json(v["undo"])  # the steps that may be taken back (all public)
    return mv


def _public(view: Mapping[str, Any], events: Sequence[Event]) -> tuple[str, ...]:
    """Tiles ever seen face up (the leak tests' memory, ``view.secrets``)."""
    seen = {e[k] for e in events for k in ("quest", "reward") if isinstance(e.get(k), str)}
    for m in view["mountains"]:
        if m["quest"]:
            seen.add(m["quest"]["id"])
        if m["reward"]:
            seen.add(m["reward"])
    return tuple(sorted(seen))


# -- face-down tiles ---------------------------------------------------------------------------


def _tiles(
    view: Mapping[str, Any], rng: Rng, events: Sequence[Event]
) -> tuple[dict[str, Mountain], list[str]]:
    shown = {m["id"]: m for m in view["mountains"]}
    quests = _quest_slots(shown, events)
    rewards = _draw({m: None for m in MOUNTAINS if shown[m]["reward"] is None}, _reward_pool(shown), rng)
    placed = quests.draw(rng)  # the loop below draws nothing: the dice order is unchanged
    mountains: dict[str, Mountain] = {}
    for m in MOUNTAINS:
        v = shown[m]
        mountains[m] = {
            "quest": v["quest"]["id"] if v["quest"] else placed[m],
            "reward": v["reward"] or rewards[m],
            "state": v["state"],
            "reward_state": _reward_state(v),
            "flags": v["flags"],
            "replenished": v["replenished"],
        }
    reserve = sorted(t for k, t in placed.items() if k not in mountains)
    return mountains, reserve


def _reward_state(v: Mapping[str, Any]) -> str:
    if v["reward"] is not None:
        return "revealed"
    # R64: an unsolved mountain's reward is lost with it at the end of the Adventure phase.
    return "lost" if v["state"] == "removed" else "hidden"


def _reward_pool(shown: Mapping[str, Mapping[str, Any]]) -> list[str]:
    pool = list(REWARD_POOL)
    for m in shown.values():
        if m["reward"] is not None:
            pool.remove(m["reward"])
    return pool


class _QuestSlots:
    """Where the unseen quest tiles may lie: each face-down place (a mountain, or ``reserve:i``)
    belongs to a group drawn from its own pool of tiles."""

    def __init__(self) -> None:
        self.placed: dict[str, str] = {}  # face-down places whose tile the seat knows
        self.groups: dict[str, tuple[list[str], list[str]]] = {}  # group -> (places, tiles)

    def add(self, group: str, place: str) -> None:
        self.groups.setdefault(group, ([], []))[0].append(place)

    def draw(self, rng: Rng) -> dict[str, str]:
        out = dict(self.placed)
        for places, tiles in self.groups.values():
            out.update(_draw(dict.fromkeys(places), tiles, rng))
        return out


def _quest_slots(shown: Mapping[str, Mapping[str, Any]], events: Sequence[Event]) -> _QuestSlots:
    """Replay where tiles went (setup, reveals, Quest Replenishing) as far as the seat knows.

    Before a replenish every face-down tile is any unseen one.  At the replenish (R59) the
    solved tiles go to the reserve and the solved mountains take the reserve's tiles first,
    then, if the reserve runs dry, solved tiles again: those places hold a *seen* tile.
    """
    seen_at: dict[str, str] = {}  # mountain -> tile seen there since it was last dealt
    solved_tiles: list[str] = []
    slots = _QuestSlots()
    reserve_size = len(QUESTS) - len(MOUNTAINS)
    seen_groups: dict[str, str] = {}  # place -> "seen" for places holding a tile seen before
    for e in events:
        kind = e["kind"]
        if kind in ("gather", "quest", "quest_success", "quest_failure") and "mountain" in e:
            seen_at[e["mountain"]] = e["quest"]
        if kind == "replenish":
            solved = [m for m in MOUNTAINS if m in e["mountains"]]
            solved_tiles = [seen_at[m] for m in solved if m in seen_at]
            for i, m in enumerate(solved):
                seen_at.pop(m, None)
                seen_groups.pop(m, None)
                if i >= reserve_size:
                    seen_groups[m] = "seen"
            for i in range(reserve_size):
                # The reserve keeps the old reserve's leftovers, then the solved tiles.
                if i >= reserve_size - len(solved):
                    seen_groups[f"reserve:{i}"] = "seen"
    face_up = {m["quest"]["id"] for m in shown.values() if m["quest"]}
    for m in MOUNTAINS:
        if shown[m]["quest"] is None and m in seen_at:
            slots.placed[m] = seen_at[m]  # a quest seen here, removed face down at phase end
    known = face_up | set(slots.placed.values())
    seen_pool = [t for t in solved_tiles if t not in known]
    unseen_pool = [t for t in sorted(QUESTS) if t not in known and t not in seen_pool]
    for place in [m for m in MOUNTAINS if shown[m]["quest"] is None and m not in slots.placed] + [
        f"reserve:{i}" for i in range(reserve_size)
    ]:
        slots.add(seen_groups.get(place, "unseen"), place)
    for group, pool in (("unseen", unseen_pool), ("seen", seen_pool)):
        if group in slots.groups:
            slots.groups[group][1].extend(pool)
    return slots


def _draw(places: Mapping[str, Any], pool: list[str], rng: Rng) -> dict[str, str]:
    """Deal ``pool`` (as many tiles as places, else a seat-consistent remainder) at random."""
    tiles = rng.shuffled(pool)
    return dict(zip(places, tiles, strict=False))


# -- what the rules keep while a decision is pending --------------------------------------------


def _this_turn(events: Sequence[Event]) -> list[Event]:
    """The events since the current turn's ``turn`` event (both phases emit one per turn)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i]["kind"] == "turn":
            return list(events[i:])
    return list(events)


def _previous_turn(events: Sequence[Event]) -> list[Event]:
    starts = [i for i, e in enumerate(events) if e["kind"] == "turn"]
    return list(events[starts[-2] : starts[-1]]) if len(starts) >= 2 else []


def _kinds(turn: Sequence[Event]) -> set[str]:
    return {e["kind"] for e in turn}


def _turn_flags(s: State, turn: Sequence[Event], before: Sequence[Event]) -> TurnFlags:
    flags: TurnFlags = {}
    kinds = _kinds(turn)
    if s.phase == BATTLE and s.result is None:
        # A battle turn starts with {"extra": ...}; the Gauntlets' answer made this one extra.
        flags["extra"] = "gauntlets" in _kinds(before)
    for kind in ("faith", "lullaby"):
        if kind in kinds:
            flags[kind] = True
    if "gauntlets" in kinds:
        flags["take_extra"] = True
    if any(e["kind"] == "reroll" and e.get("hero") == "ninja" for e in turn):
        flags["ninja_rerolled"] = True
    if "platinum_shield" in kinds:
        flags["shielded"] = False  # set by the answer, spent by the retaliation it cancels
    revived = [h for e in turn if e["kind"] == "revival" for h in e.get("revived", ())]
    if revived:
        flags["revived"] = revived
        if s.current in revived:
            flags["dead"] = True
    return flags


def _quest(s: State, turn: Sequence[Event]) -> QuestAttempt | None:
    """The quest being attempted: declared this turn and not yet resolved or aborted."""
    start = next((i for i in range(len(turn) - 1, -1, -1) if turn[i]["kind"] == "quest"), None)
    if start is None or s.phase != ADVENTURE:
        return None
    after = turn[start + 1 :]
    if _kinds(after) & {"quest_success", "quest_failure", "quest_abort"}:
        return None
    declared = turn[start]
    revived_before = [h for e in turn[:start] if e["kind"] == "revival" for h in e.get("revived", ())]
    return {
        "mountain": declared["mountain"],
        "leader": declared["hero"],
        "accepted": [e["hero"] for e in after if e["kind"] == "assist" and e["accepted"]],
        "revived_before": revived_before,
    }


def _roll(s: State, v: Mapping[str, Any] | None, turn: Sequence[Event]) -> Roll | None:
    if v is None:
        return None
    tuned: dict[str, int] = {}
    for e in turn:
        if e["kind"] == "heroic_tune":
            tuned[e["to"]] = tuned.get(e["to"], 0) + e["amount"]
    mountain = v["mountain"]
    return {
        "kind": v["kind"],
        "roller": v["roller"],
        "mountain": mountain,
        "quest": s.mountains[mountain]["quest"] if mountain else None,
        "order": list(v["participants"]),
        "parts": {h: {"extra": n - tuned.get(h, 0), "tune": tuned.get(h, 0)} for h, n in v["extra"].items()},
        "chains": copy_json(v["dice"]),
        "big_bang": "big_bang" in _kinds(turn),
    }


def _damage(s: State, v: Mapping[str, Any] | None, turn: Sequence[Event]) -> DamageEvent | None:
    if v is None:
        return None
    targets = dict(v["targets"])
    absorbed = dict(v["absorbed"])
    return {
        "targets": targets,
        "source": v["source"],
        "dragon": _dragon_share(s, v["source"], turn),
        "absorb": absorbed,
        "asked": _asked(s, targets, absorbed),
    }


def _dragon_share(s: State, source: str, turn: Sequence[Event]) -> int:
    """The Dragon damage landing with this hero damage (a head-on strike, Big Bang, R55)."""
    if source == "Big Bang":
        return 2
    if source not in STRIKES.values():
        return 0
    total = next(e["total"] for e in reversed(turn) if e["kind"] == "battle_result")
    return int(dragon_hit(s, chart_row("battle", total), total))


def _asked(s: State, targets: Mapping[str, int], absorbed: Mapping[str, int]) -> list[str]:
    """Heroes already asked to absorb (R8: one at a time, in seat order from the current hero):
    every damaged hero before the one answering now who held points, which he still holds
    unless he absorbed with them."""
    answering = next((p["seat"] for p in s.prompts if p["kind"] == "absorb"), None)
    if answering is None:
        return []
    out: list[str] = []
    for hid in from_current(s):
        if hid == answering:
            return [*out, hid]
        if targets.get(hid, 0) > 0 and (points(s.heroes[hid]) > 0 or absorbed.get(hid, 0) > 0):
            out.append(hid)
    return out


def _continuation(s: State, turn: Sequence[Event]) -> list[Op]:
    """The op queue behind the pending prompt(s), innermost first (rules/flow.py ``push``)."""
    kind = s.prompts[0]["kind"] if s.prompts else None
    end: list[Op] = [("turn_end",)] if s.phase == ADVENTURE else [("battle_end",)]
    if kind in ("spend", "tune", "post_roll"):
        assert s.roll is not None
        skip = {"spend": 0, "tune": 1, "post_roll": 3}[kind]
        return [*ROLL_OPS[skip:], THEN[s.roll["kind"]], *end]
    if kind in ("doll", "absorb"):
        assert s.dmg is not None
        return [("dmg_absorb",), ("dmg_apply",), *_after_damage(s, s.dmg["source"], turn, end)]
    if s.phase == ADVENTURE:
        return {
            "reaction": [("sixes",), ("move_stage",), ("action_stage",), *end],
            "move": [("action_stage",), *end],
            "assist": [("quest_begin",), *end],
        }.get(kind or "", end)
    if kind == "kiss" and not _kinds(turn) & {"battle_result", "big_bang"}:
        return [("battle_attack",), *end]  # offered as the battle turn starts (R51)
    if kind == "shield":
        return [("ret_resolve", s.prompts[0]["result"]), *_retaliations_left(turn), *end]
    if kind == "extra_turn":
        return [("battle_next",)]
    return [*_retaliations_left(turn), *end]


def _after_damage(s: State, source: str, turn: Sequence[Event], end: list[Op]) -> list[Op]:
    if s.phase == BATTLE:
        return [*_retaliations_left(turn), *end] if source in RETALIATION_SOURCES else end
    if source.endswith(" as the quest begins"):
        return [("quest_pools",), *end]
    if source == "Special Chance":
        return _sixes_left(s, turn)
    if source in RAMPAGE_SOURCES:
        return [*_rampage_rest(s, turn), *_meter_origin(s, turn)]
    if source == "Poisonous Swamp":
        return [("move_stage",), ("action_stage",), *end]
    return end  # an Adventure, a failed quest: the checkpoint comes from ``dmg_apply``


def _sixes_left(s: State, turn: Sequence[Event]) -> list[Op]:
    """The movement 6s not yet resolved (R27), then the rest of the turn."""
    mv = s.move
    left = 0
    if mv is not None and "lullaby" not in _kinds(turn):
        counted = "special_chance" if s.hero_count >= LARGE_FROM else "meter"
        left = mv["sixes"] - sum(1 for e in turn if e["kind"] == counted)
    return [*[("six",)] * max(0, left), ("move_stage",), ("action_stage",), ("turn_end",)]


def _rampage_rest(s: State, turn: Sequence[Event]) -> list[Op]:
    """What the meter step that fired this Rampage still holds (rules/dragon.py ``meter_step``)."""
    last = max(i for i, e in enumerate(turn) if e["kind"] == "meter")
    if turn[last]["meter"] == METER_FINAL:
        rolled = sum(1 for e in turn[last:] if e["kind"] == "rampage")
        return [("rampage", 2), ("phase_end",)] if rolled == 1 else [("phase_end",)]
    if turn[last]["meter"] == REPLENISH_AT and s.hero_count >= LARGE_FROM and not s.replenished:
        return [("replenish",)]
    return []


def _meter_origin(s: State, turn: Sequence[Event]) -> list[Op]:
    """A meter step comes from a movement 6, or from the first Dragon's Lair of a quest (R41)."""
    if "quest_success" in _kinds(turn):
        return [("checkpoint", []), ("quest_end_check",), ("turn_end",)]
    return _sixes_left(s, turn)


def _retaliations_left(turn: Sequence[Event]) -> list[Op]:
    """Claw boxes covered by this turn's Dragon damage that have not retaliated yet (§4.7)."""
    hits = [i for i, e in enumerate(turn) if e["kind"] == "dragon_hit" and e.get("boxes")]
    if not hits:
        return []
    boxes = sorted(b for b in turn[hits[-1]]["boxes"] if b in CLAWS)
    done = sum(1 for e in turn[hits[-1] :] if e["kind"] == "retaliation")
    return [("retaliation", b) for b in boxes[done:]]
