// Where things are on Dorn's labyrinth: the board as welcome.static.board describes it
// (terrain rows + legend, special cells, zones), the square grid fitted to the canvas
// (cell <-> pixel), the figures a view puts on it and where their tokens are drawn.
// Pure (no DOM), so node tests it: tests/e2e/js/dorn_parts_cases.mjs.

export const ZORKAL = "zorkal";

// The status panel right of the labyrinth, in cells.
const PANEL_CELLS = 8;
// The margins that hold the column numbers (above) and the row numbers (left), in cells.
const RULER_CELLS = 0.9;
// The smallest cell the board takes while the width allows it: below it the status panel's
// text would drop under 11 px. A short window then scrolls to the panels rather than
// shrinking the board (at 1366x768 the board would be ~440 px wide with ~7 px text).
export const READABLE_CELL = 26;
// The smallest cell at all. The board always fits the width (a phone's 390 px takes cells of
// 11 px): the page's zoom makes it legible, where a wider board would cut its status panel off.
export const MIN_CELL = 8;

export const key = (x, y) => `${x},${y}`;
export const cellOf = (v) => (Array.isArray(v) && v.length === 2 ? v : null);
export const sameCell = (a, b) => Boolean(a && b && a[0] === b[0] && a[1] === b[1]);

/** Every figure on the board: {id, kind: hero|monster|zorkal|obstacle, cell, data}. */
export function figures(view) {
  const out = [];
  if (!view) return out;
  for (const [id, hero] of Object.entries(view.heroes || {})) {
    if (cellOf(hero.cell)) out.push({ id, kind: "hero", cell: hero.cell, data: hero });
  }
  for (const [id, m] of Object.entries(view.monsters || {})) {
    if (cellOf(m.cell)) out.push({ id, kind: "monster", cell: m.cell, data: m });
  }
  const z = view.zorkal;
  if (z && cellOf(z.cell) && z.life > 0) out.push({ id: ZORKAL, kind: "zorkal", cell: z.cell, data: z });
  for (const [id, o] of Object.entries(view.obstacles || {})) {
    if (cellOf(o.cell)) out.push({ id, kind: "obstacle", cell: o.cell, data: o });
  }
  return out;
}

/** The labyrinth of `board` (welcome.static.board) on a grid of `cell` CSS pixels from (ox, oy). */
export class DornLayout {
  constructor(board = {}) {
    this.width = board.width || 24;
    this.height = board.height || 20;
    this.rows = board.terrain || [];
    this.legend = board.legend || {};
    this.specials = board.specials || [];
    this.markers = new Map(); // "x,y" -> special
    for (const s of this.specials) this.markers.set(key(s.x, s.y), s);
    this.partner = new Map(); // teleport pad -> its pair
    const byId = new Map(this.specials.map((s) => [s.id, s]));
    for (const s of this.specials) {
      const pair = s.kind === "TP" && /pair=(\w+)/.exec(s.note || "");
      const other = pair && byId.get(pair[1]);
      if (other) this.partner.set(key(s.x, s.y), [other.x, other.y]);
    }
    this.zoneOf = new Map();
    for (const [zone, cells] of Object.entries(board.zones || {})) {
      if (zone === "trail") continue; // the Herbalist is also trail; its own zone wins
      for (const [x, y] of cells) this.zoneOf.set(key(x, y), zone);
    }
    this.cell = 24;
    this.ox = 0;
    this.oy = 0;
    this.cssWidth = 0;
    this.cssHeight = 0;
  }

  /**
   * Fit the board, its rulers and its status panel into `avail` CSS pixels of width, and into
   * `maxH` of height unless that would make cells smaller than READABLE_CELL (quarter-pixel
   * cells, MIN_CELL px at least).
   */
  fit(avail, maxH) {
    const cols = RULER_CELLS + this.width + 0.3 + PANEL_CELLS + 0.2;
    const rows = RULER_CELLS + this.height + 0.3;
    const byWidth = avail / cols;
    const byHeight = maxH / rows;
    const cell = Math.max(MIN_CELL, Math.floor(Math.min(byWidth, Math.max(byHeight, READABLE_CELL)) * 4) / 4);
    this.cell = cell;
    this.ox = Math.round(cell * RULER_CELLS);
    this.oy = Math.round(cell * RULER_CELLS);
    this.cssWidth = Math.round(cell * cols);
    this.cssHeight = Math.round(cell * rows);
  }

  /** Where the rulers' numbers go: column x's above the board, row y's left of it (CSS px). */
  rulers() {
    const s = this.cell;
    const cols = [];
    const rows = [];
    // Two-digit numbers side by side need 13 px cells; on smaller ones (a phone) every other column is numbered.
    const every = s < 13 ? 2 : 1;
    for (let x = 0; x < this.width; x += every) cols.push({ n: x, x: this.ox + (x + 0.5) * s, y: this.oy / 2 });
    for (let y = 0; y < this.height; y += 1) rows.push({ n: y, x: this.ox / 2, y: this.oy + (y + 0.5) * s });
    // 10 px at least while a cell holds two such digits; smaller cells (a phone) take smaller numbers.
    return { cols, rows, px: Math.max(Math.min(10, s * 0.75), Math.min(14, s * 0.42)) };
  }

  /** Centre of cell (x, y) in CSS pixels from the canvas' top-left corner. */
  cellToPixel(x, y) {
    return { x: this.ox + (x + 0.5) * this.cell, y: this.oy + (y + 0.5) * this.cell };
  }

  pixelToCell(px, py) {
    const x = Math.floor((px - this.ox) / this.cell);
    const y = Math.floor((py - this.oy) / this.cell);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return null;
    return [x, y];
  }

  terrainAt(x, y) {
    const ch = (this.rows[y] || "")[x];
    return this.legend[ch] || "wall";
  }

  zoneAt(x, y) {
    return this.zoneOf.get(key(x, y)) || this.terrainAt(x, y);
  }

  /** The status panel's box, right of the labyrinth. */
  panelRect() {
    const s = this.cell;
    const x = this.ox + this.width * s + s * 0.3;
    return { x, y: this.oy, w: this.cssWidth - x - s * 0.2, h: this.height * s };
  }

  /** Token centres and radii (CSS px) of `figs`; figures sharing a cell (heroes in Argos) spread out. */
  tokenPositions(figs) {
    const out = new Map();
    const groups = new Map();
    for (const f of figs) {
      const k = key(...f.cell);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(f);
    }
    const s = this.cell;
    for (const list of groups.values()) {
      const c = this.cellToPixel(...list[0].cell);
      if (list.length === 1) {
        out.set(list[0].id, { x: c.x, y: c.y, r: s * (list[0].kind === "zorkal" ? 0.46 : 0.38) });
        continue;
      }
      const n = list.length;
      const r = s * (n > 4 ? 0.19 : n > 2 ? 0.22 : 0.26);
      list.forEach((f, i) => {
        const angle = (2 * Math.PI * i) / n - Math.PI / 2;
        const d = s * (n > 2 ? 0.25 : 0.22);
        out.set(f.id, { x: c.x + d * Math.cos(angle), y: c.y + d * Math.sin(angle), r });
      });
    }
    return out;
  }

  /** The id of the figure whose token is nearest (px, py) on that cell, or null on an empty cell. */
  figureAt(figs, px, py) {
    const cell = this.pixelToCell(px, py);
    if (!cell) return null;
    const pos = this.tokenPositions(figs);
    const here = figs.filter((f) => sameCell(f.cell, cell));
    if (!here.length) return null;
    let best = here[0];
    let bestD = Infinity;
    for (const f of here) {
      const p = pos.get(f.id);
      const d = p ? (p.x - px) ** 2 + (p.y - py) ** 2 : Infinity;
      if (d < bestD) {
        bestD = d;
        best = f;
      }
    }
    return best.id;
  }
}
