"""Obstacles: cave-ins and barriers (content 1.6, 1.7, 4.1 R11, 6.3; rulings V1-V3 in
docs/rules/dorn.md).  Every kind of path an obstacle blocks, the one it does not (teleports),
where one may be placed, and how it is broken."""

from backend.games.dorn.board import BOARD
from backend.games.dorn.rules import obstacles, reach, summoning
from backend.games.dorn.rules.movement import creature_destinations, hero_destinations, hero_may_stop
from backend.games.dorn.state import Work

from .position import c, edit, legal, position, seat_of

HALL = """
.........
##..#..#.
.#.......
"""  # (6,8)-(14,10): the Central Hall with its pillars at (10,9) and (13,9)


def put(state: dict, *cells: tuple[int, int], kind: str = obstacles.BARRIER) -> dict:
    return edit(state, lambda w: [obstacles.place(w, c(*xy), kind) for xy in cells])


def hero_dests(state: dict, hero: str) -> dict[tuple[int, int], int]:
    return {BOARD.xy(k): v for k, v in hero_destinations(Work(state, copy=False), hero).items()}


def test_placement_follows_content_1_6_and_r11():
    s = position("R", (6, 8))
    w = Work(s)
    assert obstacles.can_place(w, c(10, 8))  # open floor, nobody near
    assert not obstacles.can_place(w, c(7, 8))  # next to Ragnar (R11: "nor adjacent to any hero")
    assert not obstacles.can_place(w, c(6, 8))  # on him
    assert not obstacles.can_place(w, c(10, 9))  # a pillar (wall)
    assert not obstacles.can_place(w, c(5, 5)) and not obstacles.can_place(w, c(14, 14))  # pads
    assert not any(obstacles.can_place(w, cell) for cell in BOARD.chamber)  # ruling 28
    assert not obstacles.can_place(w, c(6, 17))  # the trail is no legal monster cell
    summoning.place_monster(w, "rat", c(12, 8), keeper_turn=False, why="test")
    assert not obstacles.can_place(w, c(12, 8))  # a figure
    home = BOARD.artifact_homes["A2"]
    assert not obstacles.can_place(w, home)  # an artifact lies there (a token)
    w.s["tokens"] = [c(11, 10)]
    assert not obstacles.can_place(w, c(11, 10))  # a treasure token
    assert c(10, 8) in obstacles.placeable(w) and c(7, 8) not in obstacles.placeable(w)


def test_six_tokens_in_all_and_a_broken_one_returns_to_the_supply():
    s = position("R", (6, 8))
    cells = [(9, 8), (11, 8), (14, 8), (8, 10), (11, 10), (14, 10)]
    s = put(s, *cells[:4], kind=obstacles.CAVE_IN)
    s = put(s, *cells[4:])
    w = Work(s)
    assert len(s["obstacles"]) == 6 and obstacles.supply(w) == 0
    assert not obstacles.can_place(w, c(12, 8)) and obstacles.placeable(w) == []
    assert obstacles.place(w, c(12, 8), obstacles.BARRIER) is None  # "as many as fit" (R11)
    oid = obstacles.at(w, c(9, 8))
    assert oid is not None
    assert obstacles.damage(w, oid, 3, "ragnar")
    assert obstacles.supply(w) == 1 and obstacles.can_place(w, c(12, 8))  # ruling V2


def test_three_life_no_xp_no_blood_and_worded_events():
    s = put(position("R", (6, 8)), (10, 8))
    w = Work(s)
    (oid,) = s["obstacles"]
    assert s["obstacles"][oid] == {"cell": c(10, 8), "life": 3, "kind": "barrier"}
    assert not obstacles.damage(w, oid, 1, "ragnar", "Rapier")
    assert w.s["obstacles"][oid]["life"] == 2
    assert obstacles.damage(w, oid, 2, "ragnar")
    assert w.s["obstacles"] == {}
    assert w.s["heroes"]["ragnar"]["xp"] == 0 and w.s["blood"] == s["blood"]  # content 1.6
    texts = [e.data["text"] for e in w.events]
    assert texts == [
        "The barrier at (10,8) is hit by Ragnar (Rapier): 2 life left.",
        "The barrier at (10,8) is broken by Ragnar: the way is open.",
    ]
    assert [e.kind for e in w.events] == ["obstacle_hurt", "obstacle_removed"]


def test_obstacle_blocks_hero_steps_and_paths_go_round():
    s = position(HALL.replace(".........", "R........", 1), (6, 8))
    assert hero_dests(s, "ragnar")[(9, 8)] == 3
    s = put(s, (8, 8))
    d = hero_dests(s, "ragnar")
    assert (8, 8) not in d  # never entered, never a stop
    # (7,9) and (7,10) are walls: (8,8) was the only way east, so the hall is shut off.
    assert (7, 8) in d and not any(x >= 8 for x, y in d)
    assert d[(5, 8)] == 1 and d[(3, 8)] == 3  # the way west is as before


def test_obstacle_blocks_creature_steps():
    s = position("r........", (6, 8), phase="K3")
    rat = next(iter(s["monsters"]))
    before = {BOARD.xy(k): v for k, v in creature_destinations(Work(s), rat, c(6, 8), 7).items()}
    assert before[(9, 8)] == 3
    s = put(s, (8, 8))
    after = {BOARD.xy(k): v for k, v in creature_destinations(Work(s), rat, c(6, 8), 7).items()}
    # The hall is shut off (what lies beyond pad 1 is reached through (2,10), as before).
    assert (7, 8) in after and not any(8 <= x <= 14 and 8 <= y <= 10 for x, y in after)
    moves = {tuple(a["to"]) for a in legal(s, "keeper", "move")}
    assert (7, 8) in moves and (8, 8) not in moves and (9, 8) not in moves


def test_obstacle_blocks_sight_for_both_sides_and_the_pike_middle():
    s = put(position("I...r", (8, 8), phase="H3"), (10, 8))
    w = Work(s)
    assert not reach.shot_in_range(w, c(8, 8), c(12, 8), 4, True)  # ruling 3, 4
    assert not reach.shot_in_range(w, c(12, 8), c(8, 8), 4, False)  # a gorgon's shot too
    assert not reach.pike_reach(w, c(9, 8), c(11, 8), True)  # content 1.7.5
    assert reach.pike_reach(w, c(11, 8), c(11, 10), True)
    rat = next(iter(s["monsters"]))
    assert all(a["target"] != rat for a in legal(s, seat_of(s, "riel"), "attack"))  # hidden by it


def test_obstacle_blocks_magic_paths_which_may_still_end_on_it():
    s = position("A", (8, 8), phase="H3")
    w = Work(s)
    assert reach.magic_distance(w, c(8, 8), c(11, 8), 3) == 3
    s = put(s, (10, 8))
    w = Work(s)
    assert reach.magic_distance(w, c(8, 8), c(11, 8), 3) is None  # round it is longer than 3
    assert reach.magic_distance(w, c(8, 8), c(11, 8), 20) == 7  # round the pillar (10,9)
    assert reach.magic_distance(w, c(8, 8), c(10, 8), 3) == 2  # the obstacle itself is a target


def test_area_spread_reaches_an_obstacle_but_not_past_it():
    s = put(position("A", (8, 8)), (9, 8))
    dist = reach.area_distances(Work(s), c(8, 8), 3)
    assert dist[c(9, 8)] == 1  # reached (and hit, content 1.7.2)
    assert c(10, 8) not in dist  # (9,8) is the only way east within 3: the spread stops there


def test_teleports_pass_over_obstacles_but_never_land_on_one():
    s = put(position("A", (8, 8)), (9, 8))
    w = Work(s)
    dist = reach.teleport_distances(w, c(8, 8), 3)
    assert dist[c(10, 8)] == 2  # straight over the obstacle
    assert not hero_may_stop(w, "almanor", c(9, 8))


def test_targets_for_each_reach_kind():
    s = put(position("A", (8, 8), phase="H3"), (9, 8), (12, 8))
    w = Work(s)
    near = obstacles.at(w, c(9, 8))
    far = obstacles.at(w, c(12, 8))
    assert obstacles.targets(w, c(8, 8), "adjacent") == [near]
    assert obstacles.targets(w, c(10, 8), "pike") == [far]
    assert obstacles.targets(w, c(8, 8), "magic", 3) == [near]  # the near one hides the far one
    assert obstacles.targets(w, c(8, 8), "shot", 4) == [near]
    assert sorted(obstacles.targets(w, c(11, 8), "area", 1)) == sorted([far])


def test_summoning_and_hidden_monsters_skip_an_obstacle_cell():
    s = position("")
    zone = BOARD.zones["sewers"]
    s = put(s, BOARD.xy(zone[0]))
    assert zone[0] not in summoning.weak_cells(Work(s), "rat")
