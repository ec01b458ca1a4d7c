// Fallback for a game without its own renderer: the view as readable text and
// every listed action as a button, so any registered game is playable at once.
// The renderer interface every game's module meets is described here, once.
import { h, titleCase } from "../ui.js";
import { fallbackActionLabel } from "./panels.js";

/**
 * What a game's module (games/<game>.js) gives the live table (table.js), the replay
 * (replay.js) and board.js: `createRenderer({canvas, static, table})` returns a Renderer.
 * `static` is welcome.static, `view` and `legal` are the server's, sent back verbatim.
 * The members in [brackets] are optional: table.js probes for each before it uses it.
 *
 * @typedef {object} Renderer
 * @property {() => void} resize Refit the canvas to its wrapper and the window, and redraw.
 * @property {(view: object, opts: {legal?: object[], seat?: string|null, selection?: *}) => void} setState
 *   Draw a view; `legal` are the shown seat's actions (none for a spectator or a replay).
 * @property {(x: number, y: number, legal: object[], ctx: {selection: *, view: object}) => (object|{select: *}|{choose: object[], title?: string}|null)} actionAt
 *   A board click (CSS px from the canvas' corner): an action to send, a selection to make, a choice to ask, or nothing.
 *   `{choose: [], title}` (no actions) explains why the click does nothing: show the title as a message.
 * @property {(view: object, legal: object[], opts: {seat: string, selection: *}) => Plan} controls
 * @property {(view: object, ctx: {table?: object, connected?: Set<string>, mine?: string[], active?: string|null, toAct?: string[]}) => Element} heroPanels
 *   The panels under the board.
 * @property {(view: object) => string} turnText The turn banner's line.
 * @property {(ev: object) => (string|null)} describeEvent A log line for an event.
 * @property {(events: object[], opts?: {seq?: number}) => DiceRow[]} diceFromEvents The rolls in a batch of events, for the dice tray.
 *   Pass the update's `seq` when events may come out of order (history pages after live updates): a renderer that keeps
 *   rolls between updates (Dorasure: each hero's last turn) slots them in by it.
 * @property {(view: object) => DiceRow[]} [diceFromView] Dice already on the table when one arrives.
 * @property {(selection: *, legal: object[]) => *} [keepSelection] The selection kept across an update (else it is cleared).
 * @property {(legal: object[]) => boolean} [owes] False when the listed actions are only optional ones: no "your turn", no hot-seat switch.
 * @property {(view: object, seat: string) => boolean} [seatDone] A seat to leave out of "Waiting for" and the panels' due marks.
 * @property {(x: number, y: number) => (string|null)} [tooltipAt] The board's tooltip.
 * @property {(x: number, y: number) => boolean} [clickableAt] Whether the cursor is a pointer there.
 * @property {(action: object) => string} [actionLabel] A button's words (the "which one?" dialog, the replay's log).
 * @property {boolean} [noDice] The game rolls no dice: the table hides its dice tray.
 * @property {(q: number, r: number) => {x: number, y: number}} [hexToPixel] A hex's centre (board.js exposes it on window.__dt for the e2e tests).
 * @property {(id: string) => ({x: number, y: number}|null)} [spaceToPixel] A space's centre (exposed likewise).
 * @property {(x: number, y: number) => {x: number, y: number}} [cellToPixel] A square cell's centre (exposed likewise).
 *
 * The keyboard cursor (both board renderers have it; the page wires the keys and reads the
 * returned sentences to an aria-live region). The cursor is drawn on the board once a key moved it.
 * @property {(dx: number, dy: number) => string} [cursorMove] Arrow keys: move one cell or hex (dx, dy in -1..1; the first press
 *   puts the cursor on the picked figure or the hero on turn). Returns cursorText().
 * @property {(step?: number) => string} [cursorNext] Tab / Shift+Tab: jump to the next (1) or previous (-1) place where Enter
 *   acts (lit cells and hexes, targets, one's own figures), in reading order. Returns cursorText(), or describeTargets() when there is none.
 * @property {(legal: object[], ctx: {selection: *, view?: object}) => (object|{select: *}|{choose: object[], title?: string}|null)} [cursorAct]
 *   Enter: what a click at the cursor would mean (actionAt's answer); the page handles it as a click.
 * @property {() => string} [cursorText] The cursor's place in words (its tooltip) and what Enter would do there.
 * @property {(legal?: object[], ctx?: {selection: *}) => string} [describeTargets] The legal targets on the board now, in one sentence
 *   (announce it after every update that changes them).
 * @property {() => ({x: number, y: number}|null)} [cursorPixel] The cursor's centre (CSS px), to place the tooltip there.
 */

/**
 * The controls for the shown seat. An item is a button: `{action, label}` sends the action,
 * `{select, label}` changes the selection (`primary`, `ghost`, `selected`, `kind`, `title` style it);
 * `prompt` opens a dialog of items (`dock: "side"` keeps the board visible).
 *
 * @typedef {object} Plan
 * @property {string} hint
 * @property {{title: string, items: object[]}[]} groups
 * @property {{title: string, text?: string, items: object[], dock?: string}|null} prompt
 */

/** @typedef {{label: string, dice: number[], notes?: string[], tones?: string[]}} DiceRow A row of the dice tray (dice.js): faces, and a note and a tone per die. */

/** @returns {Renderer} */
export function createRenderer({ canvas }) {
  return new GenericRenderer(canvas);
}

class GenericRenderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.view = null;
    canvas.hidden = true;
  }

  resize() {}

  setState(view) {
    this.view = view;
  }

  actionAt() {
    return null;
  }

  heroPanels(view) {
    return h("pre.view-dump", {}, JSON.stringify(view, null, 2));
  }

  turnText(view) {
    const who = view && (view.current || view.turn);
    return typeof who === "string" ? `${titleCase(who)}'s turn` : "";
  }

  describeEvent(ev) {
    if (ev.text) return ev.text;
    const details = Object.entries(ev)
      .filter(([k, v]) => k !== "kind" && (typeof v !== "object" || v === null))
      .map(([k, v]) => `${k} ${v}`);
    return `${titleCase(ev.kind)}${details.length ? ` (${details.join(", ")})` : ""}`;
  }

  diceFromEvents(events) {
    const out = [];
    for (const ev of events) {
      const dice = Array.isArray(ev.dice) ? ev.dice.filter(Number.isInteger) : Number.isInteger(ev.die) ? [ev.die] : [];
      if (dice.length) out.push({ label: `${ev.seat ? `${ev.seat}: ` : ""}${titleCase(ev.kind)}`, dice });
    }
    return out;
  }

  controls(view, legal) {
    return {
      hint: "",
      groups: [{ title: "", items: legal.map((a) => ({ action: a, label: a.label || fallbackActionLabel(a) })) }],
      prompt: null,
    };
  }
}
