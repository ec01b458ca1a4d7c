"""Deterministic randomness carried inside the game state.

Every die and shuffle is a pure function of (seed, counter): draw *n* is the
first 8 bytes of keyed BLAKE2b(key=seed, message=n).  A keyed cryptographic hash
is used (not a fast mixer such as SplitMix) because players see many rolls and
must not be able to work back to the seed and predict the next ones; the seed is
committed to at table start and revealed at the end, so anyone can re-derive
every roll (``python -m backend verify``).

We implement integer draws and Fisher–Yates ourselves: CPython only promises
the sequence of ``random.random()``, not of ``randrange``/``shuffle``.
"""

from __future__ import annotations

import hashlib
import secrets as _secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64


def new_seed() -> bytes:
    """A fresh 256-bit secret seed (for the server; the engine never calls this)."""
    return _secrets.token_bytes(32)


def seed_from_int(n: int) -> bytes:
    """A seed for simulations and tests, derived from a small integer."""
    return hashlib.sha256(b"dragontable-seed:" + str(int(n)).encode()).digest()


def commitment(seed: bytes) -> str:
    """The public hash of a seed, shown when a table starts."""
    return hashlib.sha256(seed).hexdigest()


class Rng:
    """A cursor over the draw sequence of one seed.

    Games keep ``(seed_hex, counter)`` in their state and make a short-lived Rng
    inside ``apply``; after drawing they store ``rng.counter`` back.
    """

    __slots__ = ("_key", "counter")

    def __init__(self, seed: bytes | str, counter: int = 0) -> None:
        self._key = bytes.fromhex(seed) if isinstance(seed, str) else bytes(seed)
        if not 16 <= len(self._key) <= 64:
            raise ValueError("seed must be 16 to 64 bytes")
        self.counter = counter

    def next_u64(self) -> int:
        digest = hashlib.blake2b(self.counter.to_bytes(8, "little"), key=self._key, digest_size=8).digest()
        self.counter += 1
        return int.from_bytes(digest, "little")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if n == 1:
            return 0
        limit = _TWO64 - (_TWO64 % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def between(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def d6(self) -> int:
        return 1 + self.below(6)

    def dice(self, n: int) -> list[int]:
        return [self.d6() for _ in range(n)]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place (Durstenfeld's variant, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out
