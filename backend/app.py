"""``create_app(settings)``: REST, the table WebSocket and the static frontend."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.types import Receive, Scope, Send

from backend.config import Settings
from backend.engine import registry
from backend.lobby import errors, express
from backend.lobby.forks import router as forks_router
from backend.lobby.imports import router as imports_router
from backend.lobby.routes import router as lobby_router
from backend.play.bus import make_bus
from backend.play.metrics import GcPauses, Metrics
from backend.play.tables import Tables
from backend.play.ws import TABLE_PATH, table_socket
from backend.store.checkpoint import Checkpoints
from backend.store.db import make_engine, make_sessionmaker, sqlite_file
from backend.store.repository import Repository
from backend.store.writer import CommitWriter

log = logging.getLogger("dragontable")

# The browser routes that are pages of the single-page client.
SPA_PREFIXES = ("table/", "replay/", "record")

FALLBACK_PAGE = """<!doctype html><meta charset="utf-8"><title>Dragontable</title>
<h1>Dragontable</h1><p>The server is running, but the browser client (frontend/index.html)
is not there. The API is described at <a href="/docs">/docs</a>.</p>"""


class DragontableApp(FastAPI):
    """FastAPI, with the table WebSocket (``play/ws.py``) served ahead of the router and its
    middleware: held for hours by every player and spectator, a socket through the router also
    held its routing, dependency and exception-middleware frames, about 12 KiB each (tracemalloc,
    issue 15 point 4; bench/README.md "Capacity"). Any other socket path goes to the router,
    which refuses it.

    The lobby's busiest routes are answered ahead of it too, in their plain case
    (``lobby/express.py``): the framework was three quarters of a join's CPU."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" and (route := express.route_of(scope)) is not None:
            await express.serve(self, scope, receive, send, route, super().__call__)
            return
        if kind == "websocket" and (match := TABLE_PATH.fullmatch(scope["path"])):
            scope["app"] = self  # what Starlette sets: the handler reads app.state through it
            await table_socket(WebSocket(scope, receive, send), match.group(1))
            return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    registry.register_spec(settings.extra_games)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # A SQLite file's checkpoints run in a thread of their own (store/checkpoint.py).
        own_checkpoints = sqlite_file(settings.database_url) is not None
        engine = make_engine(settings.database_url, autocheckpoint=not own_checkpoints)
        repo = Repository(make_sessionmaker(engine))
        metrics = Metrics()
        gc_pauses = GcPauses(metrics)
        gc_pauses.install()
        checkpoints = Checkpoints(engine, on_checkpoint=metrics.checkpoint_pages.observe) if own_checkpoints else None

        def on_batch(actions: int) -> None:
            if actions:  # (none when the batch held lobby writes only)
                metrics.batch_size.observe(actions)
            if checkpoints is not None:
                checkpoints.wrote()

        mode = settings.commit_writer
        inline = mode == "loop" or (mode == "auto" and engine.dialect.name == "sqlite")
        writer = CommitWriter(repo, on_batch=on_batch, inline=inline, interval=settings.commit_interval_ms / 1000)
        writer.start()
        if checkpoints is not None:
            checkpoints.start()
        tables = Tables(settings, repo, writer, make_bus(settings.redis_url), metrics)
        await tables.start()
        app.state.metrics = metrics
        log.info("worker %s started", tables.worker_id, extra={"worker": tables.worker_id})
        app.state.repo, app.state.writer, app.state.tables = repo, writer, tables
        sweeper = asyncio.create_task(_sweep_open_tables(repo, settings.open_table_ttl_seconds))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await tables.stop()
            writer.stop()
            if checkpoints is not None:
                checkpoints.stop()
            engine.dispose()
            gc_pauses.remove()
            log.info("worker %s stopped", tables.worker_id, extra={"worker": tables.worker_id})

    app = DragontableApp(title="Dragontable", version="1", lifespan=lifespan)
    app.state.settings = settings
    errors.install(app)
    _mount_metrics(app, settings)
    app.include_router(lobby_router)
    app.include_router(imports_router)
    app.include_router(forks_router)
    _mount_frontend(app, settings.frontend_dir)
    return app


LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _mount_metrics(app: FastAPI, settings: Settings) -> None:
    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus text format.  With ``DRAGONTABLE_METRICS_TOKEN`` set, for whoever sends
        it as a Bearer token; without, for loopback clients only (a scraper beside the worker)."""
        if settings.metrics_token:
            scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(token.encode(), settings.metrics_token.encode()):
                return JSONResponse({"code": "unauthorized", "message": "Send the metrics token."}, status_code=401)
        elif request.client is None or request.client.host not in LOOPBACK:
            return JSONResponse(
                {"code": "forbidden", "message": "Metrics answer loopback clients, or set a metrics token."},
                status_code=403,
            )
        return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)


async def _sweep_open_tables(repo: Repository, ttl: float) -> None:
    """Drop open tables nobody joined once they are ``ttl`` seconds old (the listing already
    hides every open table past that age), every few minutes for the server's life."""
    while True:
        try:
            cutoff = datetime.now(UTC) - timedelta(seconds=ttl)
            dropped = await asyncio.to_thread(repo.delete_unjoined_open_tables, cutoff)
            if dropped:
                log.info("dropped %d open tables nobody joined", dropped)
        except Exception:  # the database may be away for a while: try at the next round
            log.exception("the sweep of open tables failed")
        await asyncio.sleep(min(600.0, max(1.0, ttl / 4)))


def _mount_frontend(app: FastAPI, folder: Path) -> None:
    root = folder.resolve()

    @app.get("/{path:path}", include_in_schema=False)
    async def frontend(path: str) -> Response:
        if path.startswith(("api/", "ws/")) or path == "api":
            return JSONResponse({"code": "not_found", "message": "No such API route."}, status_code=404)
        index = root / "index.html"
        if path:
            candidate = (root / path).resolve()
            if candidate.is_relative_to(root) and candidate.is_file():
                # ES modules refuse to run unless served with a JavaScript type.
                media = "text/javascript" if candidate.suffix in (".js", ".mjs") else None
                return FileResponse(candidate, media_type=media)
        if not path or path.startswith(SPA_PREFIXES):
            return FileResponse(index) if index.is_file() else HTMLResponse(FALLBACK_PAGE)
        return JSONResponse({"code": "not_found", "message": "Nothing here."}, status_code=404)
