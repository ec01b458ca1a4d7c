"""A table's connections, seats apart from spectators (play/hub.py ``Present``; issue 15 point 5):
a step's update reaches every seat before any spectator, and the crowd is counted, not walked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backend.play import hub
from backend.play.hub import Connection, Present

from ..server_fixtures import WsClient
from .inprocess import seated_clients, serving, wait_for


class Fake:
    """Just enough of a socket for a Connection that is never sent to."""

    scope: dict[str, object] = {}


def conn(seat: str | None) -> Connection:
    c = Connection(Fake(), queue_limit=4)  # type: ignore[arg-type]
    c.seat = seat
    return c


def test_present_keeps_seats_and_spectators_apart() -> None:
    present = Present()
    a, b, watcher = conn("ninja"), conn("hunter"), conn(None)
    for c in (watcher, a, b):
        present.add(c)
    assert present.seated == {a, b} and present.watching == {watcher}
    assert len(present) == 3 and a in present and watcher in present and "ninja" not in present
    assert list(present)[-1] is watcher  # the seats are walked first
    present.discard(a)
    present.discard(a)  # twice is harmless, as for a set
    assert a not in present and len(present) == 2
    present.discard(watcher)
    present.discard(b)
    assert not present


async def test_every_seat_has_its_update_before_any_spectator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[str | None, int]] = []
    plain = hub.Connection.send_text

    def recording(self: Connection, text: str) -> None:
        if text.startswith('{"type":"update"'):
            sent.append((self.seat, id(self)))
        plain(self, text)

    async with serving(tmp_path) as (app, _server, port):
        table_id, url, seats = await seated_clients(port, ["ninja", "hunter"])
        watchers = [WsClient(url, None) for _ in range(5)]
        for w in watchers:
            await w.connect()
        runtime = await app.state.tables.get(table_id)
        assert len(runtime.connections.seated) == 2 and len(runtime.connections.watching) == 5
        assert runtime.local_presence() == (5, frozenset({"ninja", "hunter"}))
        monkeypatch.setattr(hub.Connection, "send_text", recording)
        actor = next(c for s, c in seats.items() if s in c.to_act)
        action: dict[str, Any] = actor.legal[0]
        await actor.send({"type": "act", "seq": actor.seq, "action_id": "one", "action": action})
        await wait_for(lambda: len(sent) == 7)
        assert [seat is not None for seat, _ in sent] == [True, True] + [False] * 5
        for client in [*seats.values(), *watchers]:
            await client.wait_seq(1)
            await client.close()
