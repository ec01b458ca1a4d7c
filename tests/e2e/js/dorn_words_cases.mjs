// What Dorn's renderer says (frontend/js/games/dorn/texts.js, names.js) and how its keyboard
// cursor moves (cursor.js), against the real engine's static info and samples. Plain ES module
// with no node-only imports, so the same cases run under `node --test` and inside Chromium.

import { boardTargets, figureForKeys, nextTarget, stepCell } from "../../../frontend/js/games/dorn/cursor.js";
import { DornLayout, figures, READABLE_CELL } from "../../../frontend/js/games/dorn/layout.js";
import { DornNames, MARKER_LABEL } from "../../../frontend/js/games/dorn/names.js";
import { actorOf, litCells, targetedFigures } from "../../../frontend/js/games/dorn/selection.js";
import { TERRAIN_STYLE } from "../../../frontend/js/games/dorn/terrain.js";
import { attackText, cardLine, cardText, legendEntries, monsterText, zorkalText } from "../../../frontend/js/games/dorn/texts.js";
import { assert } from "./assert.mjs";

export const cases = [];
const test = (name, fn) => cases.push([name, fn]);
const clean = (text, what) => assert.ok(text && !/undefined|\[object|NaN/.test(text), `${what}: ${text}`);

test("every card of every deck has words: its name and its catalogue facts; a card's text once static carries it", (fixture) => {
  const stat = fixture.static;
  for (const [deck, kind] of [["rituals", "Ritual"], ["blessings", "Blessing"], ["treasures", null]]) {
    for (const [id, card] of Object.entries(stat[deck])) {
      const c = cardText(stat, id);
      assert.equal(c.name, card.name);
      clean(c.facts, id);
      if (kind) assert.ok(c.facts.startsWith(kind), c.facts);
      assert.ok(cardLine(stat, id).startsWith(`${card.name} — `), cardLine(stat, id));
    }
  }
  assert.ok(cardText(stat, "R01").facts.includes(`costs ${stat.rituals.R01.cost} Blood Drops`));
  const withText = { ...stat, blessings: { B04: { name: "Tremor", text: "Move every monster within 12 up to 2 steps." } } };
  assert.equal(cardLine(withText, "B04"), "Tremor — Blessing · played once, in the Blessings step, on one of your heroes. Move every monster within 12 up to 2 steps.");
  assert.deepEqual(cardText(stat, "nope"), { name: "nope", kind: "card", facts: "", text: "" });
});

test("every hero attack, monster and Zorkal's sheet in words", (fixture) => {
  const stat = fixture.static;
  for (const hero of Object.values(stat.heroes)) for (const a of hero.basic) for (const lv of [1, 2, 3]) clean(attackText(a, lv), a.id);
  for (const type of Object.keys(stat.monsters)) {
    const text = monsterText(stat, type);
    clean(text, type);
    assert.ok(text.includes(`life ${stat.monsters[type].life}`), text);
  }
  assert.ok(monsterText(stat, "vampire").includes("bat form 12"));
  for (const lv of [1, 2, 3]) clean(zorkalText(stat, lv), `zorkal ${lv}`);
  assert.ok(zorkalText(stat, 1).includes(`next level: ${stat.zorkal.level_cost[0]} Blood Drops`));
  assert.ok(!zorkalText(stat, 3).includes("next level"));
});

test("log lines name seats as the table does, and say where a creature attacks from and that a parried attack will not hit", (fixture) => {
  const names = new DornNames(fixture.static);
  const view = { seats: { heroes_1: ["eleanor"] }, monsters: { m3: { type: "bogbeast", cell: [7, 3] } }, attacks: [{ by: "m3", target: "eleanor" }] };
  const label = (seat) => ({ heroes_1: "Eleanor's seat" })[seat] || seat;
  assert.equal(names.describeEvent({ kind: "attack_declared", text: "The bog beast attacks Eleanor.", figure: "m3" }, view, label), "The bog beast at (7,3) attacks Eleanor.");
  assert.equal(names.describeEvent({ kind: "parry", text: "Eleanor parries an attack by bog beast.", attack: 0 }, view, label), "Eleanor parries an attack by bog beast at (7,3): that attack will not hit.");
  assert.equal(names.describeEvent({ kind: "seat_done", text: "heroes_1 has finished the move.", seat: "heroes_1" }, view, label), "Eleanor's seat has finished the move.");
  assert.equal(names.describeEvent({ kind: "x", text: "heroes_10 waits." }, view, label), "heroes_10 waits.", "only whole seat ids");
  assert.equal(names.describeEvent({ kind: "game_start" }, view, label), "Game Start");
});

test("buttons name monsters in full with their cell, never by their token's letters", (fixture) => {
  const names = new DornNames(fixture.static);
  for (const { view, legal } of fixture.samples) {
    for (const a of legal) {
      const who = actorOf(a);
      if (!who || !view.monsters?.[who]) continue;
      const m = view.monsters[who];
      const full = names.monsterName(m.type);
      assert.ok(names.figureShort(who, view).startsWith(`${full} (${m.cell[0]},${m.cell[1]})`), names.figureShort(who, view));
      assert.ok(names.actionLabel(a, view).startsWith(full), names.actionLabel(a, view));
    }
  }
});

test("the keyboard cursor: arrows stay on the board; Tab-like jumps visit every place where Enter acts, in reading order", (fixture) => {
  assert.deepEqual(stepCell([0, 0], -1, -1, 24, 20), [0, 0]);
  assert.deepEqual(stepCell([23, 19], 1, 1, 24, 20), [23, 19]);
  assert.deepEqual(stepCell([5, 5], 3, 0, 24, 20), [6, 5], "one cell a key press");
  for (const { view, legal } of fixture.samples) {
    const figs = figures(view);
    const targets = boardTargets(legal, null, figs);
    const keys = targets.map((t) => t.cell.join(","));
    assert.equal(new Set(keys).size, keys.length, "one entry per cell");
    for (const k of litCells(legal, null).keys()) assert.ok(keys.includes(k), `lit ${k} reachable`);
    for (const id of targetedFigures(legal, null).keys()) {
      const f = figs.find((x) => x.id === id);
      if (f) assert.ok(keys.includes(f.cell.join(",")), `target ${id} reachable`);
    }
    if (!targets.length) continue;
    const seen = [];
    let c = null;
    for (let i = 0; i < targets.length; i += 1) seen.push((c = nextTarget(c, targets, 1)).join(","));
    assert.deepEqual(seen, keys, "forward in reading order");
    assert.deepEqual(nextTarget(c, targets, 1), targets[0].cell, "wraps round");
    assert.deepEqual(nextTarget(targets[0].cell, targets, -1), targets[targets.length - 1].cell, "and back");
  }
  assert.equal(nextTarget(null, [], 1), null);
  const argos = [{ id: "choros", cell: [9, 18] }, { id: "eleanor", cell: [9, 18] }, { id: "m1", cell: [3, 3] }];
  assert.equal(figureForKeys([9, 18], argos, new Map(), ["choros", "eleanor"], "choros"), "eleanor", "the other own figure, not the picked one");
  assert.equal(figureForKeys([3, 3], argos, new Map([["m1", []]]), ["choros"], "choros"), "m1");
  assert.equal(figureForKeys([1, 1], argos, new Map(), [], null), null);
});

test("the board keeps readable cells in a short window when the width allows, with its rulers in the margins", (fixture) => {
  const layout = new DornLayout(fixture.static.board);
  layout.fit(960, 370); // 1366 x 768: the hero panels leave the board 370 px of height
  assert.ok(layout.cell >= READABLE_CELL && layout.cssWidth <= 960, `cell ${layout.cell}, ${layout.cssWidth} px`);
  layout.fit(1030, 600); // 1440 x 960: board and panels fit the window
  assert.ok(layout.cssHeight <= 600 && layout.cell >= READABLE_CELL, `${layout.cssHeight} px`);
  layout.fit(500, 370); // a narrow window: the width decides
  assert.ok(layout.cssWidth <= 500, `${layout.cssWidth}`);
  const { cols, rows, px } = layout.rulers();
  assert.equal(cols.length, layout.width);
  assert.equal(rows.length, layout.height);
  assert.ok(px >= 10, `ruler text ${px} px`);
  for (const c of cols) assert.ok(c.y < layout.oy && c.y - px / 2 >= 0, "column numbers above the board");
  for (const r of rows) assert.ok(r.x < layout.ox && r.x - px * 0.6 >= 0, "row numbers (two digits, centred) left of the board");
  layout.fit(374, 500); // a phone: 11 px cells, every other column numbered, the numbers apart
  const phone = layout.rulers();
  assert.ok(layout.cell < 13 && layout.cssWidth <= 374, `cell ${layout.cell}, ${layout.cssWidth} px`);
  assert.deepEqual(phone.cols.map((c) => c.n), [...Array(layout.width / 2).keys()].map((i) => 2 * i));
  assert.ok(phone.px >= 8 && phone.px * 1.3 < 2 * layout.cell, `ruler text ${phone.px} px on ${layout.cell} px cells`);
});

test("the legend names every zone the board draws and every kind of mark on it", (fixture) => {
  const layout = new DornLayout(fixture.static.board);
  for (let y = 0; y < layout.height; y += 1) {
    for (let x = 0; x < layout.width; x += 1) assert.ok(TERRAIN_STYLE[layout.zoneAt(x, y)]?.label, `zone at (${x},${y})`);
  }
  const entries = legendEntries(MARKER_LABEL);
  const drawn = new Set(layout.specials.map((s) => s.kind));
  for (const kind of drawn) assert.ok(MARKER_LABEL[kind], `a label for ${kind}`);
  for (const kind of ["TP", "F", "N", "X", "P", "A"]) assert.ok(entries.some(([, id]) => id === kind), `a legend entry for ${kind}`);
  for (const [, , label, meaning] of entries) clean(`${label}: ${meaning}`, label);
});
