"""``python -m backend <command>``.

Each command lives in its own module with ``add_parser(sub)`` and
``run(args, extra) -> int``; this file only lists them.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ["backend.simulate", "backend.server_cli", "backend.backup_cli", "backend.botplay.cli"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m backend", description="Dragontable")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(name).add_parser(sub)
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "simulate":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    code: int = args.func(args, extra)
    return code


if __name__ == "__main__":
    sys.exit(main())
