// The Rules panel: each game's rules in our own words (frontend/rules/<game>.json, plus the
// table's own in rules/table.json), searchable, and opened at the right section from a refusal.
// A rules file is {title, intro, sections: [{id, title, keywords, body}], refusals: {code: id}};
// a body item is a paragraph, or a list of strings for a bulleted list. A refusal from the server
// cites its rule itself ({ref, title, section}: backend/engine/rulerefs.py, issue 14.2); the
// files' `refusals` only place the client's own codes (offline, disconnected).
import { clear, h } from "./ui.js";

// Words a refusal shares with every sentence, useless for finding its section.
const STOP = new Set(
  "a an and any are as at be been but by can cannot for from has have here his her its it may more must never next no not now of on once one only or other so than that the their them then there these this those to too up was what when where which while who will with without you your yours".split(" "),
);

const fold = (text) => String(text).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
const wordsOf = (text) => fold(text).match(/[a-z0-9]+/g) || [];

/** The rules of `game` with the table's own, or null when there are none to show. */
export async function loadRules(game) {
  const get = async (path) => {
    try {
      const answer = await fetch(path);
      return answer.ok ? await answer.json() : null;
    } catch {
      return null; // no rules file: the panel simply has fewer sections
    }
  };
  const [own, table] = await Promise.all([/^[a-z0-9_]+$/.test(String(game)) ? get(`/rules/${game}.json`) : null, get("/rules/table.json")]);
  if (!own && !table) return null;
  return {
    title: own?.title || table?.title || "Rules",
    intro: own?.intro || "",
    sections: [...(own?.sections || []), ...(table?.sections || [])],
    refusals: { ...(table?.refusals || {}), ...(own?.refusals || {}) },
  };
}

function bodyText(section) {
  return [section.title, ...(section.keywords || []), ...(section.body || []).flat()].join(" ");
}

/**
 * Sections that hold the query's words (each matched as a word's start), best first: those with
 * more of the words, then those naming them in their title or keywords rather than in passing.
 */
export function searchRules(book, query) {
  const wanted = [...new Set(wordsOf(query))];
  if (!wanted.length) return book.sections.map((section) => ({ section, score: 0 }));
  const hits = (words, w) => words.some((x) => x.startsWith(w));
  return book.sections
    .map((section, order) => {
      const title = wordsOf(section.title);
      const keys = wordsOf((section.keywords || []).join(" "));
      const body = wordsOf(bodyText(section));
      const found = wanted.filter((w) => hits(body, w));
      const weight = found.reduce((sum, w) => sum + (hits(title, w) ? 3 : 0) + (hits(keys, w) ? 2 : 0), 0);
      return { section, score: found.length, weight, order };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || b.weight - a.weight || a.order - b.order);
}

/** Where a refusal is explained: its code's section, or the words of its message worth searching for. */
export function placeOfRefusal(book, code, message) {
  const id = book.refusals[code];
  if (id && book.sections.some((s) => s.id === id)) return { section: id };
  const texts = book.sections.map((s) => new Set(wordsOf(bodyText(s))));
  const keys = [...new Set(wordsOf(message))]
    .filter((w) => w.length > 3 && !STOP.has(w))
    .map((w) => ({ w, n: texts.filter((t) => [...t].some((x) => x.startsWith(w))).length }))
    .filter((k) => k.n > 0)
    .sort((a, b) => a.n - b.n); // the rarer a word in the rules, the more it says
  return keys.length ? { query: keys.slice(0, 3).map((k) => k.w).join(" ") } : { section: book.sections[0]?.id };
}

/** How a refusal names its rule: "Rulebook: Movement of Hero", "Ruling R15: Where a hero may rest". */
export function citation(rule) {
  return rule.ref === `Rulebook: ${rule.title}` ? rule.ref : `${rule.ref}: ${rule.title}`;
}

/** `text` with the query's words marked. */
function marked(text, query) {
  const wanted = [...new Set(wordsOf(query))].filter((w) => w.length > 1);
  if (!wanted.length) return text;
  const pattern = new RegExp(`\\b(${wanted.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
  const out = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out.push(text.slice(last, m.index), h("mark", {}, m[0]));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

export class RulesPanel {
  constructor(book) {
    this.book = book;
    this.opener = null;
    this.cite = ""; // the rule a refusal cited, shown in its section while the panel is open at it
    this.search = h("input#rules-search", { type: "search", placeholder: "Search the rules", "aria-label": "Search the rules", autocomplete: "off", oninput: () => this.render() });
    this.count = h("p#rules-count.muted.small", { "aria-live": "polite" });
    this.list = h("div#rules-sections.rules-sections");
    this.contents = h("nav.rules-contents", { "aria-label": "Sections" });
    this.el = h(
      "aside#rules-panel.rules-panel",
      { hidden: true, role: "dialog", "aria-modal": "false", "aria-labelledby": "rules-title", onkeydown: (e) => e.key === "Escape" && this.close() },
      h("header.rules-head", {}, h("h2#rules-title", {}, book.title), h("button#rules-close.ghost.small", { type: "button", onclick: () => this.close(), "aria-label": "Close the rules" }, "Close")),
      this.search,
      this.count,
      this.contents,
      this.list,
    );
    document.body.append(this.el);
    this.render();
  }

  /** The top bar's button. */
  button() {
    return h("button#open-rules.ghost.small", { type: "button", "aria-controls": "rules-panel", onclick: (e) => (this.el.hidden ? this.open({ opener: e.currentTarget }) : this.close()) }, "Rules");
  }

  get isOpen() {
    return !this.el.hidden;
  }

  /** Open the panel at a section (`cite`: the rule a refusal named there), or searched for a query. */
  open({ section = null, query = "", opener = null, cite = "" } = {}) {
    this.opener = opener || document.activeElement;
    this.cite = section ? cite : "";
    this.search.value = query;
    this.el.hidden = false;
    this.render(section);
    const target = section && this.list.querySelector(`[data-section="${section}"]`);
    if (target) {
      target.scrollIntoView({ block: "start" });
      target.focus({ preventScroll: true });
    } else this.search.focus();
  }

  close() {
    this.el.hidden = true;
    if (this.opener && this.opener.isConnected) this.opener.focus();
  }

  /**
   * A link for a refusal that opens the panel where its reason is explained: at the section of the
   * rule it cites, named as the rule (its rulebook heading or ruling); a refusal without one (the
   * client's own, an older server) at its code's section, or searched for by its words.
   */
  linkFor(code, message, rule = null) {
    const cited = rule && this.book.sections.find((s) => s.id === rule.section);
    if (cited) {
      const name = citation(rule);
      const open = (e) => this.open({ section: cited.id, cite: name, opener: e.currentTarget });
      const where = `open the rules at “${cited.title}”`;
      return h("button.link.rules-link", { type: "button", title: where, "aria-label": `${name}: ${where}`, dataset: { section: cited.id, ref: rule.ref }, onclick: open }, name);
    }
    const place = placeOfRefusal(this.book, code, message);
    const section = place.section && this.book.sections.find((s) => s.id === place.section);
    const label = section ? `Rules: ${section.title}` : `Rules about “${place.query}”`;
    return h("button.link.rules-link", { type: "button", dataset: { section: place.section || "", query: place.query || "" }, onclick: (e) => this.open({ ...place, opener: e.currentTarget }) }, label);
  }

  render(focus = null) {
    const query = this.search.value.trim();
    const found = searchRules(this.book, query);
    clear(this.list);
    clear(this.contents);
    for (const { section } of found) {
      this.contents.append(h("a", { href: `#rules-${section.id}`, onclick: (e) => { e.preventDefault(); this.list.querySelector(`[data-section="${section.id}"]`)?.scrollIntoView({ block: "start" }); } }, section.title));
      this.list.append(
        h(
          `section.rules-section${section.id === focus ? ".focus" : ""}`,
          { id: `rules-${section.id}`, dataset: { section: section.id }, tabIndex: -1 },
          h("h3", {}, marked(section.title, query)),
          section.id === focus && this.cite ? h("p.rules-cite.small", {}, "The rule that refused your action: ", h("cite", {}, this.cite)) : null,
          (section.body || []).map((part) => (Array.isArray(part) ? h("ul", {}, part.map((item) => h("li", {}, marked(item, query)))) : h("p", {}, marked(part, query)))),
        ),
      );
    }
    if (!query && this.book.intro) this.list.prepend(h("p.rules-intro.muted", {}, this.book.intro));
    this.count.textContent = query ? (found.length ? `${found.length} section${found.length > 1 ? "s" : ""} about “${query}”` : `Nothing about “${query}”; try another word.`) : "";
  }
}

/** The panel for a game, mounted once per page; the refusal links and the top bar share it. */
export async function rulesPanelFor(game) {
  const book = await loadRules(game);
  return book ? new RulesPanel(book) : null;
}
