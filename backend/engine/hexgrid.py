"""Axial hex coordinates (Red Blob Games conventions), pointy-top.

``q`` grows eastward along a row and ``r`` grows southward.  The six neighbours,
in the order the Dorasure content file lists them:

>>> [tuple(h) for h in Hex(0, 0).neighbours()]
[(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
>>> Hex(0, 0).distance(Hex(2, -1))
2
>>> Hex.from_offset(*Hex(-2, 5).to_offset()) == Hex(-2, 5)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

# E, NE, NW, W, SW, SE
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

SQRT3 = math.sqrt(3.0)


class Hex(NamedTuple):
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, tuple):
            return NotImplemented
        return Hex(self.q + other[0], self.r + other[1])

    def neighbour(self, direction: int) -> Hex:
        dq, dr = DIRECTIONS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> list[Hex]:
        return [Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS]

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ring(self, radius: int) -> Iterator[Hex]:
        if radius == 0:
            yield self
            return
        h = Hex(self.q + DIRECTIONS[4][0] * radius, self.r + DIRECTIONS[4][1] * radius)
        for side in range(6):
            for _ in range(radius):
                yield h
                h = h.neighbour(side)

    # "odd-r" offset layout: odd rows are drawn half a hex to the right.
    def to_offset(self) -> tuple[int, int]:
        return self.q + (self.r - (self.r & 1)) // 2, self.r

    @staticmethod
    def from_offset(col: int, row: int) -> Hex:
        return Hex(col - (row - (row & 1)) // 2, row)

    def to_pixel(self, size: float) -> tuple[float, float]:
        """Centre of the hex for pointy-top hexes of circumradius ``size``."""
        return size * (SQRT3 * self.q + SQRT3 / 2 * self.r), size * 1.5 * self.r

    @staticmethod
    def from_pixel(x: float, y: float, size: float) -> Hex:
        q = (SQRT3 / 3 * x - y / 3) / size
        r = (2 / 3 * y) / size
        return hex_round(q, r)


def hex_round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)
