"""Taking back a step (RB "Movement can be interrupted and resumed"; rules/undo.py): the last
quiet move of one's own hero, while nothing else has happened."""

from __future__ import annotations

import pytest

from backend.engine.core import IllegalAction

from .position import GAME, act, act_events, c, edit, legal, position, seat_of

SPLIT = [["almanor", "choros"], ["eleanor", "gor", "guelin"]]


def _board(tokens: bool = False):
    # Row 8's corridor, (6,8) to (14,8), empty; every hero in Argos until placed.
    return position(
        """
        .........
        """,
        origin=(6, 8),
        heroes=[h for g in SPLIT for h in g],
        split=SPLIT,
        tokens=tokens,
    )


def _place(s, hero, x, y):
    return edit(s, lambda w: w.s["heroes"][hero].update(cell=c(x, y)))


def test_a_quiet_move_is_taken_back_whole():
    s = _place(_board(), "almanor", 9, 8)
    seat = seat_of(s, "almanor")
    before = dict(s["heroes"]["almanor"])
    moved = act(s, seat, {"type": "move", "hero": "almanor", "to": [12, 8]})
    assert moved["heroes"]["almanor"]["cell"] == c(12, 8) and moved["heroes"]["almanor"]["mv"][0] == before["mv"][0] - 3
    assert {"type": "undo_move", "hero": "almanor"} in legal(moved, seat)
    back, events = act_events(moved, seat, {"type": "undo_move", "hero": "almanor"})
    h = back["heroes"]["almanor"]
    assert h["cell"] == c(9, 8) and h["mv"] == before["mv"] and h["moved"] is False
    assert events[0].kind == "hero_move_taken_back" and "(12,8)" in events[0].data["text"]
    assert back["undo"] == [] and not legal(back, seat, "undo_move")


def test_moves_are_taken_back_last_first():
    s = _place(_board(), "almanor", 9, 8)
    seat = seat_of(s, "almanor")
    s1 = act(s, seat, {"type": "move", "hero": "almanor", "to": [10, 8]})
    s2 = act(s1, seat, {"type": "move", "hero": "almanor", "to": [12, 8]})
    back = act(s2, seat, {"type": "undo_move", "hero": "almanor"})
    assert back["heroes"]["almanor"]["cell"] == c(10, 8) and back["heroes"]["almanor"]["mv"] == s1["heroes"]["almanor"]["mv"]
    back2 = act(back, seat, {"type": "undo_move", "hero": "almanor"})
    assert back2["heroes"]["almanor"]["cell"] == c(9, 8)


def test_anything_else_ends_the_take_back():
    s = _place(_place(_board(), "almanor", 9, 8), "eleanor", 14, 8)
    mine, other = seat_of(s, "almanor"), seat_of(s, "eleanor")
    moved = act(s, mine, {"type": "move", "hero": "almanor", "to": [11, 8]})
    # Another seat's move comes on top: only the last move can be taken back, and it is not ours.
    theirs = act(moved, other, {"type": "move", "hero": "eleanor", "to": [13, 8]})
    assert not legal(theirs, mine, "undo_move")
    with pytest.raises(IllegalAction) as refused:
        GAME.validate(theirs, mine, {"type": "undo_move", "hero": "almanor"})
    assert refused.value.code == "illegal_undo_move"
    # Done ends the step and every take-back with it.
    done = act(moved, mine, {"type": "done"})
    assert done["undo"] == []


def test_a_move_that_revealed_something_is_not_taken_back():
    s = _place(_board(tokens=True), "almanor", 9, 8)
    seat = seat_of(s, "almanor")
    token = next(t for t in s["tokens"])
    # Put a treasure token on the way's end: entering it draws a card.
    s = edit(s, lambda w: w.s.update(tokens=[c(11, 8)] + [t for t in w.s["tokens"] if t != token and t != c(11, 8)]))
    moved = act(s, seat, {"type": "move", "hero": "almanor", "to": [11, 8]})
    assert moved["undo"] == [] and not legal(moved, seat, "undo_move")
