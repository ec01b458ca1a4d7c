"""The Dorn renderer (frontend/js/games/dorn.js) against real game states: random games of
the real engine give views and legal actions from every step (summons, monster moves,
attack declarations, parries, hidden-monster placement, Blessings, hero moves, items,
attacks), and inside Chromium every listed action must be reachable by the controls a
player has: a button (with the right figure picked), a click on its lit cell, or a click
on its target (or, where one's own figure stands on that cell, the question that follows the
click). Every figure that can act must be selectable by clicking its token, and every state
must draw without an error."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from backend.games.dorn.game import GAME

from .helpers import repo_page

pytestmark = pytest.mark.e2e

# Steps and decisions the samples must cover.
WANTED = {
    ("K1", "done"),
    ("K2", "summon"),
    ("K3", "figure_to"),
    ("K4", "attack"),
    ("K4P", "parry"),
    ("H1", "play_blessing"),
    ("H2", "move"),
    ("H3", "attack"),
    ("prompt", "place_monster"),
}


def _kinds(state: Any, legal: list[dict]) -> set[tuple[str, str]]:
    phase = state["phase"]
    out = set()
    for a in legal:
        if a["type"] == "place_monster":
            out.add(("prompt", "place_monster"))
        elif isinstance(a.get("figure"), str) and a.get("to") is not None:
            out.add((phase, "figure_to"))
        else:
            out.add((phase, a["type"]))
    return out


def _samples() -> tuple[dict, list[dict]]:
    """Views and legal actions of random games, a few per kind of decision, until every wanted one was seen."""
    rng = random.Random(7)
    samples: list[dict] = []
    counts: dict[tuple[str, str], int] = {}
    options = GAME.normalize_options({"hero_seats": 2})
    static = GAME.static_info(options)
    for game in range(12):
        state = GAME.initial_state(bytes([game]) * 32, options)
        for _ in range(600):
            seats = sorted(GAME.to_act(state))
            if not seats or GAME.outcome(state) is not None:
                break
            seat = rng.choice(seats)
            legal = GAME.legal_actions(state, seat)
            if not legal:
                break
            kinds = _kinds(state, legal)  # every kind is sampled; WANTED ones must all show up
            if any(counts.get(k, 0) < 3 for k in kinds):
                for k in kinds:
                    counts[k] = counts.get(k, 0) + 1
                samples.append({"seat": seat, "view": GAME.view(state, seat), "legal": legal})
            # Prefer doing things over ending steps, never give up.
            # (Taking back a Done is sampled, never taken: random play would loop on it.)
            doing = [
                a
                for a in legal
                if a["type"] not in ("done", "surrender", "propose_surrender", "take_back_done")
            ]
            if not doing and all(a["type"] == "take_back_done" for a in legal):
                continue  # this seat owes nothing; another seat acts next
            heading = [a for a in doing if a["type"] in ("move", "attack", "summon", "parry")]
            pool = heading if heading and rng.random() < 0.8 else doing
            action = rng.choice(pool) if pool and rng.random() < 0.85 else {"type": "done"}
            if action not in legal:
                action = legal[0]
            state = GAME.apply(state, seat, action).state
        if set(counts) >= WANTED:
            break
    missing = WANTED - set(counts)
    assert not missing, f"random games never reached {missing}"
    return static, samples


CHECK = """async ({ stat, samples }) => {
    const { createRenderer, actorOf, actionCell } = await import('/frontend/js/games/dorn.js');
    const canvas = document.createElement('canvas');
    const wrap = document.createElement('div');
    wrap.style.width = '1000px';
    wrap.append(canvas);
    document.body.append(wrap);
    const r = createRenderer({ canvas, static: stat });
    const problems = [];
    const seen = new Set();
    for (const { seat, view, legal } of samples) {
        const actors = r.actors(legal);
        const selections = [null, ...actors.map((id) => 'fig:' + id),
            ...new Set(legal.filter((a) => a.type === 'summon' || a.type === 'summon_strong')
                .map((a) => 'mon:' + (a.type === 'summon_strong' ? 'strong' : a.monster)))];
        const reached = new Set();
        for (const selection of selections) {
            r.setState(view, { legal, seat, selection });
            const plan = r.controls(view, legal, { seat, selection });
            for (const g of plan.groups) for (const it of g.items) if (it.action) reached.add(it.action);
            if (plan.prompt) for (const it of plan.prompt.items) reached.add(it.action);
            for (const a of legal) {
                const points = [];
                const cell = actionCell(a);
                if (cell) points.push(r.cellToPixel(cell[0], cell[1]));
                if (typeof a.target === 'string' && r.figurePixel(a.target)) points.push(r.figurePixel(a.target));
                for (const p of points) {
                    const got = r.actionAt(p.x, p.y, legal, { selection, view });
                    if (got === a || (got && got.choose && got.choose.includes(a))) reached.add(a);
                    // One's own figure on the cell: the controls ask whether to pick it or go there.
                    if (got && typeof got.select === 'string' && got.select.startsWith('ask:')) {
                        const asked = r.controls(view, legal, { seat, selection: got.select }).prompt;
                        if (asked && asked.items.some((it) => it.action === a)) reached.add(a);
                    }
                }
            }
            if (r.tooltipAt(r.cellToPixel(11, 1).x, r.cellToPixel(11, 1).y) === null) problems.push('no tooltip');
        }
        r.setState(view, { legal, seat, selection: null });
        for (const id of actors) {
            const p = r.figurePixel(id);
            if (!p) continue; // (a hero not on the board)
            const got = r.actionAt(p.x, p.y, legal, { selection: null, view });
            const ok = got && (got.select === 'fig:' + id || got === legal.find((a) => actorOf(a) === id && a.target === undefined) || got.choose);
            if (!ok) problems.push(`${view.phase}: clicking ${id} gives ${JSON.stringify(got)}`);
        }
        for (const a of legal) {
            seen.add(a.type);
            if (!reached.has(a)) problems.push(`${view.phase} ${seat}: no way to take ${JSON.stringify(a)}`);
        }
        r.heroPanels(view, { table: { seats: [] }, toAct: view.to_act, mine: [seat], active: seat });
        r.turnText(view);
        for (const a of legal) r.actionLabel(a);
    }
    // Leave a heroes' attack on the canvas (attacker picked, targets ringed) for the screenshot.
    const attack = samples.find((x) => x.view.phase === 'H3' && x.legal.some((a) => a.type === 'attack'));
    const hero = attack.legal.find((a) => a.type === 'attack').hero;
    r.setState(attack.view, { legal: attack.legal, seat: attack.seat, selection: 'fig:' + hero });
    return { problems: problems.slice(0, 20), count: problems.length, seen: [...seen].sort() };
}"""


def test_every_listed_action_is_reachable(browser, artifacts: Path) -> None:
    static, samples = _samples()
    page = repo_page(browser, "dorn.test", viewport={"width": 1400, "height": 1000})
    result = page.evaluate(CHECK, {"stat": json.loads(json.dumps(static)), "samples": samples})
    page.locator("canvas").screenshot(path=str(artifacts / "dorn-attack.png"))
    page.close()
    assert page.js_errors == []
    assert result["count"] == 0, result["problems"]
    assert {"summon", "attack", "parry", "place_monster", "play_blessing", "move", "done"} <= set(
        result["seen"]
    )
