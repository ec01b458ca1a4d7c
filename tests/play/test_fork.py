"""Play from here (issue 14.5) on a live server: a Dorasure game is played to its end over the
WebSocket, forked at a step through REST, the fork is seated hot-seat, started, played to its end,
and its record verifies; a tampered origin state is refused by ``verify``; every refusal of the
fork endpoint says why."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from typing import Any

import pytest

from backend.engine.registry import get_game
from backend.engine.replay import canonical_json, state_hash
from backend.play.record import VerifyFailed, verify_record
from tests.server_fixtures import Api, WsClient, play_random, start_table

from .helpers import states_of

pytestmark = pytest.mark.timeout(300)
GAME = get_game("dorasure")
OPTIONS = {"heroes": ["ninja", "hunter"]}


async def _play(
    server: Any, table_id: str, tokens: dict[str, str], rnd: random.Random, **kw: Any
) -> list[int]:
    seats = {seat: WsClient(server.ws_url(table_id), token) for seat, token in tokens.items()}
    for client in seats.values():
        await client.connect()
    try:
        return await play_random(seats, [], rnd, max_actions=6000, **kw)
    finally:
        for client in seats.values():
            await client.close()


async def _setup_entry(server: Any, table_id: str) -> dict[str, Any]:
    """Seq 0 of the table's history, as a spectator is sent it."""
    watcher = WsClient(server.ws_url(table_id))
    await watcher.connect()
    try:
        await watcher.send({"type": "history"})
        page = await watcher.expect("history")
    finally:
        await watcher.close()
    return page["entries"][0]


@pytest.fixture(scope="module")
def finished(server: Any, api: Api) -> tuple[str, dict[str, Any]]:
    """A Dorasure game played to its end, and its record."""
    table_id, tokens = start_table(api, "dorasure", OPTIONS)
    asyncio.run(_play(server, table_id, tokens, random.Random(3)))
    record = api.export(table_id)
    assert record["outcome"] is not None
    return table_id, record


def test_a_fork_plays_on_from_the_step_with_its_own_dice_and_verifies(
    server: Any, api: Api, finished
) -> None:
    original, record = finished
    states = states_of(GAME, record)
    step = len(states) // 2
    reply = api.post(f"/api/tables/{original}/fork", {"seq": step})
    assert reply.status_code == 201, reply.text
    fork = reply.json()
    assert fork["status"] == "open" and fork["commitment"] is None
    assert fork["origin"] == {"table": original, "seq": step, "hash": state_hash(GAME, states[step])}
    assert fork["options"] == record["options"] and [s["seat"] for s in fork["seats"]] == record["seats"]
    assert f"fork at step {step}" in fork["title"] and fork["visibility"] == "unlisted"
    assert api.http.get(f"/api/tables/{fork['id']}").json()["origin"] == fork["origin"]

    # Hot-seat: the one who forked takes every seat and starts it as any table.
    tokens = {s["seat"]: api.join(fork["id"], s["seat"]) for s in fork["seats"]}
    started = api.start(fork["id"])
    assert (
        started["status"] == "live"
        and started["commitment"]
        and started["commitment"] != record["commitment"]
    )

    # Every seat sees the original's position at that step (the hidden tiles are not in a view).
    async def first_views() -> dict[str, Any]:
        out = {}
        for seat, token in tokens.items():
            client = WsClient(server.ws_url(fork["id"]), token)
            await client.connect()
            out[seat] = client.view
            await client.close()
        return out

    for seat, view in asyncio.run(first_views()).items():
        assert view == json.loads(canonical_json(GAME.view(states[step], seat))), seat
    entry = asyncio.run(_setup_entry(server, fork["id"]))
    assert entry["seq"] == 0 and [e["kind"] for e in entry["events"]] == ["forked"]
    assert entry["events"][0]["table"] == original and entry["events"][0]["seq"] == step

    # While live, the export carries the origin but no seed.
    live = api.export(fork["id"])
    assert live["origin"] == fork["origin"] and live["seed"] is None
    assert json.loads(live["origin_state"]) == GAME.encode_state(states[step])

    asyncio.run(_play(server, fork["id"], tokens, random.Random(11)))
    done = api.export(fork["id"])
    assert done["complete"] and done["seed"] and done["outcome"] is not None
    summary = verify_record(done)
    assert summary.startswith("OK") and f"a fork of table {original} at step {step}" in summary
    # Its own dice: the fork's seed is not the original's, and the start is the re-dealt state.
    assert done["seed"] != record["seed"]
    forked = GAME.fork_state(states[step], bytes.fromhex(done["seed"]))
    assert done["initial_hash"] == state_hash(GAME, forked)

    # The replay of the fork opens at the forked position, its frame 0 saying where it came from.
    frames = api.http.get(f"/api/tables/{fork['id']}/replay").json()["frames"]
    assert frames[0]["events"][0]["kind"] == "forked" and len(frames) == len(done["actions"]) + 1

    # A fork of a fork verifies too (its origin state is the first fork's).
    again = api.post(f"/api/tables/{fork['id']}/fork", {"seq": 1})
    assert again.status_code == 201, again.text
    assert again.json()["origin"]["table"] == fork["id"]


def test_a_tampered_origin_state_fails_verify(server: Any, api: Api, finished) -> None:
    original, record = finished
    fork = api.post(f"/api/tables/{original}/fork", {"seq": 2}).json()
    tokens = {s["seat"]: api.join(fork["id"], s["seat"]) for s in fork["seats"]}
    api.start(fork["id"])
    asyncio.run(_play(server, fork["id"], tokens, random.Random(5)))
    done = api.export(fork["id"])
    assert verify_record(done).startswith("OK")

    state = json.loads(done["origin_state"])
    state["heroes"]["ninja"]["gold"] += 5  # a richer Ninja than the original had at that step
    tampered = {**done, "origin_state": canonical_json(state)}
    with pytest.raises(VerifyFailed, match="does not match the hash of the original's state"):
        verify_record(tampered)
    # Moving the hash along with it does not help: the fork's start no longer matches its record.
    moved = {
        **tampered,
        "origin": {**done["origin"], "hash": hashlib.sha256(tampered["origin_state"].encode()).hexdigest()},
    }
    with pytest.raises(VerifyFailed, match="initial state"):
        verify_record(moved)
    with pytest.raises(VerifyFailed, match="origin without its state"):
        verify_record({**done, "origin_state": None})


def test_refusals_say_why(server: Any, api: Api, finished) -> None:
    original, record = finished
    last = len(record["actions"])
    cases = [
        (original, {"seq": last + 1}, 422, "seq_out_of_range"),
        (original, {"seq": last}, 409, "over_at_step"),
        (original, {"seq": -1}, 422, None),
        ("nosuchtable", {"seq": 0}, 404, "not_found"),
    ]
    live_id, _ = start_table(api, "dorasure", OPTIONS)
    cases.append((live_id, {"seq": 0}, 409, "not_finished"))
    for table_id, body, status, code in cases:
        reply = api.post(f"/api/tables/{table_id}/fork", body)
        assert reply.status_code == status, (body, reply.text)
        if code is not None:
            assert reply.json()["code"] == code and reply.json()["message"], reply.text
    anonymous = api.http.post(f"/api/tables/{original}/fork", json={"seq": 0})
    assert anonymous.status_code == 401
