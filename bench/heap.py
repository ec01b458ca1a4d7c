"""What the server's live Python objects are, per idle WebSocket and per table at rest.

    python bench/heap.py [--connections 1000] [--tables 20] [--top 12]

``bench/capacity.py`` measures the resident set, which also holds the allocator's slack and
SQLite's page cache; this script says what the objects themselves are, by file, so that a
change to the memory can be aimed (issue 15 point 4). It starts ``python -m backend serve``
(SQLite, one process) with tracemalloc on: a ``sitecustomize`` module, put on the server's
``PYTHONPATH`` from a temporary folder, starts it and dumps a snapshot (after a collection) on
SIGUSR1. Then, from this process over loopback:

* ``idle``: 50 spectators connect first (the tables are loaded, the code paths warm), a
  snapshot; ``--connections`` more, a snapshot: the difference per connection.
* ``tables``: for each game, 5 tables played and closed first, a snapshot; ``--tables`` more
  (the same play as capacity.py's ``tables`` phase), a snapshot: the difference per table.
  Process-wide bounded caches (Dorasure's movement memo) count here too, less a table as there
  are more tables.

tracemalloc's own bookkeeping makes the process larger; the figures are the traced objects only.
It prints the totals and the files that hold the most; nothing is written to bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.capacity import PLAYS, Client, in_batches, play_tables, started_tables  # noqa: E402
from tests.server_fixtures import ServerProcess  # noqa: E402

EVICTED_AFTER = 32.0  # seconds: a table is dropped 30 s after its last socket leaves

SITECUSTOMIZE = '''
import gc, os, signal, tracemalloc
tracemalloc.start(int(os.environ.get("HEAP_FRAMES", "8")))
_count = [0]
def _dump(signum, frame):
    gc.collect()
    _count[0] += 1
    tracemalloc.take_snapshot().dump(f"{os.environ['HEAP_SNAPSHOTS']}-{_count[0]}.snap")
signal.signal(signal.SIGUSR1, _dump)
'''


class Heap:
    """The server under tracemalloc, and its snapshots in order."""

    def __init__(self, folder: Path) -> None:
        (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
        self.prefix = folder / "snap"
        self.taken = 0
        env = {
            "PYTHONPATH": f"{folder}{os.pathsep}{ROOT}",
            "HEAP_SNAPSHOTS": str(self.prefix),
            "DRAGONTABLE_PROMPT_TIMEOUT_SECONDS": "600",
        }
        self.server = ServerProcess(f"sqlite:///{folder / 'heap.db'}", env=env, log_path=folder / "server.log")

    async def snapshot(self) -> tracemalloc.Snapshot:
        self.taken += 1
        path = Path(f"{self.prefix}-{self.taken}.snap")
        os.kill(self.server.pid, signal.SIGUSR1)
        for _ in range(600):  # written when the dump ends: wait for a size that holds still
            await asyncio.sleep(0.1)
            if path.exists() and path.stat().st_size > 0:
                size = path.stat().st_size
                await asyncio.sleep(0.5)
                if path.stat().st_size == size:
                    return tracemalloc.Snapshot.load(str(path))
        raise TimeoutError(f"no snapshot at {path}")


def difference(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, per: int, top: int) -> dict[str, Any]:
    stats = after.compare_to(before, "filename")
    total = sum(s.size_diff for s in stats)
    where = [
        (round(s.size_diff / per / 1024, 2), s.traceback[0].filename.split("site-packages/")[-1].replace(f"{ROOT}/", ""))
        for s in stats[:top]
    ]
    return {"kib_each": round(total / per / 1024, 2), "by_file_kib_each": where}


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    heap = Heap(Path(tempfile.mkdtemp(prefix="dt-heap-")))
    heap.server.start()
    out: dict[str, Any] = {"load_average": [round(os.getloadavg()[0], 2)]}
    try:
        tables = await asyncio.to_thread(started_tables, heap.server, "dorasure", 10, {"heroes": ["ninja", "hunter"]})
        clients = [Client(heap.server.ws_url(tables[i % len(tables)][0]), None) for i in range(50 + args.connections)]

        async def connect(c: Client) -> None:
            await c.connect()
            await asyncio.wait_for(c.welcomed.wait(), 120)

        await in_batches(clients[:50], 50, connect)
        await asyncio.sleep(2.0)
        before = await heap.snapshot()
        await in_batches(clients[50:], 200, connect)
        await asyncio.sleep(3.0)  # presence frames coalesce and go out
        out["idle"] = {"connections": args.connections, **difference(before, await heap.snapshot(), args.connections, args.top)}
        for c in clients:
            await c.close()
        rnd = random.Random(5)
        for game in PLAYS:
            # The tables measured before are dropped 30 s after their last socket left
            # (play/master.py): let that happen before, not during, this game's measure.
            await asyncio.sleep(EVICTED_AFTER)
            await play_tables(heap.server, game, 5, rnd)
            await asyncio.sleep(2.0)
            before = await heap.snapshot()
            t0 = time.perf_counter()
            await play_tables(heap.server, game, args.tables, rnd)
            took = time.perf_counter() - t0
            await asyncio.sleep(2.0)  # the sockets are gone; the tables stay loaded for 30 s
            out[game] = {"tables": args.tables, "play_seconds": round(took, 1),
                         **difference(before, await heap.snapshot(), args.tables, args.top)}  # fmt: skip
            if took + 2.0 >= EVICTED_AFTER - 2:
                out[game]["warning"] = "the first tables may have been dropped before the snapshot: use fewer"
    finally:
        heap.server.stop()
    out["load_average"].append(round(os.getloadavg()[0], 2))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--connections", type=int, default=1000)
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--top", type=int, default=12)
    args = p.parse_args()
    print(json.dumps(asyncio.run(main_async(args)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
