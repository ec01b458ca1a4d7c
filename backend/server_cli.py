"""``python -m backend serve | migrate | verify``."""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import os
import secrets
import subprocess
import sys
import threading
import time
import webbrowser
from pathlib import Path

from pydantic import ValidationError

from backend import logs
from backend.config import Settings


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the game server (applies migrations first)")
    p.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default 8000)")
    p.add_argument("--database-url", default=None, help="default: SQLite file ./var/dragontable.db")
    p.add_argument("--redis-url", default=None, help="Redis for fan-out between workers (default: none)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--log-level", default="info")
    p.add_argument("--check", action="store_true", help="print the effective settings and exit")
    p.add_argument(
        "--bots",
        type=int,
        default=None,
        metavar="N",
        help="bot runner processes to start beside the server (default 1; 0: none)",
    )
    p.set_defaults(func=run_serve)

    m = sub.add_parser("migrate", help="apply (or undo) database migrations")
    m.add_argument("--database-url", default=None)
    m.add_argument("--downgrade", metavar="REVISION", default=None, help='e.g. "base" to remove every table')
    m.set_defaults(func=run_migrate)

    v = sub.add_parser("verify", help="replay an exported game record and check its dice")
    v.add_argument("record", type=Path, help="RECORD.json from GET /api/tables/{id}/export")
    v.set_defaults(func=run_verify)


def _settings(args: argparse.Namespace) -> Settings:
    overrides = {
        key: value
        for key, value in {
            "host": getattr(args, "host", None),
            "port": getattr(args, "port", None),
            "database_url": getattr(args, "database_url", None),
            "redis_url": getattr(args, "redis_url", None),
            "bot_runners": getattr(args, "bots", None),
        }.items()
        if value is not None
    }
    return Settings(**overrides)


def _has_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_serve(args: argparse.Namespace, extra: list[str]) -> int:
    import uvicorn

    from backend.app import create_app
    from backend.play.wsserver import ws_protocol
    from backend.store.migrate import upgrade

    try:
        settings = _settings(args)
    except ValidationError as exc:
        reasons = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())
        print(f"Dragontable refuses to start: {reasons}", file=sys.stderr)
        return 2
    if args.check:
        print(json.dumps(settings.effective(), indent=2, sort_keys=True))
        return 0
    upgrade(settings.database_url)
    if settings.bot_runners and settings.bot_key is None:
        # The runners are this process's children: a key made now is theirs alone.
        settings = settings.model_copy(update={"bot_key": secrets.token_urlsafe(32)})
    app = create_app(settings)
    tune_gc()
    shown_host = "localhost" if settings.host in ("127.0.0.1", "0.0.0.0", "::") else settings.host
    url = f"http://{shown_host}:{settings.port}/"
    if not args.no_browser and _has_display():

        def open_browser() -> None:
            time.sleep(1.0)  # the server is listening by then
            webbrowser.open(url)

        threading.Thread(target=open_browser, daemon=True).start()
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        # Frames over the limit are closed by the protocol layer with 1009 (play/ws.py); uvicorn's
        # own limit, which drops the connection without a close frame, only stops the absurd.
        ws_max_size=4 * settings.max_frame_bytes,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        ws_per_message_deflate=settings.ws_compression,
        ws=ws_protocol(settings.ws_impl),
        proxy_headers=True,
        log_config=logs.configure(settings.log_format, args.log_level),
        # SIGTERM: stop accepting, close every WebSocket with 1012 (clients reconnect), let the
        # commits in flight finish, then the group writer drains; at most this long.
        timeout_graceful_shutdown=max(1, int(settings.shutdown_seconds)),
    )
    if settings.log_format == "json":  # uvicorn.Config has applied the logging setup
        logging.getLogger("dragontable").info("listening on %s", url, extra={"url": url})
    else:
        print(f"Dragontable is up: open {url}", flush=True)
    runners = BotRunners(settings)
    runners.start()
    try:
        uvicorn.Server(config).run()
    finally:
        runners.stop()
    return 0


class BotRunners:
    """The bot runner processes (backend/botplay/runner.py) of this server: started with it,
    started again if one dies, stopped with it.  Separate processes, because a strong bot's
    search holds a core for its whole budget and must never run on the server's event loop."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * settings.bot_runners
        self._stopping = threading.Event()

    def _command(self, shard: int) -> list[str]:
        host = self.settings.host
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"  # the runner is on this machine
        if ":" in host:
            host = f"[{host}]"
        server = f"http://{host}:{self.settings.port}"
        return [sys.executable, "-m", "backend", "bots", "--server", server,
                "--shard", f"{shard}/{len(self.procs)}", "--parent", str(os.getpid())]  # fmt: skip

    def _spawn(self, shard: int) -> None:
        env = {**os.environ, "DRAGONTABLE_BOT_KEY": self.settings.bot_key or ""}
        self.procs[shard] = subprocess.Popen(self._command(shard), env=env)

    def start(self) -> None:
        if not self.procs:
            return
        for shard in range(len(self.procs)):
            self._spawn(shard)
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while not self._stopping.wait(2.0):
            for shard, proc in enumerate(self.procs):
                if proc is not None and proc.poll() is not None and not self._stopping.is_set():
                    logging.getLogger("dragontable").warning("bot runner %s exited (%s); starting it again",
                                                             shard, proc.returncode)  # fmt: skip
                    self._spawn(shard)

    def stop(self) -> None:
        self._stopping.set()
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            if proc is not None:
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()


def tune_gc() -> None:
    """Keep the cyclic garbage collector off the hot path of a long-running server.

    With the default thresholds it ran every ~700 allocations and rescanned the
    whole heap (FastAPI, SQLAlchemy, every game's data) several times a minute:
    ≈ 0.14 ms of CPU per action under load, in pauses of up to ~0.2 s.  Objects
    alive at start are frozen out of its scans, and it runs less often (nearly
    all garbage is freed by reference counting anyway).
    """
    from backend.engine.registry import game_names, get_game

    for name in game_names():  # import every game now, not on a player's first request
        with contextlib.suppress(Exception):
            get_game(name)
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def run_migrate(args: argparse.Namespace, extra: list[str]) -> int:
    from backend.store.migrate import current, downgrade, upgrade

    settings = _settings(args)
    if args.downgrade:
        downgrade(settings.database_url, args.downgrade)
    else:
        upgrade(settings.database_url)
    print(f"database at revision {current(settings.database_url) or 'base (empty)'}")
    return 0


def run_verify(args: argparse.Namespace, extra: list[str]) -> int:
    from backend.engine.registry import register_spec
    from backend.play.record import VerifyFailed, verify_record

    register_spec(Settings().extra_games)
    try:
        record = json.loads(args.record.read_text())
    except (OSError, ValueError) as exc:
        print(f"FAILED: cannot read {args.record}: {exc}", file=sys.stderr)
        return 1
    from backend.lobby.imports import Refused, check_shape

    try:
        check_shape(record, max_actions=None)  # docs/record.schema.json, before any replay
        print(verify_record(record))
    except Refused as exc:
        print(f"FAILED: {exc.message}", file=sys.stderr)
        return 1
    except VerifyFailed as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    return 0
