"""Request bodies are bounded before FastAPI parses them.

A REST body is at most ``MAX_BODY_BYTES`` (the largest real one, a Dorn table with a title, is
under 1 KiB) and nests at most ``MAX_DEPTH`` levels (a table's options nest four).  Without
these, a 5000-deep ``options`` was a 400 from deep inside the JSON parser, a body of any size
was read into memory, and a number of 5000 digits reached the parser's own limit.  Every
refusal here is a ``{code, message}``: 413 ``too_large``, or 422 ``invalid_request``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from .errors import ApiError

MAX_BODY_BYTES = 64 * 1024
MAX_DEPTH = 16


class BoundedRequest(Request):
    """A request whose body is read at most ``limit`` bytes far (FastAPI's documented way
    to change how a body is read: a Request subclass that fills ``_body``)."""

    limit = MAX_BODY_BYTES

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            declared = self.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self.limit:
                raise _too_large(self.limit)
            chunks: list[bytes] = []
            size = 0
            async for chunk in self.stream():
                size += len(chunk)
                if size > self.limit:
                    raise _too_large(self.limit)
                chunks.append(chunk)
            self._body = b"".join(chunks)
        return self._body


class BoundedRoute(APIRoute):
    """Reads and checks the body before FastAPI's handler sees it, so a refusal here is an
    ApiError (FastAPI turns anything raised while *it* parses into a bare 400).  A route that
    takes a larger body (an imported game record, lobby/imports.py) subclasses it with its own
    ``max_body_bytes``."""

    max_body_bytes = MAX_BODY_BYTES

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def bounded(request: Request) -> Response:
            request = read = BoundedRequest(request.scope, request.receive)
            read.limit = self.max_body_bytes
            if request.method in ("POST", "PUT", "PATCH"):
                body = await request.body()
                if body and is_json(request.headers.get("content-type")):
                    _check_json(body)
            return await handler(request)

        return bounded


def _too_large(limit: int) -> ApiError:
    size = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"
    return ApiError(413, "too_large", f"That request is too large (at most {size}).")


def is_json(content_type: str | None) -> bool:
    # FastAPI parses a body as JSON when it says so, or says nothing.
    if not content_type:
        return True
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check_json(body: bytes) -> None:
    try:
        # NaN and Infinity are not JSON, though Python's parser would take them.
        value = json.loads(body, parse_constant=_refuse_constant)
    except json.JSONDecodeError:
        return  # FastAPI answers a syntax error itself: 422 invalid_request, saying where.
    except RecursionError:
        raise ApiError(422, "invalid_request", "The request nests too deeply.") from None
    except ValueError:
        raise ApiError(
            422, "invalid_request", "The request holds a number this server cannot take (NaN, Infinity, or too many digits)."
        ) from None
    if depth(value) > MAX_DEPTH:
        raise ApiError(422, "invalid_request", f"The request nests more than {MAX_DEPTH} levels deep.")


def depth(value: Any) -> int:
    """How deeply ``value`` nests (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest
