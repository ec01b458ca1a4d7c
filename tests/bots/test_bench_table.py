"""bench/bots.py's table in bench/README.md: rows come from the game records, and a configuration
whose records are not on this machine keeps the row already written."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import bots  # noqa: E402


def test_a_row_without_records_here_is_kept_and_one_with_records_is_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = tmp_path / "README.md"
    old_strong = "| dorasure | 4 heroes, strong | 100 | heroes 33 | 33.0 % | 24.6–42.7 % | strong | 1 | 2 | 3 | 0.25 | 9 |"
    old_dorn = "| dorn | **strong Keeper** vs steady heroes | 60 | keeper 46 | 76.7 % | 64.6–85.6 % | strong | 1 | 2 | 3 | 0.25 | 9 |"
    readme.write_text("\n".join(["# B", bots.BEGIN, *bots.HEADER, old_strong, old_dorn, bots.END, "after"]) + "\n")
    monkeypatch.setattr(bots, "README", readme)
    results = tmp_path / "results"
    results.mkdir()
    games = [
        {"seed": i, "outcome": "players_win" if i < 3 else "players_lose", "actions": 50,
         "seconds": [0.5, 0.9], "wall": [0.6, 1.0], "iterations": [40, 80], "elapsed": 20.0, "budget": 1.0}
        for i in range(4)
    ]  # fmt: skip
    (results / "dorasure-strong.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))

    bots.write_readme("cpu", results)

    text = readme.read_text()
    rows = bots.written_rows(text)
    assert set(rows) == {"dorasure-strong", "dorn-strong-keeper"}
    assert rows["dorn-strong-keeper"] == old_dorn  # no records here: kept as written
    assert rows["dorasure-strong"].startswith("| dorasure | 4 heroes, strong | 4 | heroes 3 | 75.0 % |")
    assert "| 1.0 |" in rows["dorasure-strong"]  # the new records' budget
    assert text.startswith("# B\n") and text.rstrip().endswith("after")
