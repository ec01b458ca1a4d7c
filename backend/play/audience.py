"""One audience's update (a seat's connections, or all spectators): built once, each distinct
frame encoded once.

A connection that takes patches (docs/protocol.md, "View patches") gets the patch from the
``{"v": view, "l": legal, "t": to_act}`` it was last sent to this one, when that is shorter
than sending them whole; connections that were sent the same dict share one frame.  The
patch is always between two docs its seat may see (``conn.sent`` is only ever a doc built for
``conn.seat``, or the one update of every audience that sees what the spectators see:
play/frames.py ``fan_out``, a doc with the spectators' view, nothing listed and the public
events): nothing crosses seats.
"""

from __future__ import annotations

from typing import Any

import orjson

from . import patch, protocol
from .hub import Connection


class Audience:
    __slots__ = ("_seq", "_events", "_by", "_action_id", "_auto", "_deadline", "doc", "_whole", "_canonical",
                 "_hash", "_patched", "_memo", "_texts")  # fmt: skip

    def __init__(
        self,
        seq: int,
        events: list[dict[str, Any]],
        by: str,
        action_id: str,
        auto: bool,
        view: dict[str, Any] | None,
        legal: list[dict[str, Any]],
        to_act: list[str],
        deadline: float | None,
        memo: patch.Memo | None = None,
        texts: patch.Texts | None = None,
    ) -> None:
        self._seq, self._events, self._by, self._action_id, self._auto = seq, events, by, action_id, auto
        self._memo, self._texts = memo, texts  # shared by one step's audiences (``patch.diff``, ``canonical``)
        self._deadline = deadline
        self.doc: dict[str, Any] = {"v": view, "l": legal, "t": to_act}
        self._whole: str | None = None
        self._canonical: bytes | None = None
        self._hash = ""
        # (id of a doc patched from, whether for the actor: its frame names its action) -> that
        # doc (held, so the id stays its) and the frame.
        self._patched: dict[tuple[int, bool], tuple[dict[str, Any], str]] = {}

    def whole(self) -> str:
        if self._whole is None:
            d = self.doc
            self._whole = protocol.dumps(
                protocol.update(self._seq, self._events, self._by, self._action_id, self._auto,
                                d["v"], d["l"], d["t"], self._deadline)
            )  # fmt: skip
        return self._whole

    def frame_for(self, conn: Connection) -> str:
        """The text to send ``conn``; one that takes patches now holds this audience's doc."""
        if not conn.patches:
            return self.whole()
        base, conn.sent = conn.sent, self.doc
        if base is None:
            return self.whole()
        actor = conn.seat == self._by
        key = (id(base), actor)
        hit = self._patched.get(key)
        if hit is None or hit[0] is not base:
            if self._canonical is None:
                self._canonical = patch.canonical(self.doc, self._texts)  # the hash's text, as long as the doc whole
                self._hash = patch.hash_of(self._canonical)
            ops = patch.diff(base, self.doc, self._memo, weigh=False)  # weighed below, against the text
            # Encoded once: weighed, then put in the frame as it is.
            encoded = patch.dumps(ops)
            if len(encoded) < len(self._canonical):
                frame = protocol.dumps(
                    protocol.patched_update(self._seq, self._events, self._by,
                                            self._action_id if actor else None,
                                            self._auto, orjson.Fragment(encoded), self._hash, self._deadline)
                )  # fmt: skip
            else:
                frame = self.whole()
            hit = self._patched[key] = (base, frame)
        return hit[1]
