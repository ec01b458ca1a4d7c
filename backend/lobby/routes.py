"""REST endpoints (docs/protocol.md).  SQL lives in store/repository.py."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, TypeVar, cast

from fastapi import APIRouter, Depends, Header, Query, Request
from sqlalchemy import Connection

from backend.config import Settings
from backend.engine.core import Game, InvalidOptions
from backend.engine.options import check_options
from backend.engine.registry import UnknownGame, game_names, get_game
from backend.engine.replay import state_hash
from backend.engine.rng import commitment, new_seed
from backend.play.botauth import runner_key_matches
from backend.play.chat import REPLAY_CHANNELS, REPLAY_LINES
from backend.play.record import ForkBroken, RecordBroken, build_record, replay_views, start_state
from backend.play.tablechat import chat_message
from backend.play.tables import Tables
from backend.store.repository import NotFound, PlayerRecord, Repository, SeatRecord, TableRecord
from backend.textcheck import TABLE_ID

from .errors import ApiError
from .limits import BoundedRoute
from .schemas import (
    BotIn,
    BotWork,
    ErrorOut,
    GameOut,
    HealthOut,
    JoinOut,
    PlayerIn,
    PlayerOut,
    RecordOut,
    ReplayOut,
    SeatIn,
    TableIn,
    TableOut,
    TableStatus,
    table_out,
)

log = logging.getLogger("dragontable.lobby")
T = TypeVar("T")
ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorOut} for s in (400, 401, 403, 404, 409, 413, 422)
}
# Bodies are bounded (size, depth) before they are parsed: backend/lobby/limits.py.
router = APIRouter(responses=ERRORS, route_class=BoundedRoute)


# async: FastAPI would run plain functions in a worker thread for every request.
async def _repo(request: Request) -> Repository:
    return cast(Repository, request.app.state.repo)


async def _tables(request: Request) -> Tables:
    return cast(Tables, request.app.state.tables)


async def _settings(request: Request) -> Settings:
    return cast(Settings, request.app.state.settings)


RepoDep = Annotated[Repository, Depends(_repo)]
TablesDep = Annotated[Tables, Depends(_tables)]
SettingsDep = Annotated[Settings, Depends(_settings)]


async def player_of(repo: RepoDep, authorization: Annotated[str | None, Header()] = None) -> PlayerRecord:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "Send your player token as 'Authorization: Bearer <token>'.")
    # A player seen before is remembered: no database (and no thread hop) for it.
    player = repo.known_player(token.strip()) or await asyncio.to_thread(repo.player_by_token, token.strip())
    if player is None:
        raise ApiError(401, "unauthorized", "That player token is not valid.")
    return player


PlayerDep = Annotated[PlayerRecord, Depends(player_of)]


async def _maybe_player(
    repo: RepoDep, authorization: Annotated[str | None, Header()] = None
) -> PlayerRecord | None:
    """The player, for routes anyone may call but that show a player more (a wrong token is
    still refused: a client that meant to authenticate hears so)."""
    if authorization is None:
        return None
    return await player_of(repo, authorization)


MaybePlayerDep = Annotated[PlayerRecord | None, Depends(_maybe_player)]


def _game(name: str) -> Game[Any]:
    try:
        return get_game(name)
    except (UnknownGame, ImportError):
        raise ApiError(404, "unknown_game", f"There is no game called {name!r}.") from None


async def _table(repo: Repository, table_id: str, *, with_seed: bool = False) -> TableRecord:
    _check_id(table_id)
    return await asyncio.to_thread(_read_table, repo, table_id, with_seed)


def _check_id(table_id: str) -> None:
    # An id no table can have is not looked up (PostgreSQL refuses a NUL in a query with a 500).
    if not TABLE_ID.fullmatch(table_id):
        raise _no_such_table()


def _no_such_table() -> ApiError:
    return ApiError(404, "not_found", "There is no such table.")


def _read_table(repo: Repository, table_id: str, with_seed: bool = False) -> TableRecord:
    """In a worker thread."""
    try:
        return repo.get_table(table_id, with_seed=with_seed)
    except NotFound:
        raise _no_such_table() from None


def _table_on(repo: Repository, conn: Connection, table_id: str) -> TableRecord:
    try:
        return repo.table_on(conn, table_id)
    except NotFound:
        raise _no_such_table() from None


class _Refused:
    __slots__ = ("error",)

    def __init__(self, error: ApiError) -> None:
        self.error = error


async def _committed(tables: Tables, write: Callable[[Connection], T]) -> T:
    """``write`` run with the next group commit (store/writer.py ``run``): on SQLite on the event
    loop, in the transaction and under the disk flush of the actions committed beside it,
    instead of a thread hop and a transaction of its own each.  Its refusals (``ApiError``) are
    all raised before it writes anything, so the batch goes on without it; they are raised here."""

    def refusing(conn: Connection) -> T | _Refused:
        try:
            return write(conn)
        except ApiError as exc:
            return _Refused(exc)

    result = await tables.writer.run(refusing)
    if isinstance(result, _Refused):
        raise result.error
    return result


def _out(tables: Tables, record: TableRecord) -> TableOut:
    spectators, connected = tables.presence_of(record.id)
    return table_out(record, connected, spectators, tables.stand_ins_of(record.id))


@router.get("/healthz", response_model=HealthOut, tags=["health"])
async def healthz(repo: RepoDep) -> HealthOut:
    try:
        await asyncio.to_thread(repo.ping)
    except Exception:
        return HealthOut(status="degraded", db="unreachable")
    return HealthOut(status="ok", db="ok")


@router.post("/api/players", response_model=PlayerOut, status_code=201, tags=["players"])
async def create_player(body: PlayerIn, repo: RepoDep) -> PlayerOut:
    # body.name is already one trimmed line of NFC text (schemas.PlayerIn).
    player, token = await asyncio.to_thread(repo.create_player, body.name, body.bot)
    return PlayerOut(player_id=player.id, name=player.name, player_token=token)


@router.get("/api/games", response_model=list[GameOut], tags=["games"])
async def list_games() -> list[GameOut]:
    out = []
    for name in game_names():
        game = get_game(name)
        try:
            defaults = game.normalize_options({})
        except InvalidOptions:
            defaults = {}
        out.append(
            GameOut(
                name=name,
                title=game.title,
                rules_version=game.rules_version,
                options_schema=game.options_schema(),
                default_options=defaults,
            )
        )
    return out


@router.post("/api/tables", response_model=TableOut, status_code=201, tags=["tables"])
async def create_table(
    body: TableIn, player: PlayerDep, repo: RepoDep, tables: TablesDep, settings: SettingsDep
) -> TableOut:
    game = _game(body.game)
    schema = game.options_schema()
    try:
        options = game.normalize_options(body.options)
        # The game's own checks answer first (their codes say more); then every option sent and
        # every option kept must be one the game's schema describes and bounds, so nothing is
        # stored that a welcome could not encode.
        check_options(schema, body.options)
        check_options(schema, options)
        seats = game.seats(options)
    except InvalidOptions as exc:
        raise ApiError(422, exc.code, exc.message) from None
    except (TypeError, ValueError, KeyError, AttributeError):
        # A game that trips over odd option types still answers with a 4xx.
        raise ApiError(422, "invalid_options", "These options cannot set up a table of this game.") from None

    def insert(conn: Connection) -> TableRecord:
        table_id = repo.create_table_on(
            conn,
            game=game.name,
            rules_version=game.rules_version,
            title=body.title or game.title,
            options=options,
            visibility=body.visibility,
            host=player,
            seats=[(s.seat, s.label) for s in seats],
            turn_clock_seconds=body.turn_clock_seconds,
            prompt_timeout_seconds=body.prompt_timeout_seconds or settings.prompt_timeout_seconds,
            takeover=body.takeover,
            bot_seconds=body.bot_seconds,
        )
        return repo.table_on(conn, table_id)

    return _out(tables, await _committed(tables, insert))


@router.get("/api/tables", response_model=list[TableOut], tags=["tables"])
async def list_tables(
    repo: RepoDep,
    tables: TablesDep,
    settings: SettingsDep,
    status: Annotated[list[TableStatus] | None, Query(max_length=3)] = None,
) -> list[TableOut]:
    """Public tables, newest first: open and live by default; ``status=finished`` lists the
    recent games, whose replays are open.  Open tables past their time are not listed."""
    wanted = sorted(set(status or ["open", "live"]))
    expired_before = datetime.now(UTC) - timedelta(seconds=settings.open_table_ttl_seconds)
    records = await asyncio.to_thread(repo.list_tables, wanted, 100, expired_before)
    return [_out(tables, r) for r in records]


@router.get("/api/players/me/tables", response_model=list[TableOut], tags=["players"])
async def my_tables(player: PlayerDep, repo: RepoDep, tables: TablesDep) -> list[TableOut]:
    """The tables this player hosts or holds a seat at, whatever their status or visibility
    ("Your tables" in the lobby), newest first."""
    records = await asyncio.to_thread(repo.tables_of_player, player.id)
    return [_out(tables, r) for r in records]


@router.get("/api/tables/{table_id}", response_model=TableOut, tags=["tables"])
async def get_table(table_id: str, repo: RepoDep, tables: TablesDep) -> TableOut:
    return _out(tables, await _table(repo, table_id))


@router.post("/api/tables/{table_id}/join", response_model=JoinOut, tags=["tables"])
async def join(table_id: str, body: SeatIn, player: PlayerDep, repo: RepoDep, tables: TablesDep) -> JoinOut:
    _check_id(table_id)

    def read_and_take(conn: Connection) -> tuple[TableRecord, SeatRecord, str | None]:
        record = _table_on(repo, conn, table_id)
        if record.status == "finished":
            raise ApiError(409, "game_over", "The game is over; you can still watch its replay.")
        seat = next((s for s in record.seats if s.seat == body.seat), None)
        if seat is None:
            raise ApiError(404, "no_such_seat", f"This table has no seat {body.seat!r}.")
        if seat.player_id is not None and seat.player_id != player.id:
            raise ApiError(409, "seat_taken", "Someone else holds that seat.")
        # Joining a seat you already hold issues a new token (lost browser): the old one stops working.
        return record, seat, repo.take_seat_on(conn, table_id, body.seat, player.id)

    record, seat, token = await _committed(tables, read_and_take)
    if token is None:
        raise ApiError(409, "seat_taken", "Someone else holds that seat.")
    await tables.table_changed(table_id)
    seat.player_id, seat.player_name = player.id, player.name
    return JoinOut(table=_out(tables, record), seat=body.seat, seat_token=token)


@router.post("/api/tables/{table_id}/leave", response_model=TableOut, tags=["tables"])
async def leave(table_id: str, body: SeatIn, player: PlayerDep, repo: RepoDep, tables: TablesDep) -> TableOut:
    record = await _table(repo, table_id)
    seat = next((s for s in record.seats if s.seat == body.seat), None)
    if seat is None:
        raise ApiError(404, "no_such_seat", f"This table has no seat {body.seat!r}.")
    if seat.player_id != player.id or not await asyncio.to_thread(
        repo.free_seat, table_id, body.seat, player.id
    ):
        raise ApiError(403, "not_your_seat", "You do not hold that seat.")
    await tables.table_changed(table_id)
    return _out(tables, await _table(repo, table_id))


BOT_NAMES = {"random": "Random bot", "steady": "Steady bot", "strong": "Strong bot"}


async def _open_table_of_host(repo: Repository, table_id: str, player: PlayerRecord) -> TableRecord:
    record = await _table(repo, table_id)
    if record.host_player_id != player.id:
        raise ApiError(403, "not_host", "Only the host can seat or remove bots.")
    if record.status != "open":
        raise ApiError(409, "already_started", "Bots are seated before the game starts.")
    return record


@router.post("/api/tables/{table_id}/bots", response_model=TableOut, tags=["tables", "bots"])
async def add_bot(table_id: str, body: BotIn, player: PlayerDep, repo: RepoDep, tables: TablesDep) -> TableOut:
    """The host seats a bot of ``level`` at an empty seat (the bot runner plays it)."""
    record = await _open_table_of_host(repo, table_id, player)
    seat = next((s for s in record.seats if s.seat == body.seat), None)
    if seat is None:
        raise ApiError(404, "no_such_seat", f"This table has no seat {body.seat!r}.")
    if seat.player_id is not None:
        raise ApiError(409, "seat_taken", "Someone already holds that seat.")
    bot, _ = await asyncio.to_thread(repo.create_player, BOT_NAMES[body.level], body.level, runner=True)
    # The seat token is dropped: the runner proves itself with its stand-in token (play/botauth.py).
    if await asyncio.to_thread(repo.take_seat, table_id, body.seat, bot.id) is None:
        raise ApiError(409, "seat_taken", "Someone already holds that seat.")
    await tables.table_changed(table_id)
    return _out(tables, await _table(repo, table_id))


@router.delete("/api/tables/{table_id}/bots/{seat}", response_model=TableOut, tags=["tables", "bots"])
async def remove_bot(table_id: str, seat: str, player: PlayerDep, repo: RepoDep, tables: TablesDep) -> TableOut:
    """The host takes a bot off its seat before the start; the seat is free again."""
    record = await _open_table_of_host(repo, table_id, player)
    found = next((s for s in record.seats if s.seat == seat), None)
    if found is None:
        raise ApiError(404, "no_such_seat", f"This table has no seat {seat!r}.")
    if found.player_bot is None or found.player_id is None:
        raise ApiError(409, "not_a_bot", "No bot holds that seat.")
    if not await asyncio.to_thread(repo.free_seat, table_id, seat, found.player_id):
        raise ApiError(409, "not_a_bot", "No bot holds that seat.")
    await tables.table_changed(table_id)
    return _out(tables, await _table(repo, table_id))


@router.get("/api/bots/work", response_model=list[BotWork], tags=["bots"])
async def bot_work(
    repo: RepoDep, tables: TablesDep, settings: SettingsDep, authorization: Annotated[str | None, Header()] = None
) -> list[BotWork]:
    """For the bot runner (Bearer ``bot_key``): every seat it should be playing now."""
    if not runner_key_matches(settings.bot_key, authorization):
        raise ApiError(401, "unauthorized", "Only the bot runner may list the bots' work.")
    standing = await asyncio.to_thread(repo.live_bot_seats)
    work = [BotWork(table_id=t, seat=s, level=lv, takeover=False) for t, s, lv in standing]  # type: ignore[arg-type]
    work += [BotWork(table_id=t, seat=s, level=lv, takeover=True) for t, s, lv in tables.takeovers()]  # type: ignore[arg-type]
    return work


@router.post("/api/tables/{table_id}/start", response_model=TableOut, tags=["tables"])
async def start(table_id: str, player: PlayerDep, repo: RepoDep, tables: TablesDep) -> TableOut:
    _check_id(table_id)

    def read_and_start(conn: Connection) -> TableRecord:
        record = _table_on(repo, conn, table_id)
        if record.host_player_id != player.id:
            raise ApiError(403, "not_host", "Only the host can start the game.")
        if record.status != "open":
            raise ApiError(409, "already_started", "The game has already started.")
        free = [s.label for s in record.seats if s.player_id is None]
        if free:
            raise ApiError(409, "seats_free", f"Every seat must be taken first (free: {', '.join(free)}).")
        game = _game(record.game)
        seed = new_seed()
        try:
            # A fork starts from the original's state, its hidden order dealt again from this seed.
            initial = start_state(game, seed, record.options, record.origin, record.origin_state)
        except ForkBroken as exc:
            raise ApiError(409, "fork_broken", f"This fork cannot start: {exc}.") from None
        record.commitment, record.initial_hash = commitment(seed), state_hash(game, initial)
        started = repo.start_table_on(
            conn, table_id, seed_hex=seed.hex(), commitment=record.commitment, initial_hash=record.initial_hash
        )
        if not started:  # (nothing was written)
            raise ApiError(409, "already_started", "The game has already started.")
        return record

    record = await _committed(tables, read_and_start)
    await tables.table_changed(table_id)
    log.info("table %s started (%s)", table_id, record.game, extra={"table": table_id})
    record.status, record.seq = "live", 0
    return _out(tables, record)


@router.get("/api/tables/{table_id}/replay", response_model=ReplayOut, tags=["tables"])
async def replay_frames(table_id: str, repo: RepoDep, tables: TablesDep) -> dict[str, Any]:
    """Every state of a finished game, fully revealed, for the replay page."""
    record = await _table(repo, table_id, with_seed=True)
    if record.status != "finished" or record.seed_hex is None:
        raise ApiError(409, "not_finished", "The replay opens when the game is over.")
    game = _game(record.game)
    actions = await asyncio.to_thread(repo.all_actions, table_id)
    frames = await asyncio.to_thread(replay_views, game, record, actions)
    # The spectators' lines open to everyone with the replay (play/chat.py), never before.
    lines = await asyncio.to_thread(repo.chat_lines, table_id, REPLAY_CHANNELS, (), REPLAY_LINES)
    return {"table": _out(tables, record), "static": game.static_info(record.options), "frames": frames,
            "chat": [chat_message(line) for line in lines]}  # fmt: skip


@router.get("/api/tables/{table_id}/export", response_model=RecordOut, tags=["tables"])
async def export(table_id: str, repo: RepoDep, player: MaybePlayerDep) -> dict[str, Any]:
    """The game record.  While the game is live it is redacted for the requester (the seats
    their player token holds; none without one) and carries no seed and no hash; once it is
    over it is complete and public (play/record.py)."""
    record = await _table(repo, table_id, with_seed=True)
    game = _game(record.game)
    # Up to the row's seq: an action committed since the row was read is not half in the record.
    actions = await asyncio.to_thread(repo.actions_after, table_id, 0, record.seq)
    viewers = frozenset(s.seat for s in record.seats if player is not None and s.player_id == player.id)
    try:
        # Fills the hashes the server did not record on the hot path, by replay.
        return await asyncio.to_thread(build_record, game, record, actions, viewers)
    except RecordBroken as exc:
        raise ApiError(409, "log_broken", f"This table's log does not replay: {exc}") from None
