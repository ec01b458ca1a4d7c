"""Configuration is checked at start (issue 16, point 6): unsafe settings refuse to start with a
clear message, and ``serve --check`` prints the effective settings with secrets masked."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from pydantic import ValidationError

from backend.config import Settings
from tests.server_fixtures import ROOT

TOKEN = "a-metrics-token-of-some-length"


def test_production_refuses_wildcard_origins_and_a_missing_metrics_token() -> None:
    with pytest.raises(ValidationError, match="may not be"):
        Settings(environment="production", allowed_origins=["*"], metrics_token=TOKEN)
    with pytest.raises(ValidationError, match="METRICS_TOKEN"):
        Settings(environment="production")
    with pytest.raises(ValidationError, match="METRICS_TOKEN"):
        Settings(environment="production", metrics_token="short")
    ok = Settings(environment="production", metrics_token=TOKEN, allowed_origins=["https://play.example"])
    assert ok.effective()["metrics_token"] == "set (hidden)"
    Settings(allowed_origins=["*"])  # one's own machine may


def run_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DRAGONTABLE_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "-m", "backend", "serve", "--check"], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_serve_check_prints_the_effective_settings_with_secrets_masked() -> None:
    done = run_check({"DATABASE_URL": "postgresql+psycopg://app:hunter2@db/dt", "DRAGONTABLE_METRICS_TOKEN": TOKEN,
                      "DRAGONTABLE_PORT": "9123"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["port"] == 9123 and shown["database_url"] == "postgresql+psycopg://app:***@db/dt"
    assert "hunter2" not in done.stdout and TOKEN not in done.stdout


def test_an_unsafe_setting_refuses_to_start_with_a_reason() -> None:
    done = run_check({"DRAGONTABLE_ENVIRONMENT": "production", "DRAGONTABLE_ALLOWED_ORIGINS": "*",
                      "DRAGONTABLE_METRICS_TOKEN": TOKEN})  # fmt: skip
    assert done.returncode == 2
    assert "refuses to start" in done.stderr and "ALLOWED_ORIGINS" in done.stderr
    assert "Traceback" not in done.stderr
