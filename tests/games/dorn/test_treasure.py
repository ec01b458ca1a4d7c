"""Treasure tokens and all 15 Treasure cards, items and artifacts passing (RB Treasure Cards;
content 4.3, 5.6; rulings 33-35, 47)."""

import pytest

from backend.games.dorn.catalog import TREASURES
from backend.games.dorn.rules import summoning

from .position import GAME, act, act_events, c, edit, goto, legal, monster_at, position, seat_of


def finding(card, *, picture="I.....", origin=(9, 8), phase="H2", extra=None):
    """Riel walks onto a treasure token at (14,8) holding ``card`` on top of the deck."""
    s = position(picture, origin, phase=phase)

    def prepare(w):
        w.s["tokens"] = [c(14, 8)]
        w.s["treasure_deck"] = [card] + [x for x in w.s["treasure_deck"] if x != card]
        if extra:
            extra(w)

    s = edit(s, prepare)
    return act_events(s, seat_of(s, "riel"), {"type": "move", "hero": "riel", "to": [14, 8]})


def test_a_move_stops_at_a_token_and_entering_draws():
    s = position("I.....", (9, 8))
    s = edit(s, lambda w: w.s.update(tokens=[c(11, 8)]))
    seat = seat_of(s, "riel")
    dests = {tuple(a["to"]) for a in legal(s, seat, "move") if a["hero"] == "riel"}
    assert (11, 8) in dests and (12, 8) not in dests  # the path ends on the token
    after = act(s, seat, {"type": "move", "hero": "riel", "to": [11, 8]})
    assert after["tokens"] == [] and len(after["treasure_deck"]) == 23


@pytest.mark.parametrize("card", ["T01", "T02"])
def test_nothing_cards(card):
    s, events = finding(card)
    assert card in s["treasure_discard"] and s["heroes"]["riel"]["cards"] == []
    assert any(e.kind == "treasure_immediate" for e in events)


def test_rubble_stops_further_steps():
    s, _ = finding("T03")
    assert sum(s["heroes"]["riel"]["mv"]) == 0 and s["heroes"]["riel"]["rubble"]
    assert not [a for a in legal(s, seat_of(s, "riel"), "move") if a["hero"] == "riel"]


@pytest.mark.parametrize("card,mtype", [("T04", "rat"), ("T05", "zombie"), ("T06", "bogbeast")])
def test_hidden_monsters_are_placed_by_the_keeper_next_to_the_finder(card, mtype):
    s, _ = finding(card)
    assert GAME.to_act(s) == {"keeper"} and s["prompt"]["data"]["monster"] == mtype
    cells = [tuple(a["to"]) for a in legal(s, "keeper", "place_monster")]
    assert set(cells) == {(13, 8), (14, 9)}  # free cells next to (14,8); (15,8) is a wall
    assert GAME.default_action(s, "keeper") == {"type": "place_monster", "to": [13, 8]}
    after = act(s, "keeper", {"type": "place_monster", "to": [14, 9]})
    assert after["monsters"][monster_at(after, 14, 9)]["type"] == mtype
    assert after["prompt"] is None and seat_of(after, "riel") in GAME.to_act(after)


def test_no_hidden_monster_at_the_cap():
    def eight(w):
        for x in range(1, 9):
            summoning.place_monster(w, "rat", c(x + 5, 10), keeper_turn=False, why="t")

    s, _ = finding("T04", extra=eight)
    assert s["prompt"] is None


def holding(card, *, picture="I", origin=(9, 8), phase="H2", life=None):
    s = position(picture, origin, phase=phase)

    def give(w):
        w.s["heroes"]["riel"]["cards"] = [card]
        if life is not None:
            w.s["heroes"]["riel"]["life"] = life
        if phase == "H3":
            goto(w, "H3")

    return edit(s, give)


def use(state, **extra):
    options = [a for a in legal(state, seat_of(state, "riel"), "use_item") if a["hero"] == "riel"]
    action = next(a for a in options if all(a.get(k) == v for k, v in extra.items()))
    return act(state, seat_of(state, "riel"), action)


def test_items_go_to_the_hand_hidden_from_the_keeper():
    s, events = finding("T09")
    assert s["heroes"]["riel"]["cards"] == ["T09"]
    private = [e for e in events if e.kind == "treasure_item"]
    assert private and not private[0].visible_to("keeper") and not private[0].visible_to(None)
    assert "cards" not in GAME.view(s, "keeper")["heroes"]["riel"]
    assert GAME.view(s, seat_of(s, "riel"))["heroes"]["riel"]["cards"] == ["T09"]
    assert "T09" in GAME.secrets(s, "keeper") and "T09" not in GAME.secrets(s, seat_of(s, "riel"))


def test_medusa_mask_stops_attacks_next_keeper_turn():
    s = holding("T07", picture="I.r.....r", origin=(6, 8))
    near, far = monster_at(s, 8, 8), monster_at(s, 14, 8)
    s = use(s)
    assert s["heroes"]["riel"]["life"] == 3 and s["blood"] == 1
    assert s["monsters"][near]["no_attack"] and not s["monsters"][far]["no_attack"]
    k4 = edit(s, lambda w: goto(w, "K4"))
    assert k4["monsters"][near]["atk"] == 0 and k4["monsters"][far]["atk"] == 1


def test_scroll_of_fellowship_heals_another_hero():
    s = holding("T08")
    s = edit(s, lambda w: w.s["heroes"]["almanor"].update(life=1))
    s = use(s, target="almanor")
    assert s["heroes"]["almanor"]["life"] == 3 and s["heroes"]["riel"]["life"] == 3


@pytest.mark.parametrize("card,healed", [("T09", 1), ("T10", 2)])
def test_healing_potions(card, healed):
    s = holding(card, life=1)
    s = use(s)
    assert s["heroes"]["riel"]["life"] == 1 + healed and card in s["treasure_discard"]


def test_healing_cures_rot_and_never_exceeds_max():
    s = holding("T10", life=3)
    s = edit(s, lambda w: w.s["heroes"]["riel"].update(rot=True))
    s = use(s)
    assert s["heroes"]["riel"]["life"] == 4 and not s["heroes"]["riel"]["rot"]


def test_light_feet_only_while_moving():
    s = holding("T11")
    after = use(s)
    assert sum(after["heroes"]["riel"]["mv"]) == 9
    assert not legal(holding("T11", phase="H3"), seat_of(s, "riel"), "use_item")


def test_agility_gives_an_action():
    s = holding("T12", picture="Ir", phase="H3")
    after = use(s)
    assert after["heroes"]["riel"]["actions"] == 2


def test_magic_arrow_hits_at_magic_range_ten_without_an_action():
    s = holding("T13", picture="I.........r", origin=(4, 13), phase="H3")
    rat = monster_at(s, 14, 13)
    after = use(s, target=rat)
    assert rat not in after["monsters"] and after["heroes"]["riel"]["actions"] == 1
    assert after["heroes"]["riel"]["xp"] == 1


def test_scorching_breath_hits_figures_around_the_user():
    s = holding("T14", picture="rIEr.r", origin=(8, 8), phase="H3")
    s = edit(s, lambda w: w.s["heroes"]["eleanor"].update(life=5))
    after = use(s)
    assert monster_at(s, 8, 8) not in after["monsters"] and monster_at(s, 11, 8) not in after["monsters"]
    assert monster_at(s, 13, 8) in after["monsters"]  # 4 away
    assert after["heroes"]["eleanor"]["life"] == 4  # friendly fire
    assert after["heroes"]["riel"]["life"] == 3  # its cost only
    assert after["heroes"]["riel"]["xp"] == 2 and after["blood"] == 2


def test_scroll_of_teleport_within_four_and_picks_up_treasure():
    s = holding("T15")
    s = edit(s, lambda w: w.s.update(tokens=[c(13, 8)]))
    targets = {tuple(a["to"]) for a in legal(s, seat_of(s, "riel"), "use_item")}
    assert (13, 8) in targets and (14, 8) not in targets  # distance 5
    after = use(s, to=[13, 8])
    assert after["heroes"]["riel"]["cell"] == c(13, 8) and after["tokens"] == []


def test_one_item_per_hero_per_turn():
    s = holding("T09", life=1)
    s = edit(s, lambda w: w.s["heroes"]["riel"]["cards"].append("T09"))
    after = use(s)
    assert after["heroes"]["riel"]["cards"] == ["T09"]
    assert not legal(after, seat_of(after, "riel"), "use_item")


def test_passing_items_and_artifacts_to_adjacent_heroes_and_discarding():
    s = holding("T09", picture="IE")
    s = edit(s, lambda w: w.s["artifacts"]["axe"].update(carrier="riel", cell=None))
    seat = seat_of(s, "riel")
    s = act(s, seat, {"type": "give", "hero": "riel", "to": "eleanor", "card": "T09"})
    s = act(s, seat, {"type": "give", "hero": "riel", "to": "eleanor", "artifact": "axe"})
    assert s["heroes"]["eleanor"]["cards"] == ["T09"] and s["artifacts"]["axe"]["carrier"] == "eleanor"
    far = holding("T09", picture="I.E")
    assert not legal(far, seat_of(far, "riel"), "give")
    gone = act(far, seat_of(far, "riel"), {"type": "discard", "hero": "riel", "card": "T09"})
    assert gone["heroes"]["riel"]["cards"] == [] and "T09" in gone["treasure_discard"]


def test_every_treasure_card_is_covered():
    assert sorted(TREASURES) == [f"T{i:02d}" for i in range(1, 16)]
    assert sum(t["copies"] for t in TREASURES.values()) == 24


def test_a_give_is_told_to_everyone_with_its_taker():
    """The give's events are public and name the taker in ``to`` (the emit's audience parameter
    once took that field: the events were shown to nobody)."""
    s = holding("T09", picture="IE")
    s = edit(s, lambda w: w.s["artifacts"]["axe"].update(carrier="riel", cell=None))
    seat = seat_of(s, "riel")
    for action in (
        {"type": "give", "hero": "riel", "to": "eleanor", "card": "T09"},
        {"type": "give", "hero": "riel", "to": "eleanor", "artifact": "axe"},
    ):
        events = [e for e in GAME.apply(s, seat, action).events if e.kind in ("card_passed", "artifact_passed")]
        assert len(events) == 1 and events[0].to is None
        assert events[0].data["hero"] == "riel" and events[0].data["to"] == "eleanor"
        assert "card" not in events[0].data  # the item card stays hidden from the Keeper
