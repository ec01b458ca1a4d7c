// Dorasure on a hex Canvas, drawn only from what the server sends: `static` (welcome.static =
// the game's static_info: board spaces, meter, Dragon health boxes, hero sheets) and each
// update's `view`, `legal` and `events`. The client holds no rules: lit hexes and buttons are
// exactly the listed actions. This class holds the state between updates (and each hero's
// rolls of its last turn, from the events) and hands each job to its module: layout, names,
// texts, selection, terrain, tiles, tokens, tracks, controls.
import { fitLayout } from "../../hexlayout.js";
import { availableBoardHeight } from "../../ui.js";
import { beginFrame, sizeCanvas } from "../canvas.js";
import { controls, heroPanels } from "./controls.js";
import { DorasureBoard, heroesOf, heroPos, mountainsOf } from "./layout.js";
import { DorasureNames } from "./names.js";
import { clickAction, litTargets, spaceTargets } from "./selection.js";
import { drawCursor, drawLands, drawMap, drawPath, drawTargets, TERRAIN_STYLE } from "./terrain.js";
import { drawMountains } from "./tiles.js";
import { terrainText } from "./texts.js";
import { drawHeroes, heroTokenColor } from "./tokens.js";
import { drawTracks } from "./tracks.js";

/** @returns {import("../generic.js").Renderer} */
export function createRenderer({ canvas, static: stat }) {
  return new DorasureRenderer(canvas, stat || {});
}

class DorasureRenderer {
  constructor(canvas, stat) {
    this.canvas = canvas;
    this.stat = stat;
    this.board = new DorasureBoard(stat);
    this.names = new DorasureNames(stat, this.board);
    this.view = null;
    this.legal = [];
    this.selection = null;
    this.targets = new Map(); // position id -> [actions]
    this.layout = null; // the HexLayout fitted to the canvas by resize()
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.cursor = null; // the keyboard cursor's space id, once a key moved it
    this.rolls = new Map(); // hero id -> the dice rows of its last turn
    this.openTexts = new Set(); // the texts the player opened in the panels (kept across updates)
    this.resize();
  }

  resize() {
    const parent = this.canvas.parentElement;
    const width = Math.max(320, parent ? parent.clientWidth : 800);
    const { w, h } = this.board.canvasSize(width, availableBoardHeight(this.canvas, 260));
    this.cssWidth = w;
    this.cssHeight = h;
    this.dpr = sizeCanvas(this.canvas, w, h);
    this.layout = fitLayout(this.board.spaces, w, h, 10);
    this.draw();
  }

  setState(view, { legal = [], seat = null, selection = null } = {}) {
    this.view = view || {};
    this.legal = legal;
    this.seat = seat;
    this.selection = selection;
    this.targets = litTargets(legal, selection);
    this.draw();
  }

  /** What draw() hands the modules' painters: the board and its layout, the catalogues, the view, the lit hexes. */
  scene() {
    return { board: this.board, layout: this.layout, stat: this.stat, names: this.names, view: this.view, targets: this.targets };
  }

  draw() {
    const ctx = beginFrame(this.canvas, this.dpr, this.cssWidth, this.cssHeight, (c) => {
      const g = c.createLinearGradient(0, 0, 0, this.cssHeight);
      g.addColorStop(0, "#2a2f3a");
      g.addColorStop(1, "#1d2129");
      return g;
    });
    if (!ctx) return;
    const scene = this.scene();
    drawMap(ctx, scene);
    if (this.view) {
      drawLands(ctx, scene);
      drawMountains(ctx, scene);
      drawPath(ctx, scene);
      drawTargets(ctx, scene);
      drawHeroes(ctx, scene);
      drawTracks(ctx, scene);
      if (this.cursor) drawCursor(ctx, scene, this.cursor);
    }
  }

  /** The listed action a click at (x, y) stands for, or an unlisted move to show the server's reason. */
  actionAt(x, y, legal, { selection } = {}) {
    const space = this.board.spaceAt(this.layout, x, y);
    if (!space) return null;
    return clickAction(space, this.board.nodeOf(space), legal, selection);
  }

  clickableAt(x, y) {
    const space = this.board.spaceAt(this.layout, x, y);
    return Boolean(space && this.targets.has(this.board.nodeOf(space)));
  }

  tooltipAt(x, y) {
    const space = this.board.spaceAt(this.layout, x, y);
    return space ? this.spaceText(space) : null;
  }

  /** A hex in words: its place, its terrain's rules, the Fang tile, the quest tile, the heroes there. */
  spaceText(space) {
    const terrain = this.terrainOf(space);
    const style = TERRAIN_STYLE[terrain];
    const where = this.names.place(this.board.nodeOf(space), this.view);
    const parts = [where.charAt(0).toUpperCase() + where.slice(1)];
    parts.push(terrainText(this.stat, terrain, style?.label));
    if (space.fang_site && this.stat.fang) parts.push("Fang site (▽)");
    const land = this.names.landAt(this.view, space.id);
    if (land) parts.push(`Fang tile: ${land.name}${land.text ? ` — ${land.text}` : ""}`);
    const mount = mountainsOf(this.view || {})[space.id];
    if (mount) parts.push(this.names.questSummary(mount));
    const here = heroesOf(this.view || {}).filter((hero) => this.board.cellsOf(heroPos(hero)).some((c) => c.id === space.id));
    if (here.length) parts.push(`Here: ${here.map((h) => `${this.names.heroName(h.id)} (Health ${h.hp}/${h.max_hp}${h.dead ? ", dead" : ""})`).join(", ")}`);
    return parts.join(" · ");
  }

  // The keyboard cursor (generic.js: cursorMove, cursorNext, cursorAct, cursorText, describeTargets).

  cursorMove(dx, dy) {
    this.cursor = this.cursor ? this.board.stepSpace(this.cursor, dx, dy) : this.startSpace();
    this.draw();
    return this.cursorText();
  }

  cursorNext(step = 1) {
    const ids = spaceTargets(this.legal, this.selection, this.board);
    if (!ids.length) return this.describeTargets();
    const at = ids.indexOf(this.cursor);
    this.cursor = ids[at < 0 ? (step > 0 ? 0 : ids.length - 1) : (at + (step > 0 ? 1 : -1) + ids.length) % ids.length];
    this.draw();
    return this.cursorText();
  }

  /** Where the cursor starts: the hero on turn's hex, else the first lit one, else the first space. */
  startSpace() {
    const hero = heroesOf(this.view || {}).find((x) => x.id === this.view?.current);
    const cell = hero && this.board.cellsOf(heroPos(hero))[0];
    return cell ? cell.id : spaceTargets(this.legal, this.selection, this.board)[0] || this.board.spaces[0]?.id || null;
  }

  cursorAct(legal = this.legal, { selection = this.selection } = {}) {
    const space = this.cursor && this.board.byId.get(this.cursor);
    return space ? clickAction(space, this.board.nodeOf(space), legal, selection) : null;
  }

  cursorText() {
    const space = this.cursor && this.board.byId.get(this.cursor);
    if (!space) return "";
    const act = this.cursorAct();
    let enter = "Enter does nothing here.";
    if (act && act.choose) enter = `Enter: choose ${act.choose.map((a) => this.actionLabel(a, this.seat)).join(", or ")}.`;
    else if (act) enter = `Enter: ${this.actionLabel(act, this.seat)}${this.legal.includes(act) ? "" : " (not a listed move: the server will say why)"}.`;
    return `${this.spaceText(space)}. ${enter}`;
  }

  describeTargets(legal = this.legal, { selection = this.selection } = {}) {
    const lit = [...litTargets(legal, selection).keys()].map((node) => this.names.place(node, this.view));
    const mountains = legal.filter((a) => typeof a.mountain === "string").map((a) => this.actionLabel(a, this.seat));
    const die = selection !== null && selection !== undefined ? ` with the ${selection} picked` : "";
    const parts = [];
    if (lit.length) parts.push(`${lit.length} lit hex${lit.length > 1 ? "es" : ""}${die}: ${lit.join(", ")}.`);
    if (mountains.length) parts.push(`On the map: ${mountains.join("; ")}.`);
    if (!parts.length) return legal.length ? "Nothing to do on the map; your choices are the buttons." : "Nothing for you to do now.";
    return parts.join(" ");
  }

  cursorPixel() {
    const space = this.cursor && this.board.byId.get(this.cursor);
    return space ? this.layout.hexToPixel(space.q, space.r) : null;
  }

  // The rest of the renderer interface (games/generic.js), each the job of one module.

  heroPanels(view, ctx) {
    return heroPanels({ names: this.names, stat: this.stat, rolls: this.rolls, open: this.openTexts }, view, ctx);
  }

  controls(view, legal, { seat, selection }) {
    return controls(view, legal, { seat, selection }, (a) => this.actionLabel(a, seat));
  }

  actionLabel(a, seat = null) {
    return this.names.actionLabel(a, seat, this.view);
  }

  turnText(view) {
    return this.names.turnText(view);
  }

  describeEvent(ev) {
    return this.names.describeEvent(ev, this.view);
  }

  /**
   * The dice of a batch of events; each hero's rows are kept for its card until its next turn
   * (`seq`, the update's, lets a page hand over older events late, as from the history).
   */
  diceFromEvents(events, { seq } = {}) {
    const rows = this.names.diceFromEvents(events);
    this.rolls = this.names.keepRolls(this.rolls, events, seq);
    return rows;
  }

  /** The dice on the table when one arrives (the movement in progress), also the card's until the events say more. */
  diceFromView(view) {
    const rows = this.names.diceFromView(view);
    if (rows.length && view.current && !this.rolls.has(view.current)) {
      this.rolls = new Map(this.rolls).set(view.current, { turn: null, rows: rows.map((row) => ({ seq: 0, row })) });
    }
    return rows;
  }

  // Geometry the e2e tests read through window.__dt.

  /** Centre of hex (q, r) in CSS pixels, relative to the canvas' top-left corner. */
  hexToPixel(q, r) {
    return this.layout.hexToPixel(q, r);
  }

  spaceToPixel(id) {
    return this.board.spaceToPixel(this.layout, id);
  }

  terrainOf(space) {
    return this.board.terrainOf(space, this.view);
  }

  tokenPixel(heroId) {
    return this.board.tokenPositions(this.layout, this.view).get(heroId) || null;
  }

  heroTokenColor(heroId) {
    return heroTokenColor(this.view, heroId);
  }

  get spaces() {
    return this.board.spaces;
  }

  get byId() {
    return this.board.byId;
  }
}
