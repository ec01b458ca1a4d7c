"""``python -m backend bot`` (one seat, like any client) and ``python -m backend bots`` (the runner).

``bot`` makes itself a player marked as a bot, joins the seat over REST and plays it over the
WebSocket until the game ends: the table may be open (it waits for the start) or live (a seat
someone left).  ``bots`` is what ``serve`` starts beside itself; it needs the server's
``DRAGONTABLE_BOT_KEY``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys

import httpx

from backend.bots import LEVELS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    b = sub.add_parser("bot", help="play one seat of a table with a bot, over the public protocol")
    b.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000")
    b.add_argument("--table", required=True, help="the table id")
    b.add_argument("--seat", required=True, help="the seat id (as GET /api/tables/{id} lists it)")
    b.add_argument("--level", choices=LEVELS, default="steady")
    b.add_argument("--name", default=None, help="the player name shown (default: '<Level> bot')")
    b.add_argument("--log-level", default="info")
    b.set_defaults(func=run_bot)

    r = sub.add_parser("bots", help="the bot runner: play every bot seat and takeover of a server")
    r.add_argument("--server", required=True)
    r.add_argument("--shard", default="0/1", help="i/n: play the tables of shard i of n runners")
    r.add_argument("--parent", type=int, default=None, help="stop when this process is gone")
    r.add_argument("--log-level", default="warning")
    r.set_defaults(func=run_runner)


def _logging(level: str) -> None:
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")


def join_seat(server: str, table_id: str, seat: str, level: str, name: str | None) -> str:
    """A bot player's seat token for ``seat`` (REST: a new player, then join)."""
    with httpx.Client(base_url=server, timeout=10) as http:
        reply = http.post("/api/players", json={"name": name or f"{level.title()} bot", "bot": level})
        reply.raise_for_status()
        headers = {"Authorization": f"Bearer {reply.json()['player_token']}"}
        joined = http.post(f"/api/tables/{table_id}/join", json={"seat": seat}, headers=headers)
        if joined.status_code != 200:
            raise SystemExit(f"cannot join seat {seat!r}: {joined.json().get('message', joined.text)}")
        token: str = joined.json()["seat_token"]
        return token


def run_bot(args: argparse.Namespace, extra: list[str]) -> int:
    from .client import BotClient

    _logging(args.log_level)
    server = args.server.rstrip("/")
    token = join_seat(server, args.table, args.seat, args.level, args.name)
    why = asyncio.run(BotClient(server, args.table, args.seat, args.level, token).run())
    print(f"bot stopped: {why}", flush=True)
    return 0 if why == "finished" else 1


def run_runner(args: argparse.Namespace, extra: list[str]) -> int:
    from .runner import Runner

    _logging(args.log_level)
    key = os.environ.get("DRAGONTABLE_BOT_KEY")
    if not key:
        print("the bot runner needs DRAGONTABLE_BOT_KEY (the server's)", file=sys.stderr)
        return 2
    shard, _, shards = args.shard.partition("/")
    runner = Runner(args.server, key, shard=int(shard), shards=int(shards or 1), parent=args.parent)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(runner.run())
    return 0
