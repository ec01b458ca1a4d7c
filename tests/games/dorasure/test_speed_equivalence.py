"""The movement's fast paths (issue 15.3) answer exactly as the plain ones they replaced.

* ``validate`` checks a ``move`` prompt's answer against its own type's part of the list
  (``legal_moves_of``): over every state of many seeded games, with and without Fang, it
  accepts every listed action and refuses every unlisted candidate (each step to each space
  with each face, each whole move, the stop, the take-back), before and after the whole list
  was asked for.
* ``explore``'s search (sub-multisets of the dice numbered, dominance as bit masks, searches
  memoised by what they depend on) finds the same routes as the plain BFS kept below.
"""

from __future__ import annotations

from typing import Any

import pytest

from backend.engine.core import IllegalAction
from backend.engine.playout import driver_rng, play_random
from backend.engine.rng import seed_from_int
from backend.games.dorasure import actions
from backend.games.dorasure.content import MOVE_NEIGHBOURS, NODE_TERRAIN
from backend.games.dorasure.game import GAME
from backend.games.dorasure.rules import movement
from backend.games.dorasure.state import State

SEEDS = range(3000, 3060)


@pytest.fixture(scope="module")
def states() -> list[tuple[State, str]]:
    """Every (state, seat owing the move prompt) of the seeded games, freshly replayed."""
    out = []
    for seed in SEEDS:
        options = GAME.sim_options(driver_rng(seed), None, {"fang": seed % 2 == 0})
        record = play_random(GAME, seed, options)
        state = GAME.initial_state(seed_from_int(seed), record.options)
        for seat, action in record.actions:
            p = state.prompt_for(seat)
            if p is not None and p["kind"] == "move":
                out.append((state, seat))
            state = GAME.apply(state, seat, action).state
    return out


def _candidates(state: State, seat: str) -> list[dict[str, Any]]:
    here = state.heroes[seat]["pos"]
    out: list[dict[str, Any]] = [{"type": "end_move"}, {"type": "undo_step"}, {"type": "rest"}]
    for node in NODE_TERRAIN:
        out.append({"type": "move", "to": node})
        for die in range(1, 7):
            if node in MOVE_NEIGHBOURS[here] or die == 6:
                out.append({"type": "step", "to": node, "die": die})
    return out


def _accepts(state: State, seat: str, action: dict[str, Any]) -> bool:
    try:
        actions.validate(state, seat, action)
    except IllegalAction:
        return False
    return True


def _fresh(state: State) -> State:
    return GAME.decode_state(GAME.encode_state(state))


def test_validate_accepts_exactly_the_listed_moves(states):
    assert len(states) > 1000
    kinds: set[str] = set()
    for state, seat in states:
        listed = GAME.legal_actions(_fresh(state), seat)
        kinds |= {a["type"] for a in listed}
        candidates = _candidates(state, seat) + listed
        # Checked on a state whose list was never built (the parts alone), then on one whose was.
        alone = _fresh(state)
        assert [a for a in candidates if _accepts(alone, seat, a)] == [a for a in candidates if a in listed]
        whole = _fresh(state)
        GAME.legal_actions(whole, seat)
        assert [a for a in candidates if _accepts(whole, seat, a)] == [a for a in candidates if a in listed]
    assert kinds == set(movement.MOVE_TYPES)


def test_the_list_is_its_parts_in_order(states):
    for state, seat in states[::5]:
        parts = [
            a for kind in movement.MOVE_TYPES for a in movement.legal_moves_of(_fresh(state), seat, kind)
        ]
        assert GAME.legal_actions(_fresh(state), seat) == parts


def _plain_search(s: State, hid: str) -> dict[str, list[tuple[str, int]]]:
    """The BFS as it was before issue 15: positions as (node, dice tuple), dominance by lists."""
    mv = s.move
    assert mv is not None
    here = s.heroes[hid]["pos"]
    start = tuple(sorted(mv["dice"]))
    others = movement.occupied_by_others(s, hid)
    need = {n: movement.threshold(s, hid, n) for n in MOVE_NEIGHBOURS}
    sink = {n for n, t in s.lands.items() if t == "quick_sand"}
    Pos = tuple[str, tuple[int, ...]]
    parent: dict[Pos, tuple[Pos, str, int] | None] = {(here, start): None}
    kept: dict[str, list[tuple[int, ...]]] = {here: [start]}
    dest: dict[str, list[tuple[str, int]]] = {}
    frontier: list[Pos] = [(here, start)]
    while frontier:
        nxt: list[Pos] = []
        for pos in frontier:
            node, dice = pos
            if node in sink and dice != start:
                continue
            for m in MOVE_NEIGHBOURS[node]:
                last = -1
                for i, f in enumerate(dice):
                    if f < need[m] or f == last:
                        continue
                    last = f
                    rest = dice[:i] + dice[i + 1 :]
                    seen = kept.setdefault(m, [])
                    if (m, rest) in parent or movement._dominated(seen, rest):
                        continue
                    seen.append(rest)
                    parent[(m, rest)] = (pos, m, f)
                    nxt.append((m, rest))
                    if m != here and m not in dest and (m not in others or movement.can_share(s, m)):
                        path = []
                        p: Pos = (m, rest)
                        while (link := parent[p]) is not None:
                            p, mm, ff = link
                            path.append((mm, ff))
                        dest[m] = path[::-1]
        frontier = nxt
    return dest


def test_the_search_finds_the_plain_routes(states):
    for state, seat in states:
        dest = movement.explore(_fresh(state), seat)["dest"]
        assert {m: movement.route_steps(r) for m, r in dest.items()} == _plain_search(state, seat)
        # A route is one flat tuple of nodes and faces: nothing the collector keeps tracking.
        assert all(type(r) is tuple and all(type(x) in (str, int) for x in r) for r in dest.values())
    # The memo is bounded: the 60 games looked for more searches than it keeps.
    assert len(movement._EXPLORED) <= movement._EXPLORED_MAX
