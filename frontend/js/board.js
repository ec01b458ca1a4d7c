// What the live table and the replay share around a game's board: the renderer module of
// the table's game, the board's place on the page and its resizing, seat names, and the
// hooks the e2e tests (and curious players) read from window.__dt.
import { h, titleCase } from "./ui.js";
import { seatOf } from "./games/panels.js";

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
 * The board's canvas in its wrapper and the hero panels under it; the renderer refits the
 * canvas when the wrapper or the window changes size (the board's height follows the window's,
 * which the observer alone does not see).
 */
export function boardArea(label, renderer) {
  const canvas = h("canvas#board", { "aria-label": label });
  const wrap = h("div.board-wrap", {}, canvas);
  const panels = h("div#hero-panels.hero-panels");
  const resize = () => renderer()?.resize();
  new ResizeObserver(resize).observe(wrap);
  window.addEventListener("resize", resize);
  return { canvas, wrap, panels };
}

/** Make the renderer's layout readable by the tests: window.__dt.renderer and its geometry. */
export function exposeRenderer(renderer) {
  window.__dt.renderer = renderer;
  for (const name of ["hexToPixel", "spaceToPixel", "cellToPixel"]) {
    if (typeof renderer[name] === "function") window.__dt[name] = (...args) => renderer[name](...args);
    else delete window.__dt[name];
  }
}

export function seatLabel(table, seat) {
  const s = seatOf(table, seat);
  return s ? s.label : titleCase(seat);
}
