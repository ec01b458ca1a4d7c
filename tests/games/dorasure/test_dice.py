"""The per-die score (§4.1, R10), checked exactly through the engine's own scorer."""

from __future__ import annotations

from fractions import Fraction

from backend.games.dorasure.rules.dice import score_chain, score_die

DEPTH = 8  # bonus dice enumerated; chains still running after that are bounded below


def enumerate_die() -> tuple[dict[int, Fraction], Fraction]:
    """Feed score_die every face sequence up to DEPTH dice; return P(score) and the
    probability mass of the sequences still exploding at the cut."""
    dist: dict[int, Fraction] = {}
    cut = Fraction(0)

    class Cut(Exception):
        pass

    def walk(prefix: list[int]) -> None:
        nonlocal cut
        for f in range(1, 7):
            faces = [*prefix, f]
            it = iter(faces)

            def draw(it=it) -> int:
                try:
                    return next(it)
                except StopIteration:
                    raise Cut from None

            try:
                score, chain = score_die(draw)
            except Cut:
                if len(faces) >= DEPTH:
                    cut += Fraction(1, 6 ** len(faces))
                else:
                    walk(faces)
                continue
            assert chain == faces
            dist[score] = dist.get(score, 0) + Fraction(1, 6 ** len(faces))

    walk([])
    return dist, cut


def test_single_die_distribution_is_exact():
    dist, cut = enumerate_die()
    assert dist[-1] == Fraction(1, 6)
    assert dist[0] == Fraction(13, 36)
    assert dist[1] == Fraction(73, 216)
    # +k needs its chain to end within k + 1 dice (k sixes then a 1 also gives +k - 1),
    # so every score up to DEPTH - 2 is complete at this depth.
    for k in range(2, DEPTH - 1):
        assert dist[k] == Fraction(145, 1296) * Fraction(1, 6) ** (k - 2), k
    # The remainder (higher scores, and chains still exploding at the cut) is exactly
    # the hand-derived tail: sum over k >= DEPTH - 1 of 145/1296 (1/6)^(k-2).
    complete = sum(p for k, p in dist.items() if k <= DEPTH - 2)
    tail = Fraction(145, 1296) * Fraction(1, 6) ** (DEPTH - 3) * Fraction(6, 5)
    assert 1 - complete == tail
    assert cut == Fraction(1, 6**DEPTH)  # one chain of DEPTH sixes is still running
    assert sum(dist.values()) + cut == 1


def test_chain_examples_from_r10():
    assert score_chain([6, 1]) == 0
    assert score_chain([6, 3]) == 2
    assert score_chain([6, 6, 1]) == 1
    assert score_chain([6, 6, 4]) == 3
    assert [score_chain([f]) for f in range(1, 6)] == [-1, 0, 0, 1, 1]
