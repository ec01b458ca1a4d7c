// Where things are on Dorasure's hex map: the spaces of welcome.static (each hex with its
// `node`, the position id actions use; the City's three hexes share one), the canvas size
// that keeps the map's aspect, hit tests, hero token positions and the corner that holds
// the tracks. The hex maths is hexlayout.js's. Pure (no DOM), so node tests it:
// tests/e2e/js/dorasure_parts_cases.mjs.
import { hexBounds } from "../../hexlayout.js";

// The smallest map height the canvas keeps while the width allows it.
export const READABLE_HEIGHT = 460;

// Reading the server's data happens here, so a change of its shape stays local.

function boardSpaces(stat) {
  const board = stat.board || stat;
  return board.spaces || [];
}

/** Heroes in turn order: view.heroes is a list [{id, pos, hp, ...}] (or a map id -> hero). */
export function heroesOf(view) {
  const heroes = view.heroes || [];
  if (Array.isArray(heroes)) return heroes.map((hero, i) => ({ ...hero, index: i }));
  return Object.entries(heroes).map(([id, hero], i) => ({ id, index: i, ...hero }));
}

export function heroPos(hero) {
  return hero.pos ?? hero.space ?? null;
}

/** view.mountains is a list [{id, state, flags, quest, reward}] (or a map id -> mountain). */
export function mountainsOf(view) {
  const m = view.mountains || [];
  return Array.isArray(m) ? Object.fromEntries(m.map((x) => [x.id, x])) : m;
}

/** The spaces of the map; `layout` arguments are the HexLayout fitted to the canvas (hexlayout.js). */
export class DorasureBoard {
  constructor(stat) {
    this.spaces = boardSpaces(stat);
    this.byId = new Map(this.spaces.map((s) => [s.id, s]));
    this.byCoord = new Map(this.spaces.map((s) => [`${s.q},${s.r}`, s]));
  }

  /**
   * The canvas size in CSS pixels: the map's own aspect (about A4 landscape), `width` wide
   * unless taller than maxH, but never shorter than READABLE_HEIGHT while the width allows
   * (hexes of ~30 px keep 9 px text): opened texts under the board then scroll the page
   * rather than shrink the map.
   */
  canvasSize(width, maxH) {
    const b = hexBounds(this.spaces);
    const aspect = b ? (b.maxX - b.minX) / (b.maxY - b.minY) : 1.4;
    let w = width;
    let h = Math.round(w / aspect);
    const limit = Math.max(maxH, READABLE_HEIGHT);
    if (h > limit) {
      h = limit;
      w = Math.round(h * aspect);
    }
    return { w, h };
  }

  /** The nearest space with a name (a village, the City, the Lake, a mountain): {space, distance}, or null. */
  nearestNamed(id) {
    const start = this.byId.get(id);
    if (!start) return null;
    const seen = new Set([id]);
    let ring = [start];
    for (let distance = 1; ring.length && distance < 8; distance += 1) {
      const next = [];
      for (const s of ring) {
        for (const n of this.hexNeighbours(s)) {
          if (seen.has(n.id)) continue;
          seen.add(n.id);
          if (n.name) return { space: n, distance };
          next.push(n);
        }
      }
      ring = next;
    }
    return null;
  }

  /** The hexes next to `s` on the map (by coordinates: mountains and City hexes too). */
  hexNeighbours(s) {
    return [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]].map(([dq, dr]) => this.byCoord.get(`${s.q + dq},${s.r + dr}`)).filter(Boolean);
  }

  /**
   * The space one key press from space `id`: dx (±1) along its row, dy (±1) to the next row's
   * space nearest below or above it (ties go east going down and west going up, so a press and
   * its opposite come back). Off the map the cursor stays.
   */
  stepSpace(id, dx, dy) {
    const s = this.byId.get(id);
    if (!s) return this.spaces[0]?.id ?? null;
    if (!dy) return this.byCoord.get(`${s.q + Math.sign(dx)},${s.r}`)?.id ?? id;
    const r = s.r + Math.sign(dy);
    const x = s.q + s.r / 2 + Math.sign(dx) * 0.5;
    const lean = dy > 0 ? 0.01 : -0.01;
    const row = this.spaces.filter((o) => o.r === r);
    if (!row.length) return id;
    const d = (o) => Math.abs(o.q + o.r / 2 - x - lean);
    return row.reduce((best, o) => (d(o) < d(best) ? o : best)).id;
  }

  /** The board hexes of a position id (the City node covers its three hexes). */
  cellsOf(id) {
    if (id === null || id === undefined) return [];
    return this.spaces.filter((s) => (s.node ?? s.id) === id);
  }

  /** Position id a hex stands for when clicked (a City hex means the City node). */
  nodeOf(space) {
    if (!space) return null;
    return space.node ?? space.id;
  }

  terrainOf(space, view) {
    if (space.id === "belk" && (view || {}).belk_razed) return "razed";
    return space.terrain;
  }

  spaceAt(layout, x, y) {
    const hx = layout.pixelToHex(x, y);
    return this.byCoord.get(`${hx.q},${hx.r}`) || null;
  }

  spaceToPixel(layout, id) {
    const cells = this.cellsOf(id);
    if (!cells.length) return null;
    return layout.hexToPixel(cells[0].q, cells[0].r);
  }

  /** Token centres (CSS px) for each hero of the view, spread when several share a space. */
  tokenPositions(layout, view) {
    const out = new Map();
    const groups = new Map();
    for (const hero of heroesOf(view || {})) {
      const pos = heroPos(hero);
      const cells = this.cellsOf(pos);
      if (!cells.length) continue;
      if (!groups.has(pos)) groups.set(pos, { cells, heroes: [] });
      groups.get(pos).heroes.push(hero);
    }
    const size = layout.size;
    for (const { cells, heroes } of groups.values()) {
      heroes.forEach((hero, i) => {
        // Spread a crowd over the City's hexes first, then around each centre.
        const cell = cells[i % cells.length];
        const slot = Math.floor(i / cells.length);
        const perCell = Math.ceil(heroes.length / cells.length);
        const c = layout.hexToPixel(cell.q, cell.r);
        if (perCell <= 1) {
          out.set(hero.id, { x: c.x, y: c.y - size * 0.08 });
          return;
        }
        const angle = (2 * Math.PI * slot) / perCell - Math.PI / 2;
        const rad = size * (perCell > 3 ? 0.45 : 0.36);
        out.set(hero.id, { x: c.x + rad * Math.cos(angle), y: c.y - size * 0.08 + rad * Math.sin(angle) });
      });
    }
    return out;
  }

  /** The empty lower-right of the map holds the meter (bottom) and the Dragon's health (above it). */
  trackAreas(layout) {
    const size = layout.size;
    const w = layout.width;
    const spaces = this.spaces;
    const maxR = Math.max(...spaces.map((s) => s.r));
    const rightEdge = Math.max(...spaces.map((s) => layout.hexToPixel(s.q, s.r).x)) + w / 2;
    const bottomRowRight = Math.max(...spaces.filter((s) => s.r === maxR).map((s) => layout.hexToPixel(s.q, s.r).x)) + w / 2;
    const rowAbove = spaces.filter((s) => s.r === maxR - 1);
    const rowAboveRight = Math.max(...rowAbove.map((s) => layout.hexToPixel(s.q, s.r).x)) + w / 2;
    const yBottom = layout.hexToPixel(0, maxR).y;
    const yAbove = layout.hexToPixel(0, maxR - 1).y;
    // The meter sits below the row above's lowest points, level with the bottom row.
    const meterTop = yAbove + size + 3;
    const meter = { x: bottomRowRight + size * 0.25, y: meterTop, w: rightEdge - bottomRowRight - size * 0.3, h: yBottom + size - meterTop };
    const health = { x: rowAboveRight + size * 0.25, y: yAbove - size * 1.9, w: rightEdge - rowAboveRight - size * 0.3, h: size * 2.9 - 6 };
    return { meter, health };
  }
}
