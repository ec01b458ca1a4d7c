// Dorasure's renderer, the module board.js loads for a Dorasure table; its parts live in
// dorasure/ (renderer.js holds the state and hands each job to layout, names, selection,
// terrain, tokens, tracks and controls).
export { createRenderer } from "./dorasure/renderer.js";
export { TERRAIN_STYLE } from "./dorasure/terrain.js";
