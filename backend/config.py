"""Server settings (pydantic-settings).

With no configuration at all the server runs on a SQLite file under ``./var/``
with the in-process bus.  ``DATABASE_URL`` (``postgresql+psycopg://...``) and
``REDIS_URL`` select the scaled deployment without any code change; every other
setting reads ``DRAGONTABLE_<NAME>`` from the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

ROOT = Path(__file__).resolve().parents[1]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DRAGONTABLE_", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        default="sqlite:///./var/dragontable.db",
        validation_alias=AliasChoices("DATABASE_URL", "DRAGONTABLE_DATABASE_URL"),
    )
    # None: the in-process bus (one worker).  redis://...: fan-out between workers.
    redis_url: str | None = Field(
        default=None, validation_alias=AliasChoices("REDIS_URL", "DRAGONTABLE_REDIS_URL")
    )
    host: str = "127.0.0.1"
    port: int = 8000
    # Browser Origins allowed on the WebSocket.  Empty: only the server's own origin
    # (and clients that send no Origin, i.e. not browsers).  "*" allows any.
    allowed_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    frontend_dir: Path = ROOT / "frontend"

    # Limits (docs/protocol.md).
    max_frame_bytes: int = 64 * 1024
    rate_per_second: float = 30.0
    rate_burst: int = 60
    hello_timeout_seconds: float = 10.0
    send_queue_limit: int = 1000
    chat_max_chars: int = 500
    # permessage-deflate shrinks views ~4x but costs more server CPU than all the
    # rules and the database together; turn it on for thin links.
    ws_compression: bool = False
    # Updates carry a patch of each connection's view (play/patch.py) to clients that take them;
    # off (DRAGONTABLE_VIEW_PATCHES=0): whole views to everyone, as bench/server_load.py compares.
    view_patches: bool = True
    # uvicorn's WebSocket implementation: "auto", "websockets", "websockets-sansio", "wsproto".
    ws_impl: str = "auto"

    # Who writes the group commits (store/writer.py): "loop", the event loop itself once a turn;
    # "thread", a thread of their own; "auto": the loop on SQLite (a local file: no thread's GIL
    # hand-offs in an action's wait), a thread on PostgreSQL (a round trip the loop must not wait).
    commit_writer: Literal["auto", "loop", "thread"] = "auto"
    # When the loop writes and several tables are playing, a commit waits until this long after
    # the one before, so that more actions share its transaction and its disk flush (0: never).
    commit_interval_ms: float = Field(default=4.0, ge=0, le=100)
    # Tables.
    prompt_timeout_seconds: float = 60.0
    snapshot_every: int = 50
    # The state hash is recorded every this many actions (and at every snapshot and
    # at the end); the export fills the others by replay.  See play/master.py.
    hash_every: int = 10
    missed_ring: int = 256
    # An open table is listed for this long; one at which nobody took a seat is then dropped.
    open_table_ttl_seconds: float = 6 * 3600
    missed_from_db_limit: int = 2000
    # Presence (who is connected, how many watch) goes out at most once per this many seconds
    # per table: a thousand arriving spectators cost each connection a few frames, not a thousand.
    presence_interval_seconds: float = 0.5
    # Workers repeat their presence this often; one silent for three rounds is taken as gone.
    presence_heartbeat_seconds: float = 5.0
    # When the server cannot save its own timeout answer, it tries again after a pause that
    # doubles up to this, and gives up on that decision after ``auto_retry_limit`` tries.
    auto_retry_max_seconds: float = 30.0
    auto_retry_limit: int = 10

    # "production" refuses settings that are only safe on one's own machine (see _refuse_unsafe).
    environment: Literal["development", "production"] = "development"
    # Operations (docs/operations.md).  ``/metrics`` answers loopback clients only, unless a
    # token is set: then anyone sending it as a Bearer token.  Logs are text or one JSON object
    # a line.
    metrics_token: str | None = None
    shutdown_seconds: float = 10.0
    log_format: Literal["text", "json"] = "text"

    # Bots (issue 12, docs/bots.md).  ``serve`` starts this many bot runner processes (0: none);
    # they reach the server over its public protocol and prove themselves with ``bot_key``
    # (a random one is made at start when unset; a scaled deployment sets one for all).
    bot_runners: int = Field(default=1, ge=0, le=16)
    bot_key: str | None = None
    # A person away this long (or whose clock ran out) is played for by the table's takeover bot.
    takeover_after_seconds: float = Field(default=20.0, gt=0)

    # Extra games for tests and plugins: "name=module:attr,name2=module:attr".
    extra_games: str = ""
    # Identifies this worker on the bus; a random one is chosen when empty.
    worker_id: str = ""

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [o.strip() for o in value.split(",") if o.strip()]
        return value

    @model_validator(mode="after")
    def _refuse_unsafe(self) -> Settings:
        # Limits that would make the server trivially floodable or unusable.
        if not 1024 <= self.max_frame_bytes <= 16 * 1024 * 1024:
            raise ValueError("max_frame_bytes must be between 1 KiB and 16 MiB")
        if self.rate_per_second <= 0 or self.rate_burst < 1:
            raise ValueError("rate_per_second and rate_burst must be positive")
        if self.prompt_timeout_seconds <= 0:
            raise ValueError("prompt_timeout_seconds must be positive")
        if self.snapshot_every < 1 or self.hash_every < 1:
            raise ValueError("snapshot_every and hash_every must be at least 1")
        if self.open_table_ttl_seconds < 60 or self.shutdown_seconds <= 0:
            raise ValueError("open_table_ttl_seconds must be at least 60 and shutdown_seconds positive")
        if self.bot_key is not None and len(self.bot_key) < 16:
            raise ValueError("DRAGONTABLE_BOT_KEY must be 16 characters or more")
        if self.environment == "production":
            # A server on the internet: no page elsewhere may open sockets to it, and the
            # metrics (which reveal load and activity) need their own secret.
            if "*" in self.allowed_origins:
                raise ValueError("DRAGONTABLE_ALLOWED_ORIGINS may not be '*' in production: list the site's origins")
            if not self.metrics_token or len(self.metrics_token) < 16:
                raise ValueError("DRAGONTABLE_METRICS_TOKEN (16 characters or more) is required in production")
        return self

    def effective(self) -> dict[str, object]:
        """Every setting as the server will use it, secrets masked (``serve --check``)."""
        out: dict[str, object] = {}
        for key, value in self.model_dump(mode="json").items():
            if key in ("metrics_token", "bot_key") and value:
                value = "set (hidden)"
            elif key in ("database_url", "redis_url") and value:
                value = _mask_password(str(value))
            out[key] = value
        return out

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def _mask_password(url: str) -> str:
    """``scheme://user:secret@host/db`` → ``scheme://user:***@host/db``."""
    scheme, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in creds:
        return url
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"
