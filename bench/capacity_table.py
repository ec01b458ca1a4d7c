"""The "Capacity" table of bench/README.md, from one run of bench/capacity.py (its result dict)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent / "README.md"
BEGIN, END = "<!-- capacity:begin -->", "<!-- capacity:end -->"


def write_readme(r: dict[str, Any]) -> None:
    lines = [
        BEGIN,
        f"Last run of `python bench/capacity.py`: one server process (SQLite), {r['cores']} cores "
        + (f"({r['pinned']}: `--pin`)" if r.get("pinned") else "shared with the load generator")
        + f", load average {r['load_average'][0]} → {r['load_average'][-1]}; "
        f"empty server {r['empty_server_rss_kib']} KiB resident.",
        "",
        "| measure | figure | baseline in the same run | goal |",
        "|---|---|---|---|",
    ]
    if "idle" in r:
        i = r["idle"]
        lines.append(f"| {i['connections']} idle WebSockets: memory each | {i['kib_per_connection']} KiB | "
                     f"{i['rss_before_kib']} → {i['rss_after_kib']} KiB resident | ≤ 20 KiB |")  # fmt: skip
        lines.append(f"| `/healthz` p50 / worst with them connected | {i['healthz_during_ms'][0]} / {i['healthz_during_ms'][1]} ms | "
                     f"{i['healthz_before_ms'][0]} / {i['healthz_before_ms'][1]} ms before | < 50 ms |")  # fmt: skip
    if "tables" in r:
        t = r["tables"]
        for game, goal in (("dorasure", 16), ("dorn", 32)):
            g = t[game]
            lines.append(f"| a {game} table at rest ({t['tables']} tables, {g['actions_per_table']} actions each, "
                         f"after {t.get('warm', 0)} of each game) | "
                         f"{g['kib_per_table']} KiB | – | ≤ {goal} KiB |")  # fmt: skip
    if "storm" in r:
        s = r["storm"]
        lines.append(f"| reconnect storm: {s['clients']} clients after a SIGKILL and restart | all resynced in "
                     f"{s['all_resynced_s']} s (p50 {s['resynced_p50_s']} s) | {s['connect_attempts']} connection attempts | ≤ 10 s |")  # fmt: skip
    if "audience" in r:
        a = r["audience"]
        al, w = a["alone"], a["watched"]
        lines.append(f"| players' p50 / p99 at {a['rate']:g} actions/s with {w['spectators']} spectators "
                     f"({w['actions']} actions, {w['tables']} tables) | "
                     f"{w['players_p50_ms']} / {w['players_p99_ms']} ms | {al['players_p50_ms']} / {al['players_p99_ms']} ms alone "
                     f"(ratio {a['p99_ratio']}) | p99 within 20 % |")  # fmt: skip
        if w.get("server_seats_p99_ms") is not None:
            lines.append(f"| the players' path inside the server (arrival to the last seat's frame handed to its socket), p50 / p99 "
                         f"from /metrics' buckets, {w['spectators']} spectators | {w['server_seats_p50_ms']} / {w['server_seats_p99_ms']} ms | "
                         f"{al['server_seats_p50_ms']} / {al['server_seats_p99_ms']} ms alone | – |")  # fmt: skip
        lines.append(f"| server's fan-out per action (commit to every frame handed to its socket), {w['spectators']} spectators | "
                     f"{w['server_fanout_ms_per_action']} ms | {al['server_fanout_ms_per_action']} ms alone | – |")  # fmt: skip
        lines.append(f"| frames per action and connection, {w['spectators']} spectators | {w['frames_per_action_per_connection']} | "
                     f"{al['frames_per_action_per_connection']} alone | O(n): ≈ 1 |")  # fmt: skip
        lines.append(
            f"| frames at the table per spectator arrival (presence coalesced) | {w['arrival_frames_per_arrival']} | "
            f"{w['spectators']} connections there at most | O(n): ≤ n |"
        )
    lines += ["", END]
    body = "\n".join(lines) + "\n"
    text = README.read_text()
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END) + "\n?", body, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n## Capacity\n\n" + body
    README.write_text(text)
