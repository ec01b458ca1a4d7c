"""Table options checked against the game's own ``options_schema``.

A game describes its options as a JSON-schema subset (docs/protocol.md, "options"): the
``properties`` a lobby offers, and ``x-engine``, the ones a table may set that no lobby offers
(Dorn's simulation limits of content 5.12).  Together they must name *every* option
``normalize_options`` accepts or returns: ``check_options`` refuses any other key, so an
option the schema does not bound cannot reach a table.

The server calls it for every game on what a host sends and again on what
``normalize_options`` made of it, so nothing is stored, and later sent in a welcome, that the
wire encoder cannot encode (orjson refuses integers beyond 64 bits; browsers lose precision
beyond 2**53).  Understood keywords: ``type`` (one or a list of ``integer``, ``number``,
``boolean``, ``string``, ``array``, ``object``, ``null``), ``enum``, ``const``, ``anyOf``,
``minimum``/``maximum``, ``minLength``/``maxLength``, ``items``, ``minItems``/``maxItems``,
``uniqueItems`` and, for objects, ``properties``.  Presentation keys (``title``,
``description``, ``default``, ``x-labels``, ``x-widget``...) are ignored.

Where the schema gives no bound, a safe one applies: integers within +-(2**53 - 1), finite
numbers, strings of at most 256 characters and no control characters, at most 64 items, and
no value nested deeper than the schema describes (an array or object whose items the schema
leaves open holds only scalars).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from typing import Any

from .core import InvalidOptions

SAFE_INTEGER = 2**53 - 1
DEFAULT_MAX_LENGTH = 256
DEFAULT_MAX_ITEMS = 64
ENGINE_KEY = "x-engine"


def option_properties(schema: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """Every option the schema describes: the offered ``properties`` and the ``x-engine`` ones.

    A schema may also be the bare properties map (``{name: property}``).
    """
    if schema.get("type") == "object" or "properties" in schema or ENGINE_KEY in schema:
        return {**dict(schema.get("properties", {})), **dict(schema.get(ENGINE_KEY, {}))}
    return dict(schema)


def check_options(schema: Mapping[str, Any], options: object) -> dict[str, Any]:
    """``options`` unchanged if every key is described by ``schema`` and every value fits it;
    otherwise InvalidOptions (``unknown_option`` or ``bad_option``) saying which and why.

    >>> schema = {"type": "object", "properties": {"rounds": {"type": "integer", "minimum": 1, "maximum": 9}}}
    >>> check_options(schema, {"rounds": 3})
    {'rounds': 3}
    >>> check_options(schema, {"rounds": 2**70})
    Traceback (most recent call last):
    ...
    backend.engine.core.InvalidOptions: 'rounds' must be at most 9.
    """
    if not isinstance(options, Mapping):
        raise InvalidOptions("bad_option", "The options must be an object.")
    known = option_properties(schema)
    for key, value in options.items():
        prop = known.get(key) if isinstance(key, str) else None
        if prop is None:
            raise InvalidOptions("unknown_option", f"This game has no option {_short(key)}.")
        _check(prop, value, repr(key))
    return dict(options)


def numbers_without_bounds(schema: Mapping[str, Any]) -> list[str]:
    """The options (paths like ``split[]``) typed integer or number that lack a minimum or a
    maximum; every game's list is empty (tests/api/test_options.py)."""
    missing: list[str] = []

    def walk(prop: Mapping[str, Any], where: str) -> None:
        types = _types(prop)
        if types & {"integer", "number"} and not {"minimum", "maximum"} <= set(prop):
            missing.append(where)
        for sub in prop.get("anyOf", ()):
            walk(sub, where)
        if isinstance(prop.get("items"), Mapping):
            walk(prop["items"], where + "[]")
        for name, sub in prop.get("properties", {}).items():
            walk(sub, f"{where}.{name}")

    for name, prop in option_properties(schema).items():
        walk(prop, name)
    return missing


def _check(prop: Mapping[str, Any], value: Any, where: str) -> None:
    if "anyOf" in prop:
        for option in prop["anyOf"]:
            try:
                _check(option, value, where)
            except InvalidOptions:
                continue
            break
        else:
            raise InvalidOptions("bad_option", f"{where} is not one of the allowed values.")
    if "const" in prop and not _same(value, prop["const"]):
        raise InvalidOptions("bad_option", f"{where} must be {prop['const']!r}.")
    if "enum" in prop and not any(_same(value, allowed) for allowed in prop["enum"]):
        shown = ", ".join(repr(v) for v in prop["enum"][:12])
        raise InvalidOptions("bad_option", f"{where} must be one of {shown}; not {_short(value)}.")
    kind = _kind(value)
    types = _types(prop)
    if types and kind not in types and not (kind == "integer" and "number" in types):
        wanted = " or ".join(sorted(types))
        raise InvalidOptions("bad_option", f"{where} must be {_article(wanted)}, not {_article(kind)}.")
    if kind in ("integer", "number"):
        _check_number(prop, value, where)
    elif kind == "string":
        _check_string(prop, value, where)
    elif kind == "array":
        _check_array(prop, value, where)
    elif kind == "object":
        _check_object(prop, value, where)


def _check_number(prop: Mapping[str, Any], value: int | float, where: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidOptions("bad_option", f"{where} must be a finite number.")
    low = prop.get("minimum", -SAFE_INTEGER)
    high = prop.get("maximum", SAFE_INTEGER)
    if value < low:
        raise InvalidOptions("bad_option", f"{where} must be at least {low}.")
    if value > high:
        raise InvalidOptions("bad_option", f"{where} must be at most {high}.")


def _check_string(prop: Mapping[str, Any], value: str, where: str) -> None:
    if len(value) < prop.get("minLength", 0):
        raise InvalidOptions("bad_option", f"{where} must have at least {prop['minLength']} characters.")
    if len(value) > prop.get("maxLength", DEFAULT_MAX_LENGTH):
        raise InvalidOptions("bad_option", f"{where} is too long.")
    # Options are stored and shown: no control characters (PostgreSQL cannot even store NUL).
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise InvalidOptions("bad_option", f"{where} holds a control character.")


def _check_array(prop: Mapping[str, Any], value: list[Any], where: str) -> None:
    if len(value) < prop.get("minItems", 0):
        raise InvalidOptions("bad_option", f"{where} needs at least {prop['minItems']} items.")
    if len(value) > prop.get("maxItems", DEFAULT_MAX_ITEMS):
        raise InvalidOptions(
            "bad_option", f"{where} can have at most {prop.get('maxItems', DEFAULT_MAX_ITEMS)} items."
        )
    items = prop.get("items")
    for i, item in enumerate(value):
        if isinstance(items, Mapping):
            _check(items, item, f"{where}[{i}]")
        else:
            _check_scalar(item, f"{where}[{i}]")
    if prop.get("uniqueItems"):
        seen: list[Any] = []
        for item in value:
            if any(_same(item, other) for other in seen):
                raise InvalidOptions("bad_option", f"{where} lists {_short(item)} twice.")
            seen.append(item)


def _check_object(prop: Mapping[str, Any], value: Mapping[str, Any], where: str) -> None:
    described = prop.get("properties")
    if len(value) > DEFAULT_MAX_ITEMS:
        raise InvalidOptions("bad_option", f"{where} has too many entries.")
    for key, item in value.items():
        if described is None:
            _check_scalar(item, f"{where}[{key!r}]")
        elif key not in described:
            raise InvalidOptions("bad_option", f"{where} has no entry {_short(key)}.")
        else:
            _check(described[key], item, f"{where}[{key!r}]")


def _check_scalar(value: Any, where: str) -> None:
    kind = _kind(value)
    if kind in ("array", "object"):
        raise InvalidOptions("bad_option", f"{where} must be a single value, not {_article(kind)}.")
    _check({}, value, where)


def _types(prop: Mapping[str, Any]) -> set[str]:
    declared = prop.get("type")
    if declared is None:
        return set()
    return {declared} if isinstance(declared, str) else set(declared)


def _kind(value: Any) -> str:
    # bool before int: JSON true is not the number 1.
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``True`` is not ``1``, ``1`` is ``1.0``, lists compare item by item."""
    ka, kb = _kind(a), _kind(b)
    numeric = {"integer", "number"}
    if ka != kb and not (ka in numeric and kb in numeric):
        return False
    if ka == "array":
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _short(value: Any) -> str:
    """A value quoted for a message, cut short: messages never echo a whole request."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
