"""Issue 13, point 6, in real Chromium: the renderers' words name people, figures and places as
the players see them. Games of the real engines are fed to the renderers update by update,
as the table feeds them, and every log line the renderer writes is checked: Dorn's lines
name seats by the table's labels (never "heroes_1"), say where an attacking creature stands
and that a parried attack will not hit; Dorasure's lines name every space as the map does
(never "p05"). Every action label names monsters in full (never a token's "Zo"). On the real
server, a mountain clicked while moving is answered with the rule that forbids it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from backend.engine.rng import Rng, seed_from_int
from backend.games.dorasure.game import GAME as DORASURE
from backend.games.dorn.game import GAME as DORN

from .helpers import Recorder, finish, repo_page, seq_of
from .test_renderer_texts import seat_page, seated_table

pytestmark = pytest.mark.e2e

TOKEN_LETTERS = re.compile(r"\b(Zo|Ra|Bo|Sk|Gh|Mu|Va|Gn)\b")


def _dorn_updates() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A Keeper seat and two hero seats playing at random until attacks are declared and parried."""
    rng = random.Random(9)
    options = DORN.normalize_options({"hero_seats": 2})
    state = DORN.initial_state(bytes([6]) * 32, options)
    updates: list[dict[str, Any]] = []
    seen: set[str] = set()
    for _ in range(3000):
        seats = sorted(DORN.to_act(state))
        if (
            not seats
            or DORN.outcome(state) is not None
            or {"attack_declared", "parry"} <= seen
            and len(updates) > 200
        ):
            break
        seat = rng.choice(seats)
        legal = DORN.legal_actions(state, seat)
        doing = [
            a for a in legal if a["type"] not in ("done", "surrender", "propose_surrender", "take_back_done")
        ]
        if not doing and all(a["type"] == "take_back_done" for a in legal):
            continue
        # Heroes walk towards the monsters; the Keeper attacks whenever it can.
        heading = [a for a in doing if a["type"] in ("attack", "parry", "move")]
        pool = heading if heading and rng.random() < 0.9 else doing
        action = rng.choice(pool) if pool and rng.random() < 0.9 else {"type": "done"}
        before = DORN.view(state, None)
        transition = DORN.apply(state, seat, action if action in legal else legal[0])
        state = transition.state
        events = [e.as_dict() for e in transition.events]
        seen |= {e["kind"] for e in events}
        updates.append(
            {
                "view": before,
                "events": events,
                "legal": DORN.legal_actions(state, sorted(DORN.to_act(state))[0])
                if DORN.to_act(state)
                else [],
            }
        )
    return DORN.static_info(options), updates


def _dorasure_updates() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    options = DORASURE.normalize_options({"heroes": ["samurai", "hunter", "ninja"], "fang": True})
    state = DORASURE.initial_state(bytes([8]) * 32, options)
    steer, pick = Rng(seed_from_int(4)), random.Random(4)
    updates = []
    for _ in range(300):
        seats = sorted(DORASURE.to_act(state))
        if not seats or DORASURE.outcome(state) is not None:
            break
        seat = pick.choice(seats)
        before = DORASURE.view(state, None)
        transition = DORASURE.apply(
            state, seat, DORASURE.sim_choice(state, seat, DORASURE.legal_actions(state, seat), steer)
        )
        state = transition.state
        updates.append({"view": before, "events": [e.as_dict() for e in transition.events], "legal": []})
    return DORASURE.static_info(options), updates


FEED = """async ({ game, stat, updates, seats }) => {
    const { createRenderer } = await import(`/frontend/js/games/${game}.js`);
    const wrap = document.createElement('div');
    wrap.style.width = '960px';
    const canvas = document.createElement('canvas');
    wrap.append(canvas);
    document.body.append(wrap);
    const r = createRenderer({ canvas, static: stat, table: { seats } });
    const lines = [];
    const labels = [];
    for (const u of updates) {
        // The table describes an update's events while the renderer still shows the view before it.
        r.setState(u.view, { legal: [], seat: null });
        for (const ev of u.events) lines.push({ kind: ev.kind, raw: ev.text || '', line: r.describeEvent(ev) });
        r.setState(u.view, { legal: u.legal, seat: null });
        for (const a of u.legal) labels.push(r.actionLabel(a));
    }
    return { lines, labels };
}"""


def _feed(
    browser: Any, game: str, stat: dict[str, Any], updates: list[dict[str, Any]], seats: list[dict[str, Any]]
) -> dict[str, Any]:
    page = repo_page(browser, f"{game}-words.test", viewport={"width": 1366, "height": 768})
    out = page.evaluate(
        FEED, {"game": game, "stat": json.loads(json.dumps(stat)), "updates": updates, "seats": seats}
    )
    page.close()
    assert page.js_errors == []
    return out


def test_dorn_log_lines_and_labels(browser: Any) -> None:
    stat, updates = _dorn_updates()
    seats = [
        {"seat": "keeper", "label": "Zorkal, the Dornkeeper"},
        {"seat": "heroes_1", "label": "Almanor, Eleanor, Guelin"},
        {"seat": "heroes_2", "label": "Choros, Gor"},
    ]
    out = _feed(browser, "dorn", stat, updates, seats)
    lines = out["lines"]
    kinds = {x["kind"] for x in lines}
    assert {"attack_declared", "parry", "seat_done"} <= kinds, kinds
    for x in lines:
        assert not re.search(r"\bheroes_\d\b", x["line"]), x
        if x["kind"] == "attack_declared":
            assert re.search(r" at \(\d+,\d+\) attacks ", x["line"]), x
        if x["kind"] == "parry":
            assert x["line"].endswith("that attack will not hit."), x
    # The engine names a seat by its heroes (backend/games/dorn/state.py seat_words).
    done = [x["line"] for x in lines if x["kind"] == "seat_done"]
    assert done and all(re.match(r"The player of [A-Z]\w+( and |, )", line) for line in done), done
    assert out["labels"] and not [label for label in out["labels"] if TOKEN_LETTERS.search(label)]


def test_dorasure_log_lines_name_places(browser: Any) -> None:
    stat, updates = _dorasure_updates()
    out = _feed(browser, "dorasure", stat, updates, [])
    # The engine names places as the map does (content.PLACE_NAMES), and so does every line
    # the log shows: no space id, and unnamed road spaces by where they lie.
    for x in out["lines"]:
        assert not re.search(r"\b[a-z]\d\d\b", x["raw"]), x
        assert not re.search(r"\b[a-z]\d\d\b", x["line"]), x
    assert any(re.search(r"the (road|path|way) .* of ", x["line"]) for x in out["lines"]), out["lines"][:5]


def test_a_mountain_clicked_while_moving_gets_the_rule(browser: Any, server: Any) -> None:
    """The server's refusal names the rule: the click is asked as a step, whose refusal says why."""
    recorder = Recorder()
    table_id, held = seated_table(
        server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]}, {"Ann": ["ninja", "hunter"]}
    )
    page = seat_page(browser, recorder, server.base_url, table_id, *held["Ann"], name="Ann")
    hero = page.evaluate("() => window.__dt.table.current.view.current")
    page.click(f'button.seat-tab[data-seat="{hero}"]')
    before = seq_of(page)
    point = page.evaluate("() => window.__dt.spaceToPixel('m1')")
    page.locator("#board").click(position={"x": point["x"], "y": point["y"]})
    page.wait_for_selector("#action-message[data-kind=error]")
    assert "Mountain spaces can never be entered" in page.inner_text("#action-message")
    assert seq_of(page) == before
    finish(recorder, server.base_url, page)
