"""What bench/capacity.py and bench/server_load.py read of the server's own account of itself,
from ``GET /metrics``: the fan-out's totals, the players' path and the commit's histograms, the
group commit's batches (backend/play/metrics.py)."""

from __future__ import annotations

import re

import httpx


async def metrics_text(base: str) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return (await http.get("/metrics")).text


async def totals(base: str, name: str) -> tuple[float, float]:
    """A histogram's sum and count, from /metrics."""
    text = await metrics_text(base)
    found = dict(re.findall(rf"^{name}_(sum|count) ([0-9.e+-]+)$", text, re.M))
    return float(found.get("sum", 0)), float(found.get("count", 0))


async def fanout_totals(base: str) -> tuple[float, float]:
    """The server's own account of its fan-out (commit to every connection's frame handed to
    its socket): seconds in all and actions, from /metrics."""
    return await totals(base, "dragontable_commit_fanout_seconds")


async def histogram(base: str, name: str) -> dict[float, float]:
    """A histogram of /metrics: cumulative counts by bucket bound."""
    text = await metrics_text(base)
    found = re.findall(rf'^{name}_bucket\{{le="([^"]+)"\}} ([0-9.e+-]+)$', text, re.M)
    return {float(le): float(n) for le, n in found}


async def seats_histogram(base: str) -> dict[float, float]:
    """The server's own account of the players' path (an action's arrival to the last seat's
    update handed to its socket), from /metrics: cumulative counts by bucket bound (seconds)."""
    return await histogram(base, "dragontable_action_seats_seconds")


async def gc_pauses(base: str) -> tuple[float, float]:
    """The cyclic collector's pauses so far, all generations: seconds in all and passes, from
    /metrics (0 and 0 from a server that does not time them)."""
    return gc_totals(await metrics_text(base))


def gc_totals(text: str) -> tuple[float, float]:
    """``gc_pauses`` from the text of /metrics."""
    found = re.findall(r'^dragontable_gc_pause_seconds_(sum|count)\{generation="\d"\} ([0-9.e+-]+)$', text, re.M)
    return sum(float(v) for k, v in found if k == "sum"), sum(float(v) for k, v in found if k == "count")


Commits = tuple[dict[float, float], tuple[float, float]]


async def commits(base: str) -> Commits:
    """The commits so far: an action's arrival to its durable commit (the group commit's wait),
    and the batches' sum and count, from /metrics."""
    return await histogram(base, "dragontable_action_commit_seconds"), await totals(base, "dragontable_commit_batch_size")


def commit_figures(before: Commits, after: Commits) -> dict[str, float | None]:
    """Between two reads of ``commits``: the wait's p50 and p99 (ms), and actions per commit."""
    (waits0, (batched0, batches0)), (waits1, (batched1, batches1)) = before, after
    return {
        "commit_p50_ms": histogram_quantile(waits0, waits1, 0.5),
        "commit_p99_ms": histogram_quantile(waits0, waits1, 0.99),
        "actions_per_commit": round((batched1 - batched0) / max(1.0, batches1 - batches0), 1),
    }


def histogram_quantile(before: dict[float, float], after: dict[float, float], q: float) -> float | None:
    """``q``'s quantile, in ms, of what was observed between two reads of a histogram
    (Prometheus's estimate: linear within the bucket it falls in)."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    total = counts[-1] if counts else 0.0
    if total <= 0:
        return None
    rank, lower, below = q * total, 0.0, 0.0
    for bound, cumulative in zip(bounds, counts, strict=True):
        if cumulative >= rank:
            if bound == float("inf"):
                return round(1000 * lower, 2)
            inside = cumulative - below
            return round(1000 * (lower + (bound - lower) * ((rank - below) / inside if inside else 1.0)), 2)
        lower, below = bound, cumulative
    return None
