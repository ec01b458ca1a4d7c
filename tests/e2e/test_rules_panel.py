"""Issue 13, point 2: a Rules panel for each game, in our own words (frontend/rules/*.json),
searchable, and opened at the right section from every refusal the player reads.

The data is checked without a browser: every section is reachable, the files place only the
client's own codes (the server's refusals cite their rule themselves, issue 14.2:
backend/engine/rulerefs.py, checked by tests/engine/test_rule_refs.py), and no run of seven
words is copied from a rulebook. The browser part provokes a real refusal at a Dorasure table,
follows its link into the panel at the rule the server cited, and searches; a refusal without a
rule is placed through the page's own module."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from backend.engine import rulerefs
from backend.engine.registry import get_game

from .conftest import REPO
from .helpers import Recorder, api_table, finish, hold_seats, new_player

RULES = REPO / "frontend" / "rules"
SEEDS = Path("/work/shared/seeds")
COPY_RUN = 7  # words in a row that would make a sentence the rulebook's rather than ours


def book(name: str) -> dict[str, Any]:
    return json.loads((RULES / f"{name}.json").read_text(encoding="utf-8"))


def texts(data: dict[str, Any]) -> list[str]:
    out = [data.get("intro", "")]
    for section in data["sections"]:
        out.append(section["title"])
        for part in section["body"]:
            out.extend(part if isinstance(part, list) else [part])
    return out


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@pytest.mark.parametrize("game", ["dorn", "dorasure"])
def test_rules_data_is_whole_and_points_where_it_says(game: str) -> None:
    table, own = book("table"), book(game)
    sections = own["sections"] + table["sections"]
    ids = [s["id"] for s in sections]
    assert len(ids) == len(set(ids)), "two sections share an id"
    for section in sections:
        assert section["title"] and section["body"] and section["keywords"], section["id"]
    for code, target in {**table["refusals"], **own.get("refusals", {})}.items():
        assert target in ids, f"{code} points to no section"


def test_the_rules_files_place_only_the_clients_own_codes() -> None:
    """One source of truth: a code the server sends carries its rule (rulerefs); the files' own
    ``refusals`` place exactly the codes the client makes up itself (connection.js)."""
    own = set(re.findall(r'code: "([a-z_]+)"', (REPO / "frontend" / "js" / "connection.js").read_text()))
    assert own and set(book("table")["refusals"]) == own
    server = set(rulerefs.TABLE) | {c for g in ("dorn", "dorasure") for c in rulerefs.game_refs(get_game(g))}
    assert not own & server
    for game in ("dorn", "dorasure"):
        assert not book(game).get("refusals"), f"{game}.json places codes the server cites itself"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebooks are not on this machine")
@pytest.mark.parametrize("game", ["dorn", "dorasure"])
def test_the_rules_are_in_our_own_words(game: str) -> None:
    source = words((SEEDS / f"{game}-rulebook.txt").read_text(encoding="utf-8"))
    runs = {tuple(source[i : i + COPY_RUN]) for i in range(len(source) - COPY_RUN + 1)}
    # The turn order is a list of the heroes' names in both: a list of names is no sentence.
    heroes = {"ninja", "gladiator", "samurai", "hunter", "werewolf", "shaman", "minstrel", "magician"}
    heroes |= {"prince", "paladin", "vampire"}
    copied = []
    for text in texts(book(game)):
        w = words(text)
        for i in range(len(w) - COPY_RUN + 1):
            run = tuple(w[i : i + COPY_RUN])
            if run in runs and not set(run) <= heroes:
                copied.append(" ".join(run))
    assert not copied, copied


@pytest.mark.e2e
def test_a_refusal_opens_the_rules_at_its_section(browser, server, artifacts: Path) -> None:
    table_id, tokens, api = api_table(server.base_url, "dorasure", {"heroes": ["ninja", "hunter"]})
    rec = Recorder()
    page = new_player(browser, rec)
    hold_seats(page, server.base_url, api, table_id, tokens)

    # A real refusal: resting is not one of the first decision's options.
    page.evaluate("() => window.__dt.table.moves.send({type: 'rest'})")
    link = page.locator("#action-message .rules-link")
    link.wait_for()
    code = page.get_attribute("#action-message", "data-code")
    rule = rulerefs.refusal_rule(get_game("dorasure"), code)
    assert rule, code
    expected = rule["section"]
    assert link.get_attribute("data-section") == expected
    link.click()
    panel = page.locator("#rules-panel")
    panel.wait_for(state="visible")
    focused = page.locator(f'#rules-panel .rules-section.focus[data-section="{expected}"]')
    assert focused.count() == 1
    box, shown = panel.bounding_box(), focused.bounding_box()
    assert box and shown and box["y"] <= shown["y"] < box["y"] + box["height"], (box, shown)
    page.screenshot(path=str(artifacts / "rules-from-refusal.png"))

    # Searching: a word finds its sections, marked; nonsense finds nothing and says so.
    page.fill("#rules-search", "forest")
    found = page.eval_on_selector_all(
        "#rules-sections .rules-section", "els => els.map(e => e.dataset.section)"
    )
    assert {"movement", "adventure"} <= set(found), found
    assert page.locator("#rules-sections mark").count() >= 2
    page.fill("#rules-search", "xylophone")
    assert page.locator("#rules-sections .rules-section").count() == 0
    assert "Nothing about" in page.inner_text("#rules-count")
    page.keyboard.press("Escape")
    panel.wait_for(state="hidden")

    # The top bar's button opens the whole panel; the client's own refusal is placed by its code,
    # and one without a rule or a place (a newer game's code) is searched for by its words.
    page.click("#open-rules")
    panel.wait_for(state="visible")
    places = page.evaluate(
        """async () => {
            const r = await import('/js/rules.js');
            const dorn = await r.loadRules('dorn'), dorasure = await r.loadRules('dorasure');
            return {
                offline: r.placeOfRefusal(dorn, 'offline', 'Not connected to the table right now.'),
                parry: r.placeOfRefusal(dorn, 'a_new_parry_code', 'Each hero parries up to its parries.'),
                unknown: r.placeOfRefusal(dorasure, 'a_new_code', 'The Dragon token cannot pass the meter.'),
            };
        }"""
    )
    assert places["offline"] == {"section": "table"} and "parries" in places["parry"]["query"], places
    assert "meter" in places["unknown"]["query"], places
    finish(rec, server.base_url, page)
