"""Dorasure's rules and a table's fan-out compiled by mypyc (backend/native.py) send what the
pure Python sends.

Two child processes, one on the compiled modules and one with ``DRAGONTABLE_NATIVE=0``, play the
same 20 seeded 4-hero games and put every step through ``frames.fan_out`` for 4 seats and 2
spectators taking patches (bench/frames.py, as the load benchmark's tables): the same frames,
byte for byte (compared sorted: the order of a step's sockets is a set's), and the same final
state hashes. tests/games/dorn/test_native.py does the same for Dorn's games.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from backend import native
from tests.native_build import not_built

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import hashlib, json
from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.play import hub
import backend.games.dorasure.game
import backend.play.patch
import bench.frames as bf

frames = []
send_text = hub.Connection.send_text

def recording(self, text, *args, **kwargs):
    frames.append(text)
    return send_text(self, text, *args, **kwargs)

hub.Connection.send_text = recording
games = bf.recorded_games(range(1, 21))
bf.fanout_per_step(games)
game = get_game("dorasure")
print(json.dumps({
    "frames": len(frames),
    "digest": hashlib.sha256("\\n".join(sorted(frames)).encode()).hexdigest(),
    "finals": [state_hash(game, record[-1][0]) for record in games],
    "files": [backend.play.patch.__file__, backend.games.dorasure.game.__file__],
}))
"""


def _play(*, pure: bool) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    if pure:
        env[native.ENV] = "0"
    return subprocess.Popen([sys.executable, "-c", PLAY], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def _result(child: subprocess.Popen[str]) -> dict[str, object]:
    out, err = child.communicate()
    assert child.returncode == 0, err
    result: dict[str, object] = json.loads(out.splitlines()[-1])
    return result


@pytest.mark.slow
def test_compiled_and_pure_send_the_same_frames():
    if native.why_not() is not None:
        not_built(native.why_not())
    children = _play(pure=False), _play(pure=True)  # side by side: each is single-threaded
    compiled, pure = (_result(c) for c in children)
    files = compiled.pop("files"), pure.pop("files")
    assert all(str(f).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for f in files[0]), files
    assert all(str(f).endswith(".py") for f in files[1]), files
    assert compiled["frames"] > 5_000
    assert compiled == pure
