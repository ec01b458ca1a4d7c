"""Issue 14.2: every refusal code any game (and the server) can raise cites a rule that exists.

The codes are found mechanically, by an AST walk of the packages: ``IllegalAction("code", ...)``,
``IllegalAction(f"illegal_{kind}", WHY[kind])`` (one code per key of the table it reads), the
``("code", "message")`` returns of the refusal functions (annotated ``-> tuple[str, str]``) that
``IllegalAction(*f(...))`` raises, and the server's ``self._refuse(conn, aid, "code", ...)``,
``protocol.error("code", ...)`` and ``BadMessage("code", ...)``.  A raise the walk cannot read
(a code from a variable) fails the test as loudly as a code without a reference.  Random play
that sends wrong actions at every step cross-checks the walk: every code the rules answer was
found by it, and has its rule.

A reference exists when its rulebook heading is a line of shared/seeds/<game>-rulebook.txt, its
ruling is numbered in docs/rules/<game>.md (or docs/rules/table.md) and its section is one of the
game's Rules panel (frontend/rules/<game>.json, table.json)."""

from __future__ import annotations

import ast
import importlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from backend.engine import rulerefs
from backend.engine.core import IllegalAction
from backend.engine.playout import play_random
from backend.engine.registry import game_names, get_game
from backend.engine.rng import Rng, seed_from_int

REPO = Path(__file__).resolve().parents[2]
BACKEND = REPO / "backend"
SEEDS = Path("/work/shared/seeds")
# Every game of the repository: each package of backend/games is a registered game (checked below).
GAMES = sorted(p.name for p in (BACKEND / "games").iterdir() if (p / "game.py").is_file())
REFUSAL_RETURNS = {"tuple[str, str]", "tuple[str, str] | None"}


class Walk:
    """The codes a package can refuse with, and every raise the walk could not read."""

    def __init__(self) -> None:
        self.codes: set[str] = set()  # refusals of an action (IllegalAction, rejected)
        self.errors: set[str] = set()  # error frames of the connection
        self.unread: list[str] = []

    def where(self, path: Path, node: ast.AST) -> str:
        shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path.name
        return f"{shown}:{getattr(node, 'lineno', '?')}"


def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts)


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _table_codes(path: Path, code: ast.JoinedStr, message: ast.expr | None) -> set[str] | None:
    """``f"illegal_{kind}"`` read with ``TABLE[kind]`` as the message: one code per key of the
    module-level ``TABLE``; None when the f-string is not of that form."""
    parts = code.values
    if not (
        len(parts) == 2
        and isinstance(parts[0], ast.Constant)
        and isinstance(parts[1], ast.FormattedValue)
        and isinstance(parts[1].value, ast.Name)
        and isinstance(message, ast.Subscript)
        and isinstance(message.value, ast.Name)
        and isinstance(message.slice, ast.Name)
        and message.slice.id == parts[1].value.id
    ):
        return None
    table = getattr(importlib.import_module(_module_of(path)), message.value.id)
    return {f"{parts[0].value}{key}" for key in table}


def walk_game_code(paths: Iterable[Path], walk: Walk) -> None:
    """IllegalAction raises and the refusal functions' returns."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in paths}
    annotated = {
        node.name: node
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.returns and ast.unparse(node.returns) in REFUSAL_RETURNS
    }
    # The refusal functions: those ``IllegalAction(*f(...))`` raises, and the annotated ones they call.
    refusal_functions = {
        _name(node.args[0].value.func)
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and _name(node.func) == "IllegalAction"
        and node.args
        and isinstance(node.args[0], ast.Starred)
        and isinstance(node.args[0].value, ast.Call)
    } & annotated.keys()
    grown = True
    while grown:
        called = {
            _name(c.func)
            for f in refusal_functions
            for c in ast.walk(annotated[f])
            if isinstance(c, ast.Call)
        }
        grown = bool(called & annotated.keys() - refusal_functions)
        refusal_functions |= called & annotated.keys()
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) == "IllegalAction":
                first = node.args[0] if node.args else None
                message = node.args[1] if len(node.args) > 1 else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    walk.codes.add(first.value)
                    continue
                if isinstance(first, ast.JoinedStr):
                    found = _table_codes(path, first, message)
                    if found:
                        walk.codes |= found
                        continue
                if (
                    isinstance(first, ast.Starred)
                    and isinstance(first.value, ast.Call)
                    and _name(first.value.func) in refusal_functions
                ):
                    continue  # its codes are the returns of that function, read below
                walk.unread.append(f"{walk.where(path, node)}: {ast.unparse(node)}")
            elif isinstance(node, ast.FunctionDef) and node.name in refusal_functions:
                for ret in ast.walk(node):
                    if not isinstance(ret, ast.Return) or ret.value is None:
                        continue
                    value = ret.value
                    if isinstance(value, ast.Tuple):
                        head = value.elts[0]
                        if isinstance(head, ast.Constant) and isinstance(head.value, str):
                            walk.codes.add(head.value)
                        else:
                            walk.unread.append(f"{walk.where(path, ret)}: {ast.unparse(ret)}")
                    elif isinstance(value, ast.Call) and _name(value.func) not in refusal_functions:
                        walk.unread.append(f"{walk.where(path, ret)}: {ast.unparse(ret)}")
                    # A Name or None passes on another refusal function's answer (or none).


def walk_server_code(paths: Iterable[Path], walk: Walk) -> None:
    """The server's refusals (``_refuse``) and error frames (``protocol.error``, ``BadMessage``);
    ``exc.code`` forwards a code found elsewhere (the game's, the parser's)."""
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name, func = _name(node.func), node.func
            if name == "_refuse":
                arg, into = (node.args[2] if len(node.args) > 2 else None), walk.codes
            elif name in ("BadMessage", "ChatRefused", "Refusal") or (
                name == "error" and isinstance(func, ast.Attribute) and ast.unparse(func.value) == "protocol"
            ):
                # (ChatRefused: play/chat.py's channel refusals; Refusal: play/sidewatch.py's.)
                arg, into = (node.args[0] if node.args else None), walk.errors
            elif name == "rejected" and path.name != "master.py":
                walk.unread.append(f"{walk.where(path, node)}: a rejection outside TableRuntime._refuse")
                continue
            else:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                into.add(arg.value)
            elif not (isinstance(arg, ast.Attribute) and arg.attr == "code"):
                walk.unread.append(f"{walk.where(path, node)}: {ast.unparse(node)}")


def game_walk(game: str) -> Walk:
    walk = Walk()
    walk_game_code(sorted((BACKEND / "games" / game).rglob("*.py")), walk)
    return walk


def table_walk() -> Walk:
    """The codes of every table whatever its game: the engine's and the server's."""
    walk = Walk()
    walk_game_code(sorted((BACKEND / "engine").rglob("*.py")), walk)
    walk_server_code(sorted((BACKEND / "play").rglob("*.py")), walk)
    return walk


# -- the codes ---------------------------------------------------------------------------------


def test_every_game_of_the_repository_is_walked_and_has_its_file() -> None:
    assert GAMES and set(GAMES) <= set(game_names())
    for game in GAMES:
        path = rulerefs.game_file(get_game(game))
        assert path is not None and path.is_file(), f"{game} has no data/refusals.json"


@pytest.mark.parametrize("game", GAMES)
def test_every_code_a_game_can_raise_has_its_reference(game: str) -> None:
    walk = game_walk(game)
    assert not walk.unread, "raises the walk cannot read (use a literal code, or a table):\n" + "\n".join(
        walk.unread
    )
    known = {"dorasure": {"die_too_low", "no_rest", "trapped", "mirage_city"}, "dorn": {"illegal_parry"}}
    assert walk.codes and known.get(game, set()) <= walk.codes, "the walk lost codes it used to find"
    refs = rulerefs.game_refs(get_game(game))
    assert walk.codes - refs.keys() == set(), f"codes of {game} without a rule reference"
    assert refs.keys() - walk.codes == set(), f"references in {game}'s refusals.json to codes it never raises"


def test_every_code_of_the_engine_and_the_server_has_its_reference() -> None:
    walk = table_walk()
    assert not walk.unread, "\n".join(walk.unread)
    assert {"stale", "not_a_seat", "malformed_action", "duplicate_action_id"} <= walk.codes
    assert walk.codes - rulerefs.TABLE.keys() == set(), "refusals without a table ruling"
    # An error frame is either a rule (it carries it) or the connection's own plumbing, said so.
    assert walk.errors - rulerefs.TABLE.keys() - rulerefs.NOT_RULES == set()
    assert not rulerefs.NOT_RULES & rulerefs.TABLE.keys()
    assert rulerefs.TABLE.keys() - walk.codes - walk.errors == set(), "table references to codes never sent"
    assert rulerefs.NOT_RULES - walk.errors == set(), "'not rules' codes the server never sends"


def test_the_walk_finds_a_new_code_and_refuses_an_unreadable_one(tmp_path: Path) -> None:
    """A new refusal is seen (and then fails the reference test) however it is written."""
    source = tmp_path / "new_rules.py"
    source.write_text(
        "from backend.engine.core import IllegalAction\n"
        "def why(a) -> tuple[str, str] | None:\n"
        "    if a: return 'a_brand_new_code', 'A new rule forbids it.'\n"
        "    return None\n"
        "def check(a, code):\n"
        "    raise IllegalAction(*why(a))\n"
        "def check2(a, code):\n"
        "    raise IllegalAction('another_new_code', 'No.')\n"
        "def check3(a, code):\n"
        "    raise IllegalAction(code, 'From a variable: cannot be read.')\n",
        encoding="utf-8",
    )
    walk = Walk()
    walk_game_code([source], walk)
    assert {"a_brand_new_code", "another_new_code"} <= walk.codes
    assert len(walk.unread) == 1 and "From a variable" in walk.unread[0]
    assert rulerefs.refusal_rule(get_game("dorasure"), "a_brand_new_code") is None


# -- the references exist --------------------------------------------------------------------


def _panel_sections(game: str | None) -> set[str]:
    books = ["table"] + ([game] if game else [])
    rules = REPO / "frontend" / "rules"
    return {
        s["id"]
        for b in books
        for s in json.loads((rules / f"{b}.json").read_text(encoding="utf-8"))["sections"]
    }


def _rulebook_headings(game: str) -> set[str]:
    """A heading is a short line of its own: not a bullet, a numbered step or a sentence."""
    lines = (SEEDS / f"{game}-rulebook.txt").read_text(encoding="utf-8").splitlines()
    return {ln.strip() for ln in lines if 0 < len(ln.strip()) <= 60 and not re.match(r"[•\d]", ln.strip())}


def _ruling_ids(doc: Path) -> set[str]:
    """Numbered rulings of a docs/rules file: a table row's first cell (``| R15 rest …``), a bold
    id (``**D1**``), and every id of a range (``R43–R57``)."""
    text = doc.read_text(encoding="utf-8")
    ids = set(re.findall(r"^\| ([A-Z]+[0-9]+)\b", text, re.M)) | set(
        re.findall(r"\*\*([A-Z]+[0-9]+)\*\*", text)
    )
    for prefix, low, high in re.findall(r"\b([A-Z]+)([0-9]+)[–-]\1([0-9]+)\b", text):
        ids |= {f"{prefix}{n}" for n in range(int(low), int(high) + 1)}
    return ids


def _check(refs: dict[str, rulerefs.RuleRef], game: str | None) -> list[str]:
    sections = _panel_sections(game)
    rulings = {"Table ruling": _ruling_ids(REPO / "docs" / "rules" / "table.md")}
    if game:
        rulings["Ruling"] = _ruling_ids(REPO / "docs" / "rules" / f"{game}.md")
    headings = _rulebook_headings(game) if game and SEEDS.is_dir() else None
    bad = []
    for code, ref in refs.items():
        if ref.section not in sections:
            bad.append(f"{code}: no Rules panel section {ref.section!r}")
        ruling = rulerefs.RULING.fullmatch(ref.ref)
        if ruling:
            if ruling[2] not in rulings.get(ruling[1], set()):
                bad.append(f"{code}: {ref.ref} is not numbered in its docs/rules file")
        elif game is None:
            bad.append(f"{code}: the table cites table rulings only, not {ref.ref!r}")
        elif headings is not None and ref.title not in headings:
            bad.append(f"{code}: the {game} rulebook has no heading {ref.title!r}")
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_every_reference_of_a_game_points_at_a_rule_that_exists(game: str) -> None:
    if not SEEDS.is_dir():
        pytest.skip(
            "the rulebooks are not on this machine (the rulings and sections are still checked below)"
        )
    assert _check(dict(rulerefs.game_refs(get_game(game))), game) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_and_section_a_game_cites_exists(game: str) -> None:
    """The part of the check that needs no rulebook (CI machines may lack shared/seeds)."""
    bad = [
        b
        for b in _check(dict(rulerefs.game_refs(get_game(game))), game)
        if "rulebook has no heading" not in b
    ]
    assert bad == []


def test_every_table_reference_points_at_a_table_ruling_that_exists() -> None:
    assert _check(rulerefs.TABLE, None) == []


def test_a_reference_file_refuses_a_bad_entry() -> None:
    assert rulerefs.parse({"x": {"ref": "Rulebook: Movement of Hero", "section": "movement"}})["x"].title == (
        "Movement of Hero"
    )
    for entry in (
        {"ref": "Ruling R15", "section": "rest"},  # a ruling needs its name
        {"ref": "§4.2", "section": "movement"},  # neither a heading nor a numbered ruling
        {"ref": "Rulebook: Movement of Hero"},  # no section
    ):
        with pytest.raises(ValueError):
            rulerefs.parse({"x": entry})


def test_a_game_reference_comes_before_the_tables_and_a_toy_game_has_the_tables() -> None:
    dorn = get_game("dorn")
    assert rulerefs.refusal_rule(dorn, "game_over") == {
        "ref": "Rulebook: Scoring / Victory Conditions",
        "title": "Scoring / Victory Conditions",
        "section": "goal",
    }
    assert rulerefs.refusal_rule(dorn, "stale") == rulerefs.TABLE["stale"].as_dict()
    assert rulerefs.refusal_rule(object(), "game_over") == rulerefs.TABLE["game_over"].as_dict()
    assert rulerefs.refusal_rule(None, "no_such_code") is None


# -- cross-check: what the rules answer in play ----------------------------------------------


def _wrong_actions(action: dict[str, Any], seen: list[dict[str, Any]], rng: Rng) -> list[object]:
    """Actions a seat should not send now: junk, unknown types and fields, a field dropped,
    numbers and places out of range, and actions listed at earlier steps of the game."""
    out: list[object] = ["junk", {"type": "no_such_action"}, {**action, "zz": 1}]
    fields = [k for k in action if k != "type"]
    if fields:
        out.append({k: v for k, v in action.items() if k != fields[0]})
    for key, value in action.items():
        if key == "to":
            out += [{**action, "to": [99, 99]}, {**action, "to": "nowhere"}, {**action, "to": [0, 0]}]
        elif isinstance(value, int) and not isinstance(value, bool):
            out += [{**action, key: value + 9}, {**action, key: 1}]
    out += [seen[rng.below(len(seen))] for _ in range(min(6, len(seen)))]
    return out


@pytest.mark.parametrize(("game", "seed"), [("dorasure", 1), ("dorasure", 2), ("dorn", 1)])
def test_the_codes_raised_in_play_are_the_walked_ones_and_cite_their_rules(game: str, seed: int) -> None:
    g = get_game(game)
    walked = game_walk(game).codes | table_walk().codes
    options = g.sim_options(Rng(seed_from_int(seed)), None, {})
    seats = [s.seat for s in g.seats(g.normalize_options(options))]
    rng = Rng(seed_from_int(seed + 100))
    seen: list[dict[str, Any]] = []
    raised: dict[str, str] = {}

    def probe(state: Any, seat: str, action: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        tries: list[tuple[str, object]] = [(seat, a) for a in _wrong_actions(action, seen, rng)]
        tries += [(other, action) for other in seats if other != seat]  # someone else's decision
        for who, wrong in tries:
            try:
                g.validate(state, who, wrong)  # type: ignore[arg-type]
            except IllegalAction as exc:
                raised.setdefault(exc.code, exc.message)
        if action not in seen:
            seen.append(action)
            del seen[:-40]

    play_random(g, seed, options, max_actions=250, on_step=probe)
    assert len(raised) >= 6, raised  # the probe reached past the shape checks into the rules
    assert set(raised) - walked == set(), "codes raised in play that the walk did not find"
    assert [c for c in raised if rulerefs.refusal_rule(g, c) is None] == []
