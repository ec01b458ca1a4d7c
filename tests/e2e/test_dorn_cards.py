"""Dorn's cards and special attacks in real Chromium against the real server, by clicking: the
Keeper plays a Ritual whose choices are made on the board (The Earth Awakens: each barrier's
cell clicked among the lit ones), a hero seat plays its Blessing from its dialog (and on the
board when it has many choices), and Choros makes his level-1 Round attack (cho.whirlwind)
from his Attacks buttons. Two people: the Keeper's browser, and a browser holding both hero
seats (hot-seat). The hero seats' Blessings are checked never to appear on the Keeper's page
(its DOM text and markup) while they are held.

The server seeds each table at random, so the test steers: it makes tables until the Keeper's
hand holds The Earth Awakens, then plays the rounds that lead there (monsters walk to the
heroes, Choros to a monster, monsters strike for the Blood) with the listed actions sent as
the page would send them; only the three acts under test are clicks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server_fixtures import Api

from .helpers import (
    Recorder,
    click_cell,
    click_figure,
    finish,
    lit_cells,
    new_player,
    sync_pages,
    wait_live,
    wait_seq_above,
)

pytestmark = pytest.mark.e2e

HEROES = ["almanor", "choros", "eleanor", "gor", "ragnar"]
SPLIT = [["almanor", "choros"], ["eleanor", "gor", "ragnar"]]
EARTH_AWAKENS = "R11"  # 2 Blood: two barriers, each cell a question (content 4.1)
WHIRLWIND = "cho.whirlwind"
# What a seat may do but never owes: take back its Done, give up (offered at any time).
OPTIONAL = ("take_back_done", "propose_surrender", "surrender", "surrender_vote")


def seat_data(page: Any, seat: str) -> dict[str, Any]:
    return page.evaluate(
        "(seat) => { const d = window.__dt.table.data.get(seat);"
        " return {seq: d.seq, view: d.view, legal: d.legal, to_act: d.to_act}; }",
        seat,
    )


def send(page: Any, seat: str, action: dict[str, Any]) -> None:
    """A listed action sent as the page sends it (for the steps that lead to the ones under test)."""
    before = seat_data(page, seat)["seq"]
    page.evaluate("([seat, a]) => window.__dt.table.connections.get(seat).act(a)", [seat, action])
    page.wait_for_function(f"() => window.__dt.table.data.get({json.dumps(seat)}).seq > {before}")


def show_seat(page: Any, seat: str) -> None:
    page.click(f'#seat-tabs button.seat-tab[data-seat="{seat}"]')
    page.wait_for_function(f"() => window.__dt.table.activeSeat === {json.dumps(seat)}")


def buttons(page: Any, where: str = "#controls, #prompt-dialog[open]") -> list[dict[str, Any]]:
    """The action buttons shown, with their actions."""
    return page.evaluate(
        """(where) => [...document.querySelectorAll(where)].flatMap(box => [...box.querySelectorAll('button.action')])
            .map((b, i) => ({i, label: b.textContent, title: b.title, kind: b.dataset.kind,
                             action: b.dataset.action ? JSON.parse(b.dataset.action) : null}))""",
        where,
    )


def click_button(page: Any, match: Any, where: str = "#controls, #prompt-dialog[open]") -> dict[str, Any]:
    found = [b for b in buttons(page, where) if match(b)]
    assert found, f"no such button among {[b['label'] for b in buttons(page, where)]}"
    page.locator(where).locator("button.action").nth(found[0]["i"]).click()
    return found[0]


def log_text(page: Any) -> str:
    return page.evaluate("() => document.querySelector('.log').innerText")


def page_markup(page: Any) -> str:
    """Everything the Keeper's page shows or holds in its DOM: its text and its markup."""
    return page.evaluate("() => document.body.innerText + '\\n' + document.documentElement.outerHTML")


def near(a: list[int], b: list[int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def owes(legal: list[dict[str, Any]]) -> bool:
    """A hero seat done with the step may only take its Done back: it owes nothing."""
    return any(a["type"] not in OPTIONAL for a in legal)


def hero_cells(view: dict[str, Any]) -> list[list[int]]:
    return [h["cell"] for h in view["heroes"].values() if h["cell"] and h["alive"]]


def keeper_steer(page: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The Keeper's next action on the way: summons, monsters walk to the heroes and strike."""
    types = {a["type"] for a in legal}
    answers = [a for a in legal if a["type"] in ("choose", "place_monster")]
    if answers:
        return answers[0]  # every other question: its default answer
    if view["phase"] == "K3":
        targets = hero_cells(view)
        best = None
        for a in legal:
            if a["type"] != "move" or not a.get("to"):
                continue
            now = view["monsters"].get(a["figure"], {}).get("cell") or view["zorkal"]["cell"]
            here = min(near(now, t) for t in targets)
            there = min(near(a["to"], t) for t in targets)
            if here > 1 and there < here and (best is None or there < best[0]):
                best = (there, a)
        if best:
            return best[1]
    if view["phase"] == "K2" and {"summon", "summon_strong"} & types:
        return next(a for a in legal if a["type"] in ("summon", "summon_strong"))  # more monsters, more Blood
    if view["phase"] == "K4" and "attack" in types:
        return next(a for a in legal if a["type"] == "attack")
    return {"type": "done"}


def hero_steer(
    view: dict[str, Any], seat: str, legal: list[dict[str, Any]], moved: set[str]
) -> dict[str, Any]:
    """A hero seat's next action on the way: heroes walk next to monsters (Choros first) and take the hits."""
    answers = [a for a in legal if a["type"] == "choose"]
    if answers:
        return answers[0]
    if view["phase"] == "H2":
        monsters = [m["cell"] for m in view["monsters"].values() if m["cell"]]
        for hid in sorted({a["hero"] for a in legal if a["type"] == "move"}, key=lambda h: h != "choros"):
            if hid in moved or not monsters:
                continue
            moves = [a for a in legal if a["type"] == "move" and a["hero"] == hid]
            taken = hero_cells(view)
            best = min(
                (a for a in moves if a["to"] not in taken),
                key=lambda a: (
                    min(near(a["to"], m) for m in monsters) != 1,
                    min(near(a["to"], m) for m in monsters),
                ),
                default=None,
            )
            moved.add(hid)
            if best is not None:
                return best
    if view["phase"] == "H3":
        # Almanor's fireball costs him 1 life, a Blood Drop for the Keeper: aimed where no hero stands near.
        heroes = hero_cells(view)
        for a in legal:
            if (
                a.get("ability") == "alm.fireball"
                and a.get("to")
                and all(near(a["to"], c) > 1 for c in heroes)
            ):
                return a
    return {"type": "done"}  # no attacks: the monsters stay next to the heroes and strike for the Blood


def play_ritual_by_clicks(keeper: Any) -> None:
    """The Keeper plays The Earth Awakens from the Blood step's button, then clicks each barrier's cell."""
    start = seat_data(keeper, "keeper")
    before = start["view"]
    button = click_button(keeper, lambda b: (b["action"] or {}).get("card") == EARTH_AWAKENS)
    assert "The Earth Awakens" in button["label"] and "2 Blood" in button["label"], button
    assert "barriers" in button["title"], button  # the card's text on hover
    wait_seq_above(keeper, start["seq"])
    placed: list[list[int]] = []
    for _ in range(2):
        keeper.wait_for_function("() => window.__dt.table.data.get('keeper').view.prompt !== null")
        keeper.wait_for_selector("#prompt-dialog[open]")
        state = seat_data(keeper, "keeper")
        prompt = state["view"]["prompt"]
        assert prompt["seat"] == "keeper" and "barrier" in prompt["text"], prompt
        assert prompt["text"] in keeper.locator("#prompt-dialog").inner_text()
        answers = [a["to"] for a in state["legal"] if a["type"] == "choose"]
        assert answers and sorted(map(tuple, lit_cells(keeper))) == sorted(map(tuple, answers)), (
            "the lit cells are not the question's answers"
        )
        cell = answers[len(answers) // 2]
        click_cell(keeper, cell)
        wait_seq_above(keeper, state["seq"])
        placed.append(cell)
    view = seat_data(keeper, "keeper")["view"]
    assert view["blood"] == before["blood"] - 2
    assert EARTH_AWAKENS in view["ritual_discard"] and EARTH_AWAKENS not in view.get("ritual_hand", [])
    barriers = sorted(o["cell"] for o in view["obstacles"].values() if o["kind"] == "barrier")
    assert barriers == sorted(placed) and all(
        o["life"] == 3 for o in view["obstacles"].values() if o["kind"] == "barrier"
    ), view["obstacles"]
    assert "The Keeper plays the Ritual The Earth Awakens" in log_text(keeper)


TRACE_SELECTION = """() => {
    // Who sets the table's selection, and what each click met: said when a click seems lost.
    const t = window.__dt.table;
    if (window.__selectionTrace) return;
    const trace = (window.__selectionTrace = []);
    let value = t.selection;
    Object.defineProperty(t, "selection", {
        configurable: true,
        get: () => value,
        set: (v) => {
            const at = (new Error().stack || "").split("\\n").slice(2, 4).map((l) => l.trim()).join(" < ");
            trace.push(`${Math.round(performance.now())} ${t.activeSeat} ${value} -> ${v} at ${at}`);
            value = v;
        },
    });
    document.addEventListener("click", (e) => {
        const el = e.target instanceof Element ? e.target.outerHTML.slice(0, 160) : String(e.target);
        trace.push(`${Math.round(performance.now())} click ${el}`);
    }, true);
}"""


def selection_trace(page: Any) -> str:
    """The page's record of selections and clicks, with its dialog and seats, for a failure's message."""
    return page.evaluate(
        "() => JSON.stringify({trace: window.__selectionTrace || [], seat: window.__dt.table.activeSeat,"
        " selection: String(window.__dt.table.selection),"
        " dialog: document.querySelector('#prompt-dialog')?.outerHTML.slice(0, 1500),"
        " seqs: [...window.__dt.table.data.entries()].map(([k, d]) => [k, d.seq])}, null, 1)"
    )


def play_blessing_by_clicks(heroes: Any, seat: str) -> str:
    """The seat plays its Blessing from its dialog (on a hero other than Choros where it can);
    a Blessing with many choices is aimed on the board. Returns the card."""
    heroes.evaluate(TRACE_SELECTION)
    show_seat(heroes, seat)
    heroes.wait_for_selector("#prompt-dialog[open]")
    state = seat_data(heroes, seat)
    card = state["view"]["my_blessing"]
    dialog = heroes.locator("#prompt-dialog").inner_text()
    assert "Your Blessing" in dialog
    plays = [b for b in buttons(heroes, "#prompt-dialog[open]") if b["kind"] == "play_blessing"]
    if plays:
        spare = [b for b in plays if "choros" not in (b["action"]["hero"], b["action"].get("other"))]
        pick = (spare or plays)[0]
        click_button(
            heroes, lambda b: b is not None and b["action"] == pick["action"], "#prompt-dialog[open]"
        )
    else:
        # Many choices: pick the hero who receives it, then its target on the board.
        users = [b for b in buttons(heroes, "#prompt-dialog[open]") if b["kind"] == "use"]
        assert users, buttons(heroes, "#prompt-dialog[open]")
        user = next((b for b in users if "Choros" not in b["label"]), users[0])
        click_button(heroes, lambda b: b["label"] == user["label"], "#prompt-dialog[open]")
        try:
            heroes.wait_for_function(
                "() => String(window.__dt.table.selection).startsWith('use:')", timeout=5000
            )
        except PlaywrightTimeout as exc:
            raise AssertionError(
                f"the hero button never picked the Blessing: {selection_trace(heroes)}"
            ) from exc
        # The dialog stays put, with the picked hero's button shown pressed.
        pressed = heroes.locator('#prompt-dialog[open] button.action[aria-pressed="true"]')
        assert pressed.count() == 1 and pressed.inner_text() == user["label"], selection_trace(heroes)
        # The click plays it, or the dialog asks which play was meant: several end there (another
        # hero and a cell: Rescue), or the click met one of the seat's own heroes. (The question
        # used to open under the Blessing's dialog, and the click seemed to do nothing.)
        lit = lit_cells(heroes)
        if lit:
            click_cell(heroes, lit[len(lit) // 2])
        else:
            click_figure(heroes, heroes.evaluate("() => [...window.__dt.renderer.targeted.keys()][0]"))
        try:
            heroes.wait_for_function(
                f"() => window.__dt.table.data.get({json.dumps(seat)}).seq > {state['seq']}"
                " || document.querySelector('#prompt-dialog[open] button.dialog-cancel')",
                timeout=5000,
            )
        except PlaywrightTimeout as exc:
            raise AssertionError(
                f"the board click never played the Blessing: {selection_trace(heroes)}"
            ) from exc
        if seat_data(heroes, seat)["seq"] == state["seq"]:
            click_button(heroes, lambda b: b["kind"] == "play_blessing", "#prompt-dialog[open]")
    wait_seq_above(heroes, state["seq"])
    view = seat_data(heroes, seat)["view"]
    assert view["my_blessing"] is None and card in view["blessing_discard"], (card, view["blessing_discard"])
    assert "receives the Blessing" in log_text(heroes)
    return card


def whirlwind_by_clicks(heroes: Any) -> None:
    """Choros is picked on the board and makes his Round attack from the Attacks buttons."""
    show_seat(heroes, "heroes_1")
    state = seat_data(heroes, "heroes_1")
    view = state["view"]
    choros = view["heroes"]["choros"]["cell"]
    around = {
        mid: m["life"] for mid, m in view["monsters"].items() if m["cell"] and near(m["cell"], choros) == 1
    }
    assert around, "no creature next to Choros"
    click_figure(heroes, "choros")
    heroes.wait_for_function("() => window.__dt.table.selection === 'fig:choros'")
    groups = heroes.evaluate(
        "() => [...document.querySelectorAll('#controls .control-group')].map(g => g.querySelector('h3')?.textContent || '')"
    )
    assert "Attacks" in groups, groups
    pressed = click_button(heroes, lambda b: (b["action"] or {}).get("with") == WHIRLWIND, "#controls")
    assert "Round Attack" in pressed["label"], pressed
    wait_seq_above(heroes, state["seq"])
    after = seat_data(heroes, "heroes_1")["view"]["monsters"]
    for mid, life in around.items():
        assert mid not in after or after[mid]["life"] == life - 1, (mid, life, after.get(mid))
    assert "Choros" in log_text(heroes)


def test_dorn_ritual_blessing_and_round_attack_by_clicking(browser, server, artifacts: Path) -> None:
    rec = Recorder()
    keeper = new_player(browser, rec)
    heroes = new_player(browser, rec)
    kim, hana = Api(server.base_url, "Kim"), Api(server.base_url, "Hana")

    # A table whose Ritual hand holds The Earth Awakens (the seed is the server's).
    for _attempt in range(12):
        table = kim.create_table("dorn", {"heroes": HEROES, "split": SPLIT})
        tokens = {"keeper": kim.join(table["id"], "keeper")}
        tokens |= {s: hana.join(table["id"], s) for s in ("heroes_1", "heroes_2")}
        kim.start(table["id"])
        hold(keeper, server.base_url, kim, "Kim", table["id"], {"keeper": tokens["keeper"]})
        if EARTH_AWAKENS in seat_data(keeper, "keeper")["view"]["ritual_hand"]:
            break
    else:
        pytest.fail("no table dealt The Earth Awakens")
    hold(heroes, server.base_url, hana, "Hana", table["id"], {s: tokens[s] for s in ("heroes_1", "heroes_2")})

    # Only the Keeper sees the Ritual hand, with each card's cost and text.
    assert keeper.locator(".keeper-card .card-chip.ritual").count() == 6
    assert "The Earth Awakens (2 Blood" in keeper.locator(".keeper-card").inner_text()
    held = {s: seat_data(heroes, s)["view"]["my_blessing"] for s in ("heroes_1", "heroes_2")}
    texts = {s: (card_name(heroes, c), card_text(heroes, c)) for s, c in held.items() if c}

    def no_blessing_on_keeper_page(seats: list[str]) -> None:
        markup = page_markup(keeper)
        for s in seats:
            if s in texts:
                name, text = texts[s]
                assert name not in markup and text not in markup, f"{s}'s Blessing shows on the Keeper's page"

    secret = list(texts)  # the seats whose Blessing is still held
    no_blessing_on_keeper_page(secret)

    done: dict[str, Any] = {}
    trace: list[Any] = []  # what was sent, for the failure message
    moved: set[str] = set()
    last_phase = None
    for _ in range(600):
        sync_pages(keeper, heroes)
        kv = seat_data(keeper, "keeper")
        view = kv["view"]
        if view["phase"] != last_phase:
            moved.clear()
            last_phase = view["phase"]
        if {"ritual", "blessing", "whirlwind"} <= set(done):
            break
        assert view["outcome"] is None, view["outcome"]
        if "keeper" in view["to_act"] and kv["legal"]:
            legal = kv["legal"]
            if (
                "ritual" not in done
                and view["phase"] == "K1"
                and view["prompt"] is None
                and any(a["type"] == "play_ritual" and a["card"] == EARTH_AWAKENS for a in legal)
            ):
                keeper.screenshot(path=str(artifacts / "dorn-cards-blood-step.png"))
                play_ritual_by_clicks(keeper)
                keeper.screenshot(path=str(artifacts / "dorn-cards-barriers.png"))
                done["ritual"] = True
                continue
            action = keeper_steer(keeper, view, legal)
            trace.append((view["k"], view["phase"], "keeper", action))
            send(keeper, "keeper", action)
            continue
        seat = next(
            (
                s
                for s in ("heroes_1", "heroes_2")
                if s in view["to_act"] and owes(seat_data(heroes, s)["legal"])
            ),
            None,
        )
        assert seat is not None, f"nobody can act in {view['phase']}"
        hs = seat_data(heroes, seat)
        legal, hview = hs["legal"], hs["view"]
        # heroes_2 plays its Blessing when it can (heroes_1 from the second round on, if it cannot).
        wants = seat == "heroes_2" or view["k"] >= 2
        blessing_now = view["phase"] == "H1" and "blessing" not in done and wants and hview["prompt"] is None
        if blessing_now and any(a["type"] == "play_blessing" for a in legal):
            no_blessing_on_keeper_page(secret)
            done["blessing"] = play_blessing_by_clicks(heroes, seat)
            secret.remove(seat)
            heroes.screenshot(path=str(artifacts / "dorn-cards-blessing.png"))
            continue
        if (
            view["phase"] == "H3"
            and "whirlwind" not in done
            and seat == "heroes_1"
            and hview["prompt"] is None
            and any(a.get("with") == WHIRLWIND for a in legal)
        ):
            whirlwind_by_clicks(heroes)
            heroes.screenshot(path=str(artifacts / "dorn-cards-round-attack.png"))
            done["whirlwind"] = True
            continue
        action = hero_steer(hview, seat, legal, moved)
        if action["type"] == "done" and {"type": "done"} not in legal:
            action = next(a for a in legal if a["type"] not in OPTIONAL)
        trace.append((view["k"], view["phase"], seat, action))
        send(heroes, seat, action)
        no_blessing_on_keeper_page(secret)
    assert {"ritual", "blessing", "whirlwind"} <= set(done), (done, trace[-40:], view)

    # The Blessing still held never reached the Keeper's page; the played one is public now.
    sync_pages(keeper, heroes)
    no_blessing_on_keeper_page(secret)
    assert "receives the Blessing" in log_text(keeper)
    finish(rec, server.base_url, keeper, heroes)


def card_name(page: Any, card: str) -> str:
    return page.evaluate("(c) => window.__dt.renderer.stat.blessings[c].name", card)


def card_text(page: Any, card: str) -> str:
    return page.evaluate("(c) => window.__dt.renderer.stat.blessings[c].text", card)


def hold(page: Any, base_url: str, api: Api, name: str, table_id: str, seats: dict[str, str]) -> None:
    """Give the browser the player and the seat tokens, then open the table."""
    page.goto(base_url + "/")
    page.evaluate(
        "([player, key, seats]) => { localStorage.setItem('dragontable.player', JSON.stringify(player));"
        " localStorage.setItem(key, JSON.stringify(seats)); }",
        [
            {"player_id": api.player_id, "name": name, "player_token": api.token},
            f"dragontable.seats.{table_id}",
            seats,
        ],
    )
    page.goto(f"{base_url}/table/{table_id}")
    wait_live(page)


PARTS = """async ({ stat }) => {
    const { DornNames } = await import('/frontend/js/games/dorn/names.js');
    const { controls } = await import('/frontend/js/games/dorn/controls.js');
    const sel = await import('/frontend/js/games/dorn/selection.js');
    const { effectEntries } = await import('/frontend/js/games/dorn/texts.js');
    const names = new DornNames(stat);
    const hero = (cell, extra = {}) => ({ seat: 'heroes_1', cell, alive: true, level: 1, life: 5, max_life: 6, used: [], actions: 1, ...extra });
    const view = {
        phase: 'H3', k: 2, seats: { heroes_1: ['almanor', 'choros'] },
        heroes: { almanor: hero([6, 6]), choros: hero([5, 5], { aegis: 3 }) },
        monsters: { m1: { type: 'zombie', cell: [5, 4], life: 1 }, m2: { type: 'rat', cell: [4, 5], life: 1 } },
        obstacles: { o1: { kind: 'barrier', cell: [3, 3], life: 3 } }, rituals_in_play: ['R05'],
    };
    const fire = [[1, 1], [1, 2], [2, 2], [3, 2], [4, 2], [5, 2]].map((to) => ({ type: 'ability', hero: 'almanor', ability: 'alm.fireball', to }));
    const legal = [
        { type: 'done' },
        { type: 'attack', hero: 'choros', with: 'cho.axe', target: 'm1' },
        { type: 'attack', hero: 'choros', with: 'cho.axe', target: 'm2' },
        { type: 'attack', hero: 'choros', with: 'cho.whirlwind' },
        ...fire,
        { type: 'ability', hero: 'almanor', ability: 'alm.fireball', target: 'o1' },
    ];
    const out = {};
    const flat = (plan) => plan.groups.map((g) => [g.title, g.items.map((i) => ({ label: i.label, title: i.title || '', select: i.select || null, action: i.action || null }))]);
    out.choros = flat(controls(names, view, legal, 'fig:choros'));
    out.almanor = flat(controls(names, view, legal, 'fig:almanor'));
    out.fireball = flat(controls(names, view, legal, 'use:almanor|alm.fireball'));
    out.litPicked = [...sel.litCells(legal, 'use:almanor|alm.fireball').keys()];
    out.ringPicked = [...sel.targetedFigures(legal, 'use:almanor|alm.fireball').keys()];
    out.litChoros = [...sel.litCells(legal, 'fig:choros').keys()];
    out.clickBarrier = sel.clickAction([3, 3], 'o1', legal, 'use:almanor|alm.fireball', (id) => id);
    out.clickCell = sel.clickAction([2, 2], null, legal, 'use:almanor|alm.fireball', (id) => id);
    out.effects = effectEntries(stat, names, view).map((e) => e.label);
    // A question: its text, each answer a button, its cells lit.
    const asked = { ...view, phase: 'K1', prompt: { kind: 'barrier_cell', seat: 'keeper', text: 'The Earth Awakens: raise a barrier (2 to place).', left: 2 } };
    const answers = [{ type: 'choose', to: [7, 7] }, { type: 'choose', to: [8, 7] }];
    const plan = controls(names, asked, answers, null);
    out.prompt = { title: plan.prompt.title, text: plan.prompt.text, items: plan.prompt.items.map((i) => i.label) };
    out.promptLit = [...sel.litCells(answers, null).keys()];
    out.answer = sel.clickAction([8, 7], null, answers, null, (id) => id);
    // A Ritual clicked on the board before it is picked is confirmed first.
    const r = [{ type: 'play_ritual', card: 'R11', to: [4, 4] }];
    out.ritualClick = sel.clickAction([4, 4], null, r, null, (id) => id);
    out.ritualPicked = sel.clickAction([4, 4], null, r, 'use:|R11', (id) => id);
    out.labels = [
        names.actionLabel({ type: 'attack', hero: 'choros', with: 'cho.whirlwind' }, view),
        names.actionLabel({ type: 'ability', hero: 'almanor', ability: 'alm.fireball', to: [2, 2] }, view),
        names.actionLabel({ type: 'play_blessing', card: 'B02', hero: 'choros', other: 'almanor' }, view),
        names.actionLabel({ type: 'play_ritual', card: 'R03' }, { options: { four_heroes: true } }),
        names.actionLabel({ type: 'choose', hero: 'almanor' }, view),
        names.actionLabel({ type: 'choose', block: true }, view),
    ];
    return out;
}"""


def test_dorn_card_and_ability_controls(browser) -> None:
    """The controls of the new actions without a server, from the catalogues the server sends:
    Choros's Round attack is one button in his Attacks; Almanor's fireball is a Spell that, once
    picked, lights only its cells and rings the barrier it may hit; a question's answers are
    buttons and lit cells; a Ritual reached by a board click is confirmed unless it was picked;
    every label is in words."""
    from backend.games.dorn.game import GAME

    from .helpers import repo_page

    stat = json.loads(json.dumps(GAME.static_info(GAME.normalize_options({}))))
    page = repo_page(browser, "dorn-cards.test")
    out = page.evaluate(PARTS, {"stat": stat})
    page.close()
    assert page.js_errors == []
    choros = dict(out["choros"])
    attacks = [i["label"] for i in choros["Attacks"]]
    assert "Choros: Round Attack" in attacks and "Choros: axe on Zombie at (5,4)" in attacks, attacks
    whirl = next(i for i in choros["Attacks"] if i["action"] and i["action"].get("with") == "cho.whirlwind")
    assert "once per turn" in whirl["title"]
    almanor = dict(out["almanor"])
    assert [i["select"] for i in almanor["Spells"]] == ["use:almanor|alm.fireball"], almanor
    assert "costs 1 life" in almanor["Spells"][0]["title"]
    fireball = dict(out["fireball"])["Spells"]
    assert (
        len([i for i in fireball if i["action"]]) == 7
    )  # the 6 cells and the barrier, as buttons once picked
    assert sorted(out["litPicked"]) == sorted(["1,1", "1,2", "2,2", "3,2", "4,2", "5,2"])
    assert out["ringPicked"] == ["o1"] and out["litChoros"] == []
    assert out["clickBarrier"] == {
        "type": "ability",
        "hero": "almanor",
        "ability": "alm.fireball",
        "target": "o1",
    }
    assert out["clickCell"] == {"type": "ability", "hero": "almanor", "ability": "alm.fireball", "to": [2, 2]}
    assert "Aegis on Choros" in out["effects"] and "Hungry Rats" in out["effects"]
    assert out["prompt"]["text"] == "The Earth Awakens: raise a barrier (2 to place)."
    assert out["prompt"]["items"] == ["(7,7)", "(8,7)"]
    assert sorted(out["promptLit"]) == ["7,7", "8,7"] and out["answer"] == {"type": "choose", "to": [8, 7]}
    assert out["ritualClick"]["choose"] == [{"type": "play_ritual", "card": "R11", "to": [4, 4]}]
    assert out["ritualPicked"] == {"type": "play_ritual", "card": "R11", "to": [4, 4]}
    assert out["labels"] == [
        "Choros: Round Attack",
        "Almanor: Fireball at (2,2)",
        "Exchange of Places for Choros with Almanor",
        "Play Icy Prison (8 Blood)",
        "Almanor",
        "Block it",
    ], out["labels"]
