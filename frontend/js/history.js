// The table's past for a page that arrives late (a reload, a new spectator, a reconnect the
// server could not fill with `missed`): after each welcome, ask for the pages of history the
// log lacks, newest page first, until the log reaches back to the setup (seq 0). The server
// sends each seat exactly the events it was sent live (docs/protocol.md v1.5).

export class HistoryLoader {
  /**
   * @param {import("./log.js").GameLog} log what is already known (its seqs)
   * @param {(entries: object[], {complete: boolean}) => void} onPage called with each page, oldest entry first
   */
  constructor(log, onPage) {
    this.log = log;
    this.onPage = onPage;
    this.conn = null;
    this.asked = null; // the `before` of the page asked for and not yet answered
    this.complete = false;
  }

  /** A welcome at `seq` on `conn`: ask for whatever the log misses up to it. */
  welcomed(conn, seq) {
    this.conn = conn;
    this.asked = null; // a question sent on an earlier socket will not be answered
    this.askBelow(seq);
  }

  askBelow(upto) {
    const gap = this.log.missingBelow(upto);
    if (gap < 0) {
      this.complete = true;
      return;
    }
    this.complete = false;
    this.asked = gap + 1;
    if (!this.conn.history(this.asked)) this.asked = null; // the socket closed: the next welcome asks again
  }

  /** A `history` answer on `conn`. */
  received(conn, msg) {
    if (conn !== this.conn || this.asked === null) return;
    this.asked = null;
    const entries = Array.isArray(msg.entries) ? msg.entries : [];
    this.onPage(entries, { complete: Boolean(msg.complete) });
    // The page that reaches the start ends the asking, whether or not it began with seq 0 (the setup).
    if (msg.complete || !entries.length) this.complete = true;
    else this.askBelow(entries[0].seq - 1);
  }
}
