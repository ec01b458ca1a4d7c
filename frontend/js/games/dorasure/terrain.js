// Dorasure's map under the heroes: every hex in its terrain's colour and glyph, Fang sites,
// the City's shared rim and the place names, then from the view the Fang land tiles, the path
// walked this turn, the hexes the actions light and the keyboard cursor (tiles.js draws the
// quest tiles).
import { paintTile } from "../canvas.js";
import { heroesOf } from "./layout.js";

// The smallest text the map draws; a quest tile's words are cut short rather than shrunk below it.
export const MIN_PX = 9;

// Terrain look: a colour AND a glyph/pattern, so nothing depends on colour alone.
export const TERRAIN_STYLE = {
  plains: { fill: "#c5d98a", ink: "#6f8a35", label: "Plains (die 3+)" },
  forest: { fill: "#3f7d4a", ink: "#1f4a28", label: "Forest (die 5+)" },
  mountain: { fill: "#8c8177", ink: "#4f4640", label: "Mountain (never enterable)" },
  road: { fill: "#d9bf8c", ink: "#8f7243", label: "Road (any die)" },
  city: { fill: "#b7b9c9", ink: "#4d5068", label: "The City (any die, rest +2)" },
  village: { fill: "#e9b46c", ink: "#8a4f1d", label: "Village (any die, rest +2)" },
  lake: { fill: "#5b9bd0", ink: "#dcefff", label: "Western Lake (any die)" },
  razed: { fill: "#6b5a55", ink: "#f08a4b", label: "Razed Belk (road-type)" },
};

// Each terrain's glyph (function declarations are hoisted, so the table can come first).
const GLYPHS = {
  plains: glyphGrass,
  forest: glyphTrees,
  mountain: glyphPeaks,
  road: glyphRoad,
  city: glyphTowers,
  village: glyphHouses,
  lake: glyphWaves,
  razed: glyphRuins,
};

/** Every hex, the City's rim and the place names (scene: see DorasureRenderer.scene). */
export function drawMap(ctx, scene) {
  for (const s of scene.board.spaces) drawSpace(ctx, scene, s);
  drawCityOutline(ctx, scene);
  for (const s of scene.board.spaces) drawLabel(ctx, scene, s);
}

/** The outline of hex (q, r), `inset` px inside its corners, as the current path. */
function hexPath(ctx, layout, q, r, inset = 0) {
  const pts = layout.corners(q, r, inset);
  ctx.beginPath();
  ctx.moveTo(pts[0].x, pts[0].y);
  for (let i = 1; i < 6; i += 1) ctx.lineTo(pts[i].x, pts[i].y);
  ctx.closePath();
}

function drawSpace(ctx, { board, layout, view, stat }, s) {
  const terrain = board.terrainOf(s, view);
  const style = TERRAIN_STYLE[terrain] || { fill: "#999", ink: "#333" };
  const size = layout.size;
  const c = layout.hexToPixel(s.q, s.r);
  const k = size / 30;
  const glyph = GLYPHS[terrain];
  paintTile(ctx, () => hexPath(ctx, layout, s.q, s.r, 1), style, Math.max(1, size * 0.05), () => glyph && glyph(ctx, c, k));
  hexPath(ctx, layout, s.q, s.r, 1);
  ctx.strokeStyle = "rgba(20,22,28,0.85)";
  ctx.lineWidth = Math.max(1, size * 0.045);
  ctx.stroke();
  // Fang sites mean something only with the Fang expansion in play.
  if (stat.fang && (s.fang_site || s.fang)) glyphFang(ctx, c, k);
}

function glyphGrass(ctx, c, k) {
  for (const [dx, dy] of [[-12, -10], [8, -12], [-4, 4], [12, 6], [-14, 12], [2, 16]]) {
    const x = c.x + dx * k;
    const y = c.y + dy * k;
    ctx.beginPath();
    ctx.moveTo(x - 3 * k, y - 4 * k);
    ctx.lineTo(x, y);
    ctx.lineTo(x + 3 * k, y - 4 * k);
    ctx.moveTo(x, y);
    ctx.lineTo(x, y - 5 * k);
    ctx.stroke();
  }
}

function glyphTrees(ctx, c, k) {
  for (const [dx, dy] of [[-10, -6], [9, -9], [0, 6], [-14, 12], [14, 10]]) {
    const x = c.x + dx * k;
    const y = c.y + dy * k;
    ctx.beginPath();
    ctx.moveTo(x, y - 9 * k);
    ctx.lineTo(x + 6 * k, y + 3 * k);
    ctx.lineTo(x - 6 * k, y + 3 * k);
    ctx.closePath();
    ctx.fillStyle = "#1e4a27";
    ctx.fill();
    ctx.fillStyle = "#5c3b1e";
    ctx.fillRect(x - 1.2 * k, y + 3 * k, 2.4 * k, 3 * k);
  }
}

function glyphPeaks(ctx, c, k) {
  ctx.fillStyle = "#6b625a";
  ctx.beginPath();
  ctx.moveTo(c.x - 20 * k, c.y + 14 * k);
  ctx.lineTo(c.x - 6 * k, c.y - 14 * k);
  ctx.lineTo(c.x + 4 * k, c.y + 2 * k);
  ctx.lineTo(c.x + 10 * k, c.y - 8 * k);
  ctx.lineTo(c.x + 22 * k, c.y + 14 * k);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = "#f2f2f2";
  ctx.beginPath();
  ctx.moveTo(c.x - 6 * k, c.y - 14 * k);
  ctx.lineTo(c.x - 10 * k, c.y - 6 * k);
  ctx.lineTo(c.x - 2 * k, c.y - 6 * k);
  ctx.closePath();
  ctx.fill();
}

function glyphRoad(ctx, c, k) {
  ctx.setLineDash([5 * k, 4 * k]);
  ctx.lineWidth = 3 * k;
  ctx.beginPath();
  ctx.moveTo(c.x, c.y - 30 * k);
  ctx.quadraticCurveTo(c.x + 10 * k, c.y, c.x, c.y + 30 * k);
  ctx.stroke();
  ctx.setLineDash([]);
}

function glyphTowers(ctx, c, k) {
  ctx.fillStyle = "#5d6079";
  const base = c.y + 8 * k;
  ctx.fillRect(c.x - 16 * k, base - 10 * k, 32 * k, 10 * k);
  for (const dx of [-16, -4, 8]) {
    ctx.fillRect(c.x + dx * k, base - 20 * k, 8 * k, 10 * k);
    ctx.fillRect(c.x + dx * k, base - 23 * k, 2.5 * k, 3 * k);
    ctx.fillRect(c.x + (dx + 5.5) * k, base - 23 * k, 2.5 * k, 3 * k);
  }
}

function glyphHouses(ctx, c, k) {
  for (const [dx, dy] of [[-9, -2], [8, -6]]) {
    const x = c.x + dx * k;
    const y = c.y + dy * k;
    ctx.fillStyle = "#8a4f1d";
    ctx.beginPath();
    ctx.moveTo(x - 7 * k, y);
    ctx.lineTo(x, y - 7 * k);
    ctx.lineTo(x + 7 * k, y);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = "#fff4df";
    ctx.fillRect(x - 5 * k, y, 10 * k, 8 * k);
    ctx.fillStyle = "#8a4f1d";
    ctx.fillRect(x - 1.5 * k, y + 3 * k, 3 * k, 5 * k);
  }
}

function glyphWaves(ctx, c, k) {
  ctx.lineWidth = 2 * k;
  for (const dy of [-10, -2, 6, 14]) {
    ctx.beginPath();
    for (let i = -3; i <= 3; i += 1) {
      const x = c.x + i * 6 * k;
      const y = c.y + dy * k + (i % 2 === 0 ? -2 : 2) * k;
      if (i === -3) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
}

function glyphRuins(ctx, c, k) {
  ctx.fillStyle = "#3b302d";
  ctx.fillRect(c.x - 14 * k, c.y + 2 * k, 6 * k, 8 * k);
  ctx.fillRect(c.x + 6 * k, c.y - 2 * k, 6 * k, 12 * k);
  ctx.fillStyle = "#f08a4b";
  for (const [dx, dy, s] of [[-4, -6, 1], [2, -10, 0.8], [-10, -4, 0.7]]) {
    const x = c.x + dx * k;
    const y = c.y + dy * k;
    ctx.beginPath();
    ctx.moveTo(x, y - 8 * k * s);
    ctx.quadraticCurveTo(x + 6 * k * s, y, x, y + 6 * k * s);
    ctx.quadraticCurveTo(x - 6 * k * s, y, x, y - 8 * k * s);
    ctx.fill();
  }
}

function glyphFang(ctx, c, k) {
  // A white fang in the hex's upper-right: marks a Fang expansion site.
  const x = c.x + 13 * k;
  const y = c.y - 15 * k;
  ctx.fillStyle = "#fffaf0";
  ctx.strokeStyle = "#3a2a20";
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x - 4 * k, y - 3 * k);
  ctx.lineTo(x + 4 * k, y - 3 * k);
  ctx.lineTo(x, y + 6 * k);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
}

function drawCityOutline(ctx, { board, layout }) {
  // The three City hexes are one location: a shared golden rim says so.
  const city = board.spaces.filter((s) => s.terrain === "city");
  ctx.save();
  ctx.strokeStyle = "#e8c547";
  ctx.lineWidth = Math.max(1.5, layout.size * 0.07);
  for (const s of city) {
    hexPath(ctx, layout, s.q, s.r, layout.size * 0.08);
    ctx.stroke();
  }
  ctx.restore();
}

function drawLabel(ctx, { board, layout, view }, s) {
  const terrain = board.terrainOf(s, view);
  let text = s.name;
  if (terrain === "razed") text = `${s.name || "Belk"} (razed)`;
  if (!text || terrain === "mountain") return;
  if (terrain === "city" && s.id !== board.spaces.filter((x) => x.terrain === "city")[0]?.id) return;
  const c = layout.hexToPixel(s.q, s.r);
  label(ctx, text, c.x, c.y + layout.size * 0.62, Math.max(MIN_PX + 1, layout.size * 0.27));
}

/** A short text on a dark pill (place names, Fang tiles, a mountain under its quest tile). */
export function label(ctx, text, x, y, px, { color = "#fff", bg = "rgba(15,17,22,0.72)" } = {}) {
  ctx.save();
  ctx.font = `600 ${px}px system-ui, -apple-system, "Segoe UI", sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const w = ctx.measureText(text).width + px * 0.7;
  ctx.fillStyle = bg;
  ctx.beginPath();
  ctx.roundRect(x - w / 2, y - px * 0.68, w, px * 1.36, px * 0.4);
  ctx.fill();
  ctx.fillStyle = color;
  ctx.fillText(text, x, y + px * 0.04);
  ctx.restore();
}

/** Fang expansion land tiles on their sites: a tile with the land's name. */
export function drawLands(ctx, { board, layout, view, names }) {
  const size = layout.size;
  for (const space of board.spaces) {
    const land = names.landAt(view, space.id);
    if (!land) continue;
    const c = layout.hexToPixel(space.q, space.r);
    ctx.save();
    hexPath(ctx, layout, space.q, space.r, size * 0.16);
    ctx.strokeStyle = "#fffaf0";
    ctx.lineWidth = Math.max(1.5, size * 0.06);
    ctx.setLineDash([size * 0.12, size * 0.08]);
    ctx.stroke();
    ctx.restore();
    // Low in the hex, so the ▽ of its Fang site (upper right) stays in sight.
    label(ctx, land.name, c.x, c.y + size * 0.45, Math.max(MIN_PX, size * 0.22), { bg: "rgba(90,40,20,0.9)" });
  }
}

/** The path walked so far this turn. */
export function drawPath(ctx, { board, layout, view }) {
  const mv = view.movement;
  const current = heroesOf(view).find((x) => x.id === view.current);
  if (!mv || !Array.isArray(mv.path) || !mv.path.length || !current) return;
  const pts = mv.path.map((node) => board.cellsOf(node)[0]).filter(Boolean).map((cell) => layout.hexToPixel(cell.q, cell.r));
  if (pts.length < 2) return;
  ctx.save();
  ctx.strokeStyle = "rgba(255,255,255,0.75)";
  ctx.lineWidth = Math.max(2, layout.size * 0.08);
  ctx.setLineDash([layout.size * 0.14, layout.size * 0.1]);
  ctx.lineCap = "round";
  ctx.beginPath();
  pts.forEach((p, i) => (i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y)));
  ctx.stroke();
  ctx.restore();
}

/** The lit hexes: every hex of each position a listed move or step goes to. */
export function drawTargets(ctx, { board, layout, targets }) {
  if (!targets.size) return;
  ctx.save();
  for (const [node] of targets) {
    for (const cell of board.cellsOf(node)) {
      hexPath(ctx, layout, cell.q, cell.r, layout.size * 0.1);
      ctx.fillStyle = "rgba(255, 244, 140, 0.28)";
      ctx.fill();
      ctx.lineWidth = Math.max(2, layout.size * 0.1);
      ctx.strokeStyle = "#fff48c";
      ctx.setLineDash([layout.size * 0.25, layout.size * 0.12]);
      ctx.stroke();
    }
  }
  ctx.restore();
}

/** The keyboard cursor: a bright double outline round its hex, drawn over everything. */
export function drawCursor(ctx, { board, layout }, id) {
  const s = board.byId.get(id);
  if (!s) return;
  ctx.save();
  hexPath(ctx, layout, s.q, s.r, 2);
  ctx.lineWidth = Math.max(4, layout.size * 0.16);
  ctx.strokeStyle = "#000";
  ctx.stroke();
  ctx.lineWidth = Math.max(2, layout.size * 0.08);
  ctx.strokeStyle = "#4fd1ff";
  ctx.stroke();
  ctx.restore();
}
