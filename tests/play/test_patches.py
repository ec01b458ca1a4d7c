"""View patches (backend/play/patch.py, docs/protocol.md "View patches").

* ``diff``/``apply`` are exact on random JSON and on every consecutive pair of views (with
  the seat's legal actions) of seeded random games of both games, and a patch carries only
  parts of the new view;
* the browser's side (frontend/js/viewpatch.js, connection.js) applies the same patches and
  computes the same hash, under node (tests/play/patch_client.mjs).

Over real sockets: tests/play/test_patched_frames.py.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.engine.core import Game
from backend.engine.playout import driver_rng, play_random
from backend.engine.registry import get_game
from backend.engine.rng import seed_from_int
from backend.play import patch, protocol

from .helpers import same

DORASURE, DORN = get_game("dorasure"), get_game("dorn")
HERE = Path(__file__).parent


# -- diff and apply ---------------------------------------------------------------------------
keys = st.text(alphabet=st.sampled_from("ab/~0-é"), max_size=3)
scalars = (
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False) | st.text(max_size=3)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=30,
)


def mutated(value: Any, rnd: random.Random) -> Any:
    """``value`` with a few parts changed, added or dropped: the pairs a view goes through."""
    if isinstance(value, dict):
        out = {
            k: (mutated(v, rnd) if rnd.random() < 0.3 else v) for k, v in value.items() if rnd.random() > 0.1
        }
        if rnd.random() < 0.2:
            out[rnd.choice(["a", "b/", "~c", "d"])] = rnd.choice([1, True, None, [1, 2], {"x": 1.0}])
        return out
    if isinstance(value, list):
        out = [mutated(v, rnd) if rnd.random() < 0.3 else v for v in value]
        if rnd.random() < 0.3:
            out = (
                out[: rnd.randrange(len(out) + 1)]
                if rnd.random() < 0.5
                else [*out, rnd.choice([0, "x", [], {}])]
            )
        return out
    return rnd.choice([value, 1, 1.0, True, 0, False, None, "s", [], {}])


@settings(max_examples=250, deadline=None)
@given(values, values)
def test_apply_of_diff_gives_the_new_value(a: Any, b: Any) -> None:
    before = patch.canonical(a)
    ops = patch.diff(a, b)
    assert same(patch.apply(ops, a), b)
    assert patch.canonical(a) == before, "apply copies what it changes"
    assert patch.diff(b, b) == []


@settings(max_examples=250, deadline=None)
@given(values, st.integers(0, 2**32))
def test_apply_of_diff_on_nearby_values(a: Any, seed: int) -> None:
    b = mutated(a, random.Random(seed))
    ops = patch.diff(a, b)
    assert same(patch.apply(ops, a), b)
    # Never much longer than setting the whole value: by a path at most.
    assert patch.encoded_size(ops) <= patch.encoded_size([["", b]]) + max(
        (len(op[0]) for op in ops), default=0
    )


@settings(max_examples=250, deadline=None)
@given(st.dictionaries(keys, values, max_size=6), values)
def test_a_doc_spelled_from_its_members_texts_is_spelled_as_whole(doc: dict[str, Any], part: Any) -> None:
    """``canonical(doc, texts)``: a doc's text joined from its members' (each container's kept
    in ``texts`` for the next doc that holds it) is the same bytes as the doc spelled whole."""
    texts: patch.Texts = {}
    docs = [doc, {**doc, "shared": part}, {"other": part, **doc}]
    for d in docs:
        assert patch.canonical(d, texts) == patch.canonical(d)
    for d in docs:  # again, every container's text now from ``texts``
        assert patch.canonical(d, texts) == patch.canonical(d)


def test_the_hash_is_sha256_whatever_the_length() -> None:
    """``hash_of`` feeds a long text in pieces (engine/digest.py: so hashlib keeps the GIL): the
    same digest."""
    rnd = random.Random(5)
    for n in (0, 1, 2046, 2047, 2048, 4094, 4095, 4096, 9000):
        text = rnd.randbytes(n)
        assert patch.hash_of(text) == hashlib.sha256(text).hexdigest()[: patch.HASH_CHARS], n


def test_a_patch_that_does_not_fit_is_refused() -> None:
    for ops, doc in [
        ([["/b/c", 2]], {"a": 1}),
        ([["/a/0"]], {"a": []}),
        ([["/a/01", 2]], {"a": [1]}),
        ([["/a/2", 2]], {"a": [1]}),  # one past the end appends; two past is not there
        ([["/a", 1, 2]], {"a": 1}),
        ([{"op": "replace", "path": "/a", "value": 2}], {"a": 1}),
        ([["a", 1]], {"a": 1}),
        ([[""]], {"a": 1}),
    ]:
        with pytest.raises(patch.PatchError):
            patch.apply(ops, doc)
    doc = {"a/b": {"~": 1}, "c": [1]}
    assert patch.apply([["/a~1b/~0", 2], ["/c/1", 3], ["/d", None]], doc) == {
        "a/b": {"~": 2},
        "c": [1, 3],
        "d": None,
    }
    assert doc == {"a/b": {"~": 1}, "c": [1]}


def test_the_hash_spells_numbers_as_javascript_does() -> None:
    assert patch.canonical({"b": [1.0, -0.0, 2.5], "a": "x:1.0,"}) == b'{"a":"x:1.0,","b":[1,0,2.5]}'
    assert patch.view_hash({"a": 1.0}) == patch.view_hash({"a": 1}) != patch.view_hash({"a": True})
    assert len(patch.view_hash({})) == patch.HASH_CHARS
    # Where orjson writes an exponent and JavaScript does not, or with another sign: a Dorasure
    # chance of seven sixes (3.6e-6) is one (the WebSocket fuzzer found the gap).
    floats = [5e-6, 1.2e-6, 9.9e-7, 1e-5, 1e16, 1.5e20, 1e21, -4e-7, 1.7976931348623157e308]
    assert patch.canonical({"x": floats, "s": "5e-6"}) == (
        b'{"s":"5e-6","x":[0.000005,0.0000012,9.9e-7,0.00001,10000000000000000,'
        b"150000000000000000000,1e+21,-4e-7,1.7976931348623157e+308]}"
    )


words = st.sampled_from(["x:1.0,", "q[2.0]", "e-1", "one-eyed", "0.05", "a\\", 'b\\"1.0}', "5e-6"])
numbers = st.sampled_from([1.0, -0.0, 2.05, 10.0, 5e-6, 1e16, 1e21, -4e-7, 0.5, 3, True])


@settings(max_examples=400, deadline=None)
@given(st.recursive(words | numbers | scalars, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(keys | words, inner, max_size=4), max_leaves=20))  # fmt: skip
def test_a_text_is_spelled_again_whenever_javascript_spells_a_number_otherwise(value: Any) -> None:
    """``_spelled`` passes over a text again only when a quick search finds a number there that
    JavaScript may spell otherwise: what it leaves is what the exact pass gives."""
    text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    assert patch._spelled(value) == patch._JS_DIFFERS.sub(patch._as_javascript, text)


@settings(max_examples=600, deadline=None)
@given(st.binary(max_size=10).map(lambda b: bytes(b'.0e-+,]}a1"'[x % 11] for x in b)))
def test_the_quick_search_finds_every_mark_of_a_number_spelled_otherwise(text: bytes) -> None:
    """``_may_differ``: an integral float's ".0" before a delimiter or at the end, or an "e"
    before a sign, wherever they stand (the first byte and the last included)."""
    assert patch._may_differ(text) == bool(re.search(rb"\.0(?:[,\]}]|$)|e[-+]", text))


def parts(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from parts(v)
    elif isinstance(value, list):
        for v in value:
            yield from parts(v)


def game_docs(game: Game[Any], seed: int, limit: int) -> Iterator[tuple[str | None, dict[str, Any]]]:
    """Each audience's ``{"v": view, "l": legal, "t": to_act}`` after each action of a seeded random game, as
    the server sends it (the final one revealed)."""
    options = game.normalize_options(game.sim_options(driver_rng(seed), None, {}))
    record = play_random(game, seed, options, max_actions=limit)
    audiences = [s.seat for s in game.seats(options)] + [None]
    state = game.initial_state(seed_from_int(seed), options)
    for n in range(len(record.actions) + 1):
        if n:
            state = game.apply(state, *record.actions[n - 1]).state
        done = game.outcome(state) is not None
        for seat in audiences:
            legal = game.legal_actions(state, seat) if seat is not None and not done else []
            to_act = sorted(game.to_act(state)) if not done else []
            yield (
                seat,
                json.loads(json.dumps({"v": game.view(state, seat, reveal=done), "l": legal, "t": to_act})),
            )


def view_pairs(game: Game[Any], seed: int, limit: int) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    last: dict[str | None, dict[str, Any]] = {}
    for seat, doc in game_docs(game, seed, limit):
        if seat in last:
            yield last[seat], doc
        last[seat] = doc


@pytest.mark.parametrize(("game", "seeds", "limit"), [(DORASURE, range(1, 6), 400), (DORN, range(1, 2), 200)])
def test_patches_between_the_views_of_random_games(game: Game[Any], seeds: range, limit: int) -> None:
    pairs = smaller = 0
    for seed in seeds:
        for a, b in view_pairs(game, seed, limit):
            ops = patch.diff(a, b)
            assert same(patch.apply(ops, a), b)
            # Every value a patch carries is a part of the new view: nothing another seat sees.
            new_parts = {patch.canonical(p) for p in parts(b)}
            assert all(patch.canonical(op[1]) in new_parts for op in ops if len(op) == 2)
            pairs += 1
            smaller += patch.encoded_size(ops) < patch.encoded_size(b)
    assert pairs > 100 and smaller > pairs * 0.9


def test_one_steps_audiences_sharing_their_views_get_the_patches_each_would_alone() -> None:
    """The server builds a step's views at once (``SharedViews``: one build of the common part)
    and diffs its audiences' docs with one memo: each audience's patch is the one a diff of its
    own docs alone gives, and the common parts are worked out once, not once per audience."""
    game = DORASURE
    options = game.normalize_options({"heroes": ["ninja", "hunter", "paladin"]})
    record = play_random(game, 7, options, max_actions=300)
    audiences: list[str | None] = [*options["heroes"], None]
    state = game.initial_state(seed_from_int(7), options)
    last: dict[str | None, dict[str, Any]] = {}
    hits = steps = shared = kept = kept_parts = 0
    for n in range(len(record.actions) + 1):
        if n:
            state = game.apply(state, *record.actions[n - 1]).state
        views = game.views(state, audiences)  # type: ignore[attr-defined]
        memo: patch.Memo = {}
        texts: patch.Texts = {}
        if None in last:  # the parts that show what they showed: the same objects
            before = last[None]["v"]
            for part in ("heroes", "mountains"):
                for was, now in zip(before[part], views[None][part], strict=True):
                    assert (was is now) == (was == now)
                    kept += was is now
            for part in ("heroes", "mountains", "dragon", "party", "lands", "last"):
                was, now = before[part], views[None][part]
                assert (was is now) == (was == now), part
                kept_parts += was is now
        for seat in audiences:
            assert views[seat] == game.view(state, seat)
            doc = {"v": views[seat], "l": game.legal_actions(state, seat) if seat else [], "t": []}
            assert patch.canonical(doc, texts) == patch.canonical(doc)
            if seat in last:
                before = set(memo)
                ops = patch.diff(last[seat], doc, memo)
                assert ops == patch.diff(last[seat], doc)
                assert same(patch.apply(ops, last[seat]), doc)
                if seat != audiences[0]:
                    # Only the audience's own parts were diffed: the common ones came from the memo.
                    own = [path for _, _, path in set(memo) - before]
                    assert all(path == "/v" or path.startswith(("/v/odds", "/l", "/t")) for path in own), own
                    hits += 1
            last[seat] = doc
        # The seats that owe no roll see what the spectators see: one view, spelled once.
        alike = [seat for seat in audiences if views[seat] is views[None]]
        assert sum(1 for _, text in texts.values() if text == patch.canonical(views[None])) == 1
        shared += len(alike) - 1
        steps += 1
    assert steps > 20 and hits == (steps - 1) * (len(audiences) - 1)
    assert kept > (steps - 1) * 6  # half of the 3 sheets and 9 mountains a step, or more
    assert kept_parts > (steps - 1) * 3  # half of those six parts a step, or more
    assert shared > steps  # most steps: two seats or more wait while one acts


# -- the browser's side, under node ----------------------------------------------------------
def frames_of(game: Game[Any], seed: int, limit: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One seat's welcome and updates as a connection that takes patches gets them."""
    first = game.seats(game.normalize_options(game.sim_options(driver_rng(seed), None, {})))[0].seat
    docs = [doc for seat, doc in game_docs(game, seed, limit) if seat == first]
    welcome = {"type": "welcome", "table": {}, "seat": None, "seq": 0, "static": {}, "view": docs[0]["v"],
               "legal": docs[0]["l"], "to_act": docs[0]["t"], "deadline": None, "missed": []}  # fmt: skip
    updates = []
    for seq, (a, b) in enumerate(zip(docs, docs[1:], strict=False), start=1):
        whole = protocol.update(seq, [], "x", f"a{seq}", False, b["v"], b["l"], b["t"], None)
        patched = protocol.patched_update(
            seq, [], "x", f"a{seq}", False, patch.diff(a, b), patch.view_hash(b), None
        )
        frame = patched if len(protocol.dumps(patched)) < len(protocol.dumps(whole)) else whole
        updates.append({"frame": frame, "doc": b})
    return welcome, updates


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the client's side")
def test_the_browser_client_applies_and_hashes_as_the_server(tmp_path: Path) -> None:
    pairs = []
    for game, seed, limit in [(DORASURE, 1, 400), (DORN, 1, 120)]:
        for a, b in view_pairs(game, seed, limit):
            pairs.append({"base": a, "patch": patch.diff(a, b), "hash": patch.view_hash(b), "doc": b})
    odd = {"a": [1.0, -0.0, 2.5, "x:1.0,", {"é😀": "\u2028\x01", "b/~": 10.0}],
           "e": [3.6e-6, 5e-6, 1.2e-6, 9.9e-7, 1e16, 1.5e20, 1e21, -4e-7, "1e-7"]}  # fmt: skip
    pairs.append({"base": {}, "patch": patch.diff({}, odd), "hash": patch.view_hash(odd), "doc": odd})
    welcome, updates = frames_of(DORASURE, 1, 400)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps({"pairs": pairs, "stream": {"welcome": welcome, "updates": updates}}))
    result = subprocess.run(
        ["node", "--experimental-default-type=module", "--test", str(HERE / "patch_client.mjs")],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATCH_CASES": str(cases), "PATH": "/usr/local/bin:/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# pass 5" in result.stdout and "# fail 0" in result.stdout, result.stdout
