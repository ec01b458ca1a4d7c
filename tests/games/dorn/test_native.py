"""The Dorn engine compiled by mypyc (``python -m backend.native build``) is the pure one.

* When a build of these sources is present, every module a build compiles (both games' but the
  packages' ``__init__`` files, which are never compiled, and the fan-out's) is the compiled
  one; otherwise every one is loaded from its ``.py``: never a mix, never a stale build.
* Compiled and pure play the same games: 40 seeded steered games, plain and with each variant,
  in two processes (``DRAGONTABLE_NATIVE=0`` for the pure one), give at every step the same
  seat, list of the acting seat, action, events and state hash.
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

ROOT = Path(__file__).resolve().parents[3]
SEEDS = range(100, 140)
# By seed: plain tables, each variant, no surrender, two variants together.
VARIANTS: list[dict[str, object]] = [
    {},
    {"tactics_and_flight": True},
    {"cave_in": True},
    {"four_heroes": True},
    {"real_day_and_night": True},
    {"random_group": True},
    {"missing_artifact": True},
    {"allow_surrender": False},
    {"tactics_and_flight": True, "cave_in": True},
]

# Run in a child process: plays SEEDS, prints one line per game: its steps and the SHA-256 of
# every step's seat, listed actions, action, events and state hash; then which files it ran.
PLAY = """
import hashlib, json, sys
from backend.engine.playout import driver_rng
from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.engine.rng import seed_from_int
import backend.games.dorn.state

game = get_game("dorn")
for seed, variant in json.loads(sys.argv[1]):
    options = game.normalize_options(game.sim_options(driver_rng(seed), None, variant))
    state = game.initial_state(seed_from_int(seed), options)
    rng = driver_rng(seed)
    h = hashlib.sha256()
    steps = 0
    while game.outcome(state) is None:
        seats = sorted(game.to_act(state))
        seat = seats[rng.below(len(seats))]
        legal = game.legal_actions(state, seat)
        action = game.sim_choice(state, seat, legal, rng)
        t = game.apply(state, seat, action)
        state = t.state
        events = [[e.kind, dict(e.data), sorted(e.to) if e.to is not None else None] for e in t.events]
        step = [seat, legal, action, events, state_hash(game, state)]
        h.update(json.dumps(step, sort_keys=True).encode() + b"\\n")
        steps += 1
    print(json.dumps([seed, steps, game.outcome(state).result, h.hexdigest()]))
print(json.dumps(backend.games.dorn.state.__file__))
"""


def _start(games: list[tuple[int, dict[str, object]]], *, pure: bool) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    if pure:
        env[native.ENV] = "0"
    return subprocess.Popen(
        [sys.executable, "-c", PLAY, json.dumps(games)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _results(child: subprocess.Popen[str]) -> tuple[list[list[object]], str]:
    out, err = child.communicate()
    assert child.returncode == 0, err
    *lines, file = out.splitlines()
    return [json.loads(line) for line in lines], json.loads(file)


def _compiled_modules() -> dict[str, str]:
    """Of what a build compiles, what this process has imported, by the file it came from."""
    import backend.games.dorasure.game
    import backend.games.dorn.game
    import backend.play.frames  # noqa: F401  (with the games: every module a build compiles, nearly)

    names = native.module_names()
    return {name: str(module.__file__) for name, module in sys.modules.items() if name in names}


def test_every_module_comes_from_one_side():
    modules = _compiled_modules()
    assert len(modules) > 50
    if native.why_not() is None:
        assert all(f.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for f in modules.values()), modules
    else:
        assert all(f.endswith(".py") for f in modules.values()), modules


def test_a_build_is_used_only_for_the_sources_it_was_built_from(tmp_path, monkeypatch):
    """``why_not`` on a copy of what is compiled: no stamp, the stamp of these sources but no
    extension module for this Python, both, an edit, the environment's veto."""
    for source in native.sources():
        copy = tmp_path / source.relative_to(native.REPO)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(source.read_bytes())
    monkeypatch.delenv(native.ENV, raising=False)
    monkeypatch.setattr(native, "REPO", tmp_path)
    monkeypatch.setattr(native, "STAMP", tmp_path / "backend" / "_native.stamp")
    assert native.why_not() == "not built (python -m backend.native build)"
    native.STAMP.write_text(native.digest() + "\n")
    assert native.why_not() == "not built for this Python (python -m backend.native build)"
    first = native.sources()[0]
    first.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    assert native.why_not() is None
    edited = native.sources()[-1]
    edited.write_text(edited.read_text() + "\n")
    assert native.why_not() == "the sources changed since the build (python -m backend.native build)"
    edited.write_text(edited.read_text()[:-1])
    assert native.why_not() is None
    monkeypatch.setenv(native.ENV, "0")
    assert native.why_not() == "DRAGONTABLE_NATIVE=0"


def test_what_is_compiled():
    """Both games' rules and the fan-out, every module but the packages' ``__init__`` files."""
    names = native.module_names()
    assert {"backend.play.frames", "backend.play.audience", "backend.play.patch"} <= names
    assert {"backend.games.dorn.sim", "backend.games.dorasure.rules.flow"} <= names
    assert not any(name.endswith("__init__") for name in names)


@pytest.mark.slow
def test_compiled_and_pure_play_the_same_games():
    if native.why_not() is not None:
        not_built(native.why_not())
    games = [(seed, VARIANTS[seed % len(VARIANTS)]) for seed in SEEDS]
    # The two processes side by side (each is single-threaded).
    children = _start(games, pure=False), _start(games, pure=True)
    (compiled, compiled_file), (pure, pure_file) = (_results(c) for c in children)
    assert compiled_file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), compiled_file
    assert pure_file.endswith(".py"), pure_file
    assert compiled == pure
    assert len(pure) == len(SEEDS) and sum(steps for _, steps, _, _ in pure) > 20_000
    # Both results occur: the games are real ones, not cut short.
    assert {result for _, _, result, _ in pure} == {"heroes_win", "keeper_wins"}
