// Dorasure on a hex Canvas, drawn only from what the server sends:
// `static` (welcome.static = the game's static_info: board spaces, meter, Dragon
// health boxes, hero sheets) and each update's `view`, `legal` and `events`.
// The client holds no rules: lit hexes and buttons are exactly the listed actions.
import { fitLayout, hexBounds } from "../hexlayout.js";
import { availableBoardHeight, h, titleCase } from "../ui.js";
import { beginFrame, paintTile, panelBox, roundToken, sizeCanvas, xMark } from "./canvas.js";
import { cardHeader, eventText, fallbackActionLabel, seatOf, statBar, tokenChip } from "./panels.js";

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

// The glyph method each terrain's hexes carry.
const GLYPHS = {
  plains: "glyphGrass",
  forest: "glyphTrees",
  mountain: "glyphPeaks",
  road: "glyphRoad",
  city: "glyphTowers",
  village: "glyphHouses",
  lake: "glyphWaves",
  razed: "glyphRuins",
};

const HERO_COLORS = {
  ninja: "#2b2d42",
  gladiator: "#c0392b",
  samurai: "#8e44ad",
  hunter: "#27ae60",
  werewolf: "#7f5539",
  shaman: "#16a085",
  minstrel: "#e67e22",
  magician: "#2980b9",
  prince: "#d4ac0d",
  paladin: "#ecf0f1",
  vampire: "#641e16",
  grand_master: "#34495e",
};

// Hero attributes: [id, name, short name on the hero card].
const ATTRS = [
  ["move", "Move", "Move"],
  ["plains_danger", "Danger (plains)", "Dng P"],
  ["forest_danger", "Danger (forest)", "Dng F"],
  ["combat", "Combat", "Combat"],
  ["search", "Search", "Search"],
  ["knowledge", "Knowledge", "Know"],
];

function heroColor(id, index) {
  return HERO_COLORS[id] || `hsl(${(index * 67) % 360} 55% 45%)`;
}

// --- reading the server's data (one place, so shape changes stay local) -------

function boardSpaces(stat) {
  const board = stat.board || stat;
  return board.spaces || [];
}

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

function healthInfo(stat, view) {
  const hb = stat.dragon || {};
  const boxes = hb.boxes || 9;
  const d = view.dragon || {};
  const swords = d.swords ?? 0;
  return { boxes, claws: hb.claws || [3, 6, 8], swords, life: d.life ?? boxes - swords };
}

function heroSheets(stat) {
  const list = stat.heroes || {};
  if (Array.isArray(list)) return Object.fromEntries(list.map((sheet) => [sheet.id, sheet]));
  return Object.fromEntries(Object.entries(list).map(([id, sheet]) => [id, { id, ...sheet }]));
}

/** Heroes in turn order: view.heroes is a list [{id, pos, hp, ...}] (or a map id -> hero). */
function heroesOf(view) {
  const heroes = view.heroes || [];
  if (Array.isArray(heroes)) return heroes.map((hero, i) => ({ ...hero, index: i }));
  return Object.entries(heroes).map(([id, hero], i) => ({ id, index: i, ...hero }));
}

function heroPos(hero) {
  return hero.pos ?? hero.space ?? null;
}

/** view.mountains is a list [{id, state, flags, quest, reward}] (or a map id -> mountain). */
function mountainsOf(view) {
  const m = view.mountains || [];
  return Array.isArray(m) ? Object.fromEntries(m.map((x) => [x.id, x])) : m;
}

// --- the renderer ---------------------------------------------------------------

export function createRenderer({ canvas, static: stat }) {
  return new DorasureRenderer(canvas, stat || {});
}

class DorasureRenderer {
  constructor(canvas, stat) {
    this.canvas = canvas;
    this.stat = stat;
    this.spaces = boardSpaces(stat);
    this.byId = new Map(this.spaces.map((s) => [s.id, s]));
    this.byCoord = new Map(this.spaces.map((s) => [`${s.q},${s.r}`, s]));
    this.cityNode = "city";
    this.sheets = heroSheets(stat);
    this.view = null;
    this.legal = [];
    this.selection = null;
    this.targets = new Map(); // space id -> [actions]
    this.layout = null; // fitted to the canvas by resize()
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.resize();
  }

  // geometry ---------------------------------------------------------------------

  resize() {
    const parent = this.canvas.parentElement;
    const width = Math.max(320, parent ? parent.clientWidth : 800);
    // Keep the board's own aspect (about A4 landscape) and never taller than the window allows.
    const aspect = this.boundsAspect();
    const maxH = availableBoardHeight(this.canvas, 260);
    let w = width;
    let hgt = Math.round(w / aspect);
    if (hgt > maxH) {
      hgt = maxH;
      w = Math.round(hgt * aspect);
    }
    this.cssWidth = w;
    this.cssHeight = hgt;
    this.dpr = sizeCanvas(this.canvas, w, hgt);
    this.layout = fitLayout(this.spaces, w, hgt, 10);
    this.draw();
  }

  boundsAspect() {
    const b = hexBounds(this.spaces);
    return b ? (b.maxX - b.minX) / (b.maxY - b.minY) : 1.4;
  }

  /** Centre of hex (q, r) in CSS pixels, relative to the canvas' top-left corner. */
  hexToPixel(q, r) {
    return this.layout.hexToPixel(q, r);
  }

  spaceToPixel(id) {
    const cells = this.cellsOf(id);
    if (!cells.length) return null;
    return this.layout.hexToPixel(cells[0].q, cells[0].r);
  }

  pixelToSpace(x, y) {
    const hx = this.layout.pixelToHex(x, y);
    const s = this.byCoord.get(`${hx.q},${hx.r}`);
    return s || null;
  }

  /** The board hexes of a position id (the City node covers its three hexes). */
  cellsOf(id) {
    if (id === null || id === undefined) return [];
    // static spaces carry `node`: the id used in actions and positions (the City hexes share one).
    return this.spaces.filter((s) => (s.node ?? s.id) === id);
  }

  /** Position id a hex stands for when clicked (a City hex means the City node). */
  nodeOf(space) {
    if (!space) return null;
    return space.node ?? space.id;
  }

  terrainOf(space) {
    const v = this.view || {};
    if (space.id === "belk" && v.belk_razed) return "razed";
    return space.terrain;
  }

  // state -------------------------------------------------------------------------

  setState(view, { legal = [], selection = null } = {}) {
    this.view = view || {};
    this.legal = legal;
    this.selection = selection;
    this.targets = new Map();
    for (const a of legal) {
      if ((a.type === "move" || a.type === "step") && a.to !== undefined) {
        const picked = selection !== null && selection !== undefined;
        // With a die picked, only the single steps that die pays for light up.
        if (picked && (a.type === "move" || a.die !== selection)) continue;
        const list = this.targets.get(a.to) || [];
        list.push(a);
        this.targets.set(a.to, list);
      }
    }
    this.draw();
  }

  /** The listed action a click at (x, y) stands for, or an unlisted move to show the server's reason. */
  actionAt(x, y, legal, { selection } = {}) {
    const space = this.pixelToSpace(x, y);
    if (!space) return null;
    const node = this.nodeOf(space);
    const picked = selection !== null && selection !== undefined;
    const moves = picked ? [] : legal.filter((a) => a.type === "move" && a.to === node);
    if (moves.length) return moves[0];
    const steps = legal
      .filter((a) => a.type === "step" && a.to === node && (!picked || a.die === selection))
      .sort((a, b) => a.die - b.die);
    if (steps.length) return steps[0]; // the smallest die that the server says can pay for it
    const quest = legal.find((a) => (a.mountain === space.id || a.target === space.id) && a.type !== "move");
    if (quest && legal.filter((a) => a.mountain === space.id).length === 1) return quest;
    if (legal.some((a) => a.type === "move" || a.type === "step")) {
      // Not listed: ask anyway, so the player reads the rule that forbids it.
      return { type: "move", to: node };
    }
    return null;
  }

  clickableAt(x, y) {
    const space = this.pixelToSpace(x, y);
    return Boolean(space && this.targets.has(this.nodeOf(space)));
  }

  tooltipAt(x, y) {
    const space = this.pixelToSpace(x, y);
    if (!space) return null;
    const terrain = this.terrainOf(space);
    const parts = [space.name || TERRAIN_STYLE[terrain]?.label.split(" (")[0] || titleCase(terrain)];
    parts.push(TERRAIN_STYLE[terrain]?.label || titleCase(terrain));
    if (space.fang_site) parts.push("Fang site");
    const land = this.landAt(space.id);
    if (land) parts.push(`Fang tile: ${land.name}${land.text ? ` — ${land.text}` : ""}`);
    const mount = mountainsOf(this.view || {})[space.id];
    if (mount) parts.push(this.questSummary(mount));
    const here = heroesOf(this.view || {}).filter((hero) => this.cellsOf(heroPos(hero)).some((c) => c.id === space.id));
    if (here.length) parts.push(`Here: ${here.map((x) => this.heroName(x.id)).join(", ")}`);
    return parts.join(" · ");
  }

  landAt(spaceId) {
    const tile = ((this.view || {}).lands || {})[spaceId];
    if (!tile) return null;
    const info = (this.stat.lands || {})[tile];
    return info ? info : { name: titleCase(tile), text: "" };
  }

  heroName(id) {
    return this.sheets[id]?.name || titleCase(id);
  }

  rewardName(id) {
    if (!id) return "";
    const r = (this.stat.rewards || {})[id];
    return r ? r.name : titleCase(id);
  }

  questSummary(m) {
    const q = m.quest || null;
    const flags = m.flags ? ` ${m.flags} flag${m.flags > 1 ? "s" : ""}.` : "";
    const reward = m.reward ? ` Reward: ${this.rewardName(m.reward)}.` : "";
    if (!q) return `Quest face down.${flags}`;
    const facedown = m.state === "hidden" ? " (face down; shown in the replay)" : "";
    const head = m.state === "solved" ? `Solved: ${q.name}` : `Quest: ${q.name}${facedown}`;
    const need = q.attribute ? ` — ${titleCase(q.attribute)}, ${q.target} to succeed.` : ".";
    return `${head}${need}${q.text ? ` ${q.text}` : ""}${flags}${reward}`;
  }

  // drawing -------------------------------------------------------------------------

  draw() {
    const ctx = beginFrame(this.canvas, this.dpr, this.cssWidth, this.cssHeight, (c) => {
      const g = c.createLinearGradient(0, 0, 0, this.cssHeight);
      g.addColorStop(0, "#2a2f3a");
      g.addColorStop(1, "#1d2129");
      return g;
    });
    if (!ctx) return;
    for (const s of this.spaces) this.drawSpace(ctx, s);
    this.drawCityOutline(ctx);
    for (const s of this.spaces) this.drawLabel(ctx, s);
    if (this.view) {
      this.drawLands(ctx);
      this.drawMountains(ctx);
      this.drawPath(ctx);
      this.drawTargets(ctx);
      this.drawHeroes(ctx);
      this.drawTracks(ctx);
    }
  }

  hexPath(ctx, q, r, inset = 0) {
    const pts = this.layout.corners(q, r, inset);
    ctx.beginPath();
    ctx.moveTo(pts[0].x, pts[0].y);
    for (let i = 1; i < 6; i += 1) ctx.lineTo(pts[i].x, pts[i].y);
    ctx.closePath();
  }

  drawSpace(ctx, s) {
    const terrain = this.terrainOf(s);
    const style = TERRAIN_STYLE[terrain] || { fill: "#999", ink: "#333" };
    const size = this.layout.size;
    const c = this.layout.hexToPixel(s.q, s.r);
    const k = size / 30;
    const glyph = GLYPHS[terrain];
    paintTile(ctx, () => this.hexPath(ctx, s.q, s.r, 1), style, Math.max(1, size * 0.05), () => glyph && this[glyph](ctx, c, k));
    this.hexPath(ctx, s.q, s.r, 1);
    ctx.strokeStyle = "rgba(20,22,28,0.85)";
    ctx.lineWidth = Math.max(1, size * 0.045);
    ctx.stroke();
    if (s.fang_site || s.fang) this.glyphFang(ctx, c, k);
  }

  glyphGrass(ctx, c, k) {
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

  glyphTrees(ctx, c, k) {
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

  glyphPeaks(ctx, c, k) {
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

  glyphRoad(ctx, c, k) {
    ctx.setLineDash([5 * k, 4 * k]);
    ctx.lineWidth = 3 * k;
    ctx.beginPath();
    ctx.moveTo(c.x, c.y - 30 * k);
    ctx.quadraticCurveTo(c.x + 10 * k, c.y, c.x, c.y + 30 * k);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  glyphTowers(ctx, c, k) {
    ctx.fillStyle = "#5d6079";
    const base = c.y + 8 * k;
    ctx.fillRect(c.x - 16 * k, base - 10 * k, 32 * k, 10 * k);
    for (const dx of [-16, -4, 8]) {
      ctx.fillRect(c.x + dx * k, base - 20 * k, 8 * k, 10 * k);
      ctx.fillRect(c.x + dx * k, base - 23 * k, 2.5 * k, 3 * k);
      ctx.fillRect(c.x + (dx + 5.5) * k, base - 23 * k, 2.5 * k, 3 * k);
    }
  }

  glyphHouses(ctx, c, k) {
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

  glyphWaves(ctx, c, k) {
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

  glyphRuins(ctx, c, k) {
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

  glyphFang(ctx, c, k) {
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

  drawCityOutline(ctx) {
    // The three City hexes are one location: a shared golden rim says so.
    const city = this.spaces.filter((s) => s.terrain === "city");
    ctx.save();
    ctx.strokeStyle = "#e8c547";
    ctx.lineWidth = Math.max(1.5, this.layout.size * 0.07);
    for (const s of city) {
      this.hexPath(ctx, s.q, s.r, this.layout.size * 0.08);
      ctx.stroke();
    }
    ctx.restore();
  }

  drawLabel(ctx, s) {
    const terrain = this.terrainOf(s);
    let text = s.name;
    if (terrain === "razed") text = `${s.name || "Belk"} (razed)`;
    if (!text || terrain === "mountain") return;
    if (terrain === "city" && s.id !== this.spaces.filter((x) => x.terrain === "city")[0]?.id) return;
    const c = this.layout.hexToPixel(s.q, s.r);
    this.label(ctx, text, c.x, c.y + this.layout.size * 0.62, Math.max(9, this.layout.size * 0.27));
  }

  label(ctx, text, x, y, px, { color = "#fff", bg = "rgba(15,17,22,0.72)" } = {}) {
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

  wrap(ctx, text, maxWidth) {
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

  drawMountains(ctx) {
    const mounts = mountainsOf(this.view);
    const size = this.layout.size;
    for (const [id, m] of Object.entries(mounts)) {
      const s = this.byId.get(id);
      if (!s) continue;
      const c = this.layout.hexToPixel(s.q, s.r);
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
      const fs = Math.max(8, size * 0.24);
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      if (state === "hidden") {
        ctx.fillStyle = "#f0c36b";
        ctx.font = `700 ${size * 0.62}px Georgia, serif`;
        ctx.fillText("?", c.x, y + hgt * 0.48);
        ctx.font = `600 ${fs * 0.85}px system-ui, sans-serif`;
        ctx.fillText("Quest", c.x, y + hgt * 0.86);
      } else {
        const dark = state !== "revealed";
        const name = quest ? quest.name : "";
        let detail = "";
        if (state === "solved") detail = m.reward ? this.rewardName(m.reward) : "solved";
        else if (state === "peek") detail = `face down${m.reward ? ` · ${this.rewardName(m.reward)}` : ""}`;
        else if (quest && quest.attribute) detail = `${titleCase(quest.attribute)} · need ${quest.target}`;
        this.textBlock(ctx, [
          { text: (state === "solved" ? "✓ " : "") + name, weight: 700, scale: 1 },
          { text: detail, weight: 500, scale: 0.85 },
        ], c.x, y, w - 6, hgt, fs, dark ? "#fff" : "#3a1c1c");
      }
      ctx.restore();
      const flags = m.flags || 0;
      for (let i = 0; i < flags; i += 1) this.drawFlag(ctx, x + w - size * 0.1 - i * size * 0.24, y - size * 0.05, size);
      this.label(ctx, s.name, c.x, c.y + size * 0.72, Math.max(8, size * 0.24), { bg: "rgba(60,50,45,0.85)" });
    }
  }

  /** Wrapped lines of text, shrunk until they fit a w x hgt box (top-centred at x, y). */
  textBlock(ctx, parts, x, y, w, hgt, fs, color) {
    let size = fs;
    let lines = [];
    for (let tries = 0; tries < 6; tries += 1) {
      lines = [];
      for (const part of parts.filter((p) => p.text)) {
        ctx.font = `${part.weight} ${size * part.scale}px system-ui, sans-serif`;
        for (const text of this.wrap(ctx, part.text, w)) lines.push({ text, font: ctx.font, px: size * part.scale });
      }
      const total = lines.reduce((acc, l) => acc + l.px * 1.12, 0);
      if (total <= hgt - 4 && lines.every((l) => (ctx.font = l.font) && ctx.measureText(l.text).width <= w)) break;
      size *= 0.88;
    }
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

  /** Fang expansion land tiles on their sites: a tile with the land's name. */
  drawLands(ctx) {
    const size = this.layout.size;
    for (const space of this.spaces) {
      const land = this.landAt(space.id);
      if (!land) continue;
      const c = this.layout.hexToPixel(space.q, space.r);
      ctx.save();
      this.hexPath(ctx, space.q, space.r, size * 0.16);
      ctx.strokeStyle = "#fffaf0";
      ctx.lineWidth = Math.max(1.5, size * 0.06);
      ctx.setLineDash([size * 0.12, size * 0.08]);
      ctx.stroke();
      ctx.restore();
      this.label(ctx, land.name, c.x, c.y - size * 0.55, Math.max(8, size * 0.22), { bg: "rgba(90,40,20,0.9)" });
    }
  }

  /** The path walked so far this turn. */
  drawPath(ctx) {
    const mv = this.view.movement;
    const current = heroesOf(this.view).find((x) => x.id === this.view.current);
    if (!mv || !Array.isArray(mv.path) || !mv.path.length || !current) return;
    const pts = mv.path.map((node) => this.cellsOf(node)[0]).filter(Boolean).map((cell) => this.layout.hexToPixel(cell.q, cell.r));
    if (pts.length < 2) return;
    ctx.save();
    ctx.strokeStyle = "rgba(255,255,255,0.75)";
    ctx.lineWidth = Math.max(2, this.layout.size * 0.08);
    ctx.setLineDash([this.layout.size * 0.14, this.layout.size * 0.1]);
    ctx.lineCap = "round";
    ctx.beginPath();
    pts.forEach((p, i) => (i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y)));
    ctx.stroke();
    ctx.restore();
  }

  drawFlag(ctx, x, y, size) {
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

  drawTargets(ctx) {
    if (!this.targets.size) return;
    ctx.save();
    for (const [node] of this.targets) {
      for (const cell of this.cellsOf(node)) {
        this.hexPath(ctx, cell.q, cell.r, this.layout.size * 0.1);
        ctx.fillStyle = "rgba(255, 244, 140, 0.28)";
        ctx.fill();
        ctx.lineWidth = Math.max(2, this.layout.size * 0.1);
        ctx.strokeStyle = "#fff48c";
        ctx.setLineDash([this.layout.size * 0.25, this.layout.size * 0.12]);
        ctx.stroke();
      }
    }
    ctx.restore();
  }

  /** Token centres (CSS px) for each hero, spread when several share a space. */
  tokenPositions() {
    const out = new Map();
    const groups = new Map();
    for (const hero of heroesOf(this.view || {})) {
      const pos = heroPos(hero);
      const cells = this.cellsOf(pos);
      if (!cells.length) continue;
      const key = pos;
      if (!groups.has(key)) groups.set(key, { cells, heroes: [] });
      groups.get(key).heroes.push(hero);
    }
    const size = this.layout.size;
    for (const { cells, heroes } of groups.values()) {
      heroes.forEach((hero, i) => {
        // Spread a crowd over the City's hexes first, then around each centre.
        const cell = cells[i % cells.length];
        const slot = Math.floor(i / cells.length);
        const perCell = Math.ceil(heroes.length / cells.length);
        const c = this.layout.hexToPixel(cell.q, cell.r);
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

  tokenPixel(heroId) {
    return this.tokenPositions().get(heroId) || null;
  }

  heroTokenColor(heroId) {
    const heroes = heroesOf(this.view || {});
    const hero = heroes.find((x) => x.id === heroId);
    return heroColor(heroId, hero ? hero.index : 0);
  }

  drawHeroes(ctx) {
    const positions = this.tokenPositions();
    const heroes = heroesOf(this.view);
    const size = this.layout.size;
    const current = this.view.current || this.view.turn?.hero || null;
    for (const hero of heroes) {
      const p = positions.get(hero.id);
      if (!p) continue;
      const sharing = heroes.filter((o) => heroPos(o) === heroPos(hero)).length;
      const radius = size * (sharing > 1 ? 0.27 : 0.36);
      const color = heroColor(hero.id, hero.index);
      ctx.save();
      if (hero.id === current) {
        ctx.beginPath();
        ctx.arc(p.x, p.y, radius + size * 0.1, 0, 2 * Math.PI);
        ctx.fillStyle = "rgba(255, 230, 90, 0.9)";
        ctx.fill();
      }
      roundToken(ctx, p.x, p.y, radius, { fill: color, rimWidth: Math.max(1.5, size * 0.06), text: this.heroName(hero.id).slice(0, 2), shadow: 0.5 });
      if (hero.dead) {
        ctx.strokeStyle = "#e74c3c";
        ctx.lineWidth = Math.max(2, size * 0.08);
        xMark(ctx, p.x, p.y, radius);
      }
      ctx.restore();
    }
  }

  /** The empty lower-right of the board holds the meter (bottom) and the Dragon's health (above it). */
  trackAreas() {
    const L = this.layout;
    const size = L.size;
    const w = L.width;
    const spaces = this.spaces;
    const maxR = Math.max(...spaces.map((s) => s.r));
    const rightEdge = Math.max(...spaces.map((s) => L.hexToPixel(s.q, s.r).x)) + w / 2;
    const bottomRowRight = Math.max(...spaces.filter((s) => s.r === maxR).map((s) => L.hexToPixel(s.q, s.r).x)) + w / 2;
    const rowAbove = spaces.filter((s) => s.r === maxR - 1);
    const rowAboveRight = Math.max(...rowAbove.map((s) => L.hexToPixel(s.q, s.r).x)) + w / 2;
    const yBottom = L.hexToPixel(0, maxR).y;
    const yAbove = L.hexToPixel(0, maxR - 1).y;
    // The meter sits below the row above's lowest points, level with the bottom row.
    const meterTop = yAbove + size + 3;
    const meter = { x: bottomRowRight + size * 0.25, y: meterTop, w: rightEdge - bottomRowRight - size * 0.3, h: yBottom + size - meterTop };
    const health = { x: rowAboveRight + size * 0.25, y: yAbove - size * 1.9, w: rightEdge - rowAboveRight - size * 0.3, h: size * 2.9 - 6 };
    return { meter, health };
  }

  drawTracks(ctx) {
    const { meter, health } = this.trackAreas();
    this.drawMeter(ctx, meter);
    this.drawHealth(ctx, health);
  }

  panel(ctx, r, title) {
    ctx.save();
    panelBox(ctx, r, "rgba(44, 24, 20, 0.92)", "#b5472f", 1.5);
    const fs = Math.max(9, this.layout.size * 0.27);
    ctx.font = `700 ${fs}px system-ui, sans-serif`;
    ctx.fillStyle = "#ffd9c2";
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText(title, r.x + 8, r.y + 6);
    ctx.restore();
    return fs;
  }

  drawMeter(ctx, r) {
    const m = meterInfo(this.stat, this.view);
    const fs = this.panel(ctx, r, `Dragon Rampaging Meter  ${m.position}/${m.final}`);
    const n = m.length;
    const pad = 8;
    const cell = Math.min((r.w - 2 * pad) / n, r.h - fs - 18);
    const top = r.y + fs + 12;
    const left = r.x + (r.w - cell * n) / 2;
    this.meterCells = [];
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
      if (fire) this.flame(ctx, x + cell / 2, top + cell / 2, cell * 0.36, passed ? "#f5a25d" : "#fff1c2");
      else {
        ctx.fillStyle = passed ? "#bfae9e" : "#6d5a4a";
        ctx.font = `600 ${cell * 0.42}px system-ui, sans-serif`;
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(String(i), x + cell / 2, top + cell / 2);
      }
      ctx.restore();
      this.meterCells.push({ x: x + cell / 2, y: top + cell / 2 });
    }
    // The Dragon token.
    const p = this.meterCells[Math.max(0, Math.min(n - 1, m.position))];
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

  flame(ctx, x, y, s, color) {
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

  drawHealth(ctx, r) {
    const hl = healthInfo(this.stat, this.view);
    const fs = this.panel(ctx, r, `Dragon health  ${hl.life}/${hl.boxes}`);
    const n = hl.boxes;
    const pad = 8;
    const cell = Math.min((r.w - 2 * pad) / n, (r.h - fs - 30) / 1.2);
    // Centre the boxes and their caption in the space under the title.
    const top = r.y + fs + 10 + Math.max(0, (r.h - fs - 10 - cell * 1.2 - fs * 1.4) / 2);
    const left = r.x + (r.w - cell * n) / 2;
    this.healthCells = [];
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
      this.healthCells.push({ x: x + cell / 2, y: top + cell * 0.6 });
    }
    ctx.save();
    ctx.font = `500 ${Math.max(8, fs * 0.8)}px system-ui, sans-serif`;
    ctx.fillStyle = "#ffd9c2";
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.fillText("claw boxes strike back", r.x + r.w / 2, top + cell * 1.3);
    ctx.restore();
  }

  // side panels, controls, events -------------------------------------------------------

  heroPanels(view, { mine = [], toAct = [], connected = new Set(), table } = {}) {
    const heroes = heroesOf(view || {});
    const current = view.current || null;
    return h(
      "div.hero-grid",
      {},
      heroes.map((hero) => {
        const sheet = this.sheets[hero.id] || {};
        const color = heroColor(hero.id, hero.index);
        const attrs = hero.attrs || {};
        const resource = sheet.resource || null;
        const flags = [
          hero.dead && "dead",
          hero.trapped && "trapped in the labyrinth",
          hero.wolf_form && "wolf form",
        ].filter(Boolean);
        return h(
          `article.hero-card${hero.id === current ? ".current" : ""}${toAct.includes(hero.id) ? ".due" : ""}${mine.includes(hero.id) ? ".mine" : ""}${hero.dead ? ".dead" : ""}`,
          { dataset: { hero: hero.id } },
          cardHeader(
            tokenChip(color, this.heroName(hero.id).slice(0, 2)),
            h("strong", {}, this.heroName(hero.id)),
            seatOf(table, hero.id),
            connected,
            hero.id === current ? h("span.badge.badge-live", {}, "turn") : null,
            toAct.includes(hero.id) && hero.id !== current ? h("span.badge.badge-open", {}, "deciding") : null,
          ),
          h(
            "div.hero-stats",
            {},
            statBar("Health", hero.hp, hero.max_hp, "health"),
            resource ? statBar(resource.name, hero.res, hero.max_res, "resource") : h("div.small.muted", {}, "No resource"),
            hero.gold ? h("div.stat-line", {}, h("span", {}, "Gold ", h("b", {}, hero.gold))) : null,
            h("div.stat-line", {}, h("span", {}, "Level ", h("b", {}, hero.level ?? 1)), h("span", {}, "EXP ", h("b", {}, hero.exp ?? 0))),
            h(
              "div.attrs",
              {},
              ATTRS.filter(([k]) => attrs[k] !== undefined).map(([k, label, short]) =>
                h("span.attr", { title: label }, h("small", {}, short), h("b", {}, attrs[k])),
              ),
            ),
            flags.length ? h("div.small.hero-flags", {}, flags.join(" · ")) : null,
          ),
        );
      }),
    );
  }

  turnText(view) {
    if (!view) return "";
    if (view.outcome) return view.outcome.reason || "Game over";
    const phase = view.phase === "battle" ? "Climactic Battle" : view.phase === "adventure" ? "Adventure phase" : titleCase(view.phase || "");
    const who = view.current ? `${this.heroName(view.current)}'s turn${view.turn ? ` (turn ${view.turn})` : ""}` : "";
    return [who, phase].filter(Boolean).join(" · ");
  }

  describeEvent(ev) {
    return eventText(ev);
  }

  /** Dice in a batch of events, for the dice tray (one row per hero and roll). */
  diceFromEvents(events) {
    const rolls = [];
    const what = (ev) => titleCase(ev.roll || ev.kind).replace("Movement Roll", "movement");
    for (const ev of events) {
      const d = ev.dice;
      if (Array.isArray(d)) {
        const faces = d.filter(Number.isInteger);
        if (faces.length) rolls.push({ label: `${ev.hero ? `${this.heroName(ev.hero)}: ` : ""}${what(ev)}`, dice: faces, tones: faces.map((f) => (ev.kind === "movement_roll" && f === 1 ? "void" : "")) });
      } else if (d && typeof d === "object") {
        for (const [hero, value] of Object.entries(d)) {
          // A scored roll's chains: a 6 rolls again, so each chain is one die and its re-rolls.
          const faces = Number.isInteger(value) ? [value] : Array.isArray(value) ? value.flat(2).filter(Number.isInteger) : [];
          const score = ev.score && ev.score[hero] !== undefined ? ` (score ${ev.score[hero]})` : "";
          if (faces.length) rolls.push({ label: `${this.heroName(hero)}: ${what(ev)}${score}`, dice: faces });
        }
      } else if (Number.isInteger(ev.die) && ["rampage", "special_chance", "retaliation", "faith"].includes(ev.kind)) {
        rolls.push({ label: `${ev.hero ? `${this.heroName(ev.hero)}: ` : "Dragon: "}${what(ev)}`, dice: [ev.die] });
      }
    }
    return rolls;
  }

  /** The dice already on the table when one arrives (the movement roll in progress). */
  diceFromView(view) {
    const mv = view.movement;
    if (!mv || !Array.isArray(mv.rolled) || !view.current) return [];
    return [{ label: `${this.heroName(view.current)}: movement`, dice: mv.rolled, tones: mv.rolled.map((f) => (f === 1 ? "void" : "")) }];
  }

  place(id) {
    if (id === this.cityNode) return "the City";
    const s = this.cellsOf(id)[0];
    if (!s) return titleCase(id);
    const terrain = this.terrainOf(s);
    return s.name && terrain !== "razed" ? s.name : `${titleCase(terrain === "razed" ? "road" : terrain)} ${s.id}`;
  }

  resourceName(seat) {
    const r = this.sheets[seat] && this.sheets[seat].resource;
    return r ? r.name : "resource";
  }

  actionLabel(a, seat = null) {
    if (!a) return "";
    const mountain = (id) => (this.stat.mountains || {})[id] || titleCase(id);
    const res = this.resourceName(seat);
    switch (a.type) {
      case "move":
        return `Move to ${this.place(a.to)}`;
      case "step":
        return `Step to ${this.place(a.to)} with a ${a.die}`;
      case "end_move":
        return "Stop moving here";
      case "adventure":
        return "Go adventuring";
      case "rest":
        return "Rest (+2 Health)";
      case "gather":
        return `Gather information at ${mountain(a.mountain)}`;
      case "quest": {
        const helpers = (a.invite || []).map((x) => this.heroName(x));
        return `Attempt the quest at ${mountain(a.mountain)}${helpers.length ? ` with ${helpers.join(" and ")}` : " alone"}`;
      }
      case "end_turn":
        return "End my turn";
      case "pass":
        return "Pass";
      case "faith":
        return "Faith: set aside my highest die (+1 Faith)";
      case "lullaby":
        return "Lullaby: my 6s do not wake the Dragon";
      case "spend": {
        const extras = [a.gust && "Gust", a.elixir && "Elixir"].filter(Boolean);
        if (!a.amount && !extras.length) return "Roll without spending";
        const gold = a.gold ? ` (${a.gold} of it Gold)` : "";
        return `Spend ${a.amount} ${res}${gold}${extras.length ? ` + ${extras.join(", ")}` : ""}`;
      }
      case "big_bang":
        return "Big Bang (5 Magic)";
      case "tune":
        return `Heroic Tune: ${a.amount} dice to ${this.heroName(a.to)}`;
      case "reroll":
        return "Reroll";
      case "poison":
        return `Poison arrow: make die ${a.die + 1}.${a.at + 1} a 6`;
      case "accept":
        return "Yes, I will help";
      case "decline":
        return "No, thanks";
      case "absorb":
        return a.amount ? `Absorb ${a.amount} with ${res}${a.gold ? ` (${a.gold} Gold)` : ""}` : "Take the damage";
      case "shield":
        return "Platinum Shield";
      case "kiss":
        return `Kiss of Death on ${this.heroName(a.hero)}`;
      case "extra_turn":
        return "Take the extra turn";
      case "doll": {
        const taken = Object.entries(a.take || {}).map(([x, n]) => `${n} from ${this.heroName(x)}`);
        return `Body-Swapping Doll: take ${taken.join(", ") || "nothing"}`;
      }
      default:
        return fallbackActionLabel(a);
    }
  }

  /** Turn the listed actions into {hint, groups, prompt}: board clicks, buttons, dialogs. */
  controls(view, legal, { seat, selection }) {
    const groups = [];
    const moves = legal.filter((a) => a.type === "move");
    const steps = legal.filter((a) => a.type === "step");
    const rest = legal.filter((a) => a.type !== "move" && a.type !== "step");
    const prompt = (view.prompts || []).find((p) => p.seat === seat) || null;
    const item = (a) => ({
      action: a,
      label: this.actionLabel(a, seat),
      primary: ["accept", "end_move", "adventure", "quest", "rest"].includes(a.type) || (a.type === "spend" && a.amount === 0),
    });
    let hint = "";
    if (moves.length || steps.length) {
      const reach = new Set(moves.map((a) => a.to)).size;
      const mv = view.movement;
      const dice = mv && mv.dice ? ` Dice left: ${mv.dice.join(" ")}.` : "";
      hint = `Click a lit hex to go there (${reach} reachable), or pick a die to move one step at a time.${dice}`;
    }
    if (steps.length) {
      const dice = [...new Set(steps.map((a) => a.die))].sort((a, b) => a - b);
      groups.push({
        title: "One step at a time, with die…",
        items: dice.map((die) => ({ label: `${die}`, select: die, selected: selection === die, kind: "die", title: `Light the hexes a ${die} can pay for` })),
      });
    }
    if (prompt && DIALOG_KINDS.has(prompt.kind) && rest.length) {
      return {
        hint: hint || "Answer the question in the dialog.",
        groups,
        prompt: { title: PROMPT_TITLES[prompt.kind] || titleCase(prompt.kind), text: prompt.text || "", items: rest.map(item) },
      };
    }
    if (rest.length) groups.push({ title: moves.length || steps.length ? "Or" : prompt && prompt.text ? prompt.text : "", items: rest.map(item) });
    return { hint, groups, prompt: null };
  }
}

// Decisions asked outside the flow of one's own moves open a dialog (with the deadline).
const DIALOG_KINDS = new Set(["assist", "absorb", "doll", "shield", "kiss", "extra_turn", "tune", "spend", "post_roll", "reaction"]);
const PROMPT_TITLES = {
  assist: "Help with a quest?",
  absorb: "Absorb damage?",
  doll: "Body-Swapping Doll",
  shield: "Platinum Shield?",
  kiss: "Kiss of Death?",
  extra_turn: "An extra turn?",
  tune: "Heroic Tune?",
  spend: "Spend resources before the roll?",
  post_roll: "After the roll",
  reaction: "After the movement roll",
};
