"""View patches: what changed in a connection's view since the last one it was sent.

A patch is a list of operations in a compact form of RFC 6902 (JSON Patch), each a JSON
array whose first item is an RFC 6901 JSON Pointer (``~`` written ``~0``, ``/`` written
``~1``):

* ``[path, value]`` sets the member or element at ``path`` to ``value``: RFC 6902's
  ``replace`` where one is there, its ``add`` where not (an object's new key, or an array's
  next index: one past its end, so an element is only ever appended, never inserted);
* ``[path]`` removes it (``remove``).

Two or three fields of ``{"op": ..., "path": ..., "value": ...}`` per operation were half
of a small patch; this form says the same in fewer bytes.  ``diff(a, b)`` walks both
values at once:

* equal values give nothing (``_same``: compared in C, as JSON);
* two objects: a removal for each key only ``a`` has, a set for each key only ``b`` has,
  and the diff of each key both have;
* two arrays, by index: the common prefix element by element, then a set per new element
  at the end or a removal per dropped one, last first (so every index is valid when its
  operation is applied);
* anything else (a type changed, a scalar changed): a set of the new value.

An object or array whose operations (half as many as it has members or more) would
encode longer than setting it whole is set whole, so a patch is never longer than the value
it describes by more than a path per operation, and the walk stays linear in the size of
the views.  ``apply(diff(a, b), a) == b`` exactly (the property tests,
tests/play/test_patches.py).  Every value a patch carries is a part of ``b``; every path a
key of ``a`` or ``b``: a patch between two views of one seat holds nothing that seat's
views do not.

``view_hash`` is the check the client makes after applying one: the first 12 hex digits
of SHA-256 over the canonical JSON of what it patched (keys sorted by code point, no
spaces, UTF-8, as ``JSON.stringify`` writes strings and numbers: ``canonical``;
frontend/js/viewpatch.js computes the same).  A value the two sides would still spell
differently (a key outside the Basic Multilingual Plane, which JavaScript sorts by UTF-16)
costs a resync, never a wrong view.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import orjson

from backend.engine.digest import sha256_hex

Op = list[Any]  # [path, value] (set) or [path] (remove)
HASH_CHARS = 12


# A JSON string (skipped whole), an integral float as orjson spells it ("2.0", "-0.0"), or a
# number orjson writes with an exponent ("5e-6"; "1e16" until orjson 3.11.0, "1e+16" since 3.11.x):
# JavaScript writes those in plain digits from 1e-6 up to 1e21, and its exponents with a sign
# ("1e-7", "1e+21").
_JS_DIFFERS = re.compile(rb'("(?:[^"\\]|\\.)*")|(-?\d+)\.0(?=[,\]}]|$)|(-?\d+(?:\.\d+)?e[-+]?\d+)')


def js_number(value: float) -> str:
    """``value`` as JavaScript's Number.prototype.toString writes it (ECMA-262, Number::toString):
    the same shortest digits as Python's repr, placed by the same rule."""
    sign, digits, exponent = Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)  # a finite float
    d = "".join(map(str, digits)).rstrip("0") or "0"
    n = len(digits) + exponent  # value = 0.d × 10^n
    head = "-" if sign and d != "0" else ""
    if d == "0":
        return "0"
    k = len(d)
    if k <= n <= 21:
        return head + d + "0" * (n - k)
    if 0 < n <= 21:
        return head + d[:n] + "." + d[n:]
    if -6 < n <= 0:
        return head + "0." + "0" * -n + d
    e = n - 1
    return head + d[0] + ("." + d[1:] if k > 1 else "") + ("e+" if e >= 0 else "e-") + str(abs(e))


def _as_javascript(match: re.Match[bytes]) -> bytes:
    string, integer, exponent = match.group(1), match.group(2), match.group(3)
    if string is not None:
        return string
    if integer is not None:
        return b"0" if integer == b"-0" else integer
    return js_number(float(exponent)).encode()


# id of a part of a doc -> (that part, held so the id stays its, and its canonical text).
Texts = dict[int, tuple[Any, bytes]]


def canonical(value: Any, texts: Texts | None = None) -> bytes:
    """The canonical JSON both ends spell (see the module's docstring): orjson's, with the
    numbers it writes otherwise than JavaScript (2.0 -> 2, -0.0 -> 0, 5e-6 -> 0.000005,
    1e16 -> 10000000000000000, 1e21 -> 1e+21) written as JavaScript writes them.

    ``texts``, shared by one step's audiences: where their docs hold the same view (a game's
    ``SharedViews`` gives every viewer that sees alike one object) or the same list, its text
    is spelled once and each doc's is its members' joined in key order, the same bytes."""
    if texts is None or type(value) is not dict:
        return _spelled(value)
    pieces = []
    for key in sorted(value):  # by code point, as OPT_SORT_KEYS sorts
        named = _NAMED.get(key)
        if named is None:
            if type(key) is not str:
                return _spelled(value)  # orjson refuses it, as it does whole
            if len(_NAMED) >= 256:
                _NAMED.clear()
            named = _NAMED[key] = dumps(key) + b":"
        member = value[key]
        if type(member) in _CONTAINERS:
            hit = texts.get(id(member))
            if hit is None or hit[0] is not member:
                hit = texts[id(member)] = (member, _spelled(member))
            text = hit[1]
        else:
            text = _spelled(member)
        pieces.append(named + text)
    return b"{" + b",".join(pieces) + b"}"


# A doc's keys as its text spells them, with their colons (a doc has three).
_NAMED: dict[str, bytes] = {}


# In a container's text, a number that may be spelled otherwise by JavaScript: in a value's
# place (after ":", "," or "["; before ",", "]" or "}"), integral or with an exponent.  Only
# asked when a text may hold one (``_may_differ``): most such texts hold them in
# words or in fractions, and the exact pass, a Python call per string of the text, costs
# ≈ 0.4 ms on a 4 KB view against ≈ 18 µs for this search.
_TO_RESPELL = re.compile(rb"[:,\[]-?\d+(?:\.0|(?:\.\d+)?e[-+]?\d+)[,\]}]")


def _spelled(value: Any) -> bytes:
    text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    if _may_differ(text) and (type(value) not in _CONTAINERS or _TO_RESPELL.search(text)):
        return _JS_DIFFERS.sub(_as_javascript, text)
    return text


def _may_differ(text: bytes) -> bool:
    """Whether ``text`` (orjson's) may hold a number JavaScript spells otherwise: an integral
    float's ".0" before a delimiter or at the end, or an exponent, which orjson (3.12 and later:
    pyproject.toml) always writes with its sign ("1e+16", "5e-6").

    Found from the one-byte marks, ".", "-" and "+", which ``bytes.find`` finds with memchr (a
    view holds a few dozen), each then read beside: ≈ 1.6 µs on a 3 KB Dorasure doc, the odds'
    fractions included. A two-byte search walks the text a byte at a time (2.7 µs for each of
    "e-" and "e+"). A lone sign, asked before, is in the words of many views (a "head-on
    strike") and sent them to the slow search of ``_TO_RESPELL`` (≈ 25 µs; bench/README.md,
    issue 15 point 2, eighth session)."""
    n = len(text)
    i = text.find(b".")
    while i >= 0:
        if i + 1 < n and text[i + 1] == _ZERO and (i + 2 == n or text[i + 2] in _CLOSERS):
            return True
        i = text.find(b".", i + 1)
    for sign in (b"-", b"+"):
        i = text.find(sign, 1)
        while i >= 0:
            if text[i - 1] == _E:
                return True
            i = text.find(sign, i + 1)
    return False


_ZERO, _E, _CLOSERS = ord("0"), ord("e"), b",]}"


def view_hash(value: Any) -> str:
    """The short hash of a view both ends compute."""
    return hash_of(canonical(value))


def hash_of(text: bytes) -> str:
    """``view_hash`` of the value whose ``canonical`` text is ``text``."""
    return sha256_hex(text)[:HASH_CHARS]


def encoded_size(value: Any) -> int:
    return len(orjson.dumps(value))


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


# (id of a part of ``a``, id of a part of ``b``, its path) -> (those parts, held so the ids stay
# theirs, and the operations between them).
Memo = dict[tuple[int, int, str], tuple[Any, Any, list[Op]]]


def diff(a: Any, b: Any, memo: Memo | None = None, *, weigh: bool = True) -> list[Op]:
    """The operations that turn ``a`` into ``b`` (empty when they are equal).

    ``memo``, shared by the diffs of one step's audiences: docs built from one shared view
    (``SharedViews``) hold the same parts, and the previous docs did too, so the operations
    between two of an object's members are worked out once for all the audiences.

    ``weigh``: when the operations are for half of ``b``'s members or more, ``b`` set whole
    instead if that is shorter, as for any container inside.  A caller that weighs the patch
    against ``b``'s text itself says False (play/audience.py: encoding a whole doc here, for
    the two of its three parts most steps change, was a third of these weighings and most of
    their bytes)."""
    ops: list[Op] = []
    # Two docs are walked at once without asking first whether they are equal: they hardly
    # ever are, and the walk finds nothing to do where they agree.
    if (type(a) is dict and type(b) is dict and a is not b) or not _same(a, b):
        _diff(a, b, "", ops, memo)
        if weigh and len(ops) > 1 and 2 * len(ops) >= len(b) and encoded_size(ops) >= encoded_size([["", b]]):
            return [["", b]]
    return ops


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON.  Python's ``==`` (fast, in C) says ``1 == True == 1.0``, JSON does not:
    when ``==`` holds for two containers their encodings decide (each part of a view is
    encoded at most once per side, so the walk stays linear)."""
    if a is b:
        return True
    if a != b or type(a) is not type(b):
        return False
    return type(a) not in _CONTAINERS or _alike(a, b) or dumps(a) == dumps(b)


def _alike(a: Any, b: Any) -> bool:
    """Whether two equal containers hold the very same members: then they are the same JSON
    without encoding either (a game's ``SharedViews`` keeps the parts that did not change, so a
    list of them, new each step, is most often this)."""
    if type(a) is list:
        return all(x is y for x, y in zip(a, b, strict=True))  # equal lists are as long
    return all(b[key] is x for key, x in a.items())  # equal dicts have the same keys


_CONTAINERS = (dict, list)
dumps = orjson.dumps


def _diff(a: Any, b: Any, path: str, ops: list[Op], memo: Memo | None = None) -> None:
    """Append the operations turning ``a`` into ``b`` at ``path`` (``a`` and ``b`` differ);
    with ``memo``, those of the members of ``b`` that are containers are remembered (``diff``)."""
    start = len(ops)
    if type(a) is dict and type(b) is dict:
        for key in a:
            if key not in b:
                ops.append([f"{path}/{_escape(key)}"])
        for key, vb in b.items():
            va = a.get(key, _MISSING)
            if va is vb:
                continue
            if va is _MISSING:
                ops.append([f"{path}/{_escape(key)}", vb])
            elif memo is not None and type(vb) in _CONTAINERS:
                equal = type(va) is type(vb) and va == vb
                if equal and _alike(va, vb):
                    continue  # the same members (a view's kept parts, in a list new each step)
                sub = f"{path}/{_escape(key)}"
                hit = memo.get((id(va), id(vb), sub))
                if hit is None or hit[0] is not va or hit[1] is not vb:
                    at = len(ops)
                    if not (equal and dumps(va) == dumps(vb)):  # _same(va, vb), ``==`` asked once
                        _diff(va, vb, sub, ops, memo)
                    memo[(id(va), id(vb), sub)] = (va, vb, ops[at:])
                else:
                    ops.extend(hit[2])
            # _same(va, vb) inlined: this line runs for every key of every changed object.
            elif va != vb or type(va) is not type(vb) or (
                type(va) in _CONTAINERS and not _alike(va, vb) and dumps(va) != dumps(vb)
            ):
                _diff(va, vb, f"{path}/{_escape(key)}", ops)
    elif type(a) is list and type(b) is list:
        common = min(len(a), len(b))
        for i in range(common):
            if not _same(a[i], b[i]):
                _diff(a[i], b[i], f"{path}/{i}", ops, memo)
        for i in range(common, len(b)):
            ops.append([f"{path}/{i}", b[i]])
        for i in range(len(a) - 1, common - 1, -1):
            ops.append([f"{path}/{i}"])
    else:
        ops.append([path, b])
        return
    n = len(ops) - start
    if n > 1 and 2 * n >= len(b) and path:
        # Operations for half its members or more: keep them only if they are shorter than
        # the container whole.  (Fewer cannot be much longer, and a view's own dozens of keys
        # are not encoded for the two or three of them an action changes.)  The value itself
        # is weighed by ``diff``, when asked.
        whole = [path, b]
        if encoded_size(ops[start:]) >= encoded_size([whole]):
            del ops[start:]
            ops.append(whole)


class PatchError(ValueError):
    """A patch that does not fit the value it is applied to."""


def apply(ops: object, doc: Any) -> Any:
    """``doc`` with ``ops`` applied, as a new value: ``doc`` itself is left as it was
    (containers along each path are copied, the rest is shared). ``ops`` as received: any JSON."""
    if not isinstance(ops, list):
        raise PatchError(f"not a list of operations: {ops!r:.80}")
    for op in ops:
        doc = _apply_one(op, doc)
    return doc


def _apply_one(op: object, doc: Any) -> Any:
    if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], str):
        raise PatchError(f"not an operation: {op!r:.80}")
    path, remove = op[0], len(op) == 1
    if path == "":
        if remove:
            raise PatchError("cannot remove the whole document")
        return op[1]
    if not path.startswith("/"):
        raise PatchError(f"bad pointer {path!r}")
    tokens = [_unescape(t) for t in path[1:].split("/")]
    return _set(doc, tokens, remove, None if remove else op[1])


def _set(node: Any, tokens: list[str], remove: bool, value: Any) -> Any:
    token, rest = tokens[0], tokens[1:]
    if isinstance(node, dict):
        out = dict(node)
        if rest:
            if token not in out:
                raise PatchError(f"no key {token!r}")
            out[token] = _set(out[token], rest, remove, value)
        elif remove:
            if out.pop(token, _MISSING) is _MISSING:
                raise PatchError(f"no key {token!r} to remove")
        else:
            out[token] = value
        return out
    if isinstance(node, list):
        items = list(node)
        i = _index(token)
        appending = not rest and not remove and i == len(items)
        if not (0 <= i < len(items) or appending):
            raise PatchError(f"index {token} out of range")
        if rest:
            items[i] = _set(items[i], rest, remove, value)
        elif remove:
            del items[i]
        elif appending:
            items.append(value)
        else:
            items[i] = value
        return items
    raise PatchError(f"cannot step into {type(node).__name__} with {token!r}")


def _index(token: str) -> int:
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"bad array index {token!r}")
    return int(token)


_MISSING = object()
