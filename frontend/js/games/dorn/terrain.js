// Dorn's labyrinth under the figures: every cell in its zone's colour and pattern, the grid
// and the rock edges, the special cells' markers, and the cells the listed actions light up.
import { paintTile, xMark } from "../canvas.js";
import { crownPath, diamondPath } from "./figures.js"; // an Artifact space and the throne echo the tokens
import { actorOf } from "./selection.js";

// The rulers' numbers on the board's dark backdrop (#17140f): 10:1.
const RULER_INK = "#d2c4ae";

// Every terrain has a colour AND its own pattern, so nothing depends on colour alone.
export const TERRAIN_STYLE = {
  wall: { fill: "#2b2724", ink: "#3d3631", label: "Rock" },
  floor: { fill: "#b9ab92", ink: "#9d8f77", label: "Dungeon floor" },
  trail: { fill: "#8fa05a", ink: "#5f6e33", label: "Outside trail (heroes only)" },
  herbalist: { fill: "#5fb55f", ink: "#f4fff0", label: "The Herbalist (heals 2, safe)" },
  argos: { fill: "#dca55a", ink: "#7a4a1a", label: "Hamlet of Argos (heals 2, safe, any number of heroes)" },
  crypt: { fill: "#928bb0", ink: "#4d4670", label: "Crypt (skeletons arise here)" },
  dark_temple: { fill: "#7d3a55", ink: "#e9b8c8", label: "Dark Temple (strong monsters arise here)" },
  graveyard: { fill: "#7e9a7c", ink: "#34503a", label: "Graveyard (zombies arise here)" },
  black_moor: { fill: "#56603c", ink: "#c7d08a", label: "Black Moor (bog beasts arise here)" },
  sewers: { fill: "#4b8d8c", ink: "#cdf0ec", label: "Sewers (giant rats arise here)" },
  chamber: { fill: "#a8362e", ink: "#f2b8a8", label: "Ritual Chamber" },
  gate: { fill: "#56606e", ink: "#c9d2dc", label: "Gate of Doom" },
  throne: { fill: "#5c3d7c", ink: "#d9c2f2", label: "Zorkal's throne room" },
};

/** Every cell in its zone's look (an open Gate as floor), the grid, and the special cells' markers. */
export function drawTerrain(ctx, layout, view) {
  const s = layout.cell;
  const gateOpen = Boolean(view && view.gate_open);
  for (let y = 0; y < layout.height; y += 1) {
    for (let x = 0; x < layout.width; x += 1) drawZone(ctx, layout.ox + x * s, layout.oy + y * s, s, layout.zoneAt(x, y), gateOpen);
  }
  drawGrid(ctx, layout);
  for (const sp of layout.specials) drawMarker(ctx, layout, sp, view);
  drawRulers(ctx, layout);
}

/** The column numbers above the board and the row numbers left of it, as the buttons name cells "(x,y)". */
function drawRulers(ctx, layout) {
  const { cols, rows, px } = layout.rulers();
  ctx.save();
  ctx.font = `600 ${px}px system-ui, sans-serif`;
  ctx.fillStyle = RULER_INK;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const c of [...cols, ...rows]) ctx.fillText(String(c.n), c.x, c.y);
  ctx.restore();
}

/** One square of a zone, its colour and its pattern (board cells and legend swatches). */
export function drawZone(ctx, px, py, s, zone, gateOpen) {
  const open = zone === "gate" && gateOpen; // an open Gate is floor
  const style = TERRAIN_STYLE[open ? "floor" : zone] || TERRAIN_STYLE.floor;
  const k = s / 32;
  const c = { x: px + s / 2, y: py + s / 2 };
  const patterns = {
    wall: () => patBricks(ctx, px, py, s),
    floor: () => patFlagstones(ctx, px, py, s),
    trail: () => patFootprints(ctx, c, k),
    herbalist: () => glyphHerb(ctx, c, k),
    argos: () => glyphHouse(ctx, c, k),
    crypt: () => glyphCross(ctx, c, k),
    dark_temple: () => glyphEye(ctx, c, k),
    graveyard: () => glyphTomb(ctx, c, k),
    black_moor: () => glyphReeds(ctx, c, k),
    sewers: () => patWaves(ctx, px, py, s),
    chamber: () => patHatch(ctx, px, py, s),
    gate: () => (open ? patFlagstones(ctx, px, py, s) : patPortcullis(ctx, px, py, s)),
    throne: () => patChecker(ctx, px, py, s),
  };
  const square = () => {
    ctx.beginPath();
    ctx.rect(px, py, s, s);
  };
  paintTile(ctx, square, style, Math.max(1, s * 0.05), patterns[zone] || (() => {}));
}

function drawGrid(ctx, layout) {
  // Thin lines between walkable cells; a bolder edge where rock meets floor.
  const s = layout.cell;
  ctx.save();
  ctx.strokeStyle = "rgba(30, 24, 18, 0.35)";
  ctx.lineWidth = 1;
  const walkable = [];
  for (let y = 0; y < layout.height; y += 1) {
    for (let x = 0; x < layout.width; x += 1) if (layout.terrainAt(x, y) !== "wall") walkable.push([x, y]);
  }
  ctx.beginPath();
  for (const [x, y] of walkable) ctx.rect(layout.ox + x * s + 0.5, layout.oy + y * s + 0.5, s - 1, s - 1);
  ctx.stroke();
  ctx.strokeStyle = "#0d0b09";
  ctx.lineWidth = Math.max(1.5, s * 0.08);
  ctx.lineCap = "square";
  ctx.beginPath();
  for (const [x, y] of walkable) {
    const px = layout.ox + x * s;
    const py = layout.oy + y * s;
    const wall = (dx, dy) => layout.terrainAt(x + dx, y + dy) === "wall";
    if (wall(0, -1)) { ctx.moveTo(px, py); ctx.lineTo(px + s, py); }
    if (wall(0, 1)) { ctx.moveTo(px, py + s); ctx.lineTo(px + s, py + s); }
    if (wall(-1, 0)) { ctx.moveTo(px, py); ctx.lineTo(px, py + s); }
    if (wall(1, 0)) { ctx.moveTo(px + s, py); ctx.lineTo(px + s, py + s); }
  }
  ctx.stroke();
  ctx.restore();
}

function patBricks(ctx, px, py, s) {
  ctx.lineWidth = Math.max(1, s * 0.04);
  ctx.beginPath();
  for (let i = 1; i < 3; i += 1) {
    ctx.moveTo(px, py + (i * s) / 3);
    ctx.lineTo(px + s, py + (i * s) / 3);
  }
  for (let row = 0; row < 3; row += 1) {
    const off = row % 2 ? s / 4 : (3 * s) / 4;
    ctx.moveTo(px + off, py + (row * s) / 3);
    ctx.lineTo(px + off, py + ((row + 1) * s) / 3);
  }
  ctx.stroke();
}

function patFlagstones(ctx, px, py, s) {
  ctx.lineWidth = Math.max(0.8, s * 0.03);
  ctx.beginPath();
  ctx.moveTo(px, py + s * 0.55);
  ctx.lineTo(px + s * 0.6, py + s * 0.55);
  ctx.moveTo(px + s * 0.6, py);
  ctx.lineTo(px + s * 0.6, py + s);
  ctx.moveTo(px + s * 0.6, py + s * 0.3);
  ctx.lineTo(px + s, py + s * 0.3);
  ctx.stroke();
}

function patFootprints(ctx, c, k) {
  for (const [dx, dy] of [[-6, -7], [5, -1], [-5, 6], [6, 12]]) {
    ctx.beginPath();
    ctx.ellipse(c.x + dx * k, c.y + dy * k, 2.2 * k, 3.4 * k, 0.3, 0, 2 * Math.PI);
    ctx.fill();
  }
}

function glyphHerb(ctx, c, k) {
  ctx.lineWidth = 3 * k;
  ctx.beginPath();
  ctx.moveTo(c.x, c.y - 9 * k);
  ctx.lineTo(c.x, c.y + 9 * k);
  ctx.moveTo(c.x - 9 * k, c.y);
  ctx.lineTo(c.x + 9 * k, c.y);
  ctx.stroke();
  ctx.fillStyle = "#2f7a2f";
  ctx.beginPath();
  ctx.ellipse(c.x + 8 * k, c.y + 9 * k, 3 * k, 6 * k, -0.7, 0, 2 * Math.PI);
  ctx.fill();
}

function glyphHouse(ctx, c, k) {
  ctx.beginPath();
  ctx.moveTo(c.x - 9 * k, c.y);
  ctx.lineTo(c.x, c.y - 9 * k);
  ctx.lineTo(c.x + 9 * k, c.y);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = "#fff2da";
  ctx.fillRect(c.x - 7 * k, c.y, 14 * k, 9 * k);
  ctx.fillStyle = "#7a4a1a";
  ctx.fillRect(c.x - 2 * k, c.y + 3 * k, 4 * k, 6 * k);
}

function glyphCross(ctx, c, k) {
  ctx.lineWidth = 2.6 * k;
  crossPath(ctx, c.x, c.y - 10 * k, c.y + 10 * k, c.y - 4 * k, 6 * k);
  ctx.stroke();
}

/** A Latin cross: an upright from top to bottom and a bar of half-width `half` at barY. */
function crossPath(ctx, x, top, bottom, barY, half) {
  ctx.beginPath();
  ctx.moveTo(x, top);
  ctx.lineTo(x, bottom);
  ctx.moveTo(x - half, barY);
  ctx.lineTo(x + half, barY);
}

function glyphEye(ctx, c, k) {
  ctx.lineWidth = 1.8 * k;
  ctx.beginPath();
  ctx.moveTo(c.x, c.y + 10 * k);
  ctx.lineTo(c.x + 10 * k, c.y - 7 * k);
  ctx.lineTo(c.x - 10 * k, c.y - 7 * k);
  ctx.closePath();
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(c.x, c.y - 2 * k, 2.6 * k, 0, 2 * Math.PI);
  ctx.fill();
}

function glyphTomb(ctx, c, k) {
  ctx.beginPath();
  ctx.moveTo(c.x - 6 * k, c.y + 9 * k);
  ctx.lineTo(c.x - 6 * k, c.y - 3 * k);
  ctx.arc(c.x, c.y - 3 * k, 6 * k, Math.PI, 0);
  ctx.lineTo(c.x + 6 * k, c.y + 9 * k);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = "#b9cbb6";
  ctx.lineWidth = 1.4 * k;
  crossPath(ctx, c.x, c.y - 5 * k, c.y + 3 * k, c.y - 2 * k, 3 * k);
  ctx.stroke();
}

function glyphReeds(ctx, c, k) {
  ctx.lineWidth = 1.6 * k;
  for (const dx of [-7, 0, 7]) {
    ctx.beginPath();
    ctx.moveTo(c.x + dx * k, c.y + 10 * k);
    ctx.lineTo(c.x + dx * k + 2 * k, c.y - 6 * k);
    ctx.stroke();
    ctx.beginPath();
    ctx.ellipse(c.x + dx * k + 2 * k, c.y - 7 * k, 1.8 * k, 3.6 * k, 0.15, 0, 2 * Math.PI);
    ctx.fill();
  }
}

function patWaves(ctx, px, py, s) {
  ctx.lineWidth = Math.max(1, s * 0.05);
  for (const fy of [0.28, 0.58, 0.88]) {
    ctx.beginPath();
    for (let i = 0; i <= 8; i += 1) {
      const x = px + (i * s) / 8;
      const y = py + fy * s + (i % 2 ? -1 : 1) * s * 0.05;
      if (i) ctx.lineTo(x, y);
      else ctx.moveTo(x, y);
    }
    ctx.stroke();
  }
}

function patHatch(ctx, px, py, s) {
  ctx.lineWidth = Math.max(1, s * 0.035);
  ctx.beginPath();
  for (let i = -1; i <= 3; i += 1) {
    ctx.moveTo(px + (i * s) / 3, py + s);
    ctx.lineTo(px + (i * s) / 3 + s, py);
  }
  ctx.stroke();
}

function patPortcullis(ctx, px, py, s) {
  ctx.strokeStyle = "#1c2026";
  ctx.lineWidth = Math.max(1.5, s * 0.09);
  ctx.beginPath();
  for (const fx of [0.2, 0.5, 0.8]) {
    ctx.moveTo(px + fx * s, py);
    ctx.lineTo(px + fx * s, py + s);
  }
  for (const fy of [0.3, 0.7]) {
    ctx.moveTo(px, py + fy * s);
    ctx.lineTo(px + s, py + fy * s);
  }
  ctx.stroke();
}

function patChecker(ctx, px, py, s) {
  ctx.globalAlpha = 0.35;
  ctx.fillRect(px, py, s / 2, s / 2);
  ctx.fillRect(px + s / 2, py + s / 2, s / 2, s / 2);
  ctx.globalAlpha = 1;
}

function drawMarker(ctx, layout, sp, view) {
  const s = layout.cell;
  const c = layout.cellToPixel(sp.x, sp.y);
  const k = s / 32;
  ctx.save();
  switch (sp.kind) {
    case "TP":
      teleportGlyph(ctx, c, k);
      cornerTag(ctx, layout, sp.x, sp.y, sp.id.replace(/^TP(\d).*/, "$1"), "#0d5661", "#c9fbff", "tr");
      break;
    case "F":
      fountainGlyph(ctx, c, k);
      break;
    case "A": {
      ctx.strokeStyle = "#1d4fa8";
      ctx.lineWidth = Math.max(1, 1.4 * k);
      ctx.setLineDash([3 * k, 2 * k]);
      diamondPath(ctx, c.x, c.y, 11 * k);
      ctx.stroke();
      break;
    }
    case "P": {
      // The token itself is drawn from the view; an emptied Treasure space keeps a faint ring.
      if ((view?.tokens || []).some((t) => t[0] === sp.x && t[1] === sp.y)) break;
      ctx.strokeStyle = "rgba(122, 90, 6, 0.55)";
      ctx.lineWidth = Math.max(1, 1.4 * k);
      ctx.setLineDash([2.5 * k, 2 * k]);
      ctx.beginPath();
      ctx.arc(c.x, c.y, 8 * k, 0, 2 * Math.PI);
      ctx.stroke();
      break;
    }
    case "N":
      cornerTag(ctx, layout, sp.x, sp.y, "N", "rgba(60,40,30,0.8)", "#f3dcc6", "tl");
      break;
    case "X": {
      ctx.strokeStyle = "rgba(50,35,25,0.55)";
      ctx.lineWidth = Math.max(1, 1.2 * k);
      xMark(ctx, c.x + 9 * k, c.y + 9 * k, 3 * k);
      break;
    }
    case "SEAT": {
      ctx.fillStyle = "#e8c547";
      crownPath(ctx, c.x, c.y + 2 * k, 9 * k);
      ctx.fill();
      break;
    }
    default:
      break;
  }
  ctx.restore();
}

/** A teleport pad: three open rings (the board and the legend). */
export function teleportGlyph(ctx, c, k) {
  ctx.strokeStyle = "#7ef3ff";
  ctx.lineWidth = Math.max(1.2, 2 * k);
  for (const r of [12, 8, 4]) {
    ctx.beginPath();
    ctx.arc(c.x, c.y, r * k, 0.3, 2 * Math.PI - 0.3);
    ctx.stroke();
  }
}

/** A Healing Fountain: a water drop in a ring (the board and the legend). */
export function fountainGlyph(ctx, c, k) {
  ctx.strokeStyle = "#8fd8ff";
  ctx.lineWidth = Math.max(1.2, 2 * k);
  ctx.beginPath();
  ctx.arc(c.x, c.y, 12 * k, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.fillStyle = "#2c8fd6";
  ctx.beginPath();
  ctx.moveTo(c.x, c.y - 9 * k);
  ctx.quadraticCurveTo(c.x + 7 * k, c.y + 1 * k, c.x, c.y + 7 * k);
  ctx.quadraticCurveTo(c.x - 7 * k, c.y + 1 * k, c.x, c.y - 9 * k);
  ctx.fill();
}

function cornerTag(ctx, layout, x, y, text, bg, fg, corner) {
  const s = layout.cell;
  const px = layout.ox + x * s;
  const py = layout.oy + y * s;
  const fs = Math.max(7.5, s * 0.28); // its letter is 6 px at least
  const w = fs * 1.05;
  const tx = corner.endsWith("r") ? px + s - w - 1.5 : px + 1.5;
  const ty = corner.startsWith("b") ? py + s - fs * 1.1 - 1.5 : py + 1.5;
  ctx.save();
  ctx.fillStyle = bg;
  ctx.beginPath();
  ctx.roundRect(tx, ty, w, fs * 1.1, 2);
  ctx.fill();
  ctx.fillStyle = fg;
  ctx.font = `700 ${fs * 0.85}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, tx + w / 2, ty + fs * 0.58);
  ctx.restore();
}

/** The lit cells ("x,y" -> actions): red for a summon or a placement, yellow for a figure's move. */
export function drawLit(ctx, layout, lit) {
  const s = layout.cell;
  ctx.save();
  for (const [k, actions] of lit) {
    const [x, y] = k.split(",").map(Number);
    const px = layout.ox + x * s;
    const py = layout.oy + y * s;
    const summon = actions.some((a) => !actorOf(a));
    ctx.fillStyle = summon ? "rgba(255, 120, 90, 0.30)" : "rgba(255, 244, 140, 0.32)";
    ctx.fillRect(px + 2, py + 2, s - 4, s - 4);
    ctx.strokeStyle = summon ? "#ff9a7a" : "#fff48c";
    ctx.lineWidth = Math.max(1.5, s * 0.07);
    ctx.setLineDash([s * 0.2, s * 0.1]);
    ctx.strokeRect(px + 3, py + 3, s - 6, s - 6);
  }
  ctx.restore();
}

