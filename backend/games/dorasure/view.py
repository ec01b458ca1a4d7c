"""What seats and spectators see, and the static board they draw it on.

``static_info(options)`` (sent once, public):
  ``spaces``: [{id, node, q, r, terrain, name, fang_site, neighbours}] — ``node`` is the
  id used in actions and positions (the City hexes share ``"city"``);
  ``mountains``: {id: name}; ``meter``: {length, fire, final}; ``dragon``: {boxes,
  claws}; ``charts``: {adventure, battle}: rows [{max, id, words, text, ...numbers}] — ``text``
  the row's effect, ``words`` what event sentences call it; ``terrains``: {terrain: {threshold,
  share, rest, adventure, enterable}} (base terrain; razed Belk and Fang tiles change some in
  play); ``heroes``: sheets (stats, resource, growth, power texts); ``quests``, ``rewards``,
  ``lands``: catalogues; ``seats``: hero ids in turn order.

``view(state, seat)`` (small, changes every action):
  ``phase`` ("adventure" | "battle" | "over"), ``turn``, ``current``, ``trigger``;
  ``heroes``: [{id, name, pos, hp, max_hp, res, max_res, gold, exp, level,
  attrs {move, plains_danger, forest_danger, combat, search, knowledge}, wolf_form,
  trapped, dead, used}]; ``meter``; ``dragon`` {life, swords}; ``belk_razed``;
  ``party`` {relics_unlocked, weapons_bonus, first_lair_found}; ``lands`` {site: tile};
  ``mountains``: [{id, name, state, flags, replenished, quest (only face up), reward
  (only face up)}]; ``reserve_count``; ``movement`` (dice left, steps, path; ``undo``: what each step that may be taken back changed,
  [{frm, dice, hp, res}]) while a
  hero moves; ``roll`` (the roll in progress); ``damage`` (the damage event being
  resolved: source, damage per target after the Doll, points absorbed so far); ``last`` (last movement / scored roll /
  rampage / retaliation); ``prompts``: [{seat, kind, text, ...}]; ``outcome``;
  ``odds`` (a seat's own view only, when one of its listed actions rolls): [{index, action,
  title, key, outcomes}] — the exact chance of each outcome of every listed action that rolls,
  computed from this view (``odds.py``).  Nothing else in a view depends on who looks: a seat
  owing no roll sees what the spectators see, and the server sends it the same view.

Never in a view: face-down quest or reward identities, the reserve, the seed.  Nothing in a
view (nor in ``static_info``) is a part of the state or of the content tables: every list
and dict is new, so a caller may edit what it receives; ``views`` (the server's, read only) hands
out the parts that did not change (the heroes' sheets, the mountains, ...) as the objects they were.
``reveal=True`` (finished games) adds ``hidden`` with every tile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import actions
from .content import (
    CHARTS,
    DRAGON,
    HEROES,
    LANDS,
    MOUNTAINS,
    NODE_NEIGHBOURS,
    QUESTS,
    REWARDS,
    SPACES,
    TERRAINS,
    TILE_NAMES,
    node_of,
)
from .odds import table_odds
from .rules.dragon import life
from .rules.flow import PROMPTS
from .rules.heroes import attr, forest_danger, lycan, plains_danger
from .state import ADVENTURE, BATTLE, OVER, Hero, Phase, State, copy_json

PHASES: dict[Phase, str] = {ADVENTURE: "adventure", BATTLE: "battle", OVER: "over"}


def static_info(order: list[str], fang: bool) -> dict[str, Any]:
    # Copied: the meter, charts and hero sheets are the content tables the rules read.
    return copy_json(
        {
            "seats": order,
            "fang": fang,
            "spaces": [
                {
                    "id": sid,
                    "node": node_of(sid),
                    "q": d["q"],
                    "r": d["r"],
                    "terrain": d["terrain"],
                    "name": d["name"],
                    "fang_site": d["fang_site"],
                    "neighbours": list(NODE_NEIGHBOURS[node_of(sid)]),
                }
                for sid, d in SPACES.items()
            ],
            "mountains": {m: SPACES[m]["name"] for m in MOUNTAINS},
            "meter": DRAGON["meter"],
            "dragon": DRAGON["health"],
            "charts": {k: CHARTS[k] for k in ("adventure", "battle")},
            "terrains": {
                t: {
                    "threshold": d["threshold"],
                    "share": d["share"],
                    "rest": d["rest"],
                    "adventure": d["adventure"],
                    "enterable": d["enterable"],
                }
                for t, d in TERRAINS.items()
            },
            "heroes": {h: {k: v for k, v in HEROES[h].items()} for h in order},
            "quests": {q: {"name": d["name"], "text": d["text"]} for q, d in QUESTS.items()},
            "rewards": {r: {"name": d["name"], "text": d["text"]} for r, d in REWARDS.items()},
            "lands": {t: {"name": d["name"], "text": d["text"]} for t, d in LANDS.items()},
        }
    )


def _hero(s: State, h: Hero) -> dict[str, Any]:
    hid = h["id"]
    return {
        "id": hid,
        "name": HEROES[hid]["name"],
        "pos": h["pos"],
        "hp": h["hp"],
        "max_hp": h["max_hp"],
        "res": h["res"],
        "max_res": h["max_res"],
        "gold": h["gold"],
        "exp": h["exp"],
        "level": h["level"],
        "attrs": {
            "move": h["move"],
            "plains_danger": plains_danger(h),
            "forest_danger": forest_danger(h),
            "combat": attr(h, "combat"),
            "search": attr(h, "search"),
            "knowledge": attr(h, "knowledge"),
        },
        "wolf_form": lycan(h),
        "trapped": h["trapped"],
        "dead": h["dead"],
        "used": list(h["used"]),
    }


def _mountain(s: State, m: str, reveal: bool) -> dict[str, Any]:
    mt = s.mountains[m]
    face_up = mt["state"] in ("revealed", "solved")
    out: dict[str, Any] = {
        "id": m,
        "name": SPACES[m]["name"],
        "state": mt["state"],
        "flags": mt["flags"],
        "replenished": mt["replenished"],
        "quest": None,
        "reward": None,
    }
    if face_up or reveal:
        q = QUESTS[mt["quest"]]
        out["quest"] = {
            "id": q["id"],
            "name": q["name"],
            "text": q["text"],
            "attribute": q["attribute"],
            "target": q["target"],
        }
    if mt["reward_state"] == "revealed" or reveal:
        out["reward"] = mt["reward"]
    return out


def view(s: State, seat: str | None, reveal: bool = False) -> dict[str, Any]:
    return _for_viewer(s, _common(s, reveal, kept=False), seat, reveal)


def views(s: State, viewers: Sequence[str | None], reveal: bool = False) -> dict[str | None, dict[str, Any]]:
    """Several viewers' views from one build of what they all see: every action is public
    (``Dorasure.redact_action``), so the views differ only in a seat's ``odds``. The views share
    the rest, and a viewer with no odds gets the common view itself (one object for the
    spectators and every seat that owes no roll: the server's patches and view hashes of
    those audiences are then worked out once a step): read them, never edit them.  A hero's
    sheet, a mountain, the lists of them, the dragon, the party, the lands or the last rolls that
    show what they showed the step before are the same objects as then (``_kept_parts``), so the
    server passes over them by identity."""
    common = _common(s, reveal, kept=True)
    return {viewer: _for_viewer(s, common, viewer, reveal) for viewer in viewers}


def _for_viewer(s: State, common: dict[str, Any], seat: str | None, reveal: bool) -> dict[str, Any]:
    if seat is None or reveal:
        return common
    # Computed from the common view, never from the state (issue 14.1, odds.py).
    odds = table_odds(common, seat, actions.legal_read(s, seat))
    return {**common, "odds": odds} if odds else common


# The view parts kept from one step to the next for as long as what they show is unchanged: a
# view is built afresh after every action, which changes one sheet at most and leaves most of the
# rest as it was, and the server's patches and view hashes pass over a part that is the object
# it was (play/patch.py) where they would otherwise compare it again (issue 15.2). Kept in the
# state (``State._shown``, shared along its line of applies, one part per place: nothing outlives
# the table's state), by what each is made of; only ``views`` (read only, by contract) hands them
# out, ``view`` builds its own.
def _kept(s: State, place: tuple[str, str], key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
    kept = s._shown.get(place)
    if kept is not None and kept[0] == key:
        return kept[1]
    part = build()
    s._shown[place] = (key, part)
    return part


def _kept_hero(s: State, h: Hero) -> dict[str, Any]:
    # A sheet's part is made of the sheet alone (and the content tables): its items say it all.
    # Their types are the engine's (a bool is never stored where an int is, nor the reverse).
    # One flat tuple, its keys then its values (two sheets' are equal exactly when their items
    # are, in order): ``tuple(h.items())`` made a pair for every item, ≈ 17 objects a step that
    # lived until the sheet changed, a third of what a step's views left for the cyclic
    # collector to scan (bench/README.md, issue 15 point 2, ninth session).
    part: dict[str, Any] = _kept(s, ("hero", h["id"]), (*h, *h.values()), lambda: _hero(s, h))
    return part


def _kept_mountain(s: State, m: str, reveal: bool) -> dict[str, Any]:
    mt = s.mountains[m]
    key = (reveal, mt["quest"], mt["reward"], mt["state"], mt["reward_state"], mt["flags"], mt["replenished"])
    part: dict[str, Any] = _kept(s, ("mountain", m), key, lambda: _mountain(s, m, reveal))
    return part


def _kept_list(s: State, name: str, parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The list of kept parts itself, while it holds the same parts (a step changes one sheet
    and one mountain at most)."""
    kept: list[dict[str, Any]] = _kept(s, ("list", name), tuple(parts), lambda: parts)
    return kept


def _built(s: State, reveal: bool) -> dict[str, Any]:
    """The parts of a view that a step most often leaves as they were, built afresh (``view``)."""
    return {
        "heroes": [_hero(s, s.heroes[h]) for h in s.order],
        "dragon": _dragon(s),
        "party": _party(s),
        "lands": dict(s.lands),
        "mountains": [_mountain(s, m, reveal) for m in MOUNTAINS],
        "last": copy_json(s.last),
    }


def _dragon(s: State) -> dict[str, Any]:
    return {"life": life(s), "swords": s.swords}


def _party(s: State) -> dict[str, Any]:
    return {"relics_unlocked": s.relic, "weapons_bonus": s.weapons, "first_lair_found": s.lair_found}


def _kept_parts(s: State, reveal: bool) -> dict[str, Any]:
    """The same parts, kept (``views``). ``s.lands`` is fixed after setup and ``s.last`` replaced,
    never edited (state.py ``clone``): the objects themselves say whether they changed."""
    return {
        "heroes": _kept_list(s, "heroes", [_kept_hero(s, s.heroes[h]) for h in s.order]),
        "dragon": _kept(s, ("view", "dragon"), (life(s), s.swords), lambda: _dragon(s)),
        "party": _kept(s, ("view", "party"), (s.relic, s.weapons, s.lair_found), lambda: _party(s)),
        "lands": _kept(s, ("view", "lands"), (s.lands,), lambda: dict(s.lands)),
        "mountains": _kept_list(s, "mountains", [_kept_mountain(s, m, reveal) for m in MOUNTAINS]),
        "last": _kept(s, ("view", "last"), (s.last,), lambda: copy_json(s.last)),
    }  # fmt: skip


def _common(s: State, reveal: bool, kept: bool) -> dict[str, Any]:
    """What every viewer of ``s`` sees alike (with ``reveal``, a finished game's hidden tiles);
    ``kept``: the parts kept from the step before where they are unchanged (read only)."""
    parts = _kept_parts(s, reveal) if kept else _built(s, reveal)
    v: dict[str, Any] = {
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "current": s.current,
        "trigger": s.trigger,
        "heroes": parts["heroes"],
        "meter": s.meter,
        "dragon": parts["dragon"],
        "belk_razed": s.razed,
        "party": parts["party"],
        "lands": parts["lands"],
        "mountains": parts["mountains"],
        "reserve_count": len(s.reserve),
        "movement": (
            {
                "dice": sorted(s.move["dice"]),
                "rolled": list(s.move["rolled"]),
                "steps": s.move["steps"],
                "path": list(s.move["path"]),
                **({"undo": copy_json(s.move["undo"])} if "undo" in s.move else {}),
            }
            if s.move is not None
            else None
        ),
        "roll": _roll(s),
        "damage": (
            {"source": s.dmg["source"], "targets": dict(s.dmg["targets"]), "absorbed": dict(s.dmg["absorb"])}
            if s.dmg is not None
            else None
        ),
        "last": parts["last"],
        "prompts": [_prompt(s, p) for p in s.prompts],
        "outcome": {"result": s.result[0], "reason": s.result[1]} if s.result else None,
    }
    if reveal:
        v["hidden"] = {
            "reserve": list(s.reserve),
            "mountains": {
                m: {"quest": s.mountains[m]["quest"], "reward": s.mountains[m]["reward"]} for m in MOUNTAINS
            },
        }
    return v


def _roll(s: State) -> dict[str, Any] | None:
    r = s.roll
    if r is None:
        return None
    return {
        "kind": r["kind"],
        "roller": r["roller"],
        "participants": list(r["order"]),
        "mountain": r["mountain"],
        "extra": {h: p["extra"] + p["tune"] for h, p in r["parts"].items()},
        "dice": copy_json(r["chains"]),
    }


def _prompt(s: State, p: dict[str, Any]) -> dict[str, Any]:
    out = copy_json(p)
    out["text"] = PROMPTS[p["kind"]].describe(s, p)
    return out


def secrets(s: State) -> set[str]:
    """Ids and names of tiles nobody may see now (and never saw face up)."""
    hidden: set[str] = set()
    for m in MOUNTAINS:
        mt = s.mountains[m]
        if mt["state"] not in ("revealed", "solved"):
            hidden.add(mt["quest"])
        if mt["reward_state"] != "revealed":
            hidden.add(mt["reward"])
    hidden.update(s.reserve)
    if s.fang:
        hidden.update(t for t in LANDS if t not in s.lands.values())
    hidden -= set(s.public)
    names = {TILE_NAMES.get(t) or LANDS[t]["name"] for t in hidden}
    return hidden | names
