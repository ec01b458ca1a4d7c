// Replay of a finished table: every action, forward, back or jump, with all
// hidden tiles revealed (frames from GET /api/tables/{id}/replay), and the game
// record (GET /api/tables/{id}/export) to download and verify.
import { api } from "./api.js";
import { boardArea, exposeRenderer, loadRenderer } from "./board.js";
import { chatLog } from "./chat.js";
import { DiceTray } from "./dice.js";
import { forkBanner, forkTable } from "./fork.js";
import { rulesPanelFor } from "./rules.js";
import { append, clear, h, loadOrExplain, setTopbar, titleCase, toast } from "./ui.js";
import { nameSeats, seatLabel, seatName } from "./words.js";

const PLAY_STEP_MS = 900;

/** `imported` = {data, record}: a replay the server made of an uploaded record (record-import.js),
 * shown instead of asking for table `tableId`'s, with `record` (the file's text) to download. */
export async function mountReplay(root, tableId, imported = null) {
  const data = imported ? imported.data : await loadOrExplain(root, () => api.replay(tableId), {
    title: "No replay yet",
    note: "A replay opens once the game is over.",
    links: [[`/table/${encodeURIComponent(tableId)}`, "Back to the table"], ["/", "Lobby"]],
  });
  if (!data) return;
  const table = data.table || { id: tableId, game: data.game, seats: [] };
  document.title = `Replay — ${table.title || titleCase(table.game)}`;
  const [module, rules] = await Promise.all([loadRenderer(table.game), rulesPanelFor(table.game)]);
  new ReplayPage(root, table, data, module, rules, imported).start();
}

class ReplayPage {
  constructor(root, table, data, module, rules, imported = null) {
    this.root = root;
    this.imported = imported;
    this.rules = rules;
    this.table = table;
    this.frames = data.frames || [];
    this.chat = data.chat || []; // the table's and the spectators' lines, open with the replay (issue 14.3)
    this.static = data.static || {};
    this.module = module;
    this.index = 0;
    this.timer = null;
  }

  start() {
    const downloadButton = h("button#download-record", { type: "button", onclick: () => this.download() }, "Download the game record");
    setTopbar(
      h("strong.table-title", {}, `Replay: ${this.table.title || titleCase(this.table.game)}`),
      h("span.pill.pill-quiet", {}, "all tiles revealed"),
      this.imported ? h("span#record-verified.pill", { title: this.imported.data.verified }, "imported record, verified") : null,
      this.rules ? this.rules.button() : null,
      downloadButton,
      forkBanner(this.table),
    );
    this.slider = h("input#replay-slider", { type: "range", min: 0, max: Math.max(0, this.frames.length - 1), value: 0, "aria-label": "Action number", oninput: (e) => this.go(Number(e.target.value)) });
    this.pos = h("span#replay-pos.replay-pos");
    this.playButton = h("button#replay-play", { type: "button", onclick: () => this.togglePlay() }, "▶ Play");
    this.caption = h("div#replay-caption.turn-banner");
    // Play from here (issue 14.5): a new table that plays on from this step with dice of its own
    // (not for an uploaded record: its table may live on another server).
    this.forkButton = h("button#play-from-here.primary", { type: "button", hidden: this.table.imported === true, title: "Open a new table that plays on from this step, with dice of its own", onclick: () => this.playFromHere() }, "Play from here");
    const board = boardArea("Game board at this point of the replay", () => this.renderer);
    this.canvas = board.canvas;
    this.panels = board.panels;
    this.logEl = h("div#log.log");
    this.diceEl = h("div#dice");
    const bar = h(
      "div.replay-bar",
      {},
      h("button#replay-first", { type: "button", title: "Start", onclick: () => this.go(0) }, "|◀"),
      h("button#replay-back", { type: "button", title: "Back one action (←)", onclick: () => this.go(this.index - 1) }, "◀"),
      this.playButton,
      h("button#replay-forward", { type: "button", title: "Forward one action (→)", onclick: () => this.go(this.index + 1) }, "▶"),
      h("button#replay-last", { type: "button", title: "End", onclick: () => this.go(this.frames.length - 1) }, "▶|"),
      this.slider,
      this.pos,
      this.forkButton,
    );
    append(clear(this.root), 
      h(
        "div.table-page",
        {},
        h("div.table-main", {}, bar, this.caption, board.wrap, board.zoomBar, this.panels),
        h(
          "aside.side",
          {},
          h("section.side-block", {}, h("h2", {}, "Dice of this action"), this.diceEl),
          h("section.side-block.grow", {}, h("h2", {}, "Every action (click to jump)"), this.logEl),
          this.chat.length ? h("section#replay-chat-block.side-block", {}, h("h2", {}, "Chat"), chatLog(this.chat, (s) => seatLabel(this.table, s))) : null,
          this.table.outcome ? h("section.side-block", {}, h("h2", {}, "Outcome"), h("p", {}, nameSeats(this.table.outcome.reason || titleCase(this.table.outcome.result), this.table))) : null,
        ),
      ),
    );
    this.dice = new DiceTray(this.diceEl);
    this.renderer = this.module.createRenderer({ canvas: this.canvas, static: this.static, table: this.table });
    window.__dt.replay = this;
    exposeRenderer(this.renderer);
    this.buildLog();
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
      if (e.key === "ArrowRight") this.go(this.index + 1);
      else if (e.key === "ArrowLeft") this.go(this.index - 1);
    });
    this.go(0);
  }

  actionText(action) {
    return this.renderer.actionLabel ? this.renderer.actionLabel(action) : action.type;
  }

  buildLog() {
    clear(this.logEl);
    this.frames.forEach((frame, i) => {
      const lines = (frame.events || []).map((ev) => this.renderer.describeEvent(ev)).filter(Boolean).map((t) => nameSeats(t, this.table));
      const head = i === 0 ? "Setup" : `${seatName(this.table, frame.seat)}: ${this.actionText(frame.action)}`;
      this.logEl.append(
        h(
          "div.log-group.replay-step",
          { dataset: { index: i }, onclick: () => this.go(i), style: { cursor: "pointer" }, role: "button", tabIndex: 0, onkeydown: (e) => e.key === "Enter" && this.go(i) },
          h("span.log-seq", {}, `#${frame.seq ?? i}`),
          h("div.log-lines", {}, h("p.log-line", {}, h("strong", {}, head)), lines.map((t) => h("p.log-line.muted", {}, t))),
        ),
      );
    });
  }

  go(i) {
    if (!this.frames.length) return;
    this.index = Math.max(0, Math.min(this.frames.length - 1, i));
    const frame = this.frames[this.index];
    this.slider.value = String(this.index);
    this.pos.textContent = `${this.index} / ${this.frames.length - 1}`;
    this.renderer.setState(frame.view, { legal: [] });
    clear(this.panels).append(this.renderer.heroPanels(frame.view, { table: this.table, toAct: frame.to_act || [] }));
    append(clear(this.caption), 
      h("strong", {}, this.renderer.turnText(frame.view) || "Setup"),
      this.index > 0 ? h("span", {}, `${seatName(this.table, frame.seat)} — ${this.actionText(frame.action)}`) : h("span.muted", {}, "Before the first action"),
    );
    for (const el of this.logEl.querySelectorAll(".replay-step")) el.classList.toggle("current", Number(el.dataset.index) === this.index);
    const current = this.logEl.querySelector(".replay-step.current");
    if (current) this.showInLog(current);
    this.dice.empty();
    const rolls = this.renderer.diceFromEvents(frame.events || []).map((r) => ({ ...r, label: nameSeats(r.label, this.table) }));
    this.dice.show(rolls, { animate: false });
    if (this.index >= this.frames.length - 1) this.stop();
    this.forkButton.disabled = Boolean(frame.view && frame.view.outcome); // nothing to play on from
  }

  async playFromHere() {
    this.stop();
    this.forkButton.disabled = true;
    try {
      const fork = await forkTable(this.table.id, this.frames[this.index].seq);
      location.assign(`/table/${encodeURIComponent(fork.id)}`);
    } catch (err) {
      toast(err.message, "error");
      this.forkButton.disabled = false;
    }
  }

  /** Scroll the log, and only the log, so `entry` is in view (scrollIntoView would scroll the page too). */
  showInLog(entry) {
    const log = this.logEl;
    const top = entry.offsetTop;
    const bottom = top + entry.offsetHeight;
    if (top < log.scrollTop) log.scrollTop = top;
    else if (bottom > log.scrollTop + log.clientHeight) log.scrollTop = bottom - log.clientHeight;
  }

  togglePlay() {
    if (this.timer) this.stop();
    else {
      if (this.index >= this.frames.length - 1) this.go(0);
      this.playButton.textContent = "❚❚ Pause";
      this.timer = setInterval(() => this.go(this.index + 1), PLAY_STEP_MS);
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "▶ Play";
  }

  async download() {
    try {
      // An imported record is given back as it was uploaded.
      const text = this.imported ? this.imported.record : JSON.stringify(await api.exportRecord(this.table.id), null, 2);
      const blob = new Blob([text], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const a = h("a", { href: url, download: `dragontable-${this.table.id}.json` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 2000);
    } catch (err) {
      toast(err.message, "error");
    }
  }
}
