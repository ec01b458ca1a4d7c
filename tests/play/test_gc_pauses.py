"""The cyclic collector's pauses in the server's metrics (play/metrics.py ``GcPauses``): each
pass timed under its generation while an app runs, and no longer once it stopped."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from backend.play.metrics import GcPauses, Metrics

from .inprocess import serving

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.server_metrics import gc_totals  # noqa: E402


def sample(metrics: Metrics, name: str, generation: int) -> float:
    value = metrics.registry.get_sample_value(
        f"dragontable_gc_pause_seconds_{name}", {"generation": str(generation)}
    )
    assert value is not None
    return value


def passes(metrics: Metrics, generation: int) -> float:
    return sample(metrics, "count", generation)


def test_every_pass_is_timed_under_its_generation_until_removed() -> None:
    metrics = Metrics()
    assert [passes(metrics, g) for g in range(3)] == [0, 0, 0]
    pauses = GcPauses(metrics)
    pauses.install()
    try:
        gc.collect(0)
        gc.collect(2)
        gc.collect(2)
    finally:
        pauses.remove()
    # Automatic passes may come between; the ones asked for are there, each under its generation.
    assert passes(metrics, 0) >= 1 and passes(metrics, 2) >= 2
    assert sample(metrics, "sum", 0) > 0 and sample(metrics, "sum", 2) > 0
    before = [passes(metrics, g) for g in range(3)]
    gc.collect(0)
    gc.collect(2)
    assert [passes(metrics, g) for g in range(3)] == before  # removed: not told of later passes


async def test_the_app_times_the_collector_while_it_runs(tmp_path: Path) -> None:
    async with serving(tmp_path) as (app, _, _port):
        [installed] = [cb for cb in gc.callbacks if isinstance(cb, GcPauses)]
        metrics: Metrics = app.state.metrics
        gc.collect(1)
        assert passes(metrics, 1) >= 1
        exposed = metrics.exposition().decode()
        for g in "012":
            assert f'dragontable_gc_pause_seconds_count{{generation="{g}"}}' in exposed
        # What the load benchmark reads of it (bench/server_metrics.py): every generation's
        # (no pass may come between the two reads).
        gc.disable()
        try:
            seconds, count = gc_totals(metrics.exposition().decode())
            assert count == sum(passes(metrics, g) for g in range(3)) >= 1
            assert seconds == sum(sample(metrics, "sum", g) for g in range(3)) > 0
        finally:
            gc.enable()
    assert installed not in gc.callbacks
