// The two tracks Dorasure keeps on the map's empty lower right, drawn on the canvas from the
// view: the Dragon's Rampaging Meter and the Dragon's health.
import { panelBox } from "../canvas.js";
import { MIN_PX } from "./terrain.js";

/** The Rampaging Meter: its length, fire spaces, final space and the Dragon's position. */
function meterInfo(stat, view) {
  const m = stat.meter || {};
  const v = view.meter;
  const position = typeof v === "object" && v !== null ? v.position : v;
  return {
    length: m.length || 15,
    fire: m.fire || [3, 6, 9, 12, 14],
    final: m.final ?? (m.length || 15) - 1,
    position: position ?? 0,
  };
}

/** The Dragon's health: boxes, claw boxes, swords on it and life left. */
function healthInfo(stat, view) {
  const hb = stat.dragon || {};
  const boxes = hb.boxes || 9;
  const d = view.dragon || {};
  const swords = d.swords ?? 0;
  return { boxes, claws: hb.claws || [3, 6, 8], swords, life: d.life ?? boxes - swords };
}

/** Both tracks in the empty lower right of the map (scene: see DorasureRenderer.scene). */
export function drawTracks(ctx, { board, layout, stat, view }) {
  const { meter, health } = board.trackAreas(layout);
  drawMeter(ctx, layout, meter, meterInfo(stat, view));
  drawHealth(ctx, layout, health, healthInfo(stat, view));
}

/** A track's framed box and title; returns the title's font size. */
function trackBox(ctx, layout, r, title) {
  ctx.save();
  panelBox(ctx, r, "rgba(44, 24, 20, 0.92)", "#b5472f", 1.5);
  const fs = Math.max(MIN_PX + 1, layout.size * 0.27);
  ctx.font = `700 ${fs}px system-ui, sans-serif`;
  ctx.fillStyle = "#ffd9c2";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(title, r.x + 8, r.y + 6);
  ctx.restore();
  return fs;
}

/** The meter's spaces, fire spaces flamed, the ones passed dark, and the Dragon token on its position. */
function drawMeter(ctx, layout, r, m) {
  const fs = trackBox(ctx, layout, r, `Dragon Rampaging Meter  ${m.position}/${m.final}`);
  const n = m.length;
  const pad = 8;
  const cell = Math.min((r.w - 2 * pad) / n, r.h - fs - 18);
  const top = r.y + fs + 12;
  const left = r.x + (r.w - cell * n) / 2;
  const cells = [];
  for (let i = 0; i < n; i += 1) {
    const x = left + i * cell;
    const fire = m.fire.includes(i);
    const passed = i <= m.position;
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(x + 1, top, cell - 2, cell - 2, 3);
    ctx.fillStyle = fire ? (passed ? "#7a2a12" : "#e8643a") : passed ? "#4a3a33" : "#d9c9b3";
    ctx.fill();
    ctx.strokeStyle = i === m.final ? "#ffd34d" : "#2b1a15";
    ctx.lineWidth = i === m.final ? 2 : 1;
    ctx.stroke();
    if (fire) flame(ctx, x + cell / 2, top + cell / 2, cell * 0.36, passed ? "#f5a25d" : "#fff1c2");
    else {
      ctx.fillStyle = passed ? "#bfae9e" : "#4f3f32"; // 5:1 and 6:1 on their boxes
      ctx.font = `600 ${cell * 0.42}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(String(i), x + cell / 2, top + cell / 2);
    }
    ctx.restore();
    cells.push({ x: x + cell / 2, y: top + cell / 2 });
  }
  // The Dragon token.
  const p = cells[Math.max(0, Math.min(n - 1, m.position))];
  ctx.save();
  ctx.translate(p.x, p.y - cell * 0.05);
  ctx.rotate(Math.PI / 4);
  ctx.fillStyle = "#c0392b";
  ctx.strokeStyle = "#ffe08a";
  ctx.lineWidth = 2;
  const d = cell * 0.42;
  ctx.fillRect(-d / 2, -d / 2, d, d);
  ctx.strokeRect(-d / 2, -d / 2, d, d);
  ctx.restore();
}

function flame(ctx, x, y, s, color) {
  ctx.save();
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(x, y - s);
  ctx.quadraticCurveTo(x + s, y - s * 0.1, x + s * 0.55, y + s * 0.75);
  ctx.quadraticCurveTo(x, y + s * 1.05, x - s * 0.55, y + s * 0.75);
  ctx.quadraticCurveTo(x - s, y - s * 0.1, x, y - s);
  ctx.fill();
  ctx.restore();
}

/** The health boxes: swords on the lost ones, claw marks on the boxes that strike back. */
function drawHealth(ctx, layout, r, hl) {
  const fs = trackBox(ctx, layout, r, `Dragon health  ${hl.life}/${hl.boxes}`);
  const n = hl.boxes;
  const pad = 8;
  const cell = Math.min((r.w - 2 * pad) / n, (r.h - fs - 30) / 1.2);
  // Centre the boxes and their caption in the space under the title.
  const top = r.y + fs + 10 + Math.max(0, (r.h - fs - 10 - cell * 1.2 - fs * 1.4) / 2);
  const left = r.x + (r.w - cell * n) / 2;
  for (let i = 1; i <= n; i += 1) {
    const x = left + (i - 1) * cell;
    const covered = i <= hl.swords;
    const claw = hl.claws.includes(i);
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(x + 1.5, top, cell - 3, cell * 1.2, 4);
    ctx.fillStyle = covered ? "#3c4a5c" : "#f1e4d0";
    ctx.fill();
    ctx.strokeStyle = claw ? "#c0392b" : "#2b1a15";
    ctx.lineWidth = claw ? 2 : 1;
    ctx.stroke();
    if (claw) {
      // Three claw marks.
      ctx.strokeStyle = covered ? "#e88" : "#b03a2e";
      ctx.lineWidth = Math.max(1.2, cell * 0.07);
      for (let j = -1; j <= 1; j += 1) {
        ctx.beginPath();
        ctx.moveTo(x + cell / 2 + j * cell * 0.18 - cell * 0.1, top + cell * 0.25);
        ctx.lineTo(x + cell / 2 + j * cell * 0.18 + cell * 0.1, top + cell * 0.95);
        ctx.stroke();
      }
    }
    if (covered) {
      // A sword.
      ctx.strokeStyle = "#e8edf3";
      ctx.lineWidth = Math.max(1.5, cell * 0.1);
      ctx.beginPath();
      ctx.moveTo(x + cell * 0.5, top + cell * 0.12);
      ctx.lineTo(x + cell * 0.5, top + cell * 1.0);
      ctx.moveTo(x + cell * 0.28, top + cell * 0.8);
      ctx.lineTo(x + cell * 0.72, top + cell * 0.8);
      ctx.stroke();
    }
    ctx.restore();
  }
  ctx.save();
  ctx.font = `500 ${Math.max(MIN_PX, fs * 0.8)}px system-ui, sans-serif`;
  ctx.fillStyle = "#ffd9c2";
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText("claw boxes strike back", r.x + r.w / 2, top + cell * 1.3);
  ctx.restore();
}
