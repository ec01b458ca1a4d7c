// Clocks a host can give a table (POST /api/tables turn_clock_seconds, prompt_timeout_seconds),
// and how a table's clocks are said to the players.
import { h } from "./ui.js";

/** Turn clock presets: the longest any one decision may take before the server answers by default. */
export const CLOCK_PRESETS = [
  { id: "none", label: "No turn clock", turn: null, prompt: 60 },
  { id: "relaxed", label: "Relaxed: 5 minutes a decision", turn: 300, prompt: 120 },
  { id: "standard", label: "Standard: 2 minutes a decision", turn: 120, prompt: 60 },
  { id: "blitz", label: "Blitz: 30 seconds a decision", turn: 30, prompt: 15 },
];

/** How long an answer owed outside one's turn (a parry, a prompt) may wait. */
export const PROMPT_TIMEOUTS = [15, 30, 60, 120, 300];

export function duration(seconds) {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s % 60 === 0) return `${s / 60} min`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** "Turn clock 30 s a decision · answers outside a turn 15 s", for the waiting room and the banner. */
export function clockText(table) {
  const turn = table.turn_clock_seconds;
  const prompt = table.prompt_timeout_seconds;
  const parts = [turn ? `Turn clock: ${duration(turn)} a decision` : "No turn clock"];
  if (prompt) parts.push(`answers owed outside a turn: ${duration(prompt)}`);
  return parts.join(" · ");
}

/** The lobby's clock fields: a preset and the prompt timeout (which follows the preset until changed). */
export function clockFields() {
  const preset = h(
    "select#clock-preset",
    {},
    CLOCK_PRESETS.map((p) => h("option", { value: p.id, selected: p.id === "none" }, p.label)),
  );
  const prompt = h(
    "select#prompt-timeout",
    {},
    PROMPT_TIMEOUTS.map((s) => h("option", { value: String(s), selected: s === 60 }, duration(s))),
  );
  let promptTouched = false;
  prompt.addEventListener("change", () => (promptTouched = true));
  preset.addEventListener("change", () => {
    if (!promptTouched) prompt.value = String(CLOCK_PRESETS.find((p) => p.id === preset.value).prompt);
  });
  return {
    el: h(
      "div.clock-fields",
      {},
      h("label.field", {}, h("span", {}, "Turn clock"), preset),
      h(
        "label.field",
        {},
        h("span", {}, "Time for answers owed outside a turn"),
        prompt,
        h("small.help", {}, "When time runs out the server takes the game's default answer, so nobody waits for ever."),
      ),
    ),
    read() {
      const p = CLOCK_PRESETS.find((x) => x.id === preset.value) || CLOCK_PRESETS[0];
      return { turn_clock_seconds: p.turn, prompt_timeout_seconds: Number(prompt.value) };
    },
  };
}
