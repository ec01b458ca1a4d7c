"""Apply alembic revisions programmatically (``serve`` upgrades on start)."""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config

from .db import ensure_sqlite_dir

# Beside the backend package in a checkout; an installed wheel (the container image) is told
# where the revisions were copied.
MIGRATIONS = Path(os.environ.get("DRAGONTABLE_MIGRATIONS_DIR") or Path(__file__).resolve().parents[2] / "migrations")


def alembic_config(url: str) -> Config:
    cfg = Config(str(MIGRATIONS / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # ConfigParser interpolation: a literal % in a password must be doubled.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    ensure_sqlite_dir(url)
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    from alembic.runtime.migration import MigrationContext

    from .db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()
