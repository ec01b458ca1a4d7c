"""Chaos on the real services: a table on PostgreSQL + Redis, served by two workers, survives
a PostgreSQL restart, a Redis restart and one worker's SIGKILL, each in the middle of a game.

In each: the clients hear of it (a refusal or a closed connection), reconnect and are
welcomed at the committed seq with what they missed; every acknowledged action is in the log
at its seq, none twice, none that nobody was told of; and the game plays on through both
workers, their views agreeing.

These tests stop and start this machine's PostgreSQL cluster and Redis server (the ones
.ci/run starts): both are up again when a test ends, pass or fail.  They are skipped when the
services or their tools are not here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ..server_fixtures import Api, ServerProcess, WsClient, start_table

# Each scenario is bounded by its own waits; the timeout only stops a hang (services restored).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(300)]

PG = "postgresql+psycopg://postgres@127.0.0.1:5432"
PG_PORT = "5432"
REDIS_URL = "redis://127.0.0.1:6379/0"
# Exactly as .ci/run starts it, so that a restart leaves the same server behind.
REDIS_SERVER = [
    "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379", "--save", "",
    "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
]  # fmt: skip
TOOLS = ("pg_ctlcluster", "pg_isready", "redis-server", "redis-cli")


def wait_until(ready: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} within {timeout:.0f} s")
        time.sleep(0.1)


def run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


class Services:
    """This machine's PostgreSQL cluster (on 127.0.0.1:5432) and Redis (on 6379)."""

    def __init__(self, pg_version: str) -> None:
        self.pg_version = pg_version

    @staticmethod
    def pg_up() -> bool:
        return run(["pg_isready", "-h", "127.0.0.1", "-p", PG_PORT, "-q"]).returncode == 0

    @staticmethod
    def redis_up() -> bool:
        return run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping"]).stdout.strip() == "PONG"

    def _pg_ctl(self, action: str) -> None:
        done = run(["pg_ctlcluster", "--skip-systemctl-redirect", self.pg_version, "main", action])
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctlcluster {action}: {done.stderr.strip()}")

    def stop_postgres(self) -> None:
        # Debian's default stop mode is fast: open sessions are cut, as in a crash of the server.
        self._pg_ctl("stop")
        wait_until(lambda: not self.pg_up(), "PostgreSQL did not stop")

    def start_postgres(self) -> None:
        self._pg_ctl("start")
        wait_until(self.pg_up, "PostgreSQL did not come back")

    def stop_redis(self) -> None:
        run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave"])
        wait_until(lambda: not self.redis_up(), "Redis did not stop")

    def start_redis(self) -> None:
        for folder in ("/var/lib/redis", "/var/log/redis"):
            os.makedirs(folder, exist_ok=True)
        done = run(REDIS_SERVER)
        if done.returncode != 0:
            raise RuntimeError(f"redis-server: {done.stderr.strip() or done.stdout.strip()}")
        wait_until(self.redis_up, "Redis did not come back")

    def ensure_up(self) -> None:
        """Whatever a test did, both services run again afterwards."""
        if not self.pg_up():
            self.start_postgres()
        if not self.redis_up():
            self.start_redis()


def cluster_version() -> str | None:
    """The Debian cluster ``main`` that listens on 5432 (/etc/postgresql/<version>/main)."""
    root = Path("/etc/postgresql")
    for conf in sorted(root.glob("*/main/postgresql.conf")) if root.is_dir() else []:
        ports = [
            line.split("=", 1)[1].split("#", 1)[0].strip()
            for line in conf.read_text().splitlines()
            if line.strip().startswith("port") and "=" in line
        ]
        if (ports or ["5432"])[-1] == PG_PORT:
            return conf.parent.parent.name
    return None


@pytest.fixture(scope="module")
def services() -> Iterator[Services]:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    pytest.importorskip("psycopg")
    pytest.importorskip("redis")
    version = cluster_version()
    if version is None:
        pytest.skip("no Debian PostgreSQL cluster on port 5432 under /etc/postgresql")
    data = Path(f"/var/lib/postgresql/{version}/main")
    if os.geteuid() != 0 and (not data.exists() or data.stat().st_uid != os.geteuid()):
        pytest.skip("restarting the PostgreSQL cluster needs root or its owner")
    if os.geteuid() != 0 and not os.access("/var/lib/redis", os.W_OK):
        pytest.skip("restarting Redis as .ci/run does needs write access to /var/lib/redis")
    found = Services(version)
    if not found.pg_up():
        pytest.skip("PostgreSQL is not running at 127.0.0.1:5432")
    if not found.redis_up():
        pytest.skip("Redis is not running at 127.0.0.1:6379")
    try:
        yield found
    finally:
        found.ensure_up()


@pytest.fixture
def pg_database(services: Services, pg_url: str) -> Iterator[str]:
    """A fresh database (tests/conftest.py's ``pg_url``), with PostgreSQL brought back up
    before it is dropped: a failed test may have left the server stopped."""
    yield pg_url
    services.ensure_up()


# -- the table and its players ------------------------------------------------------------
@dataclass
class Table:
    """A toy race at two workers: who is connected where, and every frame anyone received."""

    tid: str
    tokens: dict[str, str]
    workers: dict[str, ServerProcess]
    seats: dict[str, WsClient]
    watchers: dict[str, WsClient]  # two spectators, named after the worker each started on
    gone: list[WsClient] = field(default_factory=list)  # replaced clients: their acks still count
    ids: int = 0

    def connected(self) -> list[WsClient]:
        return [c for c in [*self.seats.values(), *self.watchers.values()] if c.close_code is None]

    def client(self, who: str) -> WsClient:
        """A seat, or a spectator as ``watcher:<name>``."""
        return self.seats[who] if who in self.seats else self.watchers[who.split(":", 1)[1]]

    def worker_of(self, client: WsClient) -> str:
        return next(w for w, srv in self.workers.items() if client.url == srv.ws_url(self.tid))

    def acks(self) -> dict[str, int]:
        """Every acknowledgement any client got: action id -> seq (one seq per id)."""
        out: dict[str, int] = {}
        for client in [*self.seats.values(), *self.watchers.values(), *self.gone]:
            for text in client.raw:
                msg = json.loads(text)
                if msg.get("type") == "ack":
                    seen = out.setdefault(msg["action_id"], msg["seq"])
                    assert seen == msg["seq"], f"{msg['action_id']} acknowledged as {seen} and {msg['seq']}"
        return out

    async def move(self, who: str, worker: str, last_seq: int | None = None) -> dict[str, Any]:
        """``who`` connects again, to ``worker``, with its last seq; returns the welcome."""
        old = self.client(who)
        new = WsClient(self.workers[worker].ws_url(self.tid), self.tokens.get(who))
        welcome = await new.connect(last_seq=old.seq if last_seq is None else last_seq)
        self.gone.append(old)
        if who in self.seats:
            self.seats[who] = new
        else:
            self.watchers[who.split(":", 1)[1]] = new
        with contextlib.suppress(Exception):
            await old.close()
        return welcome

    async def close(self) -> None:
        for client in self.connected():
            await client.close()


async def open_table(workers: dict[str, ServerProcess], placement: dict[str, str], **extra: Any) -> Table:
    """A 3-seat race started through worker a, each seat connected where ``placement`` says,
    and a spectator on each worker."""
    api = Api(workers["a"].base_url, "Host")
    tid, tokens = start_table(api, options={"players": 3, "target": 200}, **extra)
    seats = {s: WsClient(workers[placement[s]].ws_url(tid), t) for s, t in tokens.items()}
    watchers = {w: WsClient(srv.ws_url(tid)) for w, srv in workers.items()}
    for client in [*seats.values(), *watchers.values()]:
        await client.connect()
    return Table(tid, tokens, workers, seats, watchers)


async def take_turns(
    table: Table,
    rnd: random.Random,
    count: int,
    *,
    everyone: bool = True,
    only: set[str] | None = None,
    timeout: float = 60.0,
) -> list[int]:
    """``count`` more actions by connected seats (of ``only``) whose view says they may act.

    An action refused with ``unavailable`` is sent again under the same id until it is
    acknowledged (the database is away; a retry can never apply it twice); one refused as
    ``stale`` or out of turn (this worker's replica was behind) is dropped and the seat looks
    again.  With ``everyone``, every connection catches up after each action.
    """
    acked: list[int] = []
    deadline = time.monotonic() + timeout
    while len(acked) < count:
        ready = [
            c
            for s, c in table.seats.items()
            if c.close_code is None and c.legal and c.seat in c.to_act and (only is None or s in only)
        ]
        if not ready:
            if time.monotonic() > deadline:
                views = {s: (c.seq, sorted(c.to_act)) for s, c in table.seats.items()}
                raise AssertionError(f"nobody can act for {timeout:.0f} s; seat: (seq, to act) {views}")
            await asyncio.sleep(0.1)  # a lagging replica catches up, or a default answer comes
            continue
        client = rnd.choice(ready)
        action = rnd.choice(client.legal)
        table.ids += 1
        aid = f"t{table.ids}"
        while True:
            await client.send({"type": "act", "seq": client.seq, "action_id": aid, "action": action})
            answer = await client.expect("ack", "rejected", timeout=30)
            if answer["type"] == "ack":
                acked.append(answer["seq"])
                await client.wait_seq(answer["seq"])
                break
            if answer["code"] == "unavailable":
                if time.monotonic() > deadline:
                    raise AssertionError(f"{aid} refused as unavailable for {timeout:.0f} s")
                await asyncio.sleep(0.2)
                continue
            assert answer["code"] in ("stale", "not_your_turn", "answer_prompt"), answer
            with contextlib.suppress(TimeoutError):
                await client.wait_seq(answer["seq"], timeout=5)
            break
        if everyone and acked:
            for other in table.connected():
                try:
                    await other.wait_seq(acked[-1], timeout=30)
                except TimeoutError:
                    raise AssertionError(
                        f"a connection to worker {table.worker_of(other)} is stuck at seq {other.seq}; "
                        f"{acked[-1]} was acknowledged"
                    ) from None
    return acked


def check_log(record: dict[str, Any], acks: dict[str, int]) -> None:
    """Every acknowledged action is in the log at its seq; none twice; none nobody was told of."""
    actions = record["actions"]
    assert [a["seq"] for a in actions] == list(range(1, len(actions) + 1)), "the log has a hole"
    ids = [a["action_id"] for a in actions]
    assert len(set(ids)) == len(ids), "an action was committed twice"
    at = {a["action_id"]: a["seq"] for a in actions}
    lost = {aid: seq for aid, seq in acks.items() if at.get(aid) != seq}
    assert not lost, f"acknowledged, but not in the log at that seq: {lost}"
    untold = [aid for aid in ids if not aid.startswith("auto:") and aid not in acks]
    assert not untold, f"committed, but nobody was acknowledged: {untold}"


async def check_resync(table: Table, api: Api) -> int:
    """Every connection comes back to its worker with its last seq and is welcomed at the
    committed seq, with every update it missed."""
    committed = len(api.export(table.tid)["actions"])
    for who in [*table.seats, *(f"watcher:{name}" for name in table.watchers)]:
        client = table.client(who)
        worker, last = table.worker_of(client), client.seq
        welcome = await table.move(who, worker)
        assert welcome["seq"] == committed, (
            f"{who} on worker {worker} was welcomed at seq {welcome['seq']}, but {committed} actions "
            "are committed: that worker's replica missed what the other worker committed"
        )
        assert [m["seq"] for m in welcome["missed"]] == list(range(last + 1, committed + 1))
    return committed


def wait_resubscribed(table: Table) -> None:
    """Both workers listen on the table's channel again (their Redis connections came back)."""

    def both() -> bool:
        out = run(["redis-cli", "-p", "6379", "pubsub", "numsub", f"dragontable:table:{table.tid}"])
        return out.stdout.split()[-1:] == ["2"]

    wait_until(both, "the workers did not subscribe to the table again")


async def check_converged(table: Table) -> None:
    """Both workers show one table: same seq everywhere, each seat's view the same on both."""
    seqs = {c.seq for c in table.connected()}
    assert len(seqs) == 1, f"connections disagree on the seq: {seqs}"
    views = [c.view for c in table.watchers.values()]
    assert all(v == views[0] for v in views), "the workers' spectators see different tables"
    for seat, client in table.seats.items():
        for worker, srv in table.workers.items():
            if srv.proc is None or srv.proc.poll() is not None:
                continue
            mirror = WsClient(srv.ws_url(table.tid), table.tokens[seat])
            welcome = await mirror.connect()
            await mirror.close()
            assert welcome["view"] == client.view, f"{seat}'s view differs on worker {worker}"


def start_workers(database: str, log: Path, **env: str) -> dict[str, ServerProcess]:
    workers: dict[str, ServerProcess] = {}
    try:
        for name in ("a", "b"):
            workers[name] = ServerProcess(database, redis_url=REDIS_URL, log_path=log, env=env).start()
    except BaseException:
        for srv in workers.values():
            srv.stop()
        raise
    return workers


# -- the scenarios ------------------------------------------------------------------------
async def test_postgres_restart_mid_game(services: Services, pg_database: str, tmp_path: Path) -> None:
    workers = start_workers(pg_database, tmp_path / "workers.log")
    try:
        table = await open_table(workers, {"p1": "a", "p2": "b", "p3": "b"}, prompt_timeout_seconds=86400)
        api = Api(workers["b"].base_url, "Reader")
        rnd = random.Random(31)
        await take_turns(table, rnd, 6)
        # Another table, started through a: b has never opened it.
        other, _ = start_table(Api(workers["a"].base_url, "Other"), options={"players": 2, "target": 50})

        services.stop_postgres()
        try:
            # The seat whose turn it is acts while the database is away: it is told, nothing changes.
            actor = next(c for c in table.seats.values() if c.legal and c.seat in c.to_act)
            seq, action = actor.seq, rnd.choice(actor.legal)
            await actor.send({"type": "act", "seq": seq, "action_id": "during", "action": action})
            answer = await actor.expect("ack", "rejected", timeout=60)
            assert answer == {**answer, "type": "rejected", "code": "unavailable", "seq": seq}, answer
            # A spectator reconnecting meanwhile is still welcomed (from memory) at that seq.
            welcome = await table.move("watcher:a", "a", last_seq=seq - 2)
            assert welcome["seq"] == seq and [m["seq"] for m in welcome["missed"]] == [seq - 1, seq]
            # A table b would have to read first cannot be opened now: told so, try again later.
            refused = WsClient(workers["b"].ws_url(other))
            await refused.connect(hello=False)
            assert (await refused.expect("error", timeout=60))["code"] == "unavailable"
            assert await refused.wait_closed(timeout=30) == 1013
        finally:
            services.start_postgres()

        # The same action under the same id once the database is back: applied exactly once.
        deadline = time.monotonic() + 60
        while True:
            await actor.send({"type": "act", "seq": seq, "action_id": "during", "action": action})
            answer = await actor.expect("ack", "rejected", timeout=60)
            if answer["type"] == "ack" or answer["code"] != "unavailable" or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)  # the workers' pools reconnect on their next use
        assert answer == {"type": "ack", "action_id": "during", "seq": seq + 1}, answer
        for client in table.connected():
            await client.wait_seq(seq + 1)

        assert await check_resync(table, api) == seq + 1
        again = WsClient(workers["b"].ws_url(other))
        assert (await again.connect())["seq"] == 0
        await again.close()
        await take_turns(table, rnd, 10)
        await check_converged(table)
        check_log(api.export(table.tid), table.acks())
        await table.close()
    finally:
        for srv in workers.values():
            srv.stop()


async def test_redis_restart_mid_game(services: Services, pg_database: str, tmp_path: Path) -> None:
    workers = start_workers(pg_database, tmp_path / "workers.log")
    try:
        table = await open_table(workers, {"p1": "a", "p2": "b", "p3": "a"}, prompt_timeout_seconds=86400)
        api = Api(workers["a"].base_url, "Reader")
        rnd = random.Random(32)
        await take_turns(table, rnd, 6)

        services.stop_redis()
        try:
            # Both workers keep committing to PostgreSQL, but neither hears of the other's
            # actions: each must find them in the database for its own clients to play on.
            try:
                await take_turns(table, rnd, 8, everyone=False, timeout=45)
            except AssertionError as exc:
                raise AssertionError(
                    f"with Redis down, each worker's replica waits for the other's actions: {exc}"
                ) from None
        finally:
            services.start_redis()
        wait_resubscribed(table)
        assert await check_resync(table, api) == 14

        # A quick restart, one action in between: too short, maybe, for a worker to see an
        # error at all (the Redis client reconnects and subscribes again by itself).
        services.stop_redis()
        try:
            await take_turns(table, rnd, 1, everyone=False)
        finally:
            services.start_redis()
        wait_resubscribed(table)
        assert await check_resync(table, api) == 15
        # The bus works again: chat and actions cross from one worker to the other.
        await table.seats["p2"].send({"type": "chat", "text": "back on the bus"})
        assert (await table.watchers["a"].expect("chat", timeout=30))["text"] == "back on the bus"
        await take_turns(table, rnd, 10)
        await check_converged(table)
        check_log(api.export(table.tid), table.acks())
        await table.close()
    finally:
        for srv in workers.values():
            srv.stop()


def committed_seq(api: Api, tid: str) -> int:
    return len(api.export(tid)["actions"])


@contextlib.contextmanager
def bus_held_back() -> Iterator[None]:
    """Redis holds every PUBLISH until the block ends (CLIENT PAUSE ... WRITE): a worker
    killed inside it has committed and acknowledged actions that no other worker heard of."""
    done = run(["redis-cli", "-p", "6379", "client", "pause", "30000", "write"])
    assert done.stdout.strip() == "OK", done
    try:
        yield
    finally:
        run(["redis-cli", "-p", "6379", "client", "unpause"])


async def presence_on(table: Table, worker: str, wanted: tuple[int, list[str]]) -> tuple[int, list[str]]:
    """(spectators, connected seats) as a newcomer on ``worker`` is told (not counting itself),
    once it is ``wanted`` or 10 s have passed: presence frames are coalesced (0.5 s)."""
    deadline = time.monotonic() + 10
    while True:
        newcomer = WsClient(table.workers[worker].ws_url(table.tid))
        shown = (await newcomer.connect())["table"]
        await newcomer.close()
        got = (shown["spectators"] - 1, sorted(s["seat"] for s in shown["seats"] if s["connected"]))
        if got == wanted or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.3)


async def test_worker_sigkill_mid_game(services: Services, pg_database: str, tmp_path: Path) -> None:
    log = tmp_path / "workers.log"
    # Workers repeat their presence every second, so b forgets the killed a within seconds.
    workers = start_workers(pg_database, log, DRAGONTABLE_PRESENCE_HEARTBEAT_SECONDS="1")
    # Each finding is kept and the scenario goes on, so that one run reports all of them.
    problems: list[str] = []
    try:
        # Short prompt timeouts: the server answers for seats that are away (and slow prompts).
        table = await open_table(workers, {"p1": "a", "p2": "b", "p3": "a"}, prompt_timeout_seconds=3)
        api = Api(workers["b"].base_url, "Reader")
        rnd = random.Random(33)
        # b knows who is on a before a dies.
        assert await presence_on(table, "b", (2, ["p1", "p2", "p3"])) == (2, ["p1", "p2", "p3"])
        await take_turns(table, rnd, 6)
        while not any(table.seats[s].seat in table.seats[s].to_act for s in ("p1", "p3")):
            await take_turns(table, rnd, 1, only={"p2"})

        # A seat on worker a acts; a commits and acknowledges it, and is killed before the
        # bus has told b (the publish comes after the ack).
        mover = next(s for s in ("p1", "p3") if table.seats[s].seat in table.seats[s].to_act)
        client = table.seats[mover]
        with bus_held_back():
            await client.send(
                {"type": "act", "seq": client.seq, "action_id": "last-on-a", "action": client.legal[0]}
            )
            acked = await client.expect("ack", "rejected")
            assert acked["type"] == "ack", acked
            await client.wait_seq(acked["seq"])
            workers["a"].kill()
        for gone in [table.seats["p1"], table.seats["p3"], table.watchers["a"]]:
            assert await gone.wait_closed() is not None  # told: the connection is gone

        # Everyone from a comes back on b, welcomed at the committed seq (b may answer for an
        # away seat meanwhile, so the seq is bracketed by two reads of the log).
        for who in ("p1", "p3", "watcher:a"):
            before, last = committed_seq(api, table.tid), table.client(who).seq
            welcome = await table.move(who, "b")
            if not before <= welcome["seq"] <= committed_seq(api, table.tid):
                problems.append(
                    f"{who} (last seq {last}) was welcomed on worker b at seq {welcome['seq']} while "
                    f"{before} actions are committed: b never heard of the action a acknowledged "
                    f"as {acked['seq']} before it died, and a welcome does not look in the database"
                )
        await take_turns(table, rnd, 10)
        await check_converged(table)
        check_log(api.export(table.tid), table.acks())

        # The killed worker's connections are gone for good, so b, alone now, must stop counting
        # them; p3 now leaves too, and b has to answer for it after the prompt timeout.
        leaver = table.seats.pop("p3")
        table.gone.append(leaver)
        await leaver.close()
        wanted = (len(table.watchers), sorted(table.seats))
        got = await presence_on(table, "b", wanted)
        if got != wanted:
            problems.append(
                f"worker b shows (spectators, connected seats) {got} where {wanted} are connected: "
                "it keeps the presence the killed worker a last published (a silent worker must be "
                "forgotten after three presence rounds)"
            )
        for _ in range(8):
            try:
                await take_turns(table, rnd, 1, timeout=20)
            except AssertionError as exc:
                problems.append(f"p3 left and nobody answers for it, so the game stops: {exc}")
                break
        else:
            auto = [a for a in api.export(table.tid)["actions"] if a["seat"] == "p3" and a["auto"]]
            assert auto, "p3 left and was never answered for"

        # A restarted a loads the table at its committed seq.
        workers["a"] = ServerProcess(pg_database, port=workers["a"].port, redis_url=REDIS_URL, log_path=log)
        workers["a"].start()
        before = committed_seq(api, table.tid)
        late = WsClient(workers["a"].ws_url(table.tid))
        seq = (await late.connect())["seq"]
        await late.close()
        assert before <= seq <= committed_seq(api, table.tid)
        check_log(api.export(table.tid), table.acks())
        await table.close()
    finally:
        for srv in workers.values():
            srv.stop()
    assert not problems, "\n".join(problems)
