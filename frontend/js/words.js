// People and figures named as the players see them: the table's seat labels and the names of
// the players holding the seats, never the seat ids the server uses internally ("heroes_1").
import { seatOf } from "./games/panels.js";
import { titleCase } from "./ui.js";

/** A seat's label ("Almanor, Choros"), or its id made readable when the table does not know it. */
export function seatLabel(table, seat) {
  const s = seatOf(table, seat);
  return s ? s.label : titleCase(seat);
}

/** A seat's player as the table shows them: a bot is marked as one wherever its name appears
 * (the server names the bots it seats "Steady bot"…; a bot that named itself gets " · bot"). */
export function playerName(s) {
  if (!s.player_name) return "";
  return s.bot && !/\bbot\b/i.test(s.player_name) ? `${s.player_name} · bot` : s.player_name;
}

/** Who sits at a seat, as a sentence's subject: "Hana (Almanor, Choros)", or the label of a free seat. */
export function seatName(table, seat) {
  const s = seatOf(table, seat);
  if (!s) return titleCase(seat);
  if (!s.player_name) return s.label;
  const standIn = s.stand_in ? ", a bot playing for them" : "";
  return `${playerName(s)} (${s.label}${standIn})`;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with every seat id in it replaced by who sits there. An id counts only as a whole word
 * spelled exactly as the server spells ids (lower case, "_" and digits), so "Ninja" or "the
 * Keeper" in a sentence stay as written while "heroes_1" or "p2" become names.
 */
export function nameSeats(text, table) {
  const seats = (table && table.seats) || [];
  if (!text || !seats.length) return text;
  const ids = seats.map((s) => s.seat).filter(Boolean).sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?<![A-Za-z0-9_])(${ids.map(escape).join("|")})(?![A-Za-z0-9_])`, "g");
  return String(text).replace(pattern, (id) => seatName(table, id));
}
