// Dorn on a square-grid Canvas, drawn only from what the server sends:
// `static` (welcome.static = DornGame.static_info: the 24x20 board with its terrain rows,
// special cells and zones, and the hero, monster and card catalogues) and each update's
// `view` and `legal`. The client holds no rules: lit cells, target rings and buttons are
// exactly the listed actions, read generically by their "type" and fields (`hero`/`figure`
// = who acts, `to` = a cell, `target` = a figure, `card`, `artifact`...).
import { availableBoardHeight, h, titleCase } from "../ui.js";
import { beginFrame, paintTile, panelBox, roundToken, sizeCanvas, xMark } from "./canvas.js";
import { cardHeader, eventText, fallbackActionLabel, seatOf, statBar, tokenChip } from "./panels.js";

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

const MARKER_LABEL = {
  N: "starting-monster space",
  A: "Artifact space",
  P: "Treasure space",
  TP: "teleport",
  F: "Healing Fountain (heals 2)",
  X: "cave-in site",
  ENT: "dungeon entrance",
  SEAT: "Zorkal's throne",
};

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

const MONSTER_ABBR = { zombie: "Zo", rat: "Ra", bogbeast: "Bo", skeleton: "Sk", ghost: "Gh", mummy: "Mu", vampire: "Va", gorgon: "Gn" };
const WEAK_FILL = "#8a5a2e"; // brown tokens (RB components)
const STRONG_FILL = "#a3202c"; // red tokens
const ZORKAL = "zorkal";
const ZORKAL_FILL = "#2a1038";

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

// Actions a seat may take but never owes (it stays among the seats that may act meanwhile).
const OPTIONAL = new Set(["take_back_done"]);

const DONE_LABEL = {
  K1: "End the Blood step",
  K2: "End summoning",
  K3: "End monster movement",
  K4: "End attack declarations",
  K4P: "Take the other attacks",
  H1: "Done with Blessings",
  H2: "Done moving",
  H3: "Done attacking",
};

function heroColor(id) {
  return HERO_COLORS[id] || "#888";
}

const key = (x, y) => `${x},${y}`;
const cellOf = (v) => (Array.isArray(v) && v.length === 2 ? v : null);
const sameCell = (a, b) => Boolean(a && b && a[0] === b[0] && a[1] === b[1]);

/** The cell an action points at: `to`, or the last cell of a `path`. */
export function actionCell(a) {
  if (cellOf(a.to)) return a.to;
  if (Array.isArray(a.path) && a.path.length && cellOf(a.path[a.path.length - 1])) return a.path[a.path.length - 1];
  return null;
}

/** Who acts in an action (a hero, a monster or Zorkal), or null. */
export function actorOf(a) {
  if (typeof a.hero === "string") return a.hero;
  if (typeof a.figure === "string") return a.figure;
  return null;
}

// --- the renderer ---------------------------------------------------------------

export function createRenderer({ canvas, static: stat }) {
  return new DornRenderer(canvas, stat || {});
}

class DornRenderer {
  constructor(canvas, stat) {
    this.canvas = canvas;
    this.stat = stat;
    this.noDice = true; // Dorn rolls no dice: the table hides its dice tray
    const board = stat.board || {};
    this.width = board.width || 24;
    this.height = board.height || 20;
    this.rows = board.terrain || [];
    this.legend = board.legend || {};
    this.specials = board.specials || [];
    this.zones = board.zones || {};
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
    for (const [zone, cells] of Object.entries(this.zones)) {
      if (zone === "trail") continue; // the Herbalist is also trail; its own zone wins
      for (const [x, y] of cells) this.zoneOf.set(key(x, y), zone);
    }
    this.heroes = stat.heroes || {};
    this.monsterInfo = stat.monsters || {};
    this.view = null;
    this.legal = [];
    this.seat = null;
    this.selection = null;
    this.cell = 24;
    this.ox = 0;
    this.oy = 0;
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.resize();
  }

  // geometry ---------------------------------------------------------------------

  get panelCells() {
    return 6.4;
  }

  resize() {
    const parent = this.canvas.parentElement;
    const avail = Math.max(320, parent ? parent.clientWidth : 900);
    const cols = this.width + this.panelCells + 0.6;
    const rows = this.height + 0.4;
    const maxH = availableBoardHeight(this.canvas, 340);
    const cell = Math.max(12, Math.floor(Math.min(avail / cols, maxH / rows) * 4) / 4);
    const w = Math.round(cell * cols);
    const hgt = Math.round(cell * rows);
    this.cell = cell;
    this.ox = Math.round(cell * 0.2);
    this.oy = Math.round(cell * 0.2);
    this.cssWidth = w;
    this.cssHeight = hgt;
    this.dpr = sizeCanvas(this.canvas, w, hgt);
    this.draw();
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

  // reading the view -----------------------------------------------------------------

  heroName(id) {
    return this.heroes[id]?.name || titleCase(id);
  }

  monsterName(type) {
    return titleCase(this.monsterInfo[type]?.name || type);
  }

  figureName(id, view = this.view) {
    if (id === ZORKAL) return "Zorkal";
    if (this.heroes[id]) return this.heroName(id);
    const m = view?.monsters?.[id];
    if (m) {
      const c = cellOf(m.cell);
      return `${this.monsterName(m.type)}${c ? ` at (${c[0]},${c[1]})` : ""}`;
    }
    const o = view?.obstacles?.[id];
    if (o) return `${titleCase(o.kind || "obstacle")} at (${o.cell[0]},${o.cell[1]})`;
    return titleCase(id);
  }

  cardName(id) {
    for (const deck of ["rituals", "blessings", "treasures"]) {
      const c = (this.stat[deck] || {})[id];
      if (c) return c.name;
    }
    return id;
  }

  artifactName(id) {
    const a = (this.stat.artifacts || {})[id];
    return a ? a.name : titleCase(id);
  }

  attackName(heroId, attackId) {
    const basic = this.heroes[heroId]?.basic || [];
    const a = basic.find((x) => x.id === attackId);
    return a ? a.name : titleCase(String(attackId).split(".").pop());
  }

  /** Every figure on the board: {id, kind: hero|monster|zorkal|obstacle, cell}. */
  figures(view = this.view) {
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

  /** Token centres (CSS px) for every figure; heroes sharing an Argos cell spread out. */
  tokenPositions() {
    const out = new Map();
    const groups = new Map();
    for (const f of this.figures()) {
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

  figurePixel(id) {
    const p = this.tokenPositions().get(id);
    return p ? { x: p.x, y: p.y } : null;
  }

  figureColor(id) {
    if (id === ZORKAL) return ZORKAL_FILL;
    if (this.heroes[id]) return heroColor(id);
    const m = this.view?.monsters?.[id];
    if (m) return this.monsterInfo[m.type]?.class === "strong" ? STRONG_FILL : WEAK_FILL;
    return "#6b5a4a";
  }

  /** The figure whose token is under (px, py), else the first figure on that cell. */
  figureAt(px, py) {
    const cell = this.pixelToCell(px, py);
    if (!cell) return null;
    const pos = this.tokenPositions();
    const here = this.figures().filter((f) => sameCell(f.cell, cell));
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

  // state --------------------------------------------------------------------------

  /** Figures the listed actions let this seat command. */
  actors(legal = this.legal) {
    const out = [];
    for (const a of legal) {
      const who = actorOf(a);
      if (who && !out.includes(who)) out.push(who);
    }
    return out;
  }

  /** The selected figure: the picked one, or the only one that can act. */
  activeFigure(selection = this.selection, legal = this.legal) {
    if (typeof selection === "string" && selection.startsWith("fig:")) return selection.slice(4);
    const movers = this.actors(legal).filter((id) => legal.some((a) => actorOf(a) === id && (actionCell(a) || a.target)));
    return movers.length === 1 ? movers[0] : null;
  }

  /** A seat whose only listed action is taking back its Done owes nothing (docs/rules/dorn.md). */
  owes(legal) {
    return legal.some((a) => !OPTIONAL.has(a.type));
  }

  /** A hero seat that has sent Done for the open step (the view's `done`). */
  seatDone(view, seat) {
    return Boolean(view && Array.isArray(view.done) && view.done.includes(seat));
  }

  keepSelection(selection, legal) {
    if (typeof selection !== "string") return null;
    if (selection.startsWith("fig:")) return legal.some((a) => actorOf(a) === selection.slice(4)) ? selection : null;
    if (selection.startsWith("mon:")) {
      const type = selection.slice(4);
      return legal.some((a) => (type === "strong" ? a.type === "summon_strong" : a.monster === type)) ? selection : null;
    }
    return null;
  }

  /** Actions that point at a cell, for the active figure or (none picked) for no figure. */
  cellActions(legal = this.legal, selection = this.selection) {
    const fig = this.activeFigure(selection, legal);
    const summonPick = typeof selection === "string" && selection.startsWith("mon:") ? selection.slice(4) : null;
    return legal.filter((a) => {
      if (!actionCell(a)) return false;
      const who = actorOf(a);
      if (who) return who === fig;
      if (summonPick) return summonPick === "strong" ? a.type === "summon_strong" : a.monster === summonPick;
      return !fig;
    });
  }

  /** Actions that point at a figure (attacks, items on another hero), for the active figure. */
  targetActions(legal = this.legal, selection = this.selection) {
    const fig = this.activeFigure(selection, legal);
    return legal.filter((a) => typeof a.target === "string" && (fig ? actorOf(a) === fig : true));
  }

  setState(view, { legal = [], seat = null, selection = null } = {}) {
    this.view = view || {};
    this.legal = legal;
    this.seat = seat;
    this.selection = selection;
    this.lit = new Map(); // "x,y" -> [actions]
    for (const a of this.cellActions()) {
      const c = actionCell(a);
      const k = key(...c);
      if (!this.lit.has(k)) this.lit.set(k, []);
      this.lit.get(k).push(a);
    }
    this.targeted = new Map(); // figure id -> [actions]
    for (const a of this.targetActions()) {
      if (!this.targeted.has(a.target)) this.targeted.set(a.target, []);
      this.targeted.get(a.target).push(a);
    }
    this.draw();
  }

  /** What a click at (x, y) means: an action to send, {select}, or {choose: [actions]}. */
  actionAt(px, py, legal, { selection } = {}) {
    const cell = this.pixelToCell(px, py);
    if (!cell) return null;
    const fig = this.activeFigure(selection, legal);
    const clicked = this.figureAt(px, py);
    const pick = (list, title) => (list.length === 1 ? list[0] : list.length ? { choose: list, title } : null);
    // A target figure first (attacks), then the cell (moves, summons, placements).
    if (clicked && clicked !== fig) {
      const onIt = this.targetActions(legal, selection).filter((a) => a.target === clicked);
      const attacks = onIt.filter((a) => a.type === "attack");
      const chosen = pick(attacks, `Attack ${this.figureName(clicked)} with…`);
      if (chosen) return chosen;
      // Anything else aimed at a figure (an item) is confirmed in a dialog, and a click on one's
      // own figure picks it rather than spending an item on it (the item stays a button).
      if (onIt.length && !this.actors(legal).includes(clicked)) return { choose: onIt, title: `On ${this.figureName(clicked)}?` };
    }
    const here = this.cellActions(legal, selection).filter((a) => sameCell(actionCell(a), cell));
    const chosen = pick(here, `At (${cell[0]},${cell[1]})`);
    if (chosen) return chosen;
    if (clicked && this.actors(legal).includes(clicked)) return { select: `fig:${clicked}` };
    if (fig) {
      // An unlisted cell for a moving figure: ask anyway, so the player reads the rule that forbids it.
      const template = legal.find((a) => actorOf(a) === fig && cellOf(a.to) && !a.card);
      if (template && !clicked) return { ...template, to: cell };
    }
    return null;
  }

  clickableAt(px, py) {
    const cell = this.pixelToCell(px, py);
    if (!cell) return false;
    if (this.lit?.has(key(...cell))) return true;
    const f = this.figureAt(px, py);
    return Boolean(f && (this.targeted?.has(f) || this.actors().includes(f)));
  }

  tooltipAt(px, py) {
    const cell = this.pixelToCell(px, py);
    if (!cell) return null;
    const [x, y] = cell;
    const zone = this.zoneAt(x, y);
    const parts = [`(${x},${y}) ${TERRAIN_STYLE[zone]?.label || titleCase(zone)}`];
    const m = this.markers.get(key(x, y));
    if (m && MARKER_LABEL[m.kind]) parts.push(`${MARKER_LABEL[m.kind]} ${m.id}`);
    const v = this.view || {};
    if ((v.tokens || []).some((t) => sameCell(t, cell))) parts.push("a Treasure token");
    for (const [id, a] of Object.entries(v.artifacts || {})) if (sameCell(a.cell, cell) && !a.carrier) parts.push(this.artifactName(id));
    for (const f of this.figures().filter((f) => sameCell(f.cell, cell))) {
      if (f.kind === "hero") parts.push(`${this.heroName(f.id)} (life ${f.data.life}/${f.data.max_life})`);
      else if (f.kind === "monster") parts.push(`${this.monsterName(f.data.type)} (life ${f.data.life}${f.data.waiting ? ", waiting" : ""}${f.data.bat ? ", bat form" : ""})`);
      else if (f.kind === "zorkal") parts.push(`Zorkal (level ${f.data.level}, life ${f.data.life})`);
      else parts.push(`${titleCase(f.data.kind || "obstacle")} (life ${f.data.life})`);
    }
    return parts.join(" · ");
  }

  // drawing ---------------------------------------------------------------------------

  draw() {
    const ctx = beginFrame(this.canvas, this.dpr, this.cssWidth, this.cssHeight, "#17140f");
    if (!ctx) return;
    for (let y = 0; y < this.height; y += 1) for (let x = 0; x < this.width; x += 1) this.drawCell(ctx, x, y);
    this.drawGrid(ctx);
    for (const s of this.specials) this.drawMarker(ctx, s);
    if (this.view) {
      this.drawItems(ctx);
      this.drawLit(ctx);
      this.drawFigures(ctx);
      this.drawPanel(ctx);
    }
  }

  drawCell(ctx, x, y) {
    const s = this.cell;
    this.drawZone(ctx, this.ox + x * s, this.oy + y * s, s, this.zoneAt(x, y), Boolean(this.view && this.view.gate_open));
  }

  /** One square of a zone, its colour and its pattern (board cells and legend swatches). */
  drawZone(ctx, px, py, s, zone, gateOpen) {
    const open = zone === "gate" && gateOpen; // an open Gate is floor
    const style = TERRAIN_STYLE[open ? "floor" : zone] || TERRAIN_STYLE.floor;
    const k = s / 32;
    const c = { x: px + s / 2, y: py + s / 2 };
    const patterns = {
      wall: () => this.patBricks(ctx, px, py, s),
      floor: () => this.patFlagstones(ctx, px, py, s),
      trail: () => this.patFootprints(ctx, c, k),
      herbalist: () => this.glyphHerb(ctx, c, k),
      argos: () => this.glyphHouse(ctx, c, k),
      crypt: () => this.glyphCross(ctx, c, k),
      dark_temple: () => this.glyphEye(ctx, c, k),
      graveyard: () => this.glyphTomb(ctx, c, k),
      black_moor: () => this.glyphReeds(ctx, c, k),
      sewers: () => this.patWaves(ctx, px, py, s),
      chamber: () => this.patHatch(ctx, px, py, s),
      gate: () => (open ? this.patFlagstones(ctx, px, py, s) : this.patPortcullis(ctx, px, py, s)),
      throne: () => this.patChecker(ctx, px, py, s),
    };
    const square = () => {
      ctx.beginPath();
      ctx.rect(px, py, s, s);
    };
    paintTile(ctx, square, style, Math.max(1, s * 0.05), patterns[zone] || (() => {}));
  }

  drawGrid(ctx) {
    // Thin lines between walkable cells; a bolder edge where rock meets floor.
    const s = this.cell;
    ctx.save();
    ctx.strokeStyle = "rgba(30, 24, 18, 0.35)";
    ctx.lineWidth = 1;
    const walkable = [];
    for (let y = 0; y < this.height; y += 1) {
      for (let x = 0; x < this.width; x += 1) if (this.terrainAt(x, y) !== "wall") walkable.push([x, y]);
    }
    ctx.beginPath();
    for (const [x, y] of walkable) ctx.rect(this.ox + x * s + 0.5, this.oy + y * s + 0.5, s - 1, s - 1);
    ctx.stroke();
    ctx.strokeStyle = "#0d0b09";
    ctx.lineWidth = Math.max(1.5, s * 0.08);
    ctx.lineCap = "square";
    ctx.beginPath();
    for (const [x, y] of walkable) {
      const px = this.ox + x * s;
      const py = this.oy + y * s;
      const wall = (dx, dy) => this.terrainAt(x + dx, y + dy) === "wall";
      if (wall(0, -1)) { ctx.moveTo(px, py); ctx.lineTo(px + s, py); }
      if (wall(0, 1)) { ctx.moveTo(px, py + s); ctx.lineTo(px + s, py + s); }
      if (wall(-1, 0)) { ctx.moveTo(px, py); ctx.lineTo(px, py + s); }
      if (wall(1, 0)) { ctx.moveTo(px + s, py); ctx.lineTo(px + s, py + s); }
    }
    ctx.stroke();
    ctx.restore();
  }

  // patterns (drawn clipped to one cell) ------------------------------------------------

  patBricks(ctx, px, py, s) {
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

  patFlagstones(ctx, px, py, s) {
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

  patFootprints(ctx, c, k) {
    for (const [dx, dy] of [[-6, -7], [5, -1], [-5, 6], [6, 12]]) {
      ctx.beginPath();
      ctx.ellipse(c.x + dx * k, c.y + dy * k, 2.2 * k, 3.4 * k, 0.3, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  glyphHerb(ctx, c, k) {
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

  glyphHouse(ctx, c, k) {
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

  glyphCross(ctx, c, k) {
    ctx.lineWidth = 2.6 * k;
    this.crossPath(ctx, c.x, c.y - 10 * k, c.y + 10 * k, c.y - 4 * k, 6 * k);
    ctx.stroke();
  }

  /** A Latin cross: an upright from top to bottom and a bar of half-width `half` at barY. */
  crossPath(ctx, x, top, bottom, barY, half) {
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.moveTo(x - half, barY);
    ctx.lineTo(x + half, barY);
  }

  glyphEye(ctx, c, k) {
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

  glyphTomb(ctx, c, k) {
    ctx.beginPath();
    ctx.moveTo(c.x - 6 * k, c.y + 9 * k);
    ctx.lineTo(c.x - 6 * k, c.y - 3 * k);
    ctx.arc(c.x, c.y - 3 * k, 6 * k, Math.PI, 0);
    ctx.lineTo(c.x + 6 * k, c.y + 9 * k);
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = "#b9cbb6";
    ctx.lineWidth = 1.4 * k;
    this.crossPath(ctx, c.x, c.y - 5 * k, c.y + 3 * k, c.y - 2 * k, 3 * k);
    ctx.stroke();
  }

  glyphReeds(ctx, c, k) {
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

  patWaves(ctx, px, py, s) {
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

  patHatch(ctx, px, py, s) {
    ctx.lineWidth = Math.max(1, s * 0.035);
    ctx.beginPath();
    for (let i = -1; i <= 3; i += 1) {
      ctx.moveTo(px + (i * s) / 3, py + s);
      ctx.lineTo(px + (i * s) / 3 + s, py);
    }
    ctx.stroke();
  }

  patPortcullis(ctx, px, py, s) {
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

  patChecker(ctx, px, py, s) {
    ctx.globalAlpha = 0.35;
    ctx.fillRect(px, py, s / 2, s / 2);
    ctx.fillRect(px + s / 2, py + s / 2, s / 2, s / 2);
    ctx.globalAlpha = 1;
  }

  // markers and loose things ------------------------------------------------------------

  drawMarker(ctx, sp) {
    const s = this.cell;
    const c = this.cellToPixel(sp.x, sp.y);
    const k = s / 32;
    ctx.save();
    switch (sp.kind) {
      case "TP":
        this.teleportGlyph(ctx, c, k);
        this.cornerTag(ctx, sp.x, sp.y, sp.id.replace(/^TP(\d).*/, "$1"), "#0d5661", "#c9fbff", "tr");
        break;
      case "F":
        this.fountainGlyph(ctx, c, k);
        break;
      case "A": {
        ctx.strokeStyle = "#1d4fa8";
        ctx.lineWidth = Math.max(1, 1.4 * k);
        ctx.setLineDash([3 * k, 2 * k]);
        this.diamondPath(ctx, c.x, c.y, 11 * k);
        ctx.stroke();
        break;
      }
      case "P": {
        // The token itself is drawn from the view; an emptied Treasure space keeps a faint ring.
        if ((this.view?.tokens || []).some((t) => t[0] === sp.x && t[1] === sp.y)) break;
        ctx.strokeStyle = "rgba(122, 90, 6, 0.55)";
        ctx.lineWidth = Math.max(1, 1.4 * k);
        ctx.setLineDash([2.5 * k, 2 * k]);
        ctx.beginPath();
        ctx.arc(c.x, c.y, 8 * k, 0, 2 * Math.PI);
        ctx.stroke();
        break;
      }
      case "N":
        this.cornerTag(ctx, sp.x, sp.y, "N", "rgba(60,40,30,0.8)", "#f3dcc6", "tl");
        break;
      case "X": {
        ctx.strokeStyle = "rgba(50,35,25,0.55)";
        ctx.lineWidth = Math.max(1, 1.2 * k);
        xMark(ctx, c.x + 9 * k, c.y + 9 * k, 3 * k);
        break;
      }
      case "SEAT": {
        ctx.fillStyle = "#e8c547";
        this.crownPath(ctx, c.x, c.y + 2 * k, 9 * k);
        ctx.fill();
        break;
      }
      default:
        break;
    }
    ctx.restore();
  }

  /** A teleport pad: three open rings (the board and the legend). */
  teleportGlyph(ctx, c, k) {
    ctx.strokeStyle = "#7ef3ff";
    ctx.lineWidth = Math.max(1.2, 2 * k);
    for (const r of [12, 8, 4]) {
      ctx.beginPath();
      ctx.arc(c.x, c.y, r * k, 0.3, 2 * Math.PI - 0.3);
      ctx.stroke();
    }
  }

  /** A Healing Fountain: a water drop in a ring (the board and the legend). */
  fountainGlyph(ctx, c, k) {
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

  cornerTag(ctx, x, y, text, bg, fg, corner) {
    const s = this.cell;
    const px = this.ox + x * s;
    const py = this.oy + y * s;
    const fs = Math.max(7, s * 0.26);
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

  diamondPath(ctx, x, y, r) {
    ctx.beginPath();
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r, y);
    ctx.lineTo(x, y + r);
    ctx.lineTo(x - r, y);
    ctx.closePath();
  }

  crownPath(ctx, x, y, r) {
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
  drawItems(ctx) {
    const v = this.view;
    const s = this.cell;
    const occupied = new Set(this.figures().map((f) => key(...f.cell)));
    for (const t of v.tokens || []) {
      if (!cellOf(t)) continue;
      const c = this.cellToPixel(...t);
      const busy = occupied.has(key(...t));
      this.treasureToken(ctx, busy ? c.x - s * 0.3 : c.x, busy ? c.y + s * 0.3 : c.y, s * (busy ? 0.16 : 0.27));
    }
    for (const [, a] of Object.entries(v.artifacts || {})) {
      if (a.carrier || !cellOf(a.cell)) continue;
      const c = this.cellToPixel(...a.cell);
      const busy = occupied.has(key(...a.cell));
      this.artifactToken(ctx, busy ? c.x + s * 0.3 : c.x, busy ? c.y + s * 0.3 : c.y, s * (busy ? 0.17 : 0.3));
    }
  }

  treasureToken(ctx, x, y, r) {
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

  artifactToken(ctx, x, y, r) {
    ctx.save();
    ctx.shadowColor = "rgba(0,0,0,0.5)";
    ctx.shadowBlur = 3;
    ctx.fillStyle = "#2f6fe0";
    this.diamondPath(ctx, x, y, r);
    ctx.fill();
    ctx.shadowBlur = 0;
    ctx.strokeStyle = "#dbe8ff";
    ctx.lineWidth = Math.max(1, r * 0.14);
    ctx.stroke();
    ctx.fillStyle = "#dbe8ff";
    this.diamondPath(ctx, x, y, r * 0.35);
    ctx.fill();
    ctx.restore();
  }

  drawLit(ctx) {
    const s = this.cell;
    ctx.save();
    for (const [k, actions] of this.lit) {
      const [x, y] = k.split(",").map(Number);
      const px = this.ox + x * s;
      const py = this.oy + y * s;
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

  drawFigures(ctx) {
    const pos = this.tokenPositions();
    const active = this.activeFigure();
    const actors = new Set(this.actors());
    const s = this.cell;
    for (const f of this.figures()) {
      const p = pos.get(f.id);
      if (!p) continue;
      // A figure on a teleport pad stands on both cells: a ghost ring marks the other one.
      const other = this.partner.get(key(...f.cell));
      if (other) {
        const q = this.cellToPixel(...other);
        ctx.save();
        ctx.strokeStyle = this.figureColor(f.id);
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
      if (f.kind === "hero") this.heroToken(ctx, f, p);
      else if (f.kind === "monster") this.monsterToken(ctx, f, p);
      else if (f.kind === "zorkal") this.zorkalToken(ctx, f, p);
      else this.obstacleToken(ctx, f, p);
      if (this.targeted.has(f.id)) this.crosshair(ctx, p);
    }
  }

  heroToken(ctx, f, p) {
    const hero = f.data;
    roundToken(ctx, p.x, p.y, p.r, { fill: heroColor(f.id), text: this.heroName(f.id).slice(0, 2) });
    // Life as a small red badge; a blue diamond if the hero carries an Artifact.
    this.badge(ctx, p.x + p.r * 0.8, p.y - p.r * 0.8, p.r * 0.46, String(hero.life), "#b3261e");
    const carries = Object.values(this.view.artifacts || {}).some((a) => a.carrier === f.id);
    if (carries) this.artifactToken(ctx, p.x - p.r * 0.85, p.y - p.r * 0.8, p.r * 0.38);
  }

  monsterToken(ctx, f, p) {
    const m = f.data;
    const strong = this.monsterInfo[m.type]?.class === "strong";
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
    if (m.life > 1) this.badge(ctx, p.x + r * 0.85, p.y - r * 0.85, r * 0.45, String(m.life), "#1e1e1e");
    if (m.waiting) this.badge(ctx, p.x - r * 0.85, p.y - r * 0.85, r * 0.45, "z", "#3d5a80");
    ctx.restore();
  }

  zorkalToken(ctx, f, p) {
    const z = f.data;
    roundToken(ctx, p.x, p.y, p.r, { fill: ZORKAL_FILL, rim: "#e8c547", rimWidth: Math.max(1.5, p.r * 0.15), shadow: 0.6, blur: 4 });
    ctx.save();
    ctx.fillStyle = "#e8c547";
    this.crownPath(ctx, p.x, p.y + p.r * 0.05, p.r * 0.55);
    ctx.fill();
    this.badge(ctx, p.x + p.r * 0.8, p.y - p.r * 0.8, p.r * 0.42, String(z.life), "#2e7d32");
    ctx.restore();
  }

  obstacleToken(ctx, f, p) {
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
    this.badge(ctx, p.x + p.r * 0.8, p.y - p.r * 0.8, p.r * 0.42, String(f.data.life), "#1e1e1e");
    ctx.restore();
  }

  badge(ctx, x, y, r, text, bg) {
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

  crosshair(ctx, p) {
    const r = p.r + this.cell * 0.1;
    ctx.save();
    ctx.strokeStyle = "#ff3b30";
    ctx.lineWidth = Math.max(2, this.cell * 0.08);
    ctx.beginPath();
    ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      ctx.moveTo(p.x + dx * r * 0.7, p.y + dy * r * 0.7);
      ctx.lineTo(p.x + dx * r * 1.3, p.y + dy * r * 1.3);
    }
    ctx.stroke();
    ctx.restore();
  }

  // the status panel right of the labyrinth ----------------------------------------------

  panelRect() {
    const s = this.cell;
    const x = this.ox + this.width * s + s * 0.4;
    return { x, y: this.oy, w: this.cssWidth - x - s * 0.2, h: this.height * s };
  }

  drawPanel(ctx) {
    const v = this.view;
    const r = this.panelRect();
    const s = this.cell;
    const fs = Math.max(10, s * 0.38);
    ctx.save();
    panelBox(ctx, r, "#221d18", "#4a3f33", 1);
    const pad = s * 0.35;
    const x0 = r.x + pad;
    const w = r.w - 2 * pad;
    let y = r.y + pad;
    const text = (t, px, { color = "#f1e6d6", weight = 600, align = "left", at = x0 } = {}) => {
      ctx.font = `${weight} ${px}px system-ui, sans-serif`;
      ctx.fillStyle = color;
      ctx.textAlign = align;
      ctx.textBaseline = "top";
      ctx.fillText(t, align === "center" ? at + w / 2 : at, y);
    };
    const section = (title) => {
      y = this.panelHeading(ctx, x0, w, y, title, fs);
    };
    // The Day/Night token's face as it lies now (after the Keeper's flip it shows the next turn).
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
    y += iconR * 2 + s * 0.1;

    // The steps of the round, the open one lit.
    section("Round");
    const cols = 4;
    const cw = w / cols;
    const ch = fs * 1.35;
    PHASES.forEach(([id, label], i) => {
      const cx = x0 + (i % cols) * cw;
      const cy = y + Math.floor(i / cols) * (ch + 3);
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
    y += 2 * (ch + 3);
    text("Keeper: top row · Heroes: bottom row", fs * 0.6, { color: "#8f806c", weight: 500 });
    y += fs * 0.7;

    // The Keeper's Blood pool (cap 16).
    const cap = this.stat.blood_cap || 16;
    section(`Blood Drops  ${v.blood ?? 0}/${cap}`);
    const per = 8;
    const dw = w / per;
    for (let i = 0; i < cap; i += 1) {
      const cx = x0 + (i % per) * dw + dw / 2;
      const cy = y + Math.floor(i / per) * dw * 1.15 + dw * 0.55;
      this.drop(ctx, cx, cy, dw * 0.36, i < (v.blood ?? 0));
    }
    y += Math.ceil(cap / per) * dw * 1.15 + s * 0.05;

    // The chamber fill counter (the Keeper wins at 3).
    const turns = this.stat.chamber_fill_turns || 3;
    section(`Chamber full  ${v.fill ?? 0}/${turns}`);
    const pr = Math.min(s * 0.32, w / (turns * 3));
    this.stoneRow(ctx, x0, y, pr, 3, turns, (i) => (i < (v.fill ?? 0) ? "#e5534b" : "#3a3029"), "#e5a199", 1.5);
    ctx.font = `500 ${fs * 0.66}px system-ui, sans-serif`;
    ctx.fillStyle = "#b7a68f";
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillText("turns in a row", x0 + turns * pr * 3, y + pr);
    y += pr * 2 + s * 0.05;

    // Zorkal: level, life (green stones), the Gate.
    const z = v.zorkal || {};
    section(`Zorkal  level ${z.level ?? 1}`);
    const lifeN = Math.max(z.life ?? 0, 1);
    const lr = Math.min(s * 0.24, w / (Math.max(lifeN, 6) * 2.6));
    this.stoneRow(ctx, x0, y, lr, 2.6, z.life ?? 0, () => "#3fb67b", "#baf2d2", 1.2);
    ctx.font = `600 ${fs * 0.72}px system-ui, sans-serif`;
    ctx.fillStyle = "#9ff0c4";
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillText(`life ${z.life ?? 0}`, x0 + w, y + lr);
    y += lr * 2 + s * 0.2;
    text(v.gate_open ? "Gate of Doom: OPEN" : "Gate of Doom: closed", fs * 0.78, { color: v.gate_open ? "#ffb4ae" : "#c9d2dc", weight: 700 });
    y += fs * 0.95;

    // Artifacts.
    const arts = Object.entries(v.artifacts || {});
    const found = arts.filter(([, a]) => a.picked).length;
    section(`Artifacts found  ${found}/${arts.length || 6}`);
    const aw = w / Math.max(6, arts.length);
    arts.forEach(([, a], i) => {
      const cx = x0 + aw * i + aw / 2;
      const cy = y + aw * 0.42;
      ctx.globalAlpha = a.picked || a.carrier ? 1 : 0.35;
      this.artifactToken(ctx, cx, cy, aw * 0.32);
      ctx.globalAlpha = 1;
      if (a.carrier) {
        ctx.font = `700 ${fs * 0.55}px system-ui, sans-serif`;
        ctx.fillStyle = "#dbe8ff";
        ctx.textAlign = "center";
        ctx.textBaseline = "top";
        ctx.fillText(this.heroName(a.carrier).slice(0, 3), cx, cy + aw * 0.36);
      }
    });
    y += aw * 0.95 + fs * 0.4;

    // Decks and the bag (counts only: their order and contents are secret); then the legend.
    section("Decks");
    const lines = [
      `Treasure ${v.treasure_deck ?? "?"} · Blessings ${v.blessing_deck ?? "?"}`,
      `Rituals ${v.ritual_deck ?? "?"} · Keeper's hand ${v.ritual_hand_count ?? "?"}`,
      `Strong-monster bag ${v.bag ?? "?"}`,
    ];
    if ((v.rituals_in_play || []).length) lines.push(`In play: ${v.rituals_in_play.map((c) => this.cardName(c)).join(", ")}`);
    for (const line of lines) {
      if (y + fs > r.y + r.h - pad) break;
      text(line, fs * 0.7, { color: "#d8cbb8", weight: 500 });
      y += fs * 0.95;
    }
    this.drawLegend(ctx, x0, y, w, r.y + r.h - pad, fs);
    ctx.restore();
  }

  /** `count` stones of radius r in a row from (x0, y), `step` radii apart, the i-th filled with fill(i). */
  stoneRow(ctx, x0, y, r, step, count, fill, stroke, lineWidth) {
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

  /** A status-panel section's rule and upper-case title from y; returns the y under it. */
  panelHeading(ctx, x0, w, y, title, fs) {
    const s = this.cell;
    y += s * 0.25;
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
    return y + fs * 0.95;
  }

  /** What the colours and patterns mean, as far as the panel has room. */
  drawLegend(ctx, x0, y0, w, bottom, fs) {
    const s = this.cell;
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
    if (y0 + s * 0.5 + fs + rows * rowH > bottom) return;
    const y = this.panelHeading(ctx, x0, w, y0, "Legend", fs);
    const colW = w / 2;
    entries.forEach(([kind, id, label], i) => {
      const x = x0 + (i % 2) * colW;
      const top = y + Math.floor(i / 2) * rowH;
      const c = { x: x + sw / 2, y: top + sw / 2 };
      if (kind === "zone") {
        this.drawZone(ctx, x, top, sw, id, false);
        ctx.strokeStyle = "#0d0b09";
        ctx.lineWidth = 1;
        ctx.strokeRect(x + 0.5, top + 0.5, sw - 1, sw - 1);
      } else if (kind === "mark") {
        this.drawZone(ctx, x, top, sw, "floor", false);
        ctx.save();
        if (id === "F") this.fountainGlyph(ctx, c, sw / 28);
        else this.teleportGlyph(ctx, c, sw / 28);
        ctx.restore();
      } else if (kind === "token") {
        if (id === "P") this.treasureToken(ctx, c.x, c.y, sw * 0.45);
        else this.artifactToken(ctx, c.x, c.y, sw * 0.48);
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

  drop(ctx, x, y, r, full) {
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

  // side panels, controls, events --------------------------------------------------------

  heroPanels(view, { mine = [], toAct = [], connected = new Set(), table, active = null } = {}) {
    view = view || {};
    const cards = [];
    // The Keeper's card: Zorkal, the pool, the Ritual hand for the Keeper's own eyes.
    const z = view.zorkal || {};
    const hand = view.ritual_hand;
    cards.push(
      h(
        `article.hero-card.keeper-card${Array.isArray(hand) ? ".with-hand" : ""}${toAct.includes("keeper") ? ".due" : ""}`,
        { dataset: { seat: "keeper" } },
        cardHeader(
          h("span.token.token-keeper", {}, "♛"),
          h("strong", {}, "Zorkal"),
          seatOf(table, "keeper"),
          connected,
          toAct.includes("keeper") ? h("span.badge.badge-open", {}, "to act") : null,
        ),
        h(
          "div.hero-stats",
          {},
          h("div.stat-line", {}, kv("Life", z.life ?? 0), kv("Lv", z.level ?? 1), kv("Blood", view.blood ?? 0)),
          h("div.stat-line", {}, kv("Chamber", `${view.fill ?? 0}/${this.stat.chamber_fill_turns || 3}`), kv("Gate", view.gate_open ? "open" : "shut"), kv("Bag", view.bag ?? 0)),
          Array.isArray(hand)
            ? h(
                "div.card-list",
                { title: "Your Ritual hand (only you see it)" },
                h("span.muted", {}, "Rituals: "),
                hand.length ? hand.map((c) => h("span.card-chip.ritual", { title: `cost ${this.stat.rituals?.[c]?.cost ?? "?"}` }, `${this.cardName(c)} (${this.stat.rituals?.[c]?.cost ?? "?"})`)) : "none",
              )
            : h("div.small.muted", {}, `${view.ritual_hand_count ?? 0} Ritual cards in hand`),
        ),
      ),
    );
    const activeHeroes = active && view.seats && view.seats[active] ? view.seats[active] : [];
    for (const [id, hero] of Object.entries(view.heroes || {})) {
      const sheet = this.heroes[id] || {};
      const color = heroColor(id);
      const level = hero.level ?? 1;
      const attacks = (sheet.basic || []).filter((a) => !a.levels || a.levels.includes(level));
      const carried = Object.entries(view.artifacts || {}).filter(([, a]) => a.carrier === id).map(([aid]) => this.artifactName(aid));
      const items = Array.isArray(hero.cards) ? hero.cards.map((c) => this.cardName(c)) : null;
      const flags = [!hero.alive && "dead", hero.rot && "mummy rot", hero.rubble && "in rubble", hero.item_used && "item used"].filter(Boolean);
      const stats = [kv("Lv", level), kv("XP", hero.xp ?? 0)];
      if (view.phase === "H2") stats.push(kv("Move", hero.move_left ?? 0));
      if (view.phase === "H3") stats.push(kv("Actions", hero.actions ?? 0));
      if (view.phase === "K4P" || view.phase === "K4") stats.push(kv("Parries", hero.parries ?? 0));
      cards.push(
        h(
          `article.hero-card${toAct.includes(hero.seat) ? ".due" : ""}${mine.includes(hero.seat) ? ".mine" : ""}${activeHeroes.includes(id) ? ".current" : ""}${hero.alive ? "" : ".dead"}`,
          { dataset: { hero: id, seat: hero.seat } },
          cardHeader(tokenChip(color, this.heroName(id).slice(0, 2)), h("strong", { title: sheet.role || "" }, this.heroName(id)), seatOf(table, hero.seat), connected),
          h(
            "div.hero-stats",
            {},
            statBar("Life", hero.life, hero.max_life, "health"),
            h("div.stat-line", {}, stats),
            h("div.small.attacks", { title: attacks.map((a) => `${a.name}: ${a.class}, ${a.reach}${a.range ? ` ${a.range[level - 1]}` : ""}, damage ${a.damage}${a.life_cost ? `, costs ${a.life_cost} life` : ""}`).join("\n") }, attacks.map((a) => a.name).join(" · ") || "—"),
            carried.length ? h("div.small.artifacts", {}, "◆ ", carried.join(", ")) : null,
            items
              ? h("div.small.items", {}, items.length ? `Items: ${items.join(", ")}` : h("span.muted", {}, "No items"))
              : hero.card_count
                ? h("div.small.items", {}, `${hero.card_count} item card${hero.card_count > 1 ? "s" : ""}`)
                : null,
            flags.length ? h("div.small.hero-flags", {}, flags.join(" · ")) : null,
          ),
        ),
      );
    }
    const blessing = view.my_blessing;
    const strip = blessing !== undefined || view.blessings
      ? h(
          "div.blessing-strip.small",
          {},
          blessing !== undefined
            ? h("span", {}, "Your Blessing: ", blessing ? h("span.card-chip.blessing", {}, this.cardName(blessing)) : h("span.muted", {}, "played"))
            : h("span", {}, "Blessings: ", Object.entries(view.blessings || {}).map(([s, c]) => `${s}: ${c ? this.cardName(c) : "played"}`).join(" · ")),
        )
      : null;
    return h("div", {}, h("div.hero-grid.hero-grid-dorn", {}, cards), strip);
  }

  turnText(view) {
    if (!view) return "";
    if (view.outcome) return view.outcome.reason || "Game over";
    const when = `Keeper turn ${view.k} · ${view.day ? "Day" : "Night"}`;
    const name = String(view.phase_name || view.phase || "").replace(/^the /i, "");
    const step = name.charAt(0).toUpperCase() + name.slice(1);
    if (view.prompt) return `${when} · the Keeper places a hidden monster`;
    if (view.surrender) return `${when} · the heroes vote on a surrender`;
    return `${when} · ${step}`;
  }

  describeEvent(ev) {
    return eventText(ev);
  }

  diceFromEvents() {
    return [];
  }

  place(cell) {
    return cellOf(cell) ? `(${cell[0]},${cell[1]})` : "";
  }

  actionLabel(a) {
    if (!a) return "";
    const who = actorOf(a);
    const name = who ? this.figureName(who) : "";
    switch (a.type) {
      case "done":
        return DONE_LABEL[this.view?.phase] || "Done";
      case "take_back_done":
        return "Take back my Done";
      case "surrender":
        return "Surrender";
      case "propose_surrender":
        return "Propose surrender";
      case "surrender_vote":
        return a.accept ? "Accept the surrender" : "Fight on";
      case "level_zorkal":
        return "Raise Zorkal's level";
      case "play_ritual": {
        const cost = this.stat.rituals?.[a.card]?.cost;
        return `Play ${this.cardName(a.card)}${cost !== undefined ? ` (${cost} Blood)` : ""}`;
      }
      case "summon":
        return `Summon a ${this.monsterName(a.monster).toLowerCase()} at ${this.place(a.to)}`;
      case "summon_strong":
        return `Summon a strong monster at ${this.place(a.to)}`;
      case "place_monster":
        return `Place it at ${this.place(a.to)}`;
      case "step":
      case "move":
        return `${name}: ${a.type === "step" ? "step" : "move"} to ${this.place(actionCell(a))}`;
      case "bat_form":
        return `${name}: bat form`;
      case "attack":
        if (a.with) return `${name}: ${this.attackName(a.hero, a.with)} on ${this.figureName(a.target)}`;
        return `${name} attacks ${this.figureName(a.target)}`;
      case "parry": {
        const at = (this.view?.attacks || [])[a.attack];
        return at ? `Parry: ${this.figureName(at.by)} on ${this.figureName(at.target)}` : `Parry attack ${a.attack + 1}`;
      }
      case "play_blessing":
        return `${this.cardName(a.card)} for ${this.heroName(a.hero)}`;
      case "pick_up":
        return `${name}: pick up ${this.artifactName(a.artifact)}`;
      case "drop":
        return `${name}: drop ${this.artifactName(a.artifact)}`;
      case "give":
        return `${name}: give ${a.artifact ? this.artifactName(a.artifact) : this.cardName(a.card)} to ${this.heroName(a.to)}`;
      case "discard":
        return `${name}: discard ${this.cardName(a.card)}`;
      case "use_item": {
        const on = a.target ? ` on ${this.figureName(a.target)}` : cellOf(a.to) ? ` to ${this.place(a.to)}` : "";
        return `${name}: use ${this.cardName(a.card)}${on}`;
      }
      default:
        return fallbackActionLabel(a, (v) => (Array.isArray(v) ? this.place(v) || JSON.stringify(v) : typeof v === "object" ? JSON.stringify(v) : v));
    }
  }

  /** Turn the listed actions into {hint, groups, prompt}: board clicks, buttons, dialogs. */
  controls(view, legal, { selection }) {
    this.view = view;
    const groups = [];
    const item = (a, extra = {}) => ({ action: a, label: this.actionLabel(a), ...extra });
    const done = legal.filter((a) => a.type === "done");
    const giveUp = legal.filter((a) => a.type === "surrender" || a.type === "propose_surrender");
    const byType = (t) => legal.filter((a) => a.type === t);
    const doneGroup = done.length ? { title: "", items: done.map((a) => item(a, { primary: true })) } : null;
    const giveUpGroup = giveUp.length ? { title: "", items: giveUp.map((a) => item(a, { ghost: true })) } : null;
    const finish = (hint, prompt = null) => ({ hint, groups: [...groups, doneGroup, giveUpGroup].filter(Boolean), prompt });

    // Questions asked of this seat: dialogs.
    if (byType("surrender_vote").length) {
      const s = view.surrender || {};
      return { hint: "Answer the surrender proposal.", groups: [], prompt: { title: "Surrender?", text: `${s.by || "A hero seat"} proposes that the heroes give up. Every other hero seat must accept.`, items: byType("surrender_vote").map((a) => item(a, { primary: !a.accept })) } };
    }
    if (byType("place_monster").length) {
      const p = view.prompt || {};
      const what = p.monster ? this.monsterName(p.monster) : "monster";
      return finish(`Click a lit cell next to ${p.finder ? this.heroName(p.finder) : "the hero"}.`, {
        title: `A hidden ${what.toLowerCase()}!`,
        text: `${p.finder ? this.heroName(p.finder) : "A hero"} found it in the treasure. Place it on a lit cell next to the hero (or pick one here).`,
        items: byType("place_monster").map((a) => item(a)),
        dock: "side",
      });
    }
    if (byType("parry").length || (view.phase === "K4P" && done.length)) {
      const attacks = view.attacks || [];
      const list = attacks.map((at) => `${this.figureName(at.by)} → ${this.heroName(at.target)}${at.parried ? " (parried)" : ""}`);
      return {
        hint: "Choose the attacks your heroes parry.",
        groups: giveUpGroup ? [giveUpGroup] : [],
        prompt: {
          title: "Parry!",
          text: `The monsters attack: ${list.join("; ") || "—"}. Each hero parries up to its parries; every other attack hits.`,
          items: [...byType("parry").map((a) => item(a, { primary: true })), ...done.map((a) => item(a))],
          dock: "side",
        },
      };
    }
    if (byType("play_blessing").length) {
      const card = view.my_blessing;
      return finish("Play your Blessing now, or keep it.", {
        title: `Your Blessing${card ? `: ${this.cardName(card)}` : ""}`,
        text: "A Blessing is played once, on one of your heroes on the board. Keep it for a later turn with the step's Done button.",
        items: [...byType("play_blessing").map((a) => item(a, { primary: true })), ...done.map((a) => item(a))],
        dock: "side",
      });
    }

    // Done already: the step waits for the other hero seats; Done can be taken back meanwhile.
    if (legal.length && legal.every((a) => OPTIONAL.has(a.type))) {
      return { hint: "You are done with this step; the other hero seats are still playing it.", groups: [{ title: "", items: legal.map((a) => item(a)) }], prompt: null };
    }

    // The Keeper's Blood step.
    const blood = [...byType("level_zorkal"), ...byType("play_ritual")];
    if (blood.length) groups.push({ title: `Blood step (pool ${view.blood ?? 0})`, items: blood.map((a) => item(a)) });

    // Summoning: pick a kind (or click any lit cell).
    const summons = legal.filter((a) => (a.type === "summon" || a.type === "summon_strong") && actionCell(a));
    let hint = "";
    if (summons.length) {
      const kinds = [...new Set(summons.map((a) => (a.type === "summon_strong" ? "strong" : a.monster)))];
      groups.push({
        title: "Summon which monster?",
        items: kinds.map((k) => ({
          label: k === "strong" ? "Strong (from the bag)" : this.monsterName(k),
          select: `mon:${k}`,
          selected: selection === `mon:${k}`,
          kind: "summon-kind",
          title: "Light only its cells",
        })),
      });
      const left = view.summon ? ` Allowance: ${view.summon.weak ?? 0} weak, ${view.summon.strong ?? 0} strong.` : "";
      hint = `Click a lit cell to summon there.${left}`;
    }

    // Figures that can act: pick one on the board or here.
    const actors = this.actors(legal);
    const fig = this.activeFigure(selection, legal);
    if (actors.length) {
      groups.push({
        title: actors.length > 1 ? "Pick a figure (or click it on the board)" : "",
        items: actors.map((id) => ({
          label: this.figureShort(id, view),
          select: `fig:${id}`,
          selected: fig === id,
          kind: "figure",
          title: `Act with ${this.figureName(id)}`,
        })),
      });
    }
    if (fig) {
      const mine = legal.filter((a) => actorOf(a) === fig);
      const cellMoves = mine.filter((a) => actionCell(a));
      const targets = mine.filter((a) => typeof a.target === "string");
      const other = mine.filter((a) => !actionCell(a) && typeof a.target !== "string");
      const tips = [];
      if (cellMoves.length) tips.push(`click a lit cell (${new Set(cellMoves.map((a) => key(...actionCell(a)))).size} reachable)`);
      if (targets.length) tips.push("click a ringed target");
      hint = `${this.figureName(fig)}: ${tips.join(", or ") || "choose below"}.`;
      // Attacks are clicked on the board (listed here too when few); other actions aimed at a
      // figure are always buttons.
      const shown = targets.filter((a) => a.type !== "attack" || targets.length <= 8);
      if (shown.length) groups.push({ title: "Targets", items: shown.map((a) => item(a)) });
      if (other.length) groups.push({ title: "Also", items: other.map((a) => item(a)) });
    } else if (actors.length) {
      hint = hint || "Click one of your ringed figures, then a lit cell or a target.";
    }
    const rest = legal.filter((a) => !actorOf(a) && !actionCell(a) && !["done", "surrender", "propose_surrender", "level_zorkal", "play_ritual"].includes(a.type));
    if (rest.length) groups.push({ title: "", items: rest.map((a) => item(a)) });
    if (!hint) hint = done.length ? `${DONE_LABEL[view.phase] || "Done"} when you are ready.` : "";
    return finish(hint);
  }

  figureShort(id, view) {
    if (id === ZORKAL) return `Zorkal (${view.zorkal?.move_left ?? 0} mv)`;
    const hero = view.heroes?.[id];
    if (hero) {
      const left = view.phase === "H2" ? ` (${hero.move_left} mv)` : view.phase === "H3" ? ` (${hero.actions} act)` : "";
      return `${this.heroName(id)}${left}`;
    }
    const m = view.monsters?.[id];
    if (m) return `${MONSTER_ABBR[m.type] || m.type} ${this.place(m.cell)}${m.move_left ? ` ${m.move_left}mv` : ""}`;
    return titleCase(id);
  }
}

function kv(label, value) {
  return h("span", {}, `${label} `, h("b", {}, value));
}
