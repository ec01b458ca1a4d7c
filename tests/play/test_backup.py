"""Backups (issue 16, point 5): a consistent SQLite copy taken while the server commits, put
back with ``restore``; every finished game's record exported in bulk, and each verifies."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

from backend.play.record import verify_record

from ..server_fixtures import ROOT, Api, ServerProcess, WsClient, play_random, start_table


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "backend", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                            "DRAGONTABLE_EXTRA_GAMES": "toy=tests.play.toygame:GAME"})  # fmt: skip


async def test_backup_while_serving_then_restore_and_verify_every_record(tmp_path: Path) -> None:
    live_db, copy, restored = tmp_path / "live.db", tmp_path / "copy.db", tmp_path / "restored.db"
    env = {"DRAGONTABLE_RATE_PER_SECOND": "1000", "DRAGONTABLE_RATE_BURST": "1000"}
    with ServerProcess(f"sqlite:///{live_db}", env=env, log_path=tmp_path / "server.log") as server:
        api = Api(server.base_url)
        finished_ids = []
        for seed in (1, 2):
            tid, tokens = start_table(api, options={"players": 2, "target": 25})
            seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
            for c in seats.values():
                await c.connect()
            await play_random(seats, [], random.Random(seed))
            finished_ids.append(tid)
            for c in seats.values():
                await c.close()
        # A table that keeps playing while the copy is taken.
        busy, tokens = start_table(api, options={"players": 2, "target": 200})
        seats = {s: WsClient(server.ws_url(busy), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        playing = asyncio.create_task(play_random(seats, [], random.Random(9), stop_after=60))
        await asyncio.sleep(0.2)
        done = await asyncio.to_thread(cli, "backup", str(copy), "--database-url", f"sqlite:///{live_db}")
        assert done.returncode == 0, done.stderr
        await playing
        for c in seats.values():
            await c.close()

    assert cli("restore", str(copy), "--database-url", f"sqlite:///{live_db}").returncode == 1  # exists: no --force
    done = cli("restore", str(copy), "--database-url", f"sqlite:///{restored}")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "records"
    done = cli("export-records", str(out), "--database-url", f"sqlite:///{restored}")
    assert done.returncode == 0, done.stderr
    records = {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")}
    assert set(records) == set(finished_ids)
    for record in records.values():
        assert verify_record(record).startswith("OK")

    # The restored database serves: the busy table opens at a seq it had reached, and plays on.
    with ServerProcess(f"sqlite:///{restored}", env=env, log_path=tmp_path / "server.log") as server:
        seats = {s: WsClient(server.ws_url(busy), t) for s, t in tokens.items()}
        for c in seats.values():
            welcome = await c.connect()
            assert 0 < welcome["seq"] <= 60
        acked = await play_random(seats, [], random.Random(4), stop_after=5, prefix="after")
        assert len(acked) == 5
        for c in seats.values():
            await c.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
