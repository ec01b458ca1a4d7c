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

A game whose dice drown the differences between actions (Dorasure: ``Playbook.paired``) gets a
flat search instead (``_paired``): each sampled state plays out every root candidate still in
the race with the same dice, and candidates are compared by their per-sample differences.
Where the playbook joins the seat's next decision to a candidate (``Playbook.joined``), the
race is over the pairs: a Dorasure move with each action open where it ends.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from typing import Any

from backend.engine.core import Action, Fork, Game, IllegalAction, Seat
from backend.engine.rng import Rng

from .belief import Belief
from .interface import Budget, Clock, EventData, View, check_observation
from .playbook import Playbook

EXPLORATION = 0.7  # UCB1's constant, for scores in [0, 1]
WIDEN = 2.0  # a node may have ceil(WIDEN * sqrt(visits + 1)) children
MIN_ITERATIONS = 8  # before the early stop may end a search
SHRINK = 2.0
# Standard errors by which a child must beat the steady pick to replace it: the luckiest of
# several equally good children beats it by one standard error about half the time.
CONFIDENCE = 2.0
# The paired comparison (``Playbook.paired``), in standard errors of the per-sample differences:
# a candidate leaves the race once it trails the leader by DROP of them (after MIN_ROUNDS
# samples), and the answer leaves the steady pick only for one that beats it by DEPART.  The
# pairs cancel the dice both candidates share, so a smaller margin than CONFIDENCE is as safe.
# Dropping is the stricter test: a standard error from 4 differences is itself a guess, and at
# 2 of them after 4 rounds most races ended, one candidate left, long before the deadline
# (Dorasure at 1 s: 150 ms at the median), where a plan may leave on noise; at 3 after 8
# the race spends more of its budget (bench/README.md "Bots").
DROP = 3.0
MIN_ROUNDS = 8
ALIKE = 3  # samples on which two candidates scored exactly alike before one is dropped
DEPART = 1.0


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
        self.last_iterations = 0  # rollouts of the latest decision (the benchmark reports it)
        self.last_samples = 0  # states drawn from the belief for it
        # The game as a Fork, or None: asked once, not per rollout (isinstance on a
        # runtime-checkable Protocol walks its members).
        self.fork: Fork[Any] | None = game if isinstance(game, Fork) else None

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
        self.last_iterations = self.last_samples = 0
        if len(candidates) == 1:
            return candidates[0]
        anchor = self.book.steady(first, seat, candidates, rng)  # opened first (``_select``)
        if self.book.paired:
            return self._paired(belief, first, seat, candidates, anchor, rng, budget.clock, deadline)
        root = Node(None)
        state = first
        clock = budget.clock
        started = clock()
        while True:
            self._iterate(root, state, seat, candidates, rng)
            self.last_iterations += 1
            self.last_samples += 1
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

    # -- paired root comparison (``Playbook.paired``) ------------------------------------------

    def _paired(
        self,
        belief: Belief,
        first: Any,
        seat: Seat,
        candidates: list[Action],
        anchor: Action,
        rng: Rng,
        clock: Clock,
        deadline: float,
    ) -> Action:
        """Every candidate still in the race is played out from the same sampled state, with the
        same dice (the state's seed) and the same rollout stream, so that two candidates' scores
        differ by what the choice changed rather than by luck (common random numbers): their
        per-sample differences are compared, and a candidate that trails the leader by
        ``DROP`` standard errors of those differences leaves the race.  Candidates that score
        exactly alike on every sample so far play alike under the rollout policy: only one of
        them (the steady pick if it is one) stays."""
        plans, steady = self._plans(first, seat, candidates, anchor, rng)
        scores: dict[int, list[float]] = {i: [] for i in range(len(plans))}
        state, started, rollouts = first, clock(), 0
        while True:
            seed = b"".join(rng.next_u64().to_bytes(8, "little") for _ in range(4))
            for i in scores:
                scores[i].append(self._play_out(state, seat, plans[i], Rng(seed), dice=seed))
            rollouts += len(scores)
            self.last_iterations, self.last_samples = rollouts, self.last_samples + 1
            _drop_trailing(scores, steady)
            if len(scores) == 1:
                break
            if self.max_iterations is not None and rollouts >= self.max_iterations:
                break
            now = clock()
            # Stop before a round as long as one of the average length would pass the deadline.
            if now + (now - started) / rollouts * len(scores) >= deadline:
                break
            state = belief.sample(rng)
        return plans[_paired_answer(scores, steady)][0]

    def _plans(
        self, first: Any, seat: Seat, candidates: list[Action], anchor: Action, rng: Rng
    ) -> tuple[list[tuple[Action, ...]], int]:
        """What the paired race compares: each candidate alone, or, where the playbook joins the
        seat's next decision to it (``Playbook.joined``: a Dorasure move and the action taken
        where it ends, with no dice between them), each candidate with each of that decision's
        answers, so that a move is judged by the best thing to do where it leads rather than by
        the steady pick there; and the index of the steady plan (the steady pick twice).  The
        next decision is searched again when it comes, with that one's own follow-up."""
        game, book, joined = self.game, self.book, self.book.joined
        plans: list[tuple[Action, ...]] = []
        steady = 0
        for action in candidates:
            after = game.apply(first, seat, action).state if joined is not None else None
            if joined is None or not joined(after, seat):
                if action == anchor:
                    steady = len(plans)
                plans.append((action,))
                continue
            follow = self._playable(after, seat, game.legal_actions(after, seat))
            if action == anchor:
                pick = book.steady(after, seat, follow, rng)
                steady = len(plans) + (follow.index(pick) if pick in follow else 0)
            plans += [(action, answer) for answer in follow]
        return plans, steady

    def _play_out(
        self, state: Any, seat: Seat, plan: tuple[Action, ...], rng: Rng, dice: bytes | None = None
    ) -> float:
        """The score, for ``seat``'s side, of ``plan`` followed by the steady rollout (its dice
        dealt again from ``dice`` at each of the playbook's ``resync`` marks)."""
        game, book = self.game, self.book
        try:
            after = game.apply(state, seat, plan[0]).state
        except IllegalAction:
            return 0.0  # never for a listed action (the determiniser's contract): scored as a loss
        for action in plan[1:]:
            try:
                after = game.apply(after, seat, action).state
            except IllegalAction:
                break  # not open in this sample: the rollout answers for it
        return book.score(self._rollout(after, rng, origin=state, dice=dice), book.side(seat))

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

    def _rollout(self, state: Any, rng: Rng, origin: Any = None, dice: bytes | None = None) -> Any:
        game, book = self.game, self.book
        origin = state if origin is None else origin
        fork = self.fork if dice is not None else None
        resync = book.resync if fork is not None else None
        mark = resync(origin) if resync is not None else None  # the sample's: a candidate may pass it
        for _ in range(book.horizon):
            if game.outcome(state) is not None:
                break
            if resync is not None and resync(state) != mark:
                # Common random numbers kept in step: the candidates' rollouts reach this mark
                # after different dice, and from here throw the same ones again.
                assert dice is not None and fork is not None
                mark = resync(state)
                state = fork.fork_state(state, _dice_seed(dice, mark))
            if book.settled(state, origin):
                break
            actors = sorted(game.to_act(state))
            actor = actors[rng.below(len(actors))]
            legal = game.legal_actions(state, actor)
            state = game.apply(state, actor, book.steady(state, actor, legal, rng)).state
        return state


def _dice_seed(sample: bytes, mark: int) -> bytes:
    """The seed the rollouts of one sample deal their dice from at ``mark``: the same for every
    candidate, another for every mark and sample."""
    return hashlib.blake2b(b"resync:" + sample + mark.to_bytes(8, "little", signed=True), digest_size=32).digest()


def _differences(a: list[float], b: list[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over the samples, and its standard error."""
    n = len(a)
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def _drop_trailing(scores: dict[int, list[float]], steady: int) -> None:
    """Leave out of the race every candidate that trails the leader by ``DROP`` standard errors
    of the paired differences, or scores exactly as another on every sample (``ALIKE`` of them
    at least): of those, the steady pick stays, else the first listed."""
    n = len(next(iter(scores.values())))
    if n < MIN_ROUNDS:
        return
    leader = max(scores, key=lambda i: (sum(scores[i]), i == steady))
    for i in list(scores):
        if i == leader:
            continue
        mean, error = _differences(scores[leader], scores[i])
        if mean > DROP * error and mean > 0:
            del scores[i]
    if n >= ALIKE:
        kept: list[int] = sorted(scores, key=lambda i: (i != steady, i))
        for pos, i in enumerate(kept):
            if i in scores and any(j in scores and scores[j] == scores[i] for j in kept[:pos]):
                del scores[i]


def _paired_answer(scores: dict[int, list[float]], steady: int) -> int:
    """The best mean among the candidates left, unless the steady pick is still among them and
    the best does not beat it by ``DEPART`` standard errors of the paired differences."""
    best = max(scores, key=lambda i: (sum(scores[i]), i == steady))
    if best == steady or steady not in scores:
        return best
    mean, error = _differences(scores[best], scores[steady])
    return best if mean > DEPART * error else steady


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
