"""The "Your move" controls (frontend/js/moves.js) in Chromium, with a stand-in table whose
renderer plans a fixed dialog: a board click that fits several actions asks which one over the
step's own dialog and keeps asking across updates until answered or cancelled, Cancel gives the
dialog back; a kept dialog's buttons follow the table (disabled while an action is on its way,
a pick shown pressed) without being made again."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import repo_page

pytestmark = pytest.mark.e2e

SCRIPT = """async () => {
    const { MoveControls } = await import('/frontend/js/moves.js');
    const rescue = [{ type: 'rescue', hero: 'H1', to: [3, 4] }, { type: 'rescue', hero: 'H2', to: [3, 4] }];
    const heal = { type: 'choose', key: 'heal' };
    const sent = [];
    let answer = null;
    const table = {
        table: { seats: [] },
        activeSeat: 'heroes',
        selection: null,
        current: { view: { phase: 'H1' }, to_act: ['heroes'], legal: [...rescue, heal], deadline: null },
        connections: new Map([['heroes', { act: (a) => { sent.push(a); return new Promise((ok) => { answer = ok; }); } }]]),
        renderer: {
            // The step's own dialog: a Blessing with one answer and one pick ("use:") that follows the selection.
            controls: (view, legal, { selection }) => ({
                groups: [],
                prompt: { title: 'Blessing of Light', items: [
                    { action: heal, label: 'Heal' },
                    { select: 'use:H1', label: 'Aim it…', selected: selection === 'use:H1' },
                ] },
            }),
            actionLabel: (a) => `Rescue with ${a.hero}`,
        },
        renderBoard() {},
        announceTargets() {},
    };
    const m = new MoveControls(table);
    document.body.append(m.el, m.dialog);
    const shown = () => ({
        open: m.dialog.open,
        title: m.dialog.querySelector('h2')?.textContent,
        actions: [...m.dialog.querySelectorAll('.dialog-actions > button.action')].map((b) => b.textContent),
        cancel: Boolean(m.dialog.querySelector('.dialog-cancel')),
    });
    const steps = {};
    m.render();
    steps.prompt = shown();
    m.boardAction({ choose: rescue, title: 'Which hero goes there?' });
    steps.choice = shown();
    m.render(); // another update arrives while the question is open
    steps.update = shown();
    m.dialog.querySelector('.dialog-cancel').click();
    steps.cancelled = shown();

    // A kept dialog: the same buttons, their state following the table.
    const heal0 = m.dialog.querySelector('.dialog-actions > button.action');
    const aim0 = m.dialog.querySelectorAll('.dialog-actions > button.action')[1];
    steps.aimBefore = [aim0.getAttribute('aria-pressed'), aim0.classList.contains('selected')];
    aim0.click(); // select('use:H1') renders again
    const aim1 = m.dialog.querySelectorAll('.dialog-actions > button.action')[1];
    steps.aimAfter = [aim1 === aim0, aim1.getAttribute('aria-pressed'), aim1.classList.contains('selected')];
    m.boardAction({ choose: rescue, title: 'Which hero goes there?' });
    m.dialog.querySelectorAll('.dialog-actions > button.action')[1].click(); // rescue with H2: on its way
    steps.sent = sent.slice();
    const busy = m.dialog.querySelector('.dialog-actions > button.action');
    steps.whileSending = [shown().title, busy.disabled, busy === heal0];
    answer();
    await new Promise((ok) => setTimeout(ok, 0));
    const after = m.dialog.querySelector('.dialog-actions > button.action');
    steps.afterSending = [after.disabled, after === busy];
    return steps;
}"""


def test_a_board_choice_asks_over_the_steps_dialog_and_kept_buttons_follow(browser: Any) -> None:
    page = repo_page(browser, "moves.test")
    steps = page.evaluate(SCRIPT)
    page.close()
    assert page.js_errors == []
    prompt = {"open": True, "title": "Blessing of Light", "actions": ["Heal", "Aim it…"], "cancel": False}
    choice = {
        "open": True,
        "title": "Which hero goes there?",
        "actions": ["Rescue with H1", "Rescue with H2"],
        "cancel": True,
    }
    assert steps["prompt"] == prompt
    assert steps["choice"] == choice
    assert steps["update"] == choice
    assert steps["cancelled"] == prompt
    assert steps["aimBefore"] == ["false", False]
    assert steps["aimAfter"] == [True, "true", True]
    assert steps["sent"] == [{"type": "rescue", "hero": "H2", "to": [3, 4]}]
    assert steps["whileSending"] == ["Blessing of Light", True, False]
    assert steps["afterSending"] == [False, True]
