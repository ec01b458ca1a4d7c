// Dorasure's quest tiles on their mountains, drawn from the view: the face-down back ("?"),
// the quest face up (attribute and target first, its name when it fits), solved with its
// reward, and the flags a failed attempt left. Text never shrinks below MIN_PX: it is cut
// short instead (the tooltip and the cursor's words hold all of it).
import { titleCase } from "../../ui.js";
import { mountainsOf } from "./layout.js";
import { label, MIN_PX } from "./terrain.js";

/** Every mountain's quest tile, its flags and the mountain's name under it (scene: see DorasureRenderer.scene). */
export function drawMountains(ctx, { board, layout, view, names }) {
  const mounts = mountainsOf(view);
  const size = layout.size;
  for (const [id, m] of Object.entries(mounts)) {
    const s = board.byId.get(id);
    if (!s) continue;
    const c = layout.hexToPixel(s.q, s.r);
    const quest = m.quest || null;
    // A replay reveals face-down tiles: draw them face down, with their name showing through.
    const state = m.state === "hidden" && quest ? "peek" : m.state || "hidden";
    const w = size * 1.42;
    const hgt = size * 1.12;
    const x = c.x - w / 2;
    const y = c.y - hgt / 2 - size * 0.1;
    ctx.save();
    ctx.shadowColor = "rgba(0,0,0,0.45)";
    ctx.shadowBlur = 4;
    ctx.beginPath();
    ctx.roundRect(x, y, w, hgt, size * 0.12);
    ctx.fillStyle = state === "hidden" || state === "peek" ? "#8e2430" : state === "solved" ? "#2f7a4f" : "#f6ecd2";
    ctx.fill();
    ctx.shadowBlur = 0;
    ctx.lineWidth = Math.max(1, size * 0.05);
    ctx.strokeStyle = state === "hidden" || state === "peek" ? "#f0c36b" : state === "solved" ? "#b8f0c8" : "#8e2430";
    ctx.stroke();
    const fs = Math.max(MIN_PX, size * 0.24);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    if (state === "hidden") {
      ctx.fillStyle = "#ffd98a";
      ctx.font = `700 ${size * 0.62}px Georgia, serif`;
      ctx.fillText("?", c.x, y + hgt * 0.48);
      ctx.font = `600 ${Math.max(MIN_PX, fs * 0.85)}px system-ui, sans-serif`;
      ctx.fillText("Quest", c.x, y + hgt * 0.86);
    } else {
      const dark = state !== "revealed";
      const name = quest ? quest.name : "";
      // What a player needs at a glance comes first (the attribute and target, the reward);
      // the quest's name follows when it fits (the tooltip always has it).
      let head = name;
      if (state === "solved") head = `✓ ${m.reward ? names.rewardName(m.reward) : "solved"}`;
      else if (state === "peek") head = "face down";
      else if (quest && quest.attribute) head = `${titleCase(quest.attribute)} ${quest.target}`;
      textBlock(ctx, [
        { text: head, weight: 700, scale: 1 },
        { text: head === name ? "" : name, weight: 500, scale: 0.85 },
      ], c.x, y, w - 6, hgt, fs, dark ? "#fff" : "#3a1c1c");
    }
    ctx.restore();
    const flags = m.flags || 0;
    for (let i = 0; i < flags; i += 1) drawFlag(ctx, x + w - size * 0.1 - i * size * 0.24, y - size * 0.05, size);
    label(ctx, s.name, c.x, c.y + size * 0.72, Math.max(MIN_PX, size * 0.24), { bg: "rgba(60,50,45,0.85)" });
  }
}

/**
 * Wrapped lines of text in a w x hgt box (top-centred at x, y), shrunk until they fit but never
 * below MIN_PX: then the later parts are left out, and at last the first part is cut short with
 * "…" (the tooltip and the cursor's words have it all).
 */
function textBlock(ctx, parts, x, y, w, hgt, fs, color) {
  const shown = parts.filter((p) => p.text);
  const build = (use, size) => {
    const lines = [];
    for (const part of use) {
      const px = Math.max(MIN_PX, size * part.scale);
      ctx.font = `${part.weight} ${px}px system-ui, sans-serif`;
      for (const text of wrap(ctx, part.text, w)) lines.push({ text, font: ctx.font, px });
    }
    const total = lines.reduce((acc, l) => acc + l.px * 1.12, 0);
    const fits = total <= hgt - 4 && lines.every((l) => (ctx.font = l.font) && ctx.measureText(l.text).width <= w);
    return { lines, fits };
  };
  let lines = null;
  for (const use of [shown, shown.slice(0, 1)]) {
    for (let size = fs; !lines; size *= 0.9) {
      const tried = build(use, size);
      if (tried.fits) lines = tried.lines;
      if (use.every((p) => size * p.scale <= MIN_PX)) break;
    }
    if (lines) break;
  }
  if (!lines) lines = cutShort(ctx, build(shown.slice(0, 1), MIN_PX).lines, w, hgt);
  const total = lines.reduce((acc, l) => acc + l.px * 1.12, 0);
  let cy = y + (hgt - total) / 2;
  ctx.fillStyle = color;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const l of lines) {
    ctx.font = l.font;
    ctx.fillText(l.text, x, cy + l.px * 0.08);
    cy += l.px * 1.12;
  }
}

/** As many lines as fit the height, the last one ending in "…" and every one inside the width. */
function cutShort(ctx, lines, w, hgt) {
  const room = Math.max(1, Math.floor((hgt - 4) / (lines[0]?.px * 1.12 || 1)));
  const kept = lines.slice(0, room);
  const clip = (l, mark) => {
    ctx.font = l.font;
    let text = l.text + mark;
    while (text.length > 1 && ctx.measureText(text).width > w) text = `${text.slice(0, -(mark.length + 1))}${mark}`;
    return { ...l, text };
  };
  const wide = (l) => (ctx.font = l.font) && ctx.measureText(l.text).width > w;
  return kept.map((l, i) => clip(l, wide(l) || (i === kept.length - 1 && kept.length < lines.length) ? "…" : ""));
}

function wrap(ctx, text, maxWidth) {
  const words = String(text).split(/\s+/);
  const lines = [];
  let line = "";
  for (const w of words) {
    const test = line ? `${line} ${w}` : w;
    if (ctx.measureText(test).width > maxWidth && line) {
      lines.push(line);
      line = w;
    } else line = test;
  }
  if (line) lines.push(line);
  return lines;
}

function drawFlag(ctx, x, y, size) {
  ctx.save();
  ctx.strokeStyle = "#222";
  ctx.lineWidth = Math.max(1, size * 0.04);
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x, y - size * 0.4);
  ctx.stroke();
  ctx.fillStyle = "#f4d03f";
  ctx.beginPath();
  ctx.moveTo(x, y - size * 0.4);
  ctx.lineTo(x + size * 0.22, y - size * 0.32);
  ctx.lineTo(x, y - size * 0.24);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}
