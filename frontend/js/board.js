// What the live table and the replay share around a game's board: the renderer module of
// the table's game, the board's place on the page, its resizing and zoom, and the hooks the
// e2e tests (and curious players) read from window.__dt.
import { h } from "./ui.js";
import { BoardZoom } from "./zoom.js";

/** The renderer module of a game (games/<game>.js), or the generic one, which plays any game. */
export async function loadRenderer(game) {
  // Only a plain name becomes a module path.
  if (/^[a-z0-9_]+$/.test(String(game))) {
    try {
      return await import(`./games/${game}.js`);
    } catch (err) {
      console.error(err); // no renderer for this game, or a broken one: the generic one still plays it
    }
  }
  return import("./games/generic.js");
}

/**
 * The board's canvas on its stage in its box, the zoom buttons, and the hero panels under it;
 * the renderer refits the canvas when the stage or the window changes size (the board's height
 * follows the window's, which the observer alone does not see). The canvas is `role=img`: what
 * it shows is said in words by the turn banner, the panels and the live region.
 */
export function boardArea(label, renderer) {
  const canvas = h("canvas#board", { "aria-label": label, role: "img" });
  const stage = h("div.board-stage", {}, canvas);
  const wrap = h("div.board-wrap", {}, stage);
  const panels = h("div#hero-panels.hero-panels");
  const resize = () => renderer()?.resize();
  new ResizeObserver(resize).observe(stage);
  window.addEventListener("resize", resize);
  const zoom = new BoardZoom(wrap, stage, resize);
  const zoomBar = h(
    "div.zoom-bar",
    { role: "group", "aria-label": "Board zoom" },
    h("button#zoom-out.small", { type: "button", "aria-label": "Zoom out", onclick: () => zoom.zoomOut() }, "−"),
    h("button#zoom-fit.small", { type: "button", onclick: () => zoom.reset() }, "Fit"),
    h("button#zoom-in.small", { type: "button", "aria-label": "Zoom in", onclick: () => zoom.zoomIn() }, "+"),
  );
  // The zoom starts over when the screen turns: the stage's width no longer fits.
  window.addEventListener("orientationchange", () => zoom.reset());
  return { canvas, wrap, stage, panels, zoom, zoomBar };
}

/** Make the renderer's layout readable by the tests: window.__dt.renderer and its geometry. */
export function exposeRenderer(renderer) {
  window.__dt.renderer = renderer;
  for (const name of ["hexToPixel", "spaceToPixel", "cellToPixel"]) {
    if (typeof renderer[name] === "function") window.__dt[name] = (...args) => renderer[name](...args);
    else delete window.__dt[name];
  }
}
