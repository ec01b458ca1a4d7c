"""Running a test on the pure-Python Dorn modules when the compiled ones are in use.

A test that monkeypatches a module function of ``backend.games.dorn`` reaches nothing in the
compiled modules (backend/native.py): mypyc calls a module's functions directly, not through the
module's attributes.  Such a test runs itself again in a child process with
``DRAGONTABLE_NATIVE=0``, where every module is loaded from its .py and the patch takes effect.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from backend import native

ROOT = Path(__file__).resolve().parents[3]


def compiled() -> bool:
    return native.why_not() is None


def run_pure(test_file: str, test_name: str) -> None:
    env = {**os.environ, native.ENV: "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", f"{test_file}::{test_name}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout, done.stdout
