"""The client's hex geometry (frontend/js/hexlayout.js) round-trips pixel <-> axial
and agrees with backend/engine/hexgrid.py on reference points computed here.

The cases (js/hexlayout_cases.mjs) run under node's test runner when node is
installed, otherwise inside Chromium (which CI always has)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from backend.engine.hexgrid import Hex

from .helpers import repo_page

JS_DIR = Path(__file__).parent / "js"
CASES = 7


def _reference(size: float) -> dict:
    points = []
    for q in range(-6, 7):
        for r in range(-6, 7):
            x, y = Hex(q, r).to_pixel(size)
            points.append({"q": q, "r": r, "x": x, "y": y})
    from_pixel = []
    for i in range(-40, 41, 3):
        for j in range(-40, 41, 3):
            x, y = i * size / 7.3, j * size / 6.1
            h = Hex.from_pixel(x, y, size)
            from_pixel.append({"x": x, "y": y, "q": h.q, "r": h.r})
    return {"size": size, "points": points, "from_pixel": from_pixel}


def _run_in_node(reference: Path) -> None:
    result = subprocess.run(
        # No package.json in frontend/ (no build step): tell node its .js files are ES modules.
        ["node", "--experimental-default-type=module", "--test", str(JS_DIR / "hexlayout.test.mjs")],
        capture_output=True,
        text=True,
        timeout=60,
        env={"HEXGRID_REFERENCE": str(reference), "PATH": "/usr/local/bin:/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"# pass {CASES}" in result.stdout, result.stdout


def _run_in_browser(browser, fixture: dict) -> None:
    page = repo_page(browser, "hexlayout.test")
    results = page.evaluate(
        """async (fixture) => {
            const { cases } = await import('/tests/e2e/js/hexlayout_cases.mjs');
            const out = [];
            for (const [name, fn] of cases) {
                try { fn(fixture); out.push([name, null]); } catch (e) { out.push([name, String(e)]); }
            }
            return out;
        }""",
        fixture,
    )
    page.close()
    assert page.js_errors == []
    failures = [f"{name}: {err}" for name, err in results if err]
    assert len(results) == CASES and not failures, failures


@pytest.mark.e2e
def test_hexlayout_round_trips(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    fixture = _reference(23.5)
    if shutil.which("node"):
        reference = tmp_path / "hexgrid_reference.json"
        reference.write_text(json.dumps(fixture), encoding="utf-8")
        _run_in_node(reference)
    else:
        _run_in_browser(request.getfixturevalue("browser"), fixture)


@pytest.mark.e2e
def test_hexlayout_round_trips_in_chromium(browser) -> None:
    _run_in_browser(browser, _reference(31.0))
