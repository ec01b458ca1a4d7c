// What Dorasure's heroes, places, quests, rewards and actions are called, from
// welcome.static's catalogues and the view, and the dice a batch of events rolled.
// Pure (no DOM), so node tests it: tests/e2e/js/dorasure_parts_cases.mjs.
import { titleCase } from "../../ui.js";
import { fallbackActionLabel } from "../panels.js";

// The City's position id: its three hexes share it.
const CITY = "city";

/** The hero sheets of welcome.static, by hero id. */
function heroSheets(stat) {
  const list = stat.heroes || {};
  if (Array.isArray(list)) return Object.fromEntries(list.map((sheet) => [sheet.id, sheet]));
  return Object.fromEntries(Object.entries(list).map(([id, sheet]) => [id, { id, ...sheet }]));
}

/** Names from the catalogues of `stat` (welcome.static); places need the `board` (layout.js). */
export class DorasureNames {
  constructor(stat, board) {
    this.stat = stat;
    this.board = board;
    this.sheets = heroSheets(stat);
  }

  heroName(id) {
    return this.sheets[id]?.name || titleCase(id);
  }

  rewardName(id) {
    if (!id) return "";
    const r = (this.stat.rewards || {})[id];
    return r ? r.name : titleCase(id);
  }

  /** The Fang land tile the view puts on a space, or null. */
  landAt(view, spaceId) {
    const tile = ((view || {}).lands || {})[spaceId];
    if (!tile) return null;
    const info = (this.stat.lands || {})[tile];
    return info ? info : { name: titleCase(tile), text: "" };
  }

  /** A quest tile in words: face down, or its quest and what it needs, or solved, with flags and reward. */
  questSummary(m) {
    const q = m.quest || null;
    const flags = m.flags ? ` ${m.flags} flag${m.flags > 1 ? "s" : ""}.` : "";
    const reward = m.reward ? ` Reward: ${this.rewardName(m.reward)}.` : "";
    if (!q) return `Quest face down.${flags}`;
    const facedown = m.state === "hidden" ? " (face down; shown in the replay)" : "";
    const head = m.state === "solved" ? `Solved: ${q.name}` : `Quest: ${q.name}${facedown}`;
    const need = q.attribute ? ` — ${titleCase(q.attribute)}, ${q.target} to succeed.` : ".";
    return `${head}${need}${q.text ? ` ${q.text}` : ""}${flags}${reward}`;
  }

  /** The turn banner's line: whose turn and the phase. */
  turnText(view) {
    if (!view) return "";
    if (view.outcome) return view.outcome.reason || "Game over";
    const phase = view.phase === "battle" ? "Climactic Battle" : view.phase === "adventure" ? "Adventure phase" : titleCase(view.phase || "");
    const who = view.current ? `${this.heroName(view.current)}'s turn${view.turn ? ` (turn ${view.turn})` : ""}` : "";
    return [who, phase].filter(Boolean).join(" · ");
  }

  /** Dice in a batch of events, for the dice tray (one row per hero and roll). */
  diceFromEvents(events) {
    const rolls = [];
    const what = (ev) => titleCase(ev.roll || ev.kind).replace("Movement Roll", "movement");
    for (const ev of events) {
      const d = ev.dice;
      if (Array.isArray(d)) {
        const faces = d.filter(Number.isInteger);
        if (faces.length) rolls.push({ label: `${ev.hero ? `${this.heroName(ev.hero)}: ` : ""}${what(ev)}`, dice: faces, tones: faces.map((f) => (ev.kind === "movement_roll" && f === 1 ? "void" : "")) });
      } else if (d && typeof d === "object") {
        for (const [hero, value] of Object.entries(d)) {
          // A scored roll's chains: a 6 rolls again, so each chain is one die and its re-rolls.
          const faces = Number.isInteger(value) ? [value] : Array.isArray(value) ? value.flat(2).filter(Number.isInteger) : [];
          const score = ev.score && ev.score[hero] !== undefined ? ` (score ${ev.score[hero]})` : "";
          if (faces.length) rolls.push({ label: `${this.heroName(hero)}: ${what(ev)}${score}`, dice: faces });
        }
      } else if (Number.isInteger(ev.die) && ["rampage", "special_chance", "retaliation", "faith"].includes(ev.kind)) {
        rolls.push({ label: `${ev.hero ? `${this.heroName(ev.hero)}: ` : "Dragon: "}${what(ev)}`, dice: [ev.die] });
      }
    }
    return rolls;
  }

  /** The dice already on the table when one arrives (the movement roll in progress). */
  diceFromView(view) {
    const mv = view.movement;
    if (!mv || !Array.isArray(mv.rolled) || !view.current) return [];
    return [{ label: `${this.heroName(view.current)}: movement`, dice: mv.rolled, tones: mv.rolled.map((f) => (f === 1 ? "void" : "")) }];
  }

  /** A position's name in a label: the City, a named space, or its terrain and id (Belk razed is road). */
  place(id, view) {
    if (id === CITY) return "the City";
    const s = this.board.cellsOf(id)[0];
    if (!s) return titleCase(id);
    const terrain = this.board.terrainOf(s, view);
    return s.name && terrain !== "razed" ? s.name : `${titleCase(terrain === "razed" ? "road" : terrain)} ${s.id}`;
  }

  resourceName(seat) {
    const r = this.sheets[seat] && this.sheets[seat].resource;
    return r ? r.name : "resource";
  }

  /** A button's words for a listed action of `seat` (places named as the view shows them). */
  actionLabel(a, seat, view) {
    if (!a) return "";
    const mountain = (id) => (this.stat.mountains || {})[id] || titleCase(id);
    const res = this.resourceName(seat);
    switch (a.type) {
      case "move":
        return `Move to ${this.place(a.to, view)}`;
      case "step":
        return `Step to ${this.place(a.to, view)} with a ${a.die}`;
      case "end_move":
        return "Stop moving here";
      case "adventure":
        return "Go adventuring";
      case "rest":
        return "Rest (+2 Health)";
      case "gather":
        return `Gather information at ${mountain(a.mountain)}`;
      case "quest": {
        const helpers = (a.invite || []).map((x) => this.heroName(x));
        return `Attempt the quest at ${mountain(a.mountain)}${helpers.length ? ` with ${helpers.join(" and ")}` : " alone"}`;
      }
      case "end_turn":
        return "End my turn";
      case "pass":
        return "Pass";
      case "faith":
        return "Faith: set aside my highest die (+1 Faith)";
      case "lullaby":
        return "Lullaby: my 6s do not wake the Dragon";
      case "spend": {
        const extras = [a.gust && "Gust", a.elixir && "Elixir"].filter(Boolean);
        if (!a.amount && !extras.length) return "Roll without spending";
        const gold = a.gold ? ` (${a.gold} of it Gold)` : "";
        return `Spend ${a.amount} ${res}${gold}${extras.length ? ` + ${extras.join(", ")}` : ""}`;
      }
      case "big_bang":
        return "Big Bang (5 Magic)";
      case "tune":
        return `Heroic Tune: ${a.amount} dice to ${this.heroName(a.to)}`;
      case "reroll":
        return "Reroll";
      case "poison":
        return `Poison arrow: make die ${a.die + 1}.${a.at + 1} a 6`;
      case "accept":
        return "Yes, I will help";
      case "decline":
        return "No, thanks";
      case "absorb":
        return a.amount ? `Absorb ${a.amount} with ${res}${a.gold ? ` (${a.gold} Gold)` : ""}` : "Take the damage";
      case "shield":
        return "Platinum Shield";
      case "kiss":
        return `Kiss of Death on ${this.heroName(a.hero)}`;
      case "extra_turn":
        return "Take the extra turn";
      case "doll": {
        const taken = Object.entries(a.take || {}).map(([x, n]) => `${n} from ${this.heroName(x)}`);
        return `Body-Swapping Doll: take ${taken.join(", ") || "nothing"}`;
      }
      default:
        return fallbackActionLabel(a);
    }
  }
}
