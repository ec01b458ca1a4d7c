// REST calls (docs/protocol.md) and what the browser remembers: the player
// identity and, per table, the seat tokens this browser holds (hot-seat: several).

const PLAYER_KEY = "dragontable.player";
const SEATS_PREFIX = "dragontable.seats.";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, { body, auth } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth) headers.Authorization = `Bearer ${auth}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    // FastAPI wraps HTTPException bodies in {detail: ...}; the protocol says {code, message}.
    const err = data && data.detail && typeof data.detail === "object" ? data.detail : data;
    const code = (err && err.code) || `http_${response.status}`;
    let message = (err && err.message) || (typeof data?.detail === "string" ? data.detail : "");
    if (!message) message = `The server answered ${response.status}.`;
    throw new ApiError(response.status, code, message);
  }
  return data;
}

// --- identity -------------------------------------------------------------

export function storedPlayer() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
  } catch {
    return null;
  }
}

let pendingPlayer = null; // {name, promise}: one registration at a time

/** The stored player, or a new one registered under `name`. */
export async function ensurePlayer(name) {
  const clean = (name || "").trim() || "Player";
  const known = storedPlayer();
  if (known && known.player_token && known.name === clean) return known;
  // The name field registers on "change" while a click may register too: share the request,
  // or the table's host would be a player this browser then forgets.
  if (pendingPlayer && pendingPlayer.name === clean) return pendingPlayer.promise;
  const promise = request("POST", "/api/players", { body: { name: clean } }).then((player) => {
    localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
    return player;
  });
  pendingPlayer = { name: clean, promise };
  try {
    return await promise;
  } finally {
    if (pendingPlayer && pendingPlayer.promise === promise) pendingPlayer = null;
  }
}

// --- seat tokens ------------------------------------------------------------

export function heldSeats(tableId) {
  try {
    return JSON.parse(localStorage.getItem(SEATS_PREFIX + tableId) || "{}");
  } catch {
    return {};
  }
}

export function rememberSeat(tableId, seat, token) {
  const seats = heldSeats(tableId);
  seats[seat] = token;
  localStorage.setItem(SEATS_PREFIX + tableId, JSON.stringify(seats));
}

export function forgetSeat(tableId, seat) {
  const seats = heldSeats(tableId);
  delete seats[seat];
  localStorage.setItem(SEATS_PREFIX + tableId, JSON.stringify(seats));
}

// --- REST ---------------------------------------------------------------------

export const api = {
  games: () => request("GET", "/api/games"),
  /** Public tables: open and live, or those of the statuses asked for (`["finished"]`: recent games). */
  tables: (statuses = null) => request("GET", statuses ? `/api/tables?${statuses.map((s) => `status=${encodeURIComponent(s)}`).join("&")}` : "/api/tables"),
  /** Every table this player hosts or sits at, any status or visibility. */
  myTables: (token) => request("GET", "/api/players/me/tables", { auth: token }),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  createTable: (token, body) => request("POST", "/api/tables", { body, auth: token }),
  join: async (token, id, seat) => {
    const answer = await request("POST", `/api/tables/${encodeURIComponent(id)}/join`, {
      body: { seat },
      auth: token,
    });
    rememberSeat(id, answer.seat, answer.seat_token);
    return answer;
  },
  leave: async (token, id, seat) => {
    const table = await request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {
      body: { seat },
      auth: token,
    });
    forgetSeat(id, seat);
    return table;
  },
  /** The host seats a bot of `level` ("random", "steady", "strong") at a free seat. */
  addBot: (token, id, seat, level) => request("POST", `/api/tables/${encodeURIComponent(id)}/bots`, { body: { seat, level }, auth: token }),
  removeBot: (token, id, seat) => request("DELETE", `/api/tables/${encodeURIComponent(id)}/bots/${encodeURIComponent(seat)}`, { auth: token }),
  start: (token, id) => request("POST", `/api/tables/${encodeURIComponent(id)}/start`, { auth: token }),
  exportRecord: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/export`),
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
};

export function tableUrl(id) {
  return `${location.origin}/table/${encodeURIComponent(id)}`;
}

export function replayUrl(id) {
  return `${location.origin}/replay/${encodeURIComponent(id)}`;
}
