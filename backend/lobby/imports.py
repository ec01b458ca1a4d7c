"""``POST /api/records/replay``: watch an uploaded game record as a replay (issue 14, point 6).

The body is a ``dragontable-record/1`` record (docs/record.schema.json, explained in
docs/records.md) as ``GET /api/tables/{id}/export`` writes it, on this server or another.  It is
checked in the order someone fixing the file wants to hear about it, and the first thing wrong
is answered as a 422 ``{code, message}`` (CHECKS below lists every code):

1. JSON at all, a Dragontable record at all (its ``format``), and not too long;
2. the schema, naming the first place that breaks it (``actions[3].hash: ...``);
3. a game and rules version this server has, options that game takes, its seats;
4. a game that is over: a live record has no seed, so its dice cannot be checked and it is no
   replay (it says so rather than showing a game nobody can check);
5. the seed against the commitment, the setup against ``initial_hash``;
6. every action replayed with every state hash (and so every roll), while the frames are made
   (play/record.py ``replay_views``, the replay page's own), then the whole record once more by
   ``verify_record``, the check of ``python -m backend verify``.

Nothing is stored: the record is checked, answered in the shape of
``GET /api/tables/{id}/replay`` and forgotten.  The body may be far larger than the lobby's
64 KiB (a long Dorn game's record is a few hundred KiB), so this route alone reads up to
``MAX_RECORD_BYTES``, and a record holds at most ``MAX_RECORD_ACTIONS`` actions: the replay's
frames grow with them (a Dorn frame is ~6 KiB), and no real game comes near.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, Literal, cast

import jsonschema
from fastapi import APIRouter, Request
from pydantic import BaseModel

from backend.engine.core import Game, IllegalAction, InvalidOptions
from backend.engine.options import check_options
from backend.engine.registry import UnknownGame, game_names, get_game
from backend.engine.replay import HashMismatch, LogGap, state_hash
from backend.play.record import FORMAT, ForkBroken, VerifyFailed, replay_views, start_state, verify_record
from backend.store.repository import LoggedAction, SeatRecord, TableRecord

from .errors import ApiError
from .limits import BoundedRoute, is_json
from .schemas import ErrorOut, OriginOut, ReplayFrame, SeatOut, Takeover

MAX_RECORD_BYTES = 8 * 2**20
MAX_RECORD_ACTIONS = 5_000
# Checking a record replays it twice (the frames, then verify): a 1,500-action Dorn record takes
# a few seconds of CPU.  A worker checks two at a time; more wait their turn, so uploads cannot
# crowd out the live tables' own replays.
CHECKS_AT_ONCE = 2
# The server's copy of docs/record.schema.json (the image ships the package, not docs/);
# tests/api/test_record_import.py checks that the two are the same file.
SCHEMA_PATH = Path(__file__).with_name("record.schema.json")

# Every refusal of this route, for docs/protocol.md and the tests.
CHECKS = {
    "not_json": "the body is not JSON (or not sent as application/json)",
    "not_a_record": "JSON, but not a dragontable-record/1 (no or another format)",
    "too_many_actions": f"more than {MAX_RECORD_ACTIONS} actions",
    "schema_violation": "does not follow docs/record.schema.json; says where",
    "unknown_game": "a game this server does not have",
    "rules_version_differs": "played under another rules version of the game",
    "not_finished": "a live (or unstarted) game's record: no seed, no replay yet",
    "invalid_options": "options the game does not take",
    "seats_differ": "seats that are not the game's for these options",
    "commitment_mismatch": "sha256(seed) is not the commitment",
    "fork_mismatch": "a fork's origin_state is not the state its origin names",
    "setup_mismatch": "the setup dealt from the seed is not initial_hash",
    "not_consecutive": "the actions' seqs do not follow one another",
    "hash_mismatch": "the state after action N is not its recorded hash",
    "illegal_action": "action N is not legal where it was taken",
    "does_not_verify": "anything else verify finds (final hash, outcome...)",
}


class RecordRoute(BoundedRoute):
    max_body_bytes = MAX_RECORD_BYTES


ERRORS: dict[int | str, dict[str, Any]] = {s: {"model": ErrorOut} for s in (413, 422)}
router = APIRouter(responses=ERRORS, route_class=RecordRoute)


class RecordTableOut(BaseModel):
    """The ``table`` of a replay made from a record: a ``TableOut``'s keys, with null where a
    record does not say (who played, when, the clocks) and the labels of the game's seats."""

    id: str
    game: str
    title: str
    options: dict[str, Any]
    visibility: None = None
    status: Literal["finished"] = "finished"
    host: None = None
    seats: list[SeatOut]
    spectators: int = 0
    seq: int
    created_at: datetime | None = None
    commitment: str
    outcome: dict[str, Any] | None
    rules_version: int
    turn_clock_seconds: None = None
    prompt_timeout_seconds: None = None
    takeover: Takeover | None = None
    bot_seconds: None = None
    origin: OriginOut | None = None  # a fork's record: where it came from
    imported: Literal[True] = True


class ImportedReplayOut(BaseModel):
    """``GET /api/tables/{id}/replay``'s shape, plus what the check found."""

    table: RecordTableOut
    static: dict[str, Any]
    frames: list[ReplayFrame]
    chat: list[dict[str, Any]] = []  # a record holds no chat
    verified: str  # verify's summary: "OK: dorn table ...: the seed matches the commitment, ..."


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        assert code in CHECKS, code
        super().__init__(message)
        self.code = code
        self.message = message


@cache
def record_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@router.post(
    "/api/records/replay",
    response_model=ImportedReplayOut,
    tags=["records"],
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "A dragontable-record/1 game record (docs/record.schema.json).",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def replay_record(request: Request) -> dict[str, Any]:
    """Check an uploaded game record and answer its replay (nothing is stored)."""
    if not is_json(request.headers.get("content-type")):
        raise ApiError(422, "not_json", "Send the record as JSON (Content-Type: application/json).")
    body = await request.body()
    try:
        async with _checking(request):
            return await asyncio.to_thread(replay_of_record, body)
    except Refused as exc:
        raise ApiError(422, exc.code, exc.message) from None


def _checking(request: Request) -> asyncio.Semaphore:
    """The app's own semaphore (a semaphore belongs to one event loop, and so to one app)."""
    state = request.app.state
    if not hasattr(state, "record_checks"):
        state.record_checks = asyncio.Semaphore(CHECKS_AT_ONCE)
    return cast(asyncio.Semaphore, state.record_checks)


def replay_of_record(body: bytes) -> dict[str, Any]:
    """The replay of the record ``body`` holds, or Refused saying the first thing wrong."""
    record = _parse(body)
    check_shape(record)
    game = _known_game(record)
    options = _check_setup(game, record)
    table = _table_of(game, record, options)
    actions = [
        LoggedAction(a["seq"], a["seat"], a["action"], a["action_id"], a["hash"], a["auto"])
        for a in record["actions"]
    ]
    frames = _frames(game, table, actions)
    try:
        verified = verify_record(record)
    except VerifyFailed as exc:
        raise Refused("does_not_verify", f"The record does not verify: {exc}.") from None
    labels = {s.seat: s.label for s in game.seats(options)}
    table_out = RecordTableOut(
        id=record["table_id"],
        game=game.name,
        title=f"{game.title} (imported record)",
        options=options,
        seats=[
            SeatOut(seat=s, label=labels[s], player_name=None, taken=True, connected=False)
            for s in record["seats"]
        ],
        seq=len(actions),
        commitment=record["commitment"],
        outcome=record["outcome"],
        rules_version=record["rules_version"],
        origin=record.get("origin"),
    )
    return {"table": table_out, "static": game.static_info(options), "frames": frames, "verified": verified}


def _parse(body: bytes) -> Any:
    try:
        # A record is UTF-8 (a byte order mark, as some editors save one, is let through).
        return json.loads(body.decode("utf-8-sig"), parse_constant=_not_json_number)
    except UnicodeDecodeError:
        raise Refused("not_json", "This file is not text (a record is a JSON file in UTF-8).") from None
    except json.JSONDecodeError as exc:
        raise Refused(
            "not_json", f"This file is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except (ValueError, RecursionError):
        raise Refused(
            "not_json", "This file is not JSON a record can hold (NaN, Infinity or too deep)."
        ) from None


def _not_json_number(name: str) -> Any:
    raise ValueError(name)


def check_shape(record: Any, max_actions: int | None = MAX_RECORD_ACTIONS) -> None:
    """A record at all, of our format and schema (``python -m backend verify`` too, with no
    bound on its length): refused with the first place that breaks it."""
    if not isinstance(record, dict):
        raise Refused(
            "not_a_record",
            f'This is JSON, but not a Dragontable record (that is an object with "format": "{FORMAT}").',
        )
    if record.get("format") != FORMAT:
        found = record.get("format")
        said = f"its format is {str(found)[:40]!r}" if found is not None else 'it has no "format"'
        raise Refused(
            "not_a_record", f"This is not a Dragontable record: {said}; this server reads {FORMAT}."
        )
    actions = record.get("actions")
    if max_actions is not None and isinstance(actions, list) and len(actions) > max_actions:
        raise Refused(
            "too_many_actions",
            f"This record has {len(actions)} actions; this server replays records of at most {MAX_RECORD_ACTIONS}.",
        )
    error = jsonschema.exceptions.best_match(record_validator().iter_errors(record))
    if error is not None:
        raise Refused("schema_violation", f"The record does not follow the {FORMAT} schema: {_where(error)}.")


def _where(error: jsonschema.ValidationError) -> str:
    """``actions[3].hash: 'ab' does not match '^[0-9a-f]{64}$'``: the place, then what is wrong.

    A ``oneOf`` of "this, or null" reports its first branch, the one a value that is not
    null was meant to fit."""
    while error.validator == "oneOf" and error.context:
        branch = [e for e in error.context if e.relative_schema_path[0] == 0]
        if not branch:
            break
        error = branch[0]
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    message = error.message if len(error.message) <= 200 else error.message[:200] + "…"
    # jsonschema writes values as Python does; the file says null, true and false.
    for python, spelled in (("None", "null"), ("True", "true"), ("False", "false")):
        if message.startswith(python + " "):
            message = spelled + message[len(python) :]
    return f"{path or 'the record'}: {message}"


def _known_game(record: dict[str, Any]) -> Game[Any]:
    try:
        game = get_game(record["game"])
    except (UnknownGame, ImportError):
        raise Refused(
            "unknown_game",
            f"This server has no game called {record['game']!r} (it has {', '.join(game_names())}).",
        ) from None
    if record["rules_version"] != game.rules_version:
        raise Refused(
            "rules_version_differs",
            f"The record was played under {game.title}'s rules version {record['rules_version']}; this "
            f"server has version {game.rules_version}, whose rolls and rules may differ, so it cannot replay it.",
        )
    if not record["complete"]:
        raise Refused(
            "not_finished",
            f"This record is of a game that is not over (status {record['status']!r}): it has no seed yet, so "
            "its dice cannot be checked and it cannot be watched as a replay. Export it again once the game has ended.",
        )
    return game


def _check_setup(game: Game[Any], record: dict[str, Any]) -> dict[str, Any]:
    """The record's options (as the game normalises them) once seats, seed and setup check."""
    try:
        check_options(game.options_schema(), record["options"])
        options = game.normalize_options(record["options"])
        seats = [s.seat for s in game.seats(options)]
    except InvalidOptions as exc:
        raise Refused(
            "invalid_options", f"The record's options cannot set up a {game.title} table: {exc.message}"
        ) from None
    except (TypeError, ValueError, KeyError, AttributeError):
        raise Refused(
            "invalid_options", f"The record's options cannot set up a {game.title} table."
        ) from None
    if seats != record["seats"]:
        raise Refused(
            "seats_differ",
            f"The record's seats ({', '.join(record['seats'])}) are not those of a {game.title} table "
            f"with its options ({', '.join(seats)}).",
        )
    seed = bytes.fromhex(record["seed"])
    if hashlib.sha256(seed).hexdigest() != record["commitment"]:
        raise Refused(
            "commitment_mismatch",
            "The seed does not match the commitment shown when the game started (sha256 of the seed must be "
            "the commitment): the dice of this record are not the ones the players were promised.",
        )
    try:
        start = start_state(game, seed, options, record.get("origin"), record.get("origin_state"))
    except ForkBroken as exc:
        raise Refused("fork_mismatch", f"This fork's starting state does not check: {exc}.") from None
    if state_hash(game, start) != record["initial_hash"]:
        raise Refused(
            "setup_mismatch", "The setup dealt from the seed does not match the record's initial_hash."
        )
    return options


def _table_of(game: Game[Any], record: dict[str, Any], options: dict[str, Any]) -> TableRecord:
    """The record as the finished table ``replay_views`` reads (nobody holds its seats)."""
    labels = {s.seat: s.label for s in game.seats(options)}
    return TableRecord(
        id=record["table_id"], game=game.name, rules_version=record["rules_version"],
        title=game.title, options=options, visibility="unlisted", status="finished",
        host_player_id="", host_name="", seq=len(record["actions"]), turn_clock_seconds=None,
        prompt_timeout_seconds=0.0, commitment=record["commitment"], outcome=record["outcome"],
        initial_hash=record["initial_hash"], created_at=datetime.min,
        seats=[SeatRecord(s, labels[s], None, None, None) for s in record["seats"]],
        seed_hex=record["seed"], origin=record.get("origin"), origin_state=record.get("origin_state"),
    )  # fmt: skip


class _Log(list[LoggedAction]):
    """An action log that remembers the seq of the entry it last handed out, so that a failure
    deep in a game's ``apply`` is told with the step it happened at."""

    at = 0

    def __iter__(self) -> Iterator[LoggedAction]:
        for entry in super().__iter__():
            self.at = entry.seq
            yield entry


def _frames(game: Game[Any], table: TableRecord, actions: list[LoggedAction]) -> list[dict[str, Any]]:
    """The replay's frames; replaying checks every recorded hash on the way."""
    log = _Log(actions)
    try:
        return replay_views(game, table, log)
    except LogGap as exc:
        raise Refused("not_consecutive", f"The actions are not consecutive: {exc.message}.") from None
    except HashMismatch as exc:
        raise Refused(
            "hash_mismatch",
            f"Step {exc.seq} does not verify: the state after action {exc.seq} differs from the hash the record "
            "gives for it (the action, or a roll, is not what the seed and the rules make it).",
        ) from None
    except IllegalAction as exc:
        raise Refused(
            "illegal_action", f"Step {log.at}: the action is not legal there ({exc.message})."
        ) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        # A game checks the actions it lists; one made up by hand may trip it before that.
        raise Refused("illegal_action", f"Step {log.at}: this game cannot take the action there.") from None
