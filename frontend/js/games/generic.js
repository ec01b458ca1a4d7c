// Fallback for a game without its own renderer: the view as readable text and
// every listed action as a button, so any registered game is playable at once.
import { h, titleCase } from "../ui.js";

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

  hexToPixel() {
    return null;
  }

  spaceToPixel() {
    return null;
  }

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
    return view && view.current ? `${titleCase(view.current)}'s turn` : "";
  }

  describeEvent(ev) {
    return ev.text || titleCase(ev.kind);
  }

  diceFromEvents(events) {
    return events
      .filter((ev) => Array.isArray(ev.dice))
      .map((ev) => ({ label: titleCase(ev.kind), dice: ev.dice.filter(Number.isInteger) }));
  }

  controls(view, legal) {
    return {
      hint: "",
      groups: [{ title: "", items: legal.map((a) => ({ action: a, label: a.label || `${titleCase(a.type)} ${JSON.stringify(Object.fromEntries(Object.entries(a).filter(([k]) => k !== "type")))}` })) }],
      prompt: null,
    };
  }
}
