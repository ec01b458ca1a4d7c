// Dorn's renderer, the module board.js loads for a Dorn table; its parts live in dorn/
// (renderer.js holds the state and hands each job to layout, names, selection, terrain,
// figures, panel and controls).
export { createRenderer } from "./dorn/renderer.js";
export { actionCell, actorOf } from "./dorn/selection.js";
export { TERRAIN_STYLE } from "./dorn/terrain.js";
