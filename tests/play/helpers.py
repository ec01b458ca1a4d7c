"""Checks shared by the live-table tests."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from backend.engine.core import Game
from backend.engine.replay import state_hash
from backend.engine.rng import commitment
from backend.play import patch
from backend.store.repository import ActionWrite
from tests.conformance import assert_no_leak as _assert_no_leak

from ..server_fixtures import WsClient


def leak_paths(data: Any, secrets: set[str], path: str = "") -> list[str]:
    if isinstance(data, dict):
        out = [f"{path}/{k} (key)" for k in data if k in secrets]
        for k, v in data.items():
            out += leak_paths(v, secrets, f"{path}/{k}")
        return out
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in leak_paths(v, secrets, f"{path}[{i}]")]
    return [f"{path} = {data!r}"] if isinstance(data, str) and data in secrets else []


def assert_no_leak(payload: Any, secrets: set[str], where: str) -> None:
    paths = leak_paths(payload, secrets)
    assert not paths, f"{where}: hidden information at {paths[:3]}"
    _assert_no_leak(payload, secrets, where)


def without_hashes(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Record entries as a live record shows them (hashes open with the seed at the end)."""
    return [{**a, "hash": None} for a in actions]


def commit_actions(
    game: Game, repo: Any, table_id: str, first_seq: int, actions: list[tuple[str, dict[str, Any]]], state: Any
) -> Any:
    """Commit ``actions`` to a started table's log as seqs ``first_seq``…, as the server would
    (the hash and the outcome with the last one when it ends the game); returns the state after."""
    writes = []
    for seq, (seat, action) in enumerate(actions, start=first_seq):
        state = game.apply(state, seat, action).state
        done = game.outcome(state)
        writes.append(
            ActionWrite(table_id, seq, seat, action, f"a{seq}", False,
                        state_hash(game, state) if done else None, [],
                        outcome=done.as_dict() if done else None)
        )  # fmt: skip
    assert repo.append_batch(writes) == [None] * len(writes)
    return state


def states_of(game: Game, record: dict[str, Any]) -> list[Any]:
    """Every state of a finished game (index = seq), replayed from its record."""
    seed = bytes.fromhex(record["seed"])
    assert commitment(seed) == record["commitment"]
    state = game.initial_state(seed, game.normalize_options(record["options"]))
    states = [state]
    for entry in record["actions"]:
        state = game.apply(state, entry["seat"], entry["action"]).state
        states.append(state)
    return states


def hidden(game: Game, state: Any, seat: str | None) -> set[str]:
    """What ``seat`` may not see in ``state``; once the game is over everything is revealed."""
    return set() if game.outcome(state) is not None else game.secrets(state, seat) - {""}


def check_no_leaks(
    game: Game, states: list[Any], client: WsClient, seed_hex: str, foreign_tokens: list[str]
) -> int:
    """No frame carries a secret of its moment, another seat's token, or the seed before the end.

    Returns the number of frames checked.
    """
    seq = 0
    finished = False
    for text in client.raw:
        for token in foreign_tokens:
            assert token not in text, "a seat token reached another connection"
        msg = json.loads(text)
        if msg.get("type") == "finished":
            finished = True
        if not finished:
            assert seed_hex not in text, f"the seed leaked before the end: {msg.get('type')}"
        seq = msg.get("seq", seq) if msg.get("type") in ("welcome", "update") else seq
        if msg.get("type") == "update" and "view" not in msg:
            continue  # a missed entry: checked against its own seq below
        if msg.get("type") == "welcome":
            # static_info depends on the options only (never on the seed or the state), so
            # it cannot tell where a face-down tile lies; it may list the public catalogue.
            assert msg["static"] == json.loads(json.dumps(game.static_info(msg["table"]["options"])))
            msg = {k: v for k, v in msg.items() if k != "static"}
        where = f"{msg.get('type')} @ {seq}/{len(states) - 1} to {client.seat}"
        assert_no_leak(msg, hidden(game, states[seq], client.seat), where)
        for missed in msg.get("missed", []):
            assert_no_leak(
                missed, hidden(game, states[missed["seq"]], client.seat), f"missed @ {missed['seq']}"
            )
    return len(client.raw)


def as_doc(msg: dict[str, Any]) -> dict[str, Any]:
    """What a patch applies to, from a welcome or a whole update."""
    return {"v": msg["view"], "l": msg["legal"], "t": msg["to_act"]}


def same(a: Any, b: Any) -> bool:
    """Equal as JSON (Python's == takes 1 for true and 1.0)."""
    return patch.canonical(a) == patch.canonical(b)


def stored_states(db: str | Path, game: Game, tid: str) -> tuple[str, list[Any]]:
    """A live table's seed and its states (index = seq), replayed from the server's own SQLite
    database (``db``: its path, or a ``sqlite:///`` URL): the game need not be over."""
    with sqlite3.connect(str(db).removeprefix("sqlite:///")) as conn:
        seed_hex, options = conn.execute("SELECT seed_hex, options FROM game_table WHERE id = ?", (tid,)).fetchone()
        rows = conn.execute("SELECT seat, action FROM action WHERE table_id = ? ORDER BY seq", (tid,)).fetchall()
    states = [game.initial_state(bytes.fromhex(seed_hex), json.loads(options))]
    for seat, action in rows:
        states.append(game.apply(states[-1], seat, json.loads(action)).state)
    return seed_hex, states
