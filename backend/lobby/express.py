"""The lobby's busiest routes, answered ahead of FastAPI's router: the plain case only.

Every table's life takes a create, a join per seat and a start. Through FastAPI a join cost
≈ 1.4–1.6 ms of server CPU on the benchmark machine, three quarters of it the framework (the
middleware, the router's match over every route, the dependencies solved per request, the
response validated again before it is dumped), and a table's create, joins and start were more
than half of its churn (bench/README.md, issue 15 point 2, sixth session).

This lane calls the very same endpoint functions (lobby/routes.py) with what FastAPI would have
given them, and answers as FastAPI would: the same JSON, status and headers
(tests/api/test_express.py compares them byte for byte). It takes a request only when it is
plainly well formed: a declared length within the bound, a JSON body that parses strictly,
nests within bounds and makes its model. Anything else (a body too large or chunked, bad JSON,
a number JSON has no spelling for, a model that refuses it) goes on to FastAPI with its body
untouched, so every refusal of a malformed request is FastAPI's own, and OpenAPI still
describes these routes from their declarations. A refusal the endpoint itself makes (an
``ApiError``: a bad token, a seat taken) is rendered as the app's handler renders it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from . import routes
from .errors import ApiError, error_response
from .limits import MAX_BODY_BYTES, MAX_DEPTH, depth, is_json
from .schemas import SeatIn, TableIn

log = logging.getLogger("dragontable.api")

Endpoint = Callable[[Any, str, BaseModel | None, str | None], Awaitable[BaseModel]]
# A lane's route: the body's model (None: no body), the endpoint's call, the status on
# success, and the table id the path names ("" for none).
Route = tuple[type[BaseModel] | None, Endpoint, int, str]


async def _create(app: Any, _id: str, body: BaseModel | None, authorization: str | None) -> BaseModel:
    state = app.state
    player = await routes.player_of(state.repo, authorization)
    assert isinstance(body, TableIn)
    return await routes.create_table(body, player, state.repo, state.tables, state.settings)


async def _join(app: Any, table_id: str, body: BaseModel | None, authorization: str | None) -> BaseModel:
    state = app.state
    player = await routes.player_of(state.repo, authorization)
    assert isinstance(body, SeatIn)
    return await routes.join(table_id, body, player, state.repo, state.tables)


async def _start(app: Any, table_id: str, _body: BaseModel | None, authorization: str | None) -> BaseModel:
    state = app.state
    player = await routes.player_of(state.repo, authorization)
    return await routes.start(table_id, player, state.repo, state.tables)


async def _get(app: Any, table_id: str, _body: BaseModel | None, _authorization: str | None) -> BaseModel:
    return await routes.get_table(table_id, app.state.repo, app.state.tables)


def _lanes() -> list[tuple[str, re.Pattern[str], type[BaseModel] | None, Endpoint, int]]:
    """(method, path pattern, body model, call, status) of each lane, the method, path and
    status read from the route's own FastAPI declaration, so the two cannot drift apart."""
    calls: dict[Callable[..., Any], tuple[type[BaseModel] | None, Endpoint]] = {
        routes.create_table: (TableIn, _create),
        routes.join: (SeatIn, _join),
        routes.start: (None, _start),
        routes.get_table: (None, _get),
    }
    out = []
    for route in routes.router.routes:
        if isinstance(route, APIRoute) and route.endpoint in calls:
            model, call = calls.pop(route.endpoint)
            for method in route.methods or ():  # one each, as lobby/routes.py declares them
                out.append((method, route.path_regex, model, call, route.status_code or 200))
    assert not calls, f"no route declared for {list(calls)}"
    return out


_ROUTES = _lanes()


def route_of(scope: Scope) -> Route | None:
    """The lane's route for this HTTP request, or None (FastAPI's)."""
    method, path = scope["method"], scope["path"]
    for want, pattern, model, endpoint, status in _ROUTES:
        if method == want and (match := pattern.match(path)):
            return model, endpoint, status, match.groupdict().get("table_id", "")
    return None


async def serve(
    app: Any, scope: Scope, receive: Receive, send: Send,
    route: Route,
    fallback: Callable[[Scope, Receive, Send], Awaitable[None]],
) -> None:  # fmt: skip
    model, endpoint, status, table_id = route
    headers = Headers(scope=scope)
    body: BaseModel | None = None
    if scope["method"] == "POST":
        raw = await _read_body(headers.get("content-length"), receive)
        if raw is None:  # no declared length, or past the bound: FastAPI reads and refuses it
            await fallback(scope, receive, send)
            return
        # Every POST's body is checked as lobby/limits.py's BoundedRoute checks it, whether
        # the route reads it or not.
        parsed = _json(raw, headers.get("content-type"))
        body = _model(model, parsed) if model is not None else None
        if parsed is _REFUSED or (model is not None and body is None):
            await fallback(scope, _replay(raw, receive), send)
            return
    try:
        answer = await endpoint(app, table_id, body, headers.get("authorization"))
        response = Response(answer.model_dump_json(by_alias=True), status, media_type="application/json")
    except ApiError as exc:
        response = error_response(exc.code, exc.message, exc.status)
    except Exception:
        log.exception("unhandled error")
        response = error_response("internal", "Something went wrong on the server.", 500)
    await response(scope, receive, send)


async def _read_body(declared: str | None, receive: Receive) -> bytes | None:
    if declared is None or not declared.isdigit() or int(declared) > MAX_BODY_BYTES:
        return None
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None  # the client went: FastAPI's path hears the same
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


_REFUSED = object()


def _json(raw: bytes, content_type: str | None) -> Any:
    """The body's JSON value (None for a body that is not JSON, or empty), or ``_REFUSED``
    when it is not plainly well formed. orjson refuses NaN, Infinity, integers past 64 bits
    and lone surrogates, some of which the stdlib parser FastAPI uses takes: those go on to
    FastAPI, and lobby/limits.py answers for them."""
    if not raw or not is_json(content_type):
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _REFUSED
    return value if depth(value) <= MAX_DEPTH else _REFUSED


def _model(model: type[BaseModel], value: Any) -> BaseModel | None:
    """``value`` as ``model`` as FastAPI validates a body (Python mode, lax), or None."""
    if not isinstance(value, dict):
        return None
    try:
        return model.model_validate(value)
    except ValidationError:
        return None


def _replay(raw: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read handed out again first."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}
        return await receive()

    return replay
