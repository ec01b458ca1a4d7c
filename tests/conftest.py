"""Shared test setup: the toy game is registered for in-process tests; real-server
helpers live in tests/server_fixtures.py."""

from __future__ import annotations

from backend.engine import registry

registry.register("toy", "tests.play.toygame:GAME")
