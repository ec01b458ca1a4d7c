"""A table's id: random, and fit for a command line."""

from __future__ import annotations

from backend.store.repository import new_id
from backend.textcheck import TABLE_ID


def test_an_id_never_starts_with_a_dash() -> None:
    """A table's id goes on command lines (``python -m backend bot --table ID``), where a leading
    "-" reads as an option: one in 64 of the ids before."""
    ids = [new_id() for _ in range(5000)]
    assert not any(i.startswith("-") for i in ids) and len(set(ids)) == 5000
    assert all(TABLE_ID.fullmatch(i) for i in ids)
    assert any("-" in i for i in ids)  # the dash is still in the alphabet, elsewhere
