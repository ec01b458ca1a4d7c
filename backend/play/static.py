"""A game's static info as this worker's tables hold it: each top-level part shared by every
loaded table whose part is equal.

The static info (the board, the charts, the hero sheets and cards) is sent once in each
welcome and never changes. Built per table, it was most of a table's memory at rest: Dorasure's
board alone is ≈ 20 KiB of dicts (issue 15 point 4; bench/README.md "Capacity"). Most parts do
not depend on the table's options (Dorasure's ``seats`` and ``heroes`` do), so tables share one
copy of each: the same objects, which the play layer only ever encodes, never changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from backend.engine.core import Game

# The texts of whole static infos, by their text: a welcome inserts one as it is.
_TEXTS: dict[bytes, orjson.Fragment] = {}
TEXTS_MAX = 64

# The parts kept, by game, key and encoded value. Bounded: at this many the map starts over
# (the tables loaded meanwhile keep what they hold; they just stop sharing with newer ones).
_PARTS: dict[tuple[str, str, bytes], Any] = {}
PARTS_MAX = 512


def static_info(game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
    static = game.static_info(options)
    shared: dict[str, Any] = {}
    for key, value in static.items():
        if type(value) is dict or type(value) is list:
            ident = (game.name, key, orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
            kept = _PARTS.get(ident)
            if kept is None:
                if len(_PARTS) >= PARTS_MAX:
                    _PARTS.clear()
                kept = _PARTS[ident] = value
            value = kept
        shared[key] = value
    return shared


def static_text(static: Mapping[str, Any]) -> orjson.Fragment:
    """``static`` as a welcome sends it: its JSON text, which orjson copies into each welcome
    as it is (``orjson.Fragment``) instead of encoding its ≈ 13 KB of dicts again (Dorasure's:
    a welcome was a fifth of a table's setup, bench/server_instructions.py). One text for all
    the tables whose static info is equal, as their parts are."""
    text = orjson.dumps(static)
    kept = _TEXTS.get(text)
    if kept is None:
        if len(_TEXTS) >= TEXTS_MAX:
            _TEXTS.clear()
        kept = _TEXTS[text] = orjson.Fragment(text)
    return kept
