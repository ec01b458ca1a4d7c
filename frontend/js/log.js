// The game log: one group of sentences per seq, always in seq order, whether the update
// came live or from the table's history (a reload or a late spectator fills in the past).
// It stays on the newest line unless the reader scrolled up to read older ones.
import { h } from "./ui.js";

// How close to the bottom (CSS px) still counts as "reading the newest line".
const BOTTOM_SLACK = 24;

export class GameLog {
  /**
   * @param {HTMLElement} el
   * @param {{describe?: (ev: object) => (string|null), words?: (text: string, ev?: object) => string, byName?: (seat: string) => string}} opts
   *   `describe` turns an event into a sentence, `words` puts the players' names into it.
   */
  constructor(el, { describe, words, byName } = {}) {
    this.el = el;
    this.el.classList.add("log");
    this.el.setAttribute("role", "log");
    this.el.tabIndex = 0; // a scrollable region must be reachable by keyboard
    this.describe = describe || ((ev) => ev.text || ev.kind);
    this.words = words || ((text) => text);
    this.byName = byName || ((seat) => seat);
    this.empty = h("p.log-note.log-empty", {}, "Nothing has happened yet: the first move will show here.");
    this.el.append(this.empty);
    this.seqs = new Set(); // every seq shown or known to have nothing to show
    this.lastSeq = null;
    // Following is the reader's choice, kept across resizes: only a scroll by the reader changes it.
    this.following = true;
    this.el.addEventListener("scroll", () => {
      if (this.pinning) return;
      this.following = this.distanceFromBottom() <= BOTTOM_SLACK;
    });
    // The column changes height (a panel grows, the window is resized): stay on the newest line.
    new ResizeObserver(() => this.following && this.pin()).observe(this.el);
  }

  distanceFromBottom() {
    return this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight;
  }

  pin() {
    this.pinning = true;
    this.el.scrollTop = this.el.scrollHeight;
    // The scroll event of this assignment comes later; it must not read as the reader's.
    requestAnimationFrame(() => (this.pinning = false));
  }

  /** Keep the reader where they are while `fn` changes the content: on the newest line, or on what they read. */
  _keepPlace(fn) {
    const anchor = this.following ? null : this._firstVisible();
    const top = anchor ? anchor.getBoundingClientRect().top : 0;
    fn();
    if (this.following) this.pin();
    else if (anchor) this.el.scrollTop += anchor.getBoundingClientRect().top - top;
  }

  _firstVisible() {
    const box = this.el.getBoundingClientRect();
    return [...this.el.children].find((c) => c.getBoundingClientRect().bottom > box.top) || null;
  }

  has(seq) {
    return this.seqs.has(seq);
  }

  /** The highest seq up to `upto` the log does not hold, seq 0 (the setup) included; -1 when it holds them all. */
  missingBelow(upto) {
    for (let s = upto; s >= 0; s -= 1) if (!this.seqs.has(s)) return s;
    return -1;
  }

  /** Add one update's events under its seq, in seq order (a seq already shown is skipped). */
  addEvents(seq, events, { by = null, auto = false } = {}) {
    this.addMany([{ seq, events, by, auto }]);
  }

  /** Add several updates at once (a page of history): one layout pass, one scroll fix. */
  addMany(entries) {
    const groups = [];
    for (const { seq, events, by = null, auto = false } of entries) {
      if (this.seqs.has(seq)) continue;
      this.seqs.add(seq);
      if (this.lastSeq === null || seq > this.lastSeq) this.lastSeq = seq;
      const lines = (events || [])
        .map((ev) => {
          const text = this.describe(ev);
          return text ? this.words(text, ev) : null;
        })
        .filter(Boolean);
      if (!lines.length) continue;
      const who = by ? `${auto ? "answered by default for" : "by"} ${this.byName(by)}` : seq === 0 ? "the setup" : "";
      groups.push(
        h(
          "div.log-group",
          { dataset: { seq } },
          h("span.log-seq", { title: who }, `#${seq}`),
          h("div.log-lines", {}, lines.map((line) => h("p.log-line", {}, line))),
        ),
      );
    }
    if (!groups.length) return;
    this.empty.remove();
    // A page of history is the past: a screen reader should not read hundreds of lines aloud.
    if (groups.length > 1) this.el.setAttribute("aria-busy", "true");
    this._keepPlace(() => groups.forEach((g) => this._insert(g)));
    if (groups.length > 1) setTimeout(() => this.el.removeAttribute("aria-busy"), 0);
  }

  /** A group goes before the first group with a later seq; notes stay where they were written. */
  _insert(group) {
    const seq = Number(group.dataset.seq);
    const later = [...this.el.querySelectorAll(".log-group")].find((g) => Number(g.dataset.seq) > seq);
    if (later) this.el.insertBefore(group, later);
    else this.el.append(group);
  }

  note(text, kind = "note") {
    this.empty.remove();
    this._keepPlace(() => this.el.append(h(`p.log-note.log-${kind}`, {}, text)));
  }
}
