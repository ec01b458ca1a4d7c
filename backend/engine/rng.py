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
from typing import Final, TypeVar

T = TypeVar("T")

_TWO64: Final = 1 << 64
_D6_LIMIT: Final = _TWO64 - (_TWO64 % 6)  # below(6)'s rejection bound, for d6


def new_seed() -> bytes:
    """A fresh 256-bit secret seed (for the server; the engine never calls this)."""
    return _secrets.token_bytes(32)


def seed_from_int(n: int) -> bytes:
    """A seed for simulations and tests, derived from a small integer."""
    return hashlib.sha256(b"dragontable-seed:" + str(int(n)).encode()).digest()


def commitment(seed: bytes) -> str:
    """The public hash of a seed, shown when a table starts."""
    return hashlib.sha256(seed).hexdigest()


# Each seed's keyed hasher before any message.  A draw copies it and hashes the counter: the
# same digest as a new ``blake2b(counter, key=seed)``, without parsing the seed and setting up
# the key again for every draw (a draw cost 40 % more that way; games make an Rng per apply).
# Bounded: a server sees one seed per table, so only the recent ones are kept.
_KEYED: Final[dict[str | bytes, hashlib.blake2b]] = {}
_KEYED_MAX: Final = 1024


def _keyed(seed: bytes | str) -> hashlib.blake2b:
    name = seed if isinstance(seed, str) else bytes(seed)
    base = _KEYED.get(name)
    if base is None:
        key = bytes.fromhex(name) if isinstance(name, str) else name
        if not 16 <= len(key) <= 64:
            raise ValueError("seed must be 16 to 64 bytes")
        if len(_KEYED) >= _KEYED_MAX:
            _KEYED.clear()
        base = _KEYED[name] = hashlib.blake2b(key=key, digest_size=8)
    return base


class Rng:
    """A cursor over the draw sequence of one seed.

    Games keep ``(seed_hex, counter)`` in their state and make a short-lived Rng
    inside ``apply``; after drawing they store ``rng.counter`` back.
    """

    __slots__ = ("_keyed", "counter")

    def __init__(self, seed: bytes | str, counter: int = 0) -> None:
        self._keyed = _keyed(seed)  # shared: only ever copied, never updated
        self.counter = counter

    def next_u64(self) -> int:
        h = self._keyed.copy()
        h.update(self.counter.to_bytes(8, "little"))
        self.counter += 1
        return int.from_bytes(h.digest(), "little")

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
        # ``1 + below(6)`` without its checks and bound (the same draws, the same faces): the
        # dice are most of what the games draw.
        while True:
            x = self.next_u64()
            if x < _D6_LIMIT:
                return 1 + x % 6

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
