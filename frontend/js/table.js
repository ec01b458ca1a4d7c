// The table page: waiting room before the start, then the live table for seats
// (one connection per seat this browser holds: hot-seat) or for a spectator.
// The game-specific drawing lives in games/<game>.js (chosen by the table's game).
import { api, ensurePlayer, forgetSeat, heldSeats, replayUrl, storedPlayer, tableUrl } from "./api.js";
import { boardArea, exposeRenderer, loadRenderer, seatLabel } from "./board.js";
import { ChatBox } from "./chat.js";
import { TableConnection } from "./connection.js";
import { DiceTray } from "./dice.js";
import { GameLog } from "./log.js";
import { append, clear, copyText, countdown, h, loadOrExplain, setTopbar, titleCase, toast } from "./ui.js";

const WAITING_POLL_MS = 1500;

export async function mountTable(root, tableId) {
  let table = await loadOrExplain(root, () => api.table(tableId), { title: "Table not found", links: [["/", "Back to the lobby"]] });
  if (!table) return;
  document.title = `${table.title || titleCase(table.game)} — Dragontable`;
  const watch = new URLSearchParams(location.search).has("watch");
  // The waiting room ends with the table as it started (or as someone else started it).
  if (table.status === "open" && !watch) table = await waitingRoom(root, table);
  const module = await loadRenderer(table.game);
  new LiveTable(root, table, module, { watch }).start();
}

// --- waiting room -----------------------------------------------------------

async function waitingRoom(root, initial) {
  return new Promise((resolve) => {
    let table = initial;
    const nameInput = h("input#player-name", { type: "text", maxlength: 40, placeholder: "Your name", value: storedPlayer()?.name || "" });
    const error = h("p.error", { role: "alert" });
    const seatsBox = h("div.seat-list");
    const startButton = h("button#start-table.primary", { type: "button" }, "Start the game");
    const hostNote = h("p.muted.small", {}, `${table.host || "The host"} starts the game once every seat is taken; this page follows by itself.`);
    const invite = tableUrl(table.id);
    const card = h(
      "section.card.waiting",
      {},
      h("h1", {}, table.title || titleCase(table.game), " ", h("span.badge.badge-open", {}, "waiting for players")),
      h("p.muted", {}, "Send this link to the people you want to play with. Anyone with it can take a free seat or watch."),
      h(
        "div.invite",
        {},
        h("input#invite-link", { type: "text", readonly: true, value: invite, onfocus: (e) => e.target.select() }),
        h("button#copy-invite", { type: "button", onclick: async () => toast((await copyText(invite)) ? "Invite link copied." : "Copy the link by hand.") }, "Copy invite link"),
      ),
      h("label.field", {}, h("span", {}, "Your name"), nameInput),
      seatsBox,
      h("div.actions", {}, startButton, h("a.button", { href: `/table/${encodeURIComponent(table.id)}?watch=1` }, "Just watch")),
      hostNote,
      error,
    );
    clear(root).append(card);
    setTopbar(h("span.muted", {}, "Waiting room"));

    const render = () => {
      const mine = heldSeats(table.id);
      clear(seatsBox);
      for (const seat of table.seats) {
        const held = seat.seat in mine;
        seatsBox.append(
          h(
            `div.seat-row${held ? ".held" : ""}`,
            { dataset: { seat: seat.seat } },
            h("strong", {}, seat.label),
            h("span", {}, seat.taken ? seat.player_name : h("span.muted", {}, "free")),
            held
              ? h("span.badge.badge-live", {}, "you")
              : !seat.taken
                ? h("button.take-seat", { type: "button", dataset: { seat: seat.seat }, onclick: () => take(seat.seat) }, "Take this seat")
                : null,
            held ? h("button.ghost.leave-seat", { type: "button", onclick: () => leave(seat.seat) }, "Leave") : null,
          ),
        );
      }
      const me = storedPlayer();
      const full = table.seats.every((s) => s.taken);
      const isHost = me && (table.host === me.name || table.host === me.player_id); // the table names its host
      startButton.hidden = !isHost;
      hostNote.hidden = Boolean(isHost);
      startButton.disabled = !full;
      startButton.title = full ? "" : "Every seat must be taken first.";
    };
    const take = async (seat) => {
      error.textContent = "";
      try {
        const me = await ensurePlayer(nameInput.value);
        const answer = await api.join(me.player_token, table.id, seat);
        table = answer.table;
        render();
      } catch (err) {
        error.textContent = err.message;
      }
    };
    const leave = async (seat) => {
      try {
        const me = storedPlayer();
        table = await api.leave(me.player_token, table.id, seat);
      } catch (err) {
        error.textContent = err.message;
        forgetSeat(table.id, seat);
      }
      render();
    };
    startButton.addEventListener("click", async () => {
      error.textContent = "";
      try {
        table = await api.start(storedPlayer().player_token, table.id);
        finish();
      } catch (err) {
        error.textContent = err.message;
      }
    });
    let timer = null;
    const finish = () => {
      clearInterval(timer);
      resolve(table);
    };
    timer = setInterval(async () => {
      try {
        table = await api.table(table.id);
      } catch {
        return;
      }
      if (table.status !== "open") finish();
      else render();
    }, WAITING_POLL_MS);
    render();
  });
}

// --- live table ---------------------------------------------------------------

class LiveTable {
  constructor(root, table, module, { watch }) {
    this.root = root;
    this.table = table;
    this.module = module;
    this.static = null;
    this.seats = watch ? {} : heldSeats(table.id); // seat -> token
    this.connections = new Map(); // seat (or "" for a spectator) -> TableConnection
    this.data = new Map(); // seat -> {view, legal, to_act, deadline, seq}
    this.activeSeat = null;
    this.spectators = table.spectators || 0;
    this.connectedSeats = new Set(table.seats.filter((s) => s.connected).map((s) => s.seat));
    this.outcome = table.outcome || null;
    this.busy = false;
    this.selection = null; // renderer-specific UI state (e.g. a chosen die, a picked figure)
    this.choice = null; // a board click that fits several actions: {title, items}
  }

  get primaryKey() {
    const held = Object.keys(this.seats);
    return held.length ? held[0] : "";
  }

  get current() {
    return this.data.get(this.activeSeat ?? "") || null;
  }

  start() {
    this.buildDom();
    const held = Object.entries(this.seats);
    if (held.length) {
      for (const [seat, token] of held) this.connect(seat, token);
      this.activeSeat = held[0][0];
    } else {
      this.connect("", null);
      this.activeSeat = "";
    }
    this.renderSeatTabs();
    setInterval(() => this.renderStatus(), 1000);
    window.__dt.table = this; // for the e2e tests and for curious players
  }

  buildDom() {
    const t = this.table;
    this.connPill = h("span#conn-state.pill", { title: "Connection to the server" }, "connecting");
    this.specCount = h("span#spectators.pill.pill-quiet", { title: "People watching" }, "0 watching");
    this.seatTabs = h("div#seat-tabs.seat-tabs", { role: "tablist" });
    setTopbar(
      h("strong.table-title", {}, t.title || titleCase(t.game)),
      this.seatTabs,
      this.specCount,
      this.connPill,
      h("button.ghost.small", { type: "button", onclick: async () => toast((await copyText(tableUrl(t.id))) ? "Invite link copied." : tableUrl(t.id)) }, "Invite link"),
    );
    this.turnBanner = h("div#turn-banner.turn-banner", { "aria-live": "polite" });
    const board = boardArea("Game board", () => this.renderer);
    this.canvas = board.canvas;
    this.boardWrap = board.wrap;
    this.panels = board.panels;
    this.tooltip = h("div.board-tip", { hidden: true });
    this.boardWrap.append(this.tooltip);
    this.controls = h("div#controls.controls");
    this.message = h("p#action-message.action-message", { role: "alert" });
    this.diceEl = h("div#dice");
    this.logEl = h("div#log");
    this.chatEl = h("div#chat");
    this.dialog = h("dialog#prompt-dialog.prompt-dialog");
    this.diceBlock = h("section.side-block.dice-block", {}, h("h2", {}, "Dice"), this.diceEl);
    const side = h(
      "aside.side",
      {},
      h("section.side-block.move-block", {}, h("h2", {}, "Your move"), this.controls, this.message),
      this.diceBlock,
      h("section.side-block.grow", {}, h("h2", {}, "What happened"), this.logEl),
      h("section.side-block", {}, h("h2", {}, "Chat"), this.chatEl),
    );
    append(clear(this.root), 
      h("div.table-page", {}, h("div.table-main", {}, this.turnBanner, this.boardWrap, this.panels), side),
      this.dialog,
    );
    this.dice = new DiceTray(this.diceEl);
    this.log = new GameLog(this.logEl, { describe: (ev) => this.renderer?.describeEvent?.(ev) ?? ev.text ?? null });
    this.chat = new ChatBox(this.chatEl, {
      send: (text) => {
        const conn = this.connections.get(this.primaryKey);
        if (!conn || !conn.chat(text)) {
          toast("Not connected; the message was not sent.", "error");
          return false;
        }
        return true;
      },
    });
    this.canvas.addEventListener("click", (ev) => this.onBoardClick(ev));
    this.canvas.addEventListener("mousemove", (ev) => this.onBoardHover(ev));
    this.canvas.addEventListener("mouseleave", () => (this.tooltip.hidden = true));
  }

  connect(key, token) {
    const conn = new TableConnection(this.table.id, token, { seat: key || null });
    this.connections.set(key, conn);
    const isPrimary = () => key === this.primaryKey;
    conn.addEventListener("state", () => {
      if (conn.state === "refused" && key) this.dropSeat(key);
      else this.renderConnState();
    });
    conn.addEventListener("welcome", (e) => {
      const msg = e.detail;
      if (msg.table) this.table = msg.table;
      if (msg.static && !this.static) this.static = msg.static;
      this.spectators = msg.table?.spectators ?? this.spectators;
      this.data.set(key, { view: msg.view, legal: msg.legal || [], to_act: msg.to_act || [], deadline: msg.deadline ?? null, seq: msg.seq });
      if (isPrimary()) {
        if (msg.resynced) this.log.note(`Reconnected at #${msg.seq}; the board is up to date.`);
        else if (!this.log.lastSeq) this.log.note(`Joined the table at #${msg.seq}${key ? ` as ${seatLabel(this.table, key)}` : " as a spectator"}.`);
      }
      this.ensureRenderer();
      if (isPrimary() && this.renderer?.diceFromView && !this.dice.el.querySelector(".die")) {
        this.dice.show(this.renderer.diceFromView(msg.view || {}), { animate: false });
      }
      this.refresh();
    });
    conn.addEventListener("update", (e) => {
      const msg = e.detail;
      // Updates resent after a reconnect ("missed") carry only events; the welcome brings the view.
      if (msg.view !== undefined) {
        this.data.set(key, { view: msg.view, legal: msg.legal || [], to_act: msg.to_act || [], deadline: msg.deadline ?? null, seq: msg.seq });
      }
      if (isPrimary()) {
        this.log.addEvents(msg.seq, msg.events, { by: msg.by });
        const rolls = this.renderer?.diceFromEvents ? this.renderer.diceFromEvents(msg.events || []) : [];
        this.dice.show(rolls, { animate: !msg.replayed });
      }
      if (key === this.activeSeat) {
        // A renderer may keep a picked figure selected while it can still act (Dorn's monsters step cell by cell).
        const legal = this.current ? this.current.legal : [];
        this.selection = this.renderer?.keepSelection ? this.renderer.keepSelection(this.selection, legal) : null;
        this.choice = null;
      }
      const before = this.activeSeat;
      this.autoSwitchSeat();
      if (this.activeSeat !== before) this.selection = null;
      this.refresh();
    });
    conn.addEventListener("rejected", (e) => {
      const msg = e.detail;
      this.showMessage(msg.code === "stale" ? "The table moved on before your action arrived; the board is updated, try again." : msg.message, "error");
    });
    // A bad token is followed by a 4401 close: the "state" listener drops the seat.
    conn.addEventListener("error", (e) => e.detail.code !== "bad_token" && this.showMessage(e.detail.message, "error"));
    conn.addEventListener("table", (e) => {
      this.table = e.detail.table;
      this.refresh();
    });
    conn.addEventListener("chat", (e) => isPrimary() && this.chat.add(e.detail, seatLabel(this.table, e.detail.seat)));
    conn.addEventListener("presence", (e) => {
      this.spectators = e.detail.spectators;
      this.connectedSeats = new Set(e.detail.connected || []);
      this.renderStatus();
      this.renderPanels();
    });
    conn.addEventListener("finished", (e) => {
      this.outcome = e.detail.outcome;
      if (isPrimary()) this.log.note(this.outcome?.reason || "The game is over.", "finish");
      this.table = { ...this.table, status: "finished", outcome: this.outcome };
      this.refresh();
    });
    conn.open();
  }

  /**
   * The server refused a seat's token (the seat was joined again from another browser): forget
   * it here and go on with the other held seats, or watch, rather than a dead seat tab.
   */
  dropSeat(key) {
    forgetSeat(this.table.id, key);
    this.connections.get(key)?.close();
    this.connections.delete(key);
    this.data.delete(key);
    delete this.seats[key];
    const left = Object.keys(this.seats);
    if (!left.length) this.connect("", null);
    if (this.activeSeat === key) this.activeSeat = left.length ? left[0] : "";
    this.selection = null;
    this.choice = null;
    this.showMessage(`This browser no longer holds ${seatLabel(this.table, key)} (it was taken up elsewhere)${left.length ? "" : "; you are watching instead"}.`, "error");
    this.refresh();
  }

  ensureRenderer() {
    if (this.renderer || !this.current) return;
    this.renderer = this.module.createRenderer({ canvas: this.canvas, static: this.static || {}, table: this.table });
    // A game without dice (Dorn) has no dice tray.
    this.diceBlock.hidden = Boolean(this.renderer.noDice);
    exposeRenderer(this.renderer);
  }

  /** Hot-seat: when the shown seat has nothing to do and another held seat must act, show that one. */
  autoSwitchSeat() {
    const keys = Object.keys(this.seats);
    if (keys.length < 2) return;
    const mustAct = (seat) => this.mustAct(seat);
    if (mustAct(this.activeSeat)) return;
    const other = keys.find(mustAct);
    if (other) this.activeSeat = other;
  }

  /**
   * Whether a held seat owes a decision now. A seat may stay among those that can act with
   * only optional actions left (Dorn: taking back its Done); the renderer's `owes(legal)` says.
   */
  mustAct(seat) {
    const d = this.data.get(seat);
    if (!d || !d.to_act.includes(seat) || !d.legal.length) return false;
    return this.renderer?.owes ? this.renderer.owes(d.legal) : true;
  }

  setActiveSeat(seat) {
    this.activeSeat = seat;
    this.selection = null;
    this.refresh();
  }

  refresh() {
    this.renderSeatTabs();
    this.renderStatus();
    this.renderPanels();
    this.renderControls();
    this.renderBoard();
  }

  renderConnState() {
    const states = [...this.connections.values()].map((c) => c.state);
    const worst = ["refused", "reconnecting", "connecting", "closed", "open"].find((s) => states.includes(s)) || "idle";
    const text = { open: "connected", connecting: "connecting…", reconnecting: "reconnecting…", refused: "refused", closed: "closed", idle: "idle" }[worst];
    this.connPill.textContent = text;
    this.connPill.dataset.state = worst;
    if (worst === "reconnecting") {
      const conn = [...this.connections.values()].find((c) => c.state === "reconnecting");
      const secs = conn && conn.nextRetryAt ? Math.max(0, Math.ceil((conn.nextRetryAt - Date.now()) / 1000)) : 0;
      this.connPill.title = `Connection lost; retrying${secs ? ` in ${secs}s` : ""} (attempt ${conn ? conn.attempt : "?"}).`;
    } else this.connPill.title = "Connection to the server";
  }

  renderSeatTabs() {
    const keys = Object.keys(this.seats);
    clear(this.seatTabs);
    if (!keys.length) {
      this.seatTabs.append(h("span.pill.pill-quiet#watching", {}, "spectator"));
      return;
    }
    for (const seat of keys) {
      const d = this.data.get(seat);
      const due = Boolean(d) && this.mustAct(seat);
      this.seatTabs.append(
        h(
          `button.seat-tab${seat === this.activeSeat ? ".active" : ""}${due ? ".due" : ""}`,
          { type: "button", role: "tab", "aria-selected": seat === this.activeSeat ? "true" : "false", dataset: { seat }, onclick: () => this.setActiveSeat(seat), title: due ? "This seat must act" : "" },
          seatLabel(this.table, seat),
        ),
      );
    }
  }

  renderStatus() {
    this.renderConnState();
    this.specCount.textContent = `${this.spectators} watching`;
    this.specCount.title = `${this.spectators} watching`;
    const d = this.current;
    clear(this.turnBanner);
    if (this.outcome || this.table.status === "finished") {
      const o = this.outcome || this.table.outcome || {};
      this.turnBanner.dataset.state = "finished";
      append(this.turnBanner, 
        h("strong", {}, o.result ? titleCase(o.result) : "Game over"),
        h("span", {}, o.reason || ""),
        h("a.button.primary#open-replay", { href: replayUrl(this.table.id) }, "Watch the replay"),
      );
      return;
    }
    if (!d) {
      append(this.turnBanner, h("span.muted", {}, "Connecting to the table…"));
      return;
    }
    if (!d.view) {
      append(this.turnBanner, h("span.muted", {}, "The game has not started yet; the board appears when the host starts it."));
      return;
    }
    const turn = this.renderer?.turnText ? this.renderer.turnText(d.view) : "";
    // Seats that only may take something back are not waited for.
    const owing = d.to_act.filter((s) => !(this.renderer?.seatDone && this.renderer.seatDone(d.view, s)));
    const waiting = owing.map((s) => {
      const mine = s in this.seats;
      const off = !this.connectedSeats.has(s) && this.connectedSeats.size > 0;
      return h(`span.waiting-seat${mine ? ".mine" : ""}`, { dataset: { seat: s }, title: off ? "disconnected" : "" }, seatLabel(this.table, s), mine ? " (you)" : "", off ? " ⚠" : "");
    });
    const mustAct = this.activeSeat && this.mustAct(this.activeSeat);
    this.turnBanner.dataset.state = mustAct ? "yours" : "waiting";
    append(this.turnBanner, 
      h("strong#turn-text", {}, turn || "In play"),
      h("span#waiting-for", {}, "Waiting for: ", waiting.length ? waiting.flatMap((w, i) => (i ? [", ", w] : [w])) : "—"),
      d.deadline ? h("span#deadline.deadline", { title: "The server answers by default when this runs out" }, `time left ${countdown(d.deadline)}`) : null,
    );
    if (this.dialog.open) {
      const clock = this.dialog.querySelector(".deadline");
      if (clock) {
        clock.hidden = !d.deadline;
        clock.textContent = d.deadline ? `${countdown(d.deadline)} left, then the default answer is taken` : "";
      }
    }
  }

  renderPanels() {
    const d = this.current;
    if (!this.renderer || !d || !d.view) return;
    const owing = d.to_act.filter((s) => !(this.renderer.seatDone && this.renderer.seatDone(d.view, s)));
    clear(this.panels).append(this.renderer.heroPanels(d.view, { table: this.table, connected: this.connectedSeats, mine: Object.keys(this.seats), active: this.activeSeat, toAct: owing }));
    // The board leaves room for the panels under it: refit it when their height changes.
    const height = this.panels.offsetHeight;
    if (height !== this.panelsHeight) {
      this.panelsHeight = height;
      this.renderer.resize();
    }
  }

  renderBoard() {
    const d = this.current;
    if (!this.renderer || !d || !d.view) return;
    const mine = this.activeSeat && d.to_act.includes(this.activeSeat) ? d.legal : [];
    this.renderer.setState(d.view, { legal: mine, seat: this.activeSeat || null, selection: this.selection });
  }

  renderControls() {
    const d = this.current;
    clear(this.controls);
    if (!d || !d.view || !this.renderer) return;
    if (!this.activeSeat) {
      this.controls.append(h("p.muted", {}, "You are watching. Chat is open to everyone."));
      this.closeDialog();
      return;
    }
    const legal = d.to_act.includes(this.activeSeat) ? d.legal : [];
    if (!legal.length) {
      const who = d.to_act.map((s) => seatLabel(this.table, s)).join(", ");
      this.controls.append(h("p.muted", {}, who ? `Waiting for ${who}.` : "Nothing to do right now."));
      this.closeDialog();
      return;
    }
    const plan = this.renderer.controls(d.view, legal, { seat: this.activeSeat, selection: this.selection });
    if (plan.hint) this.controls.append(h("p.hint#move-hint", {}, plan.hint));
    for (const group of plan.groups || []) {
      const box = h("div.control-group", {}, group.title ? h("h3", {}, group.title) : null);
      for (const item of group.items) box.append(this.actionButton(item));
      this.controls.append(box);
    }
    if (plan.prompt) this.openDialog(plan.prompt, d);
    else if (this.choice) this.openDialog(this.choice, d);
    else this.closeDialog();
  }

  actionButton(item) {
    return h(
      `button.action${item.primary ? ".primary" : ""}${item.selected ? ".selected" : ""}${item.ghost ? ".ghost" : ""}`,
      {
        type: "button",
        title: item.title || "",
        dataset: { action: item.action ? JSON.stringify(item.action) : "", kind: item.action?.type || item.kind || "" },
        disabled: this.busy,
        onclick: () => (item.select !== undefined ? this.select(item.select) : this.send(item.action)),
      },
      item.label,
    );
  }

  select(selection) {
    this.selection = this.selection === selection ? null : selection;
    this.choice = null;
    this.renderControls();
    this.renderBoard();
  }

  openDialog(prompt, d) {
    const key = JSON.stringify([prompt.title, prompt.items.map((i) => i.action)]);
    if (this.dialog.open && this.dialog.dataset.key === key) return;
    clear(this.dialog);
    this.dialog.dataset.key = key;
    this.dialog.classList.toggle("dock-side", prompt.dock === "side");
    append(this.dialog, 
      h("h2", {}, prompt.title),
      prompt.text ? h("p", {}, prompt.text) : null,
      // Shown whenever the server set a deadline; renderStatus ticks it every second.
      h("p.deadline", { hidden: !d.deadline }, d.deadline ? `${countdown(d.deadline)} left, then the default answer is taken` : ""),
      h(
        "div.dialog-actions",
        {},
        prompt.items.map((item) => this.actionButton(item)),
        prompt.cancel ? h("button.ghost.dialog-cancel", { type: "button", onclick: () => { this.choice = null; this.renderControls(); } }, prompt.cancel) : null,
      ),
    );
    if (!this.dialog.open) this.dialog.show();
  }

  closeDialog() {
    if (this.dialog.open) this.dialog.close();
    this.dialog.dataset.key = "";
  }

  async send(action) {
    const conn = this.connections.get(this.activeSeat);
    if (!conn) return;
    this.showMessage("");
    this.choice = null;
    this.busy = true;
    this.renderControls();
    try {
      await conn.act(action);
    } catch (err) {
      // Refusals from the server are shown by the "rejected" listener; here only local failures.
      if (err.type !== "rejected") this.showMessage(err.message || "The action could not be sent.", "error");
    } finally {
      this.busy = false;
      this.renderControls();
    }
  }

  showMessage(text, kind = "info") {
    this.message.textContent = text;
    this.message.dataset.kind = kind;
    if (text && kind === "error") toast(text, "error", 6000);
  }

  onBoardClick(ev) {
    const d = this.current;
    if (!this.renderer || !d || !this.activeSeat || this.busy) return;
    const legal = d.to_act.includes(this.activeSeat) ? d.legal : [];
    const rect = this.canvas.getBoundingClientRect();
    const action = this.renderer.actionAt(ev.clientX - rect.left, ev.clientY - rect.top, legal, { selection: this.selection, view: d.view });
    if (!action) return;
    if (action.select !== undefined) this.select(action.select);
    else if (action.choose) {
      // Several listed actions fit the click: ask which one.
      this.choice = { title: action.title || "Which one?", items: action.choose.map((a) => ({ action: a, label: this.renderer.actionLabel ? this.renderer.actionLabel(a) : a.type })), cancel: "Cancel", dock: "side" };
      this.renderControls();
    } else this.send(action);
  }

  onBoardHover(ev) {
    if (!this.renderer) return;
    const rect = this.canvas.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const y = ev.clientY - rect.top;
    const tip = this.renderer.tooltipAt ? this.renderer.tooltipAt(x, y) : null;
    this.canvas.style.cursor = this.renderer.clickableAt && this.renderer.clickableAt(x, y) ? "pointer" : "default";
    if (!tip) {
      this.tooltip.hidden = true;
      return;
    }
    this.tooltip.textContent = tip;
    this.tooltip.hidden = false;
    this.tooltip.style.left = `${x + 14}px`;
    this.tooltip.style.top = `${y + 14}px`;
  }
}
