// What Dorasure's terrains, hero sheets and marks say, for hover, tap and the legend: built
// from welcome.static (hero powers, quest, reward and land texts; terrain rules once static
// carries them) and the terrain styles' own labels until then. Pure (no DOM), so node tests
// it: tests/e2e/js/dorasure_words_cases.mjs.
import { titleCase } from "../../ui.js";

// Hero attributes: [id, name]. Spelled out: the cards used to say "Dng P" and "Know".
export const ATTRS = [
  ["move", "Move"],
  ["plains_danger", "Plains danger"],
  ["forest_danger", "Forest danger"],
  ["combat", "Combat"],
  ["search", "Search"],
  ["knowledge", "Knowledge"],
];

/**
 * A terrain's rules in words: from static.terrains ({threshold, enterable, rest, adventure,
 * share}) when the server sends it, else the board's own label (`fallback`).
 */
export function terrainText(stat, terrain, fallback) {
  const t = (stat.terrains || {})[terrain];
  if (!t) return fallback || titleCase(terrain);
  if (t.enterable === false) return `${titleCase(terrain)}: never entered`;
  return [
    `${titleCase(terrain)}: enter with a die of ${t.threshold} or more`,
    t.share ? "heroes may end a move here together" : "",
    t.rest ? `rest here for +${t.rest} Health` : "",
    t.adventure ? "go adventuring here" : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** A hero sheet's powers: [[title, text]] (resource, abilities, relic), from static.heroes[id].powers. */
export function heroPowers(sheet) {
  const p = (sheet && sheet.powers) || {};
  const out = [];
  if (p.resource) out.push(["Resource", p.resource]);
  for (const a of p.abilities || []) out.push(["Ability", a]);
  if (p.relic) out.push(["Relic", p.relic]);
  return out;
}

/**
 * The legend of the map's marks: [mark, meaning]. The Fang site's ▽ is listed only when the
 * Fang expansion is in play (only then is it drawn).
 */
export function legendEntries(stat) {
  return [
    stat.fang ? ["▽ (white, in a hex's corner)", "a Fang site: a Fang land tile lies here"] : null,
    ["Red tile with ?", "a quest tile, face down: gather information beside it to turn it up"],
    ["Cream tile", "a quest face up: its attribute and the total a quest attempt needs"],
    ["Green tile with ✓", "a solved quest, and the reward it gave"],
    ["Yellow flags", "points a failed attempt left on that quest: they count in the next attempt's total"],
    ["Gold rim", "the City's three hexes: one place"],
    ["Yellow dashed hex", "where the hero on turn may go now (with a die picked: where that die pays a step)"],
    ["White dashed line", "the path walked this turn"],
    ["Yellow ring round a token", "the hero whose turn it is"],
    ["Grey token with a red ×", "a dead hero"],
    ["Dragon Rampaging Meter", "the Dragon token's space; flames mark the fire spaces"],
    ["Dragon health", "boxes with a sword are lost; claw boxes strike back"],
  ].filter(Boolean);
}
