"""Shared steps for the browser tests: a real server per module, browser contexts
that record every request they make, and screenshots under test-artifacts/."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.server_fixtures import ServerProcess

VIEWPORT = {"width": 1440, "height": 960}


@dataclass
class Recorder:
    """Every URL the pages of a context asked for (HTTP and WebSocket)."""

    urls: list[str] = field(default_factory=list)

    def attach(self, context: Any) -> None:
        context.on("request", lambda req: self.urls.append(req.url))
        context.on("page", self._page)

    def _page(self, page: Any) -> None:
        page.on("websocket", lambda ws: self.urls.append(ws.url))

    def foreign(self, base_url: str) -> list[str]:
        origin = urlsplit(base_url)
        bad = []
        for url in self.urls:
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob"):
                continue
            if parts.scheme not in ("http", "ws") or parts.netloc != origin.netloc:
                bad.append(url)
        return bad


def start_server(tmp: Path, artifacts: Path) -> ServerProcess:
    return ServerProcess(f"sqlite:///{tmp / 'e2e.db'}", log_path=artifacts / "e2e-server.log").start()


def new_player(browser: Any, recorder: Recorder, *, scale: float = 1) -> tuple[Any, Any]:
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=scale)
    recorder.attach(context)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # checked at the end of each test
    return context, page


def table_id_of(page: Any) -> str:
    match = re.search(r"/table/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


def take_seat(page: Any, seat: str, name: str) -> None:
    page.fill("#player-name", name)
    page.click(f'button.take-seat[data-seat="{seat}"]')
    page.wait_for_selector(f'.seat-row.held[data-seat="{seat}"]')


def wait_live(page: Any) -> None:
    try:
        page.wait_for_selector("#conn-state[data-state=open]")
        page.wait_for_function(
            "() => window.__dt && window.__dt.table && window.__dt.table.current && window.__dt.table.current.view"
        )
    except Exception as exc:
        # Say what the page shows instead of only "timeout".
        seen = page.evaluate(
            "() => ({url: location.href, pill: document.querySelector('#conn-state')?.dataset.state ?? null,"
            " text: document.body.innerText.slice(0, 300),"
            " sockets: window.__dt?.table ? [...window.__dt.table.connections.values()].map(c => c.state) : null})"
        )
        raise AssertionError(f"the table never went live: {seen}; page errors: {page.js_errors}") from exc


def seq_of(page: Any) -> int:
    return page.evaluate("() => window.__dt.table.current.seq")


def state_of(page: Any) -> dict[str, Any]:
    return page.evaluate(
        "() => { const d = window.__dt.table.current; return {seq: d.seq, view: d.view, to_act: d.to_act, legal: d.legal}; }"
    )
