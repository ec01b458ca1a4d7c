"""The record of a live game is redacted for its requester; the full record opens at the end.

Issue 9, defect 1: during a live Dorn game the export named the item card one hero passed to
another (``{"type": "give", ..., "card": "T13"}``), which the Keeper and spectators may only
count.  The log below is a real steered Dorn game in which that happens (the first seed from
17 on whose game passes an item card; 17 with today's rules, at seq 228).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from backend.engine.playout import Playout, play_random
from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.engine.rng import Rng, commitment, seed_from_int
from backend.play.record import verify_record
from backend.store.repository import Repository
from tests.play.helpers import assert_no_leak, commit_actions

GAME = get_game("dorn")
FIRST_SEED = 17


def game_with_a_passed_card() -> tuple[int, Playout, int]:
    """A steered game in which a hero hands an item card to another, and the seq of that give."""
    for seed in range(FIRST_SEED, FIRST_SEED + 50):
        game = play_random(GAME, seed, GAME.sim_options(Rng(seed_from_int(seed)), 3, {}))
        for seq, (_seat, action) in enumerate(game.actions, start=1):
            if action["type"] == "give" and action.get("card"):
                return seed, game, seq
    raise AssertionError("no steered game passes an item card")


def player(client: TestClient, name: str) -> dict[str, str]:
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    return {"Authorization": f"Bearer {reply.json()['player_token']}"}


def export(client: TestClient, tid: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    reply = client.get(f"/api/tables/{tid}/export", headers=headers or {})
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_a_live_record_hides_a_passed_item_card_and_opens_whole_at_the_end(client: TestClient) -> None:
    seed_number, game, give_at = game_with_a_passed_card()
    seat, give = game.actions[give_at - 1]

    keeper, heroes_1, heroes_2 = (player(client, n) for n in ("Keeper", "Ann", "Bo"))
    reply = client.post("/api/tables", json={"game": "dorn", "options": game.options}, headers=keeper)
    assert reply.status_code == 201, reply.text
    table = reply.json()
    tid = table["id"]
    holders = dict(zip([s["seat"] for s in table["seats"]], (keeper, heroes_1, heroes_2), strict=True))
    for name, headers in holders.items():
        assert client.post(f"/api/tables/{tid}/join", json={"seat": name}, headers=headers).status_code == 200

    repo: Repository = client.app.state.repo
    seed = seed_from_int(seed_number)
    state = GAME.initial_state(seed, game.options)
    repo.start_table(tid, seed_hex=seed.hex(), commitment=commitment(seed), initial_hash=state_hash(GAME, state))
    state = commit_actions(GAME, repo, tid, 1, game.actions[:give_at], state)
    card = give["card"]

    for who, headers in (("a spectator", None), ("the Keeper", holders["keeper"])):
        record = export(client, tid, headers)
        assert record["complete"] is False and record["seed"] is None
        assert record["initial_hash"] is None and record["final_hash"] is None
        assert all(a["hash"] is None for a in record["actions"])
        shown = record["actions"][give_at - 1]["action"]
        assert shown == {**give, "card": None}, f"{who} was shown the passed card"
        viewer = "keeper" if headers else None
        assert_no_leak(record, GAME.secrets(state, viewer) - {""}, f"live export to {who}")
    giver_seat = seat
    other_seat = next(s for s in ("heroes_1", "heroes_2") if s != giver_seat)
    for hero_seat in (giver_seat, other_seat):  # every hero seat sees the items heroes hold
        record = export(client, tid, holders[hero_seat])
        assert record["actions"][give_at - 1]["action"]["card"] == card
        assert record["seed"] is None and record["complete"] is False

    # A token that is not valid is refused, not silently treated as a spectator's.
    reply = client.get(f"/api/tables/{tid}/export", headers={"Authorization": "Bearer nope"})
    assert reply.status_code == 401

    state = commit_actions(GAME, repo, tid, give_at + 1, game.actions[give_at:], state)
    assert GAME.outcome(state) is not None
    record = export(client, tid)
    assert record["complete"] is True and record["seed"] == seed.hex()
    assert record["actions"][give_at - 1]["action"] == give
    assert all(a["hash"] for a in record["actions"]) and record["final_hash"] == state_hash(GAME, state)
    assert verify_record(record).startswith("OK")
