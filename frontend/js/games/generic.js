// Fallback for a game without its own renderer: the view as readable text and
// every listed action as a button, so any registered game is playable at once.
import { h, titleCase } from "../ui.js";
import { fallbackActionLabel } from "./panels.js";

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
