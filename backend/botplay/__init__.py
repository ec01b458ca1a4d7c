"""Bots at live tables (issue 12): a client that plays one seat over the public protocol
(``client.py``, ``python -m backend bot``) and the runner that ``serve`` starts beside the
server to play every bot seat and every takeover (``runner.py``).  The decisions themselves are
backend/bots, which is pure; this package is its I/O."""
