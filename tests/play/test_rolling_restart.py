"""A rolling restart of two workers under load (issue 16, point 4), on PostgreSQL + Redis.

SIGTERM makes a worker stop accepting, close its WebSockets with 1012 (service restart), let
the commits in flight finish and exit.  Its clients reconnect to the other worker with their
last seq and resend an unanswered action under the same id.  Each worker is restarted in turn
while the seats keep playing: no acknowledged action is lost, none is applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
from pathlib import Path

import pytest
import websockets

from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, start_table

REDIS = "redis://127.0.0.1:6379/0"
pytestmark = [pytest.mark.postgres, pytest.mark.redis]


class Seat:
    """One player, who follows the table from whichever worker is up."""

    def __init__(self, workers: dict[str, ServerProcess], name: str, table_id: str, token: str) -> None:
        self.workers, self.name, self.table_id, self.token = workers, name, table_id, token
        self.client: WsClient | None = None
        self.closes: list[int | None] = []

    async def connect(self, prefer: str) -> None:
        order = [prefer, *(w for w in self.workers if w != prefer)]
        last = self.client.seq if self.client else None
        for worker in order:
            server = self.workers[worker]
            if server.proc is None or server.proc.poll() is not None:
                continue
            client = WsClient(server.ws_url(self.table_id), self.token)
            try:
                await client.connect(last_seq=last)
            except (OSError, ConnectionError):
                continue
            if self.client is not None:
                client.raw = self.client.raw + client.raw
            self.client = client
            return
        raise AssertionError("no worker is up")

    async def act(self, action_id: str, action: dict, prefer: str) -> int:
        """Send until acknowledged: a restart in between is answered by resending the same id at
        the same seq (the server acks an id it committed, and says ``stale`` for one it did not
        if the table has moved on since)."""
        assert self.client is not None
        seq = self.client.seq
        for _ in range(10):
            try:
                await self.client.send({"type": "act", "seq": seq, "action_id": action_id, "action": action})
                answer = await self.client.expect("ack", "rejected", timeout=10)
            except (ConnectionError, OSError, TimeoutError, websockets.ConnectionClosed):
                # The worker went away mid-action: the same id again, on the other worker.
                with contextlib.suppress(TimeoutError):
                    self.closes.append(await self.client.wait_closed(5))
                await self.connect(prefer)
                continue
            if answer["type"] == "ack":
                return int(answer["seq"])
            assert answer["code"] == "stale", answer
            await self.client.wait_seq(answer["seq"])
            raise LookupError("the table moved on")
        raise AssertionError("no worker acknowledged the action")


async def test_rolling_restart_loses_and_doubles_nothing(pg_url: str, tmp_path: Path) -> None:
    log = tmp_path / "workers.log"
    env = {"DRAGONTABLE_SHUTDOWN_SECONDS": "5"}
    workers = {w: ServerProcess(pg_url, redis_url=REDIS, env=env, log_path=log).start() for w in ("a", "b")}
    try:
        api = Api(workers["a"].base_url)
        tid, tokens = start_table(api, options={"players": 3, "target": 120})
        seats = {s: Seat(workers, s, tid, t) for s, t in tokens.items()}
        homes = {"p1": "a", "p2": "b", "p3": "a"}
        for s, seat in seats.items():
            await seat.connect(homes[s])
        rnd = random.Random(3)
        acked: dict[str, int] = {}
        n = 0

        async def play(count: int) -> None:
            nonlocal n
            for _ in range(count):
                ready = [s for s, seat in seats.items() if seat.client and seat.client.seat in seat.client.to_act]
                if not ready or any(seat.client and seat.client.finished for seat in seats.values()):
                    return
                name = rnd.choice(sorted(ready))
                seat = seats[name]
                aid = f"r{n}"
                n += 1
                try:
                    acked[aid] = await seat.act(aid, rnd.choice(seat.client.legal), homes[name])
                except LookupError:
                    continue
                for other in seats.values():
                    # A seat whose worker is going away hears 1012 here: it comes back when it
                    # next acts, or after the restart, like the browser.
                    with contextlib.suppress(ConnectionError, TimeoutError):
                        await other.client.wait_seq(acked[aid])

        await play(8)
        for down, up in (("a", "b"), ("b", "a")):
            victim = workers[down]
            prefix = f"ws://127.0.0.1:{victim.port}/"
            # Under load: the SIGTERM lands while the seats keep acting.
            task = asyncio.create_task(play(12))
            await asyncio.sleep(0.05)
            victim.proc.send_signal(signal.SIGTERM)
            await asyncio.to_thread(victim.proc.wait, 15)
            await task
            for seat in seats.values():
                if seat.client.url.startswith(prefix):
                    seat.closes.append(await seat.client.wait_closed(5))  # told to go, not dropped
                    await seat.connect(up)
            assert 1012 in {code for seat in seats.values() for code in seat.closes}
            workers[down] = ServerProcess(pg_url, port=victim.port, redis_url=REDIS, env=env, log_path=log).start()
            await play(8)
        await play(500)

        record = Api(workers["a"].base_url, "reader").export(tid)
        ids = [a["action_id"] for a in record["actions"]]
        assert len(ids) == len(set(ids)), "an action was applied twice"
        assert set(acked) <= set(ids), "an acknowledged action was lost"
        assert [a["seq"] for a in record["actions"]] == list(range(1, len(ids) + 1))
        assert {acked[a] for a in acked} == {a["seq"] for a in record["actions"] if a["action_id"] in acked}
        if record["complete"]:
            assert verify_record(record).startswith("OK")
        for seat in seats.values():
            await seat.client.close()
    finally:
        for server in workers.values():
            server.stop()
    assert "Traceback" not in log.read_text()
