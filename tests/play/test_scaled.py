"""The scaled path for real: two app instances on one PostgreSQL database, fanning out over Redis."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table

REDIS = "redis://127.0.0.1:6379/0"

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def test_two_workers_share_tables_over_postgres_and_redis(pg_url: str, tmp_path: Path) -> None:
    log = tmp_path / "servers.log"
    a = ServerProcess(pg_url, redis_url=REDIS, log_path=log).start()
    b = ServerProcess(pg_url, redis_url=REDIS, log_path=log).start()
    try:
        # Created and started through worker A; played through both.
        api = Api(a.base_url)
        tid, tokens = start_table(api, options={"players": 3, "target": 200})
        seats = {
            "p1": WsClient(a.ws_url(tid), tokens["p1"]),
            "p2": WsClient(b.ws_url(tid), tokens["p2"]),
            "p3": WsClient(b.ws_url(tid), tokens["p3"]),
        }
        watchers = [WsClient(a.ws_url(tid)), WsClient(b.ws_url(tid))]
        for c in [*seats.values(), *watchers]:
            await c.connect()
        # Presence crosses workers: A's spectator sees the seats connected on B.
        while True:
            presence = await watchers[0].expect("presence")
            if presence["connected"] == ["p1", "p2", "p3"] and presence["spectators"] == 2:
                break
        rnd = random.Random(5)
        await play_random(seats, watchers, rnd, stop_after=12, prefix="x")

        # Two seats on different workers answer one prompt at the same seq: the
        # database decides, exactly one wins, and every replica agrees afterwards.
        n = 0
        while len(seats["p1"].to_act) < 2:
            actor = next(c for c in seats.values() if c.seat in c.to_act)
            # Roll (or answer a prompt left over from the random play) until a six asks two seats.
            action = {"type": "roll"} if {"type": "roll"} in actor.legal else actor.legal[0]
            await actor.send({"type": "act", "seq": actor.seq, "action_id": f"r{n}", "action": action})
            answer = await actor.expect("ack", "rejected")
            assert answer["type"] == "ack", answer
            seq = answer["seq"]
            for c in [*seats.values(), *watchers]:
                await c.wait_seq(seq)
            n += 1
        pair = [c for c in seats.values() if c.seat in c.to_act]
        if all(c.url.startswith(b.ws_url("")) for c in pair):
            # Both asked seats are on B: move one to A, so the race crosses workers.
            moved = WsClient(a.ws_url(tid), tokens[pair[0].seat])
            await pair[0].close()
            await moved.connect(last_seq=pair[0].seq)
            seats[pair[0].seat] = moved
            pair[0] = moved
        assert {c.url for c in pair} == {a.ws_url(tid), b.ws_url(tid)}
        seq = pair[0].seq
        await asyncio.gather(
            *(
                c.send({"type": "act", "seq": seq, "action_id": f"race-{c.seat}", "action": {"type": "boo"}})
                for c in pair
            )
        )
        answers = [await c.expect("ack", "rejected") for c in pair]
        assert sorted(x["type"] for x in answers) == ["ack", "rejected"], answers
        for c in [*seats.values(), *watchers]:
            await c.wait_seq(seq + 1)
        assert len({str(c.view) for c in watchers}) == 1

        chat_from_b = seats["p2"]
        await chat_from_b.send({"type": "chat", "text": "hello from B"})
        assert (await watchers[0].expect("chat"))["text"] == "hello from B"

        # Play on; both workers' spectators and the database agree.
        await play_random(seats, watchers, rnd, stop_after=10, prefix="y")
        record = Api(b.base_url, "other").export(tid)
        assert len(record["actions"]) == watchers[0].seq == watchers[1].seq
        assert watchers[0].view == watchers[1].view
        for c in [*seats.values(), *watchers]:
            await c.close()
    finally:
        a.stop()
        b.stop()
    assert "Traceback" not in log.read_text()


async def test_postgres_full_game_verifies(pg_url: str, tmp_path: Path) -> None:
    with ServerProcess(pg_url, log_path=tmp_path / "pg.log") as server:
        api = Api(server.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 25})
        seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        await play_random(seats, [], random.Random(9))
        assert verify_record(api.export(tid)).startswith("OK")
        for c in seats.values():
            await c.close()


async def test_a_replica_that_catches_up_arms_the_clock(pg_url: str, tmp_path: Path) -> None:
    """Worker B hears of an action through the bus (or the log) and must itself answer for the
    seat that now owes the decision: A, where the action was taken, is killed right after."""
    log = tmp_path / "servers.log"
    a = ServerProcess(pg_url, redis_url=REDIS, log_path=log).start()
    b = ServerProcess(pg_url, redis_url=REDIS, log_path=log).start()
    try:
        api = Api(a.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 200}, prompt_timeout_seconds=1)
        p1 = WsClient(a.ws_url(tid), tokens["p1"])
        watcher = WsClient(b.ws_url(tid))
        await p1.connect()
        await watcher.connect()  # p2 never comes
        await p1.send({"type": "act", "seq": 0, "action_id": "go", "action": {"type": "roll"}})
        assert (await p1.expect("ack"))["seq"] == 1
        await watcher.wait_seq(1)
        a.kill()
        while True:
            update = await watcher.expect("update", timeout=10)
            if update["seq"] == 2:
                break
        assert update["auto"] is True and update["by"] == "p2"
        await watcher.close()
    finally:
        a.stop()
        b.stop()
