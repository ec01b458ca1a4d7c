// The table page: waiting room before the start (waiting.js), then the live table for seats
// (one connection per seat this browser holds: hot-seat) or for a spectator.
// The game-specific drawing lives in games/<game>.js (chosen by the table's game); the action
// bar in moves.js, the turn alerts in alerts.js, the board's zoom in zoom.js.
import { api, forgetSeat, heldSeats, replayUrl, tableUrl } from "./api.js";
import { Announcer, TurnAlerts } from "./alerts.js";
import { boardArea, exposeRenderer, loadRenderer } from "./board.js";
import { BoardKeys } from "./boardkeys.js";
import { ChatBox } from "./chat.js";
import { clockText } from "./clocks.js";
import { TableConnection, WATCH_REFUSALS } from "./connection.js";
import { DiceTray } from "./dice.js";
import { fallbackActionLabel } from "./games/panels.js";
import { HistoryLoader } from "./history.js";
import { GameLog } from "./log.js";
import { MoveControls } from "./moves.js";
import { rulesPanelFor } from "./rules.js";
import { tabBar } from "./tabs.js";
import { append, clear, copyText, countdown, h, loadOrExplain, setTopbar, titleCase, toast } from "./ui.js";
import { waitingRoom } from "./waiting.js";
import { forkBanner } from "./fork.js";
import { nameSeats, seatLabel, seatName } from "./words.js";

// Legal actions read out by name at most; the rest are counted.
const ANNOUNCE_ACTIONS = 12;
// Seconds left under which the countdown turns urgent.
const URGENT_SECONDS = 10;

// Watching from a side (docs/protocol.md): the sides' names, and how far behind a stream is.
const SIDE_NAMES = { heroes: "the heroes", keeper: "the Keeper" };
const sideName = (side) => SIDE_NAMES[side] || side;
const roundsBehind = (n) => (n === 1 ? "one round" : `${n} rounds`);

function delayText(d) {
  if (d.over) return "the game is over, nothing is held back";
  const behind = `${roundsBehind(d.rounds)} behind`;
  if (d.round === null) return `${behind}; the view opens when round ${d.rounds + 1} begins`;
  return `${behind}: the start of round ${d.round} (the table is in round ${d.round_live})`;
}

export async function mountTable(root, tableId) {
  let table = await loadOrExplain(root, () => api.table(tableId), { title: "Table not found", links: [["/", "Back to the lobby"]] });
  if (!table) return;
  document.title = `${table.title || titleCase(table.game)} — Dragontable`;
  const params = new URLSearchParams(location.search);
  const watch = params.has("watch");
  // ?watch=<side>: a spectator with that side, rounds behind (the server says whether the table allows it).
  const side = watch && !["", "1"].includes(params.get("watch")) ? params.get("watch") : null;
  const rules = await rulesPanelFor(table.game);
  // The waiting room ends with the table as it started (or as someone else started it).
  if (table.status === "open" && !watch) table = await waitingRoom(root, table, { topbar: [forkBanner(table), rules ? rules.button() : null] });
  const module = await loadRenderer(table.game);
  new LiveTable(root, table, module, { watch, side, rules }).start();
}

class LiveTable {
  constructor(root, table, module, { watch, side, rules }) {
    this.root = root;
    this.table = table;
    this.module = module;
    this.rules = rules;
    this.static = null;
    this.seats = watch ? {} : heldSeats(table.id); // seat -> token
    this.side = watch ? side : null; // the side a spectator watches with (docs/protocol.md "Watching from a side")
    this.delayed = null; // that stream's last `delayed`: how far behind, what it shows
    this.offer = null; // the welcome's `side_watching`: the sides this table lets spectators choose
    this.watchRefused = null; // why the side asked for was refused (then the page watches live)
    this.connections = new Map(); // seat (or "" for a spectator) -> TableConnection
    this.data = new Map(); // seat -> {view, legal, to_act, deadline, seq}
    this.activeSeat = null;
    this.spectators = table.spectators || 0;
    this.connectedSeats = new Set(table.seats.filter((s) => s.connected).map((s) => s.seat));
    this.outcome = table.outcome || null;
    this.selection = null; // renderer-specific UI state (e.g. a chosen die, a picked figure)
    this.due = new Set(); // held seats that owe a decision, to notice when one starts to
    this.newerDice = false; // the dice tray shows rolls newer than any the history still brings
    this.moves = new MoveControls(this);
    this.alerts = new TurnAlerts();
    this.announcer = new Announcer();
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
    this.seatTabs = h("div#seat-tabs.seat-tabs", { role: "tablist", "aria-label": "Your seats" });
    setTopbar(
      h("strong.table-title", {}, t.title || titleCase(t.game)),
      forkBanner(t),
      this.seatTabs,
      this.specCount,
      (this.watchMode = h("span#watch-mode.watch-mode")),
      this.connPill,
      this.rules ? this.rules.button() : null,
      this.alerts.button(),
      h("button.ghost.small#invite", { type: "button", onclick: async () => toast((await copyText(tableUrl(t.id))) ? "Invite link copied." : tableUrl(t.id)) }, "Invite"),
    );
    this.turnBanner = h("div#turn-banner.turn-banner");
    const board = boardArea("Game board", () => this.renderer);
    this.canvas = board.canvas;
    this.boardWrap = board.wrap;
    this.panels = board.panels;
    this.tooltip = h("div.board-tip", { hidden: true });
    this.boardWrap.append(this.tooltip);
    this.diceEl = h("div#dice");
    this.logEl = h("div#log");
    this.chatEl = h("div#chat");
    this.diceBlock = h("section#dice-block.side-block.dice-block", {}, h("h2", {}, "Dice"), this.diceEl);
    const moveBlock = h("section#move-block.side-block.move-block", { "aria-labelledby": "move-title" }, h("h2#move-title", {}, "Your move"), this.moves.el, this.moves.message);
    const logBlock = h("section#log-block.side-block.grow.log-block", {}, h("h2", {}, "What happened"), this.logEl);
    const chatBlock = h("section#chat-block.side-block.chat-block", {}, h("h2", {}, "Chat"), this.chatEl);
    const page = h(
      "div.table-page.live",
      {},
      h("div.table-main", {}, this.turnBanner, this.boardWrap, board.zoomBar, this.panels),
      h("aside.side", {}, moveBlock, this.diceBlock, logBlock, chatBlock),
    );
    // Small screens show one of these at a time under the action bar.
    this.tabs = tabBar(page, [
      { id: "heroes", label: "Heroes", el: this.panels },
      { id: "log", label: "Log", el: logBlock },
      { id: "dice", label: "Dice", el: this.diceBlock },
      { id: "chat", label: "Chat", el: chatBlock },
    ]);
    page.append(this.tabs.bar);
    append(clear(this.root), page, this.moves.dialog);
    this.dice = new DiceTray(this.diceEl);
    this.log = new GameLog(this.logEl, {
      describe: (ev) => this.renderer?.describeEvent?.(ev) ?? ev.text ?? null,
      words: (text) => nameSeats(text, this.table),
      byName: (seat) => seatName(this.table, seat),
    });
    this.history = new HistoryLoader(this.log, (entries) => this.onHistory(entries));
    this.chat = new ChatBox(this.chatEl, {
      send: (text, to) => {
        const conn = this.connections.get(this.primaryKey);
        if (!conn || !conn.chat(text, to)) {
          toast("Not connected; the message was not sent.", "error");
          return false;
        }
        return true;
      },
    });
    this.canvas.addEventListener("click", (ev) => this.moves.onBoardClick(ev));
    this.canvas.addEventListener("mousemove", (ev) => this.onBoardHover(ev));
    this.canvas.addEventListener("mouseleave", () => (this.tooltip.hidden = true));
    this.keys = new BoardKeys(this);
  }

  connect(key, token) {
    const conn = new TableConnection(this.table.id, token, { seat: key || null, watch: key ? null : this.side });
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
      if (!key) this.watched(msg);
      this.ensureRenderer();
      if (isPrimary()) {
        if (this.renderer?.diceFromView && !this.newerDice && !this.dice.el.querySelector(".die")) {
          this.dice.show(this.renderer.diceFromView(msg.view || {}), { animate: false });
        }
        // Whatever the log lacks (everything, for a page that just opened) comes from the table's history.
        if (msg.view) this.history.welcomed(conn, msg.seq);
      }
      // A welcome (a reconnect, or the answer to a resync) can be what makes a held seat due.
      this.autoSwitchSeat();
      this.refresh();
    });
    conn.addEventListener("history", (e) => isPrimary() && this.history.received(conn, e.detail));
    conn.addEventListener("update", (e) => {
      const msg = e.detail;
      // Updates resent after a reconnect ("missed") carry only events; the welcome brings the view.
      if (msg.view !== undefined) {
        this.data.set(key, { view: msg.view, legal: msg.legal || [], to_act: msg.to_act || [], deadline: msg.deadline ?? null, seq: msg.seq });
      }
      if (!key && msg.delayed) this.watched(msg);
      if (isPrimary()) {
        this.log.addEvents(msg.seq, msg.events, { by: msg.by, auto: msg.auto });
        const rolls = this.rollsOf(msg.events);
        if (rolls.length) {
          this.dice.show(rolls, { animate: !msg.replayed });
          this.newerDice = true;
        }
      }
      if (key === this.activeSeat) {
        // A renderer may keep a picked figure selected while it can still act (Dorn's monsters step cell by cell).
        const legal = this.current ? this.current.legal : [];
        this.selection = this.renderer?.keepSelection ? this.renderer.keepSelection(this.selection, legal) : null;
        this.moves.choice = null;
      }
      this.autoSwitchSeat();
      this.refresh();
    });
    conn.addEventListener("rejected", (e) => this.moves.refused(e.detail));
    // A bad token is followed by a 4401 close: the "state" listener drops the seat.
    conn.addEventListener("error", (e) => {
      if (e.detail.code !== "bad_token") this.moves.showMessage(e.detail.message, "error", e.detail.code, e.detail.rule);
      // Watching from a side refused: the connection watches live instead (connection.js).
      if (!key && WATCH_REFUSALS.has(e.detail.code)) {
        this.side = null;
        this.delayed = null;
        this.watchRefused = e.detail.message;
        this.renderWatchMode();
      }
    });
    conn.addEventListener("table", (e) => {
      this.table = e.detail.table;
      this.refresh();
    });
    conn.addEventListener("chat", (e) => isPrimary() && this.chat.add(e.detail, seatLabel(this.table, e.detail.seat)));
    conn.addEventListener("chat_history", (e) => isPrimary() && this.chat.history(e.detail));
    conn.addEventListener("presence", (e) => {
      this.spectators = e.detail.spectators;
      this.connectedSeats = new Set(e.detail.connected || []);
      // A seat coming or going re-arms the clocks: the live deadline moves with it (a side
      // spectator's view is held back: it keeps none).
      const d = this.data.get(key);
      if (d && !conn.watch && "deadline" in e.detail) d.deadline = e.detail.deadline ?? null;
      this.renderStatus();
      this.renderPanels();
    });
    conn.addEventListener("finished", (e) => {
      this.outcome = e.detail.outcome;
      if (isPrimary()) this.log.note(nameSeats(this.outcome?.reason || "The game is over.", this.table), "finish");
      this.table = { ...this.table, status: "finished", outcome: this.outcome };
      this.refresh();
    });
    conn.open();
  }

  /** A spectator's welcome or delayed update: what it may choose, and how far behind it is. */
  watched(msg) {
    if (msg.side_watching) this.offer = msg.side_watching;
    this.delayed = msg.delayed || null;
    this.renderWatchMode();
  }

  /**
   * Spectators of a table that offers it choose how to watch: live (the public view) or with a
   * side, whole rounds behind; a side's stream says clearly how far behind it is and what it shows.
   */
  renderWatchMode() {
    clear(this.watchMode);
    const offer = this.offer;
    if (Object.keys(this.seats).length || !offer || !offer.sides.length) return;
    const behind = roundsBehind(offer.rounds);
    const select = h(
      "select#watch-side",
      {
        "aria-label": "How to watch",
        style: { maxWidth: "19rem" },
        title: "Watching with a side shows its hidden cards, but only whole rounds late, so nothing seen can help a player.",
        onchange: () => {
          const url = new URL(location.href);
          url.searchParams.set("watch", select.value || "1");
          location.assign(url);
        },
      },
      h("option", { value: "", selected: !this.side }, "Watch live (public)"),
      offer.sides.map((side) => h("option", { value: side, selected: this.side === side }, `With ${sideName(side)} (${behind} behind)`)),
    );
    this.watchMode.append(select);
    if (this.delayed) this.watchMode.append(h("span#watch-delay.pill", { role: "status" }, delayText(this.delayed)));
    else if (this.watchRefused) this.watchMode.append(h("span#watch-refused.pill", { role: "status" }, `Watching live: ${this.watchRefused}`));
  }

  /** The dice in a batch of events, their labels naming the players. */
  rollsOf(events) {
    const rolls = this.renderer?.diceFromEvents ? this.renderer.diceFromEvents(events || []) : [];
    return rolls.map((r) => ({ ...r, label: nameSeats(r.label, this.table) }));
  }

  /** A page of the table's history (older than anything shown): into the log, its rolls under the newer ones. */
  onHistory(entries) {
    this.log.addMany(entries);
    const rolls = entries.flatMap((e) => this.rollsOf(e.events));
    if (!rolls.length) return;
    if (this.newerDice) this.dice.showOlder(rolls);
    else {
      // The dice the view showed on arrival are the latest of these.
      this.dice.empty();
      this.dice.show(rolls, { animate: false });
    }
    this.newerDice = true;
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
    this.moves.choice = null;
    this.moves.showMessage(`This browser no longer holds ${seatLabel(this.table, key)} (it was taken up elsewhere)${left.length ? "" : "; you are watching instead"}.`, "error");
    this.refresh();
  }

  ensureRenderer() {
    if (this.renderer || !this.current) return;
    this.renderer = this.module.createRenderer({ canvas: this.canvas, static: this.static || {}, table: this.table });
    // A game without dice (Dorn) has no dice tray.
    this.diceBlock.hidden = Boolean(this.renderer.noDice);
    document.getElementById("tab-dice").hidden = Boolean(this.renderer.noDice);
    exposeRenderer(this.renderer);
  }

  /** Hot-seat: when the shown seat has nothing to do and another held seat must act, show that one. */
  autoSwitchSeat() {
    const keys = Object.keys(this.seats);
    if (keys.length < 2) return;
    const mustAct = (seat) => this.mustAct(seat);
    if (mustAct(this.activeSeat)) return;
    const other = keys.find(mustAct);
    if (!other) return;
    this.activeSeat = other;
    this.selection = null;
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
    // Who writes to the chat, and to which channels it may (chat.js).
    this.chat?.setPlaces({ seat: this.primaryKey || null, held: Object.keys(this.seats), seats: this.table.seats,
                          over: this.table.status === "finished", labelOf: (s) => seatLabel(this.table, s) });
    this.renderSeatTabs();
    this.renderStatus();
    this.renderPanels();
    this.moves.render();
    this.renderBoard();
    this.noticeTurn();
    this.keys.update();
  }

  /** A held seat that starts to owe a decision: tell the player, even with the tab in the background. */
  noticeTurn() {
    const due = new Set(Object.keys(this.seats).filter((s) => this.mustAct(s)));
    const fresh = [...due].filter((s) => !this.due.has(s));
    this.due = due;
    if (fresh.length) this.alerts.yourTurn(`${fresh.map((s) => seatLabel(this.table, s)).join(", ")}: ${this.turnText()}`);
    this.announceTargets();
  }

  turnText() {
    const d = this.current;
    return (d && d.view && this.renderer?.turnText?.(d.view)) || "In play";
  }

  /** The live region: whose turn it is and, on yours, what you may do now, by name. */
  announceTargets() {
    const d = this.current;
    if (!d || !d.view || !this.renderer) return;
    if (this.outcome) {
      this.announcer.say(`Game over. ${this.outcome.reason || ""}`);
      return;
    }
    if (!this.activeSeat || !this.mustAct(this.activeSeat)) {
      const who = d.to_act.map((s) => seatLabel(this.table, s)).join(", ");
      this.announcer.say(`${this.turnText()}. ${who ? `Waiting for ${who}.` : ""}`);
      return;
    }
    const label = (a) => (this.renderer.actionLabel ? this.renderer.actionLabel(a) : a.label || fallbackActionLabel(a));
    const names = [...new Set(this.moves.legal().map(label))];
    const listed = names.slice(0, ANNOUNCE_ACTIONS).join("; ");
    const more = names.length > ANNOUNCE_ACTIONS ? `; and ${names.length - ANNOUNCE_ACTIONS} more` : "";
    // The board's targets by name, and where the keyboard cursor stands when the board has the focus.
    const r = this.renderer;
    const targets = r.describeTargets ? ` ${nameSeats(r.describeTargets(this.moves.legal(), { selection: this.selection }), this.table)}` : "";
    const cursor = this.keys.active ? ` ${nameSeats(r.cursorText(), this.table)}` : "";
    this.announcer.say(`Your turn as ${seatLabel(this.table, this.activeSeat)}. ${this.turnText()}.${targets} You can: ${nameSeats(listed, this.table)}${more}.${cursor}`);
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
          due ? h("span.sr-only", {}, " (must act)") : null,
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
      append(
        this.turnBanner,
        h("strong", {}, o.result ? titleCase(o.result) : "Game over"),
        h("span", {}, nameSeats(o.reason || "", this.table)),
        h("a.button.primary#open-replay", { href: replayUrl(this.table.id) }, "Watch the replay"),
      );
      return;
    }
    if (!d) {
      append(this.turnBanner, h("span.muted", {}, "Connecting to the table…"));
      return;
    }
    if (!d.view && this.delayed && this.table.status !== "open") {
      append(this.turnBanner, h("span.muted", {}, `Watching with ${sideName(this.delayed.side)}: ${delayText(this.delayed)}.`));
      return;
    }
    if (!d.view) {
      append(this.turnBanner, h("span.muted", {}, "The game has not started yet; the board appears when the host starts it."));
      return;
    }
    // Seats that only may take something back are not waited for.
    const owing = d.to_act.filter((s) => !(this.renderer?.seatDone && this.renderer.seatDone(d.view, s)));
    const waiting = owing.map((s) => {
      const mine = s in this.seats;
      const off = !this.connectedSeats.has(s) && this.connectedSeats.size > 0;
      return h(`span.waiting-seat${mine ? ".mine" : ""}`, { dataset: { seat: s }, title: off ? "disconnected" : "" }, seatLabel(this.table, s), mine ? " (you)" : "", off ? " (away)" : "");
    });
    const mustAct = this.activeSeat && this.mustAct(this.activeSeat);
    this.turnBanner.dataset.state = mustAct ? "yours" : "waiting";
    const left = d.deadline ? Math.max(0, d.deadline - Date.now() / 1000) : null;
    const list = (items) => items.flatMap((w, i) => (i ? [", ", w] : [w]));
    // On your turn the banner says so; the others the table also waits for follow.
    const others = waiting.filter((w) => w.dataset.seat !== this.activeSeat);
    append(
      this.turnBanner,
      this.delayed && !this.delayed.over ? h("span#turn-delayed.muted", {}, `${roundsBehind(this.delayed.rounds)} behind:`) : null,
      h("strong#turn-text", {}, this.turnText()),
      mustAct
        ? h("span#waiting-for", {}, h("strong.your-turn", {}, "Your turn"), others.length ? [" · also waiting for: ", list(others)] : null)
        : h("span#waiting-for", {}, "Waiting for: ", waiting.length ? list(waiting) : "—"),
      d.deadline
        ? h(`span#deadline.deadline${left < URGENT_SECONDS ? ".urgent" : ""}`, { title: `The server answers by default when this runs out. ${clockText(this.table)}.` }, `${countdown(d.deadline)} left`)
        : null,
    );
    this.moves.tick(d.deadline);
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
    this.renderer.setState(d.view, { legal: this.moves.legal(), seat: this.activeSeat || null, selection: this.selection });
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
    // The tip sits in the board's box, which scrolls when the board is zoomed.
    const box = this.boardWrap.getBoundingClientRect();
    this.tooltip.style.left = `${ev.clientX - box.left + this.boardWrap.scrollLeft + 14}px`;
    this.tooltip.style.top = `${ev.clientY - box.top + this.boardWrap.scrollTop + 14}px`;
  }
}
