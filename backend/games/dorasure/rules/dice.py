"""Scoring dice (content §4.1, "Adventuring Chart"; R10 exploding 6).

A *chain* is the list of faces one main die produced: the main face, then any
bonus dice its 6s called for.  ``score_die`` rolls and scores one chain from any
face source, so the exact-distribution test enumerates faces through the very
function the engine plays with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..content import BONUS_SCORE, DIE_SCORE, EXPLODE


def score_chain(chain: Sequence[int]) -> int:
    """Score of one main die and its bonus dice (§4.1)."""
    total = DIE_SCORE[chain[0]]
    for face in chain[1:]:
        total += BONUS_SCORE[face]  # a bonus 2–3 is +1, a bonus 1 cancels one point (R10)
    return total


def continue_chain(chain: list[int], draw: Callable[[], int]) -> list[int]:
    """Roll bonus dice while the last face explodes (no limit, rulebook)."""
    while chain[-1] == EXPLODE:
        chain.append(draw())
    return chain


def score_die(draw: Callable[[], int]) -> tuple[int, list[int]]:
    """Roll one scored die with its chain from ``draw``; return (score, faces)."""
    chain = continue_chain([draw()], draw)
    return score_chain(chain), chain


def roll_pool(n: int, draw: Callable[[], int]) -> list[list[int]]:
    return [continue_chain([draw()], draw) for _ in range(n)]


def pool_score(chains: Sequence[Sequence[int]]) -> int:
    return sum(score_chain(c) for c in chains)


def ones(chains: Sequence[Sequence[int]]) -> int:
    """Faces showing 1 anywhere in the chains, bonus dice included (Blood Magic, R50)."""
    return sum(c.count(1) for c in chains)
