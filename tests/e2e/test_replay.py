"""A finished Dorasure game (played to the end by random legal actions over the
WebSocket) opens in the replay page: forward, back and jump through every action,
every face-down tile revealed, and the game record downloads and parses."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from pathlib import Path

import pytest

from tests.server_fixtures import Api, finish_game, start_table

from .helpers import Recorder, canvas_pixels, finish, new_player

pytestmark = pytest.mark.e2e


def test_replay_steps_through_a_finished_game(browser, server, artifacts: Path) -> None:
    api = Api(server.base_url, "Replayer")
    table_id, tokens = start_table(api, "dorasure", {"heroes": ["ninja", "hunter"]})
    # Playwright's sync API owns this thread's event loop: the WebSocket players get their own thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        last_seq = pool.submit(asyncio.run, finish_game(server, table_id, tokens, seed=7)).result()

    rec = Recorder()
    page = new_player(browser, rec)

    # The finished table page points to the replay.
    page.goto(f"{server.base_url}/table/{table_id}")
    page.wait_for_selector("#open-replay")
    page.screenshot(path=str(artifacts / "dorasure-finished.png"))
    page.click("#open-replay")
    page.wait_for_url(f"**/replay/{table_id}")
    page.wait_for_selector("#replay-slider")
    frames = page.evaluate("() => window.__dt.replay.frames.length")
    assert frames == last_seq + 1
    assert page.inner_text("#replay-pos").strip() == f"0 / {last_seq}"

    # Frame 0: every quest tile is face down yet shown with its name (revealed replay).
    mountains = page.evaluate("() => window.__dt.renderer.view.mountains")
    assert all(m["state"] == "hidden" and m["quest"] for m in mountains)
    point = page.evaluate(
        """() => {
            const r = window.__dt.renderer, s = r.byId.get('m3'), p = r.hexToPixel(s.q, s.r);
            return {x: p.x - r.layout.size * 0.6, y: p.y};
        }"""
    )
    tile = canvas_pixels(page, [point])[0]
    assert abs(tile[0] - 0x8E) < 30 and tile[1] < 80, tile  # the red back of a face-down quest tile

    page.click("#replay-forward")
    page.click("#replay-forward")
    assert page.inner_text("#replay-pos").strip() == f"2 / {last_seq}"
    page.click("#replay-back")
    assert page.evaluate("() => window.__dt.replay.index") == 1
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.__dt.replay.index") == 2
    page.click(f'.replay-step[data-index="{min(5, last_seq)}"]')
    assert page.evaluate("() => window.__dt.replay.index") == min(5, last_seq)
    page.click("#replay-last")
    assert page.evaluate("() => window.__dt.replay.index") == last_seq
    assert page.evaluate("() => window.__dt.renderer.view.outcome") is not None
    page.screenshot(path=str(artifacts / "dorasure-replay.png"))

    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["format"] == "dragontable-record/1"
    assert len(record["actions"]) == last_seq and record["seed"]

    finish(rec, server.base_url, page)
