"""What a table keeps while nobody is at it (issue 15 point 4): its state and the ids of its
newest actions, encoded and compressed, until something reads them again.

A Dorn state is ≈ 10 KiB of objects, a Dorasure one ≈ 4; a long game's 256 random action ids,
with their seqs and seats, ≈ 48 KiB. Encoded (the game's ``encode_state``, as in snapshots, so
the state comes back exactly) and compressed, a tenth of that or less. Whatever reads either
next (a connection, the seat clock, another worker's action, a retry) has it back as it was.
Separate from play/master.py because it is storage, not the master's pipeline.
"""

from __future__ import annotations

import zlib
from typing import Any

import orjson

from backend.engine.core import AtRest, Game
from backend.engine.replay import encoded_to_spell

ActionIds = dict[str, tuple[int, str]]  # action id -> (seq, seat), oldest first


class Kept:
    __slots__ = ("_game", "_state", "_state_z", "_ids", "_ids_z")

    def __init__(self, game: Game[Any], state: Any, ids: ActionIds) -> None:
        self._game = game
        self._state: Any = state
        self._state_z: bytes | None = None
        self._ids: ActionIds = ids
        self._ids_z: bytes | None = None

    @property
    def state(self) -> Any:
        if self._state_z is not None:
            self._state = self._game.decode_state(orjson.loads(zlib.decompress(self._state_z)))
            self._state_z = None
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._state, self._state_z = value, None

    @property
    def has_state(self) -> bool:
        """Whether there is a state, without decoding it to say so."""
        return self._state is not None or self._state_z is not None

    @property
    def ids(self) -> ActionIds:
        if self._ids_z is not None:
            self._ids = {aid: (seq, seat) for aid, seq, seat in orjson.loads(zlib.decompress(self._ids_z))}
            self._ids_z = None
        return self._ids

    @ids.setter
    def ids(self, value: ActionIds) -> None:
        self._ids, self._ids_z = value, None

    def rest(self) -> None:
        """Let go of the objects: the state's caches first (``AtRest``), then the state and ids."""
        game = self._game
        if self._state is not None:
            if isinstance(game, AtRest):
                game.at_rest(self._state)
            encoded = orjson.dumps(encoded_to_spell(game, self._state), option=orjson.OPT_NON_STR_KEYS)
            self._state, self._state_z = None, zlib.compress(encoded)
        if self._ids:
            ids = [[aid, seq, seat] for aid, (seq, seat) in self._ids.items()]
            self._ids, self._ids_z = {}, zlib.compress(orjson.dumps(ids))
