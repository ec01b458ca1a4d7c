"""``python -m backend simulate GAME --bots ...`` seats bots of any level (issue 12, point 6)."""

from __future__ import annotations

import contextlib
import io

import pytest

from backend.__main__ import main


def run(*argv: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue().splitlines()


def test_steady_bots_play_reproducible_games():
    args = ("simulate", "dorasure", "--games", "2", "--players", "4", "--seed", "3", "--bots", "steady")
    first, second = run(*args), run(*args)
    games = [line for line in first if line.startswith("seed=")]
    assert len(games) == 2 and games == [line for line in second if line.startswith("seed=")]
    for line in games:
        fields = dict(part.split("=", 1) for part in line.split())
        assert fields["outcome"] in {"players_win", "players_lose"} and len(fields["hash"]) == 64
    summary = first[-1]
    assert (
        summary.startswith("summary: games=2") and "bots=steady" in summary and "decision_ms_p95=" in summary
    )


def test_levels_per_seat():
    lines = run(
        "simulate", "dorn", "--games", "1", "--players", "2", "--seed", "4",
        "--bots", "keeper=strong,steady", "--budget", "0.02", "--round-limit", "2",
    )  # fmt: skip
    assert lines[0].startswith("seed=4 outcome=")
    assert "bots=keeper=strong,steady" in lines[-1]


def test_without_bots_the_output_is_the_steered_driver():
    lines = run("simulate", "dorasure", "--games", "1", "--players", "4", "--seed", "5")
    assert lines[-1].startswith("summary: games=1") and "bots=" not in lines[-1]


@pytest.mark.parametrize("spec", ["clever", "nobody=steady", "keeper=steady"])
def test_bad_bot_specs_are_refused(spec):
    with pytest.raises(SystemExit):
        run("simulate", "dorasure", "--games", "1", "--players", "2", "--bots", spec)
