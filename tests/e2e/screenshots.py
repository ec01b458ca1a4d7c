"""The README's screenshots (docs/screenshots/), made from real games on a real server:

    python -m tests.e2e.screenshots

A Dorasure and a Dorn table, each seat held by a different player, played some way by random
legal actions, then shown as one of their players sees them at 1366×768 (a laptop) and 390×844
(a phone); the lobby with its lists; the Rules panel; the replay of a finished game."""

from __future__ import annotations

import tempfile
import time
from typing import Any

from playwright.sync_api import sync_playwright

from tests.server_fixtures import Api, ServerProcess

from .conftest import CHROMIUM, CHROMIUM_ARGS, REPO
from .helpers import play_ws

OUT = REPO / "docs" / "screenshots"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = ["Alice", "Bruno", "Chen", "Dalia", "Emeka", "Farah"]


def seated_table(
    base_url: str, game: str, options: dict[str, Any]
) -> tuple[str, dict[str, str], dict[str, tuple[Api, str]]]:
    """A started table whose seats are held by different people: (id, seat tokens, seat -> (player, name))."""
    host = Api(base_url, NAMES[0])
    table = host.create_table(game, options)
    players, tokens = {}, {}
    for i, seat in enumerate(s["seat"] for s in table["seats"]):
        name = NAMES[i % len(NAMES)]
        players[seat] = (host if i == 0 else Api(base_url, name), name)
        tokens[seat] = players[seat][0].join(table["id"], seat)
    host.start(table["id"])
    return table["id"], tokens, players


def open_as(
    browser: Any, viewport: dict[str, int], base_url: str, table_id: str, seat: str, made: tuple
) -> Any:
    """A browser holding one seat of a table made by seated_table, showing it."""
    tokens, players = made
    player, name = players[seat]
    seats = {seat: tokens[seat]}
    phone = viewport["width"] < 500
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.goto(base_url + "/")
    page.evaluate(
        "([player, key, seats]) => { localStorage.setItem('dragontable.player', JSON.stringify(player));"
        " localStorage.setItem(key, JSON.stringify(seats)); }",
        [
            {"player_id": player.player_id, "name": name, "player_token": player.token},
            f"dragontable.seats.{table_id}",
            seats,
        ],
    )
    page.goto(f"{base_url}/table/{table_id}")
    page.wait_for_function("() => window.__dt?.table?.current?.view && window.__dt.table.history.complete")
    page.wait_for_timeout(900)  # the dice have settled
    return page


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(f"sqlite:///{tmp}/shots.db") as server:
        base = server.base_url
        dora_id, *dora = seated_table(base, "dorasure", {"heroes": ["ninja", "hunter", "prince"]})
        play_ws(server, dora_id, dora[0], 45, seed=11)
        dorn_id, *dorn = seated_table(base, "dorn", {"allow_surrender": False})
        play_ws(server, dorn_id, dorn[0], 160, seed=5)
        done_id, *done = seated_table(base, "dorasure", {"heroes": ["ninja", "hunter"]})
        play_ws(server, done_id, done[0], 6000, seed=7)
        Api(base, "Gwen").create_table("dorn", {})  # someone waiting for players

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for size, viewport in (("1366", LAPTOP), ("390", PHONE)):
                page = open_as(browser, viewport, base, dora_id, "ninja", dora)
                page.screenshot(path=str(OUT / f"dorasure-{size}.png"))
                if size == "1366":
                    page.click("#open-rules")
                    page.fill("#rules-search", "quest")
                    page.screenshot(path=str(OUT / f"rules-{size}.png"))
                page.goto(base + "/")
                page.wait_for_selector("#your-tables article.table-row")
                page.wait_for_selector("#recent-games article.table-row")
                page.screenshot(path=str(OUT / f"lobby-{size}.png"))
                page.context.close()

                page = open_as(browser, viewport, base, dorn_id, "heroes_1", dorn)
                page.screenshot(path=str(OUT / f"dorn-{size}.png"))
                page.context.close()
                if size == "1366":
                    keeper = open_as(browser, viewport, base, dorn_id, "keeper", dorn)
                    keeper.screenshot(path=str(OUT / f"dorn-keeper-{size}.png"))
                    keeper.context.close()

            context = browser.new_context(viewport=LAPTOP)
            page = context.new_page()
            page.goto(f"{base}/replay/{done_id}")
            page.wait_for_selector("#replay-slider")
            last = page.evaluate("() => window.__dt.replay.frames.length - 1")
            page.evaluate(f"() => window.__dt.replay.go({max(1, last * 2 // 3)})")
            time.sleep(0.5)
            page.screenshot(path=str(OUT / "replay-1366.png"))
            browser.close()
    for shot in sorted(OUT.glob("*.png")):
        print(shot.relative_to(REPO))


if __name__ == "__main__":
    main()
