// Dorn's DOM side: the hero panels under the board (the Keeper's card, one card per hero, the
// seat's Blessing) and the controls: the listed actions as board clicks, buttons and dialogs.
import { h } from "../../ui.js";
import { cardHeader, keptOpen, seatOf, statBar, textChip, tokenChip } from "../panels.js";
import { heroColor } from "./figures.js";
import { key } from "./layout.js";
import { abilityEntry, abilityGroup, abilityLine, abilityName, heroAbilities } from "./abilities.js";
import { doneLabel, MARKER_LABEL, promptTitle, ritualCost } from "./names.js";
import { actionCell, activeFigure, actorOf, actors as actorsOf, aimsOf, askOf, figureActionsAt, owes, useKey, useOf } from "./selection.js";
import { TERRAIN_STYLE } from "./terrain.js";
import { attackText, cardLine, cardText, effectEntries, legendEntries, zorkalText } from "./texts.js";

function kv(label, value) {
  return h("span", {}, `${label} `, h("b", {}, value));
}

/**
 * The Keeper's card, every hero's card, the Blessing strip and the legend (ctx: the table's
 * seats and who acts). A card's text is shown only where the view hands that card to this
 * seat (the Keeper's hand, the seat's Blessing, the items hero seats see); `open` remembers
 * the texts the player opened.
 */
export function heroPanels({ stat, names, open = new Set(), legal = [] }, view, { mine = [], toAct = [], connected = new Set(), table, active = null } = {}) {
  view = view || {};
  const kit = { stat, names, open, legal };
  const cards = [keeperCard(kit, view, { toAct, connected, table })];
  const activeHeroes = active && view.seats && view.seats[active] ? view.seats[active] : [];
  for (const [id, hero] of Object.entries(view.heroes || {})) {
    const seat = { due: toAct.includes(hero.seat), mine: mine.includes(hero.seat), current: activeHeroes.includes(id) };
    cards.push(heroCard(kit, view, id, hero, seat, { connected, table }));
  }
  return h("div", {}, h("div.hero-grid.hero-grid-dorn", {}, cards), blessingStrip(kit, view), effectStrip(kit, view), legend(open));
}

/** The lasting effects and the permanent Rituals in play, for everyone: each with its card's or ability's text on tap or hover. */
function effectStrip({ stat, names, open }, view) {
  const list = effectEntries(stat, names, view);
  if (!list.length) return null;
  return h(
    "div.effect-strip.small",
    {},
    h("span.muted", {}, "In play: "),
    list.map((e, i) => [i ? " " : "", textChip(".effect-chip", `effect:${e.label}`, open, e.label, e.text)]),
  );
}

/** A card the seat holds (or one face up for everyone): its name on the chip, its text on tap or hover. */
function cardChip({ stat, open }, id, kind, label = cardText(stat, id).name) {
  return textChip(`.card-chip.${kind}`, `${kind.split(".")[0]}:${id}`, open, label, cardLine(stat, id));
}

/** What every colour, mark and badge of the board means: the zones from the terrain styles, the rest from texts.js. */
function legend(open) {
  const zones = Object.entries(TERRAIN_STYLE).map(([zone, style]) =>
    h("li", {}, h("span.legend-swatch", { style: { background: style.fill, display: "inline-block", width: "0.9em", height: "0.9em", marginRight: "0.35em", verticalAlign: "-0.1em", border: "1px solid #000" } }), style.label),
  );
  const marks = legendEntries(MARKER_LABEL).map(([, , label, meaning]) => h("li", {}, h("b", {}, label), `: ${meaning}`));
  return h(
    "details.board-legend.small",
    keptOpen(open, "legend"),
    h("summary", {}, "What the board shows"),
    h("ul", { style: { columns: "2 24em", columnGap: "2em", margin: "0.3em 0", paddingLeft: "1.2em" } }, zones, marks, h("li", {}, h("b", {}, "Numbers on the edges"), ": columns (x) above, rows (y) on the left; buttons and the log name cells (x,y).")),
  );
}

/** Zorkal, the pool, the chamber, the Gate, the bag; the Ritual hand for the Keeper's own eyes. */
function keeperCard(kit, view, { toAct, connected, table }) {
  const { stat } = kit;
  const z = view.zorkal || {};
  const hand = view.ritual_hand;
  // Which Rituals the pool pays now (the Blood step's buttons are the ones whose condition holds too).
  const blood = view.blood ?? 0;
  const payable = (c) => view.phase === "K1" && !view.ritual_played && (ritualCost(stat, c, view) ?? Infinity) <= blood;
  const payNote = (c) => {
    const cost = ritualCost(stat, c, view);
    if (cost !== null && cost > blood) return `needs ${cost - blood} more Blood`;
    if (view.phase !== "K1") return "the pool pays it";
    return view.ritual_played ? "one Ritual a turn: played" : "the pool pays it now";
  };
  return h(
    `article.hero-card.keeper-card${Array.isArray(hand) ? ".with-hand" : ""}${toAct.includes("keeper") ? ".due" : ""}`,
    { dataset: { seat: "keeper" } },
    cardHeader(
      h("span.token.token-keeper", {}, "♛"),
      h("strong", {}, "Zorkal"),
      seatOf(table, "keeper"),
      connected,
      toAct.includes("keeper") ? h("span.badge.badge-open", {}, "to act") : null,
    ),
    h(
      "div.hero-stats",
      {},
      h("div.stat-line", { title: zorkalText(stat, z.level ?? 1) }, kv("Life", z.life ?? 0), kv("Level", z.level ?? 1), kv("Blood", view.blood ?? 0)),
      h("div.stat-line", {}, kv("Chamber", `${view.fill ?? 0}/${stat.chamber_fill_turns || 3}`), kv("Gate", view.gate_open ? "open" : "shut"), kv("Bag", view.bag ?? 0)),
      Array.isArray(hand)
        ? h(
            "div.card-list",
            { title: "Your Ritual hand (only you see it)" },
            h("span.muted", {}, "Rituals: "),
            hand.length
              ? hand.map((c) => cardChip(kit, c, `ritual${payable(c) ? ".playable" : ""}`, `${cardText(stat, c).name} (${ritualCost(stat, c, view) ?? "?"} Blood; ${payNote(c)})`, c))
              : "none",
          )
        : h("div.small.muted", {}, `${view.ritual_hand_count ?? 0} Ritual cards in hand`),
      (view.rituals_in_play || []).length
        ? h("div.card-list", {}, h("span.muted", {}, "In play: "), view.rituals_in_play.map((c) => cardChip(kit, c, "ritual")))
        : null,
    ),
  );
}

/** A hero's life, level, XP, what it has left in its step, its attacks, Artifacts and items. */
function heroCard(kit, view, id, hero, { due, mine, current }, { connected, table }) {
  const { stat, names, open } = kit;
  const sheet = (stat.heroes || {})[id] || {};
  const level = hero.level ?? 1;
  const attacks = (sheet.basic || []).filter((a) => !a.levels || a.levels.includes(level));
  const basicIds = new Set((sheet.basic || []).map((a) => a.id));
  const abilities = heroAbilities(stat, id, level).filter((ab) => !basicIds.has(ab.id));
  // Once-per-turn uses of catalogued abilities (the engine also notes other uses there).
  const used = (hero.used || []).filter((u) => abilityEntry(stat, id, String(u))).map((u) => abilityName(stat, id, String(u)));
  const carried = Object.entries(view.artifacts || {}).filter(([, a]) => a.carrier === id).map(([aid]) => names.artifactName(aid));
  const items = Array.isArray(hero.cards) ? hero.cards : null;
  const flags = [!hero.alive && "dead", hero.rot && "mummy rot", hero.rubble && "in rubble", hero.item_used && "item used", hero.away && "away on an Astral Journey", hero.aegis != null && "under Aegis"].filter(Boolean);
  const next = (stat.level_xp || [])[level];
  const stats = [kv("Level", level), kv("XP", next !== undefined ? `${hero.xp ?? 0}/${next}` : hero.xp ?? 0)];
  if (view.phase === "H2") stats.push(kv("Move", hero.move_left ?? 0));
  if (view.phase === "H3") stats.push(kv("Actions", hero.actions ?? 0));
  if (view.phase === "K4P" || view.phase === "K4") stats.push(kv("Parries", hero.parries ?? 0));
  return h(
    `article.hero-card${due ? ".due" : ""}${mine ? ".mine" : ""}${current ? ".current" : ""}${hero.alive ? "" : ".dead"}`,
    { dataset: { hero: id, seat: hero.seat } },
    cardHeader(tokenChip(heroColor(id), names.heroName(id).slice(0, 2)), h("strong", { title: sheet.role || "" }, names.heroName(id)), seatOf(table, hero.seat), connected),
    h(
      "div.hero-stats",
      {},
      statBar("Life", hero.life, hero.max_life, "health"),
      h("div.stat-line", {}, stats),
      attacks.length
        ? textChip(".small.attacks", `attacks:${id}`, open, attacks.map((a) => a.name).join(" · "), attacks.map((a) => attackText(a, level)).join("; "))
        : h("div.small.attacks", {}, "—"),
      abilities.length
        ? h("div.small.abilities", {}, abilities.map((ab, i) => [i ? " · " : "", textChip(".ability-chip", `ability:${id}:${ab.id}`, open, abilityName(stat, id, ab.id), abilityLine(stat, id, ab.id))]))
        : null,
      used.length ? h("div.small.hero-used", { title: "Once-per-turn abilities this hero has used" }, "Used: ", used.join(", ")) : null,
      carried.length ? h("div.small.artifacts", { title: "Artifacts this hero carries" }, "◆ ", carried.join(", ")) : null,
      items
        ? h("div.small.items", {}, items.length ? ["Items: ", items.map((c) => cardChip(kit, c, "item"))] : h("span.muted", {}, "No items"))
        : hero.card_count
          ? h("div.small.items", {}, `${hero.card_count} item card${hero.card_count > 1 ? "s" : ""}`)
          : null,
      flags.length ? h("div.small.hero-flags", {}, flags.join(" · ")) : null,
    ),
  );
}

/** The seat's own Blessing (a hero seat), or every seat's (a replay), or nothing. */
function blessingStrip(kit, view) {
  const blessing = view.my_blessing;
  if (blessing === undefined && !view.blessings) return null;
  return h(
    "div.blessing-strip.small",
    {},
    blessing !== undefined
      ? h("span", {}, "Your Blessing: ", blessing ? cardChip(kit, blessing, "blessing") : h("span.muted", {}, "played"))
      : h("span", {}, "Blessings: ", Object.entries(view.blessings || {}).map(([s, c]) => [`${s}: `, c ? cardChip(kit, c, "blessing") : "played", " "])),
  );
}

/** Turn the listed actions into {hint, groups, prompt}: board clicks, buttons, dialogs. */
export function controls(names, view, legal, selection) {
  const kit = planKit(names, view, legal);
  return askPlan(names, view, legal, selection, kit) || promptPlan(names, view, legal, kit) || question(names, view, kit, selection) || stepPlan(names, view, legal, selection, kit);
}

/** The player clicked one of their own figures on a cell the picked one may go to: which was meant? */
function askPlan(names, view, legal, selection, { item, finish }) {
  const ask = askOf(selection);
  if (!ask) return null;
  const moves = figureActionsAt(legal, ask.fig, ask.cell, ask.other);
  const other = names.figureName(ask.other, view);
  const picked = names.figureName(ask.fig, view);
  if (ask.fig === ask.other) {
    return finish([], `${picked}: aim at ${picked}'s own cell?`, {
      title: `(${ask.cell[0]},${ask.cell[1]}): ${picked}'s own cell`,
      text: `${picked} may aim here, at the cell it stands on.`,
      items: [...moves.map((a) => item(a)), { select: `fig:${ask.fig}`, label: "Neither (keep the picked figure)", ghost: true }],
      dock: "side",
    });
  }
  // A hero of another seat (hot-seat) is moved from that seat's tab, not picked here.
  const ours = actorsOf(legal).includes(ask.other);
  // The picked hero may use an ability on the clicked one (a heal) rather than go there.
  const aimed = moves.some((a) => aimsOf(a).includes(ask.other));
  const verb = aimed ? `use ${picked}'s ability on ${other}` : `move ${picked} there`;
  return finish([], ours ? `Pick ${other}, or ${verb}?` : `${titleCaseFirst(verb)}?`, {
    title: ours ? `(${ask.cell[0]},${ask.cell[1]}): pick ${other} or ${verb}?` : `(${ask.cell[0]},${ask.cell[1]}): ${aimed ? verb : `move ${picked} next to ${other}`}?`,
    text: ours
      ? aimed ? `${other} is one of your figures, and ${picked} may also act on them.` : `${other} stands on that cell, where ${picked} may also go.`
      : `${other} stands there and is played from another seat: to move ${other}, switch to that seat.`,
    items: [
      ours ? { select: `fig:${ask.other}`, label: `Pick ${other}`, primary: true } : null,
      ...moves.map((a) => item(a)),
      { select: `fig:${ask.fig}`, label: "Neither (keep the picked figure)", ghost: true },
    ].filter(Boolean),
    dock: "side",
  });
}

function titleCaseFirst(t) {
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// Up to this many choices of one ability or card are buttons; more are clicked on the board
// (the ability or card picked first lights only its cells and targets).
const MAX_BUTTONS = 12;

/** What the plans are made of: a button per action, the Done and give-up groups, and a plan that ends with them. */
function planKit(names, view, legal) {
  const item = (a, extra = {}) => ({ action: a, label: names.actionLabel(a, view), ...extra });
  const done = legal.filter((a) => a.type === "done");
  const giveUp = legal.filter((a) => a.type === "surrender" || a.type === "propose_surrender");
  const doneGroup = done.length ? { title: "", items: done.map((a) => item(a, { primary: true })) } : null;
  const giveUpGroup = giveUp.length ? { title: "", items: giveUp.map((a) => item(a, { ghost: true })) } : null;
  return {
    item,
    done,
    giveUpGroup,
    byType: (t) => legal.filter((a) => a.type === t),
    finish: (groups, hint, prompt = null) => ({ hint, groups: [...groups, doneGroup, giveUpGroup].filter(Boolean), prompt }),
  };
}

/** A question asked of this seat (a surrender vote, the hidden monster, parries, its Blessing): a dialog; else null. */
function question(names, view, { item, done, giveUpGroup, byType, finish }, selection = null) {
  if (byType("surrender_vote").length) {
    const s = view.surrender || {};
    return { hint: "Answer the surrender proposal.", groups: [], prompt: { title: "Surrender?", text: `${s.by || "A hero seat"} proposes that the heroes give up. Every other hero seat must accept.`, items: byType("surrender_vote").map((a) => item(a, { primary: !a.accept })) } };
  }
  if (byType("place_monster").length) {
    const p = view.prompt || {};
    const what = p.monster ? names.monsterName(p.monster) : "monster";
    return finish([], `Click a lit cell next to ${p.finder ? names.heroName(p.finder) : "the hero"}.`, {
      title: `A hidden ${what.toLowerCase()}!`,
      text: `${p.finder ? names.heroName(p.finder) : "A hero"} found it in the treasure. Place it on a lit cell next to the hero (or pick one here).`,
      items: byType("place_monster").map((a) => item(a)),
      dock: "side",
    });
  }
  if (byType("parry").length || (view.phase === "K4P" && done.length)) {
    const attacks = view.attacks || [];
    const list = attacks.map((at) => `${names.figureName(at.by, view)} → ${names.heroName(at.target)}${at.parried ? " (parried)" : ""}`);
    return {
      hint: "Choose the attacks your heroes parry.",
      groups: giveUpGroup ? [giveUpGroup] : [],
      prompt: {
        title: "Parry!",
        text: `The monsters attack: ${list.join("; ") || "—"}. Each hero parries up to its parries; every other attack hits.`,
        items: [...byType("parry").map((a) => item(a, { primary: true })), ...done.map((a) => item(a))],
        dock: "side",
      },
    };
  }
  if (byType("play_blessing").length) {
    const card = view.my_blessing;
    const c = card ? cardText(names.stat, card) : null;
    const plays = byType("play_blessing");
    const many = plays.length > MAX_BUTTONS;
    const use = useOf(selection);
    const picked = use !== null && plays.some((a) => useKey(a) === use);
    const users = [...new Set(plays.map((a) => a.hero))];
    // Many choices (cells, targets): pick the hero who receives it, then click on the board.
    const items = many
      ? users.map((hid) => ({ select: `use:${hid}|${plays.find((a) => a.hero === hid).card}`, label: `${c ? c.name : "The Blessing"} for ${names.heroName(hid)}…`, selected: use === `${hid}|${plays.find((a) => a.hero === hid).card}`, kind: "use", primary: true }))
      : plays.map((a) => item(a, { primary: true }));
    return finish([], many ? (picked ? "Click a lit cell or a ringed figure to play the Blessing there." : "Pick the hero who receives your Blessing, then click its target on the board.") : "Play your Blessing now, or keep it.", {
      title: `Your Blessing${c ? `: ${c.name}` : ""}`,
      text: `${c && c.text ? `${c.text} ` : ""}A Blessing is played once, on one of your heroes on the board. Keep it for a later turn with the step's Done button.`,
      items: [...items, ...done.map((a) => item(a))],
      dock: "side",
    });
  }
  return null;
}

/**
 * An open question (rules/prompts.py) this seat answers: the engine's words as the dialog's
 * text, each listed answer a button; answers with a cell or a figure are also lit or ringed on
 * the board and answered by clicking there.
 */
function promptPlan(names, view, legal, { item, byType, finish }) {
  const p = view.prompt;
  const answers = byType("choose");
  if (!p || !answers.length) return null;
  const onBoard = answers.some((a) => actionCell(a) || aimsOf(a).length);
  const others = legal.filter((a) => a.type !== "choose" && a.type !== "surrender" && a.type !== "time_up");
  return finish([], onBoard ? "Answer the question: click a lit cell or a ringed figure, or a button." : "Answer the question.", {
    title: titleCaseFirst(promptTitle(p, view, names.stat)),
    text: p.text || "",
    items: [...answers.map((a, i) => item(a, { primary: i === 0, title: i === 0 ? "The default answer when time runs out" : "" })), ...others.map((a) => item(a))],
    dock: "side",
  });
}

/** The step's own controls: the Blood step, summon kinds, the figures and what the picked one may do. */
function stepPlan(names, view, legal, selection, { item, done, byType, finish }) {
  // Done already: the step waits for the other hero seats; Done can be taken back meanwhile.
  // Off turn, a side may still give up (content 5.9): those buttons stay, quietly.
  if (legal.length && !owes(legal)) {
    const back = byType("take_back_done").length > 0;
    const items = legal.map((a) => item(a, { ghost: a.type !== "take_back_done" }));
    return { hint: back ? "You are done with this step; the other hero seats are still playing it." : "Nothing to do now but wait (you may still give up).", groups: [{ title: "", items }], prompt: null };
  }
  const groups = [];
  const rituals = byType("play_ritual");
  if (rituals.length || byType("level_zorkal").length) {
    groups.push({ title: `Blood step (pool ${view.blood ?? 0})`, items: [...byType("level_zorkal").map((a) => item(a)), ...cardItems(names, view, rituals, selection, item)] });
  }

  // Summoning: pick a kind (or click any lit cell).
  const summons = legal.filter((a) => (a.type === "summon" || a.type === "summon_strong") && actionCell(a));
  let hint = "";
  if (summons.length) {
    const kinds = [...new Set(summons.map((a) => (a.type === "summon_strong" ? "strong" : a.monster)))];
    groups.push({
      title: "Summon which monster?",
      items: kinds.map((k) => ({
        label: k === "strong" ? "Strong (from the bag)" : names.monsterName(k),
        select: `mon:${k}`,
        selected: selection === `mon:${k}`,
        kind: "summon-kind",
        title: "Light only its cells",
      })),
    });
    const left = view.summon ? ` Allowance: ${view.summon.weak ?? 0} weak, ${view.summon.strong ?? 0} strong.` : "";
    hint = `Click a lit cell to summon there.${left}`;
  }

  // Figures that can act: pick one on the board or here.
  const actors = actorsOf(legal);
  const fig = activeFigure(selection, legal);
  if (actors.length) {
    groups.push({
      title: actors.length > 1 ? "Pick a figure (or click it on the board)" : "",
      items: actors.map((id) => ({
        label: names.figureShort(id, view),
        select: `fig:${id}`,
        selected: fig === id,
        kind: "figure",
        title: `Act with ${names.figureName(id, view)}`,
      })),
    });
  }
  if (fig) hint = figureControls(names, view, legal, fig, item, groups, selection);
  else if (actors.length) hint = hint || "Click one of your ringed figures, then a lit cell or a target.";
  if (useOf(selection) !== null && useOf(selection).startsWith("|") && rituals.some((a) => useKey(a) === useOf(selection))) {
    hint = `${names.cardName(useOf(selection).slice(1))}: click a lit cell or a ringed figure.`;
  }
  const rest = legal.filter((a) => !actorOf(a) && !actionCell(a) && !["done", "surrender", "propose_surrender", "level_zorkal", "play_ritual"].includes(a.type));
  if (rest.length) groups.push({ title: "", items: rest.map((a) => item(a)) });
  if (!hint) hint = done.length ? `${doneLabel(view.phase)} when you are ready.` : "";
  return finish(groups, hint);
}

/**
 * A card's plays (Rituals: `plays` of several cards), one button per play; a card with more
 * than MAX_BUTTONS choices is one button that picks it ("use:|<card>"), and its choices are
 * clicked on the board (lit cells, ringed figures). Each button's title is the card's text.
 */
function cardItems(names, view, plays, selection, item) {
  const out = [];
  const use = useOf(selection);
  const byCard = new Map();
  for (const a of plays) {
    const k = useKey(a);
    if (!byCard.has(k)) byCard.set(k, []);
    byCard.get(k).push(a);
  }
  for (const [k, list] of byCard) {
    const card = list[0].card;
    const title = cardLine(names.stat, card);
    if (list.length > MAX_BUTTONS || (use === k && list.some((a) => actionCell(a) || aimsOf(a).length))) {
      const cost = list[0].type === "play_ritual" ? ritualCost(names.stat, card, view) : null;
      out.push({ select: `use:${k}`, label: `${names.cardName(card)}${cost !== null ? ` (${cost} Blood)` : ""}: pick on the board…`, selected: use === k, kind: "use", title });
      if (use === k && list.length <= MAX_BUTTONS) out.push(...list.map((a) => item(a, { title })));
    } else out.push(...list.map((a) => item(a, { title })));
  }
  return out;
}

/**
 * The picked figure's actions, added to `groups`: a hero's Attacks, Spells and Abilities (from
 * the catalogue's kinds), each ability one button (several choices: a button that lights
 * its cells and targets, and the choices as buttons when few), the moves and the rest; the
 * hover text of each is the catalogue's effect text. Returns the hint for it.
 */
function figureControls(names, view, legal, fig, item, groups, selection = null) {
  const stat = names.stat;
  const mine = legal.filter((a) => actorOf(a) === fig);
  const use = useOf(selection);
  const usable = mine.filter((a) => (a.type === "ability" || a.type === "attack") && useKey(a) !== null);
  const cellMoves = mine.filter((a) => actionCell(a) && !usable.includes(a) && !a.card);
  const targets = mine.filter((a) => aimsOf(a).length && !usable.includes(a));
  const other = mine.filter((a) => !actionCell(a) && !aimsOf(a).length && !usable.includes(a));
  const tips = [];
  if (use !== null && usable.some((a) => useKey(a) === use)) {
    const a0 = usable.find((a) => useKey(a) === use);
    tips.push(`${a0.type === "ability" ? names.abilityName(a0.hero, a0.ability) : names.attackName(a0.hero, a0.with)}: click a lit cell or a ringed target`);
  } else {
    if (cellMoves.length) tips.push(`click a lit cell (${new Set(cellMoves.map((a) => key(...actionCell(a)))).size} reachable)`);
    if (usable.some((a) => aimsOf(a).length) || targets.length) tips.push("click a ringed target");
  }
  // Attacks, Spells, Abilities: one entry per weapon or ability.
  const byGroup = new Map([["Attacks", []], ["Spells", []], ["Abilities", []]]);
  const byUse = new Map();
  for (const a of usable) {
    const k = useKey(a);
    if (!byUse.has(k)) byUse.set(k, []);
    byUse.get(k).push(a);
  }
  for (const [k, list] of byUse) {
    const a0 = list[0];
    const id = a0.type === "ability" ? a0.ability : a0.with;
    const title = abilityLine(stat, fig, id);
    const name = a0.type === "ability" ? names.abilityName(fig, id) : names.attackName(fig, id);
    const entries = byGroup.get(abilityGroup(stat, a0));
    // A few choices are buttons (and clicks on the board); more: a button that lights only
    // this ability's cells and targets, with its choices as buttons once picked, if not too many.
    if (list.length <= (a0.type === "attack" ? 8 : 4)) {
      entries.push(...list.map((a) => item(a, { title })));
      continue;
    }
    entries.push({ select: `use:${k}`, label: `${name}…`, selected: use === k, kind: "use", title: `${title} (lights its targets)` });
    if (use === k && list.length <= MAX_BUTTONS) entries.push(...list.map((a) => item(a, { title })));
  }
  for (const [title, entries] of byGroup) if (entries.length) groups.push({ title, items: entries });
  // Other actions aimed at a figure (items on another hero) are always buttons.
  if (targets.length) groups.push({ title: "Targets", items: targets.map((a) => item(a)) });
  if (other.length) groups.push({ title: "Also", items: other.map((a) => item(a)) });
  return `${names.figureName(fig, view)}: ${tips.join(", or ") || "choose below"}.`;
}
