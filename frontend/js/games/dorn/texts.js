// What Dorn's cards, figures and marks say, for hover and tap: built only from welcome.static
// (the catalogues' fields, and a card's `text` once the server sends it) and the view. Nothing
// here knows a card the seat does not hold: callers pass only the cards the view gives them.
// Pure (no DOM), so node tests it: tests/e2e/js/dorn_parts_cases.mjs.
import { titleCase } from "../../ui.js";
import { ZORKAL } from "./layout.js";
import { obstacleName } from "./names.js";

// The step names the catalogues' item windows use.
const WINDOW = { H2: "the Movement step", H3: "the Attack step" };

// A Ritual's duration, from the catalogue's value.
const DURATION = {
  permanent: "stays in play for the rest of the game",
  one_shot: "one-shot, then discarded",
  this_keeper_turn: "lasts this Keeper turn",
  next_hero_turn: "lasts until the end of the next hero turn",
};

// What an attack's `reach` means on the grid (the words of the rules' own WHY table).
const REACH = {
  adjacent: "melee (next to it)",
  pike: "pike (exactly 2 cells in a straight line, the middle cell clear)",
  shot: "shooting (in range, with a clear line of sight)",
  magic: "magic (a path around corners, not past monsters)",
};

function join(parts) {
  return parts.filter(Boolean).join(" · ");
}

/** The catalogue entry of a card and its deck ("ritual", "blessing", "treasure"), or null. */
function cardEntry(stat, id) {
  for (const [deck, kind] of [["rituals", "ritual"], ["blessings", "blessing"], ["treasures", "treasure"]]) {
    const c = (stat[deck] || {})[id];
    if (c) return { kind, card: c };
  }
  return null;
}

/** What an item does, from its catalogue fields (until the server sends the card's text). */
function itemEffect(c) {
  const bits = [];
  if (c.heal) bits.push(`heals ${c.heal}`);
  if (c.move) bits.push(`+${c.move} movement`);
  if (c.actions) bits.push(`+${c.actions} action${c.actions > 1 ? "s" : ""}`);
  if (c.damage) bits.push(`${c.damage} damage`);
  if (c.range) bits.push(`range ${c.range}`);
  if (c.area) bits.push(`area ${c.area}`);
  if (c.monster) bits.push(`a hidden ${c.monster} appears`);
  if (!bits.length && c.effect && c.effect !== "nothing") bits.push(titleCase(c.effect));
  if (c.effect === "nothing") bits.push("nothing happens");
  return bits.join(", ");
}

/**
 * A card's words: {name, kind, facts, text}. `facts` are the catalogue's numbers in words;
 * `text` is the card's effect when static carries it ("" until then).
 */
export function cardText(stat, id) {
  const entry = cardEntry(stat, id);
  if (!entry) return { name: String(id), kind: "card", facts: "", text: "" };
  const { kind, card } = entry;
  const text = typeof card.text === "string" ? card.text : "";
  let facts = "";
  if (kind === "ritual") {
    facts = join(["Ritual", card.cost !== undefined && `costs ${card.cost} Blood Drops`, DURATION[card.duration] || (card.duration && titleCase(card.duration)), "played in the Blood step"]);
  } else if (kind === "blessing") {
    facts = join(["Blessing", "played once, in the Blessings step, on one of your heroes"]);
  } else if (card.kind === "item") {
    const windows = (card.windows || []).map((w) => WINDOW[w] || w).join(" or ");
    facts = join(["Item", windows && `use in ${windows}`, card.life_cost ? `costs ${card.life_cost} life` : "", text ? "" : itemEffect(card)]);
  } else {
    facts = join(["Treasure, at once", text ? "" : itemEffect(card)]);
  }
  return { name: card.name || String(id), kind, facts, text };
}

/** A card in one line: "Name — facts. Text". */
export function cardLine(stat, id) {
  const c = cardText(stat, id);
  return `${c.name} — ${c.facts}${c.text ? `. ${c.text}` : ""}`;
}

/** A hero attack in words: its name, class, reach (range at `level`), damage and life cost. */
export function attackText(attack, level = 1) {
  const range = Array.isArray(attack.range) ? attack.range[level - 1] : attack.range;
  return join([
    `${titleCase(attack.name)}: ${attack.class || "attack"}`,
    `${REACH[attack.reach] || attack.reach}${range ? `, range ${range}` : ""}`,
    `${attack.damage} damage`,
    attack.life_cost ? `costs ${attack.life_cost} life` : "",
    attack.zorkal === false ? "not against Zorkal" : "",
  ]);
}

/** A monster type's sheet in words (static.monsters). */
export function monsterText(stat, type) {
  const m = (stat.monsters || {})[type] || {};
  return join([
    `${titleCase(m.name || type)}: ${m.class || "?"} monster`,
    `Move ${m.move}${m.bat_move ? ` (bat form ${m.bat_move}, then no attack)` : ""}`,
    `life ${m.life}`,
    `${m.attacks} attack${m.attacks > 1 ? "s" : ""}, ${REACH[m.reach] || m.reach}${m.range ? ` ${m.range}` : ""}`,
    m.waits ? "waits the Keeper turn it arrives" : "",
    m.rot ? "its hits give Mummy Rot" : "",
    m.zone ? `arises in the ${titleCase(m.zone)}` : "",
    m.xp ? `${m.xp} XP to its killer` : "",
  ]);
}

/** Zorkal's sheet at his level (static.zorkal). */
export function zorkalText(stat, level = 1) {
  const z = stat.zorkal || {};
  const at = (list) => (Array.isArray(list) ? list[level - 1] : list);
  return join([
    `Zorkal, level ${level}`,
    z.life ? `life ${at(z.life)}` : "",
    z.attacks ? `${at(z.attacks)} attacks` : "",
    z.move ? `Move ${z.move}` : "",
    Array.isArray(z.level_cost) && level <= z.level_cost.length ? `next level: ${z.level_cost[level - 1]} Blood Drops` : "",
    "moves and attacks only once the Gate of Doom is open",
  ]);
}

/** A figure of the view in words, for the board's tooltip and the keyboard cursor. */
export function figureText(stat, names, f, view) {
  const on = effectsOn(stat, names, view).get(f.id) || [];
  const under = on.length ? `under ${on.join(", ")}` : "";
  if (f.kind === "hero") {
    const h = f.data;
    return join([`${names.heroName(f.id)} (life ${h.life}/${h.max_life}, level ${h.level})`, h.rot && "Rotting", h.alive === false && "dead", under]);
  }
  if (f.kind === "monster") {
    const m = f.data;
    return join([`${names.monsterName(m.type)}: life ${m.life}`, m.waiting && "waiting this Keeper turn", m.bat && "in bat form", under, monsterText(stat, m.type).split(" · ").slice(1).join(" · ")]);
  }
  if (f.id === ZORKAL || f.kind === "zorkal") return join([zorkalText(stat, f.data.level) + ` · life now ${f.data.life}`, under]);
  return `${obstacleName(f.data.kind)}: an obstacle with ${f.data.life} life; it blocks movement and sight, and hero attacks may break it`;
}

/**
 * The legend: every mark the board and the panel draw, in the order the panel lists them.
 * [kind, id, label, meaning]; kind picks the swatch the painter draws.
 */
export function legendEntries(markerLabel) {
  return [
    ["mark", "TP", "Teleport pad", `${markerLabel.TP}: the number pairs two pads; a figure on one stands on both (a dashed ring on its partner)`],
    ["mark", "F", "Fountain", markerLabel.F],
    ["token", "P", "Treasure token", "a hero who enters draws a Treasure card; a faint ring marks an emptied space"],
    ["token", "A", "Artifact", "a blue diamond on the floor; on a hero's token: that hero carries one"],
    ["mark", "N", "N", markerLabel.N],
    ["mark", "X", "×", markerLabel.X],
    ["fig", "weak", "Weak monster", "brown square with its type's first letters"],
    ["fig", "strong", "Strong monster", "red octagon with a gold rim"],
    ["badge", "life", "Red or dark number", "life left (heroes: red; monsters with more than 1: dark)"],
    ["badge", "z", "z", "the monster waits: it arrived this Keeper turn"],
    ["lit", "move", "Yellow dashed cell", "where the picked figure can go"],
    ["lit", "summon", "Red dashed cell", "where the Keeper can summon or place"],
    ["ring", "target", "Red crosshair", "a target of the picked figure, ability or card"],
    ["badge", "effect", "Blue star", "a lasting effect of a spell or a card lies on the figure: hover it for which"],
    ["fig", "obstacle", "Rock heap / wall", "an obstacle: a cave-in (rock heap) or a barrier (wall), with its life; it blocks movement and sight"],
  ];
}

// When a lasting effect ends (rules/effects.py's moments), in words.
const UNTIL = {
  keeper_turn_end: "until the end of this Keeper turn",
  hero_turn_end: "until the end of the hero turn",
};

// The figure lists a lasting effect's data may hold (Icy Prison's heroes, Blizzard's monsters).
const FIGURE_LISTS = ["heroes", "figures", "monsters", "targets"];

/**
 * The lasting effects on the table, as everyone sees them: the view's `effects` (key -> when it
 * ends, or {until, ...data}; a key is a card or ability id, ":<figure>" when it holds one
 * figure: rules/effects.py) and the permanent Rituals in play. [{source, figures, label, text}]:
 * `label` is the panel's words, `text` its hover text (the card's or ability's own text).
 */
export function effectEntries(stat, names, view) {
  const out = [];
  for (const card of view?.rituals_in_play || []) {
    out.push({ source: card, figures: [], label: names.cardName(card), text: cardLine(stat, card) });
  }
  // Aegis (B08) as the view shows it on each hero: the Keeper turn it protects the hero in
  // (the engine's effect key is "B08:<hero>", rules/combat.py aegis_key).
  for (const [hid, hero] of Object.entries(view?.heroes || {})) {
    if (hero.aegis === null || hero.aegis === undefined) continue;
    const name = cardEntry(stat, "B08")?.card.name || "Aegis";
    out.push({ source: "B08", figures: [hid], label: `${name} on ${names.heroName(hid)}`, text: `${cardLine(stat, "B08")} (Keeper turn ${hero.aegis})` });
  }
  // Monsters the view marks Frozen (Almanor's blizzard: no move, no attack next Keeper turn).
  for (const [mid, m] of Object.entries(view?.monsters || {})) {
    if (!m.frozen) continue;
    out.push({ source: "alm.blizzard", figures: [mid], label: `Frozen on ${names.figureName(mid, view)}`, text: "Frozen by the blizzard: it may not move (bat form included) or attack in the next Keeper turn." });
  }
  for (const [k, v] of Object.entries(view?.effects || {})) {
    const [source, figure] = k.split(":");
    const figs = figure ? [figure] : [];
    if (v && typeof v === "object") for (const list of FIGURE_LISTS) if (Array.isArray(v[list])) figs.push(...v[list].filter((f) => typeof f === "string"));
    const until = UNTIL[typeof v === "string" ? v : v?.until] || "";
    const card = cardEntry(stat, source);
    const name = card ? card.card.name : source.includes(".") ? names.abilityName(source.split(".")[0], source) : titleCase(source);
    const on = figs.length ? ` on ${figs.map((f) => names.figureName(f, view)).join(", ")}` : "";
    const what = card ? cardLine(stat, source) : name;
    out.push({ source, figures: figs, label: `${name}${on}`, text: `${what}${until ? ` (${until})` : ""}` });
  }
  return out;
}

/** Figure id -> the names of the lasting effects on it (the board's badge and its tooltip). */
export function effectsOn(stat, names, view) {
  const marks = new Map();
  for (const e of effectEntries(stat, names, view)) {
    for (const f of e.figures) {
      if (!marks.has(f)) marks.set(f, []);
      marks.get(f).push(e.label.split(" on ")[0]);
    }
  }
  return marks;
}
