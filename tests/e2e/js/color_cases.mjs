// The colour arithmetic every legible text relies on (frontend/js/games/color.js): WCAG
// luminance and contrast, and the ink chosen for a coloured token. Plain ES module with no
// node-only imports, so the same cases run under `node --test` and inside Chromium.

import { AA, contrast, inkOn, over, parseColor } from "../../../frontend/js/games/color.js";
import { heroColor as dornHero } from "../../../frontend/js/games/dorn/figures.js";
import { heroColor as dorasureHero } from "../../../frontend/js/games/dorasure/tokens.js";
import { assert } from "./assert.mjs";

export const cases = [];
const test = (name, fn) => cases.push([name, fn]);
const near = (a, b, what) => assert.ok(Math.abs(a - b) < 0.02, `${what}: ${a} vs ${b}`);

test("colours parse, lay over a background, and contrast as WCAG says", () => {
  assert.deepEqual(parseColor("#fff"), [255, 255, 255, 1]);
  assert.deepEqual(parseColor("#27ae60"), [39, 174, 96, 1]);
  assert.deepEqual(parseColor("rgba(10, 20, 30, 0.5)"), [10, 20, 30, 0.5]);
  assert.deepEqual(parseColor("rgb(1 2 3 / 50%)"), [1, 2, 3, 0.5]);
  assert.equal(parseColor("hsl(1 2% 3%)"), null);
  assert.deepEqual(over([255, 255, 255, 0.5], [0, 0, 0]), [127.5, 127.5, 127.5]);
  near(contrast("#000", "#fff"), 21, "black on white");
  near(contrast("#fff", "#fff"), 1, "white on white");
  near(contrast("#777777", "#ffffff"), 4.48, "#777 on white");
  // The example: white initials on the Hunter's green read at 2.9:1.
  near(contrast("#ffffff", "#27ae60"), 2.87, "white on the Hunter's green");
});

test("the ink of a token reaches AA on every hero's colour of both games", (fixture) => {
  const ids = [...Object.keys(fixture.static.heroes), "ninja", "gladiator", "samurai", "hunter", "werewolf", "shaman", "minstrel", "magician", "prince", "paladin", "vampire", "grand_master"];
  ids.forEach((id, i) => {
    const fill = dorasureHero(id, i);
    assert.ok(contrast(inkOn(fill), fill) >= AA, `${id} ${fill}: ${contrast(inkOn(fill), fill)}`);
  });
  for (const id of ["almanor", "choros", "eleanor", "gor", "guelin", "kaerdrak", "ragnar", "riel", "vargen", "nobody"]) {
    const fill = dornHero(id);
    assert.ok(contrast(inkOn(fill), fill) >= AA, `${id} ${fill}: ${contrast(inkOn(fill), fill)}`);
  }
});

test("black or white always reaches AA: the ink of any fill is readable", () => {
  for (let r = 0; r < 256; r += 17) {
    for (let g = 0; g < 256; g += 17) {
      for (let b = 0; b < 256; b += 17) {
        const fill = `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
        assert.ok(contrast(inkOn(fill), fill) >= AA, `${fill}: ${contrast(inkOn(fill), fill)}`);
      }
    }
  }
});
