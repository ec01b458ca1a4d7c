"""Movement and blocking, trails, the Gate, teleports (RB Movement, Teleports; content 1.6,
1.7.4, 5.4; rulings 13, 15, 16, 44, 45)."""

import pytest

from backend.engine.core import IllegalAction
from backend.games.dorn.board import BOARD
from backend.games.dorn.rules import summoning

from .position import GAME, act, at, c, edit, goto, legal, monster_at, position, seat_of

HALL = """
.........
##..#..#.
.#.......
"""  # (6,8)-(14,10): the Central Hall with its pillars at (10,9) and (13,9)


def dests(state, hero):
    return {tuple(a["to"]) for a in legal(state, seat_of(state, hero), "move") if a["hero"] == hero}


def test_heroes_move_orthogonally_up_to_their_move():
    s = position(HALL.replace("..#..#.\n", "..#..#.\n", 1).replace(".........", "R........", 1), (6, 8))
    # Ragnar L1 Move 6 from (6,8): the far end of row 8 is 8 steps away, out of reach.
    d = dests(s, "ragnar")
    assert (12, 8) in d and (13, 8) not in d
    assert (8, 10) in d  # (6,8)->(8,8)->(8,9)->(8,10): 4 steps round the wall at (7,9)
    assert (7, 9) not in d  # wall
    s2 = act(s, seat_of(s, "ragnar"), {"type": "move", "hero": "ragnar", "to": [9, 8]})
    assert s2["heroes"]["ragnar"]["cell"] == c(9, 8)
    # Interrupted movement resumes with the unused allowance (ruling 45).
    assert sum(s2["heroes"]["ragnar"]["mv"]) == 3
    assert (12, 8) in dests(s2, "ragnar") and (13, 8) not in dests(s2, "ragnar")


def test_no_passing_through_monsters_or_heroes_in_the_dungeon():
    s = position(
        """
        R.r......
        ##..#..#.
        .#.......
        """,
        (6, 8),
    )
    d = dests(s, "ragnar")
    assert (8, 8) not in d and (9, 8) not in d  # the rat blocks the only way east
    s = position(
        """
        R.E......
        ##..#..#.
        .#.......
        """,
        (6, 8),
    )
    d = dests(s, "ragnar")
    assert (8, 8) not in d  # may not stop on a hero
    assert (9, 8) not in d  # nor pass through one off the trail (RB)
    assert (7, 8) in d


def test_heroes_pass_heroes_on_the_trail_but_do_not_stop_there():
    s = position("RE..", (6, 17))
    d = dests(s, "ragnar")
    assert (8, 17) in d  # (6,17)->(7,17)->(8,17) through Eleanor (ruling 15)
    assert (7, 17) not in d


def test_argos_holds_any_number_of_heroes():
    s = position()
    d = dests(s, "almanor")
    occupied = [h["cell"] for hid, h in s["heroes"].items() if hid != "almanor"]
    assert any(c(*xy) in occupied for xy in d)


def test_monsters_never_enter_the_trail():
    s = position("r", (6, 16), phase="K3")
    dests_ = {tuple(a["to"]) for a in legal(s, "keeper", "move")}
    assert (6, 15) in dests_ and (6, 17) not in dests_  # (6,17) below is trail
    assert all(BOARD.terrain[c(*xy)] not in "~Ha" for xy in dests_)


def test_closed_gate_blocks_everyone_and_opens_for_good():
    s = position("R", (11, 3), phase="H2")
    assert (11, 2) not in dests(s, "ragnar")
    k = position("z", (12, 3), phase="K3")
    assert (12, 2) not in {tuple(a["to"]) for a in legal(k, "keeper", "move")}
    opened = edit(s, lambda w: w.s.update(gate=True))
    assert (11, 2) in dests(opened, "ragnar") and (12, 1) in dests(opened, "ragnar")
    assert (11, 1) not in dests(opened, "ragnar")  # Zorkal stands there


def test_teleport_pad_occupies_both_cells_and_links_walking():
    s = position("R", (6, 5))
    s = act(s, seat_of(s, "ragnar"), {"type": "move", "hero": "ragnar", "to": [5, 5]})
    assert at(s, 5, 5) == "ragnar" and at(s, 14, 14) == "ragnar"
    # The next path may leave from the other pad cell (pad 2b is at (14,14)).
    d = dests(s, "ragnar")
    assert (13, 14) in d and (14, 13) in d
    assert GAME.view(s, None)["heroes"]["ragnar"]["cell"] == [5, 5]


def test_a_monster_on_a_pad_is_adjacent_through_either_cell():
    # Ruling 13: a rat on TP2b (14,14) is adjacent to a hero at (6,5), beside TP2a (5,5).
    s = position("R", (6, 5), phase="K4")
    s = edit(s, lambda w: summoning.place_monster(w, "rat", c(14, 14), keeper_turn=False, why="test"))
    s = edit(s, lambda w: goto(w, "K4"))
    assert {"type": "attack", "figure": monster_at(s, 14, 14), "target": "ragnar"} in legal(
        s, "keeper", "attack"
    )


def test_nobody_enters_a_pad_whose_other_cell_is_taken():
    s = position("R", (6, 5))
    s = edit(s, lambda w: summoning.place_monster(w, "rat", c(14, 14), keeper_turn=False, why="test"))
    assert (5, 5) not in dests(s, "ragnar")


def test_monsters_move_in_resumable_paths_within_their_move():
    s = position("r........", (6, 8), phase="K3")
    rat = monster_at(s, 6, 8)
    moves = {tuple(a["to"]) for a in legal(s, "keeper", "move") if a["figure"] == rat}
    assert (13, 8) in moves and (14, 8) not in moves  # Move 7 along row 8
    assert (7, 8) in moves  # a one-step path is a path too
    # Interrupted and resumed (ruling 45): 3 steps, then another creature could move, then 4 more.
    s = act(s, "keeper", {"type": "move", "figure": rat, "to": [9, 8]})
    assert s["monsters"][rat]["mv"] == 4
    with pytest.raises(IllegalAction) as e:  # 5 steps on, 4 left
        GAME.validate(s, "keeper", {"type": "move", "figure": rat, "to": [14, 8]})
    assert "Move they have left" in e.value.message
    s = act(s, "keeper", {"type": "move", "figure": rat, "to": [13, 8]})
    assert s["monsters"][rat]["cell"] == c(13, 8)
    assert s["phase"] != "K3"  # Move 7 used up and nobody else to move: the step ends by itself


def test_monster_paths_go_round_figures_never_through_them():
    s = position("r.z..", (8, 8), phase="K3")
    rat = monster_at(s, 8, 8)
    moves = {tuple(a["to"]): a for a in legal(s, "keeper", "move") if a["figure"] == rat}
    assert (10, 8) not in moves  # the zombie's cell
    # (11,8) lies 3 steps away past the zombie; round it (and the pillar at (10,9)) through
    # row 10 it takes 7: (9,8) (9,9) (9,10) (10,10) (11,10) (11,9) (11,8).
    s2 = act(s, "keeper", moves[(11, 8)])
    assert s2["monsters"][rat]["mv"] == 0


def test_a_monster_path_through_a_pad_leaves_from_the_other_cell():
    # Pad 2 links (5,5) and (14,14): a rat at (6,5) steps on (1 step) and off at (13,14) (2 steps).
    s = position("r", (6, 5), phase="K3")
    rat = monster_at(s, 6, 5)
    moves = {tuple(a["to"]) for a in legal(s, "keeper", "move") if a["figure"] == rat}
    assert (5, 5) in moves and (13, 14) in moves and (14, 14) not in moves
    s = act(s, "keeper", {"type": "move", "figure": rat, "to": [13, 14]})
    assert s["monsters"][rat]["mv"] == 7 - 2


def test_illegal_move_names_the_rule():
    s = position("R", (6, 8))
    with pytest.raises(IllegalAction) as e:
        GAME.validate(s, seat_of(s, "ragnar"), {"type": "move", "hero": "ragnar", "to": [7, 9]})
    assert "orthogonally" in e.value.message
