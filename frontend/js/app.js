// The page routes itself: /table/{id}, /replay/{id}, anything else is the lobby.
// /record is an imported game record's replay (record-import.js).
// (?table=ID and ?replay=ID work too, for servers that only serve "/".)
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { mountReplay } from "./replay.js";
import { mountRecordImport } from "./record-import.js";

function route() {
  const params = new URLSearchParams(location.search);
  const match = location.pathname.match(/^\/(table|replay)\/([^/]+)\/?$/);
  const root = document.getElementById("app");
  const record = /^\/record\/?$/.test(location.pathname);
  const kind = match ? match[1] : record ? "record" : params.has("table") ? "table" : params.has("replay") ? "replay" : "lobby";
  const id = match ? decodeURIComponent(match[2]) : params.get(kind);
  document.body.dataset.page = kind;
  if (kind === "table") return mountTable(root, id);
  if (kind === "replay") return mountReplay(root, id);
  if (kind === "record") return mountRecordImport(root);
  return mountLobby(root);
}

window.__dt = window.__dt || {};
route();
