"""uvicorn's WebSocket protocol, less the handshake it keeps for the socket's whole life.

uvicorn's sans-I/O implementation (``websockets_sansio_impl``) holds the upgrade request and
its 101 response, with their parsed headers, on every connection until it closes: ≈ 4.4 KiB of
the ≈ 21 KiB an idle socket costs (tracemalloc, issue 15 point 4; bench/README.md
"Capacity"). Neither is read once the accept is sent, so ``LeanWebSocketProtocol`` lets them go
then. ``ws_protocol`` maps the ``ws_impl`` setting to the class uvicorn is given.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

LEAN = "backend.play.wsserver:LeanWebSocketProtocol"


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # Read only by the accept branch of send(), which has run. (A rejected handshake
            # never gets here: it answers and closes instead.)
            self.request = None  # type: ignore[assignment]
            self.response = None  # type: ignore[assignment]


def ws_protocol(ws_impl: str) -> str:
    """The uvicorn ``ws`` option for the setting: the lean class for the sans-I/O protocol
    (what ``auto`` picks when ``websockets`` is installed, as it is here), else as given."""
    return LEAN if ws_impl in ("auto", "websockets-sansio") else ws_impl
