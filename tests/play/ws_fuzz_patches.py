"""The WebSocket fuzzer's connections that take view patches (tests/play/test_ws_fuzz.py).

Their reading of a patch and of ``view_hash`` is written from docs/protocol.md, not taken from
backend/play/patch.py or frontend/js/viewpatch.js: an oracle of its own, so that a mistake the
server and the browser share still shows (tests/play/test_patches.py checks the two against
each other).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from decimal import Decimal
from typing import Any

from ..server_fixtures import WsClient


# -- connections that take view patches ---------------------------------------------------
class PatchError(ValueError):
    pass


def js_number(x: float) -> str:
    """A float as JavaScript's ``JSON.stringify`` writes it (docs/protocol.md, view_hash)."""
    if x.is_integer() and abs(x) < 1e21:
        return str(int(x))
    text = repr(x)
    if "e" not in text:
        return text
    if 1e-7 <= abs(x) < 1e21:
        return format(Decimal(text), "f")
    mantissa, exponent = text.split("e")
    return f"{mantissa}e{'+' if int(exponent) > 0 else '-'}{abs(int(exponent))}"


def canonical_js(value: Any) -> str:
    """The view_hash text: keys sorted, no whitespace, strings and numbers as JSON.stringify."""
    if isinstance(value, dict):
        body = ",".join(
            f"{json.dumps(k, ensure_ascii=False)}:{canonical_js(value[k])}" for k in sorted(value)
        )
        return "{" + body + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical_js(v) for v in value) + "]"
    if isinstance(value, float):
        return js_number(value)
    return json.dumps(value, ensure_ascii=False)


def doc_hash(doc: Any) -> str:
    return hashlib.sha256(canonical_js(doc).encode()).hexdigest()[:12]


INDEX = re.compile(r"0|[1-9][0-9]*")


def apply_patch(ops: Any, doc: Any) -> Any:
    """docs/protocol.md, Operations: ``[pointer, value]`` sets (a new key is added, an index one
    past the end appends), ``[pointer]`` removes, ``["", value]`` replaces the doc; in order."""
    if not isinstance(ops, list):
        raise PatchError(f"the patch is not a list: {ops!r:.80}")
    doc = copy.deepcopy(doc)
    for op in ops:
        if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], str):
            raise PatchError(f"not an operation: {op!r:.80}")
        pointer, remove = op[0], len(op) == 1
        if pointer == "":
            if remove:
                raise PatchError("removes the whole doc")
            doc = copy.deepcopy(op[1])
            continue
        if not pointer.startswith("/"):
            raise PatchError(f"not a JSON pointer: {pointer!r}")
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]
        node = doc
        for token in tokens[:-1]:
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and INDEX.fullmatch(token) and int(token) < len(node):
                node = node[int(token)]
            else:
                raise PatchError(f"{pointer!r}: no {token!r} on the way")
        last = tokens[-1]
        if isinstance(node, dict):
            if remove and last not in node:
                raise PatchError(f"{pointer!r}: no key to remove")
            if remove:
                del node[last]
            else:
                node[last] = copy.deepcopy(op[1])
        elif isinstance(node, list) and INDEX.fullmatch(last):
            i = int(last)
            if remove and i < len(node):
                del node[i]
            elif not remove and i < len(node):
                node[i] = copy.deepcopy(op[1])
            elif not remove and i == len(node):
                node.append(copy.deepcopy(op[1]))
            else:
                raise PatchError(f"{pointer!r}: index out of range ({len(node)} items)")
        else:
            raise PatchError(f"{pointer!r}: not into an object or an array")
    return doc


HASH = re.compile(r"[0-9a-f]{12}")


class PatchClient(WsClient):
    """A connection whose hello says ``patches: true``.  It keeps its doc
    ``{"v": view, "l": legal, "t": to_act}`` from its welcome and every update: a whole one
    replaces it, a patched one is applied to it and must give the doc its ``view_hash`` names.
    What it finds wrong is kept in ``problems`` (the reader task must not die of it)."""

    def __init__(self, url: str, token: str | None = None) -> None:
        super().__init__(url, token)
        self.problems: list[str] = []
        self.patched = 0
        self.whole = 0

    async def connect(self, *, hello: bool = True, last_seq: int | None = None) -> dict[str, Any] | None:
        await super().connect(hello=False)
        if not hello:
            return None
        await self.send({"type": "hello", "seat_token": self.token, "last_seq": last_seq, "patches": True})
        return await self.expect("welcome")

    def _track(self, msg: dict[str, Any]) -> None:
        if msg.get("type") != "update" or "patch" not in msg:
            if msg.get("type") == "update":
                self.whole += 1
            super()._track(msg)
            return
        self.patched += 1
        where = f"patched update {msg.get('seq')} to {self.seat or 'a spectator'}"
        seq = msg.get("seq")
        if seq != self.seq + 1:
            self.problems.append(f"{where}: after seq {self.seq} (an update missing)")
        # No view, legal or to_act; auto only when true, deadline only when set, action_id
        # only to the acting seat's own connections.
        if {"view", "legal", "to_act"} & msg.keys():
            self.problems.append(f"{where}: carries a whole part too: {sorted(msg)}")
        if msg.get("auto", True) is not True or ("deadline" in msg and msg["deadline"] is None):
            self.problems.append(f"{where}: auto={msg.get('auto')!r}, deadline={msg.get('deadline', '-')!r}")
        mine = self.seat is not None and msg.get("by") == self.seat
        if ("action_id" in msg) != mine or (mine and not isinstance(msg["action_id"], str)):
            self.problems.append(f"{where} by {msg.get('by')}: action_id {msg.get('action_id', 'absent')!r}")
        if not isinstance(msg.get("view_hash"), str) or not HASH.fullmatch(msg["view_hash"]):
            self.problems.append(f"{where}: view_hash {msg.get('view_hash')!r}")
        try:
            doc = apply_patch(msg["patch"], {"v": self.view, "l": self.legal, "t": self.to_act})
        except PatchError as exc:
            self.problems.append(f"{where}: the patch does not apply: {exc}")
            return
        if doc_hash(doc) != msg.get("view_hash"):
            self.problems.append(
                f"{where}: the patched doc hashes to {doc_hash(doc)}, not {msg.get('view_hash')}"
            )
        if not isinstance(doc, dict) or doc.keys() != {"v", "l", "t"}:
            self.problems.append(f"{where}: the patched doc is {doc!r:.80}")
            return
        self.seq = seq
        self.view, self.legal, self.to_act = doc["v"], doc["l"], doc["t"]


def assert_sound(client: WsClient) -> None:
    if isinstance(client, PatchClient):
        assert not client.problems, client.problems[:5]


