"""Exact odds (issue 14.1, backend/games/dorasure/odds.py).

Each odds function is checked twice: against brute-force enumeration of every face sequence
through the engine's own dice code (``rules/dice.py``, ``chart_row``, and the real ``apply``
for whole actions), and against a Monte-Carlo run of the real ``apply`` with the real RNG.
The Monte-Carlo seeds are fixed, so the test cannot flake; its tolerance is 5 standard errors.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest

from backend.engine.rng import Rng, seed_from_int
from backend.games.dorasure import odds
from backend.games.dorasure.content import CHARTS, QUESTS, chart_row
from backend.games.dorasure.determinise import sample_state
from backend.games.dorasure.game import GAME
from backend.games.dorasure.rules import flow
from backend.games.dorasure.rules.dice import pool_score, roll_pool, score_die

from .helpers import Table, at_action


class Deep(Exception):
    """The face sequence is longer than the enumeration goes (its mass is accounted for)."""


class _Branch(Exception):
    pass


def _scripted(prefix: list[int]) -> Callable[[], int]:
    faces = iter(prefix)

    def draw() -> int:
        f = next(faces, None)
        if f is None:
            raise _Branch
        return f

    return draw


def enumerate_faces(fn: Callable[[Callable[[], int]], Any], max_sixes: int) -> Iterator[tuple[Fraction, Any]]:
    """Every face sequence ``fn`` can draw, with its probability and ``fn``'s result; a sequence
    cut once it holds ``max_sixes`` sixes yields ``Deep``.  Each 6 adds a point and a die, and
    each chain loses at most 2 (a 1 as its main die or its last bonus die), so ``n`` dice
    holding ``cap + 2n + 1`` sixes total more than ``cap``: a caller puts that mass on top."""
    stack: list[list[int]] = [[]]
    while stack:
        prefix = stack.pop()
        draw = _scripted(prefix)

        p = Fraction(1, 6 ** len(prefix))
        try:
            yield p, fn(draw)
        except _Branch:
            if prefix.count(6) >= max_sixes:
                yield p, Deep
            else:
                stack.extend([*prefix, f] for f in range(1, 7))


def deep(dice: int, cap: int) -> int:
    return max(0, cap + 2 * dice + 1)


def brute_pool(n: int, cap: int, offset: int = 0) -> dict[int, Fraction]:
    """min(offset + score of n dice, cap) by enumeration through ``roll_pool``/``pool_score``.
    A sequence cut at ``cap - offset + 2n + 1`` sixes totals above cap."""
    out: dict[int, Fraction] = {}
    for p, r in enumerate_faces(lambda d: pool_score(roll_pool(n, d)), deep(n, cap - offset)):
        v = cap if r is Deep else min(cap, offset + r)
        out[v] = out.get(v, Fraction(0)) + p
    return out


def probs(o: dict[str, Any]) -> dict[str, Fraction]:
    return {x["id"]: Fraction(x["p"]) for x in o["outcomes"]}


# -- The distributions ---------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("cap", [-2, 0, 2, 5])
def test_pool_distribution_is_the_enumeration(n, cap):
    exact = odds.pool_dist(n, cap)
    assert sum(exact.values()) == 1
    assert {k: v for k, v in exact.items() if v} == brute_pool(n, cap)


def test_flags_shift_the_total():
    assert odds.pool_dist(2, 4, 3) == {k: v for k, v in brute_pool(2, 4, 3).items() if v}


def test_one_die_by_hand():
    # 1 → -1; 2, 3 → 0, or a 6 then a bonus 1; 4, 5 → +1 ... (content §4.1, R10).
    d = dict(odds.die_dist(2))
    assert d[-1] == Fraction(1, 6)
    assert d[0] == Fraction(2, 6) + Fraction(1, 36)
    assert sum(d.values()) == 1


@pytest.mark.parametrize("dice, combo", [(1, 1), (1, 2), (2, 2)])
def test_battle_rows_with_the_team_combo_are_the_enumeration(dice, combo):
    """§4.5–§4.6 by enumeration through ``score_die`` and ``chart_row``: a combat total of 2
    rolls one die per combo member, added to 2, read again (a second Team Combo fails)."""
    cap = odds.BATTLE_CAP

    def battle(draw: Callable[[], int]) -> str:
        tot = pool_score(roll_pool(dice, draw))
        row = chart_row("battle", tot)["id"]
        if row != "team_combo":
            return str(row)
        again = CHARTS["team_combo_base"] + sum(score_die(draw)[0] for _ in range(combo))
        row = chart_row("battle", again)["id"]
        return "combo_failed" if row == "team_combo" else str(row)

    brute: dict[str, Fraction] = {}
    for p, r in enumerate_faces(battle, deep(dice + combo, cap)):
        rid = "flanking" if r is Deep else r
        brute[rid] = brute.get(rid, Fraction(0)) + p
    _, outs = odds.combat_odds(odds.pool_dist(dice, cap), combo)
    got = {o["id"]: Fraction(o["p"]) for o in outs}
    assert {k: v for k, v in got.items() if v} == brute


def test_revival_is_any_six():
    brute = sum(p for p, r in enumerate_faces(lambda d: 6 in [d() for _ in range(3)], 4) if r)
    assert odds.revival_chance(3) == brute == 1 - Fraction(125, 216)


# -- Whole actions, from the view, against the real apply -------------------------------------


class Faces:
    """A stand-in for the state's RNG: the roll's own dice come from ``draw`` (counted chain by
    chain, so enumeration stops branching once the roll is thrown); later dice are all 2s."""

    def __init__(self, draw: Callable[[], int], chains: int, counter: int = 0) -> None:
        self.draw, self.chains, self.counter, self.open = draw, chains, counter, False

    def d6(self) -> int:
        self.counter += 1
        if self.chains <= 0 and not self.open:
            return 2
        f = self.draw()
        if not self.open:
            self.chains -= 1
        self.open = f == 6
        return f

    def below(self, n: int) -> int:
        self.counter += 1
        return 0


def outcome_of(events: list[Any]) -> str:
    """The result that matters, read from the events the real ``apply`` emitted."""
    for e in events:
        if e.kind == "adventure_result":
            return str(e.data["result"])
        if e.kind in ("quest_success", "quest_failure"):
            return "success" if e.kind == "quest_success" else "failure"
    # The first battle result is this roll's; after a Team Combo the second is its re-read.
    # (Later ones belong to the next heroes' turns, played in the same apply.)
    results = [e.data["result"] for e in events if e.kind == "battle_result"]
    if results:
        if results[0] != "team_combo":
            return str(results[0])
        return "combo_failed" if results[1] == "team_combo" else str(results[1])
    raise AssertionError(f"no result in {[e.kind for e in events]}")


def brute_apply(
    monkeypatch, state, seat, action, chains: int, max_sixes: int, top: str
) -> dict[str, Fraction]:
    """Every face sequence of the roll through the real ``apply``: the chance of each result."""
    out: dict[str, Fraction] = {}

    def run(draw: Callable[[], int]) -> str:
        monkeypatch.setattr(flow, "new_rng", lambda seed, counter: Faces(draw, chains, counter))
        return outcome_of(list(GAME.apply(state, seat, action).events))

    for p, r in enumerate_faces(run, max_sixes):
        rid = top if r is Deep else r
        out[rid] = out.get(rid, Fraction(0)) + p
    return out


def monte_carlo(monkeypatch, state, seat, action, runs: int) -> dict[str, int]:
    """The real ``apply`` with the real RNG, reseeded per run (fixed seeds: never flakes)."""
    monkeypatch.setattr(flow, "new_rng", Rng)
    counts: dict[str, int] = {}
    for i in range(runs):
        s = state.clone()
        s.seed = seed_from_int(10_000 + i).hex()
        r = outcome_of(list(GAME.apply(s, seat, action).events))
        counts[r] = counts.get(r, 0) + 1
    return counts


def assert_close(p: dict[str, Fraction], counts: dict[str, int], runs: int) -> None:
    for rid in set(p) | set(counts):
        q = float(p.get(rid, 0))
        seen = counts.get(rid, 0) / runs
        sigma = math.sqrt(max(q * (1 - q), 1e-4) / runs)
        assert abs(seen - q) <= 5 * sigma + 1e-9, (rid, q, seen)


def listed_odds(state, seat, action) -> dict[str, Any]:
    v = GAME.view(state, seat)
    found = [o for o in v["odds"] if o["action"] == action]
    assert len(found) == 1, v["odds"]
    assert GAME.legal_actions(state, seat)[found[0]["index"]] == action
    assert found[0]["outcomes"] == GAME.odds(v, seat, action)["outcomes"]
    return found[0]


def _adventure_table(monkeypatch) -> Table:
    # The Hunter in the forest (f10): Forest Danger 2 dice, no resources to spend.
    return at_action(monkeypatch, {"hunter": {"pos": "f10", "res": 0}, "ninja": "city"}, "hunter")


def test_adventure_odds_are_the_enumeration_of_apply(monkeypatch):
    t = _adventure_table(monkeypatch)
    a = {"type": "adventure"}
    o = listed_odds(t.s, "hunter", a)
    n = t.hero("hunter")["fd"]
    assert f"{n} dice" in o["title"]
    p = probs(o)
    brute = brute_apply(monkeypatch, t.s, "hunter", a, n, deep(n, 2), "adv_clean")
    assert {k: v for k, v in p.items() if v} == brute
    assert o["key"]["label"] == "adventure succeeds"
    assert Fraction(o["key"]["p"]) == p["adv_scrape"] + p["adv_clean"]


def test_adventure_odds_match_monte_carlo(monkeypatch):
    t = _adventure_table(monkeypatch)
    a = {"type": "adventure"}
    p = probs(listed_odds(t.s, "hunter", a))
    assert_close(p, monte_carlo(monkeypatch, t.s, "hunter", a, 3000), 3000)


def _quest_table(monkeypatch) -> Table:
    # The Werewolf beside m1 (Mysterious Inscriptions, Knowledge), with one flag on it.
    return at_action(
        monkeypatch,
        {"ninja": {"pos": "city", "res": 0}, "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/dragons_lair:revealed:1"},
    )


def test_quest_odds_are_the_enumeration_of_apply(monkeypatch):
    t = _quest_table(monkeypatch)
    a = {"type": "quest", "mountain": "m1", "invite": []}
    o = listed_odds(t.s, "werewolf", a)
    n = t.hero("werewolf")["knowledge"]
    target = QUESTS["mysterious_inscriptions"]["target"]
    assert o["key"]["label"] == "quest succeeds" and "1 flags" in o["title"]
    brute = brute_apply(monkeypatch, t.s, "werewolf", a, n, deep(n, target - 1), "success")
    assert {k: v for k, v in probs(o).items() if v} == brute


def test_quest_odds_match_monte_carlo(monkeypatch):
    t = _quest_table(monkeypatch)
    a = {"type": "quest", "mountain": "m1", "invite": []}
    p = probs(listed_odds(t.s, "werewolf", a))
    assert_close(p, monte_carlo(monkeypatch, t.s, "werewolf", a, 3000), 3000)


def _combat_table(monkeypatch) -> Table:
    # A battle turn of the Shaman (Combat 1) with 1 Voodoo to spend: the prompt lists 0 and 1.
    t = Table(monkeypatch, {"shaman": {"pos": "city", "res": 1}, "ninja": {"pos": "city", "res": 0}},
              current="shaman")  # fmt: skip
    t.start_battle_turn()
    assert t.prompt("shaman") == "spend"
    return t


def test_combat_spend_odds_are_the_enumeration_of_apply(monkeypatch):
    t = _combat_table(monkeypatch)
    base = t.hero("shaman")["combat"]
    for amount in (0, 1):
        a = {"type": "spend", "amount": amount}
        o = listed_odds(t.s, "shaman", a)
        n = base + amount
        assert f"{n} dice" in o["title"] or f"{n} die" in o["title"]
        brute = brute_apply(monkeypatch, t.s, "shaman", a, n, deep(n, 5), "flanking")
        # Dice after the roll (the Team Combo's) are all 2s here, so a Team Combo re-reads 2 and
        # fails: the roll's own rows match exactly, the Team Combo as a whole (its re-read is
        # enumerated in test_battle_rows_with_the_team_combo_are_the_enumeration).
        first = odds.chart_dist("battle", odds.pool_dist(n, odds.BATTLE_CAP))
        first["combo_failed"] = first.pop("team_combo")
        assert {k: v for k, v in first.items() if v} == brute
        p = probs(o)
        assert p["combo_failed"] + sum(p.values()) - p["combo_failed"] == 1
        assert all(p[rid] >= first[rid] for rid in first if rid != "combo_failed")


def test_combat_odds_match_monte_carlo(monkeypatch):
    t = _combat_table(monkeypatch)
    a = {"type": "spend", "amount": 1}
    p = probs(listed_odds(t.s, "shaman", a))
    assert_close(p, monte_carlo(monkeypatch, t.s, "shaman", a, 3000), 3000)


def _reroll_table(monkeypatch) -> Table:
    # The Grand Master's Grand Reroll after a poor adventure roll.
    t = at_action(monkeypatch, {"grand_master": {"pos": "f10", "res": 0}}, "grand_master")
    n = t.hero("grand_master")["fd"]
    t.act("grand_master", {"type": "adventure"})
    assert t.prompt("grand_master") == "spend"  # the Mana refilled at the turn's start
    t.act("grand_master", {"type": "spend", "amount": 0}, *([1] * n))
    assert t.prompt("grand_master") == "post_roll"
    return t


def test_reroll_and_keep_odds(monkeypatch):
    t = _reroll_table(monkeypatch)
    n = t.hero("grand_master")["fd"]
    keep = probs(listed_odds(t.s, "grand_master", {"type": "pass"}))
    assert keep["adv_fumble"] == 1
    a = {"type": "reroll"}
    p = probs(listed_odds(t.s, "grand_master", a))
    brute = brute_apply(monkeypatch, t.s, "grand_master", a, n, deep(n, 2), "adv_clean")
    assert {k: v for k, v in p.items() if v} == brute
    assert_close(p, monte_carlo(monkeypatch, t.s, "grand_master", a, 3000), 3000)


def test_poisoned_bullet_odds(monkeypatch):
    t = Table(monkeypatch, {"hunter": {"pos": "city", "res": 0}, "ninja": {"pos": "city", "res": 0}},
              current="hunter", relic=True)  # fmt: skip
    n = t.hero("hunter")["combat"]
    t.start_battle_turn(1, *([3] * (n - 1)))
    assert t.prompt("hunter") == "post_roll"
    a = {"type": "poison", "die": 0, "at": 0}
    o = listed_odds(t.s, "hunter", a)
    p = probs(o)
    brute = brute_apply(monkeypatch, t.s, "hunter", a, 1, deep(1, 5), "flanking")
    # Dice after the new 6's chain are 2s, so a Team Combo fails in ``brute``: its share is the
    # chance of a first total of 2, which the real re-read (2 + one die per member) then splits.
    assert sum(brute.values()) == 1
    combo = brute.pop("combo_failed", Fraction(0))
    again = odds.chart_dist(
        "battle", odds.pool_dist(odds.combo_dice(GAME.view(t.s, "hunter"), "hunter"), 5, 2)
    )
    for rid, q in p.items():
        if rid == "combo_failed":
            assert q == combo * again["team_combo"]
        else:
            assert q == brute.get(rid, 0) + combo * again[rid], rid
    assert_close(p, monte_carlo(monkeypatch, t.s, "hunter", a, 3000), 3000)


def test_absorb_shows_the_revival_roll(monkeypatch):
    t = Table(monkeypatch, {"ninja": {"pos": "city", "hp": 1, "res": 1}, "hunter": "city", "werewolf": "r01"},
              current="ninja")  # fmt: skip
    t.run_op(flow.damage({"ninja": 2}, "a test"))
    assert t.prompt("ninja") == "absorb"
    v = GAME.view(t.s, "ninja")
    by_amount = {o["action"]["amount"]: o for o in v["odds"]}
    assert set(by_amount) == {0, 1}  # absorbing 1 of 2 still leaves him at 0
    assert Fraction(by_amount[0]["key"]["p"]) == 1 - Fraction(5, 6) ** 3
    counts = {"revived": 0, "defeat": 0}
    monkeypatch.setattr(flow, "new_rng", Rng)
    for i in range(3000):
        s = t.s.clone()
        s.seed = seed_from_int(20_000 + i).hex()
        tr = GAME.apply(s, "ninja", {"type": "absorb", "amount": 0})
        counts["defeat" if tr.state.result else "revived"] += 1
    assert_close(probs(by_amount[0]), counts, 3000)


def test_tune_adds_dice_to_the_odds(monkeypatch):
    t = _quest_table(monkeypatch)
    t2 = at_action(
        monkeypatch,
        {"minstrel": {"pos": "city", "res": 2}, "werewolf": "r01"},
        "werewolf",
        mountains={"m1": "mysterious_inscriptions/dragons_lair:revealed:1"},
    )
    t2.act("werewolf", {"type": "quest", "mountain": "m1", "invite": []})
    t2.answer_defaults() if t2.prompt("werewolf") == "spend" else None
    assert t2.prompt("minstrel") == "tune"
    v = GAME.view(t2.s, "minstrel")
    one = next(o for o in v["odds"] if o["action"] == {"type": "tune", "to": "werewolf", "amount": 1})
    two = next(o for o in v["odds"] if o["action"] == {"type": "tune", "to": "werewolf", "amount": 2})
    n = t2.hero("werewolf")["knowledge"]
    target = QUESTS["mysterious_inscriptions"]["target"]
    for extra, o in ((1, one), (2, two)):
        win = sum((p for k, p in brute_pool(n + extra, target, 1).items() if k >= target), Fraction(0))
        assert Fraction(o["key"]["p"]) == win
    assert Fraction(two["key"]["p"]) > Fraction(one["key"]["p"])
    del t


# -- Only what the seat may see ------------------------------------------------------------------


def test_odds_never_depend_on_hidden_tiles(monkeypatch):
    """States the seat cannot tell apart (other face-down quests and rewards, other reserve)
    give the very same odds."""
    t = _quest_table(monkeypatch)
    monkeypatch.setattr(flow, "new_rng", Rng)
    v = GAME.view(t.s, "werewolf")
    assert v["odds"]
    for i in range(5):
        other = sample_state(v, "werewolf", Rng(seed_from_int(i), 0))
        assert any(other.mountains[m]["quest"] != t.s.mountains[m]["quest"] for m in other.mountains) or i
        assert GAME.view(other, "werewolf")["odds"] == v["odds"]


def test_spectators_and_replays_get_no_odds(monkeypatch):
    t = _quest_table(monkeypatch)
    assert "odds" not in GAME.view(t.s, None)
    assert "odds" not in GAME.view(t.s, "werewolf", reveal=True)
    assert GAME.view(t.s, "ninja") == GAME.view(t.s, None)  # owes nothing now: sees as a spectator
    assert GAME.odds(GAME.view(t.s, "werewolf"), "werewolf", {"type": "end_turn"}) is None


def test_spending_before_an_adventure_matches_the_spend_prompt(monkeypatch):
    """The act button's "spending k" lines are the spend prompt's own odds for k points."""
    t = at_action(monkeypatch, {"hunter": {"pos": "f10", "res": 2}, "ninja": "city"}, "hunter")
    o = listed_odds(t.s, "hunter", {"type": "adventure"})
    assert [x["spend"] for x in o["spending"]] == [1, 2]
    t.act("hunter", {"type": "adventure"})
    assert t.prompt("hunter") == "spend"
    for x in o["spending"]:
        at_prompt = listed_odds(t.s, "hunter", {"type": "spend", "amount": x["spend"]})
        assert at_prompt["key"]["p"] == x["p"]
    assert Fraction(o["spending"][1]["p"]) > Fraction(o["spending"][0]["p"]) > Fraction(o["key"]["p"])
