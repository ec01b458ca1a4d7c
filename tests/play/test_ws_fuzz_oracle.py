"""The WebSocket fuzzer's own oracle and patch reader, on frames whose answers docs/protocol.md
states outright (the fuzzer itself: tests/play/test_ws_fuzz.py)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from .ws_fuzz_cases import (
    Deep,
    Model,
    Outcome,
    Pairs,
    Peer,
    Surrogate,
    expected,
    render,
)
from .ws_fuzz_patches import PatchError, apply_patch, canonical_js, doc_hash


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
    # hello.patches, hello.watch and resync (v1.10, v1.11).
    hello = {"type": "hello", "seat_token": None}
    assert (
        one({**hello, "patches": True}, fresh)
        == one({**hello, "patches": False}, fresh)
        == {("welcome", None)}
    )
    assert one({**hello, "patches": 1}, fresh) == {("welcome", None), ("error:bad_message", None)}
    assert (
        one({**hello, "patches": "yes"}, fresh)
        == one({**hello, "watch": ""}, fresh)
        == {("error:bad_message", None)}
    )
    assert one({**hello, "watch": "x" * 33}, fresh) == {("error:bad_message", None)}
    assert one({**hello, "watch": "heroes"}, fresh) == {("error:watch_refused", None)}  # no sides here
    assert one({**hello, "watch": "heroes", "seat_token": "tok"}, fresh) == {
        ("error:watch_seated", None),
        ("error:watch_refused", None),
    }
    assert one({**hello, "watch": "keeper", "seat_token": "nope"}, fresh) == {
        ("error:watch_seated", None),
        ("error:watch_refused", None),
        ("error:bad_token", 4401),
    }
    assert one({**hello, "watch": "heroes"}, seat) == {("error:already_hello", None)}
    sided = Model(3, {"keeper": "tok"}, sides={"heroes": False, "keeper": True})
    assert expected({**hello, "watch": "keeper"}, fresh, sided, {}) == {("welcome", None)}
    assert expected({**hello, "watch": "heroes"}, fresh, sided, {}) == {("error:watch_refused", None)}
    assert expected({**hello, "watch": "dragon"}, fresh, sided, {}) == {("error:unknown_side", None)}
    assert expected({**hello, "watch": "keeper", "seat_token": "tok"}, fresh, sided, {}) == {
        ("error:watch_seated", None)
    }
    resync = {"type": "resync", "last_seq": 2}
    assert one(resync, seat) == one({"type": "resync"}, seat) == {("welcome", None)}
    assert one(resync, fresh) == {("error:hello_first", None)}
    assert (
        one({**resync, "last_seq": -1}, seat)
        == one({**resync, "seq": 2}, seat)
        == {("error:bad_message", None)}
    )


def test_the_patch_reader_follows_the_protocol() -> None:
    """The fuzzer's own reading of patches and view_hash (docs/protocol.md, View patches)."""
    doc = {"v": {"a": [1, 2], "k/~": 0}, "l": [], "t": ["p1"]}
    out = apply_patch([["/v/a/2", 3], ["/v/a/0"], ["/v/k~1~0", 1.0], ["/v/new", None], ["/t"]], doc)
    assert out == {"v": {"a": [2, 3], "k/~": 1.0, "new": None}, "l": []}
    assert doc == {"v": {"a": [1, 2], "k/~": 0}, "l": [], "t": ["p1"]}  # never changed in place
    assert apply_patch([["", {"x": 1}]], doc) == {"x": 1}
    for bad in ([["/v/a/3", 0]], [["/v/a/01", 0]], [["/v/b"]], [["/x/y", 1]], [[""]], [["v", 1]]):
        with pytest.raises(PatchError):
            apply_patch(bad, doc)
    assert canonical_js({"b": [1.0, 0.5, -0.0, 3.2e-05, 1e21], "a": "é\n"}) == (
        '{"a":"é\\n","b":[1,0.5,0,0.000032,1e+21]}'
    )
    assert doc_hash({}) == hashlib.sha256(b"{}").hexdigest()[:12]
