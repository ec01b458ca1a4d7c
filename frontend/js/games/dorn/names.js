// What Dorn's figures, cards, places and actions are called, from welcome.static's
// catalogues (heroes, monsters, Rituals, Blessings, Treasures, Artifacts) and the view.
// Pure (no DOM), so node tests it: tests/e2e/js/dorn_parts_cases.mjs.
import { titleCase } from "../../ui.js";
import { fallbackActionLabel } from "../panels.js";
import { abilityName } from "./abilities.js";
import { cellOf, ZORKAL } from "./layout.js";
import { actionCell, actorOf } from "./selection.js";

export const MONSTER_ABBR = { zombie: "Zo", rat: "Ra", bogbeast: "Bo", skeleton: "Sk", ghost: "Gh", mummy: "Mu", vampire: "Va", gorgon: "Gn" };

export const MARKER_LABEL = {
  N: "starting-monster space",
  A: "Artifact space",
  P: "Treasure space",
  TP: "teleport",
  F: "Healing Fountain (heals 2)",
  X: "cave-in site",
  ENT: "dungeon entrance",
  SEAT: "Zorkal's throne",
};

const DONE_LABEL = {
  K1: "End the Blood step",
  K2: "End summoning",
  K3: "End monster movement",
  K4: "End attack declarations",
  K4P: "Take the other attacks",
  H1: "Done with Blessings",
  H2: "Done moving",
  H3: "Done attacking",
};

/** "A", "A and B", "A, B and C". */
export function listWords(items) {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");
}

/**
 * A Ritual's Blood cost at this table: the catalogue's, +1 for every Ritual with Four Heroes
 * (content 6.6, as the engine's variants.ritual_cost), or null for an unknown card.
 */
export function ritualCost(stat, card, view) {
  const cost = stat.rituals?.[card]?.cost;
  if (cost === undefined) return null;
  return cost + (view?.options?.four_heroes ? 1 : 0);
}

/** The Done button of a step. */
export function doneLabel(phase) {
  return DONE_LABEL[phase] || "Done";
}

/** "(x,y)", or "" for no cell. */
export function place(cell) {
  return cellOf(cell) ? `(${cell[0]},${cell[1]})` : "";
}

/**
 * Whether the Day/Night token shows Day: the face it lies on now, which the Keeper flips at the
 * end of his turn to show the next Keeper turn's (the rulebook's K5), so during the heroes' turn
 * it is not `view.day` (Keeper turn k's). Views without the token say only `day`.
 */
export function tokenShowsDay(view) {
  return view.day_night_token ? view.day_night_token === "day" : Boolean(view.day);
}

/** The turn banner's line: the Keeper turn, the Day/Night token's face (as the panel draws it), and the open step. */
export function turnText(view, stat = null) {
  if (!view) return "";
  if (view.outcome) return view.outcome.reason || "Game over";
  const when = `Keeper turn ${view.k} · ${tokenShowsDay(view) ? "Day" : "Night"}`;
  const name = String(view.phase_name || view.phase || "").replace(/^the /i, "");
  const step = name.charAt(0).toUpperCase() + name.slice(1);
  if (view.prompt) return `${when} · ${promptTitle(view.prompt, view, stat)}`;
  if (view.surrender) return `${when} · the heroes vote on a surrender`;
  return `${when} · ${step}`;
}

// A question's title by its kind (rules/prompts.py); other kinds are named from their kind.
const PROMPT_TITLE = {
  hidden_monster: "the Keeper places a hidden monster",
  cave_in_site: "the Keeper places the cave-ins",
};

/** A prompt's short title for the banner and its dialog: "the Keeper places a hidden monster", or its humanised kind. */
export function promptTitle(prompt, view = null, stat = null) {
  if (!prompt) return "";
  if (PROMPT_TITLE[prompt.kind]) return PROMPT_TITLE[prompt.kind];
  // A hero seat is named by its heroes (the view's seats), never by its id.
  const heroes = prompt.seat !== "keeper" && stat ? (view?.seats?.[prompt.seat] || []).map((h) => stat.heroes?.[h]?.name || titleCase(h)) : [];
  const who = prompt.seat === "keeper" ? "the Keeper answers" : heroes.length ? `${listWords(heroes)} ${heroes.length > 1 ? "answer" : "answers"}` : "a hero seat answers";
  return `${who}: ${titleCase(String(prompt.kind || "a question"))}`;
}

// Obstacle kinds as the board names them (data/obstacles.json names them so too).
const OBSTACLE_NAME = { cave_in: "Cave-in", barrier: "Barrier" };

/** An obstacle kind's name. */
export function obstacleName(kind) {
  return OBSTACLE_NAME[kind] || titleCase(kind || "obstacle");
}

/** Names from the catalogues of `stat` (welcome.static); a figure's name may need the view. */
export class DornNames {
  constructor(stat) {
    this.stat = stat;
    this.heroes = stat.heroes || {};
    this.monsterInfo = stat.monsters || {};
  }

  heroName(id) {
    return this.heroes[id]?.name || titleCase(id);
  }

  monsterName(type) {
    return titleCase(this.monsterInfo[type]?.name || type);
  }

  figureName(id, view) {
    if (id === ZORKAL) return "Zorkal";
    if (this.heroes[id]) return this.heroName(id);
    const m = view?.monsters?.[id];
    if (m) {
      const c = cellOf(m.cell);
      return `${this.monsterName(m.type)}${c ? ` at (${c[0]},${c[1]})` : ""}`;
    }
    const o = view?.obstacles?.[id];
    if (o) return `${obstacleName(o.kind)} at (${o.cell[0]},${o.cell[1]})`;
    return titleCase(id);
  }

  /** A monster named in an action: a figure on the board (by id), else a monster type. */
  monsterOrType(v, view) {
    if (view?.monsters?.[v]) return this.figureName(v, view);
    return this.monsterName(v);
  }

  /**
   * An action's extra choices in words (a card's or ability's target, other hero, cell, heroes,
   * monster...): " on X", " at (x,y)", " with Y", "; Block"... `skip` lists keys said elsewhere.
   */
  extras(a, view, skip = []) {
    const out = [];
    const known = new Set(["type", "card", "ability", "with", "figure", ...skip]);
    for (const [k, v] of Object.entries(a)) {
      if (known.has(k)) continue;
      if (k === "target") out.push(` on ${this.figureName(v, view)}`);
      else if (k === "other") out.push(` with ${this.figureName(v, view)}`);
      else if (k === "hero") out.push(` for ${this.heroName(v)}`);
      else if (k === "to" && cellOf(v)) out.push(` at ${place(v)}`);
      else if (k === "monster") out.push(` (${this.monsterOrType(v, view)})`);
      else if (k === "heroes" && Array.isArray(v)) out.push(` on ${listWords(v.map((h) => this.heroName(h)))}`);
      else if (Array.isArray(v) && v.every((c) => cellOf(c))) out.push(` at ${v.map(place).join(", ")}`);
      else if (typeof v === "boolean") out.push(v ? ` · ${titleCase(k)}` : ` · no ${k.replace(/_/g, " ")}`);
      else if (["answer", "choice", "option"].includes(k) && typeof v === "string") out.push(` · ${titleCase(v.replace(/_/g, " "))}`);
      else out.push(` · ${titleCase(k)} ${Array.isArray(v) ? v.map((x) => this.figureName(x, view)).join(", ") : typeof v === "object" ? JSON.stringify(v) : this.figureName(String(v), view)}`);
    }
    return out.join("");
  }

  /** A prompt answer's words: its cell, figure, hero or monster; "Block" / "Let it through", "Skip". */
  answerLabel(a, view) {
    const bits = [];
    if (a.skip === true) return "Skip";
    if (a.block === true) return "Block it";
    if (a.block === false) return "Let it through";
    if (cellOf(a.to)) bits.push(place(a.to));
    if (typeof a.target === "string") bits.push(this.figureName(a.target, view));
    if (typeof a.hero === "string") bits.push(this.heroName(a.hero));
    if (typeof a.other === "string") bits.push(this.figureName(a.other, view));
    if (typeof a.monster === "string") bits.push(this.monsterOrType(a.monster, view));
    if (Array.isArray(a.heroes)) bits.push(listWords(a.heroes.map((h) => this.heroName(h))));
    const rest = this.extras(a, view, ["to", "target", "hero", "other", "monster", "heroes", "skip", "block"]).replace(/^ · /, "");
    if (rest) bits.push(rest.trim());
    return bits.length ? bits.join(" · ") : "Yes";
  }

  /** A figure's button: its name and what it has left this step. */
  figureShort(id, view) {
    if (id === ZORKAL) return `Zorkal (${view.zorkal?.move_left ?? 0} mv)`;
    const hero = view.heroes?.[id];
    if (hero) {
      const left = view.phase === "H2" ? ` (${hero.move_left} mv)` : view.phase === "H3" ? ` (${hero.actions} act)` : "";
      return `${this.heroName(id)}${left}`;
    }
    const m = view.monsters?.[id];
    if (m) return `${this.monsterName(m.type)} ${place(m.cell)}${m.move_left ? ` (${m.move_left} mv)` : ""}`;
    return titleCase(id);
  }

  /**
   * A log line for an event: the engine's sentence, with seat ids as the table names them
   * (`seatLabel`) and a creature's cell added where the sentence names only its kind.
   */
  describeEvent(ev, view, seatLabel = (seat) => seat) {
    let text = ev.text || titleCase(ev.kind);
    const seats = new Set([...Object.keys(view?.seats || {}), "keeper", typeof ev.seat === "string" ? ev.seat : null].filter(Boolean));
    for (const seat of seats) {
      const label = seat === "keeper" ? "The Keeper" : seatLabel(seat);
      if (label && label !== seat) text = text.replace(new RegExp(`(^|[^\\w])${seat}(?![\\w])`, "g"), (m, pre) => `${pre}${label}`);
    }
    const where = (id) => {
      const c = cellOf(view?.monsters?.[id]?.cell);
      return c ? ` at (${c[0]},${c[1]})` : "";
    };
    if (ev.kind === "attack_declared" && typeof ev.figure === "string" && !/\(\d+,\d+\)/.test(text)) {
      text = text.replace(/ attacks /, `${where(ev.figure)} attacks `);
    }
    if (ev.kind === "parry" && Number.isInteger(ev.attack)) {
      const at = (view?.attacks || [])[ev.attack];
      if (at && typeof at.by === "string") text = text.replace(/\.$/, `${where(at.by)}: that attack will not hit.`);
    }
    return text;
  }

  cardName(id) {
    for (const deck of ["rituals", "blessings", "treasures"]) {
      const c = (this.stat[deck] || {})[id];
      if (c) return c.name;
    }
    return id;
  }

  artifactName(id) {
    const a = (this.stat.artifacts || {})[id];
    return a ? a.name : titleCase(id);
  }

  attackName(heroId, attackId) {
    const basic = this.heroes[heroId]?.basic || [];
    const a = basic.find((x) => x.id === attackId);
    return a ? a.name : abilityName(this.stat, heroId, attackId);
  }

  abilityName(heroId, id) {
    return abilityName(this.stat, heroId, id);
  }

  /** A button's words for a listed action, in the step of `view`. */
  actionLabel(a, view) {
    if (!a) return "";
    const who = actorOf(a);
    const name = who ? this.figureName(who, view) : "";
    switch (a.type) {
      case "done":
        return doneLabel(view?.phase);
      case "take_back_done":
        return "Take back my Done";
      case "undo_move":
        return `Take back ${this.heroName(a.hero)}'s last move`;
      case "time_up":
        return "My time is up (take the defaults)";
      case "surrender":
        return "Surrender";
      case "propose_surrender":
        return "Propose surrender";
      case "surrender_vote":
        return a.accept ? "Accept the surrender" : "Fight on";
      case "level_zorkal":
        return "Raise Zorkal's level";
      case "play_ritual": {
        const cost = ritualCost(this.stat, a.card, view);
        return `Play ${this.cardName(a.card)}${cost !== null ? ` (${cost} Blood)` : ""}${this.extras(a, view)}`;
      }
      case "ability":
        return `${name}: ${this.abilityName(a.hero, a.ability)}${this.extras(a, view, ["hero"])}`;
      case "choose":
        return this.answerLabel(a, view);
      case "summon":
        return `Summon a ${this.monsterName(a.monster).toLowerCase()} at ${place(a.to)}`;
      case "summon_strong":
        // With Zorkal's pandemonium the Keeper names the type (one action per type in the bag).
        return a.monster ? `Summon a ${this.monsterName(a.monster).toLowerCase()} (strong) at ${place(a.to)}` : `Summon a strong monster at ${place(a.to)}`;
      case "place_monster":
        return `Place it at ${place(a.to)}`;
      case "step":
      case "move":
        return `${name}: ${a.type === "step" ? "step" : "move"} to ${place(actionCell(a))}`;
      case "bat_form":
        return `${name}: bat form`;
      case "attack":
        if (a.with && a.target === undefined) return `${name}: ${this.attackName(a.hero, a.with)}${this.extras(a, view, ["hero"])}`;
        if (a.with) return `${name}: ${this.attackName(a.hero, a.with)} on ${this.figureName(a.target, view)}${this.extras(a, view, ["hero", "target"])}`;
        return `${name} attacks ${this.figureName(a.target, view)}`;
      case "parry": {
        const at = (view?.attacks || [])[a.attack];
        return at ? `Parry: ${this.figureName(at.by, view)} on ${this.figureName(at.target, view)}` : `Parry attack ${a.attack + 1}`;
      }
      case "play_blessing":
        return `${this.cardName(a.card)} for ${this.heroName(a.hero)}${this.extras(a, view, ["hero"])}`;
      case "pick_up":
        return `${name}: pick up ${this.artifactName(a.artifact)}`;
      case "drop":
        return `${name}: drop ${this.artifactName(a.artifact)}`;
      case "give":
        return `${name}: give ${a.artifact ? this.artifactName(a.artifact) : this.cardName(a.card)} to ${this.heroName(a.to)}`;
      case "discard":
        return `${name}: discard ${this.cardName(a.card)}`;
      case "use_item": {
        const on = a.target ? ` on ${this.figureName(a.target, view)}` : cellOf(a.to) ? ` to ${place(a.to)}` : "";
        return `${name}: use ${this.cardName(a.card)}${on}${this.extras(a, view, ["hero", "target", "to"])}`;
      }
      default:
        return fallbackActionLabel(a, (v) => (Array.isArray(v) ? place(v) || JSON.stringify(v) : typeof v === "object" ? JSON.stringify(v) : v));
    }
  }
}
