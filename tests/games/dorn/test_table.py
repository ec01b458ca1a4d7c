"""What a table shows around the rules: the lobby's options schema, the static info the panels
draw with, and the Day/Night token in the view (docs/protocol.md client items 5 and 6)."""

import json

import pytest

from backend.engine.core import InvalidOptions
from backend.engine.rng import seed_from_int
from backend.games.dorn.catalog import ARTIFACTS, HEROES, TIE_BREAK, VARIANT_ORDER

from .position import GAME, act

ENGINE_ONLY = ("round_limit", "phase_action_limit", "take_back_limit")


def test_defaults_make_a_table():
    opts = GAME.normalize_options({})
    assert opts["heroes"] == TIE_BREAK[:5] and opts["split"] == [TIE_BREAK[:5]]
    assert opts["allow_surrender"] is True and all(opts[k] is None for k in ENGINE_ONLY)
    assert [s.seat for s in GAME.seats(opts)] == ["keeper", "heroes_1"]


def test_options_schema_offers_heroes_split_surrender_and_the_variants():
    schema = GAME.options_schema()
    json.dumps(schema)
    props = schema["properties"]
    variants = set(VARIANT_ORDER) | {"turn_clock"}  # content 6, one flag each, and 6.5's clock
    watching = {"side_watching", "side_watch_rounds"}  # issue 14.4 (play/sidewatch.py)
    assert (
        schema["type"] == "object"
        and set(props) == {"heroes", "split", "allow_surrender"} | variants | watching
    )
    assert all(props[v]["type"] == "boolean" and props[v]["default"] is False for v in VARIANT_ORDER)
    assert props["turn_clock"]["enum"] == [120, 180, 240, 300] and props["turn_clock"]["default"] == 180
    heroes = props["heroes"]
    assert heroes["type"] == "array" and heroes["items"]["enum"] == TIE_BREAK and len(TIE_BREAK) == 9
    assert heroes["x-labels"] == {h: HEROES[h]["name"] for h in TIE_BREAK}
    assert (heroes["minItems"], heroes["maxItems"]) == (4, 5)  # 4 with Four Heroes (6.6)
    split = props["split"]
    assert (split["x-widget"], split["x-of"], split["minItems"], split["maxItems"]) == (
        "seat-split",
        "heroes",
        1,
        5,
    )
    assert split["items"]["items"]["enum"] == TIE_BREAK
    assert props["allow_surrender"]["type"] == "boolean"
    # The schema's defaults are a table the engine accepts, and the defaults of an empty form.
    defaults = {k: p["default"] for k, p in props.items()}
    assert GAME.normalize_options(defaults) == GAME.normalize_options({})


@pytest.mark.parametrize(
    "split",
    [
        [["ragnar", "riel", "vargen", "gor", "kaerdrak"]],
        [["ragnar"], ["riel"], ["vargen"], ["gor"], ["kaerdrak"]],
        [["riel", "gor"], ["kaerdrak", "ragnar", "vargen"]],
    ],
)
def test_any_split_the_lobby_sends_is_accepted(split):
    opts = GAME.normalize_options({"heroes": ["ragnar", "riel", "vargen", "gor", "kaerdrak"], "split": split})
    assert len(GAME.seats(opts)) == 1 + len(split)
    assert sorted(h for group in opts["split"] for h in group) == sorted(opts["heroes"])


def test_six_hero_seats_are_refused():
    heroes = TIE_BREAK[:5]
    with pytest.raises(InvalidOptions) as e:
        GAME.normalize_options({"heroes": heroes, "split": [[h] for h in heroes] + [[]]})
    assert e.value.code == "bad_split"


def test_static_info_has_what_the_panels_draw_with():
    static = GAME.static_info(GAME.normalize_options({}))
    json.dumps(static)
    assert static["artifacts"]["axe"] == {"name": "Axe of the First King", "home": [2, 1]}
    assert set(static["artifacts"]) == set(ARTIFACTS)
    assert static["zorkal"]["life"] == [4, 5, 6] and static["zorkal"]["level_cost"] == [7, 9]
    assert static["level_xp"] == [0, 5, 12]
    assert (static["blood_cap"], static["chamber_fill_turns"], static["gate_needs"]) == (16, 3, 3)
    assert static["summons"] == {"day_weak": 1, "night_weak": 2, "night_strong": 1}


def test_day_night_token_flips_at_the_end_of_the_keeper_turn():
    """``day`` is the round's (Keeper turn k's) time; the token shows Day in Keeper turn 1, is
    flipped to Night at the end of it (RB K5), so the heroes' turn 1 sees Night, and it stays
    Night through Keeper turn 2."""
    s = GAME.initial_state(seed_from_int(5), GAME.normalize_options({}))
    seen = []
    while s["k"] <= 2:
        v = GAME.view(s, None)
        seen.append((v["k"], v["phase"][0], v["day"], v["day_night_token"]))
        seat = sorted(GAME.to_act(s))[0]
        s = act(s, seat, GAME.default_action(s, seat))
    assert (1, "K", True, "day") in seen and (1, "H", True, "night") in seen
    assert (2, "K", False, "night") in seen and (2, "H", False, "day") in seen
    assert {(k, side, token) for k, side, _, token in seen} == {
        (1, "K", "day"),
        (1, "H", "night"),
        (2, "K", "night"),
        (2, "H", "day"),
    }
