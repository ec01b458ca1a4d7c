"""A game's static info as this worker's tables hold it: its text, one for every loaded table
whose static info is equal.

The static info (the board, the charts, the hero sheets and cards) is sent once in each
welcome and never changes. Built per table, it was most of a table's memory at rest: Dorasure's
board alone is ≈ 20 KiB of dicts (issue 15 point 4; bench/README.md "Capacity"). A table holds
no dicts of it, only the text a welcome inserts as it is (an ``orjson.Fragment``): Dorasure's
≈ 13 KB board was encoded again for each of a table's six welcomes, a fifth of a table's setup
(bench/server_instructions.py; bench/README.md, issue 15 point 2, sixth session). Tables whose
static info is equal (most: it depends on the options only, often not even on them) share
one text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from backend.engine.core import Game

# The texts kept, by their bytes. Bounded: at this many the map starts over (the tables
# loaded meanwhile keep what they hold; they just stop sharing with newer ones).
_TEXTS: dict[bytes, orjson.Fragment] = {}
TEXTS_MAX = 64


def static_text(game: Game[Any], options: Mapping[str, Any]) -> orjson.Fragment:
    """The static info of a table of ``game`` with ``options``, as a welcome sends it."""
    text = orjson.dumps(game.static_info(options))
    kept = _TEXTS.get(text)
    if kept is None:
        if len(_TEXTS) >= TEXTS_MAX:
            _TEXTS.clear()
        kept = _TEXTS[text] = orjson.Fragment(text)
    return kept
