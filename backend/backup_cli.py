"""``python -m backend backup | restore | export-records``: keeping a server's games safe.

SQLite is copied with its online backup API, page by page inside a read transaction, so the
copy is consistent even while the server is committing (WAL mode lets it go on writing).
PostgreSQL is dumped with ``pg_dump`` (docs/operations.md, "Backups"): the tool's own
consistent snapshot, which no copy of ours would beat.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from backend.config import Settings


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    b = sub.add_parser("backup", help="a consistent copy of the database, safe while serving")
    b.add_argument("target", type=Path, help="SQLite: the copy's file; PostgreSQL: the dump file")
    b.add_argument("--database-url", default=None)
    b.set_defaults(func=run_backup)

    r = sub.add_parser("restore", help="put a SQLite backup in place (stop the server first)")
    r.add_argument("source", type=Path)
    r.add_argument("--database-url", default=None)
    r.add_argument("--force", action="store_true", help="replace an existing database file")
    r.set_defaults(func=run_restore)

    e = sub.add_parser("export-records", help="every finished game's record, one JSON file each")
    e.add_argument("folder", type=Path)
    e.add_argument("--database-url", default=None)
    e.set_defaults(func=run_export_records)


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(**({"database_url": args.database_url} if args.database_url else {}))


def _sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise SystemExit("an in-memory SQLite database has nothing to back up")
    return Path(parsed.database)


def sqlite_copy(source: Path, target: Path) -> None:
    """``source`` → ``target`` with SQLite's online backup (consistent while being written)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src, dst = sqlite3.connect(source), sqlite3.connect(partial)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    partial.replace(target)  # a half-written copy never stands under the real name


def run_backup(args: argparse.Namespace, extra: list[str]) -> int:
    settings = _settings(args)
    path = _sqlite_path(settings.database_url)
    if path is not None:
        if not path.is_file():
            print(f"there is no database at {path}", file=sys.stderr)
            return 1
        sqlite_copy(path, args.target)
        print(f"backed up {path} to {args.target}")
        return 0
    if shutil.which("pg_dump") is None:
        print("PostgreSQL is backed up with pg_dump, which is not installed here", file=sys.stderr)
        return 2
    url = make_url(settings.database_url).set(drivername="postgresql")
    done = subprocess.run(
        ["pg_dump", "--format=custom", f"--file={args.target}", url.render_as_string(hide_password=False)],
        check=False,
    )
    return done.returncode


def run_restore(args: argparse.Namespace, extra: list[str]) -> int:
    settings = _settings(args)
    path = _sqlite_path(settings.database_url)
    if path is None:
        print("restore PostgreSQL with pg_restore (docs/operations.md, Backups)", file=sys.stderr)
        return 2
    if path.exists() and not args.force:
        print(f"{path} exists: stop the server and pass --force to replace it", file=sys.stderr)
        return 1
    for suffix in ("-wal", "-shm"):  # a stale write-ahead log must not be replayed onto the copy
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    sqlite_copy(args.source, path)
    print(f"restored {args.source} to {path}")
    return 0


def run_export_records(args: argparse.Namespace, extra: list[str]) -> int:
    # Imported here, as in server_cli: the other commands start without the games and SQLAlchemy's ORM.
    from backend.engine.registry import get_game, register_spec
    from backend.play.record import build_record
    from backend.store.db import make_engine, make_sessionmaker
    from backend.store.repository import Repository

    settings = _settings(args)
    register_spec(settings.extra_games)
    engine = make_engine(settings.database_url)
    repo = Repository(make_sessionmaker(engine))
    args.folder.mkdir(parents=True, exist_ok=True)
    count = 0
    try:
        for table_id in repo.finished_table_ids():
            record = repo.get_table(table_id, with_seed=True)
            game = get_game(record.game)
            data = build_record(game, record, repo.all_actions(table_id))
            (args.folder / f"{table_id}.json").write_text(json.dumps(data, ensure_ascii=False))
            count += 1
    finally:
        engine.dispose()
    print(f"wrote {count} records to {args.folder}")
    return 0
