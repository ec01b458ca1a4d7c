"""Bots at live tables over a real server (issue 12): tables of bots only play to the end,
through the bot runner ``serve`` starts; a person who is away is played for and gets the seat
back the moment they return, with no action lost or doubled; ``python -m backend bot`` joins a
seat as any client would.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest

from backend.botplay.client import BotClient

from ..server_fixtures import ROOT, Api, ServerProcess, WsClient

SHORT_DORN = {"hero_seats": 1, "round_limit": 2, "phase_action_limit": 40, "take_back_limit": 1,
              "allow_surrender": False}  # fmt: skip
TWO = {"heroes": ["ninja", "hunter"]}
BOT_ID_PREFIX = "b"  # backend/botplay/client.py: a bot's action ids; the tests' own start with "p"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("bots_live")
    env = {"DRAGONTABLE_BOT_RUNNERS": "1", "DRAGONTABLE_TAKEOVER_AFTER_SECONDS": "1"}
    with ServerProcess(f"sqlite:///{tmp / 'server.db'}", log_path=tmp / "server.log", env=env) as srv:
        yield srv
    log = (tmp / "server.log").read_text()
    assert "Traceback" not in log, log


@pytest.fixture(scope="module")
def host(server: ServerProcess) -> Api:
    return Api(server.base_url, "Host")


def add_bot(api: Api, table_id: str, seat: str, level: str = "steady") -> dict[str, Any]:
    reply = api.post(f"/api/tables/{table_id}/bots", {"seat": seat, "level": level})
    assert reply.status_code == 200, reply.text
    return reply.json()


def wait_finished(api: Api, table_id: str, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table = api.http.get(f"/api/tables/{table_id}").json()
        if table["status"] == "finished":
            return table
        time.sleep(0.5)
    raise AssertionError(f"the bots' table {table_id} did not finish (at seq {table['seq']})")


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game, options", [("dorasure", TWO), ("dorn", SHORT_DORN)])
def test_a_table_of_bots_plays_to_the_end(host: Api, game: str, options: dict[str, Any]) -> None:
    table = host.create_table(game, options)
    for seat in table["seats"]:
        table = add_bot(host, table["id"], seat["seat"], "steady" if seat["seat"] != "heroes_1" else "random")
    assert all(s["bot"] for s in table["seats"]) and all(
        s["player_name"].endswith("bot") for s in table["seats"]
    )
    host.start(table["id"])
    done = wait_finished(host, table["id"], 200)
    assert done["outcome"] is not None
    record = host.export(table["id"])
    assert record["complete"] and record["actions"]
    assert all(a["action_id"].startswith(BOT_ID_PREFIX) or a["auto"] for a in record["actions"])


def test_only_the_host_seats_and_removes_bots_before_the_start(server: ServerProcess, host: Api) -> None:
    table = host.create_table("dorasure", TWO)
    other = Api(server.base_url, "Other")
    assert other.post(f"/api/tables/{table['id']}/bots", {"seat": "ninja"}).status_code == 403
    table = add_bot(host, table["id"], "ninja", "strong")
    assert table["seats"][0]["bot"] == "strong" and table["seats"][0]["player_name"] == "Strong bot"
    assert host.post(f"/api/tables/{table['id']}/bots", {"seat": "ninja"}).status_code == 409
    assert other.post(f"/api/tables/{table['id']}/join", {"seat": "ninja"}).status_code == 409
    assert host.http.delete(f"/api/tables/{table['id']}/bots/hunter", headers=host.headers).status_code == 409
    gone = host.http.delete(f"/api/tables/{table['id']}/bots/ninja", headers=host.headers)
    assert gone.status_code == 200 and gone.json()["seats"][0]["taken"] is False
    listed = next(t for t in host.http.get("/api/tables").json() if t["id"] == table["id"])
    assert listed["takeover"] == "steady" and listed["bot_seconds"] == 1.0
    # Work is only for the runner's key.
    assert httpx.get(f"{server.base_url}/api/bots/work").status_code == 401


async def act_first(client: WsClient, n: int) -> dict[str, Any]:
    await client.send({"type": "act", "seq": client.seq, "action_id": f"p{n}", "action": client.legal[0]})
    return await client.expect("ack", "rejected")


class Watcher(WsClient):
    """A client that knows the seq of the last update it has taken off its queue: at a chat
    line, that is the table's seq when the line was said (one socket keeps the table's order;
    ``WsClient.seq`` may already be further on, read ahead)."""

    read_seq = 0

    async def recv(self, timeout: float = 10.0) -> dict[str, Any] | None:
        msg = await super().recv(timeout)
        if msg is not None and msg.get("type") == "update":
            self.read_seq = max(self.read_seq, msg["seq"])
        elif msg is not None and msg.get("type") == "welcome":
            self.read_seq = max([self.read_seq, msg["seq"], *(m["seq"] for m in msg.get("missed") or [])])
        return msg


async def until_chat(client: Watcher, words: str, timeout: float) -> dict[str, Any]:
    """The next chat line saying ``words``, with ``seq_before``: the table's seq when it was said."""
    deadline = time.monotonic() + timeout
    while True:
        msg = await client.expect("chat", timeout=max(0.01, deadline - time.monotonic()))
        if words in msg["text"]:
            return {**msg, "seq_before": client.read_seq}


@pytest.mark.timeout(120)
def test_a_bot_plays_for_an_absent_person_and_hands_the_seat_back(server: ServerProcess, host: Api) -> None:
    """The hunter's person leaves; a second later a (strong, so slow) bot plays for them; the
    person comes back in the middle of a decision and gets the seat at once: the bot's late
    answer is never taken, the person's own action is."""
    other = Api(server.base_url, "Hunter's person")
    table = host.create_table("dorasure", TWO, takeover="strong", bot_seconds=1.5)
    tid = table["id"]
    ninja_token, hunter_token = host.join(tid, "ninja"), other.join(tid, "hunter")
    host.start(tid)

    async def scenario() -> int:
        ninja = Watcher(server.ws_url(tid), ninja_token)
        hunter = Watcher(server.ws_url(tid), hunter_token)
        await ninja.connect()
        await hunter.connect()
        await hunter.close()  # the hunter's person is away from now on
        announced = await until_chat(ninja, "A bot is playing for Hunter's person", 15)
        assert announced["system"] is True and announced["seat"] is None
        table_now = httpx.get(f"{server.base_url}/api/tables/{tid}").json()
        assert next(s for s in table_now["seats"] if s["seat"] == "hunter")["stand_in"] == "strong"
        # The ninja plays on; the hunter's turns are the bot's.
        n, bot_moved = 0, False
        while not bot_moved:
            n += 1
            assert n < 400, "the stand-in never moved"
            msg = await ninja.expect("update", timeout=20) if "ninja" not in ninja.to_act else None
            if msg is not None:
                bot_moved = msg["by"] == "hunter" and not msg["auto"]
                continue
            if ninja.legal:
                answer = await act_first(ninja, n)
                assert answer["type"] == "ack" or answer["code"] == "stale", answer
        # Back the moment the bot's next decision begins (a strong bot thinks up to 1.5 s).
        while "hunter" not in ninja.to_act:
            if "ninja" in ninja.to_act and ninja.legal:
                n += 1
                await act_first(ninja, n)
            await ninja.expect("update", timeout=20)
        await hunter.connect(last_seq=hunter.seq)
        # The bot may still have moved before the hello: the hand-back's place in the stream says.
        back_at = (await until_chat(ninja, "is back", 5))["seq_before"]
        await asyncio.sleep(2.0)  # longer than the bot's budget: a late answer would be in by now
        # Both people play on until the hunter has acted himself.
        for k in range(400):
            await asyncio.sleep(0.05)
            if "hunter" in hunter.to_act and hunter.legal:
                answer = await act_first(hunter, 10_000 + k)
                if answer["type"] == "ack":
                    break
            elif "ninja" in ninja.to_act and ninja.legal:
                n += 1
                await act_first(ninja, n)
        else:
            raise AssertionError("the hunter never got his turn back")
        await ninja.close()
        await hunter.close()
        return back_at

    back_at = asyncio.run(scenario())
    actions = host.export(tid)["actions"]
    assert [a["seq"] for a in actions] == list(range(1, len(actions) + 1))  # none lost, none twice
    hunters = [a for a in actions if a["seat"] == "hunter"]
    assert any(a["action_id"].startswith(BOT_ID_PREFIX) and a["seq"] <= back_at for a in hunters)
    after = [a for a in hunters if a["seq"] > back_at]
    assert after and all(a["action_id"].startswith("p") or a["auto"] for a in after), after


@pytest.mark.timeout(120)
def test_the_bot_command_joins_a_seat_and_plays_it(server: ServerProcess, host: Api) -> None:
    table = host.create_table("dorasure", TWO)
    add_bot(host, table["id"], "ninja", "steady")
    cmd = [sys.executable, "-m", "backend", "bot", "--server", server.base_url, "--table", table["id"],
           "--seat", "hunter", "--level", "random", "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        # A fresh process imports the whole backend before it joins: on a loaded machine that
        # took more than 20 s once, so the wait is long, and a process that died says why.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            seats = host.http.get(f"/api/tables/{table['id']}").json()["seats"]
            if all(s["taken"] for s in seats):
                break
            if proc.poll() is not None:
                pytest.fail(f"the bot command ended before joining: {proc.communicate()[0].decode()}")
            time.sleep(0.2)
        hunter = next(s for s in seats if s["seat"] == "hunter")
        assert hunter["bot"] == "random" and hunter["player_name"] == "Random bot"
        host.start(table["id"])
        wait_finished(host, table["id"], 100)
        out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 0, out.decode()
        assert b"bot stopped: finished" in out
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.timeout(120)
def test_a_person_who_lets_the_clock_run_out_gets_a_bot_until_they_act(
    server: ServerProcess, host: Api
) -> None:
    """Connected but idle: the turn clock answers once by default, then a bot plays the seat;
    the person's next message to act (even one that is refused) hands the seat back."""
    other = Api(server.base_url, "Hunter's person")
    table = host.create_table("dorasure", TWO, turn_clock_seconds=5)
    tid = table["id"]
    ninja_token, hunter_token = host.join(tid, "ninja"), other.join(tid, "hunter")
    host.start(tid)

    def bot_moves(seat: str) -> list[dict[str, Any]]:
        return [
            a for a in host.export(tid)["actions"] if a["seat"] == seat and a["action_id"].startswith("b")
        ]

    async def scenario() -> int:
        ninja = Watcher(server.ws_url(tid), ninja_token)
        hunter = Watcher(server.ws_url(tid), hunter_token)
        await ninja.connect()
        await hunter.connect()
        await until_chat(hunter, "A bot is playing for Host", 20)  # the Ninja's clock ran out
        for n in range(600):
            if bot_moves("ninja"):
                break
            if "hunter" in hunter.to_act and hunter.legal:
                await act_first(hunter, n)
            else:
                await asyncio.sleep(0.1)
        else:
            raise AssertionError("the bot never played for the idle Ninja")
        # The person is back: any act of theirs hands the seat back, whatever its answer.
        await ninja.send(
            {"type": "act", "seq": ninja.seq, "action_id": "p-back", "action": {"type": "end_turn"}}
        )
        back_at = (await until_chat(hunter, "Host is back", 5))["seq_before"]
        seats = httpx.get(f"{server.base_url}/api/tables/{tid}").json()["seats"]
        assert all(s["stand_in"] is None for s in seats)
        await asyncio.sleep(1.5)
        await ninja.close()
        await hunter.close()
        return back_at

    back_at = asyncio.run(scenario())
    assert all(a["seq"] <= back_at for a in bot_moves("ninja"))


@pytest.mark.timeout(200)
def test_a_bot_whose_socket_drops_mid_decision_reconnects_and_plays_on(
    server: ServerProcess, host: Api
) -> None:
    """The bot's own connection is cut while it thinks, three times: it says hello again with
    its last seq, drops the answer it was working out if the table moved, and every game ends
    with every seq committed once.  The server's dice can end a two-hero game before the third
    cut: then another table takes the cuts still owed."""

    async def one_table(owed: int) -> tuple[str, int]:
        table = host.create_table("dorasure", TWO, bot_seconds=0.2)
        tid = table["id"]
        tokens = {seat: host.join(tid, seat) for seat in ("ninja", "hunter")}
        host.start(tid)
        strong = BotClient(server.base_url, tid, "hunter", "strong", tokens["hunter"])
        steady = BotClient(server.base_url, tid, "ninja", "steady", tokens["ninja"])
        runs = [asyncio.create_task(strong.run()), asyncio.create_task(steady.run())]
        cuts = 0
        while cuts < owed and not runs[0].done():
            await asyncio.sleep(0.01)
            if strong.deciding is not None and strong._ws is not None:
                await strong._ws.close()
                cuts += 1
                await asyncio.sleep(0.5)
        why = await asyncio.wait_for(asyncio.gather(*runs), 90)
        assert tuple(why) == ("finished", "finished")
        return tid, cuts

    cuts = 0
    for _ in range(4):
        tid, made = asyncio.run(one_table(3 - cuts))
        cuts += made
        record = host.export(tid)
        assert record["complete"] and [a["seq"] for a in record["actions"]] == list(
            range(1, len(record["actions"]) + 1)
        )
        if cuts == 3:
            break
    assert cuts == 3
