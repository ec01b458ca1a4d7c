"""Every screen can show the whole game's log (issue 13, point 1): a ``history`` request pages
back through the table's past, with exactly the events that seat was sent live.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table


async def page(client: WsClient, **ask: int) -> dict:
    await client.send({"type": "history", **ask})
    return await client.expect("history")


async def test_a_late_spectator_and_a_reloaded_seat_get_the_whole_log(tmp_path: Path) -> None:
    # A small ring, so most of the log comes from the database, as after a restart.
    env = {"DRAGONTABLE_MISSED_RING": "8", "DRAGONTABLE_RATE_PER_SECOND": "1000", "DRAGONTABLE_RATE_BURST": "1000"}
    with ServerProcess(f"sqlite:///{tmp_path / 'h.db'}", env=env, log_path=tmp_path / "server.log") as server:
        api = Api(server.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 200})
        seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        await play_random(seats, [], random.Random(7), stop_after=30)
        live = {s: [m for m in map(json.loads, c.raw) if m.get("type") == "update"]
                for s, c in seats.items()}  # fmt: skip

        late = WsClient(server.ws_url(tid))
        welcome = await late.connect()
        assert welcome["seq"] == 30 and welcome["missed"] == []
        whole = await page(late)
        assert whole["complete"] is True
        # Seq 0 is the setup, whose events explain what it did (the toy deals a card each).
        setup, *played = whole["entries"]
        assert setup == {"type": "update", "seq": 0, "events": [{"kind": "dealt", "cards": 2}],
                         "by": None, "action_id": None, "auto": False}  # fmt: skip
        assert [e["seq"] for e in played] == list(range(1, 31))
        # A spectator gets the public events only: the same as p1 got, less p1's own card.
        public = [[e for e in u["events"] if e["kind"] != "your_card"] for u in live["p1"]]
        assert [e["events"] for e in played] == public

        # A seat that reloads gets its own private events back too, and pages from the end.
        back = WsClient(server.ws_url(tid), tokens["p1"])
        await back.connect()
        last = await page(back, limit=10)
        assert [e["seq"] for e in last["entries"]] == list(range(21, 31)) and last["complete"] is False
        earlier = await page(back, before=21, limit=500)
        assert [e["seq"] for e in earlier["entries"]] == list(range(0, 21)) and earlier["complete"] is True
        played = earlier["entries"][1:] + last["entries"]
        assert [e["events"] for e in played] == [u["events"] for u in live["p1"]]
        assert [e["seq"] for e in (await page(back, before=1))["entries"]] == [0]

        await late.send({"type": "history", "limit": 10_000})
        assert (await late.expect("error"))["code"] == "bad_message"
        for c in [*seats.values(), late, back]:
            await c.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
