// Which listed action a Dorasure player is pointing at. The client holds no rules: a `move`
// goes to a position in one click, a `step` moves one space paying with one die. The
// selection is null or a picked die (then only its steps count). Pure (no DOM): legal
// actions and a selection in, actions out; node tests it (tests/e2e/js/dorasure_parts_cases.mjs).

const picked = (selection) => selection !== null && selection !== undefined;

/** The lit positions: position id -> the moves (no die picked) or the picked die's steps that go there. */
export function litTargets(legal, selection) {
  const targets = new Map();
  for (const a of legal) {
    if ((a.type === "move" || a.type === "step") && a.to !== undefined) {
      // With a die picked, only the single steps that die pays for light up.
      if (picked(selection) && (a.type === "move" || a.die !== selection)) continue;
      const list = targets.get(a.to) || [];
      list.push(a);
      targets.set(a.to, list);
    }
  }
  return targets;
}

/**
 * The listed action a click on `space` (position `node`) stands for: a move there, else the
 * smallest die's step there, else the quest or information of a mountain (a choice when both
 * are listed); during movement an unlisted move (so the player reads the server's reason); else null.
 */
export function clickAction(space, node, legal, selection) {
  const moves = picked(selection) ? [] : legal.filter((a) => a.type === "move" && a.to === node);
  if (moves.length) return moves[0];
  const steps = legal
    .filter((a) => a.type === "step" && a.to === node && (!picked(selection) || a.die === selection))
    .sort((a, b) => a.die - b.die);
  if (steps.length) return steps[0]; // the smallest die that the server says can pay for it
  const atMountain = legal.filter((a) => (a.mountain === space.id || a.target === space.id) && a.type !== "move");
  if (atMountain.length === 1) return atMountain[0];
  if (atMountain.length > 1) return { choose: atMountain, title: `At ${space.name || space.id}` };
  if (legal.some((a) => a.type === "move" || a.type === "step")) {
    // Not listed: ask anyway, so the player reads the rule that forbids it. A mountain is asked
    // as a step: the server's answer to a step names the reason (mountains are never entered),
    // its answer to a move only says the space cannot be reached.
    const step = legal.filter((a) => a.type === "step").sort((a, b) => a.die - b.die)[0];
    if (space.terrain === "mountain" && step) return { type: "step", to: node, die: picked(selection) ? selection : step.die };
    return { type: "move", to: node };
  }
  return null;
}

/**
 * The spaces where the keyboard's Enter acts, in reading order (row by row, west to east): one
 * hex of every lit position, and every mountain with a listed quest or gather. `board` is the
 * DorasureBoard (layout.js).
 */
export function spaceTargets(legal, selection, board) {
  const ids = new Set();
  for (const node of litTargets(legal, selection).keys()) {
    const cell = board.cellsOf(node)[0];
    if (cell) ids.add(cell.id);
  }
  for (const a of legal) if (typeof a.mountain === "string" && board.byId.has(a.mountain)) ids.add(a.mountain);
  return [...ids].map((id) => board.byId.get(id)).sort((a, b) => a.r - b.r || a.q - b.q).map((s) => s.id);
}
