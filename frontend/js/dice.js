// Dice drawn as dice (CSS pips), tumbling briefly before they settle.
import { h } from "./ui.js";

const PIPS = {
  1: [5],
  2: [1, 9],
  3: [1, 5, 9],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};

function setFace(die, face) {
  die.dataset.face = String(face);
  die.setAttribute("aria-label", `die showing ${face}`);
  for (let cell = 1; cell <= 9; cell += 1) {
    die.children[cell - 1].classList.toggle("on", (PIPS[face] || []).includes(cell));
  }
}

export function dieElement(face, { note = "", tone = "" } = {}) {
  const die = h(`span.die${tone ? `.die-${tone}` : ""}`, { role: "img", title: note || undefined });
  for (let i = 0; i < 9; i += 1) die.append(h("i"));
  setFace(die, face);
  return die;
}

// The latest roll and the three before it.
const KEEP = 4;

const reduceMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export class DiceTray {
  constructor(el) {
    this.el = el;
    this.el.classList.add("dice-tray");
    this.empty();
  }

  empty() {
    this.el.replaceChildren(h("p.muted.small", {}, "Dice rolls appear here."));
  }

  /**
   * Show rolls: [{label, dice: [faces], notes?: [text per die], tones?: [...], animate}].
   * Only the latest KEEP are kept.
   */
  show(rolls, { animate = true } = {}) {
    if (!rolls.length) return;
    if (this.el.querySelector(".muted")) this.el.replaceChildren();
    for (const roll of rolls) {
      const { row, dice } = rollRow(roll);
      this.el.prepend(row);
      if (animate && !reduceMotion()) {
        dice.forEach((die, i) => {
          const final = roll.dice[i];
          die.classList.add("rolling");
          let ticks = 0;
          const timer = setInterval(() => {
            ticks += 1;
            setFace(die, 1 + Math.floor(Math.random() * 6));
            if (ticks >= 6 + i) {
              clearInterval(timer);
              setFace(die, final);
              die.classList.remove("rolling");
            }
          }, 70);
        });
      }
    }
    while (this.el.children.length > KEEP) this.el.lastElementChild.remove();
  }

  /** Rolls from before the ones shown (the table's history, oldest first): under them, while the tray has room. */
  showOlder(rolls) {
    if (!rolls.length) return;
    if (this.el.querySelector(".muted")) this.el.replaceChildren();
    for (const roll of [...rolls].reverse()) {
      if (this.el.children.length >= KEEP) break;
      this.el.append(rollRow(roll).row);
    }
  }
}

function rollRow(roll) {
  const dice = roll.dice.map((face, i) => dieElement(face, { note: roll.notes ? roll.notes[i] : "", tone: roll.tones ? roll.tones[i] : "" }));
  const row = h("div.dice-roll", {}, h("div.dice-label.small", {}, roll.label), h("div.dice-row", {}, dice));
  return { row, dice };
}
