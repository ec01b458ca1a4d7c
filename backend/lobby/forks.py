"""Play from here (issue 14.5): a finished table forked at one of its steps.

``POST /api/tables/{id}/fork {"seq": N}`` opens a new table of the same game, options and seats,
whose state is the original's after action N (0: the setup) with everything random from then on
drawn from the fork's own seed.  The new table is open like any other: its host seats people or
bots and starts it, and the start draws the secret seed and publishes its commitment
(routes.start, play/record.py ``start_state``).  The table stores where it came from
(``origin``: table, seq, hash of the state there) and that state's canonical text
(``origin_state``), so its record verifies on its own (docs/protocol.md "Forks").
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from backend.engine.core import Fork, Game, IllegalAction
from backend.engine.replay import ReplayMismatch, hash_and_text, replay_log
from backend.play.record import ForkBroken, start_state
from backend.store.repository import LoggedAction, TableRecord

from .errors import ApiError
from .limits import BoundedRoute
from .routes import ERRORS, PlayerDep, RepoDep, TablesDep, _game, _out, _table
from .schemas import ForkIn, TableOut

router = APIRouter(responses=ERRORS, route_class=BoundedRoute)
TITLE_MAX = 128  # game_table.title


def state_at(game: Game[Any], table: TableRecord, actions: list[LoggedAction]) -> Any:
    """The original's state after ``actions`` (its log up to the fork's step), every recorded hash
    checked on the way: a fork never starts from a state its original's log does not prove."""
    assert table.seed_hex is not None
    try:
        state = start_state(
            game, bytes.fromhex(table.seed_hex), table.options, table.origin, table.origin_state
        )
        for step in replay_log(game, state, actions):
            state = step.state
    except (ForkBroken, ReplayMismatch, IllegalAction) as exc:
        raise ApiError(
            409, "log_broken", f"This table's log does not replay, so it cannot be forked: {exc}"
        ) from None
    return state


def fork_title(title: str, seq: int) -> str:
    suffix = f" (fork at step {seq})"
    return title[: TITLE_MAX - len(suffix)] + suffix


@router.post("/api/tables/{table_id}/fork", response_model=TableOut, status_code=201, tags=["tables"])
async def fork(table_id: str, body: ForkIn, player: PlayerDep, repo: RepoDep, tables: TablesDep) -> TableOut:
    """A new open table, hosted by the caller, that plays on from step ``seq`` of a finished one."""
    record = await _table(repo, table_id, with_seed=True)
    if record.status != "finished" or record.seed_hex is None:
        raise ApiError(
            409, "not_finished", "Only a finished game can be forked: play from any step of its replay."
        )
    game = _game(record.game)
    if not isinstance(game, Fork):
        raise ApiError(409, "cannot_fork", f"{game.title} games cannot be forked.")
    if record.rules_version != game.rules_version:
        raise ApiError(
            409, "rules_changed", f"This game was played under rules version {record.rules_version}; "
            f"this server plays version {game.rules_version}, so it cannot go on from it.",
        )  # fmt: skip
    if body.seq > record.seq:
        raise ApiError(
            422, "seq_out_of_range", f"This game has steps 0 to {record.seq}; there is no step {body.seq}."
        )
    actions = await asyncio.to_thread(repo.actions_after, table_id, 0, body.seq)
    state = await asyncio.to_thread(state_at, game, record, actions)
    if game.outcome(state) is not None:
        raise ApiError(
            409, "over_at_step", f"The game is over at step {body.seq}: play from an earlier step."
        )
    digest, text = hash_and_text(game, state)
    created = await asyncio.to_thread(
        repo.create_table,
        game=game.name,
        rules_version=game.rules_version,
        title=body.title or fork_title(record.title, body.seq),
        options=record.options,
        visibility=body.visibility,
        host=player,
        seats=[(s.seat, s.label) for s in record.seats],
        turn_clock_seconds=record.turn_clock_seconds,
        prompt_timeout_seconds=record.prompt_timeout_seconds,
        takeover=record.takeover,
        bot_seconds=record.bot_seconds,
        origin={"table": record.id, "seq": body.seq, "hash": digest},
        origin_state=text,
    )
    return _out(tables, created)
