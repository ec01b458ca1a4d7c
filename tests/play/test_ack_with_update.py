"""An action's ack and its actor's update leave in one write (play/hub.py ``Connection.hold``).

The master acks an action and the fan-out sends the actor's update a moment later: two frames,
which were two writes to the transport (two system calls, two segments, two wake-ups of the
reader). The ack is now held and written with the update, the two frames as before, in order.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from backend.play.hub import Connection

from .inprocess import seated_clients, serving, wait_for
from .test_idle_socket import _Socket


async def test_a_real_action_acks_and_updates_its_actor_in_one_write(tmp_path: Path) -> None:
    async with serving(tmp_path) as (app, server, port):
        table_id, _, seats = await seated_clients(port, ["ninja", "hunter"])
        runtime = await app.state.tables.get(table_id)
        actor = next(s for s, c in seats.items() if c.legal and s in c.to_act)
        client = seats[actor]
        (conn,) = [c for c in runtime.connections if c.seat == actor]
        await wait_for(lambda: conn.writing is None)
        transport = conn._socket.transport  # type: ignore[union-attr]
        writes: list[bytes] = []
        write = transport.write

        def spy(data: Any) -> None:
            writes.append(bytes(data))
            write(data)

        transport.write = spy
        try:
            await client.send({"type": "act", "seq": client.seq, "action_id": "one-write",
                               "action": client.legal[0]})  # fmt: skip
            ack = await client.expect("ack", "rejected")
            assert ack == {"type": "ack", "action_id": "one-write", "seq": 1}, ack
            update = await client.expect("update")
            assert update["seq"] == 1
        finally:
            transport.write = write
        # The ack's frame and the update's, in one write, in that order.
        [both] = [w for w in writes if b'"one-write"' in w]
        assert both.index(b'"type":"ack"') < both.index(b'"type":"update"')
        for other in seats.values():
            await other.close()


def _connection() -> tuple[_Socket, Connection]:
    sock = _Socket()  # no uvicorn protocol: every frame goes the ASGI way, one by one
    return sock, Connection(sock, queue_limit=10)  # type: ignore[arg-type]


async def test_a_held_text_goes_first_with_the_next_frame_or_at_release() -> None:
    sock, conn = _connection()
    conn.hold("ack 1")
    assert sock.sent == []
    conn.send_text("update 1")
    conn.send_text("update 2")
    assert sock.sent == ["ack 1", "update 1", "update 2"]
    conn.hold("ack 3")  # its update never came (the actor's socket got none): sent at release
    conn.release()
    conn.release()  # nothing held: nothing sent
    assert sock.sent[3:] == ["ack 3"]
    conn.hold("ack 4")
    conn.hold("ack 5")  # a second hold sends the first
    conn.release()
    assert sock.sent[4:] == ["ack 4", "ack 5"]


async def test_a_held_text_keeps_its_place_behind_a_stalled_send_and_before_a_close() -> None:
    sock, conn = _connection()
    sock.gate.clear()
    conn.send_text("a")  # stalls: the writer has it, what follows queues
    conn.hold("ack")
    conn.send_text("update")
    conn.hold("last ack")
    conn.close(1000)
    sock.gate.set()
    writer = conn.writing
    assert writer is not None
    await asyncio.wait_for(writer, 5)
    assert sock.sent == ["a", "ack", "update", "last ack"] and sock.closed_with == 1000
    conn.hold("after the close")
    conn.release()
    assert sock.sent[-1] == "last ack"
    assert json.dumps(sock.sent)  # plain texts throughout
