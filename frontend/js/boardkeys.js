// Playing on the board from the keyboard (issue 13, point 9): the live table's canvas takes
// the focus; arrow keys, Tab / Shift+Tab and Enter / Space drive the renderer's cursor
// (games/generic.js: cursorMove, cursorNext, cursorAct), what Enter means goes the way of a
// board click (moves.js), and the cursor's words go to the page's live region and tooltip.

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export class BoardKeys {
  /** @param {object} table the LiveTable: its canvas, renderer, moves, announcer, tooltip and selection */
  constructor(table) {
    this.t = table;
    // The places Tab visited since the board took the focus: once Tab comes back to one, every
    // target was offered and the next Tab leaves the board for the buttons (no keyboard trap).
    this.visited = new Set();
    const canvas = table.canvas;
    canvas.tabIndex = 0;
    // An application: a screen reader passes the arrow keys to the page instead of reading on.
    canvas.setAttribute("role", "application");
    canvas.setAttribute("aria-roledescription", "game board");
    canvas.setAttribute("aria-label", "Game board. Arrow keys move the cursor, Tab jumps to the next place you can act on, Enter or Space acts there.");
    canvas.addEventListener("keydown", (ev) => this.onKey(ev));
    canvas.addEventListener("focus", () => this.visited.clear());
    canvas.addEventListener("blur", () => (this.t.tooltip.hidden = true));
  }

  get renderer() {
    return this.t.renderer?.cursorMove ? this.t.renderer : null;
  }

  onKey(ev) {
    const r = this.renderer;
    if (!r || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key in ARROWS) {
      ev.preventDefault(); // not the board box's scroll
      this.visited.clear();
      this.said(r.cursorMove(...ARROWS[ev.key]));
    } else if (ev.key === "Tab") {
      this.onTab(ev, r);
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault(); // Space would scroll the page
      this.visited.clear();
      this.act(r);
    } else if (ev.key === "Escape") {
      this.t.tooltip.hidden = true;
    }
  }

  /** Tab on the board: the next target while there is one not yet offered, else out of the board. */
  onTab(ev, r) {
    const text = r.cursorNext(ev.shiftKey ? -1 : 1);
    const at = r.cursorPixel?.();
    const key = at ? `${Math.round(at.x)},${Math.round(at.y)}` : null;
    const legal = this.t.moves.legal();
    // describeTargets() in place of the cursor's words: there is no target at all.
    const none = !key || text === r.describeTargets(legal, { selection: this.t.selection });
    if (none || this.visited.has(key)) {
      this.visited.clear();
      this.t.tooltip.hidden = true;
      return; // the browser moves the focus on
    }
    ev.preventDefault();
    this.visited.add(key);
    this.said(text);
  }

  act(r) {
    const t = this.t;
    const d = t.current;
    if (!d || !t.activeSeat || t.moves.busy) return;
    t.moves.boardAction(r.cursorAct(t.moves.legal(), { selection: t.selection, view: d.view }));
    // The cursor stays; its words now say what Enter does with the new selection.
    if (r.cursorText?.()) this.said(r.cursorText());
  }

  /** The cursor's words to the live region (unless `quiet`), and its tooltip at the cursor. */
  said(text, { quiet = false } = {}) {
    const t = this.t;
    if (text && !quiet) t.announcer.say(text);
    const at = this.renderer?.cursorPixel?.();
    const tip = at && (t.renderer.tooltipAt?.(at.x, at.y) || text);
    if (!tip) {
      t.tooltip.hidden = true;
      return;
    }
    t.tooltip.textContent = tip;
    t.tooltip.hidden = false;
    // The tip sits in the board's box, which scrolls when the board is zoomed.
    const box = t.boardWrap.getBoundingClientRect();
    const rect = t.canvas.getBoundingClientRect();
    t.tooltip.style.left = `${rect.left - box.left + t.boardWrap.scrollLeft + at.x + 14}px`;
    t.tooltip.style.top = `${rect.top - box.top + t.boardWrap.scrollTop + at.y + 14}px`;
  }

  /** Whether the board has the focus and its cursor stands somewhere. */
  get active() {
    return Boolean(this.renderer && document.activeElement === this.t.canvas && this.renderer.cursorText());
  }

  /** After an update (the table's announceTargets says the words): the tooltip follows the new board. */
  update() {
    this.visited.clear();
    if (this.active) this.said(this.renderer.cursorText(), { quiet: true });
  }
}
