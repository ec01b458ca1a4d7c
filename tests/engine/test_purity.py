"""The engine, the games and the bots are pure: no web, database, asyncio, clock or global random
(a bot's time budget comes with its own clock, backend/bots/interface.py)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2] / "backend"
PURE_DIRS = [ROOT / "engine", ROOT / "games", ROOT / "bots"]
FORBIDDEN = {
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "websockets",
    "httpx",
    "asyncio",
    "time",
    "datetime",
    "random",
    "socket",
    "threading",
    "requests",
    "redis",
    "psycopg",
    "os",
    "subprocess",
}
# rng.py may use `secrets` only for new_seed(), which the engine never calls itself.
ALLOWED_EXTRA = {"secrets"}


def imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text())
    mods: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mods.add(node.module.split(".")[0])
    return mods


def test_engine_and_games_import_nothing_impure():
    files = [p for d in PURE_DIRS if d.exists() for p in d.rglob("*.py")]
    assert files
    for path in files:
        bad = imported_modules(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
    assert not (imported_modules(ROOT / "engine" / "rng.py") - ALLOWED_EXTRA) & FORBIDDEN
