"""A step's fan-out (play/frames.py ``fan_out``), driven directly over a recorded Dorasure game
at a table of 4 seats and 2 spectators, half the connections taking patches: every connection
ends each step holding exactly its own seat's view, legal list and ``to_act``, as built for that
seat alone; and the audiences that see what the spectators see share one update (one frame
text), the acting seat's names its action.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from backend.engine.playout import play_random
from backend.engine.registry import get_game
from backend.engine.rng import seed_from_int
from backend.play import frames, patch
from backend.play.backlog import Applied
from backend.play.hub import Connection, Present

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.frames import Socket as StandInSocket  # noqa: E402
from bench.frames import StandInTable  # noqa: E402

GAME = get_game("dorasure")
HEROES = ["ninja", "hunter", "paladin", "shaman"]


class Socket(StandInSocket):
    """A socket that keeps what it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


def test_every_connection_holds_its_own_doc_and_alike_audiences_share_one_update() -> None:
    options = GAME.normalize_options({"heroes": HEROES})
    record = play_random(GAME, 11, options, max_actions=400)
    present = Present()
    table = StandInTable(GAME, present)
    conns: list[tuple[Connection, Socket]] = []
    for i, seat in enumerate([*HEROES, None, None, "ninja", None]):
        socket = Socket()
        conn = Connection(socket, 1000)  # type: ignore[arg-type]
        conn.seat, conn.patches = seat, i % 2 == 0
        present.add(conn)
        conns.append((conn, socket))
    held: dict[int, dict[str, Any]] = {}  # what each connection's client holds: its doc

    state = GAME.initial_state(seed_from_int(11), options)
    table.state, table.clock.to_act = state, frozenset(GAME.to_act(state))
    for conn, socket in conns:
        frames.welcome(table, conn, [])
        welcome = json.loads(socket.texts[-1])
        held[id(conn)] = {"v": welcome["view"], "l": welcome["legal"], "t": welcome["to_act"]}

    shared_steps = 0
    was_alike: set[str] = set()
    for n, (seat, action) in enumerate(record.actions, start=1):
        transition = GAME.apply(state, seat, action)
        state = transition.state
        table.state, table.seq, table.clock.to_act = state, n, frozenset(GAME.to_act(state))
        frames.fan_out(table, Applied(n, seat, f"a{n}", False, tuple(transition.events)))
        texts: dict[str | None, set[int]] = {}
        for conn, socket in conns:
            update = json.loads(socket.texts[-1])
            assert update["type"] == "update" and update["seq"] == n
            if "patch" in update:
                doc = patch.apply(update["patch"], held[id(conn)])
                assert patch.view_hash(doc) == update["view_hash"]
                assert ("action_id" in update) == (conn.seat == seat)
            else:
                doc = {"v": update["view"], "l": update["legal"], "t": update["to_act"]}
            own = {
                "v": GAME.view(state, conn.seat),
                "l": GAME.legal_actions(state, conn.seat) if conn.seat else [],
                "t": sorted(GAME.to_act(state)),
            }
            assert patch.canonical(doc) == patch.canonical(own), (n, conn.seat)
            held[id(conn)] = doc
            if conn.patches:
                texts.setdefault(conn.seat, set()).add(id(socket.texts[-1]))
        # The patched spectators, and every patched seat that owes nothing and sees their view
        # now and did a step ago (so that it holds the doc they hold), got the very same text:
        # one frame made.  The actor's is its own.
        crowd = texts[None]
        assert len(crowd) == 1
        alike = {
            s for s in HEROES
            if s != seat and not GAME.legal_actions(state, s) and GAME.view(state, s) == GAME.view(state, None)
        }  # fmt: skip
        both = [s for s in alike & was_alike if s in texts]
        assert all(texts[s] == crowd for s in both), n
        if seat in texts:
            assert texts[seat] != crowd
        shared_steps += bool(both)
        was_alike = alike
    assert shared_steps > len(record.actions) // 2
