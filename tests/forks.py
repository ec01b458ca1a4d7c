"""The generic check of the ``Fork`` hook (backend/engine/core.py, issue 14.5), run by each game's
``test_fork.py``: random games are played to the end and, every few steps, the state is forked.

At each fork:

* ``fork_state`` is pure: the input keeps its hash, the same seed gives the same fork, and the
  fork survives an encode/decode round trip;
* every seat and a spectator see exactly what they saw in the original, are asked the same and
  may do the same (``view``, ``to_act``, ``legal_actions``);
* the game's ``hidden`` parts (what no seat could see) hold the same pieces, and the rest of the
  encoded state is the original's but for the RNG, which is the fork's own seed.

Over the whole game, replaying the original's later actions on the forks must part from the
original somewhere (an action refused, or a view that differs): the fork's dice are its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from backend.engine.core import Fork, Game, IllegalAction, Seat
from backend.engine.playout import play_random
from backend.engine.replay import state_hash
from backend.engine.rng import seed_from_int

# The pieces a game re-deals at a fork, by name: each a multiset of what lies there.
Hidden = Callable[[Any], Mapping[str, Iterable[Hashable]]]


@dataclass
class ForkReport:
    forks: int = 0
    diverged: int = 0  # forks whose replay of the original's later actions parted from it
    redealt: int = 0  # forks whose hidden parts lie otherwise than in the original
    steps: list[int] = field(default_factory=list)


def check_forks(
    game: Game[Any],
    seed: int,
    options: Mapping[str, Any],
    *,
    hidden: Hidden,
    public: Callable[[dict[str, Any]], dict[str, Any]],
    every: int,
    follow: int = 30,
) -> ForkReport:
    """``public(encoded)`` is the encoded state without the RNG and the hidden parts: it must be
    the same in the fork.  ``follow`` is how many of the original's later actions are replayed."""
    assert isinstance(game, Fork)
    opts = game.normalize_options(options)
    seats: list[Seat | None] = [s.seat for s in game.seats(opts)]
    seats.append(None)
    states: list[Any] = []
    log: list[tuple[Seat, Any]] = []

    def keep(state: Any, seat: Seat, action: Any, legal: list[Any]) -> None:
        states.append(state)
        log.append((seat, action))

    play_random(game, seed, opts, on_step=keep)
    report = ForkReport()
    for i in range(0, len(states), every):
        state = states[i]
        before = state_hash(game, state)
        fork_seed = seed_from_int(seed * 100_003 + i)
        fork = game.fork_state(state, fork_seed)
        assert state_hash(game, state) == before, f"step {i}: fork_state changed its input"
        assert state_hash(game, game.fork_state(state, fork_seed)) == state_hash(game, fork), (
            f"step {i}: not pure"
        )
        assert state_hash(game, game.decode_state(game.encode_state(fork))) == state_hash(game, fork)
        assert fork_seed.hex() in str(game.encode_state(fork)), (
            f"step {i}: the fork keeps the original's seed"
        )
        assert game.to_act(fork) == game.to_act(state), f"step {i}"
        for seat in seats:
            assert game.view(fork, seat) == game.view(state, seat), f"step {i}: seat {seat} sees a change"
            if seat is not None:
                assert game.legal_actions(fork, seat) == game.legal_actions(state, seat), f"step {i}: {seat}"
        mine, theirs = hidden(fork), hidden(state)
        assert {k: Counter(v) for k, v in mine.items()} == {k: Counter(v) for k, v in theirs.items()}, (
            f"step {i}"
        )
        assert public(game.encode_state(fork)) == public(game.encode_state(state)), f"step {i}"
        report.forks += 1
        report.steps.append(i)
        report.redealt += any(list(mine[k]) != list(theirs[k]) for k in mine)
        report.diverged += _diverges(game, state, fork, log[i : i + follow], seats)
    return report


def _diverges(
    game: Game[Any], original: Any, fork: Any, actions: list[tuple[Seat, Any]], seats: list[Seat | None]
) -> bool:
    for seat, action in actions:
        original = game.apply(original, seat, action).state
        try:
            fork = game.apply(fork, seat, action).state
        except IllegalAction:
            return True
        if any(game.view(fork, s) != game.view(original, s) for s in seats):
            return True
    return False
