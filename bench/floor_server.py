"""The load benchmark's floor (bench/server_load.py): a bare ``websockets`` fan-out server, no
rules and no database.  A connection joins a group; a message in is answered by one frame of
the asked size out to the whole group, as one action's update goes to a table.

    python bench/floor_server.py PORT      (prints "ready" once it listens)
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import websockets

groups: dict[Any, set[Any]] = {}


async def handler(ws: Any) -> None:
    group: set[Any] | None = None
    async for text in ws:
        msg = json.loads(text)
        if msg["t"] == "join":
            group = groups.setdefault(msg["g"], set())
            group.add(ws)
        elif group is not None:
            frame = json.dumps({"type": "bench", "seq": msg["seq"], "pad": "x" * msg["size"]})
            websockets.broadcast(group, frame)
    if group is not None:
        group.discard(ws)


async def main() -> None:
    async with websockets.serve(handler, "127.0.0.1", int(sys.argv[1]), max_size=2**24):
        print("ready", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
