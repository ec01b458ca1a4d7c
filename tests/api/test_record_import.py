"""Records as files (issue 14, point 6): the schema of ``dragontable-record/1`` against real
exports, and ``POST /api/records/replay`` watching a record as a replay, with each refusal.

The records are real: a Dorasure and a Dorn game played to the end by random legal actions and
committed to a server's log as the server would, exported by ``GET /api/tables/{id}/export``;
and the same games while still live (redacted for a spectator and for a seat).
"""

from __future__ import annotations

import copy
import json
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from backend.app import create_app
from backend.config import Settings
from backend.engine.playout import play_random
from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.engine.rng import Rng, commitment, seed_from_int
from backend.lobby import imports
from backend.lobby.limits import MAX_BODY_BYTES
from backend.lobby.schemas import RecordAction, RecordOut
from backend.play.record import build_record, start_state
from backend.store.migrate import upgrade
from tests.play.helpers import commit_actions

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
# Short games (Dorn seed 5: 414 actions), so the module stays quick.
SEEDS = {"dorasure": 3, "dorn": 5}
LIVE_AT = 12  # actions committed to the live copy of each game


def _player(client: TestClient, name: str) -> dict[str, str]:
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    return {"Authorization": f"Bearer {reply.json()['player_token']}"}


def _played_table(client: TestClient, name: str, headers: dict[str, str], upto: int | None) -> str:
    """A table of ``name`` whose log holds the seeded random game (its first ``upto`` actions)."""
    game, seed_number = get_game(name), SEEDS[name]
    played = play_random(game, seed_number, game.sim_options(Rng(seed_from_int(seed_number)), 3, {}))
    reply = client.post("/api/tables", json={"game": name, "options": played.options}, headers=headers)
    assert reply.status_code == 201, reply.text
    table = reply.json()
    for seat in table["seats"]:
        assert (
            client.post(
                f"/api/tables/{table['id']}/join", json={"seat": seat["seat"]}, headers=headers
            ).status_code
            == 200
        )
    repo = client.app.state.repo
    seed = seed_from_int(seed_number)
    state = game.initial_state(seed, played.options)
    repo.start_table(
        table["id"], seed_hex=seed.hex(), commitment=commitment(seed), initial_hash=state_hash(game, state)
    )
    commit_actions(game, repo, table["id"], 1, played.actions[:upto], state)
    return str(table["id"])


class Records:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.host = _player(client, "Host")
        self.finished_ids = {name: _played_table(client, name, self.host, None) for name in SEEDS}
        self.live_ids = {name: _played_table(client, name, self.host, LIVE_AT) for name in SEEDS}

    def export(self, table_id: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
        reply = self.client.get(f"/api/tables/{table_id}/export", headers=headers or {})
        assert reply.status_code == 200, reply.text
        return dict(reply.json())

    def finished(self, name: str) -> dict[str, Any]:
        return self.export(self.finished_ids[name])


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Records]:
    url = f"sqlite:///{tmp_path_factory.mktemp('records') / 'api.db'}"
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url))) as client:
        yield Records(client)


def post(
    records: Records, body: Any, *, raw: bytes | None = None, content_type: str = "application/json"
) -> Any:
    content = raw if raw is not None else json.dumps(body).encode()
    return records.client.post("/api/records/replay", content=content, headers={"Content-Type": content_type})


def refused(reply: Any, code: str, *words: str, status: int = 422) -> str:
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["code"] == code, body
    for word in words:
        assert word in body["message"], body
    return str(body["message"])


# --- the schema ------------------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema_and_the_server_reads_this_very_file() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert imports.SCHEMA_PATH.read_bytes() == (ROOT / "docs" / "record.schema.json").read_bytes()


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_real_exports_of_each_game_follow_the_schema(records: Records, name: str) -> None:
    finished = records.finished(name)
    assert finished["complete"] is True and len(finished["actions"]) > LIVE_AT
    live_table = records.live_ids[name]
    spectator = records.export(live_table)
    seat_holder = records.export(live_table, records.host)  # the host holds every seat
    assert (
        spectator["complete"] is False and spectator["seed"] is None and len(spectator["actions"]) == LIVE_AT
    )
    for record in (finished, spectator, seat_holder):
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(record)]
        assert errors == [], errors


def test_an_open_table_s_record_follows_the_schema(records: Records) -> None:
    reply = records.client.post(
        "/api/tables",
        json={"game": "dorasure", "options": {"heroes": ["ninja", "hunter"]}},
        headers=records.host,
    )
    assert reply.status_code == 201, reply.text
    record = records.export(reply.json()["id"])
    assert record["status"] == "open" and record["commitment"] is None
    assert list(VALIDATOR.iter_errors(record)) == []


def test_the_schema_and_the_exporter_name_the_same_fields(records: Records) -> None:
    """Every field the exporter writes is in the schema and the other way round (only a fork's
    two fields are optional); a field added on one side fails here, and by the schema's
    ``additionalProperties: false`` a record that carries it fails to validate."""
    table_id = records.finished_ids["dorn"]
    repo = records.client.app.state.repo
    table = repo.get_table(table_id, with_seed=True)
    built = build_record(get_game("dorn"), table, repo.all_actions(table_id))
    fork_only = {"origin", "origin_state"}
    properties, required = set(SCHEMA["properties"]), set(SCHEMA["required"])
    assert required == set(built) - fork_only
    assert set(built) <= properties and properties - required == fork_only
    assert set(RecordOut.model_fields) - fork_only == required
    action_schema = SCHEMA["$defs"]["action"]
    assert set(action_schema["required"]) == set(action_schema["properties"]) == set(built["actions"][0])
    assert set(RecordAction.model_fields) == set(action_schema["properties"])

    exported = records.finished("dorn")
    grown = {**exported, "rated": True}
    assert [e.validator for e in VALIDATOR.iter_errors(grown)] == ["additionalProperties"]
    grown_action = copy.deepcopy(exported)
    grown_action["actions"][0]["thinking_ms"] = 1200
    assert [list(e.absolute_path) for e in VALIDATOR.iter_errors(grown_action)] == [["actions", 0]]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda r: r.update(seed=r["seed"].upper()), "seed"),  # hashes and seeds are lowercase hex
        (lambda r: r["actions"][1].update(hash=None), "actions[1].hash: null is not of type 'string'"),
        (lambda r: r.update(status="live"), "status"),  # complete is finished
        (lambda r: r["actions"][0].update(seq=0), "actions[0].seq"),
        (lambda r: r["actions"][0].pop("auto"), "actions[0]"),
        (lambda r: r["outcome"].pop("winners"), "outcome"),
        (
            lambda r: r.update(origin={"table": "abc", "seq": 3, "hash": "0" * 64}),
            "origin_state",
        ),  # a fork's state
        (
            lambda r: r.update(origin={"table": "abc", "seq": -1, "hash": "0" * 64}, origin_state="{}"),
            "origin.seq",
        ),
        (lambda r: r.update(origin_state="{}"), "origin_state"),  # a state without its origin
    ],
)
def test_the_schema_refuses_what_the_exporter_never_writes(records: Records, change: Any, where: str) -> None:
    record = records.finished("dorasure")
    change(record)
    assert list(VALIDATOR.iter_errors(record)), "the schema let it through"
    refused(post(records, record), "schema_violation", f"schema: {where}")


# --- importing a record ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_a_finished_record_replays_as_the_server_s_own_replay(records: Records, name: str) -> None:
    record = records.finished(name)
    table_id = records.finished_ids[name]
    body = json.dumps(record).encode()
    if name == "dorn":
        assert len(body) > MAX_BODY_BYTES  # past the lobby's bound, which this route raises
    listed = records.client.get("/api/tables", params={"status": "finished"}).json()

    reply = post(records, record)
    assert reply.status_code == 200, reply.text
    imported = reply.json()
    own = records.client.get(f"/api/tables/{table_id}/replay").json()
    assert imported["frames"] == own["frames"] and imported["static"] == own["static"]
    assert len(imported["frames"]) == len(record["actions"]) + 1
    assert imported["verified"].startswith(f"OK: {name} table {table_id}")
    table = imported["table"]
    assert set(table) - {"imported"} == set(own["table"])  # a table's keys, as the replay page reads them
    assert (
        table["imported"] is True and table["status"] == "finished" and table["outcome"] == record["outcome"]
    )
    assert [(s["seat"], s["label"]) for s in table["seats"]] == [
        (s["seat"], s["label"]) for s in own["table"]["seats"]
    ]
    assert table["host"] is None and table["created_at"] is None  # a record does not say who, or when
    # Nothing was stored: no table appeared.
    assert records.client.get("/api/tables", params={"status": "finished"}).json() == listed


def test_a_record_sent_as_a_file_s_text_with_spacing_replays(records: Records) -> None:
    text = json.dumps(records.finished("dorasure"), indent=2)
    assert post(records, None, raw=text.encode()).status_code == 200


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_a_live_record_is_no_replay_and_says_why(records: Records, name: str) -> None:
    for headers in (None, records.host):
        live = records.export(records.live_ids[name], headers)
        message = refused(
            post(records, live), "not_finished", "not over", "no seed", "cannot be watched as a replay"
        )
        assert "'live'" in message
        # The schema holds the redaction: a live record with a seed or a hash is none the server wrote.
        for leak in ({"seed": "0" * 64}, {"initial_hash": "0" * 64}):
            refused(post(records, _changed(live, **leak)), "schema_violation", f"{next(iter(leak))}: '000")
        hashed = copy.deepcopy(live)
        hashed["actions"][0]["hash"] = "0" * 64
        refused(post(records, hashed), "schema_violation", "actions[0].hash")


def test_what_is_not_json_or_not_a_record_is_told_so(records: Records) -> None:
    refused(post(records, None, raw=b'{"format": "dragontable-record/1",'), "not_json", "not JSON", "line 1")
    refused(post(records, None, raw=b"\xff\xfe{}"), "not_json", "not text")
    refused(post(records, None, raw=b"{}", content_type="text/plain"), "not_json", "application/json")
    refused(post(records, [1, 2]), "not_a_record", "not a Dragontable record")
    refused(post(records, {"game": "dorn"}), "not_a_record", 'no "format"')
    refused(post(records, {"format": "pgn/1"}), "not_a_record", "'pgn/1'", "dragontable-record/1")


def test_sizes_are_bounded(records: Records) -> None:
    record = records.finished("dorasure")
    record["actions"] = record["actions"] * (imports.MAX_RECORD_ACTIONS // len(record["actions"]) + 1)
    refused(post(records, record), "too_many_actions", f"at most {imports.MAX_RECORD_ACTIONS}")
    huge = b'{"format": "dragontable-record/1", "pad": "' + b"x" * imports.MAX_RECORD_BYTES + b'"}'
    refused(post(records, None, raw=huge), "too_large", "at most 8 MiB", status=413)
    # The lobby's own routes keep their 64 KiB.
    reply = records.client.post("/api/players", content=b'{"name": "' + b"x" * MAX_BODY_BYTES + b'"}',
                                headers={"Content-Type": "application/json"})  # fmt: skip
    refused(reply, "too_large", "64 KiB", status=413)


def _changed(record: dict[str, Any], **top: Any) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out.update(top)
    return out


def test_unknown_games_other_rules_versions_and_odd_setups_are_refused(records: Records) -> None:
    record = records.finished("dorasure")
    refused(post(records, _changed(record, game="chess")), "unknown_game", "'chess'", "dorasure, dorn")
    refused(post(records, _changed(record, rules_version=record["rules_version"] + 1)), "rules_version_differs",
            f"version {record['rules_version'] + 1}")  # fmt: skip
    refused(
        post(records, _changed(record, options={**record["options"], "speed": 3})),
        "invalid_options",
        "'speed'",
    )
    refused(post(records, _changed(record, seats=list(reversed(record["seats"])))), "seats_differ")


def test_a_seed_that_is_not_the_commitment_s_is_refused(records: Records) -> None:
    record = records.finished("dorn")
    other = seed_from_int(SEEDS["dorn"] + 1).hex()
    refused(post(records, _changed(record, seed=other)), "commitment_mismatch", "commitment")
    refused(post(records, _changed(record, initial_hash="ab" * 32)), "setup_mismatch", "initial_hash")


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_a_tampered_hash_is_refused_at_its_step(records: Records, name: str) -> None:
    record = records.finished(name)
    record["actions"][6]["hash"] = record["actions"][5]["hash"]
    refused(post(records, record), "hash_mismatch", "Step 7 does not verify", "action 7")


def test_an_action_that_was_not_taken_is_refused_at_its_step(records: Records) -> None:
    record = records.finished("dorasure")
    record["actions"][4]["action"] = {"type": "fly", "to": "moon"}
    refused(post(records, record), "illegal_action", "Step 5")
    record = records.finished("dorasure")
    seats = record["seats"]
    first = record["actions"][0]
    first["seat"] = seats[(seats.index(first["seat"]) + 1) % len(seats)]  # not that seat's turn
    refused(post(records, record), "illegal_action", "Step 1")


def test_actions_out_of_order_are_refused(records: Records) -> None:
    record = records.finished("dorasure")
    del record["actions"][3]
    refused(post(records, record), "not_consecutive", "jumps from 3 to 5")


def test_a_changed_outcome_or_final_hash_does_not_verify(records: Records) -> None:
    record = records.finished("dorn")
    outcome = {**record["outcome"], "reason": "Everyone won, really."}
    refused(post(records, _changed(record, outcome=outcome)), "does_not_verify", "outcome")
    refused(post(records, _changed(record, final_hash="cd" * 32)), "does_not_verify", "final state hash")


def _finished_fork(records: Records, step: int) -> dict[str, Any]:
    """The record of a fork of the finished Dorasure table at ``step``, played to its end."""
    client, game = records.client, get_game("dorasure")
    reply = client.post(
        f"/api/tables/{records.finished_ids['dorasure']}/fork", json={"seq": step}, headers=records.host
    )
    assert reply.status_code == 201, reply.text
    fork_id = reply.json()["id"]
    for seat in reply.json()["seats"]:
        assert (
            client.post(
                f"/api/tables/{fork_id}/join", json={"seat": seat["seat"]}, headers=records.host
            ).status_code
            == 200
        )
    assert client.post(f"/api/tables/{fork_id}/start", headers=records.host).status_code == 200
    repo = client.app.state.repo
    table = repo.get_table(fork_id, with_seed=True)
    start = state = start_state(
        game, bytes.fromhex(table.seed_hex), table.options, table.origin, table.origin_state
    )
    pick, actions = random.Random(step), []
    while game.outcome(state) is None and len(actions) < 2000:
        seat = sorted(game.to_act(state))[0]
        action = pick.choice(game.legal_actions(state, seat))
        actions.append((seat, action))
        state = game.apply(state, seat, action).state
    commit_actions(game, repo, fork_id, 1, actions, start)
    return records.export(fork_id)


def test_a_fork_s_record_replays_from_the_step_it_was_forked_at(records: Records) -> None:
    record = _finished_fork(records, 6)
    assert record["complete"] is True and record["origin"]["seq"] == 6
    assert list(VALIDATOR.iter_errors(record)) == []
    reply = post(records, record)
    assert reply.status_code == 200, reply.text
    imported = reply.json()
    assert f"a fork of table {records.finished_ids['dorasure']} at step 6" in imported["verified"]
    assert imported["table"]["origin"] == record["origin"]
    assert imported["frames"][0]["events"][0]["kind"] == "forked"
    own = records.client.get(f"/api/tables/{record['table_id']}/replay").json()
    assert imported["frames"] == own["frames"]

    # The origin state must be the one its hash names.
    state = json.loads(record["origin_state"])
    tampered = _changed(record, origin_state=json.dumps(state, sort_keys=True, indent=1))
    refused(post(records, tampered), "fork_mismatch", "origin state")


def test_a_worker_checks_two_records_at_a_time(records: Records, monkeypatch: pytest.MonkeyPatch) -> None:
    """More uploads than CHECKS_AT_ONCE wait their turn (each check is seconds of CPU)."""
    running, most, lock = 0, 0, threading.Lock()
    real = imports.replay_of_record

    def slow_check(body: bytes) -> dict[str, Any]:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.3)
        with lock:
            running -= 1
        return real(body)

    monkeypatch.setattr(imports, "replay_of_record", slow_check)
    record = records.finished("dorasure")
    with ThreadPoolExecutor(5) as pool:
        replies = list(pool.map(lambda _: post(records, record), range(5)))
    assert [r.status_code for r in replies] == [200] * 5
    assert most == imports.CHECKS_AT_ONCE


def test_every_refusal_is_listed_and_tested() -> None:
    """CHECKS (documented in docs/protocol.md) names exactly the codes this module refuses with."""
    source = Path(__file__).read_text(encoding="utf-8")
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for code in imports.CHECKS:
        assert f'"{code}"' in source, f"no test sends a record refused with {code}"
        assert f"`{code}`" in protocol, f"docs/protocol.md does not list {code}"
