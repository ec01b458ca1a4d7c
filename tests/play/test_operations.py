"""Operations (issue 16): metrics scraped after a real game and parsed as Prometheus text;
JSON logs, one object a line, that never hold a token, the seed or a hidden card.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from backend.engine.registry import get_game

from ..server_fixtures import Api, ServerProcess, WsClient, play_random, start_table
from .helpers import hidden, states_of


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


async def test_metrics_and_json_logs_after_a_real_game(tmp_path: Path) -> None:
    log_path = tmp_path / "server.log"
    env = {"DRAGONTABLE_LOG_FORMAT": "json"}
    with ServerProcess(f"sqlite:///{tmp_path / 'o.db'}", env=env, log_path=log_path, log_level="info") as server:
        api = Api(server.base_url)
        tid, tokens = start_table(api, options={"players": 2, "target": 30})
        seats = {s: WsClient(server.ws_url(tid), t) for s, t in tokens.items()}
        watcher = WsClient(server.ws_url(tid))
        for c in [*seats.values(), watcher]:
            await c.connect()
        mid = samples(httpx.get(f"{server.base_url}/metrics").text)
        assert mid[("dragontable_connections", (("kind", "seat"),))] == 2
        assert mid[("dragontable_connections", (("kind", "spectator"),))] == 1
        assert mid[("dragontable_live_tables", ())] == 1
        await seats["p1"].send({"type": "act", "seq": 99, "action_id": "old", "action": {"type": "roll"}})
        assert (await seats["p1"].expect("rejected"))["code"] == "stale"
        acked = await play_random(seats, [watcher], random.Random(1))
        for c in [*seats.values(), watcher]:
            if c.finished is None:
                await c.expect("finished")
        after = samples(httpx.get(f"{server.base_url}/metrics").text)
        assert after[("dragontable_actions_applied_total", (("game", "toy"),))] == len(acked)
        assert after[("dragontable_actions_refused_total", (("code", "stale"),))] == 1
        assert after[("dragontable_action_commit_seconds_count", ())] == len(acked)
        assert after[("dragontable_commit_fanout_seconds_count", ())] == len(acked)
        # The players' path (arrival to the seats' frames) is timed for every action too, and
        # it is part of the arrival-to-everyone time: never longer than commit + fan-out.
        assert after[("dragontable_action_seats_seconds_count", ())] == len(acked)
        seats_sum = after[("dragontable_action_seats_seconds_sum", ())]
        assert 0 < seats_sum <= (
            after[("dragontable_action_commit_seconds_sum", ())] + after[("dragontable_commit_fanout_seconds_sum", ())]
        )
        assert sum(v for (name, _), v in after.items() if name == "dragontable_commit_batch_size_sum") == len(acked)
        record = api.export(tid)
        for c in [*seats.values(), watcher]:
            await c.close()

    lines = log_path.read_text().splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    messages = [e["message"] for e in entries]
    assert any("started" in m and e.get("table") == tid for m, e in zip(messages, entries, strict=True))
    assert any("finished" in m and e.get("table") == tid for m, e in zip(messages, entries, strict=True))
    assert any(e.get("code") == "stale" and e.get("table") == tid for e in entries)
    text = log_path.read_text()
    game = get_game("toy")
    states = states_of(game, record)
    for token in [api.token, *tokens.values()]:
        assert token not in text
    assert record["seed"] not in text
    # The cards held during the game never reach the log (at the end everything is revealed).
    secret = set().union(*(hidden(game, s, None) for s in states[:-1]))
    assert not [line for line in lines if any(card in line for card in secret)]


def test_metrics_need_the_token_when_one_is_set(tmp_path: Path) -> None:
    env = {"DRAGONTABLE_METRICS_TOKEN": "s3cret-metrics-token"}
    with ServerProcess(f"sqlite:///{tmp_path / 't.db'}", env=env, log_path=tmp_path / "server.log") as server:
        assert httpx.get(f"{server.base_url}/metrics").status_code == 401
        bad = httpx.get(f"{server.base_url}/metrics", headers={"Authorization": "Bearer wrong"})
        assert bad.status_code == 401
        good = httpx.get(f"{server.base_url}/metrics", headers={"Authorization": "Bearer s3cret-metrics-token"})
        assert good.status_code == 200 and "dragontable_actions_applied" in good.text
