"""Every event that changes who must act, or who is here to act, re-arms the table's clock,
and the server's own answers can neither be collided with nor retried in a loop.

Issue 9, defect 2 (a client's ``action_id`` equal to the id the server would mint for another
seat's timeout answer froze the table and burnt a core) and defect 3 (a seat that left through
``POST /leave`` while it owed the decision was never answered for).  The toy game's seat that
is not connected is answered for after the table's prompt timeout (1 s here).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table


async def answered_for(client: WsClient, seat: str, timeout: float = 8.0) -> dict:
    """The next update in which the server acted for ``seat`` (fails if none comes in time)."""
    while True:
        update = await client.expect("update", timeout=timeout)
        if update.get("auto") and update["by"] == seat:
            return update


async def two_seats_p2_owes(server: ServerProcess, api: Api) -> tuple[str, dict[str, str], WsClient, WsClient]:
    """A live two-seat table where p1 has just rolled (seq 1) and p2 owes the next turn."""
    tid, tokens = start_table(api, options={"players": 2, "target": 200}, prompt_timeout_seconds=1)
    p1, p2 = WsClient(server.ws_url(tid), tokens["p1"]), WsClient(server.ws_url(tid), tokens["p2"])
    await p1.connect()
    await p2.connect()
    await p1.send({"type": "act", "seq": 0, "action_id": "first", "action": {"type": "roll"}})
    assert (await p1.expect("ack", "rejected"))["type"] == "ack"
    await p2.wait_seq(1)
    assert "p2" in p2.to_act
    return tid, tokens, p1, p2


async def test_leaving_while_owing_the_decision_is_answered_for(server: ServerProcess, api: Api) -> None:
    tid, _tokens, p1, p2 = await two_seats_p2_owes(server, api)
    reply = api.post(f"/api/tables/{tid}/leave", {"seat": "p2"})
    assert reply.status_code == 200, reply.text
    assert await p2.wait_closed() == 4401  # its connection is told the seat is no longer its own
    update = await answered_for(p1, "p2")
    assert update["seq"] == 2
    await p1.close()


async def test_a_seat_taken_over_elsewhere_and_not_reconnected_is_answered_for(
    server: ServerProcess, api: Api
) -> None:
    tid, _tokens, p1, p2 = await two_seats_p2_owes(server, api)
    api.join(tid, "p2")  # a new token (another browser) that never connects
    assert await p2.wait_closed() == 4401
    assert (await answered_for(p1, "p2"))["seq"] == 2
    await p1.close()


async def test_a_disconnected_seat_is_answered_for(server: ServerProcess, api: Api) -> None:
    _tid, _tokens, p1, p2 = await two_seats_p2_owes(server, api)
    await p2.close()
    assert (await answered_for(p1, "p2"))["seq"] == 2
    await p1.close()


async def test_a_forged_server_id_neither_collides_nor_freezes_the_table(server: ServerProcess, api: Api) -> None:
    tid, tokens = start_table(api, options={"players": 2, "target": 200}, prompt_timeout_seconds=1)
    p1 = WsClient(server.ws_url(tid), tokens["p1"])
    await p1.connect()  # p2 never comes: the server answers for it at seq 2
    forged = "auto:2:p2"
    await p1.send({"type": "act", "seq": 0, "action_id": forged, "action": {"type": "roll"}})
    answer = await p1.expect("ack", "rejected", "error")
    # Client ids may not enter the server's namespace; a server that took one would have to
    # step over it.  Either way the timeout answer below must come, once, under its own id.
    taken = answer["type"] == "ack"
    if not taken:
        assert answer["code"] == "bad_message", answer
        await p1.send({"type": "act", "seq": 0, "action_id": "plain", "action": {"type": "roll"}})
        assert (await p1.expect("ack"))["seq"] == 1
    update = await answered_for(p1, "p2")
    assert update["seq"] == 2 and update["action_id"].startswith("auto:2:p2")
    assert not taken or update["action_id"] != forged
    # The table plays on: once it is p1's to act again (the server answers for p2 meanwhile).
    while "p1" not in p1.to_act:
        await p1.expect("update", timeout=8)
    seq = p1.seq
    await p1.send({"type": "act", "seq": seq, "action_id": "again", "action": p1.legal[0]})
    answer = await p1.expect("ack", "rejected")
    assert answer["type"] == "ack" and answer["seq"] == seq + 1, answer
    await p1.close()


async def test_after_a_restart_an_absent_seat_is_answered_for(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    server = ServerProcess(db, log_path=tmp_path / "server.log").start()
    try:
        api = Api(server.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 200}, prompt_timeout_seconds=1)
        seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        await play_random(seats, [], random.Random(2), stop_after=3)
        server.kill()
        for c in seats.values():
            await c.wait_closed()
        server = ServerProcess(db, port=server.port, log_path=tmp_path / "server.log").start()
        # Only the seat that is not owed anything comes back.
        owing = seats["p1"].to_act[0]
        back = seats["p2" if owing == "p1" else "p1"]
        welcome = await back.connect(last_seq=back.seq)
        assert welcome["seq"] == 3 and welcome["deadline"] is not None
        assert (await answered_for(back, owing))["seq"] == 4
        await back.close()
    finally:
        server.stop()


async def test_the_seats_here_are_told_the_deadline_an_arrival_or_departure_moved(
    server: ServerProcess, api: Api
) -> None:
    """An absent seat that owes the decision is answered for after the prompt timeout; its
    person coming back puts it on the turn clock again.  The seat already here hears the new
    deadline in the presence frame (it once kept the absent seat's shorter one: a browser showed
    "0:15 left" under a 30 s clock until the next action)."""
    tid, tokens = start_table(api, options={"players": 2, "target": 200}, prompt_timeout_seconds=40,
                              turn_clock_seconds=600)  # fmt: skip
    p1 = WsClient(server.ws_url(tid), tokens["p1"])
    await p1.connect()
    # A swap, never a roll: a 6 would leave p2 a prompt (cheer or boo), timed by the prompt
    # timeout whether p2 is here or not.
    assert {"type": "swap"} in p1.legal
    asked = time.time()
    await p1.send({"type": "act", "seq": 0, "action_id": "first", "action": {"type": "swap"}})
    await p1.wait_seq(1)
    assert p1.to_act == ["p2"]
    update = next(m for m in map(json.loads, reversed(p1.raw)) if m["type"] == "update")
    away = update["deadline"]  # p2 is not here: the prompt timeout
    assert away is not None and asked + 30 < away < asked + 60

    async def presence_with(connected: list[str]) -> dict:
        while True:
            frame = await p1.expect("presence", timeout=8)
            if frame["connected"] == connected:
                return frame

    p2 = WsClient(server.ws_url(tid), tokens["p2"])
    welcome = await p2.connect(last_seq=1)
    back = (await presence_with(["p1", "p2"]))["deadline"]
    assert back == welcome["deadline"] and back > away + 500  # the turn clock, from when p2 was asked
    await p2.close()
    gone = (await presence_with(["p1"]))["deadline"]
    assert gone is not None and gone < back - 500  # the prompt timeout again, from the leaving
    await p1.close()
