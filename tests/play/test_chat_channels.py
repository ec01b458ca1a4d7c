"""Side-scoped chat over real sockets (issue 14, point 3; play/chat.py).

Each channel's audience, counted on every frame each connection got: the table reaches
everyone; a side only its seats (the Keeper never hears the heroes); a private line its two
seats (and every seat its players hold: hot-seat); the spectators' channel no seat while the
game is on and everyone once it is over, with the replay.  The history a connection is sent on
arrival is filtered the same way, and so is the bus between two workers.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from backend.engine.registry import get_game
from backend.engine.rng import Rng, seed_from_int
from backend.play.chat import ChatRefused, Seating
from backend.play.tablechat import TableChat
from backend.store.records import ChatRecord

from ..server_fixtures import Api, ServerProcess, WsClient, play_random
from .helpers import check_no_leaks, stored_states

DORN = get_game("dorn")
REDIS = "redis://127.0.0.1:6379/0"


def test_the_rules_without_a_server() -> None:
    """What the live tests below cannot reach cheaply: a seat nobody holds, a hot-seat player on
    both sides, a game with one side only, and what a line said by one's own seat may be."""
    dorn = DORN.sides(DORN.normalize_options(DORN.sim_options(Rng(seed_from_int(3)), 3, {})))
    holders = {"keeper": "kay", "heroes_1": "kay", "heroes_2": None}
    seating = Seating.of(holders, dorn, over=False)
    # Kay holds the Keeper and a hero seat: one person reads both sides.
    assert seating.readable("keeper") == {
        "table",
        "side:keeper",
        "side:heroes",
        "seat:keeper",
        "seat:heroes_1",
    }
    assert seating.channel_for("heroes_1", "side") == "side:heroes"
    with pytest.raises(ChatRefused) as refused_seat:
        seating.channel_for("keeper", "seat:heroes_2")
    assert refused_seat.value.code == "empty_seat"
    # A private line reaches its sender's seats; the spectators' channel, no seat until the end.
    assert seating.may_read("heroes_2", "seat:keeper", "heroes_2")
    assert not seating.may_read("heroes_2", "spectators", None)
    assert Seating.of(holders, dorn, over=True).may_read("heroes_2", "spectators", None)
    # One side for every seat is no sides: "my side" would be the table without its spectators.
    alone = Seating.of({"p1": "a", "p2": "b"}, {"all": ["p1", "p2"]}, over=False)
    assert alone.side_of("p1") is None and alone.readable("p1") == {"table", "seat:p1"}


async def say(client: WsClient, text: str, to: str | None = None) -> dict[str, Any]:
    """Send a line and wait for its echo: by then every connection of this worker that may
    read it has it queued."""
    await client.send({"type": "chat", "text": text, **({"to": to} if to is not None else {})})
    return await heard_line(client, text)


async def heard_line(client: WsClient, text: str, timeout: float = 10.0) -> dict[str, Any]:
    while True:
        msg = await client.expect("chat", timeout=timeout)
        if msg["text"] == text:
            return msg


async def refused(client: WsClient, to: str) -> str:
    await client.send({"type": "chat", "text": "not for you", "to": to})
    return str((await client.expect("error"))["code"])


def heard(client: WsClient) -> list[str]:
    """Every live chat line this connection got, in order."""
    return [m["text"] for m in map(json.loads, client.raw) if m.get("type") == "chat"]


def history_of(msg: dict[str, Any]) -> list[str]:
    assert msg["type"] == "chat_history"
    return [line["text"] for line in msg["lines"]]


async def arrive(url: str, token: str | None = None) -> tuple[WsClient, dict[str, Any]]:
    """A fresh connection and the chat history it is sent after its welcome."""
    client = WsClient(url, token)
    await client.connect()
    return client, await client.expect("chat_history")


async def test_every_channel_reaches_its_audience_and_no_one_else(server: ServerProcess, api: Api) -> None:
    # Four seats, three people: Carol holds p3 and p4 (hot-seat).
    table = api.create_table("toy", {"players": 4, "target": 3})
    tid, url = table["id"], server.ws_url(table["id"])
    bob, carol = Api(server.base_url, "Bob"), Api(server.base_url, "Carol")
    tokens = {"p1": api.join(tid, "p1"), "p2": bob.join(tid, "p2"), "p3": carol.join(tid, "p3"),
              "p4": carol.join(tid, "p4")}  # fmt: skip
    api.start(tid)
    seats = {s: WsClient(url, t) for s, t in tokens.items()}
    s1, s2 = WsClient(url), WsClient(url)
    everyone = [*seats.values(), s1, s2]
    for c in everyone:
        await c.connect()
    p1, p2, p3, p4 = (seats[s] for s in ("p1", "p2", "p3", "p4"))

    line = await say(p1, "hello table")
    assert (line["channel"], line["seat"], line["from"]) == ("table", "p1", "Host")
    line = await say(s1, "spectators only")
    assert (line["channel"], line["seat"], line["from"]) == ("spectators", None, "spectator")
    assert (await say(p2, "psst p1", "seat:p1"))["channel"] == "seat:p1"
    assert (await say(p1, "psst p4", "seat:p4"))["channel"] == "seat:p4"
    # What a connection may not use is refused with a reason, and the connection goes on.
    assert await refused(s1, "table") == "spectators_only"
    assert await refused(s1, "side") == "not_a_seat"
    assert await refused(s1, "seat:p1") == "not_a_seat"
    assert await refused(p1, "side") == "no_sides"  # the toy race is every seat for itself
    assert await refused(p1, "spectators") == "spectators_channel"
    assert await refused(p1, "seat:p1") == "own_seat"
    assert await refused(p3, "seat:p4") == "own_seat"  # Carol holds both
    assert await refused(p1, "seat:p9") == "no_such_seat"
    assert await refused(p1, "everyone") == "bad_channel"
    await say(p1, "end of round one")
    for c in everyone[1:]:  # p1 has had its echo
        await heard_line(c, "end of round one")

    assert heard(p1) == ["hello table", "psst p1", "psst p4", "end of round one"]
    assert heard(p2) == ["hello table", "psst p1", "end of round one"]
    # A private line to p4 reaches p3's connection too: one person reads for both seats.
    assert heard(p3) == heard(p4) == ["hello table", "psst p4", "end of round one"]
    assert heard(s1) == heard(s2) == ["hello table", "spectators only", "end of round one"]

    # Arriving again: the history is filtered as the live lines were.
    again = {}
    for seat in ("p2", "p3"):
        client, history = await arrive(url, tokens[seat])
        again[seat] = history_of(history)
        assert history["side"] is None
        await client.close()
    assert again["p2"] == ["hello table", "psst p1", "end of round one"]
    assert again["p3"] == ["hello table", "psst p4", "end of round one"]
    late, history = await arrive(url)
    assert history_of(history) == ["hello table", "spectators only", "end of round one"]
    assert [x["channel"] for x in history["lines"]] == ["table", "spectators", "table"]
    everyone.append(late)
    # The replay (and so the spectators' lines in it) opens only at the end.
    assert httpx.get(f"{server.base_url}/api/tables/{tid}/replay").status_code == 409

    await play_random(seats, [s1, s2, late], random.Random(2), prefix="g")
    # The game is over: every seat is sent the spectators' lines at once.
    for c in seats.values():
        assert "spectators only" in history_of(await c.expect("chat_history"))
    assert (await say(s1, "well played", "table"))["channel"] == "table"
    assert (await say(p2, "thanks for watching", "spectators"))["channel"] == "spectators"
    for c in everyone:
        if c is not p2:
            await heard_line(c, "thanks for watching")
    _, history = await arrive(url, tokens["p2"])
    assert history_of(history) == ["hello table", "spectators only", "psst p1", "end of round one",
                                   "well played", "thanks for watching"]  # fmt: skip
    replay = httpx.get(f"{server.base_url}/api/tables/{tid}/replay").json()
    # The replay shows the table's and the spectators' lines; private ones stay private.
    assert [x["text"] for x in replay["chat"]] == ["hello table", "spectators only", "end of round one",
                                                   "well played", "thanks for watching"]  # fmt: skip
    for c in everyone:
        await c.close()


async def dorn_table(base_url: str) -> tuple[str, dict[str, str], dict[str, Api]]:
    """A Dorn table of a Keeper and two hero seats, each a different person, started."""
    options = DORN.sim_options(Rng(seed_from_int(3)), 3, {})
    people = {
        seat: Api(base_url, name)
        for seat, name in (("keeper", "Kay"), ("heroes_1", "Ann"), ("heroes_2", "Bo"))
    }
    tid = people["keeper"].create_table("dorn", options)["id"]
    tokens = {seat: person.join(tid, seat) for seat, person in people.items()}
    people["keeper"].start(tid)
    return tid, tokens, people


async def test_the_keeper_never_hears_the_heroes_side(server: ServerProcess) -> None:
    tid, tokens, _people = await dorn_table(server.base_url)
    url = server.ws_url(tid)
    seats, histories = {}, {}
    for seat, token in tokens.items():
        seats[seat], histories[seat] = await arrive(url, token)
    spectator, _ = await arrive(url)
    everyone = [*seats.values(), spectator]
    assert {s: h["side"] for s, h in histories.items()} == {"keeper": "keeper", "heroes_1": "heroes",
                                                           "heroes_2": "heroes"}  # fmt: skip
    keeper, ann, bo = seats["keeper"], seats["heroes_1"], seats["heroes_2"]

    assert (await say(ann, "the bridge, then the chamber", "side"))["channel"] == "side:heroes"
    # A card in the Keeper's hand, said on the Keeper's own side: the leak scan below would find
    # it in any frame a hero seat or the spectator got.
    start = stored_states(server.database_url, DORN, tid)[1][0]
    secret = sorted(
        DORN.secrets(start, "heroes_1") & DORN.secrets(start, None) - DORN.secrets(start, "keeper")
    )[0]
    assert (await say(keeper, secret, "side"))["channel"] == "side:keeper"
    await say(spectator, "go heroes")
    assert await refused(spectator, "side") == "not_a_seat"
    await say(bo, "all set")
    for c in (keeper, ann, spectator):
        await heard_line(c, "all set")
    assert heard(ann) == heard(bo) == ["the bridge, then the chamber", "all set"]
    assert heard(keeper) == [secret, "all set"]
    assert heard(spectator) == ["go heroes", "all set"]

    for seat, expected in (
        ("keeper", [secret, "all set"]),
        ("heroes_2", ["the bridge, then the chamber", "all set"]),
    ):
        client, history = await arrive(url, tokens[seat])
        assert history_of(history) == expected
        everyone.append(client)
    client, history = await arrive(url)
    assert history_of(history) == ["go heroes", "all set"]
    everyone.append(client)
    seed_hex, states = stored_states(server.database_url, DORN, tid)
    for c in everyone:
        foreign = [t for s, t in tokens.items() if s != c.seat]
        assert check_no_leaks(DORN, states, c, seed_hex, foreign) > 0

    surrender = next(a for a in keeper.legal if a["type"] == "surrender")
    await keeper.send({"type": "act", "seq": keeper.seq, "action_id": "give-up", "action": surrender})
    assert (await keeper.expect("ack", "rejected"))["type"] == "ack"
    # Over: the spectators' line reaches every seat; a side's talk stays with its side.
    assert history_of(await ann.expect("chat_history")) == [
        "the bridge, then the chamber",
        "go heroes",
        "all set",
    ]
    assert history_of(await keeper.expect("chat_history")) == [secret, "go heroes", "all set"]
    for c in everyone:
        await c.close()


@pytest.mark.postgres
@pytest.mark.redis
async def test_two_workers_filter_the_bus_for_their_own_connections(pg_url: str, tmp_path: Path) -> None:
    log = tmp_path / "servers.log"
    a = ServerProcess(pg_url, redis_url=REDIS, log_path=log).start()
    b = ServerProcess(pg_url, redis_url=REDIS, log_path=log).start()
    try:
        tid, tokens, _people = await dorn_table(a.base_url)
        ann, _ = await arrive(a.ws_url(tid), tokens["heroes_1"])
        watching_a, _ = await arrive(a.ws_url(tid))
        keeper, _ = await arrive(b.ws_url(tid), tokens["keeper"])
        bo, _ = await arrive(b.ws_url(tid), tokens["heroes_2"])
        watching_b, _ = await arrive(b.ws_url(tid))
        everyone = [ann, watching_a, keeper, bo, watching_b]
        await say(ann, "heroes only, across workers", "side")
        await say(watching_a, "spectators only, across workers")
        await say(ann, "to Bo alone", "seat:heroes_2")
        await say(ann, "everyone, across workers")
        for c in everyone[1:]:
            await heard_line(c, "everyone, across workers", timeout=30)
        assert heard(bo) == ["heroes only, across workers", "to Bo alone", "everyone, across workers"]
        assert heard(keeper) == ["everyone, across workers"]
        assert heard(watching_b) == ["spectators only, across workers", "everyone, across workers"]
        for c in everyone:
            await c.close()
    finally:
        a.stop()
        b.stop()
    assert "Traceback" not in log.read_text()


class _Repo:
    """The chat's side of the repository, counting the reads."""

    def __init__(self) -> None:
        self.lines: list[ChatRecord] = []
        self.reads = 0
        self.asked = 0  # whether the table has any line at all

    def add_chat_line(self, table_id: str, line: ChatRecord) -> None:
        self.lines.append(line)

    def has_chat_lines(self, table_id: str) -> bool:
        self.asked += 1
        return bool(self.lines)

    def chat_lines(self, table_id: str, channels: list[str], from_seats: list[str], limit: int) -> list[ChatRecord]:
        self.reads += 1
        return [x for x in self.lines if x.channel in channels or x.from_seat in from_seats][-limit:]


class _Conn:
    def __init__(self, seat: str | None) -> None:
        self.seat, self.name, self.frames = seat, "Ann", []

    def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def send(self, message: dict[str, Any]) -> None:
        self.frames.append(message)


async def test_arrivals_that_read_alike_share_one_read_until_the_next_line() -> None:
    """A crowd arriving is one read of the history, not one each; a line kept here or heard
    from another worker is in the next arrival's history; a seat reads its own channels."""
    repo = _Repo()
    crowd = [_Conn(None) for _ in range(50)]
    seating = Seating.of({"p1": "ann", "p2": "bob"}, {"all": ["p1", "p2"]}, over=False)
    talk = TableChat(repo, "t1", crowd, lambda: seating, lambda message: None)  # type: ignore[arg-type]
    await talk.say(_Conn("p1"), "hello all", None, 3)
    for c in crowd:  # each arrival on its own, as attach sends it
        await talk.send_history([c])
    assert repo.reads == 1
    assert all(history_of(c.frames[-1]) == ["hello all"] for c in crowd)
    p2 = _Conn("p2")
    await talk.send_history([p2])
    assert repo.reads == 2 and history_of(p2.frames[-1]) == ["hello all"]
    # A private line from p1 to p2: the spectators' kept history is still theirs, read again.
    await talk.say(_Conn("p1"), "just you", "seat:p2", 4)
    late = _Conn(None)
    await talk.send_history([late])
    await talk.send_history([_Conn(None)])
    assert repo.reads == 3 and history_of(late.frames[-1]) == ["hello all"]
    await talk.send_history([p2])
    assert history_of(p2.frames[-1]) == ["hello all", "just you"]
    # A line said on another worker comes over the bus.
    repo.lines.append(ChatRecord(5, "table", "Bob", "p2", "from afar", False, datetime.now(UTC)))
    talk.deliver({"type": "chat", "name": "Bob", "seat": "p2", "text": "from afar", "channel": "table"})
    await talk.send_history([late])
    assert history_of(late.frames[-1]) == ["hello all", "from afar"]


async def test_the_arrivals_at_a_silent_table_cost_one_question_and_no_read() -> None:
    """Each seat reads its own private lines, so the arrivals at a table read its history in
    as many ways as it has seats and sides; where nothing was ever said, one question answers
    them all.  The first line said ends that: the next arrival reads it."""
    repo = _Repo()
    seats = [_Conn(s) for s in ("p1", "p2", "p3")]
    crowd = [_Conn(None) for _ in range(10)]
    seating = Seating.of({"p1": "ann", "p2": "bob", "p3": "cy"}, {"all": ["p1", "p2", "p3"]}, over=False)
    talk = TableChat(repo, "t1", [*seats, *crowd], lambda: seating, lambda message: None)  # type: ignore[arg-type]
    for c in [*seats, *crowd]:
        await talk.send_history([c])
    assert (repo.asked, repo.reads) == (1, 0)
    assert all(c.frames[-1]["type"] == "chat_history" and history_of(c.frames[-1]) == [] for c in [*seats, *crowd])
    await talk.say(seats[0], "hello all", None, 3)
    await talk.say(seats[0], "just you", "seat:p2", 3)
    late = _Conn("p2")
    await talk.send_history([late])
    assert history_of(late.frames[-1]) == ["hello all", "just you"]
    await talk.send_history([_Conn(None)])
    assert repo.reads == 2
    # A line heard from another worker ends the silence too.
    quiet = TableChat(repo := _Repo(), "t2", [], lambda: seating, lambda message: None)  # type: ignore[arg-type]
    await quiet.send_history([_Conn(None)])
    repo.lines.append(ChatRecord(5, "table", "Bob", "p2", "from afar", False, datetime.now(UTC)))
    quiet.deliver({"type": "chat", "name": "Bob", "seat": "p2", "text": "from afar", "channel": "table"})
    watcher = _Conn(None)
    await quiet.send_history([watcher])
    assert history_of(watcher.frames[-1]) == ["from afar"]


async def test_a_table_read_silent_asks_nothing_until_a_line_is_said() -> None:
    """The table's load says whether a line was ever kept (``PlayLoad.chatted``): when none was,
    its arrivals' histories are empty without a question of their own."""
    repo = _Repo()
    seating = Seating.of({"p1": "ann", "p2": "bob"}, {"all": ["p1", "p2"]}, over=False)
    arrivals = [_Conn("p1"), _Conn("p2"), _Conn(None)]
    talk = TableChat(repo, "t1", arrivals, lambda: seating, lambda message: None, silent=True)  # type: ignore[arg-type]
    for c in arrivals:
        await talk.send_history([c])
    assert (repo.asked, repo.reads) == (0, 0)
    assert all(history_of(c.frames[-1]) == [] for c in arrivals)
    await talk.say(arrivals[0], "hello all", None, 3)
    late = _Conn(None)
    await talk.send_history([late])
    assert history_of(late.frames[-1]) == ["hello all"] and repo.reads == 1
