// The status panel right of Dorn's labyrinth, drawn on the canvas from the view: Day or
// Night and the Keeper turn, the round's steps, the Blood pool, the chamber fill counter,
// Zorkal and the Gate, the Artifacts, the decks, and a legend as far as there is room.
import { panelBox } from "../canvas.js";
import { artifactToken, STRONG_FILL, treasureToken, WEAK_FILL } from "./figures.js";
import { drawZone, fountainGlyph, teleportGlyph } from "./terrain.js";

const PHASES = [
  ["K1", "Blood"],
  ["K2", "Summon"],
  ["K3", "Move"],
  ["K4", "Attack"],
  ["K4P", "Parry"],
  ["H1", "Blessings"],
  ["H2", "Move"],
  ["H3", "Attack"],
];

/**
 * The panel's column inside the box r for cells of s px: its left edge x0 and width w, the
 * font size fs, its bottom, and y, where the next part goes (each part moves it down).
 */
class Column {
  constructor(ctx, r, s) {
    const pad = s * 0.35;
    this.ctx = ctx;
    this.s = s;
    this.fs = Math.max(10, s * 0.38);
    this.x0 = r.x + pad;
    this.w = r.w - 2 * pad;
    this.y = r.y + pad;
    this.bottom = r.y + r.h - pad;
  }

  /** A line of text at y. */
  text(t, px, { color = "#f1e6d6", weight = 600, align = "left", at = this.x0 } = {}) {
    const { ctx } = this;
    ctx.font = `${weight} ${px}px system-ui, sans-serif`;
    ctx.fillStyle = color;
    ctx.textAlign = align;
    ctx.textBaseline = "top";
    ctx.fillText(t, align === "center" ? at + this.w / 2 : at, this.y);
  }

  /** A section's rule and upper-case title; y goes under them. */
  section(title) {
    const { ctx, s, fs, x0, w } = this;
    let y = this.y + s * 0.25;
    ctx.strokeStyle = "#3b332a";
    ctx.beginPath();
    ctx.moveTo(x0, y);
    ctx.lineTo(x0 + w, y);
    ctx.stroke();
    y += s * 0.25;
    ctx.font = `700 ${fs * 0.72}px system-ui, sans-serif`;
    ctx.fillStyle = "#b7a68f";
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText(title.toUpperCase(), x0, y);
    this.y = y + fs * 0.95;
  }
}

/** The whole panel (scene: see DornRenderer.scene). The parts share one canvas state, in this order. */
export function drawPanel(ctx, { layout, stat, view, names }) {
  const r = layout.panelRect();
  ctx.save();
  panelBox(ctx, r, "#221d18", "#4a3f33", 1);
  const col = new Column(ctx, r, layout.cell);
  drawDayNight(col, view);
  drawSteps(col, view);
  drawBloodPool(col, view, stat.blood_cap || 16);
  drawFillCounter(col, view, stat.chamber_fill_turns || 3);
  drawZorkal(col, view);
  drawArtifacts(col, view, names);
  drawDecks(col, view, names);
  drawLegend(col);
  ctx.restore();
}

/** The Day/Night token's face as it lies now (after the Keeper's flip it shows the next turn), and the Keeper turn. */
function drawDayNight(col, v) {
  const { ctx, s, fs, x0, y } = col;
  const day = v.day_night_token ? v.day_night_token === "day" : Boolean(v.day);
  const iconR = s * 0.62;
  const ic = { x: x0 + iconR, y: y + iconR };
  if (day) {
    ctx.fillStyle = "#ffd54a";
    ctx.strokeStyle = "#ffd54a";
    ctx.lineWidth = Math.max(1.5, s * 0.07);
    ctx.beginPath();
    ctx.arc(ic.x, ic.y, iconR * 0.55, 0, 2 * Math.PI);
    ctx.fill();
    ctx.beginPath();
    for (let i = 0; i < 8; i += 1) {
      const a = (Math.PI / 4) * i;
      ctx.moveTo(ic.x + Math.cos(a) * iconR * 0.72, ic.y + Math.sin(a) * iconR * 0.72);
      ctx.lineTo(ic.x + Math.cos(a) * iconR, ic.y + Math.sin(a) * iconR);
    }
    ctx.stroke();
  } else {
    ctx.fillStyle = "#cfd8ff";
    ctx.beginPath();
    ctx.arc(ic.x, ic.y, iconR * 0.8, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = "#221d18";
    ctx.beginPath();
    ctx.arc(ic.x + iconR * 0.38, ic.y - iconR * 0.22, iconR * 0.7, 0, 2 * Math.PI);
    ctx.fill();
  }
  const tx = x0 + iconR * 2 + s * 0.3;
  ctx.font = `800 ${fs * 1.15}px system-ui, sans-serif`;
  ctx.fillStyle = day ? "#ffe28a" : "#cfd8ff";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(day ? "Day" : "Night", tx, y + iconR * 0.1);
  ctx.font = `500 ${fs * 0.78}px system-ui, sans-serif`;
  ctx.fillStyle = "#c9b9a3";
  ctx.fillText(`Keeper turn ${v.k ?? 1}`, tx, y + iconR * 0.1 + fs * 1.25);
  col.y += iconR * 2 + s * 0.1;
}

/** The steps of the round, the Keeper's above the heroes', the open one lit. */
function drawSteps(col, v) {
  const { ctx, fs, x0, w } = col;
  col.section("Round");
  const cols = 4;
  const cw = w / cols;
  const ch = fs * 1.35;
  PHASES.forEach(([id, label], i) => {
    const cx = x0 + (i % cols) * cw;
    const cy = col.y + Math.floor(i / cols) * (ch + 3);
    const on = v.phase === id;
    const keeperStep = id.startsWith("K");
    ctx.beginPath();
    ctx.roundRect(cx + 1, cy, cw - 2, ch, 4);
    ctx.fillStyle = on ? (keeperStep ? "#a8362e" : "#2f6fd6") : "#2e2720";
    ctx.fill();
    ctx.font = `${on ? 800 : 500} ${fs * 0.66}px system-ui, sans-serif`;
    ctx.fillStyle = on ? "#fff" : keeperStep ? "#d6a79c" : "#a9c1ea";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(label, cx + cw / 2, cy + ch / 2 + 1);
  });
  col.y += 2 * (ch + 3);
  col.text("Keeper: top row · Heroes: bottom row", fs * 0.6, { color: "#8f806c", weight: 500 });
  col.y += fs * 0.7;
}

/** The Keeper's Blood pool: `cap` drops, the full ones red. */
function drawBloodPool(col, v, cap) {
  const { ctx, s, x0, w } = col;
  col.section(`Blood Drops  ${v.blood ?? 0}/${cap}`);
  const per = 8;
  const dw = w / per;
  for (let i = 0; i < cap; i += 1) {
    const cx = x0 + (i % per) * dw + dw / 2;
    const cy = col.y + Math.floor(i / per) * dw * 1.15 + dw * 0.55;
    drop(ctx, cx, cy, dw * 0.36, i < (v.blood ?? 0));
  }
  col.y += Math.ceil(cap / per) * dw * 1.15 + s * 0.05;
}

/** The chamber fill counter: the Keeper wins when the chamber stays full `turns` turns in a row. */
function drawFillCounter(col, v, turns) {
  const { ctx, s, fs, x0, w } = col;
  col.section(`Chamber full  ${v.fill ?? 0}/${turns}`);
  const pr = Math.min(s * 0.32, w / (turns * 3));
  stoneRow(ctx, x0, col.y, pr, 3, turns, (i) => (i < (v.fill ?? 0) ? "#e5534b" : "#3a3029"), "#e5a199", 1.5);
  ctx.font = `500 ${fs * 0.66}px system-ui, sans-serif`;
  ctx.fillStyle = "#b7a68f";
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  ctx.fillText("turns in a row", x0 + turns * pr * 3, col.y + pr);
  col.y += pr * 2 + s * 0.05;
}

/** Zorkal's level and life (green stones), and the Gate. */
function drawZorkal(col, v) {
  const { ctx, s, fs, x0, w } = col;
  const z = v.zorkal || {};
  col.section(`Zorkal  level ${z.level ?? 1}`);
  const lifeN = Math.max(z.life ?? 0, 1);
  const lr = Math.min(s * 0.24, w / (Math.max(lifeN, 6) * 2.6));
  stoneRow(ctx, x0, col.y, lr, 2.6, z.life ?? 0, () => "#3fb67b", "#baf2d2", 1.2);
  ctx.font = `600 ${fs * 0.72}px system-ui, sans-serif`;
  ctx.fillStyle = "#9ff0c4";
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  ctx.fillText(`life ${z.life ?? 0}`, x0 + w, col.y + lr);
  col.y += lr * 2 + s * 0.2;
  col.text(v.gate_open ? "Gate of Doom: OPEN" : "Gate of Doom: closed", fs * 0.78, { color: v.gate_open ? "#ffb4ae" : "#c9d2dc", weight: 700 });
  col.y += fs * 0.95;
}

/** The Artifacts: faint until found, a carrier's initials under a carried one. */
function drawArtifacts(col, v, names) {
  const { ctx, fs, x0, w } = col;
  const arts = Object.entries(v.artifacts || {});
  const found = arts.filter(([, a]) => a.picked).length;
  col.section(`Artifacts found  ${found}/${arts.length || 6}`);
  const aw = w / Math.max(6, arts.length);
  arts.forEach(([, a], i) => {
    const cx = x0 + aw * i + aw / 2;
    const cy = col.y + aw * 0.42;
    ctx.globalAlpha = a.picked || a.carrier ? 1 : 0.35;
    artifactToken(ctx, cx, cy, aw * 0.32);
    ctx.globalAlpha = 1;
    if (a.carrier) {
      ctx.font = `700 ${fs * 0.55}px system-ui, sans-serif`;
      ctx.fillStyle = "#dbe8ff";
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.fillText(names.heroName(a.carrier).slice(0, 3), cx, cy + aw * 0.36);
    }
  });
  col.y += aw * 0.95 + fs * 0.4;
}

/** The decks and the bag: counts only (their order and contents are secret), and the Rituals in play. */
function drawDecks(col, v, names) {
  const { fs } = col;
  col.section("Decks");
  const lines = [
    `Treasure ${v.treasure_deck ?? "?"} · Blessings ${v.blessing_deck ?? "?"}`,
    `Rituals ${v.ritual_deck ?? "?"} · Keeper's hand ${v.ritual_hand_count ?? "?"}`,
    `Strong-monster bag ${v.bag ?? "?"}`,
  ];
  if ((v.rituals_in_play || []).length) lines.push(`In play: ${v.rituals_in_play.map((c) => names.cardName(c)).join(", ")}`);
  for (const line of lines) {
    if (col.y + fs > col.bottom) break;
    col.text(line, fs * 0.7, { color: "#d8cbb8", weight: 500 });
    col.y += fs * 0.95;
  }
}

/** `count` stones of radius r in a row from (x0, y), `step` radii apart, the i-th filled with fill(i). */
function stoneRow(ctx, x0, y, r, step, count, fill, stroke, lineWidth) {
  for (let i = 0; i < count; i += 1) {
    ctx.beginPath();
    ctx.arc(x0 + r + i * r * step, y + r, r, 0, 2 * Math.PI);
    ctx.fillStyle = fill(i);
    ctx.fill();
    ctx.strokeStyle = stroke;
    ctx.lineWidth = lineWidth;
    ctx.stroke();
  }
}

/** What the colours and patterns mean, as far as the panel has room. */
function drawLegend(col) {
  const { ctx, s, fs, x0, w } = col;
  const sw = Math.max(9, s * 0.5);
  const rowH = sw + 4;
  const entries = [
    ["zone", "crypt", "Crypt"],
    ["zone", "dark_temple", "Dark Temple"],
    ["zone", "graveyard", "Graveyard"],
    ["zone", "black_moor", "Black Moor"],
    ["zone", "sewers", "Sewers"],
    ["zone", "chamber", "Chamber"],
    ["zone", "trail", "Trail"],
    ["zone", "argos", "Argos"],
    ["mark", "F", "Fountain"],
    ["mark", "TP", "Teleport"],
    ["token", "P", "Treasure"],
    ["token", "A", "Artifact"],
    ["fig", "weak", "Weak monster"],
    ["fig", "strong", "Strong monster"],
  ];
  const rows = Math.ceil(entries.length / 2);
  if (col.y + s * 0.5 + fs + rows * rowH > col.bottom) return;
  col.section("Legend");
  const { y } = col;
  const colW = w / 2;
  entries.forEach(([kind, id, label], i) => {
    const x = x0 + (i % 2) * colW;
    const top = y + Math.floor(i / 2) * rowH;
    const c = { x: x + sw / 2, y: top + sw / 2 };
    if (kind === "zone") {
      drawZone(ctx, x, top, sw, id, false);
      ctx.strokeStyle = "#0d0b09";
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, top + 0.5, sw - 1, sw - 1);
    } else if (kind === "mark") {
      drawZone(ctx, x, top, sw, "floor", false);
      ctx.save();
      if (id === "F") fountainGlyph(ctx, c, sw / 28);
      else teleportGlyph(ctx, c, sw / 28);
      ctx.restore();
    } else if (kind === "token") {
      if (id === "P") treasureToken(ctx, c.x, c.y, sw * 0.45);
      else artifactToken(ctx, c.x, c.y, sw * 0.48);
    } else {
      ctx.save();
      ctx.beginPath();
      ctx.roundRect(x + 1, top + 1, sw - 2, sw - 2, id === "weak" ? 2 : sw / 2.6);
      ctx.fillStyle = id === "weak" ? WEAK_FILL : STRONG_FILL;
      ctx.fill();
      ctx.strokeStyle = id === "weak" ? "#f1dcc0" : "#f0c84a";
      ctx.lineWidth = 1.2;
      ctx.stroke();
      ctx.restore();
    }
    ctx.font = `500 ${fs * 0.64}px system-ui, sans-serif`;
    ctx.fillStyle = "#d8cbb8";
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillText(label, x + sw + 5, c.y + 1);
  });
}

/** A Blood drop, red when full. */
function drop(ctx, x, y, r, full) {
  ctx.save();
  ctx.beginPath();
  ctx.moveTo(x, y - r * 1.3);
  ctx.quadraticCurveTo(x + r * 1.05, y, x + r * 0.75, y + r * 0.55);
  ctx.arc(x, y + r * 0.35, r * 0.78, 0.25, Math.PI - 0.25);
  ctx.quadraticCurveTo(x - r * 1.05, y, x, y - r * 1.3);
  ctx.fillStyle = full ? "#d7261e" : "#3a3029";
  ctx.fill();
  ctx.strokeStyle = full ? "#ff9a90" : "#5a4a3e";
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}
