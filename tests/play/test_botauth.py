"""The bot runner's stand-in tokens (backend/play/botauth.py): one per table and seat, useless
without the server's key, never mistaken for a seat token."""

from __future__ import annotations

from backend.play.botauth import is_stand_in, runner_key_matches, stand_in_seat, stand_in_token
from backend.store.repository import new_token

KEY = "k" * 32


def test_a_stand_in_token_names_one_seat_of_one_table() -> None:
    token = stand_in_token(KEY, "t1", "hunter")
    assert is_stand_in(token) and not is_stand_in(new_token())
    assert stand_in_seat(KEY, "t1", ["ninja", "hunter"], token) == "hunter"
    assert stand_in_seat(KEY, "t2", ["ninja", "hunter"], token) is None
    assert stand_in_seat("x" * 32, "t1", ["ninja", "hunter"], token) is None
    assert stand_in_seat(None, "t1", ["ninja", "hunter"], token) is None
    assert stand_in_token(KEY, "t1", "ninja") != token


def test_only_the_key_lists_the_bots_work() -> None:
    assert runner_key_matches(KEY, f"Bearer {KEY}")
    assert not runner_key_matches(KEY, "Bearer nope") and not runner_key_matches(KEY, None)
    assert not runner_key_matches(None, "Bearer ")
