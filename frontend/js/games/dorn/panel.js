// The status panel right of Dorn's labyrinth, drawn on the canvas from the view: Day or
// Night and the Keeper turn, the round's steps, the Blood pool, the chamber fill counter,
// Zorkal and the Gate, the Artifacts, the decks, and a legend as far as there is room. No text
// is smaller than 11 px (Column.px; on a phone's small cells it shrinks with them) and every colour reaches 4.5:1 on the panel's fill.
import { panelBox } from "../canvas.js";
import { artifactToken, STRONG_FILL, treasureToken, WEAK_FILL } from "./figures.js";
import { tokenShowsDay } from "./names.js";
import { drawZone, fountainGlyph, teleportGlyph } from "./terrain.js";

// The round's steps as the panel names them: the Keeper's column, then the heroes'.
const STEPS = [
  [
    ["K1", "Blood"],
    ["K2", "Summon"],
    ["K3", "Move"],
    ["K4", "Attack"],
    ["K4P", "Parry"],
  ],
  [
    ["H1", "Blessings"],
    ["H2", "Move"],
    ["H3", "Attack"],
  ],
];

export const PANEL_FILL = "#221d18";
const MUTED = "#b7a68f"; // 7:1 on the panel
const SMALLEST = 11;
// Below cells of this size (a phone's board, which fits the width) the panel is too narrow for
// its 11 px text: its words shrink with the cells, and the page's zoom (which redraws the board
// with larger cells) brings them back to full size.
const FULL_TEXT_CELL = 20;

/**
 * The panel's column inside the box r for cells of s px: its left edge x0 and width w, the
 * font size fs, its bottom, and y, where the next part goes (each part moves it down).
 */
class Column {
  constructor(ctx, r, s) {
    const pad = s * 0.35;
    this.ctx = ctx;
    this.s = s;
    const k = Math.min(1, s / FULL_TEXT_CELL);
    this.fs = Math.max(13, s * 0.5) * k;
    this.smallest = SMALLEST * k;
    this.x0 = r.x + pad;
    this.w = r.w - 2 * pad;
    this.y = r.y + pad;
    this.bottom = r.y + r.h - pad;
    this.tips = []; // {y0, y1, text}: what each part means, for the tooltip over it
  }

  /** Start a part whose tooltip is `text` (the previous part ends here). */
  tip(text) {
    this.endTip();
    this.tips.push({ y0: this.y, y1: this.bottom, text });
  }

  endTip() {
    const last = this.tips[this.tips.length - 1];
    if (last) last.y1 = Math.min(last.y1, this.y);
  }

  /** A font size: `k` times the panel's, never under 11 px (but on the smallest cells). */
  px(k) {
    return Math.max(this.smallest, this.fs * k);
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
    ctx.font = `700 ${this.px(0.72)}px system-ui, sans-serif`;
    ctx.fillStyle = MUTED;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText(title.toUpperCase(), x0, y);
    this.y = y + this.px(0.72) * 1.3;
  }
}

/**
 * The whole panel (scene: see DornRenderer.scene). The parts share one canvas state, in this
 * order. Returns each part's band and what it means ([{y0, y1, text}]), for the tooltip.
 */
export function drawPanel(ctx, { layout, stat, view, names }) {
  const r = layout.panelRect();
  ctx.save();
  panelBox(ctx, r, PANEL_FILL, "#4a3f33", 1);
  const col = new Column(ctx, r, layout.cell);
  const tips = panelTips(stat, view);
  col.tip(tips.day);
  drawDayNight(col, view);
  col.tip(tips.round);
  drawSteps(col, view);
  col.tip(tips.blood);
  drawBloodPool(col, view, stat.blood_cap || 16);
  col.tip(tips.chamber);
  drawFillCounter(col, view, stat.chamber_fill_turns || 3);
  col.tip(tips.zorkal);
  drawZorkal(col, view);
  col.tip(tips.artifacts);
  drawArtifacts(col, view, names);
  col.tip(tips.decks(names));
  drawDecks(col, view, names);
  col.tip("What the board's colours and marks mean (the list under the board has them all).");
  drawLegend(col);
  col.endTip();
  ctx.restore();
  return col.tips;
}

/** What each part of the panel means, in the catalogues' numbers. */
function panelTips(stat, v) {
  const sm = stat.summons || {};
  const z = stat.zorkal || {};
  const costs = Array.isArray(z.level_cost) ? z.level_cost : [];
  const arts = Object.values(v.artifacts || {});
  return {
    day: `Keeper turn ${v.k ?? 1}, ${v.day ? "a Day" : "a Night"} turn. By Day the Keeper summons ${sm.day_weak ?? "?"} weak monster(s); by Night ${sm.night_weak ?? "?"} weak or ${sm.night_strong ?? "?"} strong. The token shows ${tokenShowsDay(v) ? "Day" : "Night"}${tokenShowsDay(v) === Boolean(v.day) ? "" : ": the Keeper flipped it to the next Keeper turn's face"}.`,
    round: `The round's steps: the Keeper's five, then the heroes' three. The lit one is open now (${v.phase_name || v.phase || "?"}).`,
    blood: `Blood Drops: ${v.blood ?? 0} of ${stat.blood_cap || 16}. Every life a hero loses becomes a drop; the Keeper pays for Rituals and Zorkal's levels with them${costs.length ? ` (level 2: ${costs[0]}, level 3: ${costs[1] ?? "?"} more)` : ""}.`,
    chamber: `The Ritual Chamber has been full ${v.fill ?? 0} Keeper turn(s) in a row; when it is full at the end of ${stat.chamber_fill_turns || 3} in a row, the Keeper wins.`,
    zorkal: `Zorkal, level ${v.zorkal?.level ?? 1}, life ${v.zorkal?.life ?? 0}${z.life ? ` of ${z.life[(v.zorkal?.level ?? 1) - 1]}` : ""}. The Gate of Doom ${v.gate_open ? "is open: Zorkal moves and attacks" : `opens when ${stat.gate_needs ?? "?"} Artifacts are in the Ritual Chamber`}; the heroes win when Zorkal falls.`,
    artifacts: `Artifacts: ${arts.filter((a) => a.picked).length} of ${arts.length} found; ${arts.filter((a) => a.carrier).length} carried (the carrier's initials under it).`,
    decks: (names) => `Cards left in each deck (their order is secret)${(v.rituals_in_play || []).length ? `; Rituals in play: ${v.rituals_in_play.map((c) => names.cardName(c)).join(", ")}` : ""}.`,
  };
}

/** The Day/Night token's face as it lies now (after the Keeper's flip it shows the next turn), and the Keeper turn. */
function drawDayNight(col, v) {
  const { ctx, s, fs, x0, y } = col;
  const day = tokenShowsDay(v);
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
    ctx.fillStyle = PANEL_FILL;
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
  ctx.font = `500 ${col.px(0.78)}px system-ui, sans-serif`;
  ctx.fillStyle = "#c9b9a3";
  ctx.fillText(`Keeper turn ${v.k ?? 1}`, tx, y + iconR * 0.1 + fs * 1.25);
  col.y += iconR * 2 + s * 0.1;
}

/** The steps of the round: the Keeper's in the left column, the heroes' in the right, the open one lit. */
function drawSteps(col, v) {
  const { ctx, x0, w } = col;
  col.section("Round");
  const cw = w / 2;
  const px = col.px(0.78);
  const ch = px * 1.6;
  STEPS.forEach((steps, side) => {
    const cx = x0 + side * cw;
    col.text(side ? "Heroes" : "Keeper", col.px(0.72), { color: MUTED, weight: 700, at: cx + 2 });
    steps.forEach(([id, label], i) => {
      const cy = col.y + col.px(0.72) * 1.25 + i * (ch + 2);
      const on = v.phase === id;
      ctx.beginPath();
      ctx.roundRect(cx + 1, cy, cw - 3, ch, 4);
      ctx.fillStyle = on ? (side ? "#2a62c4" : "#a8362e") : "#2e2720";
      ctx.fill();
      ctx.font = `${on ? 800 : 500} ${px}px system-ui, sans-serif`;
      ctx.fillStyle = on ? "#fff" : side ? "#a9c1ea" : "#e0b3a8";
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      ctx.fillText(`${i + 1}. ${label}`, cx + 6, cy + ch / 2 + 1);
    });
  });
  col.y += col.px(0.72) * 1.25 + 5 * (ch + 2) + 2;
}

/** The Keeper's Blood pool: `cap` drops, the full ones red. */
function drawBloodPool(col, v, cap) {
  const { ctx, s, x0, w } = col;
  col.section(`Blood Drops  ${v.blood ?? 0}/${cap}`);
  const per = w / cap >= 11 ? cap : 8; // one row when the drops stay readable
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
  const { ctx, s, x0, w } = col;
  col.section(`Chamber full  ${v.fill ?? 0}/${turns}`);
  const pr = Math.min(s * 0.32, w / (turns * 3));
  stoneRow(ctx, x0, col.y, pr, 3, turns, (i) => (i < (v.fill ?? 0) ? "#e5534b" : "#3a3029"), "#e5a199", 1.5);
  ctx.font = `500 ${col.px(0.8)}px system-ui, sans-serif`;
  ctx.fillStyle = MUTED;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  ctx.fillText("turns in a row", x0 + turns * pr * 3, col.y + pr);
  col.y += pr * 2 + s * 0.05;
}

/** Zorkal's level and life (green stones), and the Gate. */
function drawZorkal(col, v) {
  const { ctx, s, x0, w } = col;
  const z = v.zorkal || {};
  col.section(`Zorkal  level ${z.level ?? 1}`);
  const lifeN = Math.max(z.life ?? 0, 1);
  const lr = Math.min(s * 0.24, w / (Math.max(lifeN, 6) * 2.6));
  stoneRow(ctx, x0, col.y, lr, 2.6, z.life ?? 0, () => "#3fb67b", "#baf2d2", 1.2);
  ctx.font = `600 ${col.px(0.8)}px system-ui, sans-serif`;
  ctx.fillStyle = "#9ff0c4";
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  ctx.fillText(`life ${z.life ?? 0}`, x0 + w, col.y + lr);
  col.y += lr * 2 + s * 0.2;
  col.text(v.gate_open ? "Gate of Doom: OPEN" : "Gate of Doom: closed", col.px(0.85), { color: v.gate_open ? "#ffb4ae" : "#c9d2dc", weight: 700 });
  col.y += col.px(0.85) * 1.3;
}

/** The Artifacts: faint until found, a carrier's initials under a carried one. */
function drawArtifacts(col, v, names) {
  const { ctx, x0, w } = col;
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
      ctx.font = `700 ${col.px(0.6)}px system-ui, sans-serif`;
      ctx.fillStyle = "#dbe8ff";
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.fillText(names.heroName(a.carrier).slice(0, 3), cx, cy + aw * 0.36);
    }
  });
  col.y += aw * 0.84 + col.px(0.6) * 1.2;
}

/** The decks and the bag: counts only (their order and contents are secret), and the Rituals in play. */
function drawDecks(col, v, names) {
  col.section("Decks");
  const lines = [
    `Treasure deck ${v.treasure_deck ?? "?"}`,
    `Blessing deck ${v.blessing_deck ?? "?"}`,
    `Ritual deck ${v.ritual_deck ?? "?"} · in hand ${v.ritual_hand_count ?? "?"}`,
    `Strong-monster bag ${v.bag ?? "?"}`,
  ];
  if ((v.rituals_in_play || []).length) lines.push(`In play: ${v.rituals_in_play.map((c) => names.cardName(c)).join(", ")}`);
  for (const line of lines) {
    if (col.y + col.px(0.8) > col.bottom) break;
    col.text(line, col.px(0.8), { color: "#d8cbb8", weight: 500 });
    col.y += col.px(0.8) * 1.3;
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
    ctx.font = `500 ${col.px(0.8)}px system-ui, sans-serif`;
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
