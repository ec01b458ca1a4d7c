"""SIGKILL the server mid-game, start it again: nothing acknowledged is lost and play goes on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table
from .helpers import without_hashes


async def test_sigkill_mid_game_then_restart_and_finish(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    # Snapshots every 4 actions, so the restart loads snapshot + replay of later actions.
    env = {"DRAGONTABLE_SNAPSHOT_EVERY": "4"}
    server = ServerProcess(db, env=env, log_path=tmp_path / "server.log").start()
    try:
        api = Api(server.base_url)
        tid, tokens = start_table(api, options={"players": 3, "target": 40})
        url = server.ws_url(tid)
        seats = {s: WsClient(url, t) for s, t in tokens.items()}
        spectator = WsClient(url)
        for c in [*seats.values(), spectator]:
            await c.connect()
        rnd = random.Random(11)
        await play_random(seats, [spectator], rnd, stop_after=10, prefix="before")
        before = api.export(tid)
        assert len(before["actions"]) == 10
        views = {s: c.view for s, c in seats.items()}

        # One more action in flight, then SIGKILL at once.
        actor = next(c for c in seats.values() if c.seat in c.to_act)
        await actor.send({"type": "act", "seq": 10, "action_id": "in-flight", "action": {"type": "roll"}})
        await asyncio.sleep(0.005)
        server.kill()
        acked_in_flight = any('"action_id":"in-flight"' in t and '"type":"ack"' in t for t in actor.raw)
        for c in [*seats.values(), spectator]:
            await c.wait_closed()
            assert c.close_code is not None

        server = ServerProcess(db, port=server.port, env=env, log_path=tmp_path / "server.log").start()
        after = api.export(tid)
        n = len(after["actions"])
        assert n in (10, 11) and (n == 11 or not acked_in_flight), "an acknowledged action was lost"
        assert after["actions"][:10] == before["actions"]
        # A live record has no hashes (they open with the seed): the views below show the
        # restarted state is the one the players saw.
        assert after["complete"] is False and after["final_hash"] is None

        # Everyone reconnects with their last seq and plays on to the end.
        for s, c in seats.items():
            last = c.seq
            welcome = await c.connect(last_seq=last)
            assert welcome["seq"] == n
            assert [m["seq"] for m in welcome["missed"]] == list(range(last + 1, n + 1))
            if n == 10:
                assert welcome["view"] == views[s]
        await spectator.connect(last_seq=spectator.seq)
        await play_random(seats, [spectator], rnd, prefix="after")
        final = api.export(tid)
        assert final["seed"] and without_hashes(final["actions"][:n]) == after["actions"]
        assert verify_record(final).startswith("OK")
        for c in [*seats.values(), spectator]:
            await c.close()
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
