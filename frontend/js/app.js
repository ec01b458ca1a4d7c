// The page routes itself: /table/{id}, /replay/{id}, anything else is the lobby.
// (?table=ID and ?replay=ID work too, for servers that only serve "/".)
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { mountReplay } from "./replay.js";

function route() {
  const params = new URLSearchParams(location.search);
  const match = location.pathname.match(/^\/(table|replay)\/([^/]+)\/?$/);
  const root = document.getElementById("app");
  const kind = match ? match[1] : params.has("table") ? "table" : params.has("replay") ? "replay" : "lobby";
  const id = match ? decodeURIComponent(match[2]) : params.get(kind);
  document.body.dataset.page = kind;
  if (kind === "table") return mountTable(root, id);
  if (kind === "replay") return mountReplay(root, id);
  return mountLobby(root);
}

window.__dt = window.__dt || {};
route();
