"""Game records (the export), their verification (``python -m backend verify``), the state a
live table is rebuilt at from its stored log, and what the log keeps of each action.

A record holds everything needed to re-derive the game: options, seats, every
action with the hash of the state after it, the commitment and, once the game
is over, the seed.  Verifying replays it: the seed must hash to the commitment,
and every state hash must match, which confirms every roll (the dice are a pure
function of the seed, see engine/rng.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from backend.engine.core import Event, Fork, Game, IllegalAction, InvalidOptions, Transition
from backend.engine.options import check_options
from backend.engine.registry import UnknownGame, get_game
from backend.engine.replay import (
    HashMismatch,
    LogEntry,
    LogGap,
    ReplayMismatch,
    hash_and_text,
    replay_log,
    state_hash,
)
from backend.store.repository import ActionWrite, LoggedAction, LoggedEvent, PlayLoad, TableRecord

FORMAT = "dragontable-record/1"
log = logging.getLogger("dragontable.play")


class RecordBroken(Exception):
    """The stored log does not replay to one of its recorded hashes."""


class TableBroken(Exception):
    """The stored log does not replay to its recorded hashes (never silently 'fixed')."""


class ForkBroken(Exception):
    """A fork's starting state does not check (issue 14.5): its text is not the state its origin
    names by hash, or the game cannot fork."""


def start_transition(
    game: Game[Any], seed: bytes, options: Mapping[str, Any], origin: Mapping[str, Any] | None, origin_state: str | None
) -> Transition[Any]:
    """A table's state before its first action, and the events that explain it: the setup dealt
    from the seed, or for a fork (``origin_state`` set) the original's state at the fork's step
    with everything random from then on drawn from the fork's own seed (the ``Fork`` hook).
    Every path that starts a table's replay comes here: the start, the master, the export and
    ``verify``."""
    if origin_state is None:
        return game.initial_transition(seed, options)
    origin = origin or {}
    state = fork_start(game, seed, origin, origin_state)
    text = f"A fork of table {origin.get('table')} at step {origin.get('seq')}: that position, with dice of its own."
    return Transition(state, (Event("forked", {"table": origin.get("table"), "seq": origin.get("seq"), "text": text}),))


def start_state(
    game: Game[Any], seed: bytes, options: Mapping[str, Any], origin: Mapping[str, Any] | None, origin_state: str | None
) -> Any:
    if origin_state is None:
        return game.initial_state(seed, options)
    return fork_start(game, seed, origin or {}, origin_state)


def fork_start(game: Game[Any], seed: bytes, origin: Mapping[str, Any], origin_state: str) -> Any:
    """The state a fork starts from, once its origin state is shown to be the one ``origin``
    names: its text hashes to ``origin["hash"]`` and is that state's canonical encoding."""
    if not isinstance(game, Fork):
        raise ForkBroken(f"{game.title} games cannot be forked")
    digest = hashlib.sha256(origin_state.encode()).hexdigest()
    if digest != origin.get("hash"):
        raise ForkBroken("the fork's origin state does not match the hash of the original's state it names")
    try:
        state = game.decode_state(json.loads(origin_state))
    except (ValueError, TypeError, KeyError) as exc:
        raise ForkBroken(f"the fork's origin state is not a {game.title} state ({exc})") from None
    if state_hash(game, state) != digest:
        raise ForkBroken("the fork's origin state is not in its canonical encoding")
    return game.fork_state(state, seed)


def log_write(
    game: Game[Any],
    table_id: str,
    seq: int,
    seat: str,
    action: dict[str, Any],
    action_id: str,
    transition: Transition[Any],
    *,
    auto: bool,
    snapshot_every: int,
    hash_every: int,
    hash_all: bool,
) -> ActionWrite:
    """What the log keeps of the action committed as ``seq``: the action, its events, the
    outcome it reached, and at proof points the hash of the state after it, with the state's
    text every ``snapshot_every`` actions.

    A full canonical hash costs more than applying the action, so a lone worker records it every
    ``hash_every`` actions, at every snapshot and at the end: a restart replays from a checked
    snapshot and checks every recorded hash on the way; the export fills the others by replay,
    so ``verify`` still checks every roll. Workers replicating a table over the bus hash every
    action (``hash_all``), to prove their replicas agree at every step."""
    outcome = game.outcome(transition.state)
    snapshot = seq % snapshot_every == 0
    digest = text = None
    if snapshot or outcome is not None or seq % hash_every == 0 or hash_all:
        digest, text = hash_and_text(game, transition.state)
    return ActionWrite(
        table_id=table_id,
        seq=seq,
        seat=seat,
        action=action,
        action_id=action_id,
        by_timeout=auto,
        state_hash=digest,
        events=[LoggedEvent(e.kind, dict(e.data), sorted(e.to) if e.to is not None else None) for e in transition.events],
        snapshot=text if snapshot else None,
        outcome=outcome.as_dict() if outcome is not None else None,
    )


def build_state(game: Game[Any], load: PlayLoad, all_actions: Callable[[], list[LoggedAction]]) -> tuple[Any, int]:
    """Snapshot (if its hash checks) + replay of later actions, checking every recorded hash.

    ``all_actions`` is called to fetch the whole log when the snapshot is unusable.
    """
    table = load.table
    try:
        # A table stored before options were bounded by their schema (issue 9) may hold one a
        # welcome cannot encode: it is refused with a reason instead of dropping every socket.
        check_options(game.options_schema(), table.options)
    except InvalidOptions as exc:
        raise TableBroken(f"table {table.id}: its options are out of range ({exc.message})") from None
    if table.status == "open" or table.seed_hex is None:
        return None, 0
    state = None
    actions = load.actions
    base = 0
    if load.snapshot_state is not None and load.snapshot_seq is not None:
        if hashlib.sha256(load.snapshot_state.encode()).hexdigest() == load.snapshot_hash:
            decoded = game.decode_state(json.loads(load.snapshot_state))
            if hash_and_text(game, decoded)[0] == load.snapshot_hash:
                state, base = decoded, load.snapshot_seq
        if state is None:
            log.warning("table %s: snapshot %s unusable, replaying the whole log", table.id, load.snapshot_seq)
            actions = all_actions()
    if state is None:
        try:
            state = start_state(game, bytes.fromhex(table.seed_hex), table.options, table.origin, table.origin_state)
        except ForkBroken as exc:
            raise TableBroken(f"table {table.id}: {exc}") from None
        if table.initial_hash is not None and state_hash(game, state) != table.initial_hash:
            raise TableBroken(f"table {table.id}: the setup does not match its recorded hash")
    try:
        for step in replay_log(game, state, actions, after=base):
            state, base = step.state, step.seq
    except ReplayMismatch as exc:
        raise TableBroken(f"table {table.id}: {exc.message}") from None
    if base != table.seq:
        raise TableBroken(f"table {table.id}: log ends at {base}, table says {table.seq}")
    return state, base


def action_hashes(game: Game[Any], table: TableRecord, actions: list[LoggedAction]) -> list[str]:
    """The state hash after every action: recorded ones, the others by replay from the seed.

    The server records hashes at proof points only (play/master.py); the replay
    fills the gaps and must agree with every recorded one on the way.
    """
    if all(a.state_hash is not None for a in actions):
        return [a.state_hash for a in actions]  # type: ignore[misc]
    if table.seed_hex is None:
        raise RecordBroken(f"table {table.id} has actions but no seed")
    try:
        state = start_state(game, bytes.fromhex(table.seed_hex), table.options, table.origin, table.origin_state)
    except ForkBroken as exc:
        raise RecordBroken(f"table {table.id}: {exc}") from None
    try:
        return [step.digest for step in replay_log(game, state, actions, every_hash=True)]  # type: ignore[misc]
    except ReplayMismatch as exc:
        raise RecordBroken(f"table {table.id}: the log does not replay to its hash at seq {exc.seq}") from None


def build_record(
    game: Game[Any], table: TableRecord, actions: list[LoggedAction], viewers: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The record of a table as a requester holding ``viewers`` (its seats there) may read it.

    Once the game is over it is complete and public: the seed, every action as taken and the
    hash after every one, so ``verify`` can check every roll.  While it is live nothing in it
    may help anyone: no seed and no hash (they open together at the end), and each action as
    the game's ``redact_action`` lets those seats read it; ``"complete": false`` says so.
    """
    finished = table.status == "finished"
    hashes: list[str | None]
    if finished:
        hashes = list(action_hashes(game, table, actions))
        shown = [a.action for a in actions]
    else:
        hashes = [None] * len(actions)
        shown = [game.redact_action(table.options, a.seat, a.action, viewers) for a in actions]
    return {
        "format": FORMAT,
        "table_id": table.id,
        "game": table.game,
        "rules_version": table.rules_version,
        "options": table.options,
        "seats": [s.seat for s in table.seats],
        "status": table.status,
        "complete": finished,
        "commitment": table.commitment,
        "seed": table.seed_hex if finished else None,  # never before the end
        "initial_hash": table.initial_hash if finished else None,
        "actions": [
            {
                "seq": a.seq,
                "seat": a.seat,
                "action": action,
                "action_id": a.action_id,
                "hash": digest,
                "auto": a.by_timeout,
            }
            for a, action, digest in zip(actions, shown, hashes, strict=True)
        ],
        "final_hash": (hashes[-1] if hashes else table.initial_hash) if finished else None,
        "outcome": table.outcome,
        # A fork (issue 14.5): where it came from, and the original's state there (public: the
        # original is over), from which ``verify`` re-derives the fork's start.
        "origin": table.origin,
        "origin_state": table.origin_state,
    }


def replay_views(game: Game[Any], table: TableRecord, actions: list[LoggedAction]) -> list[dict[str, Any]]:
    """Frame 0 is the setup, frame k the state after action k; everything revealed."""
    assert table.seed_hex is not None
    start = start_transition(game, bytes.fromhex(table.seed_hex), table.options, table.origin, table.origin_state)
    state = start.state
    frames: list[dict[str, Any]] = [
        {"seq": 0, "seat": None, "action": None, "events": [e.as_dict() for e in start.events],
         "view": game.view(state, None, reveal=True), "to_act": sorted(game.to_act(state))}
    ]  # fmt: skip
    for step in replay_log(game, state, actions):
        frames.append(
            {
                "seq": step.seq,
                "seat": step.seat,
                "action": step.action,
                "events": [e.as_dict() for e in step.transition.events],
                "view": game.view(step.state, None, reveal=True),
                "to_act": sorted(game.to_act(step.state)),
            }
        )
    return frames


class VerifyFailed(Exception):
    pass


def verify_record(record: Mapping[str, Any]) -> str:
    """Replay a record; returns a summary or raises VerifyFailed saying what is wrong."""
    if record.get("format") != FORMAT:
        raise VerifyFailed(f"not a Dragontable record (format must be {FORMAT!r})")
    try:
        game = get_game(str(record["game"]))
    except (UnknownGame, ImportError):
        raise VerifyFailed(f"unknown game {record.get('game')!r}") from None
    if record.get("rules_version") != game.rules_version:
        raise VerifyFailed(
            f"the record was played under rules version {record.get('rules_version')}, "
            f"this server has version {game.rules_version}"
        )
    seed_hex = record.get("seed")
    if not seed_hex:
        raise VerifyFailed("the record has no seed: the game is not over, so its dice cannot be checked yet")
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise VerifyFailed("the seed is not hexadecimal") from None
    if hashlib.sha256(seed).hexdigest() != record.get("commitment"):
        raise VerifyFailed("the seed does not match the commitment shown at the start")
    options = game.normalize_options(record.get("options") or {})
    origin, origin_state = record.get("origin"), record.get("origin_state")
    if (origin is None) != (origin_state is None) or not isinstance(origin or {}, Mapping):
        raise VerifyFailed("the record names a fork's origin without its state, or the other way round")
    try:
        state = start_state(game, seed, options, origin, origin_state)
    except ForkBroken as exc:
        raise VerifyFailed(str(exc)) from None
    if record.get("initial_hash") and state_hash(game, state) != record["initial_hash"]:
        raise VerifyFailed("the initial state (the setup dealt from the seed) does not match")
    entries = [
        # A missing hash is "" so that it is reported as a mismatch at its seq.
        LogEntry(entry.get("seq"), entry["seat"], entry["action"], entry.get("hash") or "")
        for entry in record.get("actions") or []
    ]
    rolls_checked = 0
    try:
        for step in replay_log(game, state, entries):
            state, rolls_checked = step.state, step.seq
    except LogGap as exc:
        raise VerifyFailed(f"actions are not consecutive at seq {exc.seq}") from None
    except HashMismatch as exc:
        raise VerifyFailed(
            f"seq {exc.seq}: the state after this action differs from the record "
            "(a roll or the action does not match the seed)"
        ) from None
    except IllegalAction as exc:
        raise VerifyFailed(f"seq {rolls_checked + 1}: the action is illegal ({exc.message})") from None
    final = state_hash(game, state)
    if record.get("final_hash") and final != record["final_hash"]:
        raise VerifyFailed("the final state hash does not match")
    outcome = game.outcome(state)
    if (outcome.as_dict() if outcome else None) != record.get("outcome"):
        raise VerifyFailed("the outcome does not match the replay")
    forked = f" (a fork of table {origin['table']} at step {origin['seq']}, from the state it names)" if origin else ""
    return (
        f"OK: {record.get('game')} table {record.get('table_id')}{forked}: the seed matches the commitment, "
        f"{rolls_checked} actions replayed with every state hash (and so every roll) matching, "
        f"final hash {final[:16]}…"
    )
