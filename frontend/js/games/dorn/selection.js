// Which listed actions a Dorn player is pointing at. The client holds no rules: an action is
// read generically by its fields (`hero`/`figure` = who acts, `to` or a `path` = a cell,
// `target` (or `other`, and a prompt answer's `hero`/`monster`) = a figure). A selection is
// null, "fig:<id>" (a picked figure), "mon:<type>" (a summon kind, "mon:strong" for the bag),
// "use:<hero>|<what>" (one ability, special attack, item or card of a hero picked, "use:|<card>"
// a Ritual: only its cells and targets are lit) or "ask:<id>|<other>|<x>,<y>" (figure <id> is
// picked and the player clicked <other>, one of their own figures, on a cell <id> may go to:
// the controls ask which was meant). Pure (no DOM): legal actions and a selection in, actions
// out; node tests it (tests/e2e/js/dorn_parts_cases.mjs).
import { cellOf, key, sameCell } from "./layout.js";

// Actions a seat may take but never owes (it stays among the seats that may act meanwhile):
// taking back its Done, and giving up, which either side may do at any time (content 5.9).
const OPTIONAL = new Set(["take_back_done", "surrender", "propose_surrender"]);

/** The cell an action points at: `to`, or the last cell of a `path`. */
export function actionCell(a) {
  if (cellOf(a.to)) return a.to;
  if (Array.isArray(a.path) && a.path.length && cellOf(a.path[a.path.length - 1])) return a.path[a.path.length - 1];
  return null;
}

/** Who acts in an action (a hero, a monster or Zorkal), or null (an answer's `hero` is a choice, not an actor). */
export function actorOf(a) {
  if (a.type === "choose") return null;
  if (typeof a.hero === "string") return a.hero;
  if (typeof a.figure === "string") return a.figure;
  return null;
}

// The keys that may name a figure an action is aimed at: a card's or ability's `target`, a
// second hero (`other`), a prompt answer's hero or monster.
const AIM_KEYS = ["target", "other"];
const ANSWER_AIM_KEYS = ["target", "other", "hero", "monster"];

/** The figure ids an action is aimed at (the board rings them; ids that are no figure are never drawn). */
export function aimsOf(a) {
  const out = [];
  for (const k of a.type === "choose" ? ANSWER_AIM_KEYS : AIM_KEYS) if (typeof a[k] === "string" && !out.includes(a[k])) out.push(a[k]);
  return out;
}

/**
 * What an action uses, for the "use:" selection: "<hero>|<ability, weapon, item or card>", or
 * "|<card>" for a Ritual; null for everything else (moves, summons, parries...).
 */
export function useKey(a) {
  switch (a.type) {
    case "ability":
      return `${a.hero}|${a.ability}`;
    case "attack":
      return typeof a.hero === "string" && a.with ? `${a.hero}|${a.with}` : null;
    case "play_blessing":
    case "use_item":
      return `${a.hero}|${a.card}`;
    case "play_ritual":
      return `|${a.card}`;
    default:
      return null;
  }
}

/** The "use:" selection's key, or null. */
export function useOf(selection) {
  return typeof selection === "string" && selection.startsWith("use:") ? selection.slice(4) : null;
}

// Card plays are never sent by a board click alone: unless the card is picked ("use:"), the
// click asks first (a Ritual costs Blood; a Blessing is played once).
const CARD_PLAYS = new Set(["play_ritual", "play_blessing"]);

/** Figures the listed actions let this seat command. */
export function actors(legal) {
  const out = [];
  for (const a of legal) {
    const who = actorOf(a);
    if (who && !out.includes(who)) out.push(who);
  }
  return out;
}

/** The question an "ask:" selection holds: {fig, other, cell}, or null. */
export function askOf(selection) {
  const m = typeof selection === "string" && /^ask:([^|]+)\|([^|]+)\|(-?\d+),(-?\d+)$/.exec(selection);
  return m ? { fig: m[1], other: m[2], cell: [Number(m[3]), Number(m[4])] } : null;
}

/** The selection that asks whether a click on `other` at `cell` picks it or moves `fig` there. */
export function askSelection(fig, other, cell) {
  return `ask:${fig}|${other}|${cell[0]},${cell[1]}`;
}

/** The selected figure: the picked one (or the user of the picked ability), or the only one that can act. */
export function activeFigure(selection, legal) {
  if (typeof selection === "string" && selection.startsWith("fig:")) return selection.slice(4);
  const use = useOf(selection);
  if (use !== null) return use.split("|")[0] || null;
  const ask = askOf(selection);
  if (ask) return ask.fig;
  const movers = actors(legal).filter((id) => legal.some((a) => actorOf(a) === id && (actionCell(a) || a.target)));
  return movers.length === 1 ? movers[0] : null;
}

/** A seat whose only listed action is taking back its Done owes nothing (docs/rules/dorn.md). */
export function owes(legal) {
  return legal.some((a) => !OPTIONAL.has(a.type));
}

/** A hero seat that has sent Done for the open step (the view's `done`). */
export function seatDone(view, seat) {
  return Boolean(view && Array.isArray(view.done) && view.done.includes(seat));
}

/** The selection kept across an update while the listed actions still use it, else null. */
export function keepSelection(selection, legal) {
  if (typeof selection !== "string") return null;
  // A question belongs to the board it was asked on: after an update, keep only its figure.
  const ask = askOf(selection);
  if (ask) return keepSelection(`fig:${ask.fig}`, legal);
  if (selection.startsWith("fig:")) return legal.some((a) => actorOf(a) === selection.slice(4)) ? selection : null;
  if (selection.startsWith("use:")) {
    const use = useOf(selection);
    if (legal.some((a) => useKey(a) === use)) return selection;
    // The ability is spent (or the step moved on): keep its user picked while it can act.
    const [hero] = use.split("|");
    return hero ? keepSelection(`fig:${hero}`, legal) : null;
  }
  if (selection.startsWith("mon:")) {
    const type = selection.slice(4);
    return legal.some((a) => (type === "strong" ? a.type === "summon_strong" : a.monster === type)) ? selection : null;
  }
  return null;
}

/** Actions that point at a cell, for the active figure or (none picked) for no figure; only the picked ability's or card's under "use:". */
function cellActions(legal, selection) {
  const use = useOf(selection);
  if (use !== null) return legal.filter((a) => useKey(a) === use && actionCell(a));
  const fig = activeFigure(selection, legal);
  const summonPick = typeof selection === "string" && selection.startsWith("mon:") ? selection.slice(4) : null;
  return legal.filter((a) => {
    if (!actionCell(a)) return false;
    const who = actorOf(a);
    if (who) return who === fig;
    if (summonPick) return summonPick === "strong" ? a.type === "summon_strong" : a.monster === summonPick;
    return !fig;
  });
}

/** Actions that point at a figure (attacks, abilities, items on another hero, answers), for the active figure; the picked ability's under "use:". */
function targetActions(legal, selection) {
  const use = useOf(selection);
  if (use !== null) return legal.filter((a) => useKey(a) === use && aimsOf(a).length);
  const fig = activeFigure(selection, legal);
  return legal.filter((a) => aimsOf(a).length && (fig ? actorOf(a) === fig : true));
}

/** The lit cells: "x,y" -> the cell actions that end there. */
export function litCells(legal, selection) {
  const lit = new Map();
  for (const a of cellActions(legal, selection)) {
    const k = key(...actionCell(a));
    if (!lit.has(k)) lit.set(k, []);
    lit.get(k).push(a);
  }
  return lit;
}

/** The ringed figures: figure id -> the actions aimed at it. */
export function targetedFigures(legal, selection) {
  const targeted = new Map();
  for (const a of targetActions(legal, selection)) {
    for (const id of aimsOf(a)) {
      if (!targeted.has(id)) targeted.set(id, []);
      targeted.get(id).push(a);
    }
  }
  return targeted;
}

/** The cell actions of `fig` that end on `cell` (a figure's moves and its items aimed at a cell), or aimed at figure `other` there. */
export function figureActionsAt(legal, fig, cell, other = null) {
  return legal.filter((a) => actorOf(a) === fig && (sameCell(actionCell(a), cell) || (other !== null && aimsOf(a).includes(other))));
}

/**
 * What a click on `cell` (on the token of figure `clicked`, or null) means: a listed action,
 * {select}, {choose: [actions], title}, an explanation ({choose: [], title}: nothing fits, the
 * title says why), an unlisted move (so the player reads the server's reason), or null.
 * `figureName(id)` names figures; `isHero(id)` tells heroes. A click on one's own figure picks
 * it; a click on a hero token never walks the picked figure onto that cell unasked: where the
 * picked figure may go, {select: "ask:…"} lets the controls ask which was meant (a hero of
 * another seat, as in hot-seat play, cannot be picked from this one: the question says so).
 */
export function clickAction(cell, clicked, legal, selection, figureName, isHero = () => false) {
  const fig = activeFigure(selection, legal);
  const mine = actors(legal);
  const pick = (list, title) => (list.length === 1 ? list[0] : list.length ? { choose: list, title } : null);
  // A target figure first (attacks), then the seat's own figures, then the cell (moves, summons, placements).
  const use = useOf(selection);
  if (clicked && clicked === fig && use === null && mine.includes(clicked)) {
    // The picked figure's own token: an ability aimed at its own cell (a fireball) is asked
    // about once the figure is picked; a click before that picks it.
    const own = cellActions(legal, selection).some((a) => sameCell(actionCell(a), cell));
    return own && selection === `fig:${clicked}` ? { select: askSelection(fig, clicked, cell) } : { select: `fig:${clicked}` };
  }
  if (clicked && clicked !== fig) {
    const onIt = targetActions(legal, selection).filter((a) => aimsOf(a).includes(clicked));
    // Attacks, abilities and answers aimed at the figure are sent at once (several: which one?);
    // a card only once it is picked.
    const aimed = onIt.filter((a) => ["attack", "ability", "choose"].includes(a.type) || (use !== null && CARD_PLAYS.has(a.type)));
    const goes = fig && cellActions(legal, selection).some((a) => sameCell(actionCell(a), cell));
    // One's own hero, aimed at by the picked one's ability (a heal): pick it, or use the ability? The controls ask.
    if (mine.includes(clicked) && use === null && fig && aimed.length) return { select: askSelection(fig, clicked, cell) };
    const chosen = pick(aimed, aimed.every((a) => a.type === "attack") ? `Attack ${figureName(clicked)} with…` : `On ${figureName(clicked)}:`);
    if (chosen) return chosen;
    if (mine.includes(clicked)) {
      // One's own figure is picked rather than walked onto or spent an item on (those stay
      // buttons); if the picked figure may also go there, the controls ask which was meant.
      return { select: goes ? askSelection(fig, clicked, cell) : `fig:${clicked}` };
    }
    if (goes && isHero(clicked)) return { select: askSelection(fig, clicked, cell) };
    // Anything else aimed at a figure (an item) is confirmed in a dialog.
    if (onIt.length) return { choose: onIt, title: `On ${figureName(clicked)}?` };
  }
  const here = cellActions(legal, selection).filter((a) => sameCell(actionCell(a), cell));
  if (here.length === 1 && use === null && CARD_PLAYS.has(here[0].type)) return { choose: here, title: `At (${cell[0]},${cell[1]})?` };
  const chosen = pick(here, `At (${cell[0]},${cell[1]})`);
  if (chosen) return chosen;
  if (clicked && mine.includes(clicked)) return { select: `fig:${clicked}` };
  if (fig) {
    // An unlisted cell for a moving figure: ask anyway, so the player reads the rule that forbids it.
    const template = use !== null ? legal.find((a) => useKey(a) === use && cellOf(a.to)) : legal.find((a) => actorOf(a) === fig && cellOf(a.to) && !a.card && a.type !== "ability");
    if (template && !clicked) return { ...template, to: cell };
    if (template && clicked) return { choose: [], title: `${figureName(fig)} cannot go to (${cell[0]},${cell[1]}): ${figureName(clicked)} stands there.` };
  }
  if (!fig && mine.length && legal.some((a) => actorOf(a) && (actionCell(a) || a.target))) {
    return { choose: [], title: `Pick a figure first (click its ringed token, or its button): ${mine.map(figureName).join(", ")}.` };
  }
  return null;
}
