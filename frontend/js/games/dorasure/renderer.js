// Dorasure on a hex Canvas, drawn only from what the server sends: `static` (welcome.static =
// the game's static_info: board spaces, meter, Dragon health boxes, hero sheets) and each
// update's `view`, `legal` and `events`. The client holds no rules: lit hexes and buttons are
// exactly the listed actions. This class holds the state between updates and hands each job
// to its module: layout, names, selection, terrain, tokens, tracks, controls.
import { fitLayout } from "../../hexlayout.js";
import { availableBoardHeight, titleCase } from "../../ui.js";
import { beginFrame, sizeCanvas } from "../canvas.js";
import { eventText } from "../panels.js";
import { controls, heroPanels } from "./controls.js";
import { DorasureBoard, heroesOf, heroPos, mountainsOf } from "./layout.js";
import { DorasureNames } from "./names.js";
import { clickAction, litTargets } from "./selection.js";
import { drawLands, drawMap, drawMountains, drawPath, drawTargets, TERRAIN_STYLE } from "./terrain.js";
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

  setState(view, { legal = [], selection = null } = {}) {
    this.view = view || {};
    this.legal = legal;
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
    if (!space) return null;
    const terrain = this.terrainOf(space);
    const parts = [space.name || TERRAIN_STYLE[terrain]?.label.split(" (")[0] || titleCase(terrain)];
    parts.push(TERRAIN_STYLE[terrain]?.label || titleCase(terrain));
    if (space.fang_site) parts.push("Fang site");
    const land = this.names.landAt(this.view, space.id);
    if (land) parts.push(`Fang tile: ${land.name}${land.text ? ` — ${land.text}` : ""}`);
    const mount = mountainsOf(this.view || {})[space.id];
    if (mount) parts.push(this.names.questSummary(mount));
    const here = heroesOf(this.view || {}).filter((hero) => this.board.cellsOf(heroPos(hero)).some((c) => c.id === space.id));
    if (here.length) parts.push(`Here: ${here.map((x) => this.names.heroName(x.id)).join(", ")}`);
    return parts.join(" · ");
  }

  // The rest of the renderer interface (games/generic.js), each the job of one module.

  heroPanels(view, ctx) {
    return heroPanels(this.names, view, ctx);
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
    return eventText(ev);
  }

  diceFromEvents(events) {
    return this.names.diceFromEvents(events);
  }

  diceFromView(view) {
    return this.names.diceFromView(view);
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
