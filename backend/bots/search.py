"""The strong level: information-set Monte-Carlo tree search (single-observer IS-MCTS).

Every iteration draws a fresh state from what the seat has seen (backend/bots/belief.py: hidden
cards and tiles from the unseen pool, a fresh seed, so fresh dice), walks one tree shared by all
those states, and plays the game's steady pick for every seat from the leaf until the playbook
says the rollout has settled (or after ``horizon`` actions); the playbook's ``score`` of where it
stops is backed up.

* One tree for every determinisation: a node is a sequence of (seat, action), the *information
  set* of the searching seat, so no node knows the sampled dice or cards of any one iteration.
  A child is scored by its availability (how often it was legal when its parent was visited,
  Cowling et al. 2012) rather than its parent's visits.
* Seats of one side (all Dorasure heroes, the Dorn hero seats) maximise the same score; the
  Keeper its complement.  When several seats may act, the tree lets the first in seat order
  act (any order is a legal order), the rollouts a random one.
* Progressive widening: a node opens a new child only every so many visits (``WIDEN``), the
  steady pick first, so a Dorn Keeper with 300 listed creature moves still searches the likely
  ones; with too little time the most visited child is the steady pick.
* The answer is the most visited root child, unless it fails to beat the steady pick by
  ``CONFIDENCE`` standard errors.  Search stops when one more iteration of the average length
  would pass the budget's deadline (the clock is read after every iteration), or earlier once no
  other child can catch the leader in the time left.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from backend.engine.core import Action, Game, IllegalAction, Seat
from backend.engine.rng import Rng

from .belief import Belief
from .interface import Budget, EventData, View, check_observation
from .playbook import Playbook

EXPLORATION = 0.7  # UCB1's constant, for scores in [0, 1]
WIDEN = 2.0  # a node may have ceil(WIDEN * sqrt(visits + 1)) children
MIN_ITERATIONS = 8  # before the early stop may end a search
SHRINK = 2.0
# Standard errors by which a child must beat the steady pick to replace it: the luckiest of
# several equally good children beats it by one standard error about half the time.
CONFIDENCE = 2.0


def action_key(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class Node:
    __slots__ = ("action", "visits", "total", "squares", "avail", "children")

    def __init__(self, action: Action | None) -> None:
        self.action = action
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.avail = 0
        self.children: dict[tuple[Seat, str], Node] = {}

    def add(self, score: float) -> None:
        self.visits += 1
        self.total += score
        self.squares += score * score

    def mean(self) -> float:
        return self.total / self.visits

    def error(self) -> float:
        """The standard error of ``mean`` (squared)."""
        mean = self.mean()
        return max(0.0, self.squares / self.visits - mean * mean) / self.visits

    def ucb(self, prior: float) -> float:
        """UCB1 on availability, the mean shrunk towards the siblings' (``SHRINK`` visits'
        worth): one lucky rollout out of two does not make a child the favourite."""
        shrunk = (self.total + SHRINK * prior) / (self.visits + SHRINK)
        return shrunk + EXPLORATION * math.sqrt(math.log(self.avail) / self.visits)


class StrongBot:
    level = "strong"

    def __init__(self, game: Game[Any], book: Playbook, *, max_iterations: int | None = None) -> None:
        self.game = game
        self.book = book
        self.max_iterations = max_iterations
        self.last_iterations = 0  # of the latest decision (the benchmark reports it)

    def decide(
        self,
        view: View,
        seat: Seat,
        legal: Sequence[Action],
        events: Sequence[EventData],
        rng: Rng,
        budget: Budget,
    ) -> Action:
        check_observation(view, legal, events)
        deadline = budget.deadline()
        belief = Belief(self.game, view, seat, events)
        first = belief.checked_sample(rng)
        listed = list(legal)
        conceded = self.book.gives_up(first, seat, listed)
        if conceded is not None and conceded in listed:
            return next(a for a in listed if a == conceded)
        candidates = self._playable(first, seat, listed)
        self.last_iterations = 0
        if len(candidates) == 1:
            return candidates[0]
        anchor = self.book.steady(first, seat, candidates, rng)  # opened first (``_select``)
        root = Node(None)
        state = first
        clock = budget.clock
        started = clock()
        while True:
            self._iterate(root, state, seat, candidates, rng)
            self.last_iterations += 1
            n = self.last_iterations
            if self.max_iterations is not None and n >= self.max_iterations:
                break
            now = clock()
            # Stop before an iteration as long as the average would pass the deadline.
            if now + (now - started) / n >= deadline:
                break
            if n >= MIN_ITERATIONS and _settled(root, n, now - started, deadline - now):
                break
            state = belief.sample(rng)
        best = _answer(root, root.children.get((seat, action_key(anchor))))
        assert best.action is not None
        return next(a for a in listed if a == best.action)

    # -- one iteration ------------------------------------------------------------------------

    def _iterate(self, root: Node, state: Any, seat: Seat, candidates: list[Action], rng: Rng) -> None:
        game, book = self.game, self.book
        path: list[tuple[Node, str]] = []
        node, actor, actions = root, seat, candidates
        while True:
            child, fresh = self._select(node, state, actor, actions, rng)
            try:
                state = game.apply(state, actor, child.action or {}).state
            except IllegalAction:
                return  # this sample lists what the real state does not: drop the iteration
            path.append((child, book.side(actor)))
            if fresh or game.outcome(state) is not None:
                break
            node = child
            actor = min(game.to_act(state))
            actions = self._playable(state, actor, game.legal_actions(state, actor))
        root.visits += 1  # the root's children widen with it (its score is never read)
        state = self._rollout(state, rng)
        scores: dict[str, float] = {}
        for child, side in path:
            if side not in scores:
                scores[side] = book.score(state, side)
            child.add(scores[side])

    def _playable(self, state: Any, seat: Seat, legal: list[Action]) -> list[Action]:
        playing = [a for a in legal if a["type"] not in self.book.concessions] or legal
        return self.book.options(state, seat, playing) or playing

    def _select(
        self, node: Node, state: Any, actor: Seat, actions: list[Action], rng: Rng
    ) -> tuple[Node, bool]:
        """The child to follow (``True``: just opened), among the actions legal in this state."""
        available = [node.children.get((actor, action_key(a))) for a in actions]
        for child in available:
            if child is not None:
                child.avail += 1
        opened = len(node.children)
        if opened < len(actions) and opened < math.ceil(WIDEN * math.sqrt(node.visits + 1)):
            untried = [a for a, c in zip(actions, available, strict=True) if c is None]
            if untried:
                steady = self.book.steady(state, actor, actions, rng)
                action = steady if steady in untried else untried[rng.below(len(untried))]
                child = node.children[(actor, action_key(action))] = Node(action)
                child.avail = 1
                return child, True
        known = [c for c in available if c is not None and c.visits > 0]
        if not known:
            untried = [a for a, c in zip(actions, available, strict=True) if c is None]
            action = untried[rng.below(len(untried))] if untried else actions[0]
            child = node.children.setdefault((actor, action_key(action)), Node(action))
            child.avail = max(child.avail, 1)
            return child, True
        prior = sum(c.total for c in known) / sum(c.visits for c in known)
        return max(known, key=lambda c: c.ucb(prior)), False

    def _rollout(self, state: Any, rng: Rng) -> Any:
        game, book = self.game, self.book
        origin = state
        for _ in range(book.horizon):
            if game.outcome(state) is not None or book.settled(state, origin):
                break
            actors = sorted(game.to_act(state))
            actor = actors[rng.below(len(actors))]
            legal = game.legal_actions(state, actor)
            state = game.apply(state, actor, book.steady(state, actor, legal, rng)).state
        return state


def _answer(root: Node, anchor: Node | None) -> Node:
    """The most visited child, unless it is not the steady pick and does not beat it by
    ``CONFIDENCE`` standard errors: the search departs from the steady pick on evidence only."""
    best = max(root.children.values(), key=lambda c: (c.visits, c.total))
    if anchor is None or best is anchor or anchor.visits < 2 or best.visits < 2:
        return best
    margin = CONFIDENCE * math.sqrt(best.error() + anchor.error())
    return best if best.mean() - anchor.mean() > margin else anchor


def _settled(root: Node, iterations: int, spent: float, left: float) -> bool:
    """No other root child can overtake the most visited one in the iterations left."""
    if iterations % 4:
        return False
    visits = sorted((c.visits for c in root.children.values()), reverse=True)
    if len(visits) < 2:
        return False
    remaining = left * iterations / spent if spent > 0 else float("inf")
    return visits[0] - visits[1] > remaining
