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
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import pytest
import websockets

from backend.engine.registry import get_game
from backend.engine.rng import Rng
from backend.play.record import verify_record

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table
from .helpers import states_of

MAX_FRAME = 65536
# The fuzzer sends hundreds of frames a second on one connection; the rate limit (1008) is
# covered by test_live, here every frame must reach the parser.
ENV = {"DRAGONTABLE_RATE_PER_SECOND": "100000", "DRAGONTABLE_RATE_BURST": "100000"}
# No default answer may fire while the fuzzer keeps its own count of the seq.
NO_TIMEOUTS = {"prompt_timeout_seconds": 86400}

DOCUMENTED_ERRORS = {
    "malformed", "unknown_type", "bad_message", "hello_first", "already_hello",
    "hello_timeout", "rate_limited", "bad_token", "not_found",
}  # fmt: skip
# Documented, but on a healthy server they mean the rules engine or the database failed.
FAILURE_CODES = {"engine_error", "unavailable"}
CODE = re.compile(r"[a-z][a-z0-9_]*")

VALID, AMBIGUOUS, BAD = 0, 1, 2
Outcome = tuple[str, int | None]  # (what the server answered, close code or None: still open)


# -- frames that json.dumps cannot write ------------------------------------------------
@dataclass(frozen=True)
class Deep:
    """A list nested ``depth`` deep, written flat (json.dumps would hit the recursion limit)."""

    depth: int


@dataclass(frozen=True)
class Surrogate:
    """A JSON string holding a lone UTF-16 surrogate escape, such as ``"\\ud800"``."""

    raw: str


@dataclass(frozen=True)
class Escaped:
    """A JSON string written with escapes, such as a surrogate pair that reads as one emoji."""

    raw: str
    text: str


@dataclass(frozen=True)
class Pairs:
    """An object written with a repeated key."""

    items: tuple[tuple[str, Any], ...]


def render(value: Any, ascii_only: bool) -> str:
    if isinstance(value, Deep):
        return "[" * value.depth + "]" * value.depth
    if isinstance(value, Surrogate | Escaped):
        return value.raw
    if isinstance(value, Pairs | dict):
        items = value.items if isinstance(value, Pairs) else value.items()
        body = ",".join(f"{json.dumps(k, ensure_ascii=ascii_only)}:{render(v, ascii_only)}" for k, v in items)
        return "{" + body + "}"
    if isinstance(value, list):
        return "[" + ",".join(render(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


def readings(value: Any) -> list[Any]:
    """The plain values a parser may read: a repeated key keeps its first or its last value."""
    if isinstance(value, Escaped):
        return [value.text]
    if isinstance(value, Pairs):
        first: dict[str, Any] = {}
        last: dict[str, Any] = {}
        for k, v in value.items:
            first.setdefault(k, v)
            last[k] = v
        out = []
        seen: set[str] = set()
        for variant in (first, last):
            for plain in readings(variant):
                # By repr, not ==: 2 == 2.0, but a strict reader takes one and refuses the other.
                if repr(plain) not in seen:
                    seen.add(repr(plain))
                    out.append(plain)
        return out
    if isinstance(value, dict):
        out = [{}]
        for k, v in value.items():
            out = [{**o, k: r} for o in out for r in readings(v)]
        return out
    return [value]


def has(value: Any, kind: type) -> bool:
    if isinstance(value, kind):
        return True
    if isinstance(value, Pairs):
        return any(has(v, kind) for _, v in value.items)
    if isinstance(value, dict):
        return any(has(v, kind) for v in value.values())
    if isinstance(value, list):
        return any(has(v, kind) for v in value)
    return False


# -- the oracle --------------------------------------------------------------------------
def int_verdict(v: Any, nullable: bool) -> int:
    """seq / last_seq: an integer >= 0 (docs); loose readers may take true, 2.0 or "3"."""
    if v is None:
        return VALID if nullable else BAD
    if isinstance(v, bool):
        return AMBIGUOUS
    if isinstance(v, int):
        return BAD if v < 0 else VALID if v < 2**63 else AMBIGUOUS
    if isinstance(v, float):
        return AMBIGUOUS if v.is_integer() and v >= 0 else BAD
    if isinstance(v, str):
        return AMBIGUOUS if any(ch.isnumeric() for ch in v) else BAD
    return BAD


def str_verdict(v: Any, lo: int, hi: int, nullable: bool = False) -> int:
    if v is None:
        return VALID if nullable else BAD
    if not isinstance(v, str) or has(v, Surrogate):
        return BAD
    return VALID if lo <= len(v) <= hi else BAD


# docs/protocol.md, Input rules (v1.3): an action id is a token, a chat line one line of text.
TOKEN_ID = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def action_id_verdict(v: Any) -> int:
    # Never ':', so a client cannot write the ids of the server's own answers ("auto:...").
    return VALID if isinstance(v, str) and TOKEN_ID.fullmatch(v) else BAD


def chat_line(text: str) -> str:
    """A chat line as the server keeps it: NFC, trimmed."""
    return unicodedata.normalize("NFC", text).strip()


def chat_verdict(v: Any) -> int:
    if str_verdict(v, 1, 500) == BAD:
        return BAD
    line = chat_line(v)
    return VALID if line and len(line) <= 500 and not NOT_ONE_LINE.search(line) else BAD


def before_verdict(v: Any) -> int:
    verdict = int_verdict(v, nullable=True)
    return AMBIGUOUS if verdict == VALID and v == 0 else verdict  # the docs give no lower bound


def limit_verdict(v: Any) -> int:
    if type(v) is int and not 1 <= v <= 500:
        return BAD
    return int_verdict(v, nullable=False)


SCHEMAS: dict[str, dict[str, tuple[bool, Any]]] = {
    "hello": {
        "seat_token": (False, lambda v: str_verdict(v, 0, 256, nullable=True)),
        "last_seq": (False, lambda v: int_verdict(v, nullable=True)),
    },
    "act": {
        "seq": (True, lambda v: int_verdict(v, nullable=False)),
        "action_id": (True, action_id_verdict),
        "action": (True, lambda v: VALID if isinstance(v, dict) else BAD),
    },
    "chat": {"text": (True, chat_verdict)},
    "ping": {},
    # v1.5: a page of the past, the updates before seq ``before``, at most ``limit`` (1-500).
    "history": {"before": (False, before_verdict), "limit": (False, limit_verdict)},
}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@dataclass
class Peer:
    """One connection the fuzzer drives."""

    client: WsClient
    seat: str | None = None
    hello_done: bool = False


@dataclass
class Model:
    """What the fuzzer knows the table to be: its seq and every acknowledged action id."""

    seq: int
    tokens: dict[str, str]
    ids: dict[str, tuple[int, str]] = field(default_factory=dict)
    acked: list[str] = field(default_factory=list)

    def seat_of(self, token: Any) -> str | None:
        return next((s for s, t in self.tokens.items() if t == token), None)


def expected(message: Any, peer: Peer, model: Model, legal: dict[str, list[dict[str, Any]]]) -> set[Outcome]:
    """Every answer docs/protocol.md allows for a frame whose JSON reads as ``message``."""
    if has(message, Surrogate):
        # Such a string cannot be written back as UTF-8: the server must refuse the frame.
        return {("error:malformed", None), ("error:bad_message", None)}
    out: set[Outcome] = set()
    for plain in readings(message):
        out |= _expected_plain(plain, peer, model, legal)
    if len(readings(message)) > 1:
        out.add(("error:malformed", None))  # a parser may refuse repeated keys outright
    return out


def _expected_plain(
    msg: Any, peer: Peer, model: Model, legal: dict[str, list[dict[str, Any]]]
) -> set[Outcome]:
    if not isinstance(msg, dict):
        return {("error:malformed", None)}
    kind = msg.get("type")
    if not isinstance(kind, str):
        return {("error:unknown_type", None), ("error:bad_message", None)}
    if kind not in SCHEMAS:
        return {("error:unknown_type", None)}
    schema = SCHEMAS[kind]
    verdict = VALID
    for name in msg.keys() - {"type"}:
        verdict = max(verdict, schema[name][1](msg[name]) if name in schema else BAD)
    for name, (required, _) in schema.items():
        if required and name not in msg:
            verdict = BAD
    if verdict == BAD:
        return {("error:bad_message", None)}
    answers = _answers(kind, msg, peer, model, legal, exact=verdict == VALID)
    return answers | ({("error:bad_message", None)} if verdict == AMBIGUOUS else set())


def _answers(
    kind: str,
    msg: dict[str, Any],
    peer: Peer,
    model: Model,
    legal: dict[str, list[dict[str, Any]]],
    exact: bool,
) -> set[Outcome]:
    if kind == "ping":
        return {("none", None)}
    if kind == "hello":
        if peer.hello_done:
            return {("error:already_hello", None)}
        token = msg.get("seat_token")
        if token is None or model.seat_of(token) is not None:
            return {("welcome", None)}
        return {("error:bad_token", 4401)}
    if not peer.hello_done:
        return {("error:hello_first", None)}
    if kind == "history":
        return {("history", None)}
    if kind == "chat":
        return {("chat", None)}
    # act
    if peer.seat is None or not exact:
        return {("rejected", None)} if peer.seat is None else {("ack", None), ("rejected", None)}
    prior = model.ids.get(msg["action_id"])
    if prior is not None:
        return {("ack", None)} if prior[1] == peer.seat else {("rejected", None)}
    if msg["seq"] != model.seq:
        return {("rejected", None)}
    listed = legal.get(peer.seat, [])
    if has(msg["action"], Deep):
        return {("rejected", None)}  # nothing listed nests that deep
    if canonical(msg["action"]) in {canonical(a) for a in listed}:
        return {("ack", None)}
    if msg["action"] in listed:  # equal only loosely (2.0 for 2, true for 1): either is fair
        return {("ack", None), ("rejected", None)}
    return {("rejected", None)}


# -- the generator -----------------------------------------------------------------------
WEIRD: list[Any] = [
    None, True, False, 0, -1, 1.5, -0.0, 2.0, 2**63 - 1, 2**63, 2**64 + 5, -(2**63), 10**18,
    "", " ", "x" * 1000, "\u0000", "a\u0000b", "é", "😀", "\u202eevil", "٣", "1",
    [], {}, [[[]]], {"a": {"b": {}}}, [1, "two", None], Deep(40),
]  # fmt: skip
KEYS = ["extra", "Type", "type ", "seq\u0000", "ΔΔ", "", "__proto__", "constructor", "😀" * 20]


def weird_ids(rnd: random.Random, model: Model, seat: str | None) -> list[Any]:
    mine = [a for a, (_, s) in model.ids.items() if s == seat]
    theirs = [a for a, (_, s) in model.ids.items() if s != seat]
    return [
        "", "x" * 128, "x" * 129, "é" * 128, "😀" * 128, "😀" * 129, "\u0000", "a\u0000b", "\u202eid",
        " ", "\n", "auto:x", f"auto:{model.seq + 1}:{seat}", f"auto:{model.seq}:{seat}",
        "null", "0", 7, None, ["id"], {"id": 1}, True, Surrogate('"\\ud800"'), Surrogate('"x\\udfffy"'),
        *(rnd.sample(mine, 1) if mine else []), *(rnd.sample(theirs, 1) if theirs else []),
    ]  # fmt: skip


def weird_seqs(seq: int) -> list[Any]:
    return [
        -1, 0, seq, seq + 1, max(0, seq - 1), 2**63 - 1, 2**63, 2**64 + 5, 10**18, 1.5, float(seq),
        -0.0, True, False, None, str(seq), "abc", "٣", [], {}, [seq], 1e300, Deep(30),
    ]  # fmt: skip


def weird_texts() -> list[Any]:
    return [
        "", " ", " \t\n ", "\u200b", "x" * 500, "x" * 501, "é" * 500, "😀" * 500, "😀" * 501,
        "a\u0000b", "\u202eevil", "<script>alert(1)</script>", "x" * 60_000, "e\u0301" * 250,
        7, None, [], {"text": "x"}, True, Surrogate('"\\ud83d"'), Surrogate('"ok\\udc00"'),
        Escaped('"\\ud83d\\ude00"', "😀"),  # a valid pair
    ]  # fmt: skip


def weird_tokens(model: Model) -> list[Any]:
    token = next(iter(model.tokens.values()))
    return [
        None, token, token + "x", token[:-1], token.upper(), "", "x" * 256, "x" * 257, "\u0000",
        token + "\u0000", "é" * 256, 123, [], {}, True, [token], Surrogate('"\\udbff"'),
    ]  # fmt: skip


def mutate(rnd: random.Random, base: dict[str, Any], model: Model, seat: str | None) -> tuple[Any, str]:
    """One to three changes to a valid message; returns the message and what was done."""
    msg: dict[str, Any] = json.loads(json.dumps(base))
    notes = []
    kind = base["type"]
    for _ in range(rnd.choice((1, 1, 1, 1, 2, 3))):
        op = rnd.random()
        if kind == "act" and op < 0.2:
            msg["action_id"] = rnd.choice(weird_ids(rnd, model, seat))
            notes.append(f"action_id={msg['action_id']!r:.40}")
        elif kind == "act" and op < 0.35:
            msg["seq"] = rnd.choice(weird_seqs(model.seq))
            notes.append(f"seq={msg['seq']!r:.40}")
        elif kind == "act" and op < 0.75:
            notes.append(_mutate_action(rnd, msg))
        elif kind == "chat" and op < 0.6:
            msg["text"] = rnd.choice(weird_texts())
            notes.append(f"text={msg['text']!r:.40}")
        elif kind == "hello" and op < 0.35:
            msg["seat_token"] = rnd.choice(weird_tokens(model))
            notes.append(f"seat_token={msg['seat_token']!r:.40}")
        elif kind == "history" and op < 0.6:
            key = rnd.choice(["before", "limit"])
            msg[key] = rnd.choice([*weird_seqs(model.seq), 500, 501])
            notes.append(f"{key}={msg[key]!r:.40}")
        elif kind == "hello" and op < 0.6:
            msg["last_seq"] = rnd.choice(weird_seqs(model.seq))
            notes.append(f"last_seq={msg['last_seq']!r:.40}")
        elif op < 0.75 and len(msg) > 1:
            key = rnd.choice(sorted(msg))
            del msg[key]
            notes.append(f"without {key}")
        elif op < 0.85:
            key = rnd.choice(KEYS)
            msg[key] = rnd.choice(WEIRD)
            notes.append(f"extra key {key!r}")
        elif op < 0.93:
            msg["type"] = rnd.choice(
                ["act", "chat", "hello", "ping", "ACT", "", "dance", None, 3, [], {}, ["act"]]
            )
            notes.append(f"type={msg['type']!r}")
        elif msg:
            key = rnd.choice(sorted(msg))
            other = rnd.choice(WEIRD)
            items = [(key, other), *msg.items()] if rnd.random() < 0.5 else [*msg.items(), (key, other)]
            notes.append(f"repeated key {key!r}")
            return Pairs(tuple(items)), "; ".join(notes)
    return msg, "; ".join(notes)


def _mutate_action(rnd: random.Random, msg: dict[str, Any]) -> str:
    action = msg.get("action")
    if not isinstance(action, dict) or not action or rnd.random() < 0.1:
        msg["action"] = rnd.choice([None, [], "roll", 3, [{"type": "roll"}], Deep(50), True])
        return f"action={msg['action']!r:.40}"
    op = rnd.random()
    key = rnd.choice(sorted(action))
    if op < 0.35:
        value = action[key]
        # Numbers equal to the listed ones but of another JSON type, or anything odd.
        loose = [float(value), bool(value)] if isinstance(value, int) and not isinstance(value, bool) else []
        action[key] = rnd.choice([*loose, *WEIRD])
        return f"action.{key}={action[key]!r:.40}"
    if op < 0.5:
        del action[key]
        return f"action without {key}"
    if op < 0.75:
        new = rnd.choice(KEYS + ["to", "die", "card", "seat", "hero", "target"])
        action[new] = rnd.choice(WEIRD)
        return f"action.{new} added"
    if op < 0.9:
        depth = rnd.choice([10, 500, 5000, 20_000])
        action[rnd.choice([key, "deep"])] = Deep(depth)
        return f"action nested {depth} deep"
    msg["action"] = Pairs((*action.items(), (key, rnd.choice(WEIRD))))
    return f"action repeats {key!r}"


@dataclass
class Case:
    note: str
    frame: str | bytes
    expect: set[Outcome]
    message: Any = None  # the JSON it reads as, when it is a JSON text frame
    binary: bool = False


def frame_case(
    rnd: random.Random, message: Any, note: str, peer: Peer, model: Model, legal: dict
) -> Case | None:
    """Write ``message`` as a frame, sometimes broken at the frame level.

    None when the frame would be over the 64 KiB limit: those are
    test_an_oversized_frame_is_closed_with_1009's.
    """
    text = render(message, ascii_only=rnd.random() < 0.5)
    if len(text.encode()) > MAX_FRAME - 16:
        return None
    op = rnd.random()
    if op < 0.05:
        return Case(f"{note}; binary frame", text.encode(), {("error:malformed", None)}, binary=True)
    if op < 0.1:
        data = text.encode()
        bad = rnd.choice(
            [b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xe2\x82", b"\xf8\x88\x80\x80\x80", b"\xc0\xaf"]
        )
        at = rnd.randrange(len(data) + 1)
        # RFC 6455: a text frame that is not UTF-8 fails the connection with 1007.
        return Case(f"{note}; invalid UTF-8 {bad!r}", data[:at] + bad + data[at:], {("none", 1007)})
    if op < 0.14:
        cut = rnd.randrange(1, len(text))
        return Case(f"{note}; cut at {cut}", text[:cut], {("error:malformed", None)})
    if op < 0.18:
        wrapped = rnd.choice([f"[{text}]", json.dumps(text), "1", "null", "true", '"hello"', "[]", "-0"])
        return Case(f"{note}; not an object", wrapped, {("error:malformed", None)})
    if op < 0.22 and isinstance(message, dict):
        # Exactly at the frame limit, which is allowed: an unknown key padded out.
        inner = isinstance(message.get("action"), dict)
        padded = dict(message)
        holder = dict(padded["action"]) if inner else padded
        holder["pad"] = ""
        if inner:
            padded["action"] = holder
        holder["pad"] = "x" * (MAX_FRAME - len(render(padded, True).encode()))
        text = render(padded, True)
        assert len(text.encode()) == MAX_FRAME
        return Case(
            f"{note}; padded to {MAX_FRAME} bytes", text, expected(padded, peer, model, legal), padded
        )
    return Case(note, text, expected(message, peer, model, legal), message=message)


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
        assert answer["complete"] == (not seqs or seqs[0] in (0, 1)), f"{where}: complete={answer['complete']}"
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
