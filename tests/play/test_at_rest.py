"""A loaded table's memory at rest (issue 15 point 4; bench/capacity.py measures it): the static
info's text tables share (play/static.py), and what a table lets go when nobody is connected
(``TableRuntime._rest``, the games' ``AtRest``)."""

from __future__ import annotations

import asyncio
import json
import random
import zlib
from pathlib import Path

import orjson
import pytest

from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.play import static

from ..server_fixtures import WsClient, play_random
from .inprocess import seated_clients, serving, wait_for


def _read(text: orjson.Fragment) -> object:
    """What a message holding ``text`` reads back as."""
    return orjson.loads(orjson.dumps({"static": text}))["static"]


def test_equal_static_infos_are_one_text_and_the_text_is_the_games() -> None:
    game = get_game("dorasure")
    two = {"heroes": ["ninja", "hunter"]}
    other = {"heroes": ["paladin", "shaman", "ninja"]}
    a, b, c = static.static_text(game, two), static.static_text(game, dict(two)), static.static_text(game, other)
    assert a is b and a is not c
    assert _read(a) == game.static_info(two) and _read(c) == game.static_info(other)


def test_two_games_never_share_a_text() -> None:
    dorn, dorasure = get_game("dorn"), get_game("dorasure")
    assert _read(static.static_text(dorn, {})) == dorn.static_info({})
    assert _read(static.static_text(dorasure, {"heroes": ["ninja"]})) == dorasure.static_info({"heroes": ["ninja"]})


def test_the_map_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(static, "_TEXTS", {})
    monkeypatch.setattr(static, "TEXTS_MAX", 3)
    game = get_game("dorasure")
    for heroes in (["ninja"], ["hunter"], ["paladin"], ["shaman"]):
        text = static.static_text(game, {"heroes": heroes})
        assert len(static._TEXTS) <= 3
        assert _read(text) == game.static_info({"heroes": heroes})


def test_at_rest_drops_the_caches_and_changes_nothing_else() -> None:
    game = get_game("dorasure")
    state = game.initial_state(b"\x01" * 32, {"heroes": ["ninja", "hunter"]})
    seat = sorted(game.to_act(state))[0]
    legal = game.legal_actions(state, seat)
    assert state._cache  # the movement search and the listing are kept for the validate
    encoded = game.encode_state(state)
    view = game.view(state, seat)
    views = game.views(state, [seat, None])  # type: ignore[attr-defined]
    assert state._shown  # the sheets' and mountains' parts kept for the next step's views
    game.at_rest(state)
    assert not state._cache and not state._shown
    assert game.encode_state(state) == encoded and game.view(state, seat) == view
    assert game.views(state, [seat, None]) == views  # type: ignore[attr-defined]
    assert game.legal_actions(state, seat) == legal


@pytest.mark.parametrize(
    ("game", "options", "seat_names"),
    [("dorasure", None, ["ninja", "hunter"]), ("dorn", {"hero_seats": 1}, ["keeper", "heroes_1"])],
)
async def test_a_table_nobody_is_at_lets_go_and_a_reconnect_misses_nothing(
    tmp_path: Path, game: str, options: dict[str, object] | None, seat_names: list[str]
) -> None:
    async with serving(tmp_path) as (app, _server, port):
        table_id, url, seats = await seated_clients(port, seat_names, game=game, options=options)
        await play_random(seats, [], random.Random(2), stop_after=6)
        first = seats[seat_names[0]]
        seen = {m["seq"]: m["events"] for m in map(json.loads, first.raw) if m["type"] == "update"}
        last_legal, top = first.legal, first.seq
        runtime = await app.state.tables.get(table_id)
        rules = runtime.game
        assert runtime.backlog.ring
        if game == "dorasure":
            assert runtime.state._cache
        before = state_hash(rules, runtime.state)
        for client in seats.values():
            await client.close()
        await wait_for(lambda: not runtime.connections)
        # Nobody there: the ring of recent steps is gone, and the state is kept encoded and
        # compressed, a fraction of its objects' size.
        assert not runtime.backlog.ring and runtime.kept._state is None and runtime.kept._state_z is not None
        assert not runtime.kept._ids and runtime.kept._ids_z is not None  # the retry window too
        encoded = json.dumps(rules.encode_state(rules.decode_state(json.loads(zlib.decompress(runtime.kept._state_z)))))
        assert len(runtime.kept._state_z) < len(encoded) / 2
        assert runtime.live  # still a live game, without decoding it to say so
        assert runtime.kept._state is None
        # Read again, it is the state it was, without its caches.
        assert state_hash(rules, runtime.state) == before and runtime.kept._state_z is None
        if game == "dorasure":
            assert not runtime.state._cache
        # A reconnect from the first step on gets every step since, as it was first sent (read
        # back from the stored log now), and the same listed actions; and play goes on.
        runtime._rest()  # at rest again (the read above woke it), as the reconnect finds it
        back = {seat: WsClient(url, seats[seat].token) for seat in seat_names}
        welcome = await back[seat_names[0]].connect(last_seq=1)
        assert welcome is not None and welcome["seq"] == top
        assert [m["seq"] for m in welcome["missed"]] == list(range(2, top + 1))
        assert {m["seq"]: m["events"] for m in welcome["missed"]} == {s: e for s, e in seen.items() if s >= 2}
        assert welcome["legal"] == last_legal
        for seat in seat_names[1:]:
            await back[seat].connect()
        # The retry of the last action before the rest is still known: its ack, no second step.
        (last,) = [m for m in map(json.loads, first.raw) if m["type"] == "update" and m["seq"] == top]
        last_aid, last_seat = last["action_id"], last["by"]
        assert runtime.kept._ids_z is not None  # not read yet: the retry below reads it
        retry = {"type": "act", "seq": top - 1, "action_id": last_aid, "action": {"type": "x"}}
        await back[last_seat].send(retry)
        assert await back[last_seat].expect("ack", "rejected") == {"type": "ack", "action_id": last_aid, "seq": top}
        acked = await play_random(back, [], random.Random(3), stop_after=3, prefix="b")
        assert acked == [top + 1, top + 2, top + 3]
        for client in back.values():
            await client.close()


async def test_a_table_remembers_only_its_newest_action_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import backend.play.master as master
    import backend.store.repository as repository

    monkeypatch.setattr(master, "RECENT_ACTION_IDS", 3)
    monkeypatch.setattr(repository, "RECENT_ACTION_IDS", 3)
    async with serving(tmp_path) as (app, _server, port):
        table_id, url, seats = await seated_clients(port, ["ninja", "hunter"])
        sent: list[tuple[WsClient, dict[str, object]]] = []  # the acts as sent, to send again
        for n in range(6):
            actor = next(c for c in seats.values() if c.seat in c.to_act and c.legal)
            act = {"type": "act", "seq": actor.seq, "action_id": f"a{n}", "action": actor.legal[0]}
            await actor.send(act)
            assert (await actor.expect("ack", "rejected"))["type"] == "ack"
            for client in seats.values():
                await client.wait_seq(n + 1)
            sent.append((actor, act))
        runtime = await app.state.tables.get(table_id)
        assert list(runtime.action_ids) == ["a3", "a4", "a5"]
        stored = await asyncio.to_thread(app.state.repo.load_for_play, table_id)
        assert list(stored.action_ids) == ["a3", "a4", "a5"]  # the newest, oldest first
        # The retry of the action in flight is answered as before: its ack, no second step.
        actor, act = sent[5]
        await actor.send(act)
        assert await actor.expect("ack", "rejected") == {"type": "ack", "action_id": "a5", "seq": 6}
        # One long forgotten is refused as stale: never applied twice either.
        actor, act = sent[0]
        await actor.send(act)
        refused = await actor.expect("ack", "rejected")
        assert refused["type"] == "rejected" and refused["code"] == "stale"
        assert runtime.seq == 6
        for client in seats.values():
            await client.close()


def test_the_documented_window_of_retries_is_the_servers() -> None:
    from backend.store.records import RECENT_ACTION_IDS

    from .ws_fuzz_cases import REMEMBERED_IDS

    assert REMEMBERED_IDS == RECENT_ACTION_IDS  # docs/protocol.md, ack
