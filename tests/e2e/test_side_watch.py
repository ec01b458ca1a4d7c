"""Watching Dorn from a side in Chromium (issue 14.4): the watch page of a table that allows it
offers "Watch live (public)" and each side one round behind, says how far behind it is and what
it shows; a side the table does not allow falls back to the live public view, saying why."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from typing import Any

from backend.engine.registry import get_game
from backend.engine.rng import Rng, seed_from_int
from tests.play.test_dorn import GIVE_UP
from tests.server_fixtures import WsClient

from .helpers import Recorder, api_table, finish, new_player, wait_live

GAME = get_game("dorn")


def play_into_round(server: Any, table_id: str, tokens: dict[str, str], k: int, extra: int) -> int:
    """Seeded random play (never giving up) until Keeper turn ``k`` began and ``extra`` more
    actions; the live seq."""

    async def run() -> int:
        seats = {s: WsClient(server.ws_url(table_id), t) for s, t in tokens.items()}
        for c in seats.values():
            await c.connect()
        rnd, left, seq = random.Random(3), extra, 0
        while left > 0:
            ready = sorted(s for s, c in seats.items() if c.seat in c.to_act and c.legal)
            client = seats[rnd.choice(ready)]
            choices = [a for a in client.legal if a["type"] not in GIVE_UP] or client.legal
            await client.send(
                {"type": "act", "seq": client.seq, "action_id": f"e{seq}", "action": rnd.choice(choices)}
            )
            answer = await client.expect("ack", "rejected")
            assert answer["type"] == "ack", answer
            seq = answer["seq"]
            for c in seats.values():
                await c.wait_seq(seq)
            left -= client.view["k"] >= k
        for c in seats.values():
            await c.close()
        return seq

    # Playwright's sync API owns this thread's event loop: the players get their own thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def current(page: Any) -> Any:
    return page.evaluate("() => window.__dt.table.current")


def test_the_watch_page_offers_each_side_one_round_behind(browser: Any, server: Any, artifacts: Any) -> None:
    recorder = Recorder()
    options = {**GAME.sim_options(Rng(seed_from_int(4)), 2, {}), "side_watching": "both"}
    tid, tokens, _ = api_table(server.base_url, "dorn", options)
    live = play_into_round(server, tid, tokens, 2, 4)

    public = new_player(browser, recorder)
    public.goto(f"{server.base_url}/table/{tid}?watch=1")
    wait_live(public)
    choices = public.locator("#watch-side option").all_inner_texts()
    assert choices == [
        "Watch live (public)",
        "With the heroes (one round behind)",
        "With the Keeper (one round behind)",
    ]
    assert public.locator("#watch-side").input_value() == "" and public.locator("#watch-delay").count() == 0
    assert current(public)["seq"] == live and current(public)["view"]["k"] == 2

    # With the Keeper: the table as round 1 began (the setup), his Rituals in hand shown.
    public.select_option("#watch-side", "keeper")
    public.wait_for_url("**watch=keeper")
    wait_live(public)
    shown = current(public)
    assert shown["seq"] == 0 and shown["view"]["k"] == 1 and len(shown["view"]["ritual_hand"]) == 6
    delay = public.locator("#watch-delay")
    assert delay.inner_text() == "one round behind: the start of round 1 (the table is in round 2)"
    assert public.locator("#watch-side").input_value() == "keeper"
    public.screenshot(path=str(artifacts / "side-watch-keeper.png"))

    # Live again: the public view, the Rituals hidden.
    public.select_option("#watch-side", "")
    public.wait_for_url("**watch=1")
    wait_live(public)
    assert current(public)["seq"] == live and "ritual_hand" not in current(public)["view"]
    finish(recorder, server.base_url, public)


def test_a_side_the_table_does_not_allow_falls_back_to_the_live_view(
    browser: Any, server: Any, artifacts: Any
) -> None:
    recorder = Recorder()
    options = {**GAME.sim_options(Rng(seed_from_int(6)), 2, {}), "side_watching": "keeper"}
    tid, _, _ = api_table(server.base_url, "dorn", options)
    page = new_player(browser, recorder)
    page.goto(f"{server.base_url}/table/{tid}?watch=heroes")
    wait_live(page)
    refused = page.locator("#watch-refused")
    assert refused.inner_text() == "Watching live: This table lets spectators watch only with the keeper."
    assert current(page)["seq"] == 0 and current(page)["view"]["k"] == 1
    assert page.locator("#watch-side option").all_inner_texts() == [
        "Watch live (public)",
        "With the Keeper (one round behind)",
    ]
    assert page.locator("#watch-side").input_value() == "" and page.locator("#watch-delay").count() == 0
    finish(recorder, server.base_url, page)
