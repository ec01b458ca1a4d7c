// The keyboard cursor on Dorn's grid: a cell moved with the arrow keys, or sent to the next
// cell where Enter would do something (a lit cell, a ringed target, one of the seat's own
// figures). Pure (no DOM): node tests it (tests/e2e/js/dorn_parts_cases.mjs).
import { key, sameCell } from "./layout.js";
import { actors, litCells, targetedFigures } from "./selection.js";

/** The cell one step (dx, dy) from `cell`, kept on a width × height board. */
export function stepCell(cell, dx, dy, width, height) {
  const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
  return [clamp(cell[0] + Math.sign(dx), width), clamp(cell[1] + Math.sign(dy), height)];
}

/**
 * The cells where Enter acts, in reading order (row by row): every lit cell, every ringed
 * target's cell and every cell of a figure the seat may pick. {cell, lit, targets, own}.
 */
export function boardTargets(legal, selection, figs) {
  const out = new Map();
  const at = (cell) => {
    const k = key(...cell);
    if (!out.has(k)) out.set(k, { cell, lit: [], targets: [], own: [] });
    return out.get(k);
  };
  for (const [k, actions] of litCells(legal, selection)) at(k.split(",").map(Number)).lit.push(...actions);
  const byId = new Map(figs.map((f) => [f.id, f]));
  for (const [id, actions] of targetedFigures(legal, selection)) {
    const f = byId.get(id);
    if (f) at(f.cell).targets.push(...actions);
  }
  for (const id of actors(legal)) {
    const f = byId.get(id);
    if (f) at(f.cell).own.push(id);
  }
  return [...out.values()].sort((a, b) => a.cell[1] - b.cell[1] || a.cell[0] - b.cell[0]);
}

/** The target after (step 1) or before (step -1) the cursor's cell in reading order, wrapping. */
export function nextTarget(cursor, targets, step = 1) {
  if (!targets.length) return null;
  if (!cursor) return targets[step > 0 ? 0 : targets.length - 1].cell;
  const order = (c) => c[1] * 1000 + c[0];
  const here = order(cursor);
  const after = step > 0 ? targets.find((t) => order(t.cell) > here) : [...targets].reverse().find((t) => order(t.cell) < here);
  return (after || targets[step > 0 ? 0 : targets.length - 1]).cell;
}

/**
 * The figure Enter means on a cell holding several (Argos): a ringed target first, then one of
 * the seat's own figures other than the picked one, then any figure there; null on an empty cell.
 */
export function figureForKeys(cell, figs, targeted, mine, active) {
  const here = figs.filter((f) => sameCell(f.cell, cell));
  return (
    here.find((f) => targeted.has(f.id) && f.id !== active)?.id ||
    here.find((f) => mine.includes(f.id) && f.id !== active)?.id ||
    here[0]?.id ||
    null
  );
}
