// The pure parts of Dorn's renderer (frontend/js/games/dorn/layout.js, names.js, selection.js).
// Plain ES module with no node-only imports, so the same cases run under `node --test`
// (renderer_parts.test.mjs) and inside Chromium. `fixture` is {static, samples: [{seat, view,
// legal}]} from the real engine (test_renderer_parts_js.py).

import { cellOf, DornLayout, figures, key, MIN_CELL, READABLE_CELL, ZORKAL } from "../../../frontend/js/games/dorn/layout.js";
import { DornNames, doneLabel, turnText } from "../../../frontend/js/games/dorn/names.js";
import {
  actionCell,
  activeFigure,
  actorOf,
  actors,
  askOf,
  clickAction,
  figureActionsAt,
  keepSelection,
  litCells,
  owes,
  targetedFigures,
} from "../../../frontend/js/games/dorn/selection.js";
import { assert } from "./assert.mjs";

export const cases = [];
const test = (name, fn) => cases.push([name, fn]);

const fitted = (fixture, avail = 1000, maxH = 700) => {
  const layout = new DornLayout(fixture.static.board);
  layout.fit(avail, maxH);
  return layout;
};
const hasCell = (legal) => legal.filter((a) => actionCell(a));

test("the grid fits the window: quarter-pixel cells, the width always (a phone's too), board and panel inside", (fixture) => {
  for (const [avail, maxH] of [[1000, 700], [1440, 600], [700, 2000], [374, 500], [320, 340], [200, 100]]) {
    const layout = fitted(fixture, avail, maxH);
    assert.ok(layout.cell >= MIN_CELL && Number.isInteger(layout.cell * 4), `cell ${layout.cell}`);
    // Down to MIN_CELL the width wins (the page's zoom makes small cells legible), the height down to READABLE_CELL.
    if (layout.cell > MIN_CELL) assert.ok(layout.cssWidth <= avail + 1, `${layout.cssWidth} wide in ${avail}`);
    if (layout.cell < READABLE_CELL && layout.cell > MIN_CELL) assert.ok(layout.cssWidth >= avail - layout.cell, `${layout.cssWidth} in ${avail}: cells smaller than the width needs`);
    if (avail >= 1000) assert.ok(layout.cssHeight <= maxH + 1, `${layout.cssHeight} high in ${maxH}`);
    const panel = layout.panelRect();
    assert.ok(panel.x > layout.ox + layout.width * layout.cell && panel.x + panel.w < layout.cssWidth, "panel right of the board");
    assert.ok(panel.y + panel.h <= layout.cssHeight, "panel inside the canvas");
  }
});

test("every cell's centre and every point well inside it map back to it; off the board is null", (fixture) => {
  const layout = fitted(fixture);
  const s = layout.cell;
  for (let y = 0; y < layout.height; y += 1) {
    for (let x = 0; x < layout.width; x += 1) {
      const c = layout.cellToPixel(x, y);
      for (const [dx, dy] of [[0, 0], [-0.45, -0.45], [0.45, 0.45], [-0.45, 0.45], [0.45, -0.45]]) {
        assert.deepEqual(layout.pixelToCell(c.x + dx * s, c.y + dy * s), [x, y]);
      }
    }
  }
  const end = layout.cellToPixel(layout.width - 1, layout.height - 1);
  for (const [px, py] of [[layout.ox - 1, 50], [50, layout.oy - 1], [end.x + s, end.y], [end.x, end.y + s]]) {
    assert.equal(layout.pixelToCell(px, py), null, `${px},${py}`);
  }
});

test("terrain comes from the rows and legend; a zone wins over its terrain, but the trail never does", (fixture) => {
  const board = fixture.static.board;
  const layout = new DornLayout(board);
  for (let y = 0; y < layout.height; y += 1) {
    for (let x = 0; x < layout.width; x += 1) assert.equal(layout.terrainAt(x, y), board.legend[board.terrain[y][x]], `(${x},${y})`);
  }
  assert.equal(layout.terrainAt(-1, 0), "wall");
  for (const [zone, cells] of Object.entries(board.zones)) {
    if (zone === "trail") continue;
    for (const [x, y] of cells) assert.equal(layout.zoneAt(x, y), zone, `(${x},${y})`);
  }
  // A cell both on the trail and in a place keeps the place, whichever zone comes first.
  for (const zones of [{ trail: [[0, 0], [1, 0]], herbalist: [[0, 0]] }, { herbalist: [[0, 0]], trail: [[0, 0], [1, 0]] }]) {
    const tiny = new DornLayout({ width: 2, height: 1, terrain: ["H~"], legend: { H: "herbalist", "~": "trail" }, zones });
    assert.deepEqual([tiny.zoneAt(0, 0), tiny.zoneAt(1, 0)], ["herbalist", "trail"]);
  }
});

test("teleport pads are paired both ways", (fixture) => {
  const layout = new DornLayout(fixture.static.board);
  const pads = layout.specials.filter((s) => s.kind === "TP");
  assert.ok(pads.length >= 2, "pads on the board");
  for (const pad of pads) {
    const other = layout.partner.get(key(pad.x, pad.y));
    assert.ok(other, `${pad.id} has a partner`);
    assert.deepEqual(layout.partner.get(key(...other)), [pad.x, pad.y], pad.id);
  }
});

test("figures: every hero, monster and obstacle with a cell, and Zorkal while alive", (fixture) => {
  for (const { view } of fixture.samples) {
    const figs = figures(view);
    const placed = (o) => Object.values(o || {}).filter((f) => cellOf(f.cell)).length;
    const zorkal = view.zorkal && cellOf(view.zorkal.cell) && view.zorkal.life > 0 ? 1 : 0;
    assert.equal(figs.length, placed(view.heroes) + placed(view.monsters) + placed(view.obstacles) + zorkal);
    assert.equal(figs.filter((f) => f.id === ZORKAL).length, zorkal);
  }
  assert.deepEqual(figures(null), []);
  assert.deepEqual(figures({ zorkal: { cell: [1, 1], life: 0 } }), []);
});

test("a lone figure's token sits on its cell's centre; crowded ones spread inside the cell and are found by clicking them", (fixture) => {
  const layout = fitted(fixture);
  const argos = fixture.static.board.zones.argos[0];
  const heroes = Object.keys(fixture.static.heroes).slice(0, 5);
  const crowd = heroes.map((id) => ({ id, kind: "hero", cell: argos, data: {} }));
  const lone = { id: "m1", kind: "monster", cell: [7, 3], data: {} };
  for (let n = 1; n <= crowd.length; n += 1) {
    const figs = [...crowd.slice(0, n), lone];
    const pos = layout.tokenPositions(figs);
    const c = layout.cellToPixel(...lone.cell);
    assert.deepEqual([pos.get("m1").x, pos.get("m1").y], [c.x, c.y]);
    const centre = layout.cellToPixel(...argos);
    for (const f of figs.slice(0, n)) {
      const p = pos.get(f.id);
      assert.ok(Math.abs(p.x - centre.x) + p.r <= layout.cell * 0.75 && Math.abs(p.y - centre.y) + p.r <= layout.cell * 0.75, `${n} tokens fit the cell`);
      assert.equal(layout.figureAt(figs, p.x, p.y), f.id, `${n} heroes share a cell`);
    }
  }
  assert.equal(layout.figureAt([lone], ...Object.values(layout.cellToPixel(8, 3))), null);
});

test("names come from the catalogues, with fallbacks for what they lack", (fixture) => {
  const names = new DornNames(fixture.static);
  const [heroId, hero] = Object.entries(fixture.static.heroes)[0];
  assert.equal(names.heroName(heroId), hero.name);
  assert.equal(names.figureName(ZORKAL, null), "Zorkal");
  assert.equal(names.figureName("m9", { monsters: { m9: { type: "rat", cell: [3, 4] } } }), "Giant Rat at (3,4)");
  assert.equal(names.figureName("o1", { obstacles: { o1: { kind: "rubble", cell: [5, 6] } } }), "Rubble at (5,6)");
  assert.equal(names.cardName("no_such_card"), "no_such_card");
  const [ritual, card] = Object.entries(fixture.static.rituals)[0];
  assert.equal(names.cardName(ritual), card.name);
  assert.equal(names.artifactName("no_such_thing"), "No Such Thing");
  assert.equal(names.attackName(heroId, "x.big_swing"), "Big Swing");
});

test("every listed action of every step has a label of its own words", (fixture) => {
  const names = new DornNames(fixture.static);
  for (const { view, legal } of fixture.samples) {
    for (const a of legal) {
      const label = names.actionLabel(a, view);
      assert.ok(label && !label.includes("[object") && !label.includes("undefined"), `${view.phase} ${JSON.stringify(a)}: ${label}`);
      if (actionCell(a) && a.type !== "use_item") assert.ok(label.includes(`(${actionCell(a)[0]},${actionCell(a)[1]})`), label);
    }
    if (legal.some((a) => a.type === "done")) assert.equal(names.actionLabel({ type: "done" }, view), doneLabel(view.phase));
  }
  assert.equal(doneLabel("K2"), "End summoning");
  assert.equal(doneLabel("nowhere"), "Done");
});

test("the turn line names the Keeper turn, the Day/Night token's face, and the step", (fixture) => {
  for (const { view } of fixture.samples) {
    const line = turnText(view);
    assert.ok(line.startsWith(`Keeper turn ${view.k} · ${view.day_night_token === "day" ? "Day" : "Night"} · `), line);
  }
  // The heroes' turn after a Day Keeper turn: the Keeper flipped the token to the next turn's Night,
  // and the banner says what the panel's token shows.
  const flipped = { k: 1, day: true, day_night_token: "night", phase: "H2", phase_name: "the heroes' movement" };
  assert.equal(turnText(flipped), "Keeper turn 1 · Night · Heroes' movement");
  assert.equal(turnText({ ...flipped, k: 2, day: false, day_night_token: "day" }), "Keeper turn 2 · Day · Heroes' movement");
  assert.equal(turnText({ k: 3, day: true, phase: "K2" }), "Keeper turn 3 · Day · K2");
  assert.equal(turnText({ outcome: { reason: "The heroes won." } }), "The heroes won.");
  assert.equal(turnText(null), "");
});

test("actions are read by their fields: who acts and where", () => {
  assert.equal(actorOf({ type: "move", hero: "gor", to: [1, 2] }), "gor");
  assert.equal(actorOf({ type: "move", figure: "m3", path: [[1, 2], [1, 3]] }), "m3");
  assert.equal(actorOf({ type: "summon", monster: "rat", to: [1, 2] }), null);
  assert.deepEqual(actionCell({ type: "move", figure: "m3", path: [[1, 2], [1, 3]] }), [1, 3]);
  assert.deepEqual(actionCell({ type: "move", to: [4, 5] }), [4, 5]);
  assert.equal(actionCell({ type: "attack", target: "m1" }), null);
  assert.deepEqual(actors([{ hero: "a" }, { figure: "b" }, { hero: "a" }, { type: "done" }]), ["a", "b"]);
});

test("the active figure is the picked one, else the only one that can move or aim", () => {
  const legal = [{ type: "move", hero: "a", to: [1, 1] }, { type: "give", hero: "b", card: "c" }];
  assert.equal(activeFigure(null, legal), "a");
  assert.equal(activeFigure("fig:b", legal), "b");
  assert.equal(activeFigure(null, [...legal, { type: "attack", hero: "b", target: "m1" }]), null);
  assert.equal(activeFigure("mon:rat", legal), "a");
});

test("a picked figure or summon kind is kept while the listed actions still use it; taking back a Done or giving up is owed by nobody", (fixture) => {
  for (const { legal } of fixture.samples) {
    for (const id of actors(legal)) assert.equal(keepSelection(`fig:${id}`, legal), `fig:${id}`);
    for (const a of legal.filter((x) => x.type === "summon")) assert.equal(keepSelection(`mon:${a.monster}`, legal), `mon:${a.monster}`);
    assert.equal(keepSelection("fig:nobody", legal), null);
    // Either side may give up at any time (content 5.9): a seat offered only that owes nothing.
    assert.equal(owes(legal), legal.some((a) => !["take_back_done", "surrender", "propose_surrender"].includes(a.type)));
  }
  assert.equal(keepSelection(3, []), null);
  assert.equal(keepSelection("mon:strong", [{ type: "summon_strong", to: [1, 1] }]), "mon:strong");
  assert.equal(owes([{ type: "take_back_done" }]), false);
  assert.equal(owes([{ type: "propose_surrender" }]), false);
  assert.equal(owes([{ type: "propose_surrender" }, { type: "choose", to: [1, 1] }]), true);
});

test("lit cells are the active figure's cell actions, or the picked summon kind's; targets are the active figure's", (fixture) => {
  for (const { legal } of fixture.samples) {
    for (const selection of [null, ...actors(legal).map((id) => `fig:${id}`), ...new Set(legal.filter((a) => a.type === "summon").map((a) => `mon:${a.monster}`))]) {
      const fig = activeFigure(selection, legal);
      const lit = [...litCells(legal, selection).values()].flat();
      const kind = typeof selection === "string" && selection.startsWith("mon:") ? selection.slice(4) : null;
      const expected = hasCell(legal).filter((a) => (actorOf(a) ? actorOf(a) === fig : kind ? a.monster === kind : !fig));
      assert.equal(lit.length, expected.length, `lit for ${selection}`);
      for (const a of lit) assert.ok(expected.includes(a), JSON.stringify(a));
      for (const [target, list] of targetedFigures(legal, selection)) {
        for (const a of list) assert.ok(a.target === target && (!fig || actorOf(a) === fig), JSON.stringify(a));
      }
    }
  }
});

test("a click picks the listed action there, asks when several fit, selects a figure, or sends an unlisted move for the server to explain", (fixture) => {
  const name = (id) => `<${id}>`;
  for (const { legal } of fixture.samples) {
    for (const selection of [null, ...actors(legal).map((id) => `fig:${id}`)]) {
      for (const [k, list] of litCells(legal, selection)) {
        const cell = k.split(",").map(Number);
        const got = clickAction(cell, null, legal, selection, name);
        if (list.length === 1) assert.equal(got, list[0]);
        else assert.ok(got.choose.length === list.length && got.title === `At (${cell[0]},${cell[1]})`, JSON.stringify(got));
      }
      for (const [target, list] of targetedFigures(legal, selection)) {
        const attacks = list.filter((a) => a.type === "attack");
        const fig = activeFigure(selection, legal);
        if (!attacks.length || target === fig) continue;
        const got = clickAction([-1, -1], target, legal, selection, name);
        assert.ok(got === attacks[0] || got.choose.length === attacks.length, JSON.stringify(got));
      }
    }
  }
  const legal = [{ type: "move", hero: "a", to: [1, 1] }, { type: "move", hero: "b", to: [2, 2] }];
  assert.deepEqual(clickAction([5, 5], "b", legal, null, name), { select: "fig:b" });
  assert.deepEqual(clickAction([5, 5], null, legal, "fig:a", name), { type: "move", hero: "a", to: [5, 5] });
  // Nothing picked and several figures could act: the click explains instead of doing nothing.
  assert.deepEqual(clickAction([5, 5], null, legal, null, name), { choose: [], title: "Pick a figure first (click its ringed token, or its button): <a>, <b>." });
  assert.equal(clickAction([5, 5], null, [{ type: "done" }], null, name), null);
});

test("a click on one's own figure picks it, even where the picked one could go; then the controls ask which was meant", () => {
  const name = (id) => `<${id}>`;
  // Choros is picked; Eleanor stands in Argos (9,18), where Choros may also go.
  const legal = [
    { type: "move", hero: "choros", to: [9, 18] },
    { type: "move", hero: "choros", to: [9, 17] },
    { type: "move", hero: "eleanor", to: [9, 16] },
    { type: "done" },
  ];
  const ask = clickAction([9, 18], "eleanor", legal, "fig:choros", name);
  assert.deepEqual(ask, { select: "ask:choros|eleanor|9,18" });
  assert.deepEqual(askOf(ask.select), { fig: "choros", other: "eleanor", cell: [9, 18] });
  assert.equal(activeFigure(ask.select, legal), "choros", "the question keeps Choros picked");
  assert.deepEqual(figureActionsAt(legal, "choros", [9, 18]), [legal[0]]);
  assert.equal(keepSelection(ask.select, legal), "fig:choros", "an update turns the question back into the pick");
  // Where the picked figure cannot go, a click on one's own figure simply picks it.
  assert.deepEqual(clickAction([4, 4], "eleanor", legal, "fig:choros", name), { select: "fig:eleanor" });
  // A click on the picked figure itself picks it again (the table toggles it off).
  assert.deepEqual(clickAction([3, 3], "choros", legal, "fig:choros", name), { select: "fig:choros" });
  // An enemy figure on an unlisted cell: the click says why nothing happens.
  const blocked = clickAction([7, 3], "m1", legal, "fig:choros", name);
  assert.deepEqual(blocked, { choose: [], title: "<choros> cannot go to (7,3): <m1> stands there." });
});
