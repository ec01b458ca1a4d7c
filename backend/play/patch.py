"""View patches: what changed in a connection's view since the last one it was sent.

A patch is a list of RFC 6902 operations restricted to three (``add``, ``remove``,
``replace``), each with an RFC 6901 JSON Pointer ``path`` (``~`` written ``~0``, ``/``
written ``~1``).  ``diff(a, b)`` walks both values at once:

* equal values give nothing (``_same``: compared in C, as JSON);
* two objects: a ``remove`` for each key only ``a`` has, an ``add`` for each key only ``b``
  has, and the diff of each key both have;
* two arrays, by index: the common prefix element by element, then an ``add`` per new
  element at the end or a ``remove`` per dropped one, last first (so every index is valid
  when its operation is applied);
* anything else (a type changed, a scalar changed): ``replace`` with the new value.

An object or array whose operations would encode longer than replacing it whole is
replaced whole, so a patch is never much longer than the value it describes, and the
walk stays linear in the size of the views.  ``apply(diff(a, b), a) == b`` exactly (the
property tests, tests/play/test_patches.py).  Every value a patch carries is a part of
``b``; every path a key of ``a`` or ``b``: a patch between two views of one seat holds
nothing that seat's views do not.

``view_hash`` is the check the client makes after applying one: the first 12 hex digits
of SHA-256 over the canonical JSON of the view (keys sorted by code point, no spaces,
UTF-8, as ``JSON.stringify`` writes strings and integers; frontend/js/viewpatch.js
computes the same).  Views hold strings, integers, booleans, null, arrays and objects:
a float would be spelt differently by the two sides and cost a resync, never a wrong view.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import orjson

Op = dict[str, Any]
HASH_CHARS = 12


# A JSON string (skipped whole) or an integral float as orjson spells it ("2.0", "-0.0").
_INTEGRAL_FLOAT = re.compile(rb'("(?:[^"\\]|\\.)*")|(-?\d+)\.0(?=[,\]}]|$)')


def _as_javascript(match: re.Match[bytes]) -> bytes:
    string, integer = match.group(1), match.group(2)
    return string if string is not None else (b"0" if integer == b"-0" else integer)


def canonical(value: Any) -> bytes:
    """The canonical JSON both ends spell (see the module's docstring): orjson's, with an
    integral float written as JavaScript writes the number it reads (2.0 -> 2, -0.0 -> 0)."""
    text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    return _INTEGRAL_FLOAT.sub(_as_javascript, text) if b".0" in text else text


def view_hash(value: Any) -> str:
    """The short hash of a view both ends compute."""
    return hashlib.sha256(canonical(value)).hexdigest()[:HASH_CHARS]


def encoded_size(value: Any) -> int:
    return len(orjson.dumps(value))


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def diff(a: Any, b: Any) -> list[Op]:
    """The operations that turn ``a`` into ``b`` (empty when they are equal)."""
    ops: list[Op] = []
    if not _same(a, b):
        _diff(a, b, "", ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON.  Python's ``==`` (fast, in C) says ``1 == True == 1.0``, JSON does not:
    when ``==`` holds for two containers their encodings decide (each part of a view is
    encoded at most once per side, so the walk stays linear)."""
    if a is b:
        return True
    if a != b or type(a) is not type(b):
        return False
    return type(a) not in _CONTAINERS or dumps(a) == dumps(b)


_CONTAINERS = (dict, list)
dumps = orjson.dumps


def _diff(a: Any, b: Any, path: str, ops: list[Op]) -> None:
    """Append the operations turning ``a`` into ``b`` at ``path`` (``a`` and ``b`` differ)."""
    start = len(ops)
    if type(a) is dict and type(b) is dict:
        for key in a:
            if key not in b:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, vb in b.items():
            va = a.get(key, _MISSING)
            if va is vb:
                continue
            if va is _MISSING:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": vb})
            # _same(va, vb) inlined: this line runs for every key of every changed object.
            elif va != vb or type(va) is not type(vb) or (type(va) in _CONTAINERS and dumps(va) != dumps(vb)):
                _diff(va, vb, f"{path}/{_escape(key)}", ops)
    elif type(a) is list and type(b) is list:
        common = min(len(a), len(b))
        for i in range(common):
            if not _same(a[i], b[i]):
                _diff(a[i], b[i], f"{path}/{i}", ops)
        for i in range(common, len(b)):
            ops.append({"op": "add", "path": f"{path}/{i}", "value": b[i]})
        for i in range(len(a) - 1, common - 1, -1):
            ops.append({"op": "remove", "path": f"{path}/{i}"})
    else:
        ops.append({"op": "replace", "path": path, "value": b})
        return
    if len(ops) - start > 1:
        # Several operations under one container: keep them only if they are shorter.
        whole = {"op": "replace", "path": path, "value": b}
        if encoded_size(ops[start:]) >= encoded_size(whole):
            del ops[start:]
            ops.append(whole)


class PatchError(ValueError):
    """A patch that does not fit the value it is applied to."""


def apply(ops: list[Op], doc: Any) -> Any:
    """``doc`` with ``ops`` applied, as a new value: ``doc`` itself is left as it was
    (containers along each path are copied, the rest is shared)."""
    for op in ops:
        doc = _apply_one(op, doc)
    return doc


def _apply_one(op: Op, doc: Any) -> Any:
    kind, path = op.get("op"), op.get("path")
    if kind not in ("add", "remove", "replace") or not isinstance(path, str):
        raise PatchError(f"unsupported operation {op!r}")
    if path == "":
        if kind == "remove":
            raise PatchError("cannot remove the whole document")
        return op["value"]
    if not path.startswith("/"):
        raise PatchError(f"bad pointer {path!r}")
    tokens = [_unescape(t) for t in path[1:].split("/")]
    return _set(doc, tokens, kind, op.get("value"))


def _set(node: Any, tokens: list[str], kind: str, value: Any) -> Any:
    token, rest = tokens[0], tokens[1:]
    if isinstance(node, dict):
        out = dict(node)
        if rest:
            if token not in out:
                raise PatchError(f"no key {token!r}")
            out[token] = _set(out[token], rest, kind, value)
        elif kind == "remove":
            if out.pop(token, _MISSING) is _MISSING:
                raise PatchError(f"no key {token!r} to remove")
        elif kind == "replace" and token not in out:
            raise PatchError(f"no key {token!r} to replace")
        else:
            out[token] = value
        return out
    if isinstance(node, list):
        items = list(node)
        i = len(items) if token == "-" and kind == "add" and not rest else _index(token)
        limit = len(items) + (1 if kind == "add" and not rest else 0)
        if not 0 <= i < limit:
            raise PatchError(f"index {token} out of range")
        if rest:
            items[i] = _set(items[i], rest, kind, value)
        elif kind == "add":
            items.insert(i, value)
        elif kind == "remove":
            del items[i]
        else:
            items[i] = value
        return items
    raise PatchError(f"cannot step into {type(node).__name__} with {token!r}")


def _index(token: str) -> int:
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"bad array index {token!r}")
    return int(token)


_MISSING = object()
