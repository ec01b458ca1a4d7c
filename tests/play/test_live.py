"""Live tables over real WebSockets against a uvicorn subprocess (toy game)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import websockets

from backend.engine.registry import get_game
from backend.engine.replay import state_hash

from ..server_fixtures import ROOT, Api, ServerProcess, WsClient, play_random, start_table
from .helpers import check_no_leaks, states_of


async def test_full_game_with_spectator_no_leaks_and_verify(server, api, tmp_path: Path) -> None:
    game = get_game("toy")
    tid, tokens = start_table(api, options={"players": 3, "target": 20})
    seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
    spectator = WsClient(server.ws_url(tid))
    for c in [*seats.values(), spectator]:
        welcome = await c.connect()
        assert welcome["static"] == {
            "track_length": 20,
            "colours": game.static_info({"target": 20})["colours"],
        }
        assert len(welcome["table"]["commitment"]) == 64
    acked = await play_random(seats, [spectator], random.Random(7))
    assert acked == list(range(1, len(acked) + 1))
    for c in [*seats.values(), spectator]:
        await c.expect("finished") if c.finished is None else None
    record = api.export(tid)
    assert record["seed"] == spectator.finished["seed"]
    states = states_of(game, record)
    final = states[-1]
    assert state_hash(game, final) == record["final_hash"] and len(states) - 1 == spectator.seq
    for c in [*seats.values(), spectator]:
        assert c.view == game.view(final, c.seat, reveal=True)
        others = [t for s, t in tokens.items() if s != c.seat]
        assert check_no_leaks(game, states, c, record["seed"], others) > len(acked)
        await c.close()
    # Provably fair: the record verifies, and a tampered one does not.
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    env = {"PYTHONPATH": str(ROOT), "DRAGONTABLE_EXTRA_GAMES": "toy=tests.play.toygame:GAME", "PATH": ""}
    ok = subprocess.run(
        [sys.executable, "-m", "backend", "verify", str(path)], env=env, capture_output=True, text=True
    )
    assert ok.returncode == 0 and ok.stdout.startswith("OK"), ok.stderr
    rolls = [i for i, a in enumerate(record["actions"]) if a["action"]["type"] == "roll"]
    bad_seed = dict(record, seed="00" * 32)
    bad_roll = json.loads(json.dumps(record))
    bad_roll["actions"][rolls[0]]["hash"] = "0" * 64
    # The schema first (docs/record.schema.json): a record with a field it does not know fails there.
    off_schema = dict(record, extra="?")
    cases = ((bad_seed, "commitment"), (bad_roll, f"seq {rolls[0] + 1}"), (off_schema, "schema"))
    for tampered, why in cases:
        path.write_text(json.dumps(tampered))
        res = subprocess.run(
            [sys.executable, "-m", "backend", "verify", str(path)], env=env, capture_output=True, text=True
        )
        assert res.returncode == 1 and why in res.stderr, res.stderr
    replay = httpx.get(f"{server.base_url}/api/tables/{tid}/replay").json()
    assert len(replay["frames"]) == len(acked) + 1
    assert replay["frames"][-1]["view"] == game.view(final, None, reveal=True)


async def roll_until_prompt(seats: dict[str, WsClient], watchers: list[WsClient]) -> None:
    """Roll (never swap) until a six asks two seats at once."""
    everyone = [*seats.values(), *watchers]
    n = 0
    while len(next(iter(seats.values())).to_act) < 2:
        actor = next(c for c in seats.values() if c.seat in c.to_act)
        await actor.send({"type": "act", "seq": actor.seq, "action_id": f"r{n}", "action": {"type": "roll"}})
        answer = await actor.expect("ack")
        for c in everyone:
            await c.wait_seq(answer["seq"])
        n += 1


async def test_every_abuse_gets_its_documented_answer(server, api) -> None:
    tid, tokens = start_table(api, options={"players": 3, "target": 200})
    url = server.ws_url(tid)
    p1, p2, p3 = (WsClient(url, tokens[s]) for s in ("p1", "p2", "p3"))
    spectator = WsClient(url)
    for c in (p1, p2, p3, spectator):
        await c.connect()

    # Malformed and unknown messages: an error, and the connection stays usable.
    for text, code in (
        ("{not json", "malformed"),
        ("[1,2]", "malformed"),
        ('{"type":"dance"}', "unknown_type"),
        ('{"type":"act","action":{}}', "bad_message"),
        ('{"type":"hello"}', "already_hello"),
    ):
        await p1.send(text)
        assert (await p1.expect("error"))["code"] == code
    # Nesting past the parser's bound is malformed too, and the answer says why.
    await p1.send('{"type":"act","action":' + "[" * 1100 + "]" * 1100 + "}")
    error = await p1.expect("error")
    assert error["code"] == "malformed" and "1024 levels" in error["message"]
    await p1.send("{not json")
    assert "not valid JSON" in (await p1.expect("error"))["message"]
    await p1.send({"type": "ping"})
    await p1.expect("pong")

    # A spectator cannot act; a seat cannot act out of turn.
    await spectator.send({"type": "act", "seq": 0, "action_id": "s1", "action": {"type": "roll"}})
    assert (await spectator.expect("rejected"))["code"] == "not_a_seat"
    await p2.send({"type": "act", "seq": 0, "action_id": "x1", "action": {"type": "roll"}})
    assert (await p2.expect("rejected"))["code"] == "not_your_turn"

    # The first action; its retry is answered with the same seq and applied once.
    await p1.send({"type": "act", "seq": 0, "action_id": "first", "action": {"type": "roll"}})
    assert (await p1.expect("ack", "rejected")) == {"type": "ack", "action_id": "first", "seq": 1}
    await p1.wait_seq(1)
    await p1.send({"type": "act", "seq": 0, "action_id": "first", "action": {"type": "roll"}})
    assert (await p1.expect("ack", "rejected")) == {"type": "ack", "action_id": "first", "seq": 1}
    # Someone else reusing that id is refused; a stale seq is refused with the current one.
    await p2.wait_seq(1)
    await p2.send({"type": "act", "seq": 1, "action_id": "first", "action": {"type": "roll"}})
    assert (await p2.expect("rejected"))["code"] == "duplicate_action_id"
    actor = next(c for c in (p1, p2, p3) if c.seat in c.to_act)
    await actor.send({"type": "act", "seq": 0, "action_id": "old", "action": {"type": "roll"}})
    stale = await actor.expect("rejected")
    assert stale["code"] == "stale" and stale["seq"] == 1

    # Two seats answering a prompt at the same moment with the same seq: exactly one wins.
    await roll_until_prompt({"p1": p1, "p2": p2, "p3": p3}, [spectator])
    a, b = (c for c in (p1, p2, p3) if c.seat in c.to_act)
    seq = a.seq
    await asyncio.gather(
        a.send({"type": "act", "seq": seq, "action_id": "race-a", "action": {"type": "boo"}}),
        b.send({"type": "act", "seq": seq, "action_id": "race-b", "action": {"type": "boo"}}),
    )
    answers = [await a.expect("ack", "rejected"), await b.expect("ack", "rejected")]
    assert sorted(x["type"] for x in answers) == ["ack", "rejected"]
    loser = b if answers[0]["type"] == "ack" else a
    assert next(x for x in answers if x["type"] == "rejected")["code"] == "stale"
    await loser.wait_seq(seq + 1)
    await loser.send(
        {"type": "act", "seq": loser.seq, "action_id": "race-retry", "action": {"type": "cheer"}}
    )
    assert (await loser.expect("ack"))["seq"] == seq + 2

    # Wrong token: error then close 4401; an empty token is wrong too.
    for bad in ("forged-token", ""):
        intruder = WsClient(url, bad)
        await intruder.connect(hello=False)
        await intruder.send({"type": "hello", "seat_token": bad, "last_seq": None})
        assert (await intruder.expect("error"))["code"] == "bad_token"
        assert await intruder.wait_closed() == 4401
    # Acting before hello.
    early = WsClient(url)
    await early.connect(hello=False)
    await early.send({"type": "act", "seq": 0, "action_id": "e", "action": {"type": "roll"}})
    assert (await early.expect("error"))["code"] == "hello_first"
    await early.close()

    # Oversize frame: 1009.  Flood: 1008.
    big = WsClient(url, tokens["p1"])
    await big.connect()
    await big.send(json.dumps({"type": "chat", "text": "x" * 70_000}))
    assert await big.wait_closed() == 1009
    flood = WsClient(url)
    await flood.connect()
    for _ in range(150):
        await flood.send({"type": "ping"})
    assert await flood.wait_closed() == 1008

    # A foreign Origin is refused; the server's own origin is fine.
    with pytest.raises(websockets.InvalidStatus):
        await websockets.connect(url, additional_headers={"Origin": "http://evil.example"})
    same = WsClient(url, origin=server.base_url.replace("127.0.0.1", "127.0.0.1"))
    await same.connect()
    await same.close()

    # Nothing was lost or doubled: the log holds exactly the acknowledged actions.
    record = api.export(tid)
    assert [a["seq"] for a in record["actions"]] == list(range(1, seq + 3))
    assert [a["action_id"] for a in record["actions"]].count("first") == 1
    assert record["seed"] is None
    for c in (p1, p2, p3, spectator):
        assert c.close_code is None
        await c.close()


async def test_reconnect_gets_missed_updates_and_chat_presence(server, api) -> None:
    tid, tokens = start_table(api, options={"players": 2, "target": 200})
    url = server.ws_url(tid)
    p1, p2 = WsClient(url, tokens["p1"]), WsClient(url, tokens["p2"])
    await p1.connect()
    await p2.connect()
    watcher = WsClient(url)
    await watcher.connect()
    presence = await p1.expect("presence")
    while presence["spectators"] != 1:
        presence = await p1.expect("presence")
    assert presence["connected"] == ["p1", "p2"]
    # A seat's line reaches the spectators (theirs reach no seat while the game is on: play/chat.py).
    await p1.send({"type": "chat", "text": "  good luck  "})
    chat = await watcher.expect("chat")
    assert chat["text"] == "good luck" and chat["seat"] == "p1" and chat["channel"] == "table"

    await play_random({"p1": p1, "p2": p2}, [], random.Random(3), stop_after=2, prefix="b")
    last = watcher.seq
    await watcher.close()
    await play_random({"p1": p1, "p2": p2}, [], random.Random(4), stop_after=5, prefix="c")
    back = WsClient(url)
    welcome = await back.connect(last_seq=last)
    assert [m["seq"] for m in welcome["missed"]] == list(range(last + 1, p1.seq + 1))
    assert all("events" in m and "by" in m for m in welcome["missed"])
    assert welcome["seq"] == p1.seq and welcome["view"]["pos"] == p1.view["pos"]
    for c in (p1, p2, back):
        await c.close()


async def test_gone_seat_is_answered_after_the_prompt_timeout(server, api) -> None:
    tid, tokens = start_table(api, options={"players": 2, "target": 200}, prompt_timeout_seconds=1)
    p1 = WsClient(server.ws_url(tid), tokens["p1"])
    await p1.connect()  # p2 never comes
    await p1.send({"type": "act", "seq": 0, "action_id": "go", "action": {"type": "roll"}})
    await p1.expect("ack")
    update = await p1.expect("update")
    while not (update.get("auto") and update["by"] == "p2"):
        assert update["deadline"] is not None or update.get("auto")
        update = await p1.expect("update", timeout=5)
    assert update["action_id"].startswith("auto:")
    await p1.close()


async def test_access_log_holds_no_token_and_no_seed(tmp_path: Path) -> None:
    log = tmp_path / "info.log"
    with ServerProcess(f"sqlite:///{tmp_path / 'l.db'}", log_path=log, log_level="info") as srv:
        api = Api(srv.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 6})
        seats = {s: WsClient(srv.ws_url(tid), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        await play_random(seats, [], random.Random(1))
        seed = api.export(tid)["seed"]
        for c in seats.values():
            await c.close()
    text = log.read_text()
    assert "/ws/tables/" in text and "/api/tables" in text  # the access log is on
    for secret in [*tokens.values(), api.token, seed]:
        assert secret not in text
