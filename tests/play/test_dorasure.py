"""Dorasure over real WebSockets: four seats and a spectator, leaks, abuse, SIGKILL recovery."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.engine.rng import Rng
from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table_of_players
from .helpers import check_no_leaks, states_of, without_hashes

GAME = get_game("dorasure")


def four_hero_options(seed: int) -> dict:
    return GAME.sim_options(Rng(bytes([seed]) * 32), 4, {})


def open_table(server: ServerProcess, seed: int) -> tuple[Api, str, dict[str, str]]:
    """Four different players each take one seat; the host starts."""
    return start_table_of_players(server.base_url, "dorasure", four_hero_options(seed))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("dorasure")
    with ServerProcess(f"sqlite:///{tmp / 'd.db'}", log_path=tmp / "server.log") as srv:
        yield srv
    assert "Traceback" not in (tmp / "server.log").read_text()


@pytest.mark.parametrize("seed", [1, 2])
async def test_full_game_four_seats_and_a_spectator(server: ServerProcess, seed: int) -> None:
    host, tid, tokens = open_table(server, seed)
    assert len(tokens) == 4
    seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
    spectator = WsClient(server.ws_url(tid))
    for c in [*seats.values(), spectator]:
        welcome = await c.connect()
        assert welcome["static"] == json.loads(json.dumps(GAME.static_info(welcome["table"]["options"])))
    acked = await play_random(seats, [spectator], random.Random(seed))
    for c in [*seats.values(), spectator]:
        if c.finished is None:
            await c.expect("finished")
    record = host.export(tid)
    states = states_of(GAME, record)
    final = states[-1]
    assert len(states) - 1 == len(acked) == spectator.seq
    assert state_hash(GAME, final) == record["final_hash"]
    assert record["outcome"] == spectator.finished["outcome"]
    for c in [*seats.values(), spectator]:
        # Every client's final view is the server's final state, as that seat sees it.
        assert c.view == json.loads(json.dumps(GAME.view(final, c.seat, reveal=True)))
        others = [t for s, t in tokens.items() if s != c.seat]
        check_no_leaks(GAME, states, c, record["seed"], others)
        await c.close()
    assert verify_record(record).startswith("OK")


async def test_abuse_on_a_dorasure_table(server: ServerProcess) -> None:
    _host, tid, tokens = open_table(server, 3)
    url = server.ws_url(tid)
    seats = {s: WsClient(url, t) for s, t in tokens.items()}
    spectator = WsClient(url)
    for c in [*seats.values(), spectator]:
        await c.connect()
    actor = next(c for c in seats.values() if c.legal)
    idle = next((c for c in seats.values() if c.seat not in c.to_act), None)
    action = actor.legal[0]
    await spectator.send({"type": "act", "seq": 0, "action_id": "s", "action": action})
    assert (await spectator.expect("rejected"))["code"] == "not_a_seat"
    if idle is not None:
        await idle.send({"type": "act", "seq": 0, "action_id": "i", "action": action})
        rejected = await idle.expect("rejected")
        assert rejected["code"] and rejected["message"]
    await actor.send({"type": "act", "seq": 0, "action_id": "once", "action": action})
    assert (await actor.expect("ack", "rejected")) == {"type": "ack", "action_id": "once", "seq": 1}
    await actor.send({"type": "act", "seq": 0, "action_id": "once", "action": action})
    assert (await actor.expect("ack", "rejected")) == {"type": "ack", "action_id": "once", "seq": 1}
    await actor.send({"type": "act", "seq": 0, "action_id": "late", "action": action})
    assert (await actor.expect("rejected"))["code"] == "stale"
    await actor.send("{oops")
    assert (await actor.expect("error"))["code"] == "malformed"
    await actor.send({"type": "act", "seq": 1, "action_id": "junk", "action": {"type": "no_such_thing"}})
    junk = await actor.expect("rejected")
    assert junk["code"] and "seed" not in junk["message"]
    intruder = WsClient(url, "not-a-token")
    with pytest.raises(ConnectionError):
        await intruder.connect()
    assert intruder.close_code == 4401
    big = WsClient(url)
    await big.connect()
    await big.send("x" * 65_537)
    assert await big.wait_closed() == 1009
    flood = WsClient(url)
    await flood.connect()
    await asyncio.gather(*(flood.send({"type": "ping"}) for _ in range(150)))
    assert await flood.wait_closed() == 1008
    record = Api(server.base_url, "reader").export(tid)
    assert [a["action_id"] for a in record["actions"]] == ["once"]
    for c in [*seats.values(), spectator]:
        assert c.close_code is None
        await c.close()


async def test_sigkill_mid_dorasure_game(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.db'}"
    env = {"DRAGONTABLE_SNAPSHOT_EVERY": "7"}
    server = ServerProcess(db, env=env, log_path=tmp_path / "server.log").start()
    try:
        host, tid, tokens = open_table(server, 4)
        seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
        spectator = WsClient(server.ws_url(tid))
        for c in [*seats.values(), spectator]:
            await c.connect()
        rnd = random.Random(4)
        acked = await play_random(seats, [spectator], rnd, stop_after=15, prefix="pre")
        if spectator.finished is not None:
            pytest.fail("the game ended before the kill; pick another seed")
        before = host.export(tid)
        server.kill()
        for c in [*seats.values(), spectator]:
            await c.wait_closed()
        server = ServerProcess(db, port=server.port, env=env, log_path=tmp_path / "server.log").start()
        after = host.export(tid)
        assert after["actions"] == before["actions"] and len(after["actions"]) == len(acked)
        views = {s: c.view for s, c in seats.items()}
        for s, c in seats.items():
            welcome = await c.connect(last_seq=c.seq)
            assert welcome["seq"] == len(acked) and welcome["view"] == views[s]
        await spectator.connect(last_seq=spectator.seq)
        await play_random(seats, [spectator], rnd, prefix="post")
        final = host.export(tid)
        assert without_hashes(final["actions"][: len(acked)]) == before["actions"]
        assert verify_record(final).startswith("OK")
        for c in [*seats.values(), spectator]:
            await c.close()
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
