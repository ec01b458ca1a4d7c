"""Views, static info and secrets: what each seat may see (issue 2 §4)."""

from __future__ import annotations

import json
import re

from backend.engine.playout import driver_rng, play_random
from backend.engine.rng import seed_from_int
from backend.games.dorasure.content import PLACE_NAMES, TERRAINS
from backend.games.dorasure.game import GAME

from ...conformance import shared_views_of_random_games
from .helpers import Table


def test_view_is_small_json_and_hides_face_down_tiles():
    s = GAME.initial_state(seed_from_int(7), {"heroes": ["ninja", "hunter", "shaman"]})
    v = GAME.view(s, "ninja")
    assert json.loads(json.dumps(v)) == v
    text = json.dumps(v)
    for m in s.mountains.values():
        assert m["quest"] not in text
    assert s.seed not in text and "legal" not in v
    assert all(m["quest"] is None and m["reward"] is None for m in v["mountains"])
    assert v["reserve_count"] == 2 and v["phase"] == "adventure" and v["current"] == "ninja"
    assert v["prompts"][0]["seat"] == "ninja" and v["prompts"][0]["text"]
    assert {h["id"] for h in v["heroes"]} == {"ninja", "hunter", "shaman"}
    assert v["heroes"][0]["attrs"]["move"] == 4
    # Nothing but a seat's own odds depends on who looks (the server sends them one view).
    assert "odds" not in v and GAME.view(s, None) == v


def test_revealed_tiles_show_and_reveal_true_shows_all(monkeypatch):
    t = Table(
        monkeypatch,
        {"ninja": "city", "hunter": "city"},
        mountains={
            "m1": "mysterious_inscriptions/dragons_lair:solved",
            "m2": "golem_guardian/treasure:revealed",
        },
    )
    v = GAME.view(t.s, None)
    m1, m2 = v["mountains"][0], v["mountains"][1]
    assert m1["quest"]["id"] == "mysterious_inscriptions" and m1["reward"] == "dragons_lair"
    assert m2["quest"]["name"] == "Golem Guardian" and m2["reward"] is None
    full = GAME.view(t.s, None, reveal=True)
    assert full["hidden"]["mountains"]["m2"]["reward"] == "treasure" and full["hidden"]["reserve"]


def test_secrets_follow_what_is_face_down(monkeypatch):
    t = Table(monkeypatch, {"ninja": "city", "hunter": "city"})
    sec = GAME.secrets(t.s, "ninja")
    assert {"golem_guardian", "Golem Guardian", "treasure", "Treasure", "dragons_lair", "evil_chimera"} <= sec
    # One Dragon's Lair face up: the id is public although the other lair is still hidden.
    t2 = Table(
        monkeypatch,
        {"ninja": "city", "hunter": "city"},
        mountains={"m1": "mysterious_inscriptions/dragons_lair:solved"},
    )
    t2.s.public = (*t2.s.public, "dragons_lair")
    sec2 = GAME.secrets(t2.s, None)
    assert "dragons_lair" not in sec2 and "mysterious_inscriptions" not in sec2 and "treasure" in sec2


def test_static_info_describes_the_board():
    info = GAME.static_info(GAME.normalize_options({"heroes": ["ninja", "hunter"]}))
    spaces = {s["id"]: s for s in info["spaces"]}
    assert len(spaces) == 45 and spaces["city_b"]["node"] == "city" and spaces["p02"]["fang_site"]
    assert info["meter"]["fire"] == [3, 6, 9, 12, 14] and info["dragon"]["claws"] == [3, 6, 8]
    assert set(info["heroes"]) == {"ninja", "hunter"} and json.loads(json.dumps(info)) == info


def test_event_texts_are_sentences(monkeypatch):
    t = Table(monkeypatch, {"hunter": "r02", "ninja": "city"}, current="hunter")
    t.start_turn(4, 5, 1)
    for e in t.events:
        assert isinstance(e.data["text"], str) and e.data["text"].endswith(".")


def test_static_info_gives_terrains_and_chart_texts_from_the_data():
    info = GAME.static_info(GAME.normalize_options({"heroes": ["ninja", "hunter"]}))
    assert info["terrains"]["forest"] == {
        "threshold": 5,
        "share": False,
        "rest": 0,
        "adventure": True,
        "enterable": True,
    }
    assert info["terrains"]["village"]["share"] and not info["terrains"]["mountain"]["enterable"]
    assert set(info["terrains"]) == set(TERRAINS)
    for chart in ("adventure", "battle"):
        for row in info["charts"][chart]:
            assert row["text"].endswith(".") and row["words"], row["id"]
    assert {r["id"]: r["text"] for r in info["charts"]["battle"]}["flanking"] == (
        "Flanking overkill: the Dragon takes 2 damage."
    )


SPACE_ID = re.compile(r"\b(?:[a-z]\d\d|m\d|city_[abc])\b")


def test_event_sentences_name_places_as_the_map_does_never_by_id():
    """Every event of many random games, over the whole board (the client's names.js ``place``
    says the same words: frontend/js/games/dorasure/names.js)."""
    assert PLACE_NAMES["r03"] == "the road south-east of Western Lake"
    assert PLACE_NAMES["city"] == "the City" and PLACE_NAMES["belk"] == "Belk"
    assert len(set(PLACE_NAMES.values())) == len(PLACE_NAMES)  # each its own
    assert not any(SPACE_ID.search(p) for p in PLACE_NAMES.values())
    steps = 0
    for seed in range(1, 9):
        record = play_random(GAME, seed, GAME.sim_options(driver_rng(seed), None, {"fang": seed % 2 == 0}))
        state = GAME.initial_state(seed_from_int(record.seed), record.options)
        for seat, action in record.actions:
            transition = GAME.apply(state, seat, action)
            for e in transition.events:
                assert not SPACE_ID.search(e.data["text"]), e.data["text"]
                steps += e.kind == "step"
            state = transition.state
    assert steps > 20


def test_views_built_at_once_are_each_viewers_own_view():
    """``views`` (the server's one build per step, engine ``SharedViews``) gives every seat and
    the spectators exactly what ``view`` gives them, in play and revealed (the shared check in
    tests/conformance.py); the seats' views share their common parts and differ only in
    ``odds``, and a viewer with no odds holds the spectators' view itself."""
    checked = 0
    steps = shared_views_of_random_games(
        GAME, (3, 4), lambda seed: GAME.sim_options(driver_rng(seed), 5, {"fang": seed % 2 == 0}), 120
    )
    for _state, _reveal, viewers, views in steps:
        first, second = views[viewers[0]], views[viewers[1]]
        assert first["heroes"] is second["heroes"]
        for viewer in viewers:
            assert (views[viewer] is views[None]) == ("odds" not in views[viewer])
            assert "odds" not in views[viewer] or views[viewer]["odds"]
        checked += 1
    assert checked > 100
