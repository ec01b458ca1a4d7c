// Chat for seats and spectators (the server limits a message to 500 characters).
import { h } from "./ui.js";

export class ChatBox {
  constructor(el, { send }) {
    this.el = el;
    this.el.classList.add("chat");
    this.list = h("div.chat-list", { role: "log", "aria-label": "Chat" });
    this.input = h("input.chat-input", { type: "text", maxlength: 500, placeholder: "Say something…", "aria-label": "Chat message" });
    const form = h(
      "form.chat-form",
      {
        onsubmit: (ev) => {
          ev.preventDefault();
          const text = this.input.value.trim();
          if (!text) return;
          if (send(text)) this.input.value = "";
        },
      },
      this.input,
      h("button", { type: "submit" }, "Send"),
    );
    this.el.replaceChildren(this.list, form);
  }

  add(msg, seatLabel) {
    const at = msg.at ? new Date(msg.at * 1000) : new Date();
    const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    if (msg.system) {
      // The table's own news ("A bot is playing for Hana."): no person said it.
      this.list.append(h("p.chat-line.chat-system", { role: "status" }, h("span.chat-time", {}, time), " ", msg.text));
    } else {
      const who = msg.seat ? `${msg.from} (${seatLabel || msg.seat})` : `${msg.from} (watching)`;
      this.list.append(
        h("p.chat-line", {}, h("span.chat-time", {}, time), " ", h(`strong${msg.seat ? "" : ".spectator"}`, {}, who), " ", msg.text),
      );
    }
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }
}
