// What Dorasure's heroes, places, quests, rewards and actions are called, from
// welcome.static's catalogues and the view, and the dice a batch of events rolled.
// Pure (no DOM), so node tests it: tests/e2e/js/dorasure_parts_cases.mjs.
import { titleCase } from "../../ui.js";
import { fallbackActionLabel } from "../panels.js";

// The City's position id: its three hexes share it.
const CITY = "city";

/** The direction from hex a to hex b, one of the six a pointy-top hex map has ("north-east"...). */
export function compass(a, b) {
  const x = b.q - a.q + (b.r - a.r) / 2;
  const y = (b.r - a.r) * Math.sqrt(3) / 2;
  const angle = (Math.atan2(-y, x) * 180) / Math.PI; // 0 = east, counter-clockwise
  const dirs = ["east", "north-east", "north-west", "west", "south-west", "south-east"];
  return dirs[((Math.round(angle / 60) % 6) + 6) % 6];
}

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
    const text = m.reward ? (this.stat.rewards || {})[m.reward]?.text : "";
    const reward = m.reward ? ` Reward: ${this.rewardName(m.reward)}${text ? ` (${text.replace(/\.$/, "")})` : ""}.` : "";
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
    return events.flatMap((ev) => this.rollsOf(ev).map((x) => x.row));
  }

  /** The rows an event rolls, each with the hero who rolled it (null: the Dragon). */
  rollsOf(ev) {
    const out = [];
    const what = titleCase(ev.roll || ev.kind).replace("Movement Roll", "movement");
    const d = ev.dice;
    if (Array.isArray(d)) {
      const faces = d.filter(Number.isInteger);
      const hero = typeof ev.hero === "string" ? ev.hero : null;
      if (faces.length) out.push({ hero, row: { label: `${hero ? `${this.heroName(hero)}: ` : ""}${what}`, dice: faces, tones: faces.map((f) => (ev.kind === "movement_roll" && f === 1 ? "void" : "")) } });
    } else if (d && typeof d === "object") {
      for (const [hero, value] of Object.entries(d)) {
        // A scored roll's chains: a 6 rolls again, so each chain is one die and its re-rolls.
        const faces = Number.isInteger(value) ? [value] : Array.isArray(value) ? value.flat(2).filter(Number.isInteger) : [];
        const score = ev.score && ev.score[hero] !== undefined ? ` (score ${ev.score[hero]})` : "";
        if (faces.length) out.push({ hero, row: { label: `${this.heroName(hero)}: ${what}${score}`, dice: faces } });
      }
    } else if (Number.isInteger(ev.die) && ["rampage", "special_chance", "retaliation", "faith"].includes(ev.kind)) {
      const hero = typeof ev.hero === "string" ? ev.hero : null;
      out.push({ hero, row: { label: `${hero ? `${this.heroName(hero)}: ` : "Dragon: "}${what}`, dice: [ev.die] } });
    }
    return out;
  }

  /**
   * Each hero's rolls of its last turn, after `events` (of update `seq`): hero -> {turn, rows}.
   * A hero's "turn" event starts its list afresh, and every roll it makes until then is added
   * (the last five kept). Events may come late (a reload pages back through the history): with
   * their seq they slot in by it, and those before the hero's latest turn are left out; without
   * one they count as the newest.
   */
  keepRolls(rolls, events, seq = undefined) {
    const out = new Map(rolls);
    const newest = Math.max(0, ...[...out.values()].flatMap((k) => k.rows.map((r) => r.seq)), ...[...out.values()].map((k) => k.turn ?? 0));
    const at = seq ?? newest + 1;
    for (const ev of events) {
      if (ev.kind === "turn" && typeof ev.hero === "string") {
        const kept = out.get(ev.hero);
        if (!kept || (kept.turn ?? -1) <= at) out.set(ev.hero, { turn: at, rows: (kept?.rows || []).filter((r) => r.seq > at) });
      }
      for (const { hero, row } of this.rollsOf(ev)) {
        if (!hero) continue;
        const kept = out.get(hero) || { turn: null, rows: [] };
        if (kept.turn !== null && at < kept.turn) continue;
        const rows = [...kept.rows, { seq: at, row }].sort((a, b) => a.seq - b.seq).slice(-5);
        out.set(hero, { turn: kept.turn, rows });
      }
    }
    return out;
  }

  /** The rows kept for a hero by keepRolls, oldest first. */
  static lastRolls(rolls, hero) {
    return (rolls.get(hero)?.rows || []).map((r) => r.row);
  }

  /** The dice already on the table when one arrives (the movement roll in progress). */
  diceFromView(view) {
    const mv = view.movement;
    if (!mv || !Array.isArray(mv.rolled) || !view.current) return [];
    return [{ label: `${this.heroName(view.current)}: movement`, dice: mv.rolled, tones: mv.rolled.map((f) => (f === 1 ? "void" : "")) }];
  }

  /**
   * A position's name as the map shows it: the City, a named space, or an unnamed hex by its
   * terrain and where it lies from the nearest named place ("the forest east of Belk", "the
   * plains 2 hexes south-west of the City"). Space ids ("p05") appear on no hex, so no label uses them.
   */
  place(id, view) {
    if (id === CITY) return "the City";
    const s = this.board.cellsOf(id)[0];
    if (!s) return titleCase(id);
    const terrain = this.board.terrainOf(s, view);
    if (terrain === "razed") return `${s.name || "Belk"} (razed)`;
    if (s.name) return s.name;
    const near = this.board.nearestNamed(s.id);
    const kind = terrain === "lake" ? "lake" : terrain;
    if (!near) return `the ${kind} hex`;
    const from = near.space.node === CITY ? "the City" : near.space.name;
    const dir = compass(near.space, s);
    return near.distance === 1 ? `the ${kind} ${dir} of ${from}` : `the ${kind} ${near.distance} hexes ${dir} of ${from}`;
  }

  /** The engine's sentence for an event, with every space id in it named as the map shows it. */
  describeEvent(ev, view) {
    const text = ev.text || titleCase(ev.kind);
    return text.replace(/\b[a-z]+\d+\b/g, (word) => (this.board.byId.has(word) && !this.board.byId.get(word).name ? this.place(this.board.nodeOf(this.board.byId.get(word)), view) : word));
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
      case "undo_step":
        return "Take back the last step";
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
