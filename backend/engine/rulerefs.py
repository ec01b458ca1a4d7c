"""Every refusal cites its rule (issue 14.2): refusal codes mapped to rule references, as data.

A game's own codes live beside it, in ``data/refusals.json`` of the package that defines its
class; the codes any table answers whatever its game (the engine's ``check_action_shape``, the
server's ``stale``, ``not_a_seat``...) in ``engine/data/refusals.json``.  Each file maps a code to
``{"ref", "section"}``, plus ``"title"`` for a ruling:

* ``ref`` cites the rule: ``"Rulebook: <heading>"`` quotes a heading of the game's rulebook,
  ``"Ruling <id>"`` names a numbered ruling of ``docs/rules/<game>.md`` and
  ``"Table ruling <id>"`` one of ``docs/rules/table.md``;
* ``section`` is the Rules panel's section that explains it (``frontend/rules/<game>.json`` or
  ``table.json``);
* ``title`` is what a player reads: the quoted heading itself, or the ruling's name.

A refusal sends ``{"ref", "section", "title"}`` as its ``rule`` (docs/protocol.md).  A new game
gets all of this by adding its file: tests/engine/test_rule_refs.py finds every code each game
can raise and fails on a code without a reference, or a reference that points at nothing.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

RULEBOOK = "Rulebook: "
# "Ruling R15" (docs/rules/<game>.md), "Table ruling T3" (docs/rules/table.md).
RULING = re.compile(r"(Ruling|Table ruling) ([A-Z]+[0-9]+)")
FILE = "refusals.json"


@dataclass(frozen=True, slots=True)
class RuleRef:
    """The rule behind one refusal code: the citation, its name, and where the panel explains it."""

    ref: str
    title: str
    section: str

    def as_dict(self) -> dict[str, str]:
        return {"ref": self.ref, "title": self.title, "section": self.section}


def parse(codes: Mapping[str, Any]) -> dict[str, RuleRef]:
    """A refusals file's ``codes``, checked for shape; ValueError names the first bad entry."""
    out: dict[str, RuleRef] = {}
    for code, entry in codes.items():
        if not isinstance(entry, dict) or not {"ref", "section"} <= entry.keys() <= {
            "ref",
            "section",
            "title",
        }:
            raise ValueError(f"{code}: an entry is {{ref, section}}, and a title for a ruling")
        ref, section = entry["ref"], entry["section"]
        if ref.startswith(RULEBOOK) and "title" not in entry:
            title = ref.removeprefix(RULEBOOK)  # the heading, quoted, is the rule's name
        elif RULING.fullmatch(ref) and isinstance(entry.get("title"), str) and entry["title"]:
            title = entry["title"]
        else:
            raise ValueError(f"{code}: {ref!r} is neither 'Rulebook: <heading>' nor a titled ruling")
        out[code] = RuleRef(ref, title, section)
    return out


def load(path: Path) -> dict[str, RuleRef]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return parse(data["codes"])


TABLE_FILE = Path(__file__).with_name("data") / FILE
TABLE = load(TABLE_FILE)
# Error codes of the connection itself (a bad frame, a bad token): no rule of play stands behind them.
NOT_RULES = frozenset(json.loads(TABLE_FILE.read_text(encoding="utf-8"))["not_rules"]["codes"])


def game_file(game: object) -> Path | None:
    """Where a game keeps its references: ``data/refusals.json`` beside the module of its class."""
    module = getattr(sys.modules.get(type(game).__module__), "__file__", None)
    return Path(module).with_name("data") / FILE if module else None


@cache
def _load_if_any(path: Path | None) -> dict[str, RuleRef]:
    return load(path) if path is not None and path.is_file() else {}


def game_refs(game: object) -> Mapping[str, RuleRef]:
    """The game's own references (none for a game without the file, like the tests' toy games)."""
    return _load_if_any(game_file(game))


def refusal_rule(game: object | None, code: str) -> dict[str, str] | None:
    """The wire form of the rule behind ``code``: the game's own reference first (its
    ``game_over`` says how its game ends), else the table's; None when neither has one."""
    ref = (game_refs(game).get(code) if game is not None else None) or TABLE.get(code)
    return ref.as_dict() if ref is not None else None
