// The lobby's lists of tables: one row per table, with what this browser can do there (take a
// seat, go back to its own seats, watch, open the replay of a finished game).
import { api, ensurePlayer, heldSeats, storedPlayer, tableUrl } from "./api.js";
import { clockText } from "./clocks.js";
import { playerName } from "./words.js";
import { clear, copyText, h, titleCase, toast } from "./ui.js";

const STATUS_WORDS = { open: "waiting for players", live: "in play", finished: "finished" };

function when(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const today = new Date().toDateString() === at.toDateString();
  return today ? at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : at.toLocaleDateString([], { day: "numeric", month: "short" });
}

/** The seats of a finished or running table whose player has this browser's name: seats to take back. */
function seatsWithMyName(t) {
  const me = storedPlayer();
  return me ? t.seats.filter((s) => s.player_name === me.name).map((s) => s.seat) : [];
}

/**
 * Join again every seat of `t` this player holds (the server gives a new token for one's own
 * seat), for a browser that lost its tokens; then go to the table.
 */
async function takeBack(t) {
  const me = await ensurePlayer(storedPlayer()?.name);
  let taken = 0;
  for (const seat of seatsWithMyName(t)) {
    try {
      await api.join(me.player_token, t.id, seat);
      taken += 1;
    } catch {
      // someone else of the same name holds it: leave it to them
    }
  }
  if (!taken) toast("None of these seats is yours any more; you can still watch.", "error");
  location.href = `/table/${encodeURIComponent(t.id)}`;
}

function outcomeText(t) {
  const o = t.outcome || {};
  return [o.result ? titleCase(o.result) : "", o.reason || ""].filter(Boolean).join(": ");
}

function actionsFor(t, { mine }) {
  const id = encodeURIComponent(t.id);
  const held = Object.keys(heldSeats(t.id)).length > 0;
  const free = t.seats.some((s) => !s.taken);
  const out = [];
  if (t.status === "finished") {
    out.push(h("a.button.primary.open-replay", { href: `/replay/${id}` }, "Replay"));
    return out;
  }
  if (held) out.push(h("a.button.primary", { href: `/table/${id}` }, "Resume"));
  else if (mine && t.status === "live" && seatsWithMyName(t).length) out.push(h("button.primary.take-back", { type: "button", onclick: () => takeBack(t) }, "Take my seat back"));
  else if (t.status === "open" && (free || mine)) out.push(h("a.button.primary", { href: `/table/${id}` }, mine ? "Open" : "Join"));
  out.push(h("a.button", { href: `/table/${id}?watch=1` }, "Watch"));
  out.push(
    h(
      "button.ghost",
      { type: "button", title: "Copy the invite link", onclick: async () => toast((await copyText(tableUrl(t.id))) ? "Invite link copied." : tableUrl(t.id)) },
      "Copy link",
    ),
  );
  return out;
}

/** One table as a row: name, status, who sits, clocks, and its buttons. */
export function tableRow(t, { mine = false } = {}) {
  const taken = t.seats.filter((s) => s.taken);
  const players = taken.map((s) => `${playerName(s)} (${s.label})`);
  const facts = [`seats ${taken.length}/${t.seats.length}`];
  if (t.spectators) facts.push(`${t.spectators} watching`);
  if (t.status !== "finished" && (t.turn_clock_seconds || t.status === "open")) facts.push(clockText(t));
  if (t.visibility === "unlisted" && mine) facts.push("unlisted");
  return h(
    "article.table-row",
    { dataset: { table: t.id, status: t.status } },
    h(
      "div.table-row-main",
      {},
      h("strong", {}, t.title || titleCase(t.game)),
      h(`span.badge.badge-${t.status}`, {}, STATUS_WORDS[t.status] || t.status),
      h("span.muted.small", {}, when(t.created_at)),
      h("div.small.muted", {}, facts.join(" · ")),
      t.status === "finished" && outcomeText(t) ? h("div.small", {}, outcomeText(t)) : null,
      h("div.small", {}, players.length ? players.join(", ") : h("span.muted", {}, "nobody seated yet")),
    ),
    h("div.table-row-actions", {}, actionsFor(t, { mine })),
  );
}

/** Fill `list` with rows, or a sentence when there are none. */
export function renderRows(list, tables, { empty, mine = false }) {
  clear(list);
  if (!tables.length) list.append(h("p.muted", {}, empty));
  for (const t of tables) list.append(tableRow(t, { mine }));
}
