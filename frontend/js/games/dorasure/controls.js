// Dorasure's DOM side: the hero cards under the map and the controls: the listed actions
// as lit hexes, die pickers, buttons and the dialogs of the questions asked between moves.
import { h, titleCase } from "../../ui.js";
import { cardHeader, keptOpen, seatOf, statBar, textChip, tokenChip } from "../panels.js";
import { heroesOf } from "./layout.js";
import { DorasureNames } from "./names.js";
import { TERRAIN_STYLE } from "./terrain.js";
import { ATTRS, heroPowers, legendEntries, terrainText } from "./texts.js";
import { heroColor } from "./tokens.js";

// Decisions asked outside the flow of one's own moves open a dialog (with the deadline).
const DIALOG_KINDS = new Set(["assist", "absorb", "doll", "shield", "kiss", "extra_turn", "tune", "spend", "post_roll", "reaction"]);
const PROMPT_TITLES = {
  assist: "Help with a quest?",
  absorb: "Absorb damage?",
  doll: "Body-Swapping Doll",
  shield: "Platinum Shield?",
  kiss: "Kiss of Death?",
  extra_turn: "An extra turn?",
  tune: "Heroic Tune?",
  spend: "Spend resources before the roll?",
  post_roll: "After the roll",
  reaction: "After the movement roll",
};

/**
 * One card per hero: health, resource, gold, level, attributes, powers, the rolls of its last
 * turn, flags; then the map's legend (ctx: the table's seats and who acts). `kit` is what the
 * renderer keeps: names, the hero sheets' static, `rolls` (DorasureNames.keepRolls) and `open`
 * (the texts the player opened).
 */
export function heroPanels({ names, stat, rolls = new Map(), open = new Set() }, view, { mine = [], toAct = [], connected = new Set(), table } = {}) {
  const heroes = heroesOf(view || {});
  const current = view.current || null;
  const cards = h(
    "div.hero-grid",
    {},
    heroes.map((hero) => {
      const sheet = names.sheets[hero.id] || {};
      const color = hero.dead ? "#5b5f66" : heroColor(hero.id, hero.index);
      const onTurn = hero.id === current && !hero.dead;
      const attrs = hero.attrs || {};
      const resource = sheet.resource || null;
      const flags = [
        hero.dead && "dead",
        hero.trapped && "trapped in the labyrinth",
        hero.wolf_form && "wolf form",
      ].filter(Boolean);
      return h(
        `article.hero-card${onTurn ? ".current" : ""}${toAct.includes(hero.id) ? ".due" : ""}${mine.includes(hero.id) ? ".mine" : ""}${hero.dead ? ".dead" : ""}`,
        { dataset: { hero: hero.id } },
        cardHeader(
          tokenChip(color, names.heroName(hero.id).slice(0, 2)),
          h("strong", {}, names.heroName(hero.id)),
          seatOf(table, hero.id),
          connected,
          hero.dead ? h("span.badge", {}, "dead") : onTurn ? h("span.badge.badge-live", {}, "turn") : null,
          toAct.includes(hero.id) && !onTurn ? h("span.badge.badge-open", {}, "deciding") : null,
        ),
        h(
          "div.hero-stats",
          {},
          statBar("Health", hero.hp, hero.max_hp, "health"),
          resource ? statBar(resource.name, hero.res, hero.max_res, "resource") : h("div.small.muted", {}, "No resource"),
          hero.gold ? h("div.stat-line", {}, h("span", {}, "Gold ", h("b", {}, hero.gold))) : null,
          h("div.stat-line", {}, h("span", {}, "Level ", h("b", {}, hero.level ?? 1)), h("span", {}, "EXP ", h("b", {}, hero.exp ?? 0))),
          h(
            "div.attrs",
            {},
            ATTRS.filter(([k]) => attrs[k] !== undefined).map(([k, label]) => h("span.attr", {}, h("small", {}, label), h("b", {}, attrs[k]))),
          ),
          lastRolls(DorasureNames.lastRolls(rolls, hero.id)),
          powersChip(sheet, hero.id, open),
          flags.length ? h("div.small.hero-flags", {}, flags.join(" · ")) : null,
        ),
      );
    }),
  );
  return h("div", {}, dragonStrip(stat, view), cards, legend(stat, open));
}

/**
 * The Rampaging Meter and the Dragon's Health again, as a full-width strip of cells: on a
 * phone the map's corner that holds them on the canvas is a few pixels tall (shown only on
 * small screens, see .dragon-strip in table.css).
 */
export function dragonStrip(stat, view) {
  const m = stat.meter || {};
  const length = m.length || 15;
  const fire = new Set(m.fire || []);
  const final = m.final ?? length - 1;
  const raw = view.meter;
  const at = (typeof raw === "object" && raw !== null ? raw.position : raw) ?? 0;
  const boxes = (stat.dragon || {}).boxes || 9;
  const d = view.dragon || {};
  const life = d.life ?? boxes - (d.swords ?? 0);
  // Fire spaces are told by their colour (and their title), as on the map.
  const cells = Array.from({ length }, (_, i) =>
    h(`span.meter-cell${fire.has(i) ? ".fire" : ""}${i <= at ? ".passed" : ""}${i === at ? ".here" : ""}${i === final ? ".final" : ""}`, { title: fire.has(i) ? `${i}: fire space` : String(i) }, String(i)),
  );
  return h(
    "section.dragon-strip",
    { "aria-label": `Dragon Rampaging Meter ${at} of ${final}; Dragon Health ${life} of ${boxes}` },
    h("div.dragon-strip-title", {}, h("b", {}, "Rampaging Meter "), `${at}/${final}`, h("span.dragon-life", {}, h("b", {}, " Dragon Health "), `${life}/${boxes}`)),
    h("div.meter-cells", { dataset: { position: at } }, cells),
  );
}

/** The rolls of the hero's last turn, kept readable until its next turn begins. */
function lastRolls(rows) {
  if (!rows || !rows.length) return null;
  return h(
    "div.small.last-rolls",
    { dataset: { rolls: rows.length } },
    h("span.muted", {}, "Last turn's rolls: "),
    rows.map((r, i) => [i ? " · " : "", `${r.label.replace(/^[^:]*: /, "")} `, h("b", {}, r.dice.join(" "))]),
  );
}

/** A hero's powers (resource, abilities, relic), from its sheet: open on tap, on hover as a title. */
function powersChip(sheet, id, open) {
  const powers = heroPowers(sheet);
  if (!powers.length) return null;
  return textChip(".small.powers", `powers:${id}`, open, "Powers", powers.map(([title, text]) => `${title}: ${text}`).join(" "));
}

/** What the map's colours and marks mean. */
function legend(stat, open) {
  const terrains = Object.entries(TERRAIN_STYLE).map(([t, style]) =>
    h("li", {}, h("span.legend-swatch", { style: { background: style.fill, display: "inline-block", width: "0.9em", height: "0.9em", marginRight: "0.35em", verticalAlign: "-0.1em", border: "1px solid #000" } }), terrainText(stat, t, style.label)),
  );
  const marks = legendEntries(stat).map(([mark, meaning]) => h("li", {}, h("b", {}, mark), `: ${meaning}`));
  const attrs = h("li", {}, h("b", {}, "Hero cards"), `: ${ATTRS.map(([, label]) => label).join(", ")} are the hero's attributes; Powers opens its sheet's texts.`);
  return h(
    "details.board-legend.small",
    keptOpen(open, "legend"),
    h("summary", {}, "What the map shows"),
    h("ul", { style: { columns: "2 24em", columnGap: "2em", margin: "0.3em 0", paddingLeft: "1.2em" } }, terrains, marks, attrs),
  );
}

/** "64.2 %" — a probability as players read it (the exact fraction goes in the tooltip). */
export function percent(value) {
  return `${(value * 100).toFixed(1)} %`;
}

/** The exact odds the server computed for action ``a`` (view.odds, issue 14.1), or null. */
export function oddsFor(view, a) {
  const key = JSON.stringify(a);
  return (view.odds || []).find((o) => JSON.stringify(o.action) === key) || null;
}

/** "quest succeeds: 64.2 %" for the button; every outcome with its exact fraction for the tooltip. */
export function oddsText(o) {
  return {
    short: `${o.key.label}: ${percent(o.key.value)}`,
    long:
      `${o.title}. ${o.outcomes.map((x) => `${x.label}: ${percent(x.value)} (${x.p})`).join("; ")}.` +
      (o.spending && o.spending.length ? ` ${o.key.label} ${o.spending.map((x) => `${x.label}: ${percent(x.value)}`).join(", ")}.` : ""),
  };
}

/** Turn the listed actions into {hint, groups, prompt}: lit hexes, die pickers, buttons, dialogs; label(a) words a button. */
export function controls(view, legal, { seat, selection }, label) {
  const groups = [];
  const moves = legal.filter((a) => a.type === "move");
  const steps = legal.filter((a) => a.type === "step");
  const rest = legal.filter((a) => a.type !== "move" && a.type !== "step");
  const prompt = (view.prompts || []).find((p) => p.seat === seat) || null;
  const item = (a) => {
    const o = oddsFor(view, a);
    const text = o ? oddsText(o) : null;
    return {
      action: a,
      label: text ? `${label(a)} — ${text.short}` : label(a),
      title: text ? text.long : "",
      primary: ["accept", "end_move", "adventure", "quest", "rest"].includes(a.type) || (a.type === "spend" && a.amount === 0),
    };
  };
  let hint = "";
  if (moves.length || steps.length) {
    const reach = new Set(moves.map((a) => a.to)).size;
    const mv = view.movement;
    const dice = mv && mv.dice ? ` Dice left: ${mv.dice.join(" ")}.` : "";
    hint = `Click a lit hex to go there (${reach} reachable), or pick a die to move one step at a time.${dice}`;
  }
  if (steps.length) {
    const dice = [...new Set(steps.map((a) => a.die))].sort((a, b) => a - b);
    groups.push({
      title: "One step at a time, with die…",
      items: dice.map((die) => ({ label: `${die}`, select: die, selected: selection === die, kind: "die", title: `Light the hexes a ${die} can pay for` })),
    });
  }
  if (prompt && DIALOG_KINDS.has(prompt.kind) && rest.length) {
    return {
      hint: hint || "Answer the question in the dialog.",
      groups,
      prompt: { title: PROMPT_TITLES[prompt.kind] || titleCase(prompt.kind), text: prompt.text || "", items: rest.map(item) },
    };
  }
  if (rest.length) groups.push({ title: moves.length || steps.length ? "Or" : prompt && prompt.text ? prompt.text : "", items: rest.map(item) });
  return { hint, groups, prompt: null };
}
