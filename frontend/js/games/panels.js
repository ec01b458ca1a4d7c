// The DOM side of the renderers: what the hero panels, the log and the buttons of every game
// are made of (stat bars, token chips, seat lookups, event and fallback action texts).
import { h, titleCase } from "../ui.js";
import { inkOn } from "./color.js";

/** The table's entry for a seat ({seat, label, player_name, taken...}), or null. */
export function seatOf(table, seat) {
  return (table && (table.seats || []).find((s) => s.seat === seat)) || null;
}

/** A hero's coloured initials, as on the board. */
export function tokenChip(color, text) {
  return h("span.token", { style: { background: color, color: inkOn(color) } }, text);
}

/**
 * A panel card's header: token, name, who plays the seat ("away" when the seat is taken but not
 * connected while others are), then any badges.
 */
export function cardHeader(token, name, seat, connected, ...badges) {
  const away = seat && seat.taken && connected.size > 0 && !connected.has(seat.seat);
  return h("header", {}, token, name, seat && seat.player_name ? h("span.small.muted", {}, seat.player_name, away ? " (away)" : "") : null, badges);
}

/** A labelled bar: value out of max. */
export function statBar(label, value, max, kind) {
  const v = value ?? 0;
  const m = Math.max(1, max ?? v);
  return h(
    `div.stat-bar.bar-${kind}`,
    { title: `${label} ${v}/${m}` },
    h("span.bar-label", {}, label),
    h("span.bar-track", {}, h("span.bar-fill", { style: { width: `${Math.max(0, Math.min(100, (100 * v) / m))}%` } })),
    h("b", {}, `${v}/${m}`),
  );
}

/** The server's sentence for an event, else its kind. */
export function eventText(ev) {
  return ev.text || titleCase(ev.kind);
}

/** "Type: field value, ..." for an action a renderer has no words for. */
export function fallbackActionLabel(a, value = (v) => (typeof v === "object" ? JSON.stringify(v) : v)) {
  const bits = Object.entries(a)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${titleCase(k)} ${value(v)}`);
  return `${titleCase(a.type)}${bits.length ? `: ${bits.join(", ")}` : ""}`;
}

/**
 * A <details>' attributes that keep it open across the panels' rebuilds: `open` (a Set the
 * renderer keeps) holds the keys of those the player opened. The click on its own summary
 * records the coming state at once: the toggle event follows a task later, and an update
 * rebuilding the panel in between would close it again (and the late event would then
 * record it open on the replaced element). The toggle records what a click did not (find in
 * page opens a details too).
 */
export function keptOpen(open, key) {
  const record = (isOpen) => (isOpen ? open.add(key) : open.delete(key));
  return {
    open: open.has(key),
    onclick: (e) => {
      if (e.target.closest("summary")?.parentElement === e.currentTarget) record(!e.currentTarget.open);
    },
    ontoggle: (e) => {
      if (e.target.isConnected) record(e.target.open);
    },
  };
}

/**
 * A card's text that opens on tap or keyboard (a <details>; `spec` styles its summary), with
 * the same words as its hover title. The panels are rebuilt on every update: `open` (a Set the
 * renderer keeps) remembers which ones the player opened, by `key`. The inline styles keep it
 * in line with its neighbours until app.css styles .card-detail.
 */
export function textChip(spec, key, open, summary, text) {
  return h(
    "details.card-detail",
    { ...keptOpen(open, key), title: text, dataset: { card: key }, style: { display: "inline-block", maxWidth: "100%", verticalAlign: "top" } },
    h(`summary${spec}`, { style: { cursor: "pointer" } }, summary),
    h("span.card-text", { style: { display: "block", whiteSpace: "normal" } }, text),
  );
}
