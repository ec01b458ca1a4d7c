"""Who the server answers for, and when (prompt timeout, gone seats, turn clock)."""

from backend.play.timers import seat_deadlines


def test_connected_seat_on_its_turn_has_no_deadline_without_a_turn_clock() -> None:
    assert seat_deadlines(["a"], frozenset(), {"a": 100.0}, frozenset({"a"}), {}, 60, None) == {}


def test_prompted_seat_gets_the_prompt_timeout() -> None:
    got = seat_deadlines(
        ["a", "b"], frozenset({"b"}), {"a": 100.0, "b": 110.0}, frozenset({"a", "b"}), {}, 30, None
    )
    assert got == {"b": 140.0}


def test_gone_seat_counts_from_when_it_left_or_was_asked() -> None:
    since = {"a": 100.0}
    assert seat_deadlines(["a"], frozenset(), since, frozenset(), {"a": 150.0}, 60, None) == {"a": 210.0}
    assert seat_deadlines(["a"], frozenset(), since, frozenset(), {"a": 50.0}, 60, None) == {"a": 160.0}


def test_turn_clock_bounds_every_decision_and_the_earliest_wins() -> None:
    got = seat_deadlines(
        ["a", "b"], frozenset({"b"}), {"a": 0.0, "b": 0.0}, frozenset({"a", "b"}), {}, 60, 20
    )
    assert got == {"a": 20.0, "b": 20.0}
    got = seat_deadlines(["b"], frozenset({"b"}), {"b": 0.0}, frozenset({"b"}), {}, 10, 20)
    assert got == {"b": 10.0}


def test_side_clock_counts_only_while_its_side_owes_input_and_restarts_each_turn() -> None:
    import doctest

    from backend.play import timers
    from backend.play.timers import SideClock

    assert doctest.testmod(timers).failed == 0
    clock = SideClock()
    keeper = {"turn": "1:keeper", "seats": ["keeper"], "seconds": 120, "running": True}
    clock.update(keeper, 0.0)
    clock.update({**keeper, "running": False}, 100.0)  # the heroes owe their parries
    clock.update(keeper, 160.0)
    assert clock.deadline() == 180.0 and clock.seats == {"keeper"}
    clock.update({"turn": "1:heroes", "seats": ["heroes_1"], "seconds": 120, "running": True}, 170.0)
    assert clock.deadline() == 290.0
    clock.update(None, 171.0)
    assert clock.deadline() is None and clock.turn is None
