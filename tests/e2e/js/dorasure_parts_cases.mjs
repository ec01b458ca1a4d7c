// The pure parts of Dorasure's renderer (frontend/js/games/dorasure/layout.js, names.js,
// selection.js). Plain ES module with no node-only imports, so the same cases run under
// `node --test` (renderer_parts.test.mjs) and inside Chromium. `fixture` is {static, samples:
// [{seat, view, legal, events}]} from the real engine (test_renderer_parts_js.py).

import { fitLayout } from "../../../frontend/js/hexlayout.js";
import { DorasureBoard, heroesOf, heroPos, mountainsOf, READABLE_HEIGHT } from "../../../frontend/js/games/dorasure/layout.js";
import { DorasureNames } from "../../../frontend/js/games/dorasure/names.js";
import { clickAction, litTargets } from "../../../frontend/js/games/dorasure/selection.js";
import { assert } from "./assert.mjs";

export const cases = [];
const test = (name, fn) => cases.push([name, fn]);

const fitted = (fixture, width = 1000, maxH = 700) => {
  const board = new DorasureBoard(fixture.static);
  const { w, h } = board.canvasSize(width, maxH);
  return { board, w, h, layout: fitLayout(board.spaces, w, h, 10) };
};
const inside = (p, r) => p.x >= r.x && p.x <= r.x + r.w && p.y >= r.y && p.y <= r.y + r.h;

test("the canvas keeps the map's aspect, as wide as allowed, never taller than the window allows nor shorter than readable", (fixture) => {
  const ratios = [];
  for (const [width, maxH] of [[1000, 2000], [1000, 400], [640, 900], [1600, 600], [1000, 200], [500, 200]]) {
    const { w, h, layout, board } = fitted(fixture, width, maxH);
    const limit = Math.max(maxH, READABLE_HEIGHT);
    assert.ok(w <= width && h <= limit && (w === width || h === limit), `${w}x${h} in ${width}x${maxH}`);
    ratios.push(w / h);
    for (const s of board.spaces) {
      const c = layout.hexToPixel(s.q, s.r);
      assert.ok(c.x > 0 && c.x < w && c.y > 0 && c.y < h, `${s.id} on the canvas`);
    }
  }
  for (const r of ratios) assert.ok(Math.abs(r - ratios[0]) < 0.02, `aspects ${ratios}`);
});

test("every hex's centre is that space; a City hex stands for the City; off the map is nothing", (fixture) => {
  const { board, layout } = fitted(fixture);
  for (const s of board.spaces) {
    const c = layout.hexToPixel(s.q, s.r);
    assert.equal(board.spaceAt(layout, c.x, c.y), s, s.id);
    assert.equal(board.nodeOf(s), s.node ?? s.id);
  }
  const city = board.cellsOf("city");
  assert.equal(city.length, 3);
  for (const s of city) assert.equal(board.nodeOf(s), "city");
  assert.deepEqual(board.spaceToPixel(layout, "city"), layout.hexToPixel(city[0].q, city[0].r));
  assert.equal(board.spaceToPixel(layout, "nowhere"), null);
  assert.deepEqual(board.cellsOf(null), []);
  assert.equal(board.nodeOf(null), null);
  assert.equal(board.spaceAt(layout, -500, -500), null);
});

test("Belk is razed only when the view says so", (fixture) => {
  const board = new DorasureBoard(fixture.static);
  const belk = board.byId.get("belk");
  assert.equal(board.terrainOf(belk, null), "village");
  assert.equal(board.terrainOf(belk, { belk_razed: true }), "razed");
  for (const s of board.spaces.filter((x) => x.id !== "belk")) assert.equal(board.terrainOf(s, { belk_razed: true }), s.terrain);
});

test("hero tokens: alone on a space's centre, a crowd spread over the City's hexes and around a centre", (fixture) => {
  const { board, layout } = fitted(fixture);
  const size = layout.size;
  const ids = ["h1", "h2", "h3", "h4", "h5", "h6"];
  const at = (pos, n, from = 0) => ids.slice(from, from + n).map((id) => ({ id, pos }));
  const lone = board.tokenPositions(layout, { heroes: at("p01", 1) }).get(ids[0]);
  const c = layout.hexToPixel(board.byId.get("p01").q, board.byId.get("p01").r);
  assert.deepEqual(lone, { x: c.x, y: c.y - size * 0.08 });
  for (const n of [2, 3, 4, 6]) {
    for (const pos of ["city", "p01"]) {
      const pos2 = board.tokenPositions(layout, { heroes: [...at(pos, n), { id: "lost", pos: null }] });
      assert.ok(!pos2.has("lost"), "a hero off the board has no token");
      const points = ids.slice(0, n).map((id) => pos2.get(id));
      const distinct = new Set(points.map((p) => `${p.x.toFixed(3)},${p.y.toFixed(3)}`));
      assert.equal(distinct.size, n, `${n} heroes at ${pos} spread out`);
      for (const p of points) assert.equal(board.nodeOf(board.spaceAt(layout, p.x, p.y)), pos, `${n} heroes at ${pos} stay on it`);
    }
  }
});

test("the tracks sit in the empty lower right: inside the canvas, clear of every hex and of each other", (fixture) => {
  for (const [width, maxH] of [[1000, 700], [1400, 1000], [700, 500]]) {
    const { board, layout, w, h } = fitted(fixture, width, maxH);
    const { meter, health } = board.trackAreas(layout);
    for (const r of [meter, health]) {
      assert.ok(r.w > 0 && r.h > 0 && r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h, JSON.stringify(r));
      for (const s of board.spaces) assert.ok(!inside(layout.hexToPixel(s.q, s.r), r), `${s.id} under a track`);
    }
    assert.ok(health.y + health.h <= meter.y, "the health boxes above the meter");
  }
});

test("the view's heroes and mountains are read as lists or as maps", () => {
  assert.deepEqual(heroesOf({ heroes: [{ id: "a", pos: "x" }, { id: "b" }] }), [{ id: "a", pos: "x", index: 0 }, { id: "b", index: 1 }]);
  assert.deepEqual(heroesOf({ heroes: { a: { pos: "x" } } }), [{ id: "a", index: 0, pos: "x" }]);
  assert.deepEqual(heroesOf({}), []);
  assert.deepEqual([heroPos({ pos: "x" }), heroPos({ space: "y" }), heroPos({})], ["x", "y", null]);
  assert.deepEqual(mountainsOf({ mountains: [{ id: "m1", flags: 1 }] }), { m1: { id: "m1", flags: 1 } });
  assert.deepEqual(mountainsOf({ mountains: { m1: { flags: 1 } } }), { m1: { flags: 1 } });
});

test("names come from the catalogues: heroes, rewards, places, lands and quest tiles", (fixture) => {
  const board = new DorasureBoard(fixture.static);
  const names = new DorasureNames(fixture.static, board);
  assert.equal(names.heroName("samurai"), "Samurai");
  assert.equal(names.heroName("nobody_here"), "Nobody Here");
  assert.equal(names.rewardName("dragons_lair"), "Dragon's Lair");
  assert.equal(names.rewardName(null), "");
  assert.equal(names.place("city", {}), "the City");
  assert.equal(names.place("belk", {}), "Belk");
  assert.equal(names.place("belk", { belk_razed: true }), "Belk (razed)");
  assert.ok(/^the plains (east|north-east|north-west|west|south-west|south-east) of /.test(names.place("p01", {})), names.place("p01", {}));
  assert.equal(names.place("nowhere", {}), "Nowhere");
  const [site, tile] = Object.entries(fixture.samples[0].view.lands)[0];
  assert.equal(names.landAt(fixture.samples[0].view, site).name, fixture.static.lands[tile].name);
  assert.equal(names.landAt({}, site), null);
  assert.deepEqual(names.landAt({ lands: { p01: "odd_land" } }, "p01"), { name: "Odd Land", text: "" });
  assert.equal(names.questSummary({ flags: 2 }), "Quest face down. 2 flags.");
  const quest = { name: "Q", attribute: "combat", target: 4, text: "Fight." };
  assert.equal(names.questSummary({ state: "revealed", quest }), "Quest: Q — Combat, 4 to succeed. Fight.");
  assert.equal(names.questSummary({ state: "hidden", quest }), "Quest: Q (face down; shown in the replay) — Combat, 4 to succeed. Fight.");
  const lair = fixture.static.rewards.dragons_lair.text.replace(/\.$/, "");
  assert.equal(names.questSummary({ state: "solved", quest, reward: "dragons_lair" }), `Solved: Q — Combat, 4 to succeed. Fight. Reward: Dragon's Lair (${lair}).`);
});

test("every listed action has a label of its own words, with places by name", (fixture) => {
  const names = new DorasureNames(fixture.static, new DorasureBoard(fixture.static));
  for (const { seat, view, legal } of fixture.samples) {
    for (const a of legal) {
      const label = names.actionLabel(a, seat, view);
      assert.ok(label && !label.includes("[object") && !label.includes("undefined"), `${JSON.stringify(a)}: ${label}`);
      if (a.type === "move" || a.type === "step") assert.ok(label.includes(names.place(a.to, view)), label);
    }
  }
  assert.equal(names.actionLabel({ type: "spend", amount: 2, gold: 1 }, "samurai", {}), "Spend 2 Training (1 of it Gold)");
  assert.equal(names.actionLabel({ type: "spend", amount: 0 }, null, {}), "Roll without spending");
  assert.equal(names.actionLabel({ type: "absorb", amount: 1 }, null, {}), "Absorb 1 with resource");
});

test("dice rows from events and from the view, and the turn line", (fixture) => {
  const names = new DorasureNames(fixture.static, new DorasureBoard(fixture.static));
  const rows = names.diceFromEvents([
    { kind: "movement_roll", hero: "samurai", dice: [1, 4, 6] },
    { kind: "roll", roll: "quest", dice: { samurai: [[6, 2]], shaman: 3 }, score: { samurai: 8 } },
    { kind: "rampage", die: 5 },
    { kind: "step", die: 2 },
  ]);
  assert.deepEqual(rows, [
    { label: "Samurai: movement", dice: [1, 4, 6], tones: ["void", "", ""] },
    { label: "Samurai: Quest (score 8)", dice: [6, 2] },
    { label: "Shaman: Quest", dice: [3] },
    { label: "Dragon: Rampage", dice: [5] },
  ]);
  assert.deepEqual(names.diceFromView({ current: "samurai", movement: { rolled: [1, 3] } }), [{ label: "Samurai: movement", dice: [1, 3], tones: ["void", ""] }]);
  assert.deepEqual(names.diceFromView({ movement: null }), []);
  assert.equal(names.turnText({ current: "samurai", turn: 3, phase: "adventure" }), "Samurai's turn (turn 3) · Adventure phase");
  assert.equal(names.turnText({ phase: "battle" }), "Climactic Battle");
  assert.equal(names.turnText({ outcome: { reason: "The Dragon fell." } }), "The Dragon fell.");
  for (const { view } of fixture.samples) assert.ok(names.turnText(view).startsWith(`${names.heroName(view.current)}'s turn`), names.turnText(view));
});

test("lit hexes and clicks: a move in one click, else the smallest die's step, else a mountain's action, else an unlisted move", () => {
  const legal = [
    { type: "move", to: "a" },
    { type: "step", to: "a", die: 5 },
    { type: "step", to: "b", die: 5 },
    { type: "step", to: "b", die: 3 },
    { type: "end_move" },
  ];
  assert.deepEqual([...litTargets(legal, null).entries()], [["a", [legal[0], legal[1]]], ["b", [legal[2], legal[3]]]]);
  assert.deepEqual([...litTargets(legal, 5).entries()], [["a", [legal[1]]], ["b", [legal[2]]]]);
  assert.deepEqual([...litTargets(legal, 4).entries()], []);
  const space = (id) => ({ id });
  assert.equal(clickAction(space("a"), "a", legal, null), legal[0]);
  assert.equal(clickAction(space("a"), "a", legal, 5), legal[1]);
  assert.equal(clickAction(space("b"), "b", legal, null), legal[3]);
  assert.equal(clickAction(space("b"), "b", legal, 5), legal[2]);
  assert.deepEqual(clickAction(space("c"), "c", legal, null), { type: "move", to: "c" });
  const act = [{ type: "gather", mountain: "m1" }, { type: "end_turn" }];
  assert.equal(clickAction(space("m1"), "m1", act, null), act[0]);
  assert.equal(clickAction(space("m2"), "m2", act, null), null);
  const two = [{ type: "gather", mountain: "m1" }, { type: "quest", mountain: "m1", invite: [] }];
  assert.deepEqual(clickAction(space("m1"), "m1", two, null), { choose: two, title: "At m1" });
});
