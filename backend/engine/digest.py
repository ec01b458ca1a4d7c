"""SHA-256 of a text in pieces that keep the GIL.

hashlib lets go of the GIL for an update of 2048 bytes or more, so that other threads may run
while it hashes. In the server that is a cost, not a gift: the event loop hashes a view or a
state between two frames, and taking the GIL back from the commit writer's or the REST calls'
threads made a 3 KB view's hash cost about 9 µs there against 2 in one thread (bench/README.md,
"fourth session"). Updates shorter than that never let it go; the digest is the same.
"""

from __future__ import annotations

import hashlib

_PIECE = 2047  # the longest update hashlib hashes holding the GIL (HASHLIB_GIL_MINSIZE − 1)


def sha256_hex(data: bytes) -> str:
    if len(data) <= _PIECE:
        return hashlib.sha256(data).hexdigest()
    h = hashlib.sha256()
    view = memoryview(data)
    for at in range(0, len(data), _PIECE):
        h.update(view[at : at + _PIECE])
    return h.hexdigest()
