"""Shared test setup: the toy game is registered for in-process tests; real-server
helpers live in tests/server_fixtures.py."""

from __future__ import annotations

from backend.engine import registry

registry.register("toy", "tests.play.toygame:GAME")


def pytest_collection_modifyitems(config, items):
    """Run the browser tests last.

    Playwright's sync API keeps an event loop running in the main thread for the
    whole session once started; tests that call asyncio.run() must come first.
    """
    items.sort(key=lambda item: "/tests/e2e/" in str(item.path).replace("\\", "/"))
