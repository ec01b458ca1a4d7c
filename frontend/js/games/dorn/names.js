// What Dorn's figures, cards, places and actions are called, from welcome.static's
// catalogues (heroes, monsters, Rituals, Blessings, Treasures, Artifacts) and the view.
// Pure (no DOM), so node tests it: tests/e2e/js/dorn_parts_cases.mjs.
import { titleCase } from "../../ui.js";
import { fallbackActionLabel } from "../panels.js";
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
export function turnText(view) {
  if (!view) return "";
  if (view.outcome) return view.outcome.reason || "Game over";
  const when = `Keeper turn ${view.k} · ${tokenShowsDay(view) ? "Day" : "Night"}`;
  const name = String(view.phase_name || view.phase || "").replace(/^the /i, "");
  const step = name.charAt(0).toUpperCase() + name.slice(1);
  if (view.prompt) return `${when} · the Keeper places a hidden monster`;
  if (view.surrender) return `${when} · the heroes vote on a surrender`;
  return `${when} · ${step}`;
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
    if (o) return `${titleCase(o.kind || "obstacle")} at (${o.cell[0]},${o.cell[1]})`;
    return titleCase(id);
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
    return a ? a.name : titleCase(String(attackId).split(".").pop());
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
      case "surrender":
        return "Surrender";
      case "propose_surrender":
        return "Propose surrender";
      case "surrender_vote":
        return a.accept ? "Accept the surrender" : "Fight on";
      case "level_zorkal":
        return "Raise Zorkal's level";
      case "play_ritual": {
        const cost = this.stat.rituals?.[a.card]?.cost;
        return `Play ${this.cardName(a.card)}${cost !== undefined ? ` (${cost} Blood)` : ""}`;
      }
      case "summon":
        return `Summon a ${this.monsterName(a.monster).toLowerCase()} at ${place(a.to)}`;
      case "summon_strong":
        return `Summon a strong monster at ${place(a.to)}`;
      case "place_monster":
        return `Place it at ${place(a.to)}`;
      case "step":
      case "move":
        return `${name}: ${a.type === "step" ? "step" : "move"} to ${place(actionCell(a))}`;
      case "bat_form":
        return `${name}: bat form`;
      case "attack":
        if (a.with) return `${name}: ${this.attackName(a.hero, a.with)} on ${this.figureName(a.target, view)}`;
        return `${name} attacks ${this.figureName(a.target, view)}`;
      case "parry": {
        const at = (view?.attacks || [])[a.attack];
        return at ? `Parry: ${this.figureName(at.by, view)} on ${this.figureName(at.target, view)}` : `Parry attack ${a.attack + 1}`;
      }
      case "play_blessing":
        return `${this.cardName(a.card)} for ${this.heroName(a.hero)}`;
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
        return `${name}: use ${this.cardName(a.card)}${on}`;
      }
      default:
        return fallbackActionLabel(a, (v) => (Array.isArray(v) ? place(v) || JSON.stringify(v) : typeof v === "object" ? JSON.stringify(v) : v));
    }
  }
}
