// Play from here (issue 14.5): fork a finished table at a replay step into a new open table
// (POST /api/tables/{id}/fork), and the banner a fork shows: where it came from, linked to the
// original's replay.
import { ApiError, ensurePlayer, storedPlayer } from "./api.js";
import { h } from "./ui.js";

/** The new table (TableOut) forked from `tableId` at `seq`, hosted by this browser's player. */
export async function forkTable(tableId, seq) {
  const me = storedPlayer() || (await ensurePlayer("Player"));
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/fork`, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json", Authorization: `Bearer ${me.player_token}` },
    body: JSON.stringify({ seq }),
  }).catch(() => {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const err = (data && (data.detail || data)) || {};
    throw new ApiError(response.status, err.code || `http_${response.status}`, err.message || `The server answered ${response.status}.`);
  }
  return data;
}

/** "Fork of <original> at step N", linked to the original's replay; null for a table that is no fork. */
export function forkBanner(table) {
  const origin = table && table.origin;
  if (!origin) return null;
  const href = `/replay/${encodeURIComponent(origin.table)}`;
  return h(
    "span#fork-origin.pill.pill-quiet",
    { title: "This table plays on from a step of a finished game, with dice of its own." },
    "Fork of ",
    h("a#fork-origin-link", { href }, origin.table),
    ` at step ${origin.seq}`,
  );
}
