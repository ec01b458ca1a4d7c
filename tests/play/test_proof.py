"""State hashes at proof points: the log records some, the export fills the rest by replay,
and a log that does not replay to a recorded hash is refused everywhere."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import httpx

from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table
from .helpers import states_of

ENV = {"DRAGONTABLE_HASH_EVERY": "3", "DRAGONTABLE_SNAPSHOT_EVERY": "7"}


async def test_hashes_at_proof_points_export_fills_them_and_a_broken_log_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "proof.db"
    server = ServerProcess(f"sqlite:///{db}", env=ENV, log_path=tmp_path / "server.log").start()
    try:
        api = Api(server.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 40})
        seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        acked = await play_random(seats, [], random.Random(3))
        n = len(acked)
        assert n >= 10
        with sqlite3.connect(db) as conn:
            recorded = dict(conn.execute("SELECT seq, state_hash FROM action WHERE table_id = ?", (tid,)))
        # Every 3rd action, every snapshot (7th) and the last one; nothing else on the hot path.
        proof = {q for q in range(1, n + 1) if q % 3 == 0 or q % 7 == 0 or q == n}
        assert {q for q, h in recorded.items() if h is not None} == proof

        record = api.export(tid)
        game = get_game("toy")
        states = states_of(game, record)
        assert [a["hash"] for a in record["actions"]] == [state_hash(game, s) for s in states[1:]]
        assert record["final_hash"] == recorded[n]
        assert verify_record(record).startswith("OK")
        for c in seats.values():
            await c.close()

        # A recorded hash the log does not replay to: the export refuses with a 4xx...
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE action SET state_hash = ? WHERE table_id = ? AND seq = 6", ("0" * 64, tid))
        reply = httpx.get(f"{server.base_url}/api/tables/{tid}/export")
        assert reply.status_code == 409 and reply.json()["code"] == "log_broken"
        assert "seq 6" in reply.json()["message"]
        # ...and a restarted server, replaying from the seed (no snapshot to start from),
        # will not serve the table from it.
        with sqlite3.connect(db) as conn:
            conn.execute("DELETE FROM snapshot WHERE table_id = ?", (tid,))
        server.kill()
        server = ServerProcess(f"sqlite:///{db}", port=server.port, env=ENV, log_path=tmp_path / "server.log")
        server.start()
        client = WsClient(server.ws_url(tid), tokens["p1"])
        await client.connect(hello=False)
        error = await client.expect("error")
        assert error["code"] == "unavailable"
        await client.wait_closed()
        assert client.close_code == 1011
    finally:
        server.stop()
