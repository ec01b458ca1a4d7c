// What Dorasure's renderer says (frontend/js/games/dorasure/names.js, texts.js), the rolls it
// keeps per hero, and how its keyboard cursor moves (layout.js stepSpace, selection.js
// spaceTargets), against the real engine's static info and samples. Plain ES module with no
// node-only imports, so the same cases run under `node --test` and inside Chromium.

import { DorasureBoard } from "../../../frontend/js/games/dorasure/layout.js";
import { compass, DorasureNames } from "../../../frontend/js/games/dorasure/names.js";
import { clickAction, litTargets, spaceTargets } from "../../../frontend/js/games/dorasure/selection.js";
import { heroPowers, legendEntries, terrainText } from "../../../frontend/js/games/dorasure/texts.js";
import { assert } from "./assert.mjs";

export const cases = [];
const test = (name, fn) => cases.push([name, fn]);
const kit = (fixture) => {
  const board = new DorasureBoard(fixture.static);
  return { board, names: new DorasureNames(fixture.static, board) };
};
const RAW_ID = /\b[a-z]\d\d\b/;

test("every place has a name the map shows: named spaces by name, the others by terrain and bearing, each its own", (fixture) => {
  const { board, names } = kit(fixture);
  const seen = new Map();
  for (const s of board.spaces) {
    const place = names.place(board.nodeOf(s), {});
    assert.ok(!RAW_ID.test(place), `${s.id}: ${place}`);
    if (s.name) assert.equal(place, s.node === "city" ? "the City" : s.name);
    seen.set(place, [...(seen.get(place) || []), board.nodeOf(s)]);
  }
  for (const [place, nodes] of seen) assert.equal(new Set(nodes).size, 1, `${place} names ${nodes}`);
  assert.equal(compass({ q: 0, r: 0 }, { q: 1, r: 0 }), "east");
  assert.equal(compass({ q: 0, r: 0 }, { q: 0, r: 1 }), "south-east");
  assert.equal(compass({ q: 0, r: 0 }, { q: 1, r: -1 }), "north-east");
  assert.equal(compass({ q: 0, r: 0 }, { q: -1, r: 1 }), "south-west");
});

test("log lines name spaces as the map does, never by their ids", (fixture) => {
  const { names } = kit(fixture);
  let checked = 0;
  for (const { view, events } of fixture.samples) {
    for (const ev of events) {
      const line = names.describeEvent(ev, view);
      assert.ok(line && !RAW_ID.test(line), `${ev.kind}: ${line}`);
      // The engine itself names places as the map does now (content.PLACE_NAMES).
      assert.ok(!RAW_ID.test(ev.text || ""), `the engine named a space by its id: ${ev.text}`);
      checked += 1;
    }
  }
  assert.ok(checked > 0, "the samples carry events");
  assert.equal(names.describeEvent({ kind: "step", text: "Ninja moves to p01 with a 4." }, {}), `Ninja moves to ${names.place("p01", {})} with a 4.`);
  assert.equal(names.describeEvent({ kind: "x", text: "Roll 2d6 at m1." }, {}), "Roll 2d6 at m1.", "named spaces and non-ids stay");
});

test("terrain rules come from static when it carries them, the board's labels meanwhile; the ▽ legend only with Fang", (fixture) => {
  assert.equal(terrainText({}, "forest", "Forest (die 5+)"), "Forest (die 5+)");
  const stat = { terrains: { forest: { threshold: 5, adventure: true }, city: { threshold: 2, share: true, rest: 2 }, mountain: { enterable: false } } };
  assert.equal(terrainText(stat, "forest"), "Forest: enter with a die of 5 or more · go adventuring here");
  assert.equal(terrainText(stat, "city"), "City: enter with a die of 2 or more · heroes may end a move here together · rest here for +2 Health");
  assert.equal(terrainText(stat, "mountain"), "Mountain: never entered");
  assert.ok(legendEntries({ fang: true }).some(([mark]) => mark.startsWith("▽")));
  assert.ok(!legendEntries({ fang: false }).some(([mark]) => mark.startsWith("▽")));
  assert.equal(legendEntries(fixture.static).length, 12);
});

test("every hero's powers are listed from its sheet", (fixture) => {
  for (const [id, sheet] of Object.entries(fixture.static.heroes)) {
    const powers = heroPowers(sheet);
    assert.ok(powers.length >= 2, id);
    for (const [title, text] of powers) assert.ok(["Resource", "Ability", "Relic"].includes(title) && text.length > 10, `${id} ${title}`);
  }
  assert.deepEqual(heroPowers({}), []);
});

test("each hero's rolls of its last turn are kept until its next turn begins, in seq order even when they come late", (fixture) => {
  const { names } = kit(fixture);
  const [a, b] = Object.keys(fixture.static.heroes);
  const dice = (rolls, hero) => DorasureNames.lastRolls(rolls, hero).map((r) => r.dice);
  let rolls = names.keepRolls(new Map(), [
    { kind: "turn", hero: a },
    { kind: "movement_roll", hero: a, dice: [1, 4] },
    { kind: "roll", roll: "adventure", dice: { [a]: [[6, 2], [3]] }, score: { [a]: 5 } },
  ]);
  assert.deepEqual(dice(rolls, a), [[1, 4], [6, 2, 3]]);
  rolls = names.keepRolls(rolls, [{ kind: "turn", hero: b }, { kind: "movement_roll", hero: b, dice: [5] }, { kind: "rampage", die: 3 }]);
  assert.deepEqual(dice(rolls, a), [[1, 4], [6, 2, 3]], "the next hero's roll leaves the first hero's readable");
  assert.deepEqual(dice(rolls, b), [[5]], "the Dragon's roll belongs to no hero");
  rolls = names.keepRolls(rolls, [{ kind: "turn", hero: a }]);
  assert.deepEqual(dice(rolls, a), [], "its own next turn starts afresh");
  // A reload: the latest update first, then the history's older ones.
  let late = names.keepRolls(new Map(), [{ kind: "roll", roll: "adventure", dice: { [a]: [4] } }], 12);
  late = names.keepRolls(late, [{ kind: "turn", hero: a }, { kind: "movement_roll", hero: a, dice: [2, 6] }], 10);
  late = names.keepRolls(late, [{ kind: "movement_roll", hero: a, dice: [3, 3] }], 4);
  assert.deepEqual(dice(late, a), [[2, 6], [4]], "older turns stay out; the turn's rolls in seq order");
  for (const { events } of fixture.samples) names.keepRolls(rolls, events);
});

test("the keyboard cursor walks the hex rows and comes back; Enter's places are every lit hex and every mountain to act on", (fixture) => {
  const { board } = kit(fixture);
  for (const s of board.spaces) {
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const to = board.stepSpace(s.id, dx, dy);
      assert.ok(board.byId.has(to), `${s.id} ${dx},${dy}`);
      const back = board.stepSpace(to, -dx, -dy);
      if (to !== s.id && dy === 0) assert.equal(back, s.id, `${s.id} east-west round trip`);
    }
    const down = board.stepSpace(s.id, 0, 1);
    if (down !== s.id) assert.equal(board.byId.get(down).r, s.r + 1);
  }
  for (const { legal } of fixture.samples) {
    const ids = spaceTargets(legal, null, board);
    for (const node of litTargets(legal, null).keys()) assert.ok(ids.some((id) => board.nodeOf(board.byId.get(id)) === node), `lit ${node}`);
    for (const a of legal.filter((x) => typeof x.mountain === "string")) assert.ok(ids.includes(a.mountain), a.mountain);
    const order = ids.map((id) => board.byId.get(id)).map((s) => s.r * 100 + s.q);
    assert.deepEqual(order, [...order].sort((x, y) => x - y), "reading order");
  }
});

test("a mountain clicked while moving is asked as a step, so the server says mountains are never entered", (fixture) => {
  const { board } = kit(fixture);
  const mountain = board.spaces.find((s) => s.terrain === "mountain");
  const legal = [{ type: "move", to: "p05" }, { type: "step", to: "p05", die: 4 }, { type: "step", to: "p05", die: 3 }, { type: "end_move" }];
  assert.deepEqual(clickAction(mountain, mountain.id, legal, null), { type: "step", to: mountain.id, die: 3 });
  assert.deepEqual(clickAction(mountain, mountain.id, legal, 4), { type: "step", to: mountain.id, die: 4 });
  assert.deepEqual(clickAction(mountain, mountain.id, [{ type: "move", to: "p05" }], null), { type: "move", to: mountain.id });
  const plain = board.byId.get("p01");
  assert.deepEqual(clickAction(plain, "p01", legal, null), { type: "move", to: "p01" });
});
