// The lobby: who you are, what to play and how (options, clocks, who can find it), this
// browser's own tables (live, waiting, finished, with their replays), the public tables one can
// join or watch, the recent games, and watching a game record (record-import.js).
import { api, ensurePlayer, storedPlayer } from "./api.js";
import { clockFields } from "./clocks.js";
import { optionsForm } from "./options-form.js";
import { recordImportForm } from "./record-import.js";
import { renderRows } from "./tablelist.js";
import { clear, h, setTopbar, titleCase, toast } from "./ui.js";

const REFRESH_MS = 3000;
// Finished games change rarely: the recent games and "Your tables" are asked for less often.
const SLOW_REFRESH_EVERY = 5;

function card(id, title, note, list) {
  return h("section.card.lobby-list", { id, "aria-labelledby": `${id}-title` }, h("div.card-head", {}, h("h2.card-title", { id: `${id}-title` }, title), note ? h("span.muted.small", {}, note) : null), list);
}

export async function mountLobby(root) {
  clear(root);
  setTopbar();
  document.title = "Dragontable — lobby";
  const player = storedPlayer();
  const nameInput = h("input#player-name", {
    type: "text",
    maxlength: 40,
    placeholder: "Your name",
    value: player ? player.name : "",
    autocomplete: "nickname",
  });
  const gameSelect = h("select#game-select", {});
  const optionsBox = h("div#options-box", {});
  const clocks = clockFields();
  const visibility = h(
    "select#visibility",
    {},
    h("option", { value: "public" }, "Public — listed in the lobby"),
    h("option", { value: "unlisted" }, "Unlisted — only people with the link"),
  );
  // Who plays for a person who drops out or lets the clock run out, until they are back.
  const takeover = h(
    "select#takeover",
    {},
    h("option", { value: "steady" }, "A steady bot plays for them until they are back"),
    h("option", { value: "strong" }, "A strong bot plays for them until they are back"),
    h("option", { value: "off" }, "Nobody: the server takes the default answer"),
  );
  const createButton = h("button#create-table.primary", { type: "submit" }, "Create table");
  const createError = h("p.error", { role: "alert" });
  const tableList = h("div#table-list.table-list", {}, h("p.muted", {}, "Looking for tables…"));
  const mineList = h("div#my-tables.table-list", {}, h("p.muted", {}, "Looking for your tables…"));
  const recentList = h("div#recent-games.table-list", {}, h("p.muted", {}, "Looking for recent games…"));
  const mineCard = card("your-tables", "Your tables", "live, waiting and finished, from this browser", mineList);
  mineCard.hidden = !player;

  let games = [];
  let currentForm = null;
  root.append(
    h(
      "div.lobby",
      {},
      h(
        "section.card.lobby-new",
        { "aria-labelledby": "new-title" },
        h("h1#new-title", {}, "Start a table"),
        h(
          "form#create-form",
          {
            onsubmit: async (ev) => {
              ev.preventDefault();
              createError.textContent = "";
              createButton.disabled = true;
              try {
                const options = currentForm ? currentForm.read() : {};
                const me = await ensurePlayer(nameInput.value);
                const table = await api.createTable(me.player_token, {
                  game: gameSelect.value,
                  options,
                  visibility: visibility.value,
                  takeover: takeover.value,
                  ...clocks.read(),
                });
                location.href = `/table/${encodeURIComponent(table.id)}`;
              } catch (err) {
                createError.textContent = err.message;
                createButton.disabled = false;
              }
            },
          },
          h("label.field", {}, h("span", {}, "Your name"), nameInput),
          h("label.field", {}, h("span", {}, "Game"), gameSelect),
          optionsBox,
          clocks.el,
          h("label.field", {}, h("span", {}, "When a player is away"), takeover),
          h("label.field", {}, h("span", {}, "Who can find it"), visibility),
          h("p.muted.small", {}, "Short of players? Add bots to the free seats in the waiting room."),
          h("div.actions", {}, createButton),
          createError,
        ),
      ),
      h(
        "div.lobby-lists",
        {},
        mineCard,
        card("open-tables", "Open and live tables", "refreshes by itself; an open table nobody joins is removed after a few hours", tableList),
        card("recent", "Recent games", "finished public games and their replays", recentList),
        card("watch-record", "Watch a record", "a game record file, or this server's export link", recordImportForm(root)),
      ),
    ),
  );
  nameInput.addEventListener("change", () => {
    if (nameInput.value.trim()) ensurePlayer(nameInput.value).catch((err) => toast(err.message, "error"));
  });

  const showOptions = () => {
    const game = games.find((g) => g.name === gameSelect.value);
    currentForm = game ? optionsForm(game.options_schema, game.default_options) : null;
    clear(optionsBox).append(currentForm ? currentForm.el : "");
  };
  gameSelect.addEventListener("change", showOptions);
  try {
    games = await api.games();
    for (const g of games) gameSelect.append(h("option", { value: g.name }, g.title || titleCase(g.name)));
    showOptions();
  } catch (err) {
    createError.textContent = `Cannot load the games: ${err.message}`;
  }

  const show = async (list, load, opts) => {
    try {
      renderRows(list, await load(), opts);
    } catch (err) {
      clear(list).append(h("p.error", {}, err.message));
    }
  };
  let round = 0;
  const refresh = async () => {
    if (!root.isConnected || document.body.dataset.page !== "lobby") return;
    const slow = round % SLOW_REFRESH_EVERY === 0;
    round += 1;
    const me = storedPlayer();
    const jobs = [show(tableList, () => api.tables(), { empty: "No public table yet. Start one and send the link to your friends." })];
    if (slow) {
      jobs.push(show(recentList, () => api.tables(["finished"]), { empty: "No finished public game yet." }));
      mineCard.hidden = !me;
      if (me) {
        const mine = async () => {
          try {
            return await api.myTables(me.player_token);
          } catch (err) {
            if (err.status === 401) mineCard.hidden = true; // a name this server does not know (a new database)
            throw err;
          }
        };
        jobs.push(show(mineList, mine, { empty: "You have no table yet.", mine: true }));
      }
    }
    await Promise.all(jobs);
  };
  await refresh();
  const timer = setInterval(() => {
    if (document.body.dataset.page !== "lobby") clearInterval(timer);
    else refresh();
  }, REFRESH_MS);
}
