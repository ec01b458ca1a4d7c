// Watch a record (issue 14.6): a game record file, or a link to this server's own export, sent to
// POST /api/records/replay, which checks it against docs/record.schema.json and verifies every
// roll; the replay page then opens on the answer at /record. A refusal is shown in the server's
// words ("Step 7 does not verify: ...").
import { mountReplay } from "./replay.js";
import { clear, h, setTopbar } from "./ui.js";

// The server reads at most this much (backend/lobby/imports.py MAX_RECORD_BYTES).
const MAX_RECORD_BYTES = 8 * 1024 * 1024;
const TABLE_ID = "([A-Za-z0-9_-]{1,64})";
const EXPORT_PATH = new RegExp(`^/api/tables/${TABLE_ID}/export/?$`);
const PAGE_PATH = new RegExp(`^/(?:table|replay)/${TABLE_ID}/?$`);

class RecordError extends Error {}

/**
 * The export path a link names: this server's `/api/tables/<id>/export`, or a table or replay
 * page of it (`/table/<id>`, `/replay/<id>`), whose record is that export. Links to anywhere
 * else are refused: the browser fetches only from this server (a record from elsewhere is
 * downloaded there and chosen as a file).
 */
export function exportPathOf(link, origin = location.origin) {
  let url;
  try {
    url = new URL(link.trim(), origin);
  } catch {
    throw new RecordError("That is not a link. Paste this server's export link, e.g. /api/tables/<id>/export.");
  }
  if (url.origin !== origin) {
    throw new RecordError(`Only this server's own links can be fetched here (${origin}/…). For a record from elsewhere, download the file there and choose it above.`);
  }
  const match = url.pathname.match(EXPORT_PATH) || url.pathname.match(PAGE_PATH);
  const id = match ? match[1] : url.searchParams.get("replay") || url.searchParams.get("table");
  if (!id || !new RegExp(`^${TABLE_ID}$`).test(id)) {
    throw new RecordError("That link names no table. Paste a link like /api/tables/<id>/export (or the table's or replay's page).");
  }
  return `/api/tables/${encodeURIComponent(id)}/export`;
}

/** The server's `{code, message}` refusal as a RecordError, or the status when there is none. */
async function refusal(response) {
  const body = await response.json().catch(() => null);
  const message = body && typeof body.message === "string" ? body.message : `The server answered ${response.status}.`;
  const error = new RecordError(message);
  error.code = body && body.code;
  return error;
}

async function send(method, path, body) {
  try {
    return await fetch(path, { method, headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) }, body });
  } catch {
    throw new RecordError("The server cannot be reached. Check your connection.");
  }
}

/** The record's text: the file chosen, or else this server's export the link names. */
async function recordText(file, link) {
  if (file) {
    if (file.size > MAX_RECORD_BYTES) throw new RecordError(`That file is ${(file.size / 2 ** 20).toFixed(1)} MiB; a record is at most 8 MiB.`);
    return file.text();
  }
  if (!link.trim()) throw new RecordError("Choose a record file, or paste a link to this server's export.");
  const response = await send("GET", exportPathOf(link));
  if (!response.ok) throw await refusal(response);
  return response.text();
}

/** The replay the server makes of the record `text` ({table, static, frames, verified}). */
export async function importRecord(text) {
  const response = await send("POST", "/api/records/replay", text);
  if (!response.ok) throw await refusal(response);
  return response.json();
}

/** Show the imported replay in `root`, at /record (going back reloads the page it came from). */
async function openReplay(root, data, record) {
  if (location.pathname !== "/record") history.pushState({ record: true }, "", "/record");
  window.addEventListener("popstate", () => location.reload(), { once: true });
  document.body.dataset.page = "replay";
  await mountReplay(root, data.table.id, { data, record });
}

/** The "Watch a record" form: a file picker, a link field, and the refusal in words. */
export function recordImportForm(root) {
  const file = h("input#record-file", { type: "file", accept: ".json,application/json" });
  const link = h("input#record-url", { type: "text", inputmode: "url", placeholder: "/api/tables/<id>/export", autocomplete: "off", spellcheck: "false" });
  const button = h("button#record-watch", { type: "submit" }, "Watch the record");
  const error = h("p#record-error.error", { role: "alert" });
  const form = h(
    "form#record-import",
    {
      onsubmit: async (ev) => {
        ev.preventDefault();
        error.textContent = "";
        button.disabled = true;
        try {
          const text = await recordText(file.files[0], link.value);
          await openReplay(root, await importRecord(text), text);
        } catch (err) {
          error.textContent = err instanceof RecordError ? err.message : `That record cannot be shown: ${err.message}`;
          button.disabled = false;
        }
      },
    },
    h("label.field", {}, h("span", {}, "A record file (dragontable-record/1, as “Download the game record” saves it)"), file),
    h("label.field", {}, h("span", {}, "…or a link to this server's export"), link),
    h("p.muted.small", {}, "The server checks every roll against the seed before the replay opens; nothing is kept."),
    h("div.actions", {}, button),
    error,
  );
  return form;
}

/** The /record page (reached again by a reload or a link): the form on its own. */
export function mountRecordImport(root) {
  clear(root);
  setTopbar();
  document.title = "Dragontable — watch a record";
  root.append(
    h(
      "section.card.waiting",
      { "aria-labelledby": "record-title" },
      h("h1#record-title", {}, "Watch a record"),
      h("p", {}, "Choose a game record to watch it as a replay, every tile revealed."),
      recordImportForm(root),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby")),
    ),
  );
}
