"""Shared steps for the browser tests: browser contexts that record every request they
make, the lobby's create-a-table flow, waiting for the table page, reading the board
canvas, and a page that serves the repository's files for the renderer unit tests."""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .conftest import REPO

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


def _record_errors(page: Any) -> Any:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # every test asserts it stayed empty
    return _poll_on_a_timer(page)


def _poll_on_a_timer(page: Any) -> Any:
    """Make the page's wait_for_function poll every 25 ms instead of on animation frames.

    Playwright polls on requestAnimationFrame by default, and headless Chromium may hold a
    page's frames back (none is drawn without a compositor frame to make, and a loaded machine
    makes few): a wait could then miss, for its whole timeout, a change the page had made at
    once. A timer ticks regardless."""
    wait = page.wait_for_function

    def wait_for_function(
        expression: str, *, arg: Any = None, timeout: float | None = None, polling: Any = 25
    ) -> Any:
        return wait(expression, arg=arg, timeout=timeout, polling=polling)

    page.wait_for_function = wait_for_function
    return page


def new_player(browser: Any, recorder: Recorder, *, scale: float = 1) -> Any:
    """A page in its own browser context (its own localStorage: one person)."""
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=scale)
    recorder.attach(context)
    page = context.new_page()
    page.set_default_timeout(15000)
    return _record_errors(page)


def finish(recorder: Recorder, base_url: str, *pages: Any) -> None:
    """Every test ends so: no request left the server's origin, no page had a script error."""
    assert recorder.foreign(base_url) == []
    for page in pages:
        assert page.js_errors == [], page.js_errors
    for page in pages:
        page.context.close()


# --- lobby and waiting room ---------------------------------------------------------


def create_table(
    page: Any,
    base_url: str,
    name: str,
    game: str,
    options: Callable[[Any], None] | None = None,
    *,
    shot: Any = None,
) -> str:
    """Create a table from the lobby (`options` fills the game's form); returns its id."""
    page.goto(base_url + "/")
    page.fill("#player-name", name)
    page.select_option("#game-select", game)
    if options is not None:
        options(page)
    if shot is not None:
        page.screenshot(path=str(shot))
    page.click("#create-table")
    page.wait_for_url("**/table/**")
    match = re.search(r"/table/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


def take_seat(page: Any, seat: str, name: str) -> None:
    page.fill("#player-name", name)
    page.click(f'button.take-seat[data-seat="{seat}"]')
    page.wait_for_selector(f'.seat-row.held[data-seat="{seat}"]')


# --- the live table -----------------------------------------------------------------


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


def wait_seq_above(page: Any, seq: int) -> None:
    page.wait_for_function(f"() => window.__dt.table.current.seq > {seq}")


def sync_pages(*pages: Any) -> None:
    """Wait until every page (every seat each holds) has the latest update any of them has."""
    latest = max(seq_of(p) for p in pages)
    for p in pages:
        p.wait_for_function(f"() => [...window.__dt.table.data.values()].every(d => d.seq >= {latest})")


def state_of(page: Any) -> dict[str, Any]:
    return page.evaluate(
        "() => { const d = window.__dt.table.current; return {seq: d.seq, view: d.view, to_act: d.to_act, legal: d.legal}; }"
    )


def due_seat(page: Any) -> str | None:
    """The seat this page shows and owes a decision for now, if any."""
    return page.evaluate(
        "() => { const t = window.__dt.table; return t.mustAct(t.activeSeat) ? t.activeSeat : null; }"
    )


# --- the board canvas ---------------------------------------------------------------


def assert_high_dpi(page: Any, scale: float) -> None:
    """The canvas has `scale` device pixels per CSS pixel."""
    backing, css = page.evaluate(
        "() => [document.getElementById('board').width, document.getElementById('board').getBoundingClientRect().width]"
    )
    assert backing == round(css * scale), (backing, css)


def canvas_pixels(page: Any, points: list[dict[str, float]]) -> list[list[int]]:
    """RGBA of the board canvas at CSS-pixel points (device pixels read through the DPR)."""
    return page.evaluate(
        """(points) => {
            const c = document.getElementById('board');
            const ctx = c.getContext('2d');
            const k = c.width / c.getBoundingClientRect().width;
            return points.map(p => Array.from(ctx.getImageData(Math.round(p.x * k), Math.round(p.y * k), 1, 1).data));
        }""",
        points,
    )


def hex_rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def close(rgba: list[int], rgb: tuple[int, int, int], tol: int) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(rgba[:3], rgb, strict=True))


def check_resize(page: Any, smaller: dict[str, int], check: Callable[[Any], None]) -> None:
    """A smaller window gives a smaller board that `check` still finds drawn right; then back."""

    def board_width() -> float:
        return page.evaluate("() => document.getElementById('board').getBoundingClientRect().width")

    wide = board_width()
    page.set_viewport_size(smaller)
    page.wait_for_function(
        f"() => document.getElementById('board').getBoundingClientRect().width < {wide - 40}"
    )
    check(page)
    page.set_viewport_size(VIEWPORT)
    page.wait_for_function(
        f"() => document.getElementById('board').getBoundingClientRect().width > {wide - 5}"
    )


# --- modules without a server -----------------------------------------------------------


def repo_page(browser: Any, host: str, **options: Any) -> Any:
    """A blank page at http://<host>/ that serves the repository's own files (its ES modules)."""
    page = _record_errors(browser.new_page(**options))

    def serve(route: Any) -> None:
        path = REPO / route.request.url.split("://", 1)[1].split("/", 1)[1]
        if not path.resolve().is_relative_to(REPO) or not path.is_file():
            route.fulfill(status=404, body="")
            return
        ctype = "text/javascript" if path.suffix in (".js", ".mjs") else mimetypes.guess_type(path.name)[0]
        route.fulfill(status=200, body=path.read_bytes(), content_type=ctype or "text/plain")

    page.route(f"http://{host}/**", serve)
    page.goto(f"http://{host}/tests/e2e/js/blank.html")
    return page


# --- tables made over the API, played over the WebSocket ------------------------------


def api_table(
    base_url: str, game: str, options: dict[str, Any] | None = None, *, name: str = "Alice", **extra: Any
) -> tuple[str, dict[str, str], Any]:
    """A started table whose every seat one player holds: (table id, seat tokens, that player's Api)."""
    from tests.server_fixtures import Api, start_table

    api = Api(base_url, name)
    table_id, tokens = start_table(api, game, options, **extra)
    return table_id, tokens, api


def hold_seats(
    page: Any, base_url: str, api: Any, table_id: str, tokens: dict[str, str], name: str = "Alice"
) -> None:
    """Give a browser the player identity and seat tokens (as if it had joined them), then open the table."""
    page.goto(base_url + "/")
    page.evaluate(
        "([player, key, seats]) => { localStorage.setItem('dragontable.player', JSON.stringify(player));"
        " localStorage.setItem(key, JSON.stringify(seats)); }",
        [
            {"player_id": api.player_id, "name": name, "player_token": api.token},
            f"dragontable.seats.{table_id}",
            tokens,
        ],
    )
    page.goto(f"{base_url}/table/{table_id}")
    wait_live(page)


def play_ws(
    server: Any, table_id: str, tokens: dict[str, str], actions: int, seed: int = 7, prefix: str = "w"
) -> int:
    """`actions` random legal actions over the WebSocket (the whole game if it ends first); the last seq.
    Played in rounds of fresh connections, each within the server's per-connection message rate."""
    import asyncio
    import concurrent.futures
    import random

    from tests.server_fixtures import WsClient, play_random

    per_round = 40
    rnd = random.Random(seed)

    async def run() -> int:
        last, done = 0, 0
        while done < actions:
            seats = {seat: WsClient(server.ws_url(table_id), token) for seat, token in tokens.items()}
            for client in seats.values():
                await client.connect()
            try:
                n = min(per_round, actions - done)
                acked = await play_random(
                    seats, [], rnd, max_actions=n, stop_after=n, prefix=f"{prefix}{done}-"
                )
                last = acked[-1] if acked else max(c.seq for c in seats.values())
                if len(acked) < n:
                    return last  # the game is over
                done += n
            finally:
                for client in seats.values():
                    await client.close()
        return last

    # Playwright's sync API owns this thread's event loop: the WebSocket players get their own thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


# -- the board: clicks on cells and figures, the lit cells --------------------------------------


def click_at(page: Any, point: dict[str, float]) -> None:
    page.locator("#board").click(position={"x": point["x"], "y": point["y"]})


def click_cell(page: Any, cell: list[int]) -> None:
    click_at(page, page.evaluate("([x, y]) => window.__dt.cellToPixel(x, y)", cell))


def click_figure(page: Any, figure: str) -> None:
    point = page.evaluate("(id) => window.__dt.renderer.figurePixel(id)", figure)
    assert point, f"{figure} is not drawn"
    click_at(page, point)


def lit_cells(page: Any) -> list[list[int]]:
    return page.evaluate("() => [...window.__dt.renderer.lit.keys()].map(k => k.split(',').map(Number))")


def selection(page: Any) -> Any:
    return page.evaluate("() => window.__dt.table.selection")
