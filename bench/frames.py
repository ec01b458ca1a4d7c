"""The cost of handing one frame to a socket (play/hub.py), in place against a writer task.

    python bench/frames.py [--part hub|audiences] [--connections 6] [--bursts 20000] [--runs 3]

A table's update goes to each of its connections (6 in the load benchmark); ``Connection``
hands each frame to the socket's ASGI send at once, stepping it by hand, and starts a writer
task only for a send that has to wait.  The baseline, in the same process, is the same class
with every frame queued for a writer task made per burst (what play/hub.py did before, issue 15
point 2).  The socket is a stand-in whose send returns at once, as uvicorn's does while the
transport takes the bytes, so the figure is the hub's own cost: CPU µs per frame (process
time), bursts of one frame per connection with a turn of the event loop between them.

``--part fanout``: the whole of a step's fan-out (play/frames.py ``fan_out``: the views, legal
lists, audiences, patches, hashes and frames, handed to stand-in sockets) for recorded 4-hero
Dorasure games at a table of 4 seats and 2 spectators, every connection taking patches, as the
load benchmark's: CPU µs per step, with the median frame's bytes.

``--part audiences``: what one step's audiences cost before anything is sent (play/frames.py,
play/audience.py): for a 4-hero Dorasure game's recorded states, each audience's doc (view,
legal, to_act), its patch against its previous doc and the view hash, for the 4 seats and the
spectators. Built as the server does (``SharedViews``: the views from one build of their common
part, the patches with one memo for the step) against each audience on its own (a view each, a
diff each), in the same process: CPU µs per step, and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
from starlette.websockets import WebSocketState  # noqa: E402

from backend.play.backlog import Applied  # noqa: E402
from backend.play.hub import Connection, Present  # noqa: E402


class Socket:
    """What ``Connection`` uses of a Starlette WebSocket; its send never waits."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.frames = 0
        self.scope: dict[str, Any] = {}  # no lean protocol under it: sends go the ASGI way

    async def send_text(self, text: str) -> None:
        self.frames += 1


class QueuedConnection(Connection):
    """The baseline: every frame waits for a writer task, one made per burst of frames."""

    __slots__ = ()

    def _push(self, item: str | None) -> None:
        self._pending.append(item)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())


async def per_frame(kind: type[Connection], connections: int, bursts: int) -> float:
    sockets = [Socket() for _ in range(connections)]
    conns = [kind(s, 1000) for s in sockets]  # type: ignore[arg-type]
    text = "x" * 560  # a median Dorasure update with patches (bench/README.md "View patches")
    started = time.process_time()
    for _ in range(bursts):
        for conn in conns:
            conn.send_text(text)
        await asyncio.sleep(0)  # the next action arrives on a later turn of the loop
    for _ in range(2):
        await asyncio.sleep(0)
    spent = time.process_time() - started
    assert all(s.frames == bursts for s in sockets), "every frame is sent"
    return spent / (bursts * connections) * 1e6


def recorded_states(seeds: range) -> list[tuple[Any, list[str]]]:
    """The states of seeded 4-hero Dorasure games (steered random play), with their seats."""
    from backend.engine.playout import play_random
    from backend.engine.registry import get_game
    from backend.engine.rng import seed_from_int

    game = get_game("dorasure")
    options = game.normalize_options({"heroes": ["ninja", "hunter", "paladin", "shaman"]})
    out = []
    for seed in seeds:
        state = game.initial_state(seed_from_int(seed), options)
        for seat, action in play_random(game, seed, options).actions:
            state = game.apply(state, seat, action).state
            out.append((state, list(options["heroes"])))
    return out


def audiences_per_step(states: list[tuple[Any, list[str]]], shared: bool) -> float:
    """CPU µs per step of every audience's doc, patch and hash (see the module's docstring)."""
    from backend.engine.registry import get_game
    from backend.play import patch

    game = get_game("dorasure")
    last: dict[str | None, dict[str, Any]] = {}
    started = time.process_time()
    for state, seats in states:
        viewers: list[str | None] = [*seats, None]
        to_act = sorted(game.to_act(state))
        if shared:
            views = game.views(state, viewers)  # type: ignore[attr-defined]
        else:
            views = {v: game.view(state, v) for v in viewers}
        memo: patch.Memo | None = {} if shared else None
        texts: patch.Texts | None = {} if shared else None
        for viewer in viewers:
            doc = {"v": views[viewer], "l": game.legal_actions(state, viewer) if viewer else [], "t": to_act}
            if viewer in last:
                patch.diff(last[viewer], doc, memo)
            patch.hash_of(patch.canonical(doc, texts))
            last[viewer] = doc
    return (time.process_time() - started) / len(states) * 1e6


class StandInClock:
    """What ``fan_out`` reads of a table's seat clock."""

    def __init__(self) -> None:
        self.to_act: frozenset[str] = frozenset()

    def deadline(self) -> None:
        return None


class StandInRecord:
    status = "active"


class StandInTable:
    """A live table as play/frames.py reads it (``frames.Table``), for stepping through a
    recorded game offline (also tests/play/test_fanout.py)."""

    def __init__(self, game: Any, connections: Any) -> None:
        self.game, self.connections = game, connections
        self.state: Any = None
        self.clock, self.record = StandInClock(), StandInRecord()
        self.static_text = orjson.Fragment(b"{}")
        self.seq, self.live, self.side_watch = 0, True, None

    def table_dict(self) -> dict[str, Any]:
        return {}


def fanout_per_step(games: list[list[tuple[Any, str, Any]]]) -> tuple[float, int]:
    """CPU µs per step of ``fan_out`` over ``games`` (see the module's docstring), and the
    median frame's length."""
    from backend.engine.registry import get_game

    game = get_game("dorasure")
    sent: list[int] = []

    class Counting(Socket):
        async def send_text(self, text: str) -> None:
            sent.append(len(text))

    spent = 0.0
    steps = 0
    for table, applied in replayed_steps(game, games, Counting):
        started = time.process_time()
        replay_step(table, applied)
        spent += time.process_time() - started
        steps += applied is not None
    sent.sort()
    return spent / steps * 1e6, sent[len(sent) // 2]


def replayed_steps(
    game: Any, games: list[list[tuple[Any, str, Any]]], socket: type[Socket]
) -> Iterator[tuple[StandInTable, Applied | None]]:
    """Each step of ``games`` (``recorded_games``) at a table of their seats and 2 spectators,
    every connection (on a ``socket``) taking patches: the table at the step's state, and what
    the step applied (None at the start, where the connections are to be welcomed)."""
    for record in games:
        present = Present()
        table = StandInTable(game, present)
        for seat in [*record[0][2], None, None]:
            conn = Connection(socket(), 1000)  # type: ignore[arg-type]
            conn.seat, conn.patches = seat, True
            present.add(conn)
        for n, (state, by, events) in enumerate(record):
            table.state, table.seq = state, n + 1
            table.clock.to_act = frozenset(game.to_act(state))
            yield table, None if n == 0 else Applied(n + 1, by, f"a{n}", False, events)


def replay_step(table: StandInTable, applied: Applied | None) -> None:
    """What the server sends at a step of ``replayed_steps``: the welcomes, then each update."""
    from backend.play import frames

    if applied is None:
        for conn in table.connections:
            frames.welcome(table, conn, [])
    else:
        frames.fan_out(table, applied)


def recorded_games(seeds: range) -> list[list[tuple[Any, str, Any]]]:
    """Seeded 4-hero Dorasure games: each step's state, who acted and its events, with the
    seats on the first."""
    from backend.engine.playout import play_random
    from backend.engine.registry import get_game
    from backend.engine.rng import seed_from_int

    game = get_game("dorasure")
    options = game.normalize_options({"heroes": ["ninja", "hunter", "paladin", "shaman"]})
    out = []
    for seed in seeds:
        state = game.initial_state(seed_from_int(seed), options)
        steps: list[tuple[Any, Any, Any]] = [(state, "", list(options["heroes"]))]
        for seat, action in play_random(game, seed, options).actions:
            t = game.apply(state, seat, action)
            state = t.state
            steps.append((state, seat, tuple(t.events)))
        out.append(steps)
    return out


async def main_async(args: argparse.Namespace) -> None:
    if args.part == "fanout":
        games = recorded_games(range(1000, 1030))
        for run in range(args.runs):
            per_step, median = fanout_per_step(games)
            print(f"run {run + 1}: fan_out {per_step:.1f} µs/step, median frame {median} B "
                  f"({sum(len(g) - 1 for g in games)} steps)")  # fmt: skip
        return
    if args.part == "audiences":
        states = recorded_states(range(1000, 1040))
        for run in range(args.runs):
            alone = audiences_per_step(states, shared=False)
            shared = audiences_per_step(states, shared=True)
            print(f"run {run + 1}: each audience alone {alone:.1f} µs/step, shared views and memo "
                  f"{shared:.1f} µs/step, ratio {shared / alone:.2f} ({len(states)} steps)")  # fmt: skip
        return
    for run in range(args.runs):
        queued = await per_frame(QueuedConnection, args.connections, args.bursts)
        in_place = await per_frame(Connection, args.connections, args.bursts)
        print(
            f"run {run + 1}: writer task per burst {queued:.2f} µs/frame, in place {in_place:.2f} µs/frame, "
            f"ratio {in_place / queued:.2f}"
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", choices=("hub", "audiences", "fanout"), default="hub")
    p.add_argument("--connections", type=int, default=6)
    p.add_argument("--bursts", type=int, default=20000)
    p.add_argument("--runs", type=int, default=3)
    asyncio.run(main_async(p.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
