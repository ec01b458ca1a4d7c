"""The bot runner: a process beside the server that plays every bot seat and every takeover.

``python -m backend serve`` starts it (``--bots N`` runners, 0 for none) in a process of its
own, because a strong bot holds a core for its whole budget and the rules search must never
run on the server's event loop.  It is an ordinary client of the public protocol: once a
second it asks ``GET /api/bots/work`` (with the shared ``bot_key``) which seats bots should be
playing, and runs one ``BotClient`` per seat with that seat's stand-in token
(backend/play/botauth.py).  A client that stops (the game ended, the person came back) is
dropped; one whose seat is still listed is started again, which is also how a runner that was
restarted picks its tables up.  With several runners each takes the seats whose table id
hashes to its shard.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os

import httpx

from backend.play.botauth import stand_in_token

from .client import BotClient

log = logging.getLogger("dragontable.bot")
POLL_SECONDS = 1.0


def in_shard(table_id: str, shard: int, shards: int) -> bool:
    return shards <= 1 or int(hashlib.sha256(table_id.encode()).hexdigest(), 16) % shards == shard


class Runner:
    def __init__(
        self, server: str, key: str, *, shard: int = 0, shards: int = 1, parent: int | None = None
    ) -> None:
        self.server = server.rstrip("/")
        self.key = key
        self.shard, self.shards = shard, shards
        self.parent = parent
        self.playing: dict[tuple[str, str], asyncio.Task[str]] = {}

    async def run(self) -> None:
        async with httpx.AsyncClient(base_url=self.server, timeout=10) as http:
            while self._parent_alive():
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    await self._poll(http)
                await asyncio.sleep(POLL_SECONDS)
        for task in self.playing.values():
            task.cancel()

    def _parent_alive(self) -> bool:
        """A runner whose server died (even by SIGKILL) stops too, instead of polling for ever."""
        return self.parent is None or os.getppid() == self.parent

    async def _poll(self, http: httpx.AsyncClient) -> None:
        reply = await http.get("/api/bots/work", headers={"Authorization": f"Bearer {self.key}"})
        if reply.status_code != 200:
            log.warning(
                "the server refused the bot runner (%s): is DRAGONTABLE_BOT_KEY the same?", reply.status_code
            )
            return
        for key, task in list(self.playing.items()):
            if task.done():
                del self.playing[key]
        for item in reply.json():
            key = (item["table_id"], item["seat"])
            if key in self.playing or not in_shard(key[0], self.shard, self.shards):
                continue
            token = stand_in_token(self.key, *key)
            client = BotClient(self.server, key[0], key[1], item["level"], token)
            self.playing[key] = asyncio.create_task(self._play(client))

    async def _play(self, client: BotClient) -> str:
        try:
            why = await client.run()
        except Exception:
            log.exception("bot %s/%s stopped", client.table_id, client.seat)
            return "failed"
        log.info("bot %s/%s stopped: %s", client.table_id, client.seat, why)
        return why
