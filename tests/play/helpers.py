"""Checks shared by the live-table tests."""

from __future__ import annotations

import json
from typing import Any

from backend.engine.core import Game
from backend.engine.rng import commitment
from tests.conformance import assert_no_leak

from ..server_fixtures import WsClient


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
        assert_no_leak(msg, game.secrets(states[seq], client.seat) - {""}, f"{msg.get('type')} @ {seq}")
        for missed in msg.get("missed", []):
            assert_no_leak(
                missed, game.secrets(states[missed["seq"]], client.seat), f"missed @ {missed['seq']}"
            )
    return len(client.raw)
