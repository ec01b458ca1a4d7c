// Chat for seats and spectators (the server limits a message to 500 characters), on channels
// (docs/protocol.md "Chat channels"): the table, one's own side, one seat privately, or the
// spectators. The server sends each connection only what it may read; this box shows which
// channel each line was said on and offers only the channels this browser may write to.
import { h } from "./ui.js";

const PLACEHOLDERS = {
  table: "Say something to the table…",
  side: "Say something to your side…",
  spectators: "Say something to the spectators…",
};

export class ChatBox {
  constructor(el, { send }) {
    this.el = el;
    this.el.classList.add("chat");
    this.lines = []; // every line shown, oldest first (a line may come live and in a history: kept once)
    this.keys = new Set();
    this.side = null; // the side a "side" line goes to, as the server's chat_history says
    this.places = { seat: null, held: [], seats: [], over: false, labelOf: (s) => s };
    this.optionsKey = "";
    this.list = h("div.chat-list", { role: "log", "aria-label": "Chat" });
    this.to = h("select.chat-to", { "aria-label": "Send to", onchange: () => this.renderPlaceholder() });
    this.input = h("input.chat-input", { type: "text", maxlength: 500, "aria-label": "Chat message" });
    const form = h(
      "form.chat-form",
      {
        onsubmit: (ev) => {
          ev.preventDefault();
          const text = this.input.value.trim();
          if (!text) return;
          if (send(text, this.to.value)) this.input.value = "";
        },
      },
      this.to,
      this.input,
      h("button", { type: "submit" }, "Send"),
    );
    this.el.replaceChildren(this.list, form);
    this.renderOptions();
  }

  /**
   * Who this browser is at the table: `seat` the seat it writes as (null: watching), `held` every
   * seat it holds, `seats` the table's seats ({seat, label, taken}), `over` whether the game ended.
   */
  setPlaces(places) {
    const wasOver = this.places.over;
    this.places = { ...this.places, ...places };
    this.renderOptions();
    if (wasOver !== this.places.over) this.renderLines();
  }

  /** The channels this browser may write to now, as [value, label] (the server checks them too). */
  channels() {
    const { seat, held, seats, over, labelOf } = this.places;
    if (!seat) return over ? [["spectators", "Spectators"], ["table", "Table"]] : [["spectators", "Spectators"]];
    const out = [["table", "Table"]];
    if (this.side) out.push(["side", "My side"]);
    for (const s of seats) {
      if (s.taken && !held.includes(s.seat)) out.push([`seat:${s.seat}`, `Private to ${labelOf(s.seat)}`]);
    }
    if (over) out.push(["spectators", "Spectators"]);
    return out;
  }

  renderOptions() {
    const channels = this.channels();
    const key = JSON.stringify(channels);
    if (key === this.optionsKey) return;
    this.optionsKey = key;
    const chosen = this.to.value;
    this.to.replaceChildren(...channels.map(([value, label]) => h("option", { value }, label)));
    if (channels.some(([value]) => value === chosen)) this.to.value = chosen;
    // One channel only (a spectator during the game): nothing to pick.
    this.to.hidden = channels.length < 2;
    this.renderPlaceholder();
  }

  renderPlaceholder() {
    const to = this.to.value || "table";
    const seat = to.startsWith("seat:") ? to.slice(5) : null;
    this.input.placeholder = seat ? `Say something to ${this.places.labelOf(seat)} only…` : PLACEHOLDERS[to] || PLACEHOLDERS.table;
  }

  /** A live line; `seatLabel` names the seat that said it. */
  add(msg, seatLabel) {
    if (!this.keep(msg, seatLabel)) return;
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    if (this.visible(msg)) this.list.append(this.lineNode(msg));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  /** A `chat_history` frame: the newest lines this connection may read, merged with those shown. */
  history(msg) {
    this.side = msg.side ?? null;
    this.renderOptions();
    for (const line of msg.lines || []) this.keep(line, null);
    this.lines.sort((a, b) => (a.msg.at || 0) - (b.msg.at || 0));
    this.renderLines();
  }

  keep(msg, seatLabel) {
    const key = `${msg.at}|${msg.seat}|${msg.channel}|${msg.text}`;
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    this.lines.push({ msg, seatLabel });
    return true;
  }

  /** The spectators' lines stay hidden from a seat until the game is over (no coaching). */
  visible(msg) {
    return !(msg.channel === "spectators" && this.places.seat && !this.places.over);
  }

  renderLines() {
    this.list.replaceChildren(...this.lines.filter((l) => this.visible(l.msg)).map((l) => this.lineNode(l.msg, l.seatLabel)));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Which channel a line was said on, in words; none for the table's. */
  channelTag(msg) {
    const channel = msg.channel || "table";
    if (channel.startsWith("side:")) return msg.seat && this.places.held.includes(msg.seat) ? "to your side" : "side";
    if (channel.startsWith("seat:")) {
      const to = channel.slice(5);
      return this.places.held.includes(to) ? "private, to you" : `private, to ${this.places.labelOf(to)}`;
    }
    if (channel === "spectators") return "spectators";
    return null;
  }

  lineNode(msg, seatLabel) {
    return lineNode(msg, seatLabel || (msg.seat ? this.places.labelOf(msg.seat) : null), this.channelTag(msg));

  }
}

/** One line: its time, its channel (`tag`, none for the table's), who said it and what. */
function lineNode(msg, seatLabel, tag) {
  const at = msg.at ? new Date(msg.at * 1000) : new Date();
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (msg.system) {
    // The table's own news ("A bot is playing for Hana."): no person said it.
    return h("p.chat-line.chat-system", { role: "status" }, h("span.chat-time", {}, time), " ", msg.text);
  }
  const who = msg.seat ? `${msg.from} (${seatLabel || msg.seat})` : `${msg.from} (watching)`;
  const channel = msg.channel || "table";
  return h(
    `p.chat-line.channel-${channel.split(":")[0]}`,
    { dataset: { channel } },
    h("span.chat-time", {}, time),
    " ",
    tag ? h("span.chat-channel", {}, `[${tag}]`) : null,
    tag ? " " : null,
    h(`strong${msg.seat ? "" : ".spectator"}`, {}, who),
    " ",
    msg.text,
  );
}

/** A finished game's chat for its replay (the table's and the spectators' lines, read only). */
export function chatLog(lines, labelOf) {
  const tag = (msg) => (msg.channel === "spectators" ? "spectators" : null);
  return h("div.chat-list.replay-chat", { role: "log", "aria-label": "Chat" }, lines.map((msg) => lineNode(msg, msg.seat ? labelOf(msg.seat) : null, tag(msg))));
}
