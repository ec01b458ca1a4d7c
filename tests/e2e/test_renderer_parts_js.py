"""The pure parts of the two board renderers (frontend/js/games/<game>/layout.js, names.js,
texts.js, selection.js, cursor.js, and games/color.js) against the real engines: their static
info and views and legal actions from random games. Pixel <-> cell round trips and hit tests,
token positions, a label for every listed action, which listed action a click or the keyboard
cursor stands for, the words of cards, events and legends, and the contrast of every ink.

The cases (js/<suite>_cases.mjs) run under node's test runner when node is installed,
otherwise inside Chromium (which CI always has), as test_hexlayout_js.py's do."""

from __future__ import annotations

import functools
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from backend.engine.rng import Rng, seed_from_int
from backend.games.dorasure.game import GAME as DORASURE
from backend.games.dorn.game import GAME as DORN

from .helpers import repo_page

pytestmark = pytest.mark.e2e

JS_DIR = Path(__file__).parent / "js"
# Each suite of cases: the game whose fixture it reads, and how many cases it holds.
SUITES = {
    "dorn_parts": ("dorn", 15),
    "dorn_words": ("dorn", 7),
    "dorasure_parts": ("dorasure", 10),
    "dorasure_words": ("dorasure", 7),
    "color": ("dorasure", 3),
}


def _dorn_fixture() -> dict[str, Any]:
    """The board and catalogues, and the first view and legal list of each (step, action type) in a random game."""
    rng = random.Random(5)
    options = DORN.normalize_options({"hero_seats": 2})
    state = DORN.initial_state(bytes([3]) * 32, options)
    samples: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for _ in range(900):
        seats = sorted(DORN.to_act(state))
        if not seats or DORN.outcome(state) is not None:
            break
        seat = rng.choice(seats)
        legal = DORN.legal_actions(state, seat)
        kinds = {(state["phase"], a["type"]) for a in legal} - seen
        if kinds:
            seen |= kinds
            samples.append({"seat": seat, "view": DORN.view(state, seat), "legal": legal})
        # Do things rather than end steps, never give up, never take a Done back (it would loop).
        doing = [
            a for a in legal if a["type"] not in ("done", "surrender", "propose_surrender", "take_back_done")
        ]
        if not doing and all(a["type"] == "take_back_done" for a in legal):
            continue
        heading = [a for a in doing if a["type"] in ("move", "attack", "summon", "parry")]
        pool = heading if heading and rng.random() < 0.8 else doing
        action = rng.choice(pool) if pool and rng.random() < 0.85 else {"type": "done"}
        state = DORN.apply(state, seat, action if action in legal else legal[0]).state
    return {"static": DORN.static_info(options), "samples": samples}


def _dorasure_fixture() -> dict[str, Any]:
    """The map and catalogues (Fang lands in play), and the first view and legal list of each action type
    in a game played by the engine's own steering, with the events that led to it."""
    options = DORASURE.normalize_options(
        {"heroes": ["samurai", "werewolf", "shaman", "minstrel"], "fang": True}
    )
    state = DORASURE.initial_state(bytes([2]) * 32, options)
    steer = Rng(seed_from_int(5))
    pick = random.Random(11)
    samples: list[dict[str, Any]] = []
    seen: set[str] = set()
    events: list[dict[str, Any]] = []
    for _ in range(1500):
        seats = sorted(DORASURE.to_act(state))
        if not seats or DORASURE.outcome(state) is not None:
            break
        seat = pick.choice(seats)
        legal = DORASURE.legal_actions(state, seat)
        kinds = {a["type"] for a in legal} - seen
        if kinds:
            seen |= kinds
            samples.append(
                {"seat": seat, "view": DORASURE.view(state, seat), "legal": legal, "events": events}
            )
        transition = DORASURE.apply(state, seat, DORASURE.sim_choice(state, seat, legal, steer))
        state = transition.state
        events = [e.as_dict() for e in transition.events]
    return {"static": DORASURE.static_info(options), "samples": samples}


FIXTURES = {"dorn": _dorn_fixture, "dorasure": _dorasure_fixture}


@functools.cache
def _fixture_json(game: str) -> str:
    return json.dumps(FIXTURES[game]())


def _run_in_node(suite: str, fixture_file: Path) -> None:
    result = subprocess.run(
        # No package.json in frontend/ (no build step): tell node its .js files are ES modules.
        ["node", "--experimental-default-type=module", "--test", str(JS_DIR / "renderer_parts.test.mjs")],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PARTS_CASES": suite, "PARTS_FIXTURE": str(fixture_file), "PATH": "/usr/local/bin:/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"# pass {SUITES[suite][1]}" in result.stdout, result.stdout


def _run_in_browser(browser: Any, suite: str, fixture: dict[str, Any]) -> None:
    page = repo_page(browser, "parts.test")
    results = page.evaluate(
        """async ({ suite, fixture }) => {
            const { cases } = await import(`/tests/e2e/js/${suite}_cases.mjs`);
            const out = [];
            for (const [name, fn] of cases) {
                try { fn(fixture); out.push([name, null]); } catch (e) { out.push([name, String(e)]); }
            }
            return out;
        }""",
        {"suite": suite, "fixture": fixture},
    )
    page.close()
    assert page.js_errors == []
    failures = [f"{name}: {err}" for name, err in results if err]
    assert len(results) == SUITES[suite][1] and not failures, failures


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_renderer_parts(suite: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    game = SUITES[suite][0]
    if shutil.which("node"):
        fixture_file = tmp_path / f"{game}_parts.json"
        fixture_file.write_text(_fixture_json(game), encoding="utf-8")
        _run_in_node(suite, fixture_file)
    else:
        _run_in_browser(request.getfixturevalue("browser"), suite, json.loads(_fixture_json(game)))


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_renderer_parts_in_chromium(browser: Any, suite: str) -> None:
    _run_in_browser(browser, suite, json.loads(_fixture_json(SUITES[suite][0])))
