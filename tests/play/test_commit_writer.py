"""Who writes the group commits (store/writer.py, ``Settings.commit_writer``): on SQLite the event
loop itself, once a turn, unless a thread is asked for; an action is acked once durable either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from .inprocess import seated_clients, serving


@pytest.mark.parametrize(("setting", "inline"), [("auto", True), ("thread", False), ("loop", True)])
async def test_the_commit_writer_the_setting_picks_acks_durable_actions(
    tmp_path: Path, setting: str, inline: bool
) -> None:
    async with serving(tmp_path, commit_writer=setting) as (app, _, port):
        writer = app.state.writer
        assert writer.inline is inline
        table_id, _, seats = await seated_clients(port, ["ninja", "hunter"])
        actor = next(s for s, c in seats.items() if c.legal and s in c.to_act)
        client = seats[actor]
        await client.send({"type": "act", "seq": client.seq, "action_id": "durable", "action": client.legal[0]})
        assert await client.expect("ack", "rejected") == {"type": "ack", "action_id": "durable", "seq": 1}
        [stored] = app.state.repo.actions_after(table_id, 0)
        assert stored.action_id == "durable" and writer.items >= 1
        for other in seats.values():
            await other.close()
