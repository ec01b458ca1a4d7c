// The lobby: who you are, what to play and how, and the tables you can join or watch.
import { api, ensurePlayer, heldSeats, storedPlayer, tableUrl } from "./api.js";
import { clear, copyText, h, setTopbar, titleCase, toast } from "./ui.js";

const REFRESH_MS = 3000;

/** A form for one JSON-schema-ish options object; returns {el, read()}. */
export function optionsForm(schema, defaults) {
  // A JSON schema ({type: "object", properties}) or directly a map of option -> property schema.
  const props = (schema && (schema.properties || (schema.type === "object" ? {} : schema))) || {};
  const readers = [];
  const fields = [];
  for (const [key, prop] of Object.entries(props)) {
    const label = prop.title || titleCase(key);
    const initial = defaults && key in defaults ? defaults[key] : prop.default;
    const help = prop.description ? h("small.help", {}, prop.description) : null;
    const itemEnum = prop.items && (prop.items.enum || (prop.items.anyOf || []).map((x) => x.const));
    if (prop.type === "array" && itemEnum && itemEnum.length) {
      const names = (prop.items && prop.items["x-labels"]) || prop["x-labels"] || {};
      const chosen = new Set(Array.isArray(initial) ? initial : []);
      const boxes = itemEnum.map((value) =>
        h(
          "label.chip",
          {},
          h("input", { type: "checkbox", value, checked: chosen.has(value), dataset: { option: key } }),
          h("span", {}, names[value] || titleCase(value)),
        ),
      );
      const limits = [
        prop.minItems !== undefined ? `at least ${prop.minItems}` : "",
        prop.maxItems !== undefined ? `at most ${prop.maxItems}` : "",
      ]
        .filter(Boolean)
        .join(", ");
      fields.push(
        h(
          "fieldset.field",
          { dataset: { option: key } },
          h("legend", {}, label, limits ? h("span.muted", {}, ` (${limits})`) : null),
          h("div.chips", {}, boxes),
          help,
        ),
      );
      readers.push(() => [key, boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value)]);
    } else if (prop.enum || prop.anyOf) {
      const values = prop.enum || prop.anyOf.map((x) => x.const);
      const select = h(
        "select",
        { dataset: { option: key } },
        values.map((v) => h("option", { value: JSON.stringify(v), selected: v === initial }, titleCase(v))),
      );
      fields.push(h("label.field", {}, h("span", {}, label), select, help));
      readers.push(() => [key, JSON.parse(select.value)]);
    } else if (prop.type === "boolean") {
      const box = h("input", { type: "checkbox", checked: Boolean(initial), dataset: { option: key } });
      fields.push(h("label.field.field-inline", {}, box, h("span", {}, label), help));
      readers.push(() => [key, box.checked]);
    } else if (prop.type === "integer" || prop.type === "number") {
      const input = h("input", {
        type: "number",
        value: initial ?? "",
        min: prop.minimum,
        max: prop.maximum,
        step: prop.type === "integer" ? 1 : "any",
        dataset: { option: key },
      });
      fields.push(h("label.field", {}, h("span", {}, label), input, help));
      readers.push(() => [key, input.value === "" ? null : Number(input.value)]);
    } else if (prop.type === "string") {
      const input = h("input", { type: "text", value: initial ?? "", dataset: { option: key } });
      fields.push(h("label.field", {}, h("span", {}, label), input, help));
      readers.push(() => [key, input.value]);
    }
  }
  if (!fields.length) {
    // The game publishes no schema: offer its options as JSON, starting from its defaults.
    const area = h("textarea#options-json.options-json", { rows: 4, spellcheck: "false" }, JSON.stringify(defaults || {}, null, 1));
    return {
      el: h("label.field", {}, h("span", {}, "Options (JSON)"), area),
      read() {
        try {
          return JSON.parse(area.value || "{}");
        } catch {
          throw new Error("The options are not valid JSON.");
        }
      },
    };
  }
  return {
    el: h("div.options", {}, fields),
    read() {
      const out = { ...(defaults || {}) };
      for (const read of readers) {
        const [key, value] = read();
        if (value === null) delete out[key];
        else out[key] = value;
      }
      return out;
    },
  };
}

function seatSummary(table) {
  const taken = table.seats.filter((s) => s.taken).length;
  return `${taken}/${table.seats.length}`;
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
  const visibility = h(
    "select#visibility",
    {},
    h("option", { value: "public" }, "Public — listed in the lobby"),
    h("option", { value: "unlisted" }, "Unlisted — only people with the link"),
  );
  const createButton = h("button#create-table.primary", { type: "submit" }, "Create table");
  const createError = h("p.error", { role: "alert" });
  const tableList = h("div#table-list.table-list", {}, h("p.muted", {}, "Looking for tables…"));

  root.append(
    h(
      "div.lobby",
      {},
      h(
        "section.card.lobby-new",
        {},
        h("h1", {}, "Start a table"),
        h(
          "form#create-form",
          {
            onsubmit: async (ev) => {
              ev.preventDefault();
              createError.textContent = "";
              createButton.disabled = true;
              try {
                const me = await ensurePlayer(nameInput.value);
                const table = await api.createTable(me.player_token, {
                  game: gameSelect.value,
                  options: currentForm ? currentForm.read() : {},
                  visibility: visibility.value,
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
          h("label.field", {}, h("span", {}, "Who can find it"), visibility),
          h("div.actions", {}, createButton),
          createError,
        ),
      ),
      h(
        "section.card.lobby-tables",
        {},
        h("div.card-head", {}, h("h1", {}, "Open and live tables"), h("span.muted.small", {}, "refreshes by itself")),
        tableList,
      ),
    ),
  );
  nameInput.addEventListener("change", () => {
    if (nameInput.value.trim()) ensurePlayer(nameInput.value).catch((err) => toast(err.message, "error"));
  });

  let games = [];
  let currentForm = null;
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

  const renderTables = (tables) => {
    clear(tableList);
    if (!tables.length) {
      tableList.append(h("p.muted", {}, "No public table yet. Start one and send the link to your friends."));
      return;
    }
    for (const t of tables) {
      const mine = Object.keys(heldSeats(t.id)).length > 0;
      const free = t.seats.filter((s) => !s.taken);
      const players = t.seats.filter((s) => s.taken).map((s) => `${s.player_name} (${s.label})`);
      tableList.append(
        h(
          "article.table-row",
          { dataset: { table: t.id, status: t.status } },
          h(
            "div.table-row-main",
            {},
            h("strong", {}, t.title || titleCase(t.game)),
            h(`span.badge.badge-${t.status}`, {}, t.status),
            h("span.muted.small", {}, `seats ${seatSummary(t)}`, t.spectators ? ` · ${t.spectators} watching` : ""),
            h("div.small", {}, players.length ? players.join(", ") : h("span.muted", {}, "nobody seated yet")),
          ),
          h(
            "div.table-row-actions",
            {},
            mine
              ? h("a.button.primary", { href: `/table/${encodeURIComponent(t.id)}` }, "Resume")
              : t.status === "open" && free.length
                ? h("a.button.primary", { href: `/table/${encodeURIComponent(t.id)}` }, "Join")
                : null,
            h("a.button", { href: `/table/${encodeURIComponent(t.id)}?watch=1` }, "Watch"),
            h(
              "button.ghost",
              {
                type: "button",
                title: "Copy the invite link",
                onclick: async () => toast((await copyText(tableUrl(t.id))) ? "Invite link copied." : tableUrl(t.id)),
              },
              "Copy link",
            ),
          ),
        ),
      );
    }
  };
  const refresh = async () => {
    if (!root.isConnected || document.body.dataset.page !== "lobby") return;
    try {
      renderTables(await api.tables());
    } catch (err) {
      clear(tableList).append(h("p.error", {}, err.message));
    }
  };
  await refresh();
  const timer = setInterval(() => {
    if (document.body.dataset.page !== "lobby") clearInterval(timer);
    else refresh();
  }, REFRESH_MS);
}
