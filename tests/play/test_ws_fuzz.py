"""A seeded WebSocket fuzzer against live tables (the toy game and Dorasure) on a real server.

Every frame is a mutation of a valid ``hello`` (also with ``patches`` and ``watch``), ``act``,
``chat``, ``history`` or ``resync``: wrong types, negative,
huge, float and boolean seqs, empty, huge, unicode and NUL action ids, deep nesting, oversized
strings, unknown and duplicated keys, binary frames, invalid UTF-8, lone surrogates,
non-object JSON.  A small oracle written from docs/protocol.md (not from the server's code)
says which answers each frame may get.  A ping follows every frame on the same connection,
so whatever the server sends before the pong is its answer to that frame.

Throughout, the table must stay consistent (a fresh connection is welcomed at the seq every
acknowledgement accounts for, with the view the others hold); afterwards the real seats play
on, and the log holds exactly the acknowledged actions.  Some connections take view patches
(``hello.patches``): each keeps its doc by applying every patch as docs/protocol.md says, checks
its ``view_hash``, and must hold what the connections sent whole views hold; those that take no
patches must never be sent one.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
import websockets

from backend.engine.core import WatchSides
from backend.engine.registry import get_game
from backend.engine.rng import Rng
from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table
from .helpers import states_of
from .ws_fuzz_answers import check_answer, check_side_welcome
from .ws_fuzz_cases import (
    ENV,
    MAX_FRAME,
    NO_TIMEOUTS,
    Case,
    Model,
    Outcome,
    Peer,
    Surrogate,
    chat_line,
    frame_case,
    has,
    mutate,
    readings,
)
from .ws_fuzz_patches import PatchClient, assert_sound

# The runs are seeded (the same frames every time); DRAGONTABLE_FUZZ_SEED=n shifts the seeds to
# fuzz other frames by hand.  (A shifted seed may end the Dorasure game during the fuzzing, after
# which its actions are refused game_over, not stale, and it cannot play on: try another.)
SEED_SHIFT = int(os.environ.get("DRAGONTABLE_FUZZ_SEED", "0"))


# -- the exchange ------------------------------------------------------------------------
def drain(client: WsClient) -> None:
    """Drop what earlier cases left queued (presence, others' updates), keeping a close."""
    while True:
        try:
            msg = client.queue.get_nowait()
        except asyncio.QueueEmpty:
            return
        if msg is None:
            client.queue.put_nowait(None)
            return


async def exchange(peer: Peer, case: Case, chat_texts: set[str]) -> tuple[Outcome, dict[str, Any] | None]:
    """Send the case, then a ping; the answer is what comes before the pong (or the close)."""
    client = peer.client
    drain(client)
    try:
        if isinstance(case.frame, bytes):
            await client.ws.send(case.frame, text=not case.binary)
        else:
            await client.ws.send(case.frame)
        await client.ws.send('{"type":"ping"}')
    except websockets.ConnectionClosed:
        pass
    answers: list[dict[str, Any]] = []
    while True:
        try:
            msg = await client.recv(timeout=15)
        except TimeoutError:
            raise AssertionError(f"{case.note}: neither an answer nor a close within 15 s") from None
        if msg is None:
            code = await client.wait_closed()
            break
        if msg.get("type") == "pong":
            code = None
            break
        kind = msg.get("type")
        # Chat is broadcast: only the echo of this frame's own text from this seat counts.
        mine = kind == "chat" and msg.get("text") in chat_texts and msg.get("seat") == peer.seat
        if mine or kind in ("welcome", "ack", "rejected", "error", "history"):
            answers.append(msg)
    assert len(answers) <= 1, f"{case.note}: several answers to one frame: {answers}"
    answer = answers[0] if answers else None
    if answer is None:
        label = "none"
    elif answer["type"] == "error":
        label = f"error:{answer.get('code')}"
    else:
        label = answer["type"]
    return (label, int(code) if code is not None else None), answer


# -- the run -----------------------------------------------------------------------------
@dataclass
class Table:
    tid: str
    url: str
    model: Model
    seats: dict[str, WsClient]  # the real players: never fuzzed, they play on afterwards
    spectator: WsClient
    fuzzers: dict[str | None, Peer]  # one connection per seat and one spectator
    # Never fuzzed, taking patches: a spectator and every seat (beside the real players).
    patched: dict[str | None, PatchClient]
    scanned: dict[int, int] = field(default_factory=dict)  # id of a plain client -> raw frames checked

    def everyone(self) -> list[WsClient]:
        return [
            *self.seats.values(), self.spectator, *(p.client for p in self.fuzzers.values()),
            *self.patched.values(),
        ]  # fmt: skip

    def legal(self) -> dict[str, list[dict[str, Any]]]:
        return {
            s: list(p.client.legal) for s, p in self.fuzzers.items() if s is not None and s in p.client.to_act
        }


async def open_table(server: ServerProcess, api: Api, game: str, options: dict[str, Any]) -> Table:
    tid, tokens = start_table(api, game, options, **NO_TIMEOUTS)
    url = server.ws_url(tid)
    seats = {s: WsClient(url, t) for s, t in tokens.items()}
    spectator = WsClient(url)
    # The fuzzed spectator and the first seat's fuzzed connection take patches (their resyncs
    # then start their docs afresh), the other fuzzed seats whole views.
    first = min(tokens)
    fuzzers = {s: Peer((PatchClient if s == first else WsClient)(url, t), s) for s, t in tokens.items()}
    fuzzers[None] = Peer(PatchClient(url), None)
    patched: dict[str | None, PatchClient] = {s: PatchClient(url, t) for s, t in tokens.items()}
    patched[None] = PatchClient(url)
    for c in [*seats.values(), spectator, *patched.values()]:
        await c.connect()
    for p in fuzzers.values():
        await p.client.connect()
        p.hello_done = True
    sides = get_game(game).side_watching(options) if isinstance(get_game(game), WatchSides) else None
    model = Model(0, tokens, sides={s: s in sides.allowed for s in sides.seats} if sides else None)
    return Table(tid, url, model, seats, spectator, fuzzers, patched)


async def fuzz(
    table: Table,
    rnd: random.Random,
    cases: int,
    fresh_share: float = 0.15,
    watch_share: float = 0.35,
    inside_actions: bool = True,
) -> dict[str, int]:
    """Runs ``cases`` frames, ``fresh_share`` of them on a fresh connection (mostly a hello,
    ``watch_share`` of those asking to watch from a side); returns how often each answer came,
    also as "<kind> -> <answer>" (to show the coverage).  ``inside_actions``: the mutations also
    change the actions themselves."""
    model = table.model
    seen: dict[str, int] = {}
    last_legal: list[dict[str, Any]] = []
    for i in range(cases):
        legal = table.legal()
        for actions in legal.values():
            last_legal = actions or last_legal
        role = rnd.random()
        fresh = role < fresh_share
        if fresh:
            peer = Peer(WsClient(table.url))
            await peer.client.connect(hello=False)
        elif role < min(fresh_share + 0.65, 0.9):
            # Mostly a seat whose turn it is, so that mutated actions reach the rules.
            ready = [s for s in legal if legal[s]]
            seat = rnd.choice(ready) if ready and rnd.random() < 0.7 else rnd.choice(sorted(model.tokens))
            peer = table.fuzzers[seat]
        else:
            peer = table.fuzzers[None]
        kind = (
            "hello"
            if fresh and rnd.random() < 0.7
            else rnd.choice(["act"] * 6 + ["chat"] * 2 + ["hello", "history", "resync"])
        )
        if kind == "act":
            own = legal.get(peer.seat or "", [])
            action = rnd.choice(own or last_legal or [{"type": "roll"}])
            base: dict[str, Any] = {"type": "act", "seq": model.seq, "action_id": f"f{i}", "action": action}
        elif kind == "chat":
            base = {"type": "chat", "text": f"fuzz {i}"}
        elif kind == "history":
            base = {"type": "history", "before": rnd.choice([None, model.seq + 1, max(1, model.seq // 2)])}
            if rnd.random() < 0.5:
                base["limit"] = rnd.choice([1, 5, 500])
        elif kind == "resync":
            base = {"type": "resync", "last_seq": rnd.choice([None, model.seq, model.seq // 2, 0])}
            if rnd.random() < 0.2:
                del base["last_seq"]
        else:
            watch = rnd.random() < watch_share  # a spectator asking to watch from a side
            token = None if watch else rnd.choice([None, *model.tokens.values()])
            base = {
                "type": "hello",
                "seat_token": token,
                "last_seq": rnd.choice([None, model.seq, model.seq // 2]),
            }
            if watch:
                base["watch"] = rnd.choice([*(model.sides or {}), "heroes", "keeper", "live"])
            if rnd.random() < 0.5:
                base["patches"] = rnd.random() < 0.5
        if rnd.random() < 0.12:
            message, note = base, "unchanged"  # a valid message now and then: the table still works
        else:
            message, note = mutate(rnd, base, model, peer.seat, inside_actions)
        case = frame_case(
            rnd,
            message,
            f"case {i} ({kind} on {'a fresh connection' if fresh else peer.seat}): {note}",
            peer,
            model,
            legal,
        )
        if case is None:
            if fresh:
                await peer.client.close()
            continue
        chats: set[str] = set()
        for plain in readings(case.message):
            if isinstance(plain, dict) and isinstance(plain.get("text"), str) and not has(plain, Surrogate):
                chats.add(chat_line(plain["text"]))
        outcome, answer = await exchange(peer, case, chats)
        seen[outcome[0]] = seen.get(outcome[0], 0) + 1
        seen[f"{kind} -> {outcome[0]}"] = seen.get(f"{kind} -> {outcome[0]}", 0) + 1
        assert outcome[1] not in (1006, 1011), f"{case.note}: the server crashed ({outcome[1]})"
        assert outcome in case.expect, (
            f"{case.note}: got {outcome}, expected one of {sorted(case.expect, key=str)}: {answer}"
        )
        if answer is not None:
            check_answer(case, answer, peer, model)
            if peer.side is not None:
                seen["side welcome"] = seen.get("side welcome", 0) + 1
        await settle(table, peer, fresh, outcome)
        if i % 50 == 49:
            await check_consistent(table)
    return seen


async def settle(table: Table, peer: Peer, fresh: bool, outcome: Outcome) -> None:
    """Everyone catches up with an acknowledged action; closed fuzz connections come back."""
    model = table.model
    if fresh:
        if peer.side is not None:
            # A side spectator's resync is answered with its delayed welcome.
            await peer.client.send({"type": "resync", "last_seq": None})
            again = await peer.client.expect("welcome")
            check_side_welcome(f"a resync watching {peer.side}", again, peer.side, model)
        if outcome[1] is None and not peer.hello_done:
            # Refused frames leave a connection that still says hello properly.
            await peer.client.send({"type": "hello", "seat_token": None, "last_seq": None})
            welcome = await peer.client.expect("welcome")
            assert welcome["seq"] == model.seq
        await peer.client.close()
    elif outcome[1] is not None:
        welcome = await peer.client.connect(last_seq=peer.client.seq)
        assert welcome["seq"] == model.seq and welcome["seat"] == peer.seat
    for c in table.everyone():
        await c.wait_seq(model.seq)
        assert_sound(c)


async def check_consistent(table: Table) -> None:
    """A newcomer is welcomed at the seq every ack accounts for, seeing what the others see."""
    model = table.model
    newcomer = WsClient(table.url)
    welcome = await newcomer.connect()
    await newcomer.close()
    assert welcome["seq"] == model.seq, f"a fresh welcome at {welcome['seq']}, acknowledged {model.seq}"
    for c in table.everyone():
        await c.wait_seq(model.seq)
    assert welcome["view"] == table.spectator.view, "a newcomer sees another table than the spectator"
    for seat, client in table.seats.items():
        assert client.seq == model.seq
        mirror = WsClient(table.url, model.tokens[seat])
        again = await mirror.connect()
        await mirror.close()
        assert again["view"] == client.view and again["legal"] == client.legal, f"{seat}'s views differ"
    check_patched(table)


def check_patched(table: Table) -> None:
    """The connections that take patches hold what the whole views say; the others never got a patch."""
    patched = [*table.patched.items(), *((s, p.client) for s, p in table.fuzzers.items())]
    for seat, client in patched:
        if not isinstance(client, PatchClient):
            continue
        assert_sound(client)
        whole = table.spectator if seat is None else table.seats[seat]
        assert client.seq == whole.seq, f"{seat}: a patching connection at {client.seq}, not {whole.seq}"
        doc = (client.view, client.legal, client.to_act)
        assert doc == (whole.view, whole.legal, whole.to_act), (
            f"{seat}: the patched doc differs from the whole one"
        )
    for client in table.everyone():
        if isinstance(client, PatchClient):
            continue
        for text in client.raw[table.scanned.get(id(client), 0) :]:
            if '"patch"' in text:
                msg = json.loads(text)
                assert not (msg.get("type") == "update" and "patch" in msg), (
                    f"a connection that takes no patches was sent one: {text[:200]}"
                )
        table.scanned[id(client)] = len(client.raw)


def check_log(record: dict[str, Any], model: Model, played: list[str]) -> None:
    """The log is exactly the acknowledged actions, each once, in order."""
    ids = [a["action_id"] for a in record["actions"]]
    assert [a["seq"] for a in record["actions"]] == list(range(1, len(ids) + 1))
    assert len(set(ids)) == len(ids), "an action id is in the log twice"
    assert ids == model.acked + played, "the log is not the acknowledged actions"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("fuzz")
    with ServerProcess(f"sqlite:///{tmp / 'fuzz.db'}", env=ENV, log_path=tmp / "server.log") as srv:
        yield srv
    log = (tmp / "server.log").read_text()
    assert not server_tracebacks(log), server_tracebacks(log)[0][-3000:]


def server_tracebacks(log: str) -> list[str]:
    """The server log's tracebacks, less uvicorn's report of each text frame that is not
    UTF-8 (it logs the decoding error, then closes with 1007 as RFC 6455 wants)."""
    blocks = log.split("Traceback (most recent call last):")[1:]
    return [b for b in blocks if not ("websockets_sansio_impl.py" in b and "UnicodeDecodeError" in b)]


async def test_an_oversized_frame_is_closed_with_1009(server: ServerProcess) -> None:
    """Frames over 64 KiB close the connection with 1009 (docs/protocol.md), also when the
    client has more to send (a keep-alive ping, the next action) right after it."""
    api = Api(server.base_url, "Big")
    tid, tokens = start_table(api, options={"players": 2, "target": 50}, **NO_TIMEOUTS)
    codes = []
    sizes = [(MAX_FRAME, True), (MAX_FRAME + 1, False), *[(MAX_FRAME + 1, True), (200_000, True)] * 10]
    for size, then_ping in sizes:
        client = WsClient(server.ws_url(tid), tokens["p1"])
        await client.connect()
        for _ in range(5):  # a connection in use, as a player's is
            await client.send({"type": "ping"})
            await client.expect("pong")
        frame = (
            json.dumps({"type": "chat", "text": ""}, separators=(",", ":"))[:-2] + "x" * (size - 25) + '"}'
        )
        assert len(frame.encode()) == size
        try:
            await client.ws.send(frame)
            if then_ping:
                await client.ws.send('{"type":"ping"}')
        except websockets.ConnectionClosed:
            pass
        if size <= MAX_FRAME:
            # At the limit the frame is read: a chat line that long is refused, nothing closes.
            assert (await client.expect("error"))["code"] == "bad_message"
            await client.close()
            continue
        codes.append((size, then_ping, int(await client.wait_closed())))
    assert all(code == 1009 for *_, code in codes), (
        f"oversized frames closed with {codes} (size, another frame sent after it, close code): "
        "uvicorn enforces the same 64 KiB limit itself (backend/server_cli.py passes "
        "ws_max_size=settings.max_frame_bytes) and drops the TCP connection without the closing "
        "handshake, so a client that sends anything more reads 1006 instead of the documented "
        "1009; the app's own check in play/ws.py, which closes properly, is never reached"
    )
    newcomer = WsClient(server.ws_url(tid))
    assert (await newcomer.connect())["seq"] == 0
    await newcomer.close()


async def test_fuzz_a_toy_table_then_play_it_to_the_end(server: ServerProcess) -> None:
    api = Api(server.base_url, "Fuzzer")
    game = get_game("toy")
    table = await open_table(server, api, "toy", {"players": 3, "target": 120})
    rnd = random.Random(20240601 + SEED_SHIFT)
    seen = await fuzz(table, rnd, 500)
    # The run reached every kind of answer (otherwise the oracle checked little).
    assert {"rejected", "ack", "welcome", "chat", "error:malformed", "error:bad_message"} <= set(seen), seen
    assert {"resync -> welcome", "error:watch_refused"} <= set(seen), seen
    assert all(c.patched for c in table.patched.values()), "no patched update at all"
    await check_consistent(table)

    model = table.model
    start = model.seq
    acked = await play_random(table.seats, [table.spectator], rnd, prefix="after-")
    assert acked == list(range(start + 1, start + len(acked) + 1)) and acked
    record = api.export(table.tid)
    check_log(record, model, [f"after-{n}" for n in range(len(acked))])
    states = states_of(game, record)
    for seat, client in table.seats.items():
        assert client.view == game.view(states[-1], seat, reveal=True)
    assert verify_record(record).startswith("OK")
    for c in table.everyone():  # the patched docs followed the play to the end too
        await c.wait_seq(acked[-1])
    check_patched(table)
    # A resync once the game is over: the welcome (whole, the updates after last_seq), then
    # finished again (docs/protocol.md, View patches).
    client = table.fuzzers[None].client
    await client.send({"type": "resync", "last_seq": acked[-1] - 1})
    welcome = await client.expect("welcome")
    assert welcome["seq"] == acked[-1] and [m["seq"] for m in welcome["missed"]] == [acked[-1]], welcome
    assert welcome["view"] == table.spectator.view
    finished = await client.expect("finished", "update")
    assert finished["type"] == "finished" and finished["seed"] == record["seed"], finished
    for c in table.everyone():
        await c.close()


async def test_fuzz_a_dorasure_table_then_play_on(server: ServerProcess) -> None:
    api = Api(server.base_url, "Fuzzer")
    options = get_game("dorasure").sim_options(Rng(bytes([7]) * 32), 3, {})
    table = await open_table(server, api, "dorasure", options)
    rnd = random.Random(20240602 + SEED_SHIFT)
    seen = await fuzz(table, rnd, 400)
    assert {"rejected", "ack", "welcome", "error:bad_message", "resync -> welcome"} <= set(seen), seen
    assert all(c.patched for c in table.patched.values()), "no patched update at all"
    await check_consistent(table)

    model = table.model
    start = model.seq
    acked = await play_random(table.seats, [table.spectator], rnd, stop_after=25, prefix="after-")
    assert acked == list(range(start + 1, start + len(acked) + 1)) and acked
    # The dice come from the table's own seed: now and then a game ends sooner.
    assert len(acked) == 25 or table.spectator.finished is not None
    model.seq = acked[-1]
    await check_consistent(table)
    # The export replays the whole log to its recorded hashes (409 log_broken otherwise).
    check_log(api.export(table.tid), model, [f"after-{n}" for n in range(len(acked))])
    for c in table.everyone():
        await c.close()


async def test_fuzz_a_dorn_table_watched_with_the_keeper(server: ServerProcess) -> None:
    """A table that lets spectators watch with the Keeper only: ``watch`` hellos for the Keeper
    are welcomed rounds behind, for the heroes refused ``watch_refused``, for anything else
    ``unknown_side``; the rest of the fuzzing as on the other tables."""
    api = Api(server.base_url, "Fuzzer")
    options = get_game("dorn").sim_options(Rng(bytes([9]) * 32), 3, {})
    options.update(side_watching="keeper", allow_surrender=False)  # no game over at the first step
    table = await open_table(server, api, "dorn", options)
    assert table.model.sides == {"heroes": False, "keeper": True}
    rnd = random.Random(20240603 + SEED_SHIFT)
    # The actions are mutated too: a move without its "to" once failed in the rules engine
    # (KeyError in dorn/actions.py _listed_move), and is refused now.
    seen = await fuzz(table, rnd, 300, fresh_share=0.4, watch_share=0.7)
    assert {"side welcome", "error:watch_refused", "error:unknown_side", "ack", "rejected"} <= set(seen), seen
    assert all(c.patched for c in table.patched.values()), "no patched update at all"
    await check_consistent(table)

    # Played on into the second round: a side spectator is then shown the step that began the
    # first one (seq 0, with a delay of one round), whatever its last_seq claims.
    model = table.model
    acked = await play_random(table.seats, [table.spectator], rnd, stop_after=150, prefix="after-")
    model.seq = acked[-1] if acked else model.seq
    await check_consistent(table)
    for last_seq in (None, 0, model.seq):
        watcher = WsClient(table.url)
        await watcher.connect(hello=False)
        await watcher.send({"type": "hello", "seat_token": None, "last_seq": last_seq, "watch": "keeper"})
        welcome = await watcher.expect("welcome")
        await watcher.close()
        check_side_welcome(f"watching with the Keeper from {last_seq}", welcome, "keeper", model, last_seq)
        if welcome["delayed"]["round_live"] >= 2:
            assert welcome["seq"] is not None and welcome["view"] is not None, welcome["delayed"]
    for c in table.everyone():
        await c.close()


async def test_the_servers_default_action_ids_are_reserved(server: ServerProcess) -> None:
    """A client's ``auto:<seq>:<seat>`` id must not take the id of the server's own default answer.

    Otherwise the default for that seat can never be committed (its id is taken): the master
    retries it at once, forever, and the game waits on a seat nobody answers for.
    """
    api = Api(server.base_url, "Host")
    tid, tokens = start_table(api, options={"players": 2, "target": 200}, prompt_timeout_seconds=1)
    p1 = WsClient(server.ws_url(tid), tokens["p1"])
    await p1.connect()  # p2 never comes: the server answers for it after a second
    await p1.send({"type": "act", "seq": 0, "action_id": "auto:2:p2", "action": {"type": "roll"}})
    answer = await p1.expect("ack", "rejected", "error")
    assert answer == {"type": "error", "code": "bad_message", "message": answer.get("message")}, (
        f"a client took the id of the server's default answer for p2 at seq 2: {answer}"
    )
    await p1.send({"type": "act", "seq": 0, "action_id": "mine", "action": {"type": "roll"}})
    assert (await p1.expect("ack"))["seq"] == 1
    update = await p1.expect("update")
    while not update.get("auto"):
        update = await p1.expect("update", timeout=10)
    assert update["by"] == "p2" and update["action_id"] == "auto:2:p2"
    await p1.close()
