"""A seeded WebSocket fuzzer against live tables (the toy game and Dorasure) on a real server.

Every frame is a mutation of a valid ``hello``, ``act`` or ``chat``: wrong types, negative,
huge, float and boolean seqs, empty, huge, unicode and NUL action ids, deep nesting, oversized
strings, unknown and duplicated keys, binary frames, invalid UTF-8, lone surrogates,
non-object JSON.  A small oracle written from docs/protocol.md (not from the server's code)
says which answers each frame may get.  A ping follows every frame on the same connection,
so whatever the server sends before the pong is its answer to that frame.

Throughout, the table must stay consistent (a fresh connection is welcomed at the seq every
acknowledgement accounts for, with the view the others hold); afterwards the real seats play
on, and the log holds exactly the acknowledged actions.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
import websockets

from backend.engine.registry import get_game
from backend.engine.rng import Rng
from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table
from .helpers import states_of
from .ws_fuzz_cases import (
    CODE,
    DOCUMENTED_ERRORS,
    ENV,
    FAILURE_CODES,
    MAX_FRAME,
    NO_TIMEOUTS,
    REMEMBERED_IDS,
    Case,
    Deep,
    Model,
    Outcome,
    Pairs,
    Peer,
    Surrogate,
    chat_line,
    expected,
    frame_case,
    has,
    mutate,
    readings,
    render,
)


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


def check_answer(case: Case, answer: dict[str, Any], peer: Peer, model: Model) -> None:
    """The details of an answer that docs/protocol.md pins down."""
    kind = answer["type"]
    where = case.note
    if kind == "error":
        assert answer["code"] in DOCUMENTED_ERRORS, f"{where}: undocumented error {answer}"
        assert isinstance(answer.get("message"), str) and answer["message"], f"{where}: {answer}"
        return
    plain = readings(case.message)
    exact = len(plain) == 1 and isinstance(plain[0], dict)
    msg = plain[0] if exact else None
    if kind == "rejected":
        code = answer["code"]
        assert code not in FAILURE_CODES, f"{where}: the server failed on it: {answer}"
        assert CODE.fullmatch(code) and answer["message"], f"{where}: {answer}"
        assert answer["seq"] == model.seq, f"{where}: rejected at {answer['seq']}, table at {model.seq}"
        if msg is not None:
            assert answer["action_id"] == msg["action_id"], f"{where}: action id not echoed: {answer}"
            prior = model.ids.get(msg["action_id"])
            if prior is not None and prior[0] <= model.seq - REMEMBERED_IDS:
                prior = None  # forgotten: answered as a new action (its seq is long past)
            if peer.seat is None:
                assert code == "not_a_seat", f"{where}: {answer}"
            elif prior is not None and prior[1] != peer.seat:
                assert code == "duplicate_action_id", f"{where}: {answer}"
            elif prior is None and type(msg["seq"]) is int and msg["seq"] != model.seq:
                assert code == "stale", f"{where}: {answer}"
        return
    if kind == "ack":
        prior = model.ids.get(answer["action_id"])
        if prior is not None:
            assert answer["seq"] == prior[0], f"{where}: a retried id acknowledged at a new seq: {answer}"
        else:
            assert answer["seq"] == model.seq + 1, f"{where}: acknowledged as {answer['seq']} at {model.seq}"
            model.seq += 1
            model.ids[answer["action_id"]] = (answer["seq"], peer.seat or "")
            model.acked.append(answer["action_id"])
        return
    if kind == "history":
        seqs = [e["seq"] for e in answer["entries"]]
        assert all(e["type"] == "update" for e in answer["entries"]), f"{where}: {answer}"
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))) if seqs else True, f"{where}: {seqs}"
        # A page that reaches the start begins with seq 0, the setup (docs/protocol.md v1.5).
        assert answer["complete"] == (not seqs or seqs[0] in (0, 1)), (
            f"{where}: complete={answer['complete']}"
        )
        if msg is not None and all(
            msg.get(k) is None or type(msg.get(k)) is int for k in ("before", "limit")
        ):
            # The newest updates before ``before`` (all up to now without it), at most ``limit``.
            top = model.seq if msg.get("before") is None else min(msg["before"] - 1, model.seq)
            limit = 500 if msg.get("limit") is None else msg["limit"]
            first = top - limit + 1
            want = list(range(max(1, first), top + 1))
            if first <= 1:  # the page reaches the start: seq 0, the setup, comes first
                want = [0, *want]
            assert seqs == want, f"{where}: {seqs} up to {top}"
        return
    if kind == "welcome":
        assert answer["seq"] == model.seq, f"{where}: welcome at {answer['seq']}, table at {model.seq}"
        if msg is not None:
            assert answer["seat"] == model.seat_of(msg.get("seat_token")), f"{where}: {answer['seat']}"
            last = msg.get("last_seq")
            if isinstance(last, int) and not isinstance(last, bool) and last < model.seq:
                got = [m["seq"] for m in answer["missed"]]
                assert got == list(range(last + 1, model.seq + 1)), f"{where}: missed {got}"
        peer.hello_done, peer.seat = True, answer["seat"]


# -- the run -----------------------------------------------------------------------------
@dataclass
class Table:
    tid: str
    url: str
    model: Model
    seats: dict[str, WsClient]  # the real players: never fuzzed, they play on afterwards
    spectator: WsClient
    fuzzers: dict[str | None, Peer]  # one connection per seat and one spectator

    def everyone(self) -> list[WsClient]:
        return [*self.seats.values(), self.spectator, *(p.client for p in self.fuzzers.values())]

    def legal(self) -> dict[str, list[dict[str, Any]]]:
        return {
            s: list(p.client.legal) for s, p in self.fuzzers.items() if s is not None and s in p.client.to_act
        }


async def open_table(server: ServerProcess, api: Api, game: str, options: dict[str, Any]) -> Table:
    tid, tokens = start_table(api, game, options, **NO_TIMEOUTS)
    url = server.ws_url(tid)
    seats = {s: WsClient(url, t) for s, t in tokens.items()}
    spectator = WsClient(url)
    fuzzers = {s: Peer(WsClient(url, t), s) for s, t in tokens.items()}
    fuzzers[None] = Peer(WsClient(url), None)
    for c in [*seats.values(), spectator]:
        await c.connect()
    for p in fuzzers.values():
        await p.client.connect()
        p.hello_done = True
    return Table(tid, url, Model(0, tokens), seats, spectator, fuzzers)


async def fuzz(table: Table, rnd: random.Random, cases: int) -> dict[str, int]:
    """Runs ``cases`` frames; returns how often each answer came (to show the coverage)."""
    model = table.model
    seen: dict[str, int] = {}
    last_legal: list[dict[str, Any]] = []
    for i in range(cases):
        legal = table.legal()
        for actions in legal.values():
            last_legal = actions or last_legal
        role = rnd.random()
        fresh = role < 0.15
        if fresh:
            peer = Peer(WsClient(table.url))
            await peer.client.connect(hello=False)
        elif role < 0.8:
            # Mostly a seat whose turn it is, so that mutated actions reach the rules.
            ready = [s for s in legal if legal[s]]
            seat = rnd.choice(ready) if ready and rnd.random() < 0.7 else rnd.choice(sorted(model.tokens))
            peer = table.fuzzers[seat]
        else:
            peer = table.fuzzers[None]
        kind = (
            "hello"
            if fresh and rnd.random() < 0.7
            else rnd.choice(["act"] * 6 + ["chat"] * 2 + ["hello", "history"])
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
        else:
            token = rnd.choice([None, *model.tokens.values()])
            base = {
                "type": "hello",
                "seat_token": token,
                "last_seq": rnd.choice([None, model.seq, model.seq // 2]),
            }
        if rnd.random() < 0.12:
            message, note = base, "unchanged"  # a valid message now and then: the table still works
        else:
            message, note = mutate(rnd, base, model, peer.seat)
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
        assert outcome[1] not in (1006, 1011), f"{case.note}: the server crashed ({outcome[1]})"
        assert outcome in case.expect, (
            f"{case.note}: got {outcome}, expected one of {sorted(case.expect, key=str)}: {answer}"
        )
        if answer is not None:
            check_answer(case, answer, peer, model)
        await settle(table, peer, fresh, outcome)
        if i % 50 == 49:
            await check_consistent(table)
    return seen


async def settle(table: Table, peer: Peer, fresh: bool, outcome: Outcome) -> None:
    """Everyone catches up with an acknowledged action; closed fuzz connections come back."""
    model = table.model
    if fresh:
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


async def check_consistent(table: Table) -> None:
    """A newcomer is welcomed at the seq every ack accounts for, seeing what the others see."""
    model = table.model
    newcomer = WsClient(table.url)
    welcome = await newcomer.connect()
    await newcomer.close()
    assert welcome["seq"] == model.seq, f"a fresh welcome at {welcome['seq']}, acknowledged {model.seq}"
    await table.spectator.wait_seq(model.seq)
    assert welcome["view"] == table.spectator.view, "a newcomer sees another table than the spectator"
    for seat, client in table.seats.items():
        assert client.seq == model.seq
        mirror = WsClient(table.url, model.tokens[seat])
        again = await mirror.connect()
        await mirror.close()
        assert again["view"] == client.view and again["legal"] == client.legal, f"{seat}'s views differ"


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
    rnd = random.Random(20240601)
    seen = await fuzz(table, rnd, 500)
    # The run reached every kind of answer (otherwise the oracle checked little).
    assert {"rejected", "ack", "welcome", "chat", "error:malformed", "error:bad_message"} <= set(seen), seen
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
    for c in table.everyone():
        await c.close()


async def test_fuzz_a_dorasure_table_then_play_on(server: ServerProcess) -> None:
    api = Api(server.base_url, "Fuzzer")
    options = get_game("dorasure").sim_options(Rng(bytes([7]) * 32), 3, {})
    table = await open_table(server, api, "dorasure", options)
    rnd = random.Random(20240602)
    seen = await fuzz(table, rnd, 400)
    assert {"rejected", "ack", "welcome", "error:bad_message"} <= set(seen), seen
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


def test_the_oracle_reads_frames_as_the_protocol_says() -> None:
    """The oracle itself, on frames whose answers docs/protocol.md states outright."""
    model = Model(3, {"p1": "tok"})
    seat, fresh = Peer(None, "p1", hello_done=True), Peer(None)  # type: ignore[arg-type]
    legal = {"p1": [{"type": "roll"}]}

    def one(message: Any, peer: Peer) -> set[Outcome]:
        return expected(message, peer, model, legal)

    act = {"type": "act", "seq": 3, "action_id": "a", "action": {"type": "roll"}}
    assert one(act, seat) == {("ack", None)}
    assert one({**act, "seq": 2}, seat) == {("rejected", None)}
    assert one({**act, "seq": True}, seat) == {("ack", None), ("rejected", None), ("error:bad_message", None)}
    assert one({**act, "seq": -1}, seat) == one({**act, "x": 1}, seat) == {("error:bad_message", None)}
    assert one({**act, "action_id": "auto:4:p1"}, seat) == {("error:bad_message", None)}
    assert one(act, fresh) == {("error:hello_first", None)}
    assert one({"type": "hello", "seat_token": "nope"}, fresh) == {("error:bad_token", 4401)}
    assert one({"type": "hello"}, seat) == {("error:already_hello", None)}
    assert one({"type": []}, seat) == {("error:unknown_type", None), ("error:bad_message", None)}
    assert one([act], seat) == {("error:malformed", None)}
    assert one({"type": "chat", "text": Surrogate('"\\ud800"')}, seat) == {
        ("error:malformed", None),
        ("error:bad_message", None),
    }
    assert one({"type": "chat", "text": "  "}, seat) == one({**act, "action_id": "é"}, seat)
    assert one({"type": "chat", "text": " a\nb"}, seat) == {("error:bad_message", None)}
    assert one({"type": "chat", "text": "\n hi \t"}, seat) == {("chat", None)}
    repeated = Pairs((("type", "chat"), ("text", "hi"), ("text", 5)))
    assert one(repeated, seat) == {("chat", None), ("error:bad_message", None), ("error:malformed", None)}
    assert render(Pairs((("a", Deep(2)), ("a", 1))), True) == '{"a":[[]],"a":1}'
