"""Issue 14.2 over real WebSockets: a refusal carries the rule that forbids it (docs/protocol.md).

A Dorasure seat's wrong move comes back with the rulebook's heading or ruling from the game's
data/refusals.json; the server's own refusals (a spectator acting, a stale seq) cite the table
rulings; an error frame of the connection itself carries none."""

from __future__ import annotations

from backend.engine import rulerefs
from backend.engine.registry import get_game

from ..server_fixtures import Api, ServerProcess, WsClient, start_table

GAME = get_game("dorasure")


async def test_a_refusal_carries_its_rule(server: ServerProcess, api: Api) -> None:
    tid, tokens = start_table(api, "dorasure", {"heroes": ["ninja", "hunter"]})
    url = server.ws_url(tid)
    seats = {s: WsClient(url, t) for s, t in tokens.items()}
    spectator = WsClient(url)
    for c in [*seats.values(), spectator]:
        await c.connect()
    actor = next(c for c in seats.values() if c.seat in c.to_act)
    idle = next(c for c in seats.values() if c.seat not in c.to_act)

    # The game's own rule: resting is not one of the answers to the first decision.
    await actor.send({"type": "act", "seq": actor.seq, "action_id": "wrong", "action": {"type": "rest"}})
    answer = await actor.expect("rejected")
    rule = answer["rule"]
    assert rule == rulerefs.refusal_rule(GAME, answer["code"]) and rule is not None, answer
    assert set(rule) == {"ref", "title", "section"} and rule["ref"] and rule["title"]
    assert rulerefs.game_refs(GAME)[answer["code"]].as_dict() == rule  # the game's, not the table's

    # A seat the game does not wait for: Dorasure's rule of the turn.
    await idle.send({"type": "act", "seq": idle.seq, "action_id": "early", "action": {"type": "pass"}})
    early = await idle.expect("rejected")
    assert early["code"] == "not_your_turn"
    assert early["rule"]["ref"] == "Rulebook: During a Hero's Turn in Adventure Phase"

    # The server's own refusals cite the table rulings (docs/rules/table.md).
    await spectator.send({"type": "act", "seq": 0, "action_id": "s1", "action": {"type": "rest"}})
    watcher = await spectator.expect("rejected")
    assert watcher["code"] == "not_a_seat"
    assert watcher["rule"] == {"ref": "Table ruling T1", "title": "Only seats act", "section": "table"}
    await actor.send({"type": "act", "seq": actor.seq + 5, "action_id": "old", "action": {"type": "rest"}})
    stale = await actor.expect("rejected")
    assert stale["code"] == "stale" and stale["rule"]["ref"] == "Table ruling T3"

    # A frame the server cannot read is no rule of play: its error carries none.
    await actor.send("{not json")
    error = await actor.expect("error")
    assert error["code"] == "malformed" and "rule" not in error
    for c in [*seats.values(), spectator]:
        await c.close()
