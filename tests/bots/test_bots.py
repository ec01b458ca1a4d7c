"""Bots (issue 12): every level plays whole games of both games through the bot table
(backend/bots/table.py), always answering with one of the listed actions; no bot takes a game
state for a view; the strong level keeps to its time budget on the clock it is handed, and finds
a win the steady pick may miss."""

import dataclasses
from typing import Any

import pytest

from backend.bots import LEVELS, Budget, NotAView, dorasure_play, make_bot, play_bots, search
from backend.bots.belief import Belief
from backend.bots.interface import Bot
from backend.engine.core import Action
from backend.engine.playout import driver_rng
from backend.engine.registry import get_game
from backend.engine.rng import Rng, seed_from_int

DORASURE = get_game("dorasure")
DORN = get_game("dorn")
FOUR = {"heroes": ["ninja", "hunter", "paladin", "shaman"]}
# Three rounds, then the engine abandons the game (content 5.12): long enough for every step.
# No surrender: a random Keeper would take it in his first step.
SHORT_DORN = {
    "hero_seats": 2,
    "round_limit": 3,
    "phase_action_limit": 40,
    "take_back_limit": 1,
    "allow_surrender": False,
}
TWO = {"heroes": ["ninja", "hunter"]}


class FakeClock:
    """A clock that moves ``tick`` seconds each time it is read."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


class Listed:
    """Wraps a bot: fails unless every answer is one of the very dicts it was offered."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.level = bot.level
        self.decisions = 0

    def decide(self, view: Any, seat: str, legal: Any, events: Any, rng: Rng, budget: Budget) -> Action:
        action = self.bot.decide(view, seat, legal, events, rng, budget)
        assert any(action is a for a in legal), (
            f"{self.level} answered {action!r}, not one of its listed actions"
        )
        self.decisions += 1
        return action


def bot(level: str, game: Any) -> Bot:
    return make_bot(level, game, max_iterations=2) if level == "strong" else make_bot(level, game)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_dorasure_to_the_end(level):
    table = FOUR if level != "strong" else TWO  # the strong level's rollouts play whole games
    seating = {h: Listed(bot(level, DORASURE)) for h in table["heroes"]}
    record = play_bots(DORASURE, 11, table, seating, seconds=1.0, clock=FakeClock(0.001))
    assert record.outcome is not None and record.outcome.result in ("players_win", "players_lose")
    assert sum(b.decisions for b in seating.values()) == record.actions == len(record.decisions)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_dorn_through_every_step(level):
    seating = {s: Listed(bot(level, DORN)) for s in ("keeper", "heroes_1", "heroes_2")}
    record = play_bots(DORN, 12, SHORT_DORN, seating, seconds=1.0, clock=FakeClock(0.001))
    assert record.outcome is not None
    assert {d.seat for d in record.decisions} == set(seating)


def test_levels_mix_at_one_table():
    seating = {"keeper": make_bot("strong", DORN, max_iterations=2), "heroes_1": make_bot("steady", DORN)}
    seating["heroes_2"] = make_bot("random", DORN)
    record = play_bots(DORN, 13, SHORT_DORN, seating, seconds=1.0, clock=FakeClock(0.001))
    assert {d.level for d in record.decisions} == {"strong", "steady", "random"}


# -- a bot sees what its seat sees, nothing more -------------------------------------------------


def states_and_views() -> list[tuple[Any, Any, str]]:
    ds = DORASURE.initial_state(seed_from_int(1), DORASURE.normalize_options(FOUR))
    dn = DORN.initial_state(seed_from_int(1), DORN.normalize_options(SHORT_DORN))
    return [(DORASURE, ds, "ninja"), (DORN, dn, "keeper")]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", [0, 1], ids=["dorasure", "dorn"])
def test_no_bot_takes_a_state(level, case):
    game, state, seat = states_and_views()[case]
    legal = game.legal_actions(state, seat)
    b = bot(level, game)
    budget = Budget(1.0, FakeClock(0.001))
    with pytest.raises(NotAView):
        b.decide(state, seat, legal, [], Rng(seed_from_int(2)), budget)
    # Not even the encoded state (plain JSON, like a view), nor a view with the seed put back.
    with pytest.raises(NotAView):
        b.decide(game.encode_state(state), seat, legal, [], Rng(seed_from_int(2)), budget)
    view = game.view(state, seat)
    action = b.decide(view, seat, legal, [], Rng(seed_from_int(2)), budget)
    assert action in legal
    seeded = {**view, "rng": [state["rng"][0], 0]} if case else {**view, "seed": state.seed}
    with pytest.raises(NotAView):
        b.decide(seeded, seat, legal, [], Rng(seed_from_int(2)), budget)


def test_a_view_of_another_seat_is_refused():
    state = DORN.initial_state(seed_from_int(4), DORN.normalize_options(SHORT_DORN))
    keeper_view = DORN.view(state, "keeper")  # shows the Keeper's Ritual hand
    with pytest.raises(NotAView):
        budget = Budget(1.0, FakeClock(0.001))
        make_bot("steady", DORN).decide(
            keeper_view, "heroes_1", [{"type": "done"}], [], Rng(seed_from_int(5)), budget
        )


# -- the strong level ---------------------------------------------------------------------------


def mid_game(game: Any, seed: int, options: dict[str, Any], steps: int) -> tuple[Any, dict[str, list]]:
    """A steered game's state after ``steps`` actions, with every seat's events."""
    options = game.normalize_options(options)
    start = game.initial_transition(seed_from_int(seed), options)
    state = start.state
    told = {s.seat: [e.as_dict() for e in start.events if e.visible_to(s.seat)] for s in game.seats(options)}
    rng = driver_rng(seed)
    for _ in range(steps):
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        t = game.apply(state, seat, game.sim_choice(state, seat, legal, rng))
        state = t.state
        for s in told:
            told[s].extend(e.as_dict() for e in t.events if e.visible_to(s))
    return state, told


def test_strong_stops_at_its_deadline():
    state, told = mid_game(DORASURE, 5, FOUR, 6)
    seat = sorted(DORASURE.to_act(state))[0]
    legal = DORASURE.legal_actions(state, seat)
    assert len(legal) > 1
    clock = FakeClock(0.01)
    strong = make_bot("strong", DORASURE)
    started = clock.now
    strong.decide(
        DORASURE.view(state, seat), seat, legal, told[seat], Rng(seed_from_int(6)), Budget(0.5, clock)
    )
    # One reading per sampled state (Dorasure plays every candidate out from each): about
    # 0.5 / 0.01 samples, and not one past the deadline.
    assert 30 <= strong.last_samples <= 50  # type: ignore[attr-defined]
    assert strong.last_iterations >= strong.last_samples  # type: ignore[attr-defined]
    assert clock.now - started <= 0.5 + 0.03


def test_strong_is_reproducible():
    state, told = mid_game(DORASURE, 8, FOUR, 10)
    seat = sorted(DORASURE.to_act(state))[0]
    legal, view = DORASURE.legal_actions(state, seat), DORASURE.view(state, seat)
    budget = Budget(9.0, FakeClock(0.001))
    picks = [
        make_bot("strong", DORASURE, max_iterations=40).decide(
            view, seat, legal, told[seat], Rng(seed_from_int(9)), budget
        )
        for _ in range(2)
    ]
    assert picks[0] == picks[1]


def zorkal_in_reach() -> tuple[Any, str, dict[str, list]]:
    """The first state of a steered game where a hero seat may attack Zorkal (Gate open)."""
    for seed in range(40):
        options = DORN.normalize_options(DORN.sim_options(driver_rng(seed), 2, {}))
        start = DORN.initial_transition(seed_from_int(seed), options)
        state = start.state
        told = {
            s.seat: [e.as_dict() for e in start.events if e.visible_to(s.seat)] for s in DORN.seats(options)
        }
        rng = driver_rng(seed)
        while DORN.outcome(state) is None:
            seat = sorted(DORN.to_act(state))[0]
            legal = DORN.legal_actions(state, seat)
            if state["phase"] == "H3" and any(
                a["type"] == "attack" and a["target"] == "zorkal" for a in legal
            ):
                return state, seat, told
            t = DORN.apply(state, seat, DORN.sim_choice(state, seat, legal, rng))
            state = t.state
            for s in told:
                told[s].extend(e.as_dict() for e in t.events if e.visible_to(s))
    raise AssertionError("no hero reached Zorkal in 40 games")


def test_strong_heroes_take_the_winning_blow():
    """A hero in reach of Zorkal at 1 life, in the attack step: the strong level attacks Zorkal
    every time; the steady pick (the simulator's steering) does only three times in four."""
    state, seat, told = zorkal_in_reach()
    state = DORN.decode_state({**DORN.encode_state(state), "zorkal": {**state["zorkal"], "life": 1}})
    legal = DORN.legal_actions(state, seat)
    assert any(a["type"] != "attack" or a["target"] != "zorkal" for a in legal)
    strong = make_bot("strong", DORN, max_iterations=60)
    for i in range(3):
        budget = Budget(9.0, FakeClock(0.001))
        action = strong.decide(DORN.view(state, seat), seat, legal, told[seat], Rng(seed_from_int(i)), budget)
        assert action["type"] == "attack" and action["target"] == "zorkal"


# -- the paired comparison (Dorasure) ------------------------------------------------------------


def test_paired_race_drops_the_trailing_and_the_alike():
    # Candidate 1 trails 0 on every sample by 0.3; 2 scores as 0 on every sample; 3 trails by
    # between 2 and DROP standard errors of the differences: it stays (at 2 it would leave).
    n = search.MIN_ROUNDS
    base = [(0.5, 0.6, 0.4, 0.7)[i % 4] for i in range(n)]
    scores = {
        0: base,
        1: [x - 0.3 for x in base],
        2: list(base),
        3: [x - (0.0, 0.2)[i % 2] for i, x in enumerate(base)],
    }
    mean, error = search._differences(scores[0], scores[3])
    assert 2 * error < mean < search.DROP * error
    search._drop_trailing(scores, steady=2)
    assert sorted(scores) == [2, 3]  # of the alike pair the steady pick stays


def test_paired_race_waits_for_enough_samples():
    n = search.MIN_ROUNDS - 1
    scores = {0: [1.0] * n, 1: [0.0] * n}
    search._drop_trailing(scores, steady=1)
    assert sorted(scores) == [0, 1]


def test_paired_answer_departs_from_steady_only_on_evidence():
    steady = [0.30, 0.50, 0.20, 0.60, 0.40, 0.35]
    clear = [x + 0.05 for x in steady]  # ahead by 0.05 on every sample: no noise left
    noisy = [0.60, 0.20, 0.50, 0.30, 0.70, 0.10]  # ahead on average, by less than an error
    assert search._paired_answer({0: steady, 1: clear}, steady=0) == 1
    assert search._paired_answer({0: steady, 1: noisy}, steady=0) == 0
    assert search._paired_answer({1: noisy}, steady=0) == 1  # the steady pick left the race


def test_paired_candidates_share_the_dice():
    """Played out from one sampled state with one rollout seed, a candidate scores the same every
    time: the dice are the state's and the rollout's stream is the seed's, so two candidates
    compared on that sample differ only by what the choice changed."""
    state, told = mid_game(DORASURE, 8, FOUR, 10)
    seat = sorted(DORASURE.to_act(state))[0]
    legal = DORASURE.legal_actions(state, seat)
    strong = make_bot("strong", DORASURE)
    assert isinstance(strong, search.StrongBot)
    sample = Belief(DORASURE, DORASURE.view(state, seat), seat, told[seat]).checked_sample(
        Rng(seed_from_int(3))
    )
    seed = seed_from_int(4)
    first = [strong._play_out(sample, seat, (a,), Rng(seed)) for a in legal]
    again = [strong._play_out(sample, seat, (a,), Rng(seed)) for a in legal]
    assert len(legal) > 1 and first == again


def test_paired_rollouts_throw_the_same_dice_from_the_next_turn():
    """``Playbook.resync``: two candidates that throw different numbers of dice in their own turn
    (an Adventure against a rest) reach the next hero's turn with the dice dealt again from the
    sample's seed and the turn, so from there both throw the same dice (the state's seed and
    counter are all the dice depend on); without the resync they would run on from where each
    candidate left the sample's stream."""
    for steps in range(200):
        state, told = mid_game(DORASURE, 8, FOUR, steps)
        seat = sorted(DORASURE.to_act(state))[0]
        legal = DORASURE.legal_actions(state, seat)
        kinds = {a["type"] for a in legal}
        if state.phase != dorasure_play.BATTLE and {"adventure", "end_turn"} <= kinds:
            break
    else:
        pytest.fail("no Adventure-or-end-turn choice in the first 200 steps")
    sample = Belief(DORASURE, DORASURE.view(state, seat), seat, told[seat]).checked_sample(Rng(seed_from_int(3)))
    # Rollouts cut as the next hero's turn begins, to look at what that turn throws from.
    book = dataclasses.replace(dorasure_play.PLAYBOOK, settled=lambda s, origin: s.turn > origin.turn)
    strong = search.StrongBot(DORASURE, book)
    seed = seed_from_int(4)
    ends = {}
    for kind in ("adventure", "end_turn"):
        action = next(a for a in legal if a["type"] == kind)
        after = DORASURE.apply(sample, seat, action).state
        synced = strong._rollout(after, Rng(seed), origin=sample, dice=seed)
        unsynced = strong._rollout(after, Rng(seed), origin=sample)
        assert synced.turn == unsynced.turn == sample.turn + 1 and synced.result is None
        ends[kind] = (synced.seed, synced.counter), (unsynced.seed, unsynced.counter)
    (adventured, adventured_on), (ended, ended_on) = ends["adventure"], ends["end_turn"]
    assert adventured == ended and adventured[0] != sample.seed
    assert adventured_on[1] > ended_on[1]  # the Adventure's dice were drawn from the same stream


def test_a_move_is_searched_with_the_action_where_it_ends():
    """Dorasure's paired search compares (move, action there) pairs (``Playbook.joined``): every
    listed move is a first step of some plan, each move that ends in the action prompt comes
    with each action open there, and the steady plan is the steady move and the steady action."""
    for steps in range(40):
        state, told = mid_game(DORASURE, 8, FOUR, steps)
        seat = sorted(DORASURE.to_act(state))[0]
        prompt = state.prompt_for(seat)
        if prompt is not None and prompt["kind"] == "move" and state.phase != dorasure_play.BATTLE:
            break
    else:
        pytest.fail("no move prompt in the first 40 steps")
    strong = make_bot("strong", DORASURE)
    assert isinstance(strong, search.StrongBot)
    book = dorasure_play.PLAYBOOK
    candidates = strong._playable(state, seat, DORASURE.legal_actions(state, seat))
    rng = Rng(seed_from_int(5))
    anchor = book.steady(state, seat, candidates, rng)
    plans, steady = strong._plans(state, seat, candidates, anchor, rng)
    firsts = [p[0] for i, p in enumerate(plans) if i == 0 or plans[i - 1][0] != p[0]]
    assert firsts == candidates  # each move once, in the listed order
    paired = 0
    for move in candidates:
        after = DORASURE.apply(state, seat, move).state
        ours = [p for p in plans if p[0] == move]
        if book.joined is not None and book.joined(after, seat):
            assert [p[1] for p in ours] == strong._playable(after, seat, DORASURE.legal_actions(after, seat))
            paired += 1
        else:
            assert ours == [(move,)]
    assert paired > 0
    assert plans[steady][0] == anchor
    if len(plans[steady]) == 2:
        after = DORASURE.apply(state, seat, anchor).state
        follow = strong._playable(after, seat, DORASURE.legal_actions(after, seat))
        assert plans[steady][1] == book.steady(after, seat, follow, Rng(seed_from_int(6)))
