// What Dorn's hero abilities and special attacks are called and do, read from welcome.static's
// hero catalogue (backend/games/dorn/data/heroes.json: each hero's `basic` attacks and its
// `abilities`, content 2.3), with a humanised id where the catalogue has no entry. Which
// group a button goes in ("Attacks", "Spells", "Abilities") comes from the entry's kind.
// Pure (no DOM), so node tests it: tests/e2e/js/dorn_parts_cases.mjs.
import { titleCase } from "../../ui.js";

/** "alm.fireball" -> "Fireball", "cho.bloodyrun" -> "Bloodyrun". */
export function humanise(id) {
  return titleCase(String(id).split(".").pop().replace(/_/g, " "));
}

/** A hero's ability entries, whatever shape the catalogue gives them (a list, or id -> entry). */
function entries(sheet) {
  const list = sheet?.abilities;
  if (Array.isArray(list)) return list.filter((e) => e && typeof e === "object");
  if (list && typeof list === "object") return Object.entries(list).map(([id, e]) => ({ id, ...(typeof e === "object" ? e : { text: String(e) }) }));
  return [];
}

/** The catalogue's entry for an ability or attack id (looked up on the hero first, then on every hero), or null. */
export function abilityEntry(stat, heroId, id) {
  const heroes = stat.heroes || {};
  const order = [heroes[heroId], ...Object.values(heroes)].filter(Boolean);
  for (const sheet of order) {
    const found = entries(sheet).find((e) => e.id === id) || (sheet.basic || []).find((e) => e.id === id);
    if (found) return found;
  }
  return null;
}

/** An ability's name: the catalogue's (capitalised), else its humanised id. */
export function abilityName(stat, heroId, id) {
  const e = abilityEntry(stat, heroId, id);
  return e && e.name ? titleCase(e.name) : humanise(id);
}

/** An ability's effect text from the catalogue ("" when it has none). */
export function abilityText(stat, heroId, id) {
  const e = abilityEntry(stat, heroId, id);
  if (!e) return "";
  for (const k of ["text", "effect", "description"]) if (typeof e[k] === "string" && e[k]) return e[k];
  return "";
}

// The catalogue's kinds (content 2.3: WPN, SPL, SPL-D, MOV, TRG, PAS, HEAL, or in words).
const KIND_WORDS = {
  weapon: "weapon attack (one action)",
  spell: "spell (one action)",
  move: "movement ability",
  trigger: "triggered, free",
  passive: "always on",
  heal: "heals in the Heal step",
  WPN: "weapon attack",
  SPL: "spell",
  "SPL-D": "difficult spell (costs 1 life)",
  MOV: "movement ability",
  TRG: "triggered",
  PAS: "always on",
  HEAL: "heals in the Heal step",
};

/** An ability's kind in words ("" when the catalogue has none). */
export function abilityKind(stat, heroId, id) {
  const e = abilityEntry(stat, heroId, id);
  const kind = e && (e.kind || e.class);
  if (!kind) return "";
  return KIND_WORDS[kind] || KIND_WORDS[String(kind).toUpperCase()] || String(kind).replace(/_/g, " ");
}

/** Which group of the controls an action goes in: "Attacks", "Spells" or "Abilities". */
export function abilityGroup(stat, a) {
  if (a.type === "attack") return "Attacks";
  const e = abilityEntry(stat, a.hero, a.ability);
  const kind = String((e && (e.kind || e.class)) || "");
  if (/^wpn|weapon|attack/i.test(kind)) return "Attacks";
  if (/^spl|spell/i.test(kind)) return "Spells";
  return "Abilities";
}

/** The abilities a hero has at `level` (entries with a level above it are left out), for the hero's card. */
export function heroAbilities(stat, heroId, level = 1) {
  return entries((stat.heroes || {})[heroId]).filter((e) => {
    const lv = e.level ?? e.lv;
    if (Array.isArray(e.levels)) return e.levels.includes(level);
    return lv === undefined || lv <= level;
  });
}

/** What an entry's numbers say, in words (its range, life cost, limits, heal, bonus). */
function facts(e) {
  const at = (v) => (Array.isArray(v) ? v[0] : v);
  const out = [];
  if (Array.isArray(e.levels) && e.levels.length && e.levels[0] > 1) out.push(`from level ${e.levels[0]}`);
  if (e.range !== undefined) out.push(`range ${at(e.range)}`);
  if (e.damage !== undefined) out.push(`${at(e.damage)} damage`);
  if (e.heal) out.push(`heals ${e.heal}${e.most ? ` each, up to ${e.most} heroes` : ""}`);
  if (e.bonus) out.push(`+${e.bonus} movement`);
  if (e.life_cost) out.push(`costs ${e.life_cost} life${e.free_from ? ` (free from level ${e.free_from})` : ""}`);
  if (e.once) out.push("once per turn");
  if (e.zorkal === false) out.push("not against Zorkal");
  return out.join(", ");
}

/** An ability's hover line: "Name (kind): its text [its numbers in words]" — the numbers (range,
 * life cost, once per turn…) beside the text, which does not always repeat them. */
export function abilityLine(stat, heroId, id) {
  const e = abilityEntry(stat, heroId, id);
  const kind = abilityKind(stat, heroId, id);
  const said = abilityText(stat, heroId, id);
  const numbers = e ? facts(e) : "";
  const text = said && numbers ? `${said} [${numbers}]` : said || numbers;
  return `${abilityName(stat, heroId, id)}${kind ? ` (${kind})` : ""}${text ? `: ${text}` : ""}`;
}
