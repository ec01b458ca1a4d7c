"""Issue 13, point 9, in real Chromium: every text the renderers draw reaches WCAG AA, and a
Dorasure turn is played from the keyboard.

Contrast: both renderers draw views and legal actions from random games of the real engines
at 1366x768 while every fillText is recorded (tests/e2e/js/text_audit.mjs) with the pixels
under it; each text must reach 4.5:1 against them, Dorn's panel and rulers must not drop
under 11 and 10 px, Dorasure's words under 9 px. The token chips of the hero panels (the only
colours the renderers set in HTML) must reach 4.5:1 too.

Keyboard: against the real server, a hero's whole turn through the renderer's cursor
methods (what the page's arrow, Tab and Enter keys call: cursorNext, cursorMove, cursorAct,
describeTargets) and the page's buttons reached with Tab and pressed with Enter. The cursor
is drawn where it is, and its words name the place and what Enter does there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import Recorder, canvas_pixels, close, finish, repo_page, seq_of
from .test_renderer_parts_js import _fixture_json
from .test_renderer_texts import dorasure_opening_with_a_move

pytestmark = pytest.mark.e2e

AUDIT = """async ({ game, fixture }) => {
    const { auditTexts } = await import('/tests/e2e/js/text_audit.mjs');
    const { contrast, parseColor } = await import('/frontend/js/games/color.js');
    const { createRenderer } = await import(`/frontend/js/games/${game}.js`);
    // The table page at 1366 x 768: a 960 px board column, hero panels under it.
    const wrap = document.createElement('div');
    wrap.style.width = '960px';
    const canvas = document.createElement('canvas');
    wrap.append(canvas);
    const panels = document.createElement('div');
    panels.id = 'hero-panels';
    panels.style.height = '250px';
    document.body.append(wrap, panels);
    const r = createRenderer({ canvas, static: fixture.static, table: { seats: [] } });
    const audit = auditTexts();
    for (const s of fixture.samples) {
        r.setState(s.view, { legal: s.legal, seat: s.seat, selection: null });
        if (r.cursorNext) r.cursorNext(1);
    }
    audit.stop();
    // The inline colours of the panels' HTML (token chips) on their own backgrounds.
    const chips = [];
    for (const s of fixture.samples.slice(0, 6)) {
        const el = r.heroPanels(s.view, { table: { seats: [] }, mine: [s.seat], toAct: [] });
        document.body.append(el);
        for (const node of el.querySelectorAll('[style]')) {
            if (!node.style.color || !node.textContent.trim()) continue;
            const cs = getComputedStyle(node);
            const fg = parseColor(cs.color), bg = parseColor(cs.backgroundColor);
            if (fg && bg && bg[3] > 0) chips.push({ text: node.textContent, ratio: contrast(fg, bg) });
        }
        el.remove();
    }
    return { texts: audit.texts, chips, cell: r.cell || null, width: canvas.getBoundingClientRect().width };
}"""

# The smallest text each renderer may draw: words (4+ characters), and the marks on tokens.
SMALLEST = {"dorn": {"words": 11, "marks": 6}, "dorasure": {"words": 9, "marks": 6}}


@pytest.mark.parametrize("game", ["dorn", "dorasure"])
def test_every_text_reaches_aa(browser: Any, game: str) -> None:
    page = repo_page(browser, "access.test", viewport={"width": 1366, "height": 768})
    out = page.evaluate(AUDIT, {"game": game, "fixture": json.loads(_fixture_json(game))})
    page.close()
    assert page.js_errors == []
    texts = out["texts"]
    assert len(texts) > 200, len(texts)
    low = sorted(
        {(round(t["ratio"], 2), t["fg"], t["bg"], t["text"][:30]) for t in texts if t["ratio"] < 4.5}
    )
    assert not low, low[:20]
    small = SMALLEST[game]
    tiny = sorted(
        {
            (round(t["px"], 1), t["text"][:30])
            for t in texts
            if t["px"] < (small["words"] if len(t["text"]) > 3 else small["marks"])
        }
    )
    # Dorn's rulers are numbers of 1-2 characters at 10 px at least.
    assert not tiny, tiny[:20]
    assert out["chips"] and all(c["ratio"] >= 4.5 for c in out["chips"]), [
        c for c in out["chips"] if c["ratio"] < 4.5
    ]
    if game == "dorn":
        assert out["cell"] >= 26 and out["width"] > 850, out


def tab_to(page: Any, selector: str, presses: int = 60) -> None:
    """Press Tab until the focused element matches `selector` (as a keyboard player would)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement && document.activeElement.matches(sel)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def enter(page: Any, act_js: str) -> None:
    """What the page's Enter does with the renderer's answer: the same as a click on the board."""
    page.evaluate(
        f"""() => {{
            const t = window.__dt.table;
            const m = t.moves || t;
            const a = {act_js};
            if (!a) throw new Error('Enter acts on nothing here');
            if (a.select !== undefined) m.select(a.select);
            else if (a.choose) throw new Error('a choice: ' + JSON.stringify(a));
            else m.send(a);
        }}"""
    )


def test_a_dorasure_turn_from_the_keyboard(browser: Any, server: Any, artifacts: Path) -> None:
    recorder = Recorder()
    page, hero, legal = dorasure_opening_with_a_move(
        browser,
        recorder,
        server.base_url,
        lambda page, hero: page.click(f'button.seat-tab[data-seat="{hero}"]'),
    )

    # The targets in one sentence, for the live region: every reachable place by name.
    said = page.evaluate("() => window.__dt.renderer.describeTargets()")
    reachable = {a["to"] for a in legal if a["type"] == "move"}
    assert said.startswith(f"{len(reachable)} lit hex"), said

    # Arrow keys put the cursor on the hero's hex and walk the map; its words say what is there.
    first = page.evaluate("() => window.__dt.renderer.cursorMove(0, 0)")
    assert "Here: " in first and "Enter" in first, first
    east = page.evaluate("() => window.__dt.renderer.cursorMove(1, 0)")
    assert east != first
    page.evaluate("() => window.__dt.renderer.cursorMove(-1, 0)")

    # Tab-like jumps visit the lit hexes; the cursor is drawn where it stands.
    words = page.evaluate("() => window.__dt.renderer.cursorNext(1)")
    assert "Enter: Move to " in words, words
    cursor = page.evaluate(
        """() => { const r = window.__dt.renderer; const s = r.byId.get(r.cursor);
                   const c = r.layout.corners(s.q, s.r, 2); return { x: (c[0].x + c[1].x) / 2, y: (c[0].y + c[1].y) / 2 }; }"""
    )
    (rgba,) = canvas_pixels(page, [cursor])
    assert close(rgba, (0x4F, 0xD1, 0xFF), 60), rgba
    target = page.evaluate(
        "() => window.__dt.renderer.cursorAct(window.__dt.table.current.legal, { selection: window.__dt.table.selection })"
    )
    assert target in legal and target["type"] == "move", target
    page.screenshot(path=str(artifacts / "keyboard-cursor.png"))

    before = seq_of(page)
    enter(page, "window.__dt.renderer.cursorAct(t.current.legal, { selection: t.selection })")
    page.wait_for_function(f"() => window.__dt.table.current.seq > {before}")
    assert (
        next(h for h in page.evaluate("() => window.__dt.table.current.view.heroes") if h["id"] == hero)[
            "pos"
        ]
        == target["to"]
    )

    # The rest of the turn: the page's buttons, reached with Tab and pressed with Enter.
    for _ in range(12):
        view = page.evaluate("() => window.__dt.table.current.view")
        if view["current"] != hero or view["outcome"]:
            break
        if page.evaluate("() => window.__dt.table.activeSeat") != hero:
            page.click(f'button.seat-tab[data-seat="{hero}"]')
        kinds = page.evaluate(
            "() => [...document.querySelectorAll('#prompt-dialog[open] button.action, #controls button.action')].map((b) => b.dataset.kind)"
        )
        kind = next(
            (k for k in ("end_turn", "rest", "pass", "decline", "spend", "absorb", "end_move") if k in kinds),
            kinds[0] if kinds else None,
        )
        assert kind, "no button to press"
        before = seq_of(page)
        tab_to(page, f'button.action[data-kind="{kind}"]')
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => window.__dt.table.current.seq > {before}")
    assert page.evaluate("() => window.__dt.table.current.view.current") != hero, "the turn passed on"
    finish(recorder, server.base_url, page)
