// The game log: every event's sentence (data.text from the server), newest at the bottom.
import { h } from "./ui.js";

export class GameLog {
  constructor(el, { describe } = {}) {
    this.el = el;
    this.el.classList.add("log");
    this.el.setAttribute("role", "log");
    this.describe = describe || ((ev) => ev.text || ev.kind);
    this.lastSeq = null;
  }

  _stickToBottom(fn) {
    const atBottom = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40;
    fn();
    if (atBottom) this.el.scrollTop = this.el.scrollHeight;
  }

  /** Add one update's events under its seq. */
  addEvents(seq, events, { by = null } = {}) {
    const lines = (events || []).map((ev) => this.describe(ev)).filter(Boolean);
    if (!lines.length) return;
    this._stickToBottom(() => {
      const group = h("div.log-group", { dataset: { seq } }, h("span.log-seq", { title: by ? `by ${by}` : "" }, `#${seq}`));
      const list = h("div.log-lines");
      for (const line of lines) list.append(h("p.log-line", {}, line));
      group.append(list);
      this.el.append(group);
      this.lastSeq = seq;
    });
  }

  note(text, kind = "note") {
    this._stickToBottom(() => this.el.append(h(`p.log-note.log-${kind}`, {}, text)));
  }
}
