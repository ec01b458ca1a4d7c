"""What a test of the compiled modules (backend/native.py) does where there are none."""

from __future__ import annotations

import os

import pytest


def not_built(reason: str | None) -> None:
    """A skip on a machine that did not build them (no compiler: the pure Python is what runs
    there, and every other test runs it), a failure in CI, whose .ci/test builds them and must
    test what it built."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI runs the compiled modules, but they are not in use: {reason}")
    pytest.skip(f"compiled modules not in use: {reason}")
