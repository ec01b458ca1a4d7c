"""A Dorn game forked through REST (issue 14.5), in-process: the original is played by the steered
random driver and committed to the log as the server would, forked a third of the way in,
started, played on to its end from the fork's own seed, and its record verifies; the fork's
decks are shuffled again while every seat sees what it saw, and the listing marks it a fork."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from backend.engine.playout import driver_rng, play_random
from backend.engine.registry import get_game
from backend.engine.replay import state_hash
from backend.engine.rng import commitment, seed_from_int
from backend.play.record import verify_record
from backend.store.repository import Repository
from tests.play.helpers import commit_actions

GAME = get_game("dorn")
SEED = 21


def player(client: TestClient, name: str) -> dict[str, str]:
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    return {"Authorization": f"Bearer {reply.json()['player_token']}"}


def seat_everyone(client: TestClient, table: dict[str, Any], headers: dict[str, str]) -> None:
    for seat in table["seats"]:
        reply = client.post(f"/api/tables/{table['id']}/join", json={"seat": seat["seat"]}, headers=headers)
        assert reply.status_code == 200, reply.text


def play_on(state: Any, limit: int = 20_000) -> list[tuple[str, dict[str, Any]]]:
    """The steered random driver's actions from ``state`` to the end of the game."""
    rng = driver_rng(SEED + 1)
    out = []
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return out
        seats = sorted(GAME.to_act(state))
        seat = seats[rng.below(len(seats))]
        action = GAME.sim_choice(state, seat, GAME.legal_actions(state, seat), rng)
        state = GAME.apply(state, seat, action).state
        out.append((seat, action))
    raise AssertionError("the fork did not end")


def test_a_dorn_fork_plays_to_its_end_and_verifies(client: TestClient) -> None:
    repo: Repository = client.app.state.repo
    host = player(client, "Host")
    options = GAME.sim_options(driver_rng(SEED), 2, {})
    game = play_random(GAME, SEED, options)
    reply = client.post("/api/tables", json={"game": "dorn", "options": game.options}, headers=host)
    original = reply.json()
    seat_everyone(client, original, host)
    seed = seed_from_int(SEED)
    start = GAME.initial_state(seed, game.options)
    repo.start_table(
        original["id"], seed_hex=seed.hex(), commitment=commitment(seed), initial_hash=state_hash(GAME, start)
    )
    states = [start]
    for seat, action in game.actions:
        states.append(GAME.apply(states[-1], seat, action).state)
    commit_actions(GAME, repo, original["id"], 1, game.actions, start)

    step = len(game.actions) // 3
    reply = client.post(
        f"/api/tables/{original['id']}/fork", json={"seq": step, "visibility": "public"}, headers=host
    )
    assert reply.status_code == 201, reply.text
    fork = reply.json()
    assert fork["origin"] == {"table": original["id"], "seq": step, "hash": state_hash(GAME, states[step])}
    assert fork["visibility"] == "public"
    listed = client.get("/api/tables", params={"status": "open"}).json()
    assert next(t for t in listed if t["id"] == fork["id"])["origin"]["seq"] == step  # the listing says so
    seat_everyone(client, fork, host)
    assert client.post(f"/api/tables/{fork['id']}/start", headers=host).status_code == 200

    record = repo.get_table(fork["id"], with_seed=True)
    assert record.seed_hex and record.seed_hex != seed.hex()
    forked = GAME.fork_state(states[step], bytes.fromhex(record.seed_hex))
    assert record.initial_hash == state_hash(GAME, forked)
    assert forked["treasure_deck"] != states[step]["treasure_deck"]
    for seat in [*(s["seat"] for s in fork["seats"]), None]:
        assert GAME.view(forked, seat) == GAME.view(states[step], seat)

    actions = play_on(forked)
    commit_actions(GAME, repo, fork["id"], 1, actions, forked)
    done = client.get(f"/api/tables/{fork['id']}/export").json()
    assert done["complete"] and done["origin"] == fork["origin"]
    assert verify_record(done).startswith(
        f"OK: dorn table {fork['id']} (a fork of table {original['id']} at step {step}"
    )
    # The original's record names the same state at that step: the fork's origin checks against it.
    original_record = client.get(f"/api/tables/{original['id']}/export").json()
    assert original_record["actions"][step - 1]["hash"] == fork["origin"]["hash"]
