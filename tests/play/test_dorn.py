"""Dorn over real WebSockets: a Keeper, two hero seats and a spectator, each a different
person; every frame and every REST answer each of them gets is scanned for what that seat may
not see at that moment (the Keeper's hand, Blessings, held item cards, deck and bag order).
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx

from backend.engine.registry import get_game
from backend.engine.rng import Rng, seed_from_int

from ..server_fixtures import Api, ServerProcess, WsClient
from .helpers import assert_no_leak, check_no_leaks, hidden, stored_states

GAME = get_game("dorn")
GIVE_UP = {"surrender", "propose_surrender"}


def rest_answers(base_url: str, tid: str, headers: dict[str, str] | None) -> list[Any]:
    """Everything the REST API tells this requester about the table."""
    with httpx.Client(base_url=base_url, headers=headers or {}, timeout=10) as http:
        paths = (f"/api/tables/{tid}/export", f"/api/tables/{tid}", "/api/tables")
        return [http.get(p).json() for p in paths]


def states_from_db(db: Path, tid: str) -> list[Any]:
    """The live game's states, replayed from the server's own database (seed included)."""
    return stored_states(db, GAME, tid)[1]


async def test_live_dorn_leaks_nothing_in_frames_or_rest(tmp_path: Path) -> None:
    db = tmp_path / "dorn.db"
    # One client plays far faster than a person: lift the per-connection rate limit.
    env = {"DRAGONTABLE_RATE_PER_SECOND": "1000", "DRAGONTABLE_RATE_BURST": "1000"}
    with ServerProcess(f"sqlite:///{db}", env=env, log_path=tmp_path / "server.log") as server:
        options = GAME.sim_options(Rng(seed_from_int(3)), 3, {})
        people = {seat: Api(server.base_url, name) for seat, name in
                  (("keeper", "Kay"), ("heroes_1", "Ann"), ("heroes_2", "Bo"))}  # fmt: skip
        table = people["keeper"].create_table("dorn", options)
        tid = table["id"]
        assert [s["seat"] for s in table["seats"]] == list(people)
        tokens = {seat: api.join(tid, seat) for seat, api in people.items()}
        people["keeper"].start(tid)
        seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
        spectator = WsClient(server.ws_url(tid))
        for c in [*seats.values(), spectator]:
            await c.connect()

        rnd = random.Random(5)
        answers: list[tuple[str | None, list[Any]]] = []
        for n in range(240):
            if n % 20 == 0:
                for seat, api in [(None, None), *people.items()]:
                    answers.append((seat, rest_answers(server.base_url, tid, api.headers if api else None)))
            ready = sorted(s for s, c in seats.items() if c.seat in c.to_act and c.legal)
            client = seats[rnd.choice(ready)]
            choices = [a for a in client.legal if a["type"] not in GIVE_UP] or client.legal
            await client.send({"type": "act", "seq": client.seq, "action_id": f"d{n}", "action": rnd.choice(choices)})
            answer = await client.expect("ack", "rejected")
            assert answer["type"] == "ack", answer
            for c in [*seats.values(), spectator]:
                await c.wait_seq(answer["seq"])
            if spectator.finished:
                break

        states = states_from_db(db, tid)
        seed_hex = sqlite3.connect(db).execute("SELECT seed_hex FROM game_table WHERE id = ?", (tid,)).fetchone()[0]
        for c in [*seats.values(), spectator]:
            others = [t for s, t in tokens.items() if s != c.seat]
            assert check_no_leaks(GAME, states, c, seed_hex, others) > 0
        for seat, payloads in answers:
            export = payloads[0]
            at = len(export["actions"])
            assert export["complete"] is (GAME.outcome(states[at]) is not None)
            assert seed_hex not in json.dumps(payloads) or export["complete"]
            assert_no_leak(payloads, hidden(GAME, states[at], seat), f"REST to {seat} at seq {at}")
        for c in [*seats.values(), spectator]:
            await c.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
