"""Watch a record (issue 14.6) in Chromium: a finished Dorasure game's record, saved as a file,
is chosen in the lobby's "Watch a record" and opens as a replay that steps like the table's own;
the same record with one hash changed is refused in words, naming its step; a link to this
server's export opens the replay too, and a live table's or another site's link is refused."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server_fixtures import Api, finish_game, start_table

from .helpers import Recorder, finish, new_player

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def finished(server: Any) -> tuple[str, dict[str, Any]]:
    """A Dorasure game played to its end over the WebSocket, and its exported record."""
    api = Api(server.base_url, "Recorder")
    table_id, tokens = start_table(api, "dorasure", {"heroes": ["ninja", "hunter"]})
    # Playwright's sync API owns this thread's event loop: the WebSocket players get their own thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, finish_game(server, table_id, tokens, seed=3)).result()
    record = httpx.get(f"{server.base_url}/api/tables/{table_id}/export").json()
    assert record["complete"] is True
    return table_id, record


def _choose(page: Any, path: Path) -> None:
    page.set_input_files("#record-file", str(path))
    page.click("#record-watch")


def test_a_record_file_opens_as_a_replay_and_a_tampered_one_is_refused(
    browser: Any, server: Any, finished: tuple[str, dict[str, Any]], tmp_path: Path, artifacts: Path
) -> None:
    table_id, record = finished
    steps = len(record["actions"])
    good = tmp_path / f"dragontable-{table_id}.json"
    good.write_text(json.dumps(record, indent=2), encoding="utf-8")
    tampered_record = json.loads(good.read_text(encoding="utf-8"))
    tampered_record["actions"][2]["hash"] = tampered_record["actions"][1]["hash"]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(tampered_record), encoding="utf-8")

    rec = Recorder()
    page = new_player(browser, rec)
    page.goto(server.base_url + "/")
    page.wait_for_selector("#watch-record #record-file")

    # One hash changed: refused in words, with its step; the lobby stays.
    _choose(page, tampered)
    page.wait_for_function("() => document.getElementById('record-error').textContent.length > 0")
    error = page.inner_text("#record-error")
    assert "Step 3 does not verify" in error, error
    assert page.evaluate("() => document.body.dataset.page") == "lobby"
    page.screenshot(path=str(artifacts / "record-import-refused.png"))

    # The file as exported: the replay page, at /record, stepping like the table's own replay.
    _choose(page, good)
    page.wait_for_selector("#replay-slider")
    assert page.url == f"{server.base_url}/record"
    assert page.inner_text("#replay-pos").strip() == f"0 / {steps}"
    assert "verified" in page.inner_text("#record-verified")
    assert page.get_attribute("#record-verified", "title").startswith(f"OK: dorasure table {table_id}")
    assert not page.is_visible("#play-from-here")  # a record's table need not be on this server
    own = httpx.get(f"{server.base_url}/api/tables/{table_id}/replay").json()
    frames = page.evaluate("() => window.__dt.replay.frames")
    assert frames == own["frames"]
    mountains = page.evaluate("() => window.__dt.renderer.view.mountains")
    assert all(m["quest"] for m in mountains)  # every face-down tile revealed
    page.click("#replay-forward")
    page.click("#replay-forward")
    assert page.inner_text("#replay-pos").strip() == f"2 / {steps}"
    page.click("#replay-back")
    assert page.evaluate("() => window.__dt.replay.index") == 1
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => window.__dt.replay.index") == 2
    page.click("#replay-last")
    assert page.evaluate("() => window.__dt.replay.index") == steps
    assert page.evaluate("() => window.__dt.renderer.view.outcome") is not None
    page.screenshot(path=str(artifacts / "record-import-replay.png"))

    # The record downloads back as it was chosen.
    with page.expect_download() as download:
        page.click("#download-record")
    assert Path(download.value.path()).read_text(encoding="utf-8") == good.read_text(encoding="utf-8")

    # Back leaves the replay for the lobby; a reload of /record shows the form on its own.
    page.go_back()
    page.wait_for_selector("#watch-record #record-file")
    page.goto(f"{server.base_url}/record")
    page.wait_for_selector("#record-title")
    finish(rec, server.base_url, page)


def test_a_link_to_this_server_s_export_opens_its_replay_and_other_links_are_refused(
    browser: Any, server: Any, finished: tuple[str, dict[str, Any]]
) -> None:
    table_id, record = finished
    live_id, _tokens = start_table(Api(server.base_url, "Host"), "dorasure", {"heroes": ["ninja", "hunter"]})
    rec = Recorder()
    page = new_player(browser, rec)
    page.goto(f"{server.base_url}/record")
    page.wait_for_selector("#record-url")

    def refused_with(link: str) -> str:
        page.fill("#record-url", link)
        page.click("#record-watch")
        page.wait_for_function("() => document.getElementById('record-error').textContent.length > 0")
        text = page.inner_text("#record-error")
        page.evaluate("() => { document.getElementById('record-error').textContent = ''; }")
        return text

    assert "not over" in refused_with(f"/api/tables/{live_id}/export")
    assert "cannot be watched as a replay" in refused_with(f"{server.base_url}/table/{live_id}")
    assert "Only this server's own links" in refused_with("https://example.org/api/tables/abc/export")
    assert "There is no such table" in refused_with("/api/tables/nosuchtable/export")
    assert "names no table" in refused_with("/lobby")

    page.fill("#record-url", f"{server.base_url}/replay/{table_id}")
    page.click("#record-watch")
    page.wait_for_selector("#replay-slider")
    assert page.evaluate("() => window.__dt.replay.frames.length") == len(record["actions"]) + 1
    assert page.evaluate("() => window.__dt.replay.table.imported") is True
    finish(rec, server.base_url, page)
