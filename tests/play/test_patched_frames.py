"""View patches over real sockets (backend/play/audience.py, docs/protocol.md "View patches"):
a client that applies patches holds at every step exactly the view and legal actions a fresh
welcome gives, and its frames leak nothing; a client whose view is corrupted, or that misses an
update, sees it, resyncs and goes on; with ``DRAGONTABLE_VIEW_PATCHES=0`` everyone gets whole
views.  The patches themselves, on random JSON and on the views of random games, and the
browser's side: tests/play/test_patches.py.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backend.engine.core import Game
from backend.engine.registry import get_game
from backend.engine.rng import Rng
from backend.play import patch

from ..server_fixtures import Api, ServerProcess, WsClient, ready_seats, start_table_of_players
from .helpers import as_doc, assert_no_leak, check_no_leaks, hidden, same, stored_states

DORASURE, DORN = get_game("dorasure"), get_game("dorn")
GIVE_UP = {"surrender", "propose_surrender"}


class PatchClient(WsClient):
    """A client that takes patches, as frontend/js/connection.js does: it applies each patch
    to the ``{"v": view, "l": legal, "t": to_act}`` it holds and checks the ``view_hash``; on a mismatch or a gap it
    sends ``resync`` and takes no update until the welcome.  ``corrupt()`` and ``skip_next``
    break it on purpose."""

    def __init__(self, url: str, token: str | None = None) -> None:
        super().__init__(url, token)
        self.doc: dict[str, Any] | None = None
        self.resyncing = False
        self.resyncs = 0
        self.patched = 0
        self.whole = 0
        self.skip_next = False
        self.welcomes: list[dict[str, Any]] = []
        self._sending: set[asyncio.Task[None]] = set()

    async def connect(self, *, hello: bool = True, last_seq: int | None = None) -> dict[str, Any] | None:
        await super().connect(hello=False)
        await self.send({"type": "hello", "seat_token": self.token, "last_seq": last_seq, "patches": True})
        return await self.expect("welcome")

    def corrupt(self) -> None:
        assert self.doc is not None
        self.doc = {**self.doc, "v": {**self.doc["v"], "corrupted": True}}

    def _resync(self) -> None:
        self.resyncs += 1
        self.resyncing = True
        task = asyncio.get_running_loop().create_task(self.send({"type": "resync", "last_seq": self.seq}))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def _track(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self.welcomes.append(msg)
            self.resyncing = False
            self.doc = {"v": msg["view"], "l": msg["legal"], "t": msg["to_act"]}
        elif kind == "update" and ("view" in msg or "patch" in msg):
            if self.resyncing:
                return
            if self.skip_next:
                self.skip_next = False
                return  # as if the frame was lost
            if msg["seq"] > self.seq + 1:
                self._resync()
                return
            if "patch" in msg:
                try:
                    doc = patch.apply(msg["patch"], self.doc)
                except patch.PatchError:
                    doc = None
                if doc is None or patch.view_hash(doc) != msg["view_hash"]:
                    self._resync()
                    return
                self.patched += 1
            else:
                doc = {"v": msg["view"], "l": msg["legal"], "t": msg["to_act"]}
                self.whole += 1
            self.doc = doc
            self.seq, self.view, self.legal, self.to_act = (
                msg["seq"],
                doc["v"],
                doc["l"],
                doc["t"],
            )
            return
        super()._track(msg)


def four_hero_table(
    server: ServerProcess, game: Game[Any], seed: int, players: int
) -> tuple[Api, str, dict[str, str]]:
    return start_table_of_players(server.base_url, game.name, game.sim_options(Rng(bytes([seed]) * 32), players, {}))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("patches")
    # One client plays far faster than a person: lift the per-connection rate limit.
    env = {"DRAGONTABLE_RATE_PER_SECOND": "1000", "DRAGONTABLE_RATE_BURST": "1000"}
    with ServerProcess(f"sqlite:///{tmp / 'p.db'}", env=env, log_path=tmp / "server.log") as srv:
        yield srv
    assert "Traceback" not in (tmp / "server.log").read_text()


async def act_once(
    seats: dict[str, PatchClient], everyone: list[WsClient], rnd: random.Random, n: int
) -> int:
    ready = await ready_seats(dict(seats), everyone)
    if not ready and any(c.finished for c in everyone):
        return max(c.seq for c in everyone)  # the last action ended the game
    assert ready, f"nobody can act at seq {max(c.seq for c in everyone)}"
    client = seats[rnd.choice(ready)]
    action = rnd.choice([a for a in client.legal if a["type"] not in GIVE_UP] or client.legal)
    await client.send({"type": "act", "seq": client.seq, "action_id": f"p{n}", "action": action})
    answer = await client.expect("ack", "rejected")
    assert answer["type"] == "ack", answer
    for c in everyone:
        await c.wait_seq(answer["seq"])
    return int(answer["seq"])


def check_patch_frames(game: Game[Any], states: list[Any], client: PatchClient) -> int:
    """The frames ``check_no_leaks`` passes over (updates without a view): each patch holds
    no secret of its moment for its seat."""
    n = 0
    for text in client.raw:
        msg = json.loads(text)
        if msg.get("type") == "update" and "patch" in msg:
            assert_no_leak(
                msg, hidden(game, states[msg["seq"]], client.seat), f"patch @ {msg['seq']} to {client.seat}"
            )
            n += 1
    return n


@pytest.mark.parametrize(("game", "seed", "players", "limit"), [(DORASURE, 1, 4, 400), (DORN, 3, 3, 120)])
async def test_a_patched_client_holds_what_a_fresh_welcome_gives_at_every_step(
    server: ServerProcess, game: Game[Any], seed: int, players: int, limit: int
) -> None:
    # The server seeds each table itself, and a random game can end within a few dozen steps:
    # tables are played until more than 30 steps were checked.
    rnd = random.Random(seed)
    checked = 0
    for _table in range(10):
        checked += await patched_table_checked(server, game, seed, players, limit, rnd)
        if checked > 30:
            break
    assert checked > 30


async def patched_table_checked(
    server: ServerProcess, game: Game[Any], seed: int, players: int, limit: int, rnd: random.Random
) -> int:
    """One table played to its end or ``limit``, each step's patched docs checked; its steps."""
    _host, tid, tokens = four_hero_table(server, game, seed, players)
    url = server.ws_url(tid)
    seats = {s: PatchClient(url, t) for s, t in tokens.items()}
    spectators = [PatchClient(url), PatchClient(url)]
    plain = WsClient(url)  # takes no patches: whole views, as before
    everyone: list[WsClient] = [*seats.values(), *spectators, plain]
    for c in everyone:
        await c.connect()
    audiences: list[tuple[str | None, PatchClient]] = [
        *((s, c) for s, c in seats.items()),
        (None, spectators[0]),
    ]
    steps = 0
    while not any(c.finished for c in everyone) and steps < limit:
        seq = await act_once(seats, everyone, rnd, steps)
        steps += 1
        # A fresh welcome, for one audience in turn, is exactly what the patched client holds.
        seat, client = audiences[steps % len(audiences)]
        fresh = WsClient(url, tokens[seat] if seat is not None else None)
        welcome = await fresh.connect()
        assert welcome is not None and welcome["seq"] == seq == client.seq
        assert same(client.doc, as_doc(welcome)), f"{seat} at {seq}"
        await fresh.close()
        assert same(spectators[1].doc, {"v": plain.view, "l": plain.legal, "t": plain.to_act})
    seed_hex, states = stored_states(server.database_url, game, tid)
    for c in [*seats.values(), *spectators]:
        assert c.resyncs == 0 and c.patched > steps / 2, (c.seat, c.patched, c.whole)
        others = [t for s, t in tokens.items() if s != c.seat]
        assert check_no_leaks(game, states, c, seed_hex, others) > 0
        assert check_patch_frames(game, states, c) == c.patched
    # What a patched frame leaves out: the action id, but on the acting seat's own frames, and a
    # deadline that is not set (docs/protocol.md); the plain client's whole frames have both.
    told = {m["seq"]: m for m in map(json.loads, plain.raw) if m.get("type") == "update"}
    for c in [*seats.values(), *spectators]:
        for msg in (m for m in map(json.loads, c.raw) if m.get("type") == "update" and "patch" in m):
            whole = told[msg["seq"]]
            assert msg.get("action_id") == (whole["action_id"] if msg["by"] == c.seat else None), msg
            assert msg.get("deadline") == whole["deadline"] and ("deadline" in msg) == (whole["deadline"] is not None)
    # Patches are what makes the frames small: the spectators' against the plain client's.
    patched_bytes = sorted(len(t) for t in spectators[1].raw if '"patch"' in t)
    whole_bytes = sorted(len(t) for t in plain.raw if t.startswith('{"type":"update"'))
    assert patched_bytes[len(patched_bytes) // 2] < whole_bytes[len(whole_bytes) // 2] / 2
    for c in everyone:
        await c.close()
    return steps


def update_frame(client: WsClient, seq: int) -> dict[str, Any]:
    return next(
        m for m in map(json.loads, reversed(client.raw)) if m.get("type") == "update" and m["seq"] == seq
    )


async def test_a_corrupted_view_or_a_missed_update_is_resynced(server: ServerProcess) -> None:
    _host, tid, tokens = four_hero_table(server, DORASURE, 2, 4)
    url = server.ws_url(tid)
    seats = {s: PatchClient(url, t) for s, t in tokens.items()}
    # Broken on purpose: a second connection of a seat (its seat's view) and a spectator; they
    # do not act, so a view of theirs a step behind never makes an action stale.
    broken = [PatchClient(url, next(iter(tokens.values()))), PatchClient(url)]
    everyone: list[WsClient] = [*seats.values(), *broken]
    for c in everyone:
        await c.connect()
    rnd = random.Random(7)
    ids = itertools.count()
    for breakage in ["corrupt", "skip", "wrong base", "corrupt", "skip"]:
        await act_once(seats, everyone, rnd, next(ids))
        if any(c.finished for c in everyone):
            break
        before = [c.resyncs for c in broken]
        if breakage == "skip":
            # The lost update is noticed when the next one comes: its seq leaves a gap.
            for c in broken:
                c.skip_next = True
            lost = await act_once(seats, [c for c in everyone if c not in broken], rnd, next(ids))
        for c in broken:
            if breakage == "corrupt":
                c.corrupt()
            elif breakage == "wrong base":
                c.doc = {"v": {}, "l": [], "t": []}  # a patch's paths are not there
        seq = await act_once(seats, everyone, rnd, next(ids))
        for c, resyncs in zip(broken, before, strict=True):
            # Each noticed (a whole view would have mended it without asking), asked again, and
            # holds the right view at the new seq; the welcome that answered brings the
            # updates it did not take in its ``missed``.
            if breakage == "skip" or "patch" in update_frame(c, seq):
                assert c.resyncs == resyncs + 1, (breakage, c.seat)
                answer = c.welcomes[-1]
                assert answer["seq"] == seq
                assert [m["seq"] for m in answer["missed"]] == ([lost, seq] if breakage == "skip" else [seq])
            fresh = WsClient(url, c.token)
            welcome = await fresh.connect()
            assert welcome is not None and c.seq == welcome["seq"] == seq
            assert same(c.doc, as_doc(welcome)), breakage
            await fresh.close()
    assert all(c.resyncs >= 3 for c in broken)
    patched = [c.patched for c in broken]
    for _ in range(6):  # and patches fit again after
        if any(c.finished for c in everyone):
            break
        await act_once(seats, everyone, rnd, next(ids))
    assert all(c.patched > p for c, p in zip(broken, patched, strict=True))
    for c in everyone:
        await c.close()


async def test_with_patches_off_everyone_gets_whole_views(tmp_path: Path) -> None:
    env = {"DRAGONTABLE_VIEW_PATCHES": "0"}
    with ServerProcess(
        f"sqlite:///{tmp_path / 'off.db'}", env=env, log_path=tmp_path / "server.log"
    ) as server:
        _host, tid, tokens = four_hero_table(server, DORASURE, 1, 4)
        seats = {s: PatchClient(server.ws_url(tid), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        rnd = random.Random(1)
        for n in range(8):
            await act_once(seats, list(seats.values()), rnd, n)
        for c in seats.values():
            assert c.patched == 0 and c.whole >= 8 and not any('"patch"' in t for t in c.raw)
            await c.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
