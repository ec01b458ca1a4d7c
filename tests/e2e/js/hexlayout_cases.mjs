// Hex pixel <-> axial round trips for frontend/js/hexlayout.js. Plain ES module with
// no node-only imports, so the same cases run under `node --test` (hexlayout.test.mjs)
// and inside Chromium. `fixture` holds reference points computed by
// backend/engine/hexgrid.py, so client and server agree on geometry.

import { axialToOffset, fitLayout, hexRound, HexLayout, offsetToAxial } from "../../../frontend/js/hexlayout.js";
import { assert } from "./assert.mjs";

export const cases = [];
const test = (name, fn) => cases.push([name, fn]);

test("hexToPixel matches hexgrid.py's to_pixel", (fixture) => {
  const layout = new HexLayout(fixture.size, 0, 0);
  for (const { q, r, x, y } of fixture.points) {
    const p = layout.hexToPixel(q, r);
    assert.ok(Math.abs(p.x - x) < 1e-9 && Math.abs(p.y - y) < 1e-9, `(${q},${r}) -> ${p.x},${p.y} != ${x},${y}`);
  }
});

test("every hex centre maps back to its hex, for several sizes and origins", (fixture) => {
  for (const [size, ox, oy] of [[1, 0, 0], [30, 12.5, -7], [17.3, 400, 300], [64, -50, 1000]]) {
    const layout = new HexLayout(size, ox, oy);
    for (let q = -12; q <= 12; q += 1) {
      for (let r = -12; r <= 12; r += 1) {
        const p = layout.hexToPixel(q, r);
        assert.deepEqual(layout.pixelToHex(p.x, p.y), { q, r });
      }
    }
  }
});

test("points inside a hex (not just its centre) map to that hex", (fixture) => {
  const layout = new HexLayout(20, 100, 100);
  for (let q = -5; q <= 5; q += 1) {
    for (let r = -5; r <= 5; r += 1) {
      const c = layout.hexToPixel(q, r);
      // Inradius is size*sqrt(3)/2 ~ 17.3; stay well inside in eight directions.
      for (let k = 0; k < 8; k += 1) {
        const a = (k * Math.PI) / 4;
        assert.deepEqual(layout.pixelToHex(c.x + 15 * Math.cos(a), c.y + 15 * Math.sin(a)), { q, r });
      }
    }
  }
});

test("pixelToHex agrees with hexgrid.py's from_pixel on off-centre points", (fixture) => {
  const layout = new HexLayout(fixture.size, 0, 0);
  for (const { x, y, q, r } of fixture.from_pixel) assert.deepEqual(layout.pixelToHex(x, y), { q, r }, `${x},${y}`);
});

test("hexRound never returns -0 and keeps q+r+s = 0", (fixture) => {
  const h = hexRound(-0.2, 0.1);
  assert.ok(Object.is(h.q, 0) && Object.is(h.r, 0));
});

test("odd-r offset round trip, as in hexgrid.py", (fixture) => {
  for (let q = -6; q <= 6; q += 1) {
    for (let r = 0; r <= 8; r += 1) {
      const o = axialToOffset(q, r);
      assert.deepEqual(offsetToAxial(o.col, o.row), { q, r });
    }
  }
  assert.deepEqual(axialToOffset(-2, 5), { col: 0, row: 5 }); // city_a in the content file
});

test("fitLayout keeps every hex inside the box", (fixture) => {
  const cells = [];
  for (let r = 0; r <= 6; r += 1) for (let col = 0; col <= 8; col += 1) cells.push(offsetToAxial(col, r));
  const layout = fitLayout(cells, 900, 600, 10);
  for (const { q, r } of cells) {
    for (const p of layout.corners(q, r)) {
      assert.ok(p.x >= 9.99 && p.x <= 890.01 && p.y >= 9.99 && p.y <= 590.01, `${q},${r} corner ${p.x},${p.y}`);
    }
  }
});
