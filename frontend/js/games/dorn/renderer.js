// Dorn on a square-grid Canvas, drawn only from what the server sends: `static`
// (welcome.static = DornGame.static_info: the 24x20 board with its terrain rows, special
// cells and zones, and the hero, monster and card catalogues) and each update's `view` and
// `legal`. The client holds no rules: lit cells, target rings and buttons are exactly the
// listed actions (selection.js reads them). This class holds the state between updates and
// hands each job to its module: layout, names, selection, terrain, figures, panel, controls.
import { availableBoardHeight, titleCase } from "../../ui.js";
import { beginFrame, sizeCanvas } from "../canvas.js";
import { eventText } from "../panels.js";
import { controls, heroPanels } from "./controls.js";
import { drawFigures, drawItems, figureColor } from "./figures.js";
import { DornLayout, figures, key, sameCell } from "./layout.js";
import { DornNames, MARKER_LABEL, turnText } from "./names.js";
import { drawPanel } from "./panel.js";
import * as selecting from "./selection.js";
import { drawLit, drawTerrain, TERRAIN_STYLE } from "./terrain.js";

/** @returns {import("../generic.js").Renderer} */
export function createRenderer({ canvas, static: stat }) {
  return new DornRenderer(canvas, stat || {});
}

class DornRenderer {
  constructor(canvas, stat) {
    this.canvas = canvas;
    this.stat = stat;
    this.noDice = true; // Dorn rolls no dice: the table hides its dice tray
    this.layout = new DornLayout(stat.board || {});
    this.names = new DornNames(stat);
    this.view = null;
    this.legal = [];
    this.selection = null;
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
      drawPanel(ctx, scene);
    }
  }

  /** What a click at (x, y) means: an action to send, {select}, or {choose: [actions]}. */
  actionAt(px, py, legal, { selection } = {}) {
    const cell = this.layout.pixelToCell(px, py);
    if (!cell) return null;
    const clicked = this.layout.figureAt(figures(this.view), px, py);
    return selecting.clickAction(cell, clicked, legal, selection, (id) => this.names.figureName(id, this.view));
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
    if (!cell) return null;
    const [x, y] = cell;
    const zone = this.layout.zoneAt(x, y);
    const parts = [`(${x},${y}) ${TERRAIN_STYLE[zone]?.label || titleCase(zone)}`];
    const m = this.layout.markers.get(key(x, y));
    if (m && MARKER_LABEL[m.kind]) parts.push(`${MARKER_LABEL[m.kind]} ${m.id}`);
    const v = this.view || {};
    const names = this.names;
    if ((v.tokens || []).some((t) => sameCell(t, cell))) parts.push("a Treasure token");
    for (const [id, a] of Object.entries(v.artifacts || {})) if (sameCell(a.cell, cell) && !a.carrier) parts.push(names.artifactName(id));
    for (const f of figures(this.view).filter((f) => sameCell(f.cell, cell))) {
      if (f.kind === "hero") parts.push(`${names.heroName(f.id)} (life ${f.data.life}/${f.data.max_life})`);
      else if (f.kind === "monster") parts.push(`${names.monsterName(f.data.type)} (life ${f.data.life}${f.data.waiting ? ", waiting" : ""}${f.data.bat ? ", bat form" : ""})`);
      else if (f.kind === "zorkal") parts.push(`Zorkal (level ${f.data.level}, life ${f.data.life})`);
      else parts.push(`${titleCase(f.data.kind || "obstacle")} (life ${f.data.life})`);
    }
    return parts.join(" · ");
  }

  // The rest of the renderer interface (games/generic.js), each the job of one module.

  heroPanels(view, ctx) {
    return heroPanels({ stat: this.stat, names: this.names }, view, ctx);
  }

  controls(view, legal, { selection }) {
    this.view = view; // the labels asked for later (the table's "which one?" dialog) name this view's step
    return controls(this.names, view, legal, selection);
  }

  actionLabel(a) {
    return this.names.actionLabel(a, this.view);
  }

  turnText(view) {
    return turnText(view);
  }

  describeEvent(ev) {
    return eventText(ev);
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
