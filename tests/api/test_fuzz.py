"""The REST API fuzzed from its own OpenAPI schema (schemathesis), on SQLite and PostgreSQL.

A real server (``python -m backend serve`` on loopback, as in production) gets schema-driven
requests for every operation, valid and invalid ones alike: no answer may be a 5xx, and every
answer must have a documented status, content type and body shape.  Most requests carry a
valid player token and name real tables (open, live and finished), real games and real seats,
so the authenticated paths and the option checks are reached, not only the 401s and 404s.

Bounded: ``EXAMPLES`` per operation, derandomized (the same requests on every run, so a
failure reproduces), no example database written: about 1,000 requests and 25 s per database.
What it found when it was added (issue 9): ``created_at`` without a time zone on SQLite (not
RFC 3339), and on PostgreSQL the 500 for a NUL in a player name; the NUL in a title and in a
table id of a path (also 500s) were found by hand beside it and are in test_input_text.py.
"""

from __future__ import annotations

import asyncio
import random
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table

EXAMPLES = 100
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
GAMES = ["toy", "dorasure", "dorn"]


@dataclass
class Target:
    server: ServerProcess
    token: str
    tables: list[str]  # open toy, open Dorn, open Dorasure, live toy, finished toy


async def _finish_a_toy_game(server: ServerProcess, api: Api) -> str:
    tid, tokens = start_table(api, "toy", {"players": 2, "target": 3})
    seats = {seat: WsClient(server.ws_url(tid), token) for seat, token in tokens.items()}
    for client in seats.values():
        await client.connect()
    try:
        await play_random(seats, [], random.Random(1))
        for client in seats.values():
            if client.finished is None:
                await client.expect("finished")
    finally:
        for client in seats.values():
            await client.close()
    return tid


@pytest.fixture
def target(database_url: str) -> Iterator[Target]:
    with ServerProcess(database_url) as server:
        api = Api(server.base_url, "Fuzzer")
        tables = [
            api.create_table("toy")["id"],
            api.create_table("dorn")["id"],
            api.create_table("dorasure", {"heroes": ["ninja", "hunter"]})["id"],
            start_table(api, "toy", {"players": 2})[0],
            asyncio.run(_finish_a_toy_game(server, api)),
        ]
        yield Target(server, api.token, tables)


@pytest.fixture
def api_schema(target: Target) -> Any:
    return schemathesis.openapi.from_url(target.server.base_url + "/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


def _pick(value: Any, choices: list[str], keep_one_in: int = 4) -> Any:
    """A real value for most generated ones (chosen by the generated value itself, so a run is
    reproducible); one in ``keep_one_in`` stays as generated."""
    h = zlib.crc32(repr(value).encode("utf-8", "surrogatepass"))
    return value if h % keep_one_in == 0 else choices[(h // keep_one_in) % len(choices)]


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
def test_every_answer_follows_the_schema(case: Any, target: Target) -> None:
    if case.meta is None or not case.meta.generation.mode.is_negative:
        _aim(case, target)
    case.call_and_validate(checks=CHECKS)


def _aim(case: Any, target: Target) -> None:
    """Point a valid request at real tables, games, seats and a valid token; invalid requests
    are sent as generated, since each must be refused for what makes it invalid."""
    if case.path_parameters and "table_id" in case.path_parameters:
        case.path_parameters["table_id"] = _pick(case.path_parameters["table_id"], target.tables)
    if isinstance(case.body, dict):
        if isinstance(case.body.get("game"), str):
            case.body["game"] = _pick(case.body["game"], GAMES)
        if isinstance(case.body.get("seat"), str):
            case.body["seat"] = _pick(case.body["seat"], ["p1", "p2", "keeper", "heroes_1", "ninja"])
    if any(p.name.lower() == "authorization" for p in case.operation.headers):
        headers = dict(case.headers or {})
        headers["authorization"] = _pick(headers.get("authorization"), [f"Bearer {target.token}"])
        case.headers = headers
