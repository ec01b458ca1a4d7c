"""The WebSocket fuzzer's frames, its oracle and its generator (tests/play/test_ws_fuzz.py runs
them against live tables).

Frames ``json.dumps`` cannot write (deep nesting, lone surrogates, escapes, repeated keys), the
oracle written from docs/protocol.md (not from the server's code) that says which answers each
frame may get, and the seeded mutations of valid ``hello`` (with ``patches`` and ``watch``, v1.10
and v1.11), ``act``, ``chat``, ``history`` and ``resync`` messages.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from backend.play.protocol import MAX_DEPTH

from ..server_fixtures import WsClient

MAX_FRAME = 65536
# docs/protocol.md, ack: a retried action id is acked again if it is one of the table's newest
# 256 actions' ids.
REMEMBERED_IDS = 256
# The fuzzer sends hundreds of frames a second on one connection; the rate limit (1008) is
# covered by test_live, here every frame must reach the parser.
ENV = {"DRAGONTABLE_RATE_PER_SECOND": "100000", "DRAGONTABLE_RATE_BURST": "100000"}
# No default answer may fire while the fuzzer keeps its own count of the seq.
NO_TIMEOUTS = {"prompt_timeout_seconds": 86400}

DOCUMENTED_ERRORS = {
    "malformed", "unknown_type", "bad_message", "hello_first", "already_hello",
    "hello_timeout", "rate_limited", "bad_token", "not_found",
}  # fmt: skip
# docs/protocol.md, Watching from a side: a hello with ``watch`` refused, the connection left open
# for another hello.  These are rules of the table (T9): their errors carry ``rule``, the
# connection's own errors above do not (Refusals cite their rule).
WATCH_ERRORS = {"watch_refused", "unknown_side", "watch_seated"}
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


def depth(value: Any) -> int:
    """How deeply ``value`` nests as JSON (a scalar is 0)."""
    if isinstance(value, Deep):
        return value.depth
    if isinstance(value, Pairs | dict):
        items = value.items if isinstance(value, Pairs) else value.items()
        return 1 + max((depth(v) for _, v in items), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


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


def bool_verdict(v: Any) -> int:
    """hello.patches: ``true``/``false`` (docs); a loose reader may take 0, 1, "true" or null
    (the field is optional, default false)."""
    if isinstance(v, bool):
        return VALID
    if v is None or (isinstance(v, int | float) and v in (0, 1)) or v in ("true", "false"):
        return AMBIGUOUS
    return BAD


def watch_verdict(v: Any) -> int:
    """hello.watch: a side, 1-32 characters; the docs do not say null means "no watch"."""
    return AMBIGUOUS if v is None else str_verdict(v, 1, 32)


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
        # v1.11: the client applies view patches (optional, default false).
        "patches": (False, bool_verdict),
        # v1.10: a spectator watching with one side, rounds behind.
        "watch": (False, watch_verdict),
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
    # v1.11: a patching client whose doc no longer fits asks for a welcome again.  Written
    # ``"last_seq": n | null`` as hello's is, which may be left out.
    "resync": {"last_seq": (False, lambda v: int_verdict(v, nullable=True))},
}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@dataclass
class Peer:
    """One connection the fuzzer drives."""

    client: WsClient
    seat: str | None = None
    hello_done: bool = False
    side: str | None = None  # welcomed as a spectator watching with that side


@dataclass
class Model:
    """What the fuzzer knows the table to be: its seq and every acknowledged action id."""

    seq: int
    tokens: dict[str, str]
    ids: dict[str, tuple[int, str]] = field(default_factory=dict)
    acked: list[str] = field(default_factory=list)
    # The sides a spectator may ask to watch: side -> whether the table's options allow it;
    # None for a game without sides to watch (toy, Dorasure).
    sides: dict[str, bool] | None = None

    def seat_of(self, token: Any) -> str | None:
        return next((s for s, t in self.tokens.items() if t == token), None)


def expected(message: Any, peer: Peer, model: Model, legal: dict[str, list[dict[str, Any]]]) -> set[Outcome]:
    """Every answer docs/protocol.md allows for a frame whose JSON reads as ``message``."""
    if depth(message) > MAX_DEPTH:
        return {("error:malformed", None)}  # nesting past the parser's bound
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
        welcomed = token is None or model.seat_of(token) is not None
        watch = msg.get("watch")
        if not isinstance(watch, str):
            return {("welcome", None)} if welcomed else {("error:bad_token", 4401)}
        refusals = watch_refusals(watch, token, model)
        if not refusals:
            return {("welcome", None)}
        # The docs name each refusal's cause but no order among them, nor between watch_seated
        # and the token's own check: a hello with several causes may get any of them.
        refused = {(f"error:{code}", None) for code in refusals}
        return refused | ({("error:bad_token", 4401)} if token is not None and not welcomed else set())
    if not peer.hello_done:
        return {("error:hello_first", None)}
    if kind == "resync":
        return {("welcome", None)}  # a welcome again, on the same connection
    if kind == "history":
        return {("history", None)}
    if kind == "chat":
        return {("chat", None)}
    # act
    if peer.seat is None or not exact:
        return {("rejected", None)} if peer.seat is None else {("ack", None), ("rejected", None)}
    prior = model.ids.get(msg["action_id"])
    if prior is not None and prior[0] > model.seq - REMEMBERED_IDS:
        return {("ack", None)} if prior[1] == peer.seat else {("rejected", None)}
    if prior is not None:  # forgotten: refused (stale, or the log's own duplicate), never applied
        return {("rejected", None)}
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


def watch_refusals(watch: str, token: Any, model: Model) -> set[str]:
    """docs/protocol.md, hello.watch: every refusal whose cause the hello has (none: allowed)."""
    out = set()
    if token is not None:
        out.add("watch_seated")  # a seat plays live
    if model.sides is None:
        out.add("watch_refused")  # the game has no sides to watch
    elif watch not in model.sides:
        out.add("unknown_side")
    elif not model.sides[watch]:
        out.add("watch_refused")  # the table's options do not allow that side
    return out


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


def weird_patches() -> list[Any]:
    return [True, False, None, 0, 1, 1.0, -0.0, 2, "true", "false", "", "yes", [], {}, [True], Deep(20)]


def weird_watches() -> list[Any]:
    return [
        "heroes", "keeper", "both", "public", "live", "Keeper", " keeper", "side:heroes", "1", "x" * 32,
        "x" * 33, "😀" * 32, "😀" * 33, "", " ", "\u0000", "a\u0000b", "\u202ekeeper", None, 1, True,
        [], {}, ["keeper"], {"side": "keeper"}, Surrogate('"\\ud800"'), Escaped('"\\u006beeper"', "keeper"),
    ]  # fmt: skip


def mutate(
    rnd: random.Random, base: dict[str, Any], model: Model, seat: str | None, inside_actions: bool = True
) -> tuple[Any, str]:
    """One to three changes to a valid message (``inside_actions``: also to an act's action);
    returns the message and what was done."""
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
        elif kind == "act" and op < 0.75 and inside_actions:
            notes.append(_mutate_action(rnd, msg))
        elif kind == "chat" and op < 0.6:
            msg["text"] = rnd.choice(weird_texts())
            notes.append(f"text={msg['text']!r:.40}")
        elif kind == "hello" and op < 0.25:
            msg["seat_token"] = rnd.choice(weird_tokens(model))
            notes.append(f"seat_token={msg['seat_token']!r:.40}")
        elif kind == "hello" and op < 0.4:
            msg["patches"] = rnd.choice(weird_patches())
            notes.append(f"patches={msg['patches']!r:.40}")
        elif kind == "hello" and op < 0.5:
            msg["watch"] = rnd.choice(weird_watches())
            notes.append(f"watch={msg['watch']!r:.40}")
        elif kind == "resync" and op < 0.6:
            msg["last_seq"] = rnd.choice(weird_seqs(model.seq))
            notes.append(f"last_seq={msg['last_seq']!r:.40}")
        elif kind == "history" and op < 0.6:
            key = rnd.choice(["before", "limit"])
            msg[key] = rnd.choice([*weird_seqs(model.seq), 500, 501])
            notes.append(f"{key}={msg[key]!r:.40}")
        elif kind == "hello" and op < 0.62:
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
                [
                    "act",
                    "chat",
                    "hello",
                    "ping",
                    "resync",
                    "history",
                    "ACT",
                    "Resync",
                    "",
                    "dance",
                    None,
                    3,
                    [],
                    {},
                    ["act"],
                ]
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
