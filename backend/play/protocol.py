"""WebSocket messages (docs/protocol.md).

Incoming messages are validated by pydantic; a message that fails gets an
``error`` answer and the connection stays usable.  Chat text is one line of text and an
``action_id`` a short token of ``[A-Za-z0-9_.-]`` (never ``:``, the server's own ids have it),
both by the shared types of backend/textcheck.py.  Outgoing messages are built
by the small functions below (plain dicts, serialized once per audience).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from backend.engine import rulerefs
from backend.textcheck import ActionId, ChatText

from .chat import TABLE


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Message):
    type: Literal["hello"]
    seat_token: str | None = Field(default=None, max_length=256)
    last_seq: int | None = Field(default=None, ge=0, strict=True)
    # A spectator may watch with one side, rounds behind (play/sidewatch.py), when the table allows.
    watch: str | None = Field(default=None, min_length=1, max_length=32, strict=True)
    # The client applies view patches (play/patch.py): its updates may carry ``patch`` instead
    # of ``view`` and ``legal``.  Clients that do not say so always get whole views.
    patches: bool = Field(default=False, strict=True)


class Act(_Message):
    type: Literal["act"]
    seq: int = Field(ge=0, strict=True)  # not true, 2.0 or "3"
    action_id: ActionId
    action: dict[str, Any]


class Chat(_Message):
    """A line for one channel (play/chat.py): ``table``, ``side``, ``seat:<seat>`` or
    ``spectators``; none: the table for a seat, the spectators for a spectator."""

    type: Literal["chat"]
    text: ChatText
    to: str | None = Field(default=None, max_length=80, strict=True)


class Ping(_Message):
    type: Literal["ping"]


HISTORY_PAGE = 500


class History(_Message):
    """A page of the table's past: the updates before seq ``before`` (None: all up to now)."""

    type: Literal["history"]
    before: int | None = Field(default=None, ge=1, strict=True)
    limit: int = Field(default=HISTORY_PAGE, ge=1, le=HISTORY_PAGE, strict=True)


class Resync(_Message):
    """A patch did not fit (its ``view_hash`` differs) or an update is missing: the server
    answers with a welcome, whole view and the updates after ``last_seq``."""

    type: Literal["resync"]
    last_seq: int | None = Field(default=None, ge=0, strict=True)


ClientMessage = Annotated[Hello | Act | Chat | Ping | History | Resync, Field(discriminator="type")]
_client: TypeAdapter[Hello | Act | Chat | Ping | History | Resync] = TypeAdapter(ClientMessage)
CLIENT_TYPES = {"hello", "act", "chat", "ping", "history", "resync"}


class BadMessage(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# How deeply a message may nest: orjson's parser refuses deeper JSON (no message of the
# protocol comes near it).
MAX_DEPTH = 1024


def parse_client(text: str) -> Hello | Act | Chat | Ping | History | Resync:
    """Parse one frame; BadMessage explains what is wrong in a player's words."""
    try:
        data = orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError) as exc:
        if "depth limit" in str(exc) or isinstance(exc, RecursionError):
            raise BadMessage("malformed", f"That message nests more than {MAX_DEPTH} levels deep.") from None
        raise BadMessage("malformed", "That message is not valid JSON.") from None
    if not isinstance(data, dict):
        raise BadMessage("malformed", "A message must be a JSON object with a 'type'.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise BadMessage("unknown_type", f"Unknown message type {str(kind)[:40]!r}.")
    try:
        return _client.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise BadMessage("bad_message", f"Invalid '{kind}' message: {where}: {first['msg']}.") from None


def dumps(message: dict[str, Any]) -> str:
    # orjson serializes views several times faster than the standard library.
    return orjson.dumps(message).decode()


def error(code: str, message: str) -> dict[str, Any]:
    """A refused message; one the table's rules refuse (``handed_back``) cites its ``rule``."""
    rule = rulerefs.TABLE.get(code)
    return {"type": "error", "code": code, "message": message, **({"rule": rule.as_dict()} if rule else {})}


def ack(action_id: str, seq: int) -> dict[str, Any]:
    return {"type": "ack", "action_id": action_id, "seq": seq}


def rejected(action_id: str, code: str, message: str, seq: int, rule: dict[str, str] | None) -> dict[str, Any]:
    """A refused action; ``rule`` is the rule that forbids it (engine/rulerefs.py), or None."""
    return {"type": "rejected", "action_id": action_id, "code": code, "message": message, "seq": seq,
            "rule": rule}  # fmt: skip


def presence(spectators: int, connected: list[str], deadline: float | None) -> dict[str, Any]:
    """Who is here, and the deadline their coming or going moved: the seat clocks re-arm on
    every change of presence (play/seatclock.py), and the seats already here must see it too."""
    return {"type": "presence", "spectators": spectators, "connected": connected, "deadline": deadline}


def pong() -> dict[str, Any]:
    return {"type": "pong"}


def welcome(
    table: dict[str, Any],
    seat: str | None,
    seq: int | None,  # None: a side spectator before anything is released (play/sidewatch.py)
    static: dict[str, Any] | orjson.Fragment,  # a Fragment: its text, inserted as it is
    view: dict[str, Any] | None,
    legal: list[dict[str, Any]],
    to_act: list[str],
    deadline: float | None,
    missed: list[dict[str, Any]],
) -> dict[str, Any]:
    return {"type": "welcome", "table": table, "seat": seat, "seq": seq, "static": static, "view": view,
            "legal": legal, "to_act": to_act, "deadline": deadline, "missed": missed}  # fmt: skip


def missed_update(
    seq: int, events: list[dict[str, Any]], by: str | None, action_id: str | None, auto: bool
) -> dict[str, Any]:
    """An update as the ``missed`` list of a welcome carries it: no view (the welcome's is current).
    Seq 0 is the setup: ``by`` and ``action_id`` are null."""
    return {"type": "update", "seq": seq, "events": events, "by": by, "action_id": action_id, "auto": auto}


def update(
    seq: int,
    events: list[dict[str, Any]],
    by: str,
    action_id: str,
    auto: bool,
    view: dict[str, Any] | None,
    legal: list[dict[str, Any]],
    to_act: list[str],
    deadline: float | None,
) -> dict[str, Any]:
    return {**missed_update(seq, events, by, action_id, auto),
            "view": view, "legal": legal, "to_act": to_act, "deadline": deadline}  # fmt: skip


def patched_update(
    seq: int,
    events: list[dict[str, Any]],
    by: str,
    action_id: str | None,
    auto: bool,
    patch: list[list[Any]] | orjson.Fragment,  # a Fragment: the patch's text, inserted as it is
    view_hash: str,
    deadline: float | None,
) -> dict[str, Any]:
    """An update for a client that takes patches: ``patch`` (play/patch.py) turns the
    ``{"v": view, "l": legal, "t": to_act}`` it was last sent into this update's, whose
    ``view_hash`` it checks.  What a patched frame can do without is left out, since it is
    part of every frame (issue 15, point 1): ``auto`` unless true, ``deadline`` unless set, and
    ``action_id`` (None) for every audience but the acting seat's, the only one that matches
    it to what it sent."""
    message: dict[str, Any] = {"type": "update", "seq": seq, "events": events, "by": by}
    if action_id is not None:
        message["action_id"] = action_id
    if auto:
        message["auto"] = True
    message["patch"], message["view_hash"] = patch, view_hash
    if deadline is not None:
        message["deadline"] = deadline
    return message


def delayed(
    side: str, seat: str, rounds: int, seq_live: int, round_live: int, round_shown: int | None, over: bool
) -> dict[str, Any]:
    """What every frame of a side spectator's stream adds (play/sidewatch.py): the side and the
    seat whose view it shows, how many full rounds behind, where the live table is, and which
    round's start is shown (None: nothing yet); ``over``: the game ended, nothing is held back."""
    return {"side": side, "seat": seat, "rounds": rounds, "seq_live": seq_live, "round_live": round_live,
            "round": round_shown, "over": over}  # fmt: skip


def history(entries: list[dict[str, Any]], complete: bool) -> dict[str, Any]:
    """A page of past updates, oldest first; ``complete``: it reaches back to the first action."""
    return {"type": "history", "entries": entries, "complete": complete}


def finished(outcome: dict[str, Any] | None, seed_hex: str | None) -> dict[str, Any]:
    """The end of the game; the seed is revealed only here."""
    return {"type": "finished", "outcome": outcome, "seed": seed_hex}


def chat(name: str, seat: str | None, text: str, at: float, channel: str) -> dict[str, Any]:
    """A line said on ``channel`` (play/chat.py), sent only to the connections that may read it."""
    return {"type": "chat", "from": name, "seat": seat, "text": text, "at": round(at, 3), "channel": channel}


ANNOUNCER = "Dragontable"


def announcement(text: str, at: float) -> dict[str, Any]:
    """The table's own line in the chat ("a bot is playing for …"): no seat sent it."""
    return {**chat(ANNOUNCER, None, text, at, TABLE), "system": True}


def chat_history(lines: list[dict[str, Any]], side: str | None) -> dict[str, Any]:
    """On arrival, and to every seat when the game ends: the newest lines this connection may
    read (``chat`` messages, oldest first) and the side its seat talks to (None: no sides)."""
    return {"type": "chat_history", "lines": lines, "side": side}


def table(table_dict: dict[str, Any]) -> dict[str, Any]:
    """Seats or status changed (join, leave)."""
    return {"type": "table", "table": table_dict}
