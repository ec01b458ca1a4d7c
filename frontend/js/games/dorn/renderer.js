// Dorn on a square-grid Canvas, drawn only from what the server sends: `static`
// (welcome.static = DornGame.static_info: the 24x20 board with its terrain rows, special
// cells and zones, and the hero, monster and card catalogues) and each update's `view` and
// `legal`. The client holds no rules: lit cells, target rings and buttons are exactly the
// listed actions (selection.js reads them). This class holds the state between updates and
// hands each job to its module: layout, names, texts, selection, cursor, terrain, figures,
// panel, controls.
import { availableBoardHeight, titleCase } from "../../ui.js";
import { beginFrame, sizeCanvas } from "../canvas.js";
import { seatOf } from "../panels.js";
import { controls, heroPanels } from "./controls.js";
import { boardTargets, figureForKeys, nextTarget, stepCell } from "./cursor.js";
import { drawCursor, drawFigures, drawItems, figureColor } from "./figures.js";
import { DornLayout, figures, key, sameCell } from "./layout.js";
import { DornNames, MARKER_LABEL, turnText } from "./names.js";
import { drawPanel } from "./panel.js";
import * as selecting from "./selection.js";
import { drawLit, drawTerrain, TERRAIN_STYLE } from "./terrain.js";
import { effectsOn, figureText } from "./texts.js";

/** @returns {import("../generic.js").Renderer} */
export function createRenderer({ canvas, static: stat, table }) {
  return new DornRenderer(canvas, stat || {}, table || null);
}

class DornRenderer {
  constructor(canvas, stat, table) {
    this.canvas = canvas;
    this.stat = stat;
    this.table = table;
    this.noDice = true; // Dorn rolls no dice: the table hides its dice tray
    this.layout = new DornLayout(stat.board || {});
    this.names = new DornNames(stat);
    this.view = null;
    this.legal = [];
    this.selection = null;
    this.cursor = null; // the keyboard cursor's cell, once a key moved it
    this.panelTips = [];
    this.openTexts = new Set(); // the card texts the player opened in the panels (kept across updates)
    this.resize();
  }

  resize() {
    const parent = this.canvas.parentElement;
    const avail = Math.max(320, parent ? parent.clientWidth : 900);
    this.layout.fit(avail, availableBoardHeight(this.canvas, 340));
    this.dpr = sizeCanvas(this.canvas, this.layout.cssWidth, this.layout.cssHeight);
    this.draw();
  }

  setState(view, { legal = [], selection = null } = {}) {
    this.view = view || {};
    this.legal = legal;
    this.selection = selection;
    this.lit = selecting.litCells(legal, selection); // "x,y" -> [actions]
    this.targeted = selecting.targetedFigures(legal, selection); // figure id -> [actions]
    this.draw();
  }

  /** What draw() and the modules' painters read: the layout, the catalogues, the view and the selection's figures. */
  scene() {
    return {
      layout: this.layout,
      stat: this.stat,
      names: this.names,
      view: this.view,
      figs: figures(this.view),
      active: selecting.activeFigure(this.selection, this.legal),
      effects: effectsOn(this.stat, this.names, this.view),
      actors: selecting.actors(this.legal),
      targeted: this.targeted,
    };
  }

  draw() {
    const ctx = beginFrame(this.canvas, this.dpr, this.layout.cssWidth, this.layout.cssHeight, "#17140f");
    if (!ctx) return;
    drawTerrain(ctx, this.layout, this.view);
    if (this.view) {
      const scene = this.scene();
      drawItems(ctx, scene);
      drawLit(ctx, this.layout, this.lit);
      drawFigures(ctx, scene);
      this.panelTips = drawPanel(ctx, scene);
      if (this.cursor) drawCursor(ctx, this.layout, this.cursor);
    }
  }

  figureName(id) {
    return this.names.figureName(id, this.view);
  }

  /** What a click at (x, y) means: an action to send, {select}, or {choose: [actions]}. */
  actionAt(px, py, legal, { selection } = {}) {
    const cell = this.layout.pixelToCell(px, py);
    if (!cell) return null;
    const clicked = this.layout.figureAt(figures(this.view), px, py);
    return selecting.clickAction(cell, clicked, legal, selection, (id) => this.figureName(id), (id) => Boolean(this.view?.heroes?.[id]));
  }

  clickableAt(px, py) {
    const cell = this.layout.pixelToCell(px, py);
    if (!cell) return false;
    if (this.lit?.has(key(...cell))) return true;
    const f = this.layout.figureAt(figures(this.view), px, py);
    return Boolean(f && (this.targeted?.has(f) || this.actors().includes(f)));
  }

  tooltipAt(px, py) {
    const cell = this.layout.pixelToCell(px, py);
    if (cell) return this.cellText(cell);
    const panel = this.layout.panelRect();
    if (px < panel.x || px > panel.x + panel.w) return null;
    return this.panelTips.find((t) => py >= t.y0 && py < t.y1)?.text || null;
  }

  /** A cell in words: where it is, its zone, its mark, what lies and stands on it. */
  cellText(cell) {
    const [x, y] = cell;
    const zone = this.layout.zoneAt(x, y);
    const gateOpen = zone === "gate" && this.view?.gate_open;
    const parts = [`(${x},${y}) ${gateOpen ? "Gate of Doom (open: floor)" : TERRAIN_STYLE[zone]?.label || titleCase(zone)}`];
    const m = this.layout.markers.get(key(x, y));
    if (m && MARKER_LABEL[m.kind]) parts.push(`${MARKER_LABEL[m.kind]}${m.kind === "TP" ? ` ${m.id.replace(/^TP(\d).*/, "$1")}` : ""}`);
    const v = this.view || {};
    if ((v.tokens || []).some((t) => sameCell(t, cell))) parts.push("a Treasure token (a hero who enters draws a Treasure card)");
    for (const [id, a] of Object.entries(v.artifacts || {})) if (sameCell(a.cell, cell) && !a.carrier) parts.push(`the Artifact ${this.names.artifactName(id)}`);
    for (const f of figures(this.view).filter((fig) => sameCell(fig.cell, cell))) parts.push(figureText(this.stat, this.names, f, v));
    return parts.join(" · ");
  }

  // The keyboard cursor (generic.js: cursorMove, cursorNext, cursorAct, cursorText, describeTargets).

  cursorMove(dx, dy) {
    const start = this.cursor || this.startCell();
    this.cursor = this.cursor ? stepCell(start, dx, dy, this.layout.width, this.layout.height) : start;
    this.draw();
    return this.cursorText();
  }

  cursorNext(step = 1) {
    const cell = nextTarget(this.cursor, boardTargets(this.legal, this.selection, figures(this.view)), step);
    if (cell) this.cursor = cell;
    this.draw();
    return cell ? this.cursorText() : this.describeTargets();
  }

  /** Where the cursor starts: the picked figure, else the first place Enter acts, else the board's middle. */
  startCell() {
    const active = selecting.activeFigure(this.selection, this.legal);
    const f = figures(this.view).find((fig) => fig.id === active);
    if (f) return [...f.cell];
    const first = boardTargets(this.legal, this.selection, figures(this.view))[0];
    return first ? [...first.cell] : [Math.floor(this.layout.width / 2), Math.floor(this.layout.height / 2)];
  }

  cursorAct(legal = this.legal, { selection = this.selection } = {}) {
    if (!this.cursor) return null;
    const figs = figures(this.view);
    const active = selecting.activeFigure(selection, legal);
    const clicked = figureForKeys(this.cursor, figs, selecting.targetedFigures(legal, selection), selecting.actors(legal), active);
    return selecting.clickAction(this.cursor, clicked, legal, selection, (id) => this.figureName(id), (id) => Boolean(this.view?.heroes?.[id]));
  }

  cursorText() {
    if (!this.cursor) return "";
    const act = this.cursorAct();
    return `${this.cellText(this.cursor)}. ${this.enterText(act)}`;
  }

  /** What Enter would do, in words. */
  enterText(act) {
    if (!act) return "Enter does nothing here.";
    if (act.select !== undefined) {
      const ask = selecting.askOf(act.select);
      if (ask) return `Enter: pick ${this.figureName(ask.other)} or move ${this.figureName(ask.fig)} here (you will be asked).`;
      return `Enter: pick ${this.figureName(String(act.select).replace(/^fig:/, ""))}.`;
    }
    if (act.choose) return act.choose.length ? `Enter: choose ${act.choose.map((a) => this.actionLabel(a)).join(", or ")}.` : act.title;
    return `Enter: ${this.actionLabel(act)}${this.legal.includes(act) ? "" : " (not a listed move: the server will say why)"}.`;
  }

  describeTargets(legal = this.legal, { selection = this.selection } = {}) {
    const targets = boardTargets(legal, selection, figures(this.view));
    if (!targets.length) return legal.length ? "Nothing to do on the board; your choices are the buttons." : "Nothing for you to do now.";
    const active = selecting.activeFigure(selection, legal);
    const lit = targets.filter((t) => t.lit.length).map((t) => `(${t.cell[0]},${t.cell[1]})`);
    const rings = targets.flatMap((t) => t.targets.map((a) => a.target)).filter((id, i, all) => all.indexOf(id) === i);
    const own = targets.flatMap((t) => t.own).filter((id) => id !== active);
    return [
      active ? `${this.figureName(active)} is picked.` : "",
      lit.length ? `${lit.length} lit cell${lit.length > 1 ? "s" : ""}: ${lit.join(", ")}.` : "",
      rings.length ? `Targets: ${rings.map((id) => this.figureName(id)).join(", ")}.` : "",
      own.length ? `${active ? "Or pick" : "Pick"}: ${own.map((id) => this.figureName(id)).join(", ")}.` : "",
    ].filter(Boolean).join(" ");
  }

  cursorPixel() {
    return this.cursor ? this.layout.cellToPixel(...this.cursor) : null;
  }

  // The rest of the renderer interface (games/generic.js), each the job of one module.

  heroPanels(view, ctx) {
    return heroPanels({ stat: this.stat, names: this.names, open: this.openTexts, legal: this.legal }, view, ctx);
  }

  controls(view, legal, { selection }) {
    this.view = view; // the labels asked for later (the table's "which one?" dialog) name this view's step
    return controls(this.names, view, legal, selection);
  }

  actionLabel(a) {
    return this.names.actionLabel(a, this.view);
  }

  turnText(view) {
    return turnText(view, this.stat);
  }

  describeEvent(ev) {
    return this.names.describeEvent(ev, this.view, (seat) => seatOf(this.table, seat)?.label || seat);
  }

  diceFromEvents() {
    return [];
  }

  actors(legal = this.legal) {
    return selecting.actors(legal);
  }

  owes(legal) {
    return selecting.owes(legal);
  }

  seatDone(view, seat) {
    return selecting.seatDone(view, seat);
  }

  keepSelection(selection, legal) {
    return selecting.keepSelection(selection, legal);
  }

  // Geometry the e2e tests read through window.__dt.

  cellToPixel(x, y) {
    return this.layout.cellToPixel(x, y);
  }

  figures() {
    return figures(this.view);
  }

  tokenPositions() {
    return this.layout.tokenPositions(figures(this.view));
  }

  figurePixel(id) {
    const p = this.tokenPositions().get(id);
    return p ? { x: p.x, y: p.y } : null;
  }

  figureColor(id) {
    return figureColor(id, this.stat, this.view);
  }

  zoneAt(x, y) {
    return this.layout.zoneAt(x, y);
  }

  get cell() {
    return this.layout.cell;
  }

  get width() {
    return this.layout.width;
  }

  get height() {
    return this.layout.height;
  }

  get specials() {
    return this.layout.specials;
  }
}
