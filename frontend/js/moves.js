// "Your move": the shown seat's buttons (from the renderer's plan of the listed actions), the
// prompt dialog, clicks on the board, sending an action, and the reason when one is refused,
// with a link into the Rules panel at the section that explains it.
import { nameSeats, seatLabel } from "./words.js";
import { append, clear, countdown, h, toast } from "./ui.js";

export class MoveControls {
  /** @param {object} table the LiveTable: its current data, renderer, seats, connections and selection */
  constructor(table) {
    this.t = table;
    this.busy = false;
    this.choice = null; // a board click that fits several actions: {title, items}
    this.el = h("div#controls.controls");
    this.message = h("p#action-message.action-message", { role: "alert" });
    this.dialog = h("dialog#prompt-dialog.prompt-dialog", { "aria-labelledby": "prompt-title" });
  }

  /** The listed actions of the shown seat (none when it is not asked). */
  legal() {
    const d = this.t.current;
    const seat = this.t.activeSeat;
    return d && seat && d.to_act.includes(seat) ? d.legal : [];
  }

  render() {
    const t = this.t;
    const d = t.current;
    clear(this.el);
    if (!d || !d.view || !t.renderer) return;
    if (!t.activeSeat) {
      this.el.append(h("p.muted", {}, "You are watching. Until the game is over, your chat reaches the other spectators only."));
      this.closeDialog();
      return;
    }
    const legal = this.legal();
    if (!legal.length) {
      const who = d.to_act.map((s) => seatLabel(t.table, s)).join(", ");
      this.el.append(h("p.muted", {}, who ? `Waiting for ${who}.` : "Nothing to do right now."));
      this.closeDialog();
      return;
    }
    const plan = t.renderer.controls(d.view, legal, { seat: t.activeSeat, selection: t.selection });
    if (plan.hint) this.el.append(h("p.hint#move-hint", {}, plan.hint));
    for (const group of plan.groups || []) {
      const box = h("div.control-group", {}, group.title ? h("h3", {}, group.title) : null);
      for (const item of group.items) box.append(this.button(item));
      this.el.append(box);
    }
    // A board click that fits several actions asks which one over the step's own dialog (a
    // Blessing aimed on the board, a question answered there): it is the newer question, and its
    // Cancel gives the dialog back. Shown under it, the click seemed to do nothing.
    if (this.choice) this.openDialog(this.choice, d);
    else if (plan.prompt) this.openDialog(plan.prompt, d);
    else this.closeDialog();
  }

  button(item) {
    const b = h(
      `button.action${item.primary ? ".primary" : ""}${item.ghost ? ".ghost" : ""}`,
      {
        type: "button",
        title: item.title || "",
        dataset: { action: item.action ? JSON.stringify(item.action) : "", kind: item.action?.type || item.kind || "" },
        onclick: () => (item.select !== undefined ? this.select(item.select) : this.send(item.action)),
      },
      item.label,
    );
    this.follow(b, item);
    return b;
  }

  /** What of a button follows the table, made or kept: disabled while an action is on its way, a pick shown pressed. */
  follow(b, item) {
    b.disabled = this.busy;
    if (item.select === undefined) return;
    b.setAttribute("aria-pressed", String(Boolean(item.selected)));
    b.classList.toggle("selected", Boolean(item.selected));
  }

  select(selection) {
    const t = this.t;
    t.selection = t.selection === selection ? null : selection;
    this.choice = null;
    this.render();
    t.renderBoard();
    t.announceTargets();
  }

  openDialog(prompt, d) {
    const key = JSON.stringify([prompt.title, prompt.items.map((i) => i.action)]);
    if (this.dialog.open && this.dialog.dataset.key === key) {
      // The same question is kept (its buttons and focus stay put), but their state follows: a
      // dialog opened while an action was on its way (another held seat's update) must not keep
      // its buttons disabled, and a picked choice ("use:") shows pressed.
      const shown = this.dialog.querySelectorAll(".dialog-actions > button.action");
      prompt.items.forEach((item, i) => shown[i] && this.follow(shown[i], item));
      return;
    }
    clear(this.dialog);
    this.dialog.dataset.key = key;
    this.dialog.classList.toggle("dock-side", prompt.dock === "side");
    append(
      this.dialog,
      h("h2#prompt-title", {}, prompt.title),
      prompt.text ? h("p", {}, nameSeats(prompt.text, this.t.table)) : null,
      // Shown whenever the server set a deadline; tick() updates it every second.
      h("p.deadline", { hidden: !d.deadline }, dialogClock(d.deadline)),
      h(
        "div.dialog-actions",
        {},
        prompt.items.map((item) => this.button(item)),
        prompt.cancel
          ? h("button.ghost.dialog-cancel", { type: "button", onclick: () => { this.choice = null; this.render(); } }, prompt.cancel)
          : null,
      ),
    );
    if (!this.dialog.open) this.dialog.show();
  }

  closeDialog() {
    if (this.dialog.open) this.dialog.close();
    this.dialog.dataset.key = "";
  }

  /** The dialog's countdown, once a second. */
  tick(deadline) {
    if (!this.dialog.open) return;
    const clock = this.dialog.querySelector(".deadline");
    if (clock) {
      clock.hidden = !deadline;
      clock.textContent = dialogClock(deadline);
    }
  }

  async send(action) {
    const t = this.t;
    const conn = t.connections.get(t.activeSeat);
    if (!conn) return;
    this.showMessage("");
    this.choice = null;
    this.busy = true;
    this.render();
    try {
      await conn.act(action);
    } catch (err) {
      // Refusals from the server are shown by refused(); here only local failures.
      if (err.type !== "rejected") this.showMessage(err.message || "The action could not be sent.", "error", err.code);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** The server refused an action: its reason, in the players' names, and where the rules explain it. */
  refused(msg) {
    const text = msg.code === "stale" ? "The table moved on before your action arrived; the board is updated, try again." : msg.message;
    this.showMessage(text, "error", msg.code, msg.rule);
  }

  /** `rule`: the rule a refusal cites (protocol.md), named on the link into the Rules panel. */
  showMessage(text, kind = "info", code = null, rule = null) {
    const t = this.t;
    const words = nameSeats(text, t.table);
    clear(this.message).append(words);
    this.message.dataset.kind = kind;
    this.message.dataset.code = code || "";
    if (text && kind === "error" && t.rules) this.message.append(" ", t.rules.linkFor(code, text, rule));
    if (text && kind === "error") toast(words, "error", 6000);
  }

  onBoardClick(ev) {
    const t = this.t;
    const d = t.current;
    if (!t.renderer || !d || !t.activeSeat || this.busy) return;
    const rect = t.canvas.getBoundingClientRect();
    this.boardAction(t.renderer.actionAt(ev.clientX - rect.left, ev.clientY - rect.top, this.legal(), { selection: t.selection, view: d.view }));
  }

  /** What a place on the board means (actionAt's or cursorAct's answer), clicked or entered from the keyboard. */
  boardAction(action) {
    const t = this.t;
    if (!action) return;
    if (action.select !== undefined) this.select(action.select);
    else if (action.choose) {
      // Several listed actions fit the click: ask which one.
      const label = (a) => (t.renderer.actionLabel ? t.renderer.actionLabel(a) : a.type);
      this.choice = { title: action.title || "Which one?", items: action.choose.map((a) => ({ action: a, label: label(a) })), cancel: "Cancel", dock: "side" };
      this.render();
    } else this.send(action);
  }
}

function dialogClock(deadline) {
  return deadline ? `${countdown(deadline)} left, then the default answer is taken` : "";
}
