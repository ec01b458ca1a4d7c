// Dorasure's DOM side: the hero cards under the map and the controls: the listed actions
// as lit hexes, die pickers, buttons and the dialogs of the questions asked between moves.
import { h, titleCase } from "../../ui.js";
import { cardHeader, seatOf, statBar, tokenChip } from "../panels.js";
import { heroesOf } from "./layout.js";
import { heroColor } from "./tokens.js";

// Hero attributes: [id, name, short name on the hero card].
const ATTRS = [
  ["move", "Move", "Move"],
  ["plains_danger", "Danger (plains)", "Dng P"],
  ["forest_danger", "Danger (forest)", "Dng F"],
  ["combat", "Combat", "Combat"],
  ["search", "Search", "Search"],
  ["knowledge", "Knowledge", "Know"],
];

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

/** One card per hero: health, resource, gold, level, attributes, flags (ctx: the table's seats and who acts). */
export function heroPanels(names, view, { mine = [], toAct = [], connected = new Set(), table } = {}) {
  const heroes = heroesOf(view || {});
  const current = view.current || null;
  return h(
    "div.hero-grid",
    {},
    heroes.map((hero) => {
      const sheet = names.sheets[hero.id] || {};
      const color = heroColor(hero.id, hero.index);
      const attrs = hero.attrs || {};
      const resource = sheet.resource || null;
      const flags = [
        hero.dead && "dead",
        hero.trapped && "trapped in the labyrinth",
        hero.wolf_form && "wolf form",
      ].filter(Boolean);
      return h(
        `article.hero-card${hero.id === current ? ".current" : ""}${toAct.includes(hero.id) ? ".due" : ""}${mine.includes(hero.id) ? ".mine" : ""}${hero.dead ? ".dead" : ""}`,
        { dataset: { hero: hero.id } },
        cardHeader(
          tokenChip(color, names.heroName(hero.id).slice(0, 2)),
          h("strong", {}, names.heroName(hero.id)),
          seatOf(table, hero.id),
          connected,
          hero.id === current ? h("span.badge.badge-live", {}, "turn") : null,
          toAct.includes(hero.id) && hero.id !== current ? h("span.badge.badge-open", {}, "deciding") : null,
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
            ATTRS.filter(([k]) => attrs[k] !== undefined).map(([k, label, short]) =>
              h("span.attr", { title: label }, h("small", {}, short), h("b", {}, attrs[k])),
            ),
          ),
          flags.length ? h("div.small.hero-flags", {}, flags.join(" · ")) : null,
        ),
      );
    }),
  );
}

/** Turn the listed actions into {hint, groups, prompt}: lit hexes, die pickers, buttons, dialogs; label(a) words a button. */
export function controls(view, legal, { seat, selection }, label) {
  const groups = [];
  const moves = legal.filter((a) => a.type === "move");
  const steps = legal.filter((a) => a.type === "step");
  const rest = legal.filter((a) => a.type !== "move" && a.type !== "step");
  const prompt = (view.prompts || []).find((p) => p.seat === seat) || null;
  const item = (a) => ({
    action: a,
    label: label(a),
    primary: ["accept", "end_move", "adventure", "quest", "rest"].includes(a.type) || (a.type === "spend" && a.amount === 0),
  });
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
