// One WebSocket to /ws/tables/{id} for one seat (or a spectator), per docs/protocol.md.
// It reconnects with exponential backoff and resyncs from the last seq it saw. It takes view
// patches (viewpatch.js): an update may carry what changed in its view, legal and to_act, which
// is applied here and checked against the update's view_hash, so listeners get them whole; a
// patch that does not fit, or a missing update, asks the server for a whole view ("resync").
// Listeners get "state", "welcome", "update", "ack", "rejected", "chat",
// "presence", "finished", "history" and "error" events (CustomEvent, message in .detail).

import { applyPatch, viewHash } from "./viewpatch.js";

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 10000;
const PING_EVERY_MS = 20000;
// A resync unanswered this long: reconnect instead (the hello's last_seq resyncs too).
const RESYNC_WAIT_MS = 5000;

// The hello's refusals of watching from a side; the connection stays open for another hello.
export const WATCH_REFUSALS = new Set(["watch_refused", "unknown_side", "watch_seated"]);

let actionCounter = 0;

function newActionId() {
  actionCounter += 1;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `a${Date.now().toString(36)}-${random[0].toString(36)}${random[1].toString(36)}-${actionCounter}`;
}

export class TableConnection extends EventTarget {
  /**
   * @param {string} tableId
   * @param {string|null} seatToken null for a spectator
   * @param {{seat?: string|null, url?: string, watch?: string|null}} opts  watch: a spectator with
   *   that side, rounds behind (docs/protocol.md "Watching from a side")
   */
  constructor(tableId, seatToken, opts = {}) {
    super();
    this.tableId = tableId;
    this.seatToken = seatToken;
    this.seat = opts.seat ?? null;
    this.watch = opts.watch ?? null;
    this.url =
      opts.url ||
      `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
    this.lastSeq = null;
    this.state = "idle"; // idle | connecting | open | reconnecting | closed | refused
    this.attempt = 0;
    this.ws = null;
    this.pending = new Map(); // action_id -> {resolve, reject}
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.nextRetryAt = null;
    this.doc = null; // {v: view, l: legal, t: to_act} as last received: what a patch applies to
    this.resyncing = false;
    this.resyncTimer = null;
    this.resyncs = 0; // how many times a patch did not fit or an update was missing
    this._onOnline = () => this._retryNow();
    window.addEventListener("online", this._onOnline);
  }

  _emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  _setState(state, reason = "") {
    this.state = state;
    this._emit("state", { state, reason, attempt: this.attempt, nextRetryAt: this.nextRetryAt });
  }

  open() {
    this.stopped = false;
    this._connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.resyncTimer);
    window.removeEventListener("online", this._onOnline);
    if (this.ws) this.ws.close(1000, "bye");
    this._setState("closed");
  }

  /** Drop the socket (as a network cut would) and let the reconnect logic heal it. */
  simulateDrop() {
    if (this.ws) this.ws.close(4000, "client drop");
  }

  _retryNow() {
    if (this.stopped || this.state === "open" || this.state === "connecting") return;
    clearTimeout(this.retryTimer);
    this._connect();
  }

  _connect() {
    clearTimeout(this.retryTimer);
    this.nextRetryAt = null;
    this.resyncing = false;
    clearTimeout(this.resyncTimer);
    this._setState(this.attempt === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this._scheduleRetry(String(err));
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello", seat_token: this.seatToken, last_seq: this.lastSeq, patches: true };
      ws.send(JSON.stringify(this.watch ? { ...hello, watch: this.watch } : hello));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this._handle(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      for (const [, p] of this.pending) p.reject({ code: "disconnected", message: "The connection dropped before the server answered." });
      this.pending.clear();
      if (this.stopped) return;
      // A refused token or a table that is gone will not heal by retrying.
      if (ev.code === 4401 || ev.code === 4404) {
        this.stopped = true;
        this._setState("refused", ev.code === 4401 ? "This seat's token was not accepted." : "This table does not exist.");
        return;
      }
      this._scheduleRetry(ev.reason || `closed (${ev.code})`);
    };
    ws.onerror = () => {
      // onclose follows; nothing else to do here.
    };
  }

  _scheduleRetry(reason) {
    this.attempt += 1;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (this.attempt - 1));
    const delay = base / 2 + Math.random() * (base / 2); // jitter so a server restart is not stampeded
    this.nextRetryAt = Date.now() + delay;
    this._setState("reconnecting", reason);
    this.retryTimer = setTimeout(() => this._connect(), delay);
  }

  _handle(msg) {
    switch (msg.type) {
      case "welcome": {
        this.attempt = 0;
        this.resyncing = false;
        clearTimeout(this.resyncTimer);
        this.doc = { v: msg.view, l: msg.legal || [], t: msg.to_act || [] };
        this.seat = msg.seat ?? this.seat;
        const missed = Array.isArray(msg.missed) ? msg.missed : [];
        const resynced = this.lastSeq !== null && missed.length === 0 && msg.seq > this.lastSeq;
        for (const update of missed) {
          if (this.lastSeq === null || update.seq > this.lastSeq) {
            this.lastSeq = update.seq;
            this._emit("update", { ...update, replayed: true });
          }
        }
        this.lastSeq = msg.seq;
        this._setState("open");
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
        this._emit("welcome", { ...msg, resynced });
        break;
      }
      case "update": {
        if (this.resyncing) return; // the welcome that answers the resync brings the view
        if (this.lastSeq !== null && msg.seq <= this.lastSeq) return; // duplicate
        if (this.lastSeq !== null && msg.seq > this.lastSeq + 1) {
          // A gap: something was lost. The server resends it with a whole view.
          this._resync();
          return;
        }
        if (msg.patch !== undefined) {
          let doc = null;
          try {
            doc = applyPatch(this.doc, msg.patch);
          } catch {
            doc = null; // a patch that does not fit this view
          }
          if (!doc || viewHash(doc) !== msg.view_hash) {
            this._resync();
            return;
          }
          this.doc = doc;
          // A patched frame leaves out what it can (docs/protocol.md): a false auto, a null
          // deadline, and the action id of an action this seat did not send.
          msg = { ...msg, auto: msg.auto === true, action_id: msg.action_id ?? null, deadline: msg.deadline ?? null, view: doc.v, legal: doc.l, to_act: doc.t };
        } else if (msg.view !== undefined) {
          this.doc = { v: msg.view, l: msg.legal || [], t: msg.to_act || [] };
        }
        this.lastSeq = msg.seq;
        this._emit("update", msg);
        break;
      }
      case "ack":
      case "rejected": {
        // Settle the act() promise of this action_id, then tell the listeners.
        const p = this.pending.get(msg.action_id);
        this.pending.delete(msg.action_id);
        if (p) (msg.type === "ack" ? p.resolve : p.reject)(msg);
        this._emit(msg.type, msg);
        break;
      }
      case "error":
        // Watching from a side refused (not offered here): the same socket watches live instead.
        if (this.watch && WATCH_REFUSALS.has(msg.code)) {
          this.watch = null;
          this.lastSeq = null;
          this.send({ type: "hello", seat_token: null, last_seq: null, patches: true });
        }
        this._emit(msg.type, msg);
        break;
      case "history":
      case "chat":
      case "chat_history":
      case "table":
      case "presence":
      case "finished":
        this._emit(msg.type, msg);
        break;
      default:
        break;
    }
  }

  /** Ask for a whole view and the updates after the last one taken (docs/protocol.md). */
  _resync() {
    this.resyncs += 1;
    this.resyncing = true;
    clearTimeout(this.resyncTimer);
    this.resyncTimer = setTimeout(() => this.resyncing && this.simulateDrop(), RESYNC_WAIT_MS);
    if (!this.send({ type: "resync", last_seq: this.lastSeq })) this.simulateDrop();
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  /** Send a listed action verbatim; resolves on ack, rejects with {code, message}. */
  act(action) {
    const actionId = newActionId();
    return new Promise((resolve, reject) => {
      // The answer cannot arrive before this returns (socket messages are dispatched later).
      if (this.state !== "open" || !this.send({ type: "act", seq: this.lastSeq, action_id: actionId, action })) {
        reject({ code: "offline", message: "Not connected to the table right now; reconnecting…" });
        return;
      }
      this.pending.set(actionId, { resolve, reject });
    });
  }

  /** A chat line; `to`: "table", "side", "seat:<seat>" or "spectators" (docs/protocol.md "Chat channels"). */
  chat(text, to) {
    return this.send(to ? { type: "chat", text, to } : { type: "chat", text });
  }

  /** Ask for a page of the table's past (docs/protocol.md v1.5): the updates before seq `before`. */
  history(before) {
    return this.send(before ? { type: "history", before } : { type: "history" });
  }
}
