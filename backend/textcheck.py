"""Text people type, checked once where it enters the server (REST bodies, WebSocket messages).

Names, titles, seat ids, game names and chat lines are all *one line of text*.  Each is
normalised to NFC (so "é" typed as e + combining accent and as one character is the same
name) and trimmed, then refused when it is blank, too long, or holds a character that is not
text:

* control characters, Unicode category Cc: C0 (U+0000-U+001F, so also tab, newline and
  carriage return), DEL and C1 (U+007F-U+009F).  NUL is the one that broke PostgreSQL (its
  text type cannot hold it, while SQLite stored it): refusing it here makes every database
  answer the same 422.  Chat is one line too: the browser sends it from a one-line input and
  shows each message as one line, so a newline could only come from a script;
* lone surrogates (Cs): not encodable as UTF-8, so no database can store them;
* the line and paragraph separators U+2028/U+2029 (one line means one line);
* the bidirectional embedding, override and isolate controls U+202A-U+202E, U+2066-U+2069:
  they make a name read differently from how it is written, and reorder the text around it.

Every other character is allowed: letters of any script, emoji with their joiners (U+200D),
and the left-to-right/right-to-left marks.  Client-chosen ids (``action_id``) are not text but
tokens, with their own character set: see ``ACTION_ID_PATTERN``.

This module is pure (``re``, ``unicodedata``, pydantic types), so the REST schemas
(backend/lobby/schemas.py) and the WebSocket models (backend/play/protocol.py) share it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

NAME_MAX = 64
TITLE_MAX = 128
SEAT_MAX = 64
GAME_MAX = 64
CHAT_MAX = 500

# Client action ids: letters, digits and "_.-".  No ":" ever, so the ids the server mints for
# its own default answers ("auto:<seq>:<seat>") cannot be written by a client.
ACTION_ID_PATTERN = r"^[A-Za-z0-9_.\-]{1,64}$"
# Table ids are URL-safe tokens (backend/store/repository.py new_table_id); anything else
# names no table and is answered without asking the database.
_ACTION_ID = re.compile(ACTION_ID_PATTERN)
TABLE_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SEPARATORS = frozenset("\u2028\u2029")


def forbidden_character(text: str) -> str | None:
    """The first character of ``text`` that is not allowed in one line of text, or None.

    >>> forbidden_character("Ada Lovelace 🐉")
    >>> forbidden_character("Ada\\x00")
    '\\x00'
    """
    for ch in text:
        if ch in _BIDI_CONTROLS or ch in _SEPARATORS or unicodedata.category(ch) in ("Cc", "Cs"):
            return ch
    return None


def clean_line(value: str, *, max_length: int, blank_ok: bool = False) -> str:
    """``value`` as NFC, trimmed; PydanticCustomError (a 422 or a ``bad_message``) if it is not
    one line of text, is blank (unless ``blank_ok``) or is longer than ``max_length``.

    >>> clean_line("  Cafe\\u0301 ", max_length=8)
    'Café'
    """
    # Checked before trimming: a name that ends in a newline is refused, not quietly cut.
    value = unicodedata.normalize("NFC", value)
    bad = forbidden_character(value)
    if bad is not None:
        raise PydanticCustomError(
            "control_character",
            "holds a character that is not text (U+{code}); use one line of letters, digits, "
            "punctuation or emoji",
            {"code": f"{ord(bad):04X}"},
        )
    value = value.strip()
    if not value and not blank_ok:
        raise PydanticCustomError("blank", "cannot be blank")
    if len(value) > max_length:
        raise PydanticCustomError(
            "too_long", "is longer than {max} characters", {"max": max_length}
        )
    return value


def check_action_id(value: str) -> str:
    """``value`` if it is a client action id (``ACTION_ID_PATTERN``), else PydanticCustomError."""
    if not _ACTION_ID.fullmatch(value):
        raise PydanticCustomError(
            "action_id", "must be 1 to 64 letters, digits, '_', '.' or '-' (no ':')"
        )
    return value


def _line(max_length: int, *, blank_ok: bool = False) -> AfterValidator:
    return AfterValidator(lambda v: clean_line(v, max_length=max_length, blank_ok=blank_ok))


# The Field bounds make the OpenAPI schema say what is accepted; the validator re-checks the
# length after NFC, which can change it.
PlayerName = Annotated[str, Field(min_length=1, max_length=NAME_MAX), _line(NAME_MAX)]
TableTitle = Annotated[str, Field(max_length=TITLE_MAX), _line(TITLE_MAX, blank_ok=True)]
SeatId = Annotated[str, Field(min_length=1, max_length=SEAT_MAX), _line(SEAT_MAX)]
GameName = Annotated[str, Field(min_length=1, max_length=GAME_MAX), _line(GAME_MAX)]
ChatText = Annotated[str, Field(min_length=1, max_length=CHAT_MAX), _line(CHAT_MAX)]
ActionId = Annotated[str, AfterValidator(check_action_id)]
