// Dorn's figures and loose things, drawn over the terrain from the view: heroes, weak and
// strong monsters, Zorkal and obstacles, with their badges, the picked figure's halo, the
// crosshair on a target, and Treasure tokens and Artifacts lying on the floor.
import { titleCase } from "../../ui.js";
import { roundToken } from "../canvas.js";
import { cellOf, key, ZORKAL } from "./layout.js";
import { MONSTER_ABBR } from "./names.js";

const HERO_COLORS = {
  almanor: "#2f6fd6",
  choros: "#c0692b",
  eleanor: "#35a866",
  gor: "#efe6cc",
  guelin: "#138a7c",
  kaerdrak: "#d9b437",
  ragnar: "#c4312b",
  riel: "#8e4bb5",
  vargen: "#5f6671",
};

export const WEAK_FILL = "#8a5a2e"; // brown tokens (RB components)
export const STRONG_FILL = "#a3202c"; // red tokens
const ZORKAL_FILL = "#2a1038";

export function heroColor(id) {
  return HERO_COLORS[id] || "#888";
}

function isStrong(stat, type) {
  return (stat.monsters || {})[type]?.class === "strong";
}

/** A figure's colour on the board (a monster's tells weak from strong). */
export function figureColor(id, stat, view) {
  if (id === ZORKAL) return ZORKAL_FILL;
  if ((stat.heroes || {})[id]) return heroColor(id);
  const m = view?.monsters?.[id];
  if (m) return isStrong(stat, m.type) ? STRONG_FILL : WEAK_FILL;
  return "#6b5a4a";
}

export function diamondPath(ctx, x, y, r) {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
}

export function crownPath(ctx, x, y, r) {
  ctx.beginPath();
  ctx.moveTo(x - r, y + r * 0.6);
  ctx.lineTo(x - r, y - r * 0.5);
  ctx.lineTo(x - r * 0.5, y);
  ctx.lineTo(x, y - r * 0.8);
  ctx.lineTo(x + r * 0.5, y);
  ctx.lineTo(x + r, y - r * 0.5);
  ctx.lineTo(x + r, y + r * 0.6);
  ctx.closePath();
}

/** Treasure tokens and Artifacts lying on the board (moved to a corner when a figure stands there). */
export function drawItems(ctx, { layout, view: v, figs }) {
  const s = layout.cell;
  const occupied = new Set(figs.map((f) => key(...f.cell)));
  for (const t of v.tokens || []) {
    if (!cellOf(t)) continue;
    const c = layout.cellToPixel(...t);
    const busy = occupied.has(key(...t));
    treasureToken(ctx, busy ? c.x - s * 0.3 : c.x, busy ? c.y + s * 0.3 : c.y, s * (busy ? 0.16 : 0.27));
  }
  for (const [, a] of Object.entries(v.artifacts || {})) {
    if (a.carrier || !cellOf(a.cell)) continue;
    const c = layout.cellToPixel(...a.cell);
    const busy = occupied.has(key(...a.cell));
    artifactToken(ctx, busy ? c.x + s * 0.3 : c.x, busy ? c.y + s * 0.3 : c.y, s * (busy ? 0.17 : 0.3));
  }
}

export function treasureToken(ctx, x, y, r) {
  roundToken(ctx, x, y, r, { fill: "#f2c230", rim: "#7a5a06", rimWidth: Math.max(1, r * 0.12), shadow: 0.45 });
  // a little chest
  ctx.save();
  ctx.fillStyle = "#7a4a12";
  ctx.fillRect(x - r * 0.55, y - r * 0.2, r * 1.1, r * 0.65);
  ctx.beginPath();
  ctx.ellipse(x, y - r * 0.2, r * 0.55, r * 0.35, 0, Math.PI, 0);
  ctx.fill();
  ctx.fillStyle = "#f2c230";
  ctx.fillRect(x - r * 0.1, y - r * 0.15, r * 0.2, r * 0.3);
  ctx.restore();
}

export function artifactToken(ctx, x, y, r) {
  ctx.save();
  ctx.shadowColor = "rgba(0,0,0,0.5)";
  ctx.shadowBlur = 3;
  ctx.fillStyle = "#2f6fe0";
  diamondPath(ctx, x, y, r);
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.strokeStyle = "#dbe8ff";
  ctx.lineWidth = Math.max(1, r * 0.14);
  ctx.stroke();
  ctx.fillStyle = "#dbe8ff";
  diamondPath(ctx, x, y, r * 0.35);
  ctx.fill();
  ctx.restore();
}

/**
 * Every figure's token where `scene.layout` puts it, a halo on the active figure and the others
 * that can act, a crosshair on each targeted one (scene: see DornRenderer.scene).
 */
export function drawFigures(ctx, scene) {
  const { layout, figs, active, targeted } = scene;
  const pos = layout.tokenPositions(figs);
  const actors = new Set(scene.actors);
  const s = layout.cell;
  for (const f of figs) {
    const p = pos.get(f.id);
    if (!p) continue;
    // A figure on a teleport pad stands on both cells: a ghost ring marks the other one.
    const other = layout.partner.get(key(...f.cell));
    if (other) {
      const q = layout.cellToPixel(...other);
      ctx.save();
      ctx.strokeStyle = figureColor(f.id, scene.stat, scene.view);
      ctx.lineWidth = Math.max(1.5, s * 0.08);
      ctx.setLineDash([s * 0.1, s * 0.08]);
      ctx.beginPath();
      ctx.arc(q.x, q.y, s * 0.34, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.restore();
    }
    if (f.id === active || actors.has(f.id)) {
      ctx.save();
      ctx.beginPath();
      ctx.arc(p.x, p.y, p.r + s * (f.id === active ? 0.1 : 0.06), 0, 2 * Math.PI);
      ctx.fillStyle = f.id === active ? "rgba(255, 226, 80, 0.95)" : "rgba(255,255,255,0.55)";
      ctx.fill();
      ctx.restore();
    }
    if (f.kind === "hero") heroToken(ctx, f, p, scene);
    else if (f.kind === "monster") monsterToken(ctx, f, p, scene.stat);
    else if (f.kind === "zorkal") zorkalToken(ctx, f, p);
    else obstacleToken(ctx, f, p);
    if (scene.effects && scene.effects.has(f.id)) effectBadge(ctx, p);
    if (targeted.has(f.id)) crosshair(ctx, p, s);
  }
}

// The smallest mark a token carries; a token too small for two letters and a badge (several
// heroes crowding one Argos cell) shows one letter and leaves its life to the tooltip and panel.
const MIN_MARK_PX = 6;

function heroToken(ctx, f, p, { names, view }) {
  const hero = f.data;
  const tight = p.r * 0.92 < MIN_MARK_PX * 1.4;
  const name = names.heroName(f.id);
  roundToken(ctx, p.x, p.y, p.r, { fill: heroColor(f.id), text: tight ? name.charAt(0) : name.slice(0, 2), px: Math.max(MIN_MARK_PX, p.r * (tight ? 1.2 : 0.92)) });
  // Life as a small red badge; a blue diamond if the hero carries an Artifact.
  if (!tight) badge(ctx, p.x + p.r * 0.8, p.y - p.r * 0.8, p.r * 0.46, String(hero.life), "#b3261e");
  const carries = Object.values(view.artifacts || {}).some((a) => a.carrier === f.id);
  if (carries) artifactToken(ctx, p.x - p.r * 0.85, p.y - p.r * 0.8, p.r * 0.38);
}

function monsterToken(ctx, f, p, stat) {
  const m = f.data;
  const strong = isStrong(stat, m.type);
  const r = p.r * 0.95;
  ctx.save();
  ctx.shadowColor = "rgba(0,0,0,0.55)";
  ctx.shadowBlur = 3;
  ctx.beginPath();
  if (strong) {
    // Strong monsters: red octagons with a gold rim.
    for (let i = 0; i < 8; i += 1) {
      const a = (Math.PI / 4) * i + Math.PI / 8;
      const x = p.x + r * 1.06 * Math.cos(a);
      const y = p.y + r * 1.06 * Math.sin(a);
      if (i) ctx.lineTo(x, y);
      else ctx.moveTo(x, y);
    }
    ctx.closePath();
  } else ctx.roundRect(p.x - r, p.y - r, 2 * r, 2 * r, r * 0.25); // weak: brown squares
  ctx.fillStyle = strong ? STRONG_FILL : WEAK_FILL;
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.lineWidth = Math.max(1.2, r * 0.14);
  ctx.strokeStyle = strong ? "#f0c84a" : "#f1dcc0";
  ctx.stroke();
  ctx.fillStyle = "#fff";
  ctx.font = `800 ${r * 0.85}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(m.bat ? "🦇" : MONSTER_ABBR[m.type] || titleCase(m.type).slice(0, 2), p.x, p.y + r * 0.05);
  if (m.life > 1) badge(ctx, p.x + r * 0.85, p.y - r * 0.85, r * 0.45, String(m.life), "#1e1e1e");
  if (m.waiting) badge(ctx, p.x - r * 0.85, p.y - r * 0.85, r * 0.45, "z", "#3d5a80");
  ctx.restore();
}

function zorkalToken(ctx, f, p) {
  const z = f.data;
  roundToken(ctx, p.x, p.y, p.r, { fill: ZORKAL_FILL, rim: "#e8c547", rimWidth: Math.max(1.5, p.r * 0.15), shadow: 0.6, blur: 4 });
  ctx.save();
  ctx.fillStyle = "#e8c547";
  crownPath(ctx, p.x, p.y + p.r * 0.05, p.r * 0.55);
  ctx.fill();
  badge(ctx, p.x + p.r * 0.8, p.y - p.r * 0.8, p.r * 0.42, String(z.life), "#2e7d32");
  ctx.restore();
}

/** A lasting effect on the figure (Frozen, Aegis, Icy Prison...): a blue star at its lower left; the tooltip names it. */
function effectBadge(ctx, p) {
  const r = Math.max(MIN_MARK_PX / 1.25, p.r * 0.42);
  const x = p.x - p.r * 0.85;
  const y = p.y + p.r * 0.8;
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = "#1d4f91";
  ctx.fill();
  ctx.lineWidth = Math.max(1, r * 0.18);
  ctx.strokeStyle = "#fff";
  ctx.stroke();
  ctx.beginPath();
  for (let i = 0; i < 10; i += 1) {
    const a = -Math.PI / 2 + (Math.PI / 5) * i;
    const rr = i % 2 ? r * 0.32 : r * 0.75;
    if (i) ctx.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
    else ctx.moveTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
  }
  ctx.closePath();
  ctx.fillStyle = "#cfe8ff";
  ctx.fill();
  ctx.restore();
}

/** An obstacle: a barrier as a wall of stones, a cave-in (or any other) as a heap of rock; its life in the badge. */
function obstacleToken(ctx, f, p) {
  if (f.data.kind === "barrier") {
    ctx.save();
    const w = p.r * 1.8;
    const hgt = p.r * 1.3;
    ctx.fillStyle = "#6d6a66";
    ctx.fillRect(p.x - w / 2, p.y - hgt / 2, w, hgt);
    ctx.strokeStyle = "#e9e4dc";
    ctx.lineWidth = 1.5;
    ctx.strokeRect(p.x - w / 2, p.y - hgt / 2, w, hgt);
    ctx.beginPath();
    ctx.moveTo(p.x - w / 2, p.y);
    ctx.lineTo(p.x + w / 2, p.y);
    for (const [dx, y0, y1] of [[0, -hgt / 2, 0], [-w / 4, 0, hgt / 2], [w / 4, 0, hgt / 2]]) {
      ctx.moveTo(p.x + dx, p.y + y0);
      ctx.lineTo(p.x + dx, p.y + y1);
    }
    ctx.stroke();
    badge(ctx, p.x + p.r * 0.8, p.y - p.r * 0.8, p.r * 0.42, String(f.data.life), "#1e1e1e");
    ctx.restore();
    return;
  }
  ctx.save();
  ctx.fillStyle = "#5a4634";
  ctx.beginPath();
  ctx.moveTo(p.x - p.r, p.y + p.r * 0.7);
  ctx.lineTo(p.x - p.r * 0.6, p.y - p.r * 0.5);
  ctx.lineTo(p.x, p.y - p.r * 0.8);
  ctx.lineTo(p.x + p.r * 0.7, p.y - p.r * 0.4);
  ctx.lineTo(p.x + p.r, p.y + p.r * 0.7);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = "#d9c3a5";
  ctx.lineWidth = 1.5;
  ctx.stroke();
  badge(ctx, p.x + p.r * 0.8, p.y - p.r * 0.8, p.r * 0.42, String(f.data.life), "#1e1e1e");
  ctx.restore();
}

function badge(ctx, x, y, size, text, bg) {
  const r = Math.max(size, MIN_MARK_PX / 1.25); // its number never under MIN_MARK_PX
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = bg;
  ctx.fill();
  ctx.lineWidth = Math.max(1, r * 0.18);
  ctx.strokeStyle = "#fff";
  ctx.stroke();
  ctx.fillStyle = "#fff";
  ctx.font = `800 ${r * 1.25}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, x, y + r * 0.08);
  ctx.restore();
}

function crosshair(ctx, p, s) {
  const r = p.r + s * 0.1;
  ctx.save();
  ctx.strokeStyle = "#ff3b30";
  ctx.lineWidth = Math.max(2, s * 0.08);
  ctx.beginPath();
  ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    ctx.moveTo(p.x + dx * r * 0.7, p.y + dy * r * 0.7);
    ctx.lineTo(p.x + dx * r * 1.3, p.y + dy * r * 1.3);
  }
  ctx.stroke();
  ctx.restore();
}


/** The keyboard cursor: a bright square frame round its cell, drawn over everything. */
export function drawCursor(ctx, layout, cell) {
  const s = layout.cell;
  const x = layout.ox + cell[0] * s;
  const y = layout.oy + cell[1] * s;
  ctx.save();
  ctx.lineWidth = Math.max(2, s * 0.1);
  ctx.strokeStyle = "#000";
  ctx.strokeRect(x - 1, y - 1, s + 2, s + 2);
  ctx.strokeStyle = "#4fd1ff";
  ctx.lineWidth = Math.max(1.5, s * 0.06);
  ctx.strokeRect(x - 1, y - 1, s + 2, s + 2);
  ctx.restore();
}
