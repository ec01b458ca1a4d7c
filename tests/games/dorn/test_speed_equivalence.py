"""The Keeper's movement list built incrementally (issue 15.3) is the one built from scratch.

Along a game each state's reader inherits the creature walks of the state before
(``state.hand_over``), and ``steps.creature_blocks`` reuses every walk whose looked-at cells
still hold what they held; the simulator sorts the moves block by block, remembering each
block while its walk is the same (``sim._keeper_moves``).  At every Keeper movement step of
seeded steered games, with and without variants, the list equals the one a fresh reader builds
with no walk known, and the steering reads the same purposeful and approaching moves as when it
reads the list move by move.
"""

from __future__ import annotations

from backend.engine.playout import driver_rng, play_random
from backend.engine.rng import seed_from_int
from backend.games.dorn import sim
from backend.games.dorn.board import BOARD
from backend.games.dorn.game import GAME
from backend.games.dorn.rules import movement
from backend.games.dorn.rules.turns import MONSTER_MOVES
from backend.games.dorn.state import KEEPER, Work, reader

from . import pure

SEEDS = range(4000, 4008)


def _options(seed: int) -> dict:
    """Plain tables, and tables with the variants that change walks: Tactics and Flight (a walk
    stops where a hero engages the creature), Cave-in (rubble)."""
    variant = {1: {"tactics_and_flight": True}, 2: {"cave_in": True}}.get(seed % 4, {})
    return GAME.normalize_options(GAME.sim_options(driver_rng(seed), None, variant))


def _from_scratch(state: dict) -> list:
    """The Keeper's list of a copy of ``state`` read by a new reader that knows no walk."""
    from backend.games.dorn import actions

    copy = GAME.decode_state(GAME.encode_state(state))
    return actions.legal(copy, KEEPER)


def test_the_incremental_keeper_list_is_the_one_from_scratch():
    lists = moves = 0
    for seed in SEEDS:
        options = _options(seed)
        assert options["tactics_and_flight"] == (seed % 4 == 1) and options["cave_in"] == (seed % 4 == 2)
        state = GAME.initial_state(seed_from_int(seed), options)
        rng = driver_rng(seed)
        while GAME.outcome(state) is None:
            seats = sorted(GAME.to_act(state))
            seat = seats[rng.below(len(seats))]
            legal = GAME.legal_actions(state, seat)
            keeper_moves = (
                seat == KEEPER
                and state["phase"] == MONSTER_MOVES
                and state["prompt"] is None
                and state["surrender"] is None
            )
            if keeper_moves:
                fast = sim._keeper_moves(state, legal)
                slow = sim._keeper_moves_listed(state, legal)
                assert [list(f) for f in fast] == [list(s) for s in slow]
                assert legal == _from_scratch(state)
                lists += 1
                moves += sum(a["type"] == "move" for a in legal)
            action = GAME.sim_choice(state, seat, legal, rng)
            state = GAME.apply(state, seat, action).state
    assert lists > 500 and moves > 50_000


def test_a_list_handed_in_other_than_the_one_built_is_read_move_by_move():
    """The bots steer among a filtered list (``backend/bots/dorn_play.py``): no blocks then."""
    seed = 4000
    state = GAME.initial_state(seed_from_int(seed), _options(seed))
    rng = driver_rng(seed)
    while not (state["phase"] == MONSTER_MOVES and KEEPER in GAME.to_act(state) and state["prompt"] is None):
        seat = sorted(GAME.to_act(state))[0]
        state = GAME.apply(
            state, seat, GAME.sim_choice(state, seat, GAME.legal_actions(state, seat), rng)
        ).state
    legal = GAME.legal_actions(state, KEEPER)
    some = [a for a in legal if a["type"] != "move" or a["figure"] != legal[-1].get("figure")]
    assert len(some) < len(legal)
    primary, approach = sim._keeper_moves(state, some)
    assert isinstance(primary, list) and isinstance(approach, list)
    assert (primary, approach) == sim._keeper_moves_listed(state, some)


def test_walks_pass_from_a_reader_to_the_next_state_only():
    """The Work ``apply`` edits keeps no walks nor list (its state changes under it); the reader
    of the state it makes inherits the walks of the reader of the state it came from."""
    state = GAME.initial_state(seed_from_int(4000), _options(4000))
    work = Work(state)
    assert work.walks is None and work.keeper_moves is None
    before = reader(state)
    seat = sorted(GAME.to_act(state))[0]
    after = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]).state
    assert reader(after).walks is before.walks is not None


def test_every_listed_action_is_in_the_part_of_the_list_check_builds():
    """``check`` accepts an action found in the copy of the list ``legal`` kept (``actions.legal``)
    without building the part of the list the action could be in: the same answer only if every
    listed action is in its part.  Checked at every step of seeded games, every seat's list."""
    from backend.games.dorn import actions

    parts = 0
    for seed in (4001, 4002, 4003):
        state = GAME.initial_state(seed_from_int(seed), _options(seed))
        rng = driver_rng(seed)
        seats = [s.seat for s in GAME.seats(state["options"])]
        while GAME.outcome(state) is None:
            for seat in seats:
                found: dict[tuple, list] = {}
                for a in GAME.legal_actions(state, seat):
                    if a["type"] == "move":
                        continue
                    focus = a.get("hero") if isinstance(a.get("hero"), str) else a.get("figure")
                    focus = focus if isinstance(focus, str) else None
                    key = (a["type"], focus)
                    if key not in found:
                        found[key] = actions.legal(state, seat, only=a["type"], hero=focus)
                        parts += 1
                    assert a in found[key], (seed, seat, a)
            seat = sorted(GAME.to_act(state))[0]
            action = GAME.sim_choice(state, seat, GAME.legal_actions(state, seat), rng)
            state = GAME.apply(state, seat, action).state
    assert parts > 1000


def test_every_hero_destination_is_a_cell_the_hero_may_stop_on():
    """``hero_destinations`` tests a stop inline (it runs for every cell of every hero's walk):
    each cell it returns is one ``hero_may_stop`` accepts, so the two cannot drift apart."""
    checked = 0
    for seed in SEEDS[:3]:
        state = GAME.initial_state(seed_from_int(seed), _options(seed))
        rng = driver_rng(seed)
        while GAME.outcome(state) is None:
            w = Work(state)
            for hid, hero in state["heroes"].items():
                if hero.get("cell") is None:
                    continue
                for cell in movement.hero_destinations(w, hid):
                    assert movement.hero_may_stop(w, hid, cell), (seed, hid, cell)
                    checked += 1
            seats = sorted(GAME.to_act(state))
            seat = seats[rng.below(len(seats))]
            state = GAME.apply(
                state, seat, GAME.sim_choice(state, seat, GAME.legal_actions(state, seat), rng)
            ).state
    assert checked > 1000


def test_placeable_is_every_cell_can_place_accepts():
    """R11's list (``obstacles.placeable``) gathers ``can_place``'s tests into sets once rather
    than asking it of every candidate: every 10th state of 3 seeded games, the list is exactly
    the candidates ``can_place`` accepts, in order, so the two cannot drift apart."""
    from backend.games.dorn.rules import obstacles

    compared = 0
    for seed in SEEDS[:3]:
        state = GAME.initial_state(seed_from_int(seed), _options(seed))
        rng = driver_rng(seed)
        step = 0
        while GAME.outcome(state) is None:
            if step % 10 == 0:
                w = Work(state)
                accepted = [c for c in obstacles._CANDIDATES if obstacles.can_place(w, c)]
                assert obstacles.placeable(w) == accepted, (seed, step)
                compared += bool(accepted)
            seats = sorted(GAME.to_act(state))
            seat = seats[rng.below(len(seats))]
            state = GAME.apply(
                state, seat, GAME.sim_choice(state, seat, GAME.legal_actions(state, seat), rng)
            ).state
            step += 1
    assert compared > 100


def test_reach_zones_leave_out_only_targets_out_of_reach(monkeypatch):
    """Heroes' attacks (H3, ``attacks_of``) and creatures' (K4, ``attack_targets``) ask whether a
    target is in reach only of figures within the attack's farthest Manhattan reach (``_within``).
    At every 5th state of 3 seeded games, with every hero, the lists equal those built when the
    zone is the whole board (every figure asked): the zone never leaves out a target in reach."""
    from backend.games.dorn.rules import combat

    if pure.compiled():  # the compiled modules call ``_within`` directly: the patch reaches nothing
        pure.run_pure(__file__, "test_reach_zones_leave_out_only_targets_out_of_reach")
        return

    everywhere = frozenset(range(BOARD.width * BOARD.height))
    compared = 0
    for seed in SEEDS[:3]:
        state = GAME.initial_state(seed_from_int(seed), _options(seed))
        rng = driver_rng(seed)
        step = 0
        while GAME.outcome(state) is None:
            if step % 5 == 0:
                w = Work(state)
                heroes = [hid for hid, h in state["heroes"].items() if h.get("cell") is not None]
                zoned = [combat.hero_targets(w, hid) for hid in heroes], combat.attack_targets(w)
                with monkeypatch.context() as m:
                    m.setattr(combat, "_within", lambda cell, radius: everywhere)
                    whole = [combat.hero_targets(w, hid) for hid in heroes], combat.attack_targets(w)
                assert zoned == whole, (seed, step)
                compared += bool(zoned[1]) + sum(map(bool, zoned[0]))
            seats = sorted(GAME.to_act(state))
            seat = seats[rng.below(len(seats))]
            state = GAME.apply(
                state, seat, GAME.sim_choice(state, seat, GAME.legal_actions(state, seat), rng)
            ).state
            step += 1
    assert compared > 50


PICK_GAMES = [
    (4100, {}),
    (4101, {"real_day_and_night": True}),  # the Keeper's list also holds ``time_up``
    (4102, {"allow_surrender": False}),  # … and no ``surrender``
    (4103, {"tactics_and_flight": True}),
    (4104, {"cave_in": True}),
    (4105, {"four_heroes": True}),
]


def test_the_pick_without_the_list_is_the_pick_among_the_list():
    """``sim_pick`` (the simulator's and the benchmark's driver, engine/playout.py) makes the pick
    ``sim_choice`` makes among the built list, drawing the same numbers, at every step of seeded
    steered games; at each Keeper movement step the list read by position from its parts
    (``sim._KeeperList``) is the list; every other step is left to the list (None)."""
    from backend.games.dorn import actions

    picks = 0
    for seed, variant in PICK_GAMES:
        options = GAME.normalize_options(GAME.sim_options(driver_rng(seed), None, variant))
        state = GAME.initial_state(seed_from_int(seed), options)
        rng = driver_rng(seed)
        while GAME.outcome(state) is None:
            seats = sorted(GAME.to_act(state))
            seat = seats[rng.below(len(seats))]
            twin = driver_rng(seed)
            twin.counter = rng.counter
            picked = GAME.sim_pick(state, seat, twin)
            legal = GAME.legal_actions(state, seat)
            action = GAME.sim_choice(state, seat, legal, rng)
            parts = actions.keeper_movement_list(state) if seat == KEEPER else None
            if parts is not None:
                assert list(sim._KeeperList(*parts)) == legal
            if picked is None:
                assert parts is None
            else:
                assert picked == action and twin.counter == rng.counter
                picks += 1
            state = GAME.apply(state, seat, action).state
    assert picks > 1000


def test_the_driver_plays_the_same_games_with_and_without_the_lists():
    """``play_random`` picks without the list unless ``on_step`` (the conformance harness) needs
    it: the same actions and final state either way."""
    for seed, variant in PICK_GAMES[:2]:
        options = GAME.sim_options(driver_rng(seed), None, variant)
        with_lists = play_random(GAME, seed, options, on_step=lambda *step: None)
        picking = play_random(GAME, seed, options)
        assert picking.actions == with_lists.actions and picking.final_hash == with_lists.final_hash
        assert picking.outcome == with_lists.outcome and len(picking.actions) > 300
