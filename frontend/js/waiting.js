// The waiting room of an open table: the invite link, taking or leaving a seat, the host's bots
// (a level picker on every free seat, or every free seat at once) and Start. It ends with the
// table as it started (or as someone else started it).
import { api, ensurePlayer, forgetSeat, heldSeats, storedPlayer, tableUrl } from "./api.js";
import { clockText } from "./clocks.js";
import { clear, copyText, h, setTopbar, titleCase, toast } from "./ui.js";
import { playerName } from "./words.js";

const WAITING_POLL_MS = 1500;
export const BOT_LEVELS = [
  ["steady", "Steady bot — quick, sensible"],
  ["strong", "Strong bot — thinks about a second a move"],
  ["random", "Random bot — any legal move"],
];

/** What happens to a seat whose person drops out (the table's takeover option). */
function takeoverText(table) {
  if (table.takeover === "off") return "A player who is away is answered for by the default moves.";
  return `A player who is away is played for by a ${table.takeover || "steady"} bot until they are back.`;
}

function levelPicker(id) {
  return h(`select.bot-level`, { id, "aria-label": "Bot level" }, ...BOT_LEVELS.map(([value, text]) => h("option", { value }, text)));
}

export async function waitingRoom(root, initial, { topbar = [] } = {}) {
  return new Promise((resolve) => {
    let table = initial;
    const nameInput = h("input#player-name", { type: "text", maxlength: 40, placeholder: "Your name", value: storedPlayer()?.name || "" });
    const error = h("p.error", { role: "alert" });
    const seatsBox = h("div.seat-list");
    const startButton = h("button#start-table.primary", { type: "button" }, "Start the game");
    const fillLevel = levelPicker("fill-level");
    const fillButton = h("button#fill-bots", { type: "button" }, "Fill free seats with bots");
    const botsBox = h("div.bots-fill", {}, fillLevel, fillButton);
    const hostNote = h("p.muted.small", {}, `${table.host || "The host"} starts the game once every seat is taken; this page follows by itself.`);
    const invite = tableUrl(table.id);
    const card = h(
      "section.card.waiting",
      {},
      h("h1", {}, table.title || titleCase(table.game), " ", h("span.badge.badge-open", {}, "waiting for players")),
      h("p.muted", {}, "Send this link to the people you want to play with. Anyone with it can take a free seat or watch."),
      h(
        "div.invite",
        {},
        h("input#invite-link", { type: "text", readonly: true, "aria-label": "Invite link", value: invite, onfocus: (e) => e.target.select() }),
        h("button#copy-invite", { type: "button", onclick: async () => toast((await copyText(invite)) ? "Invite link copied." : "Copy the link by hand.") }, "Copy invite link"),
      ),
      h("p.small.muted#table-clocks", {}, clockText(table)),
      h("p.small.muted#table-takeover", {}, takeoverText(table)),
      h("label.field", {}, h("span", {}, "Your name"), nameInput),
      seatsBox,
      botsBox,
      h("div.actions", {}, startButton, h("a.button", { href: `/table/${encodeURIComponent(table.id)}?watch=1` }, "Just watch")),
      hostNote,
      error,
    );
    clear(root).append(card);
    setTopbar(h("span.muted", {}, "Waiting room"), ...topbar);

    const isHost = () => {
      const me = storedPlayer();
      return Boolean(me && (table.host === me.name || table.host === me.player_id)); // the table names its host
    };
    const seatControls = (seat, held, host) => {
      if (held) return [h("span.badge.badge-live", {}, "you"), h("button.ghost.leave-seat", { type: "button", onclick: () => leave(seat.seat) }, "Leave")];
      if (seat.bot) {
        const badge = h("span.badge.badge-bot", { title: `A ${seat.bot} bot plays this seat` }, `${seat.bot} bot`);
        return [badge, host ? h("button.ghost.remove-bot", { type: "button", onclick: () => removeBot(seat.seat) }, "Remove bot") : null];
      }
      if (seat.taken) return [null, null];
      const takeButton = h("button.take-seat", { type: "button", dataset: { seat: seat.seat }, onclick: () => take(seat.seat) }, "Take this seat");
      if (!host) return [takeButton, null];
      const picker = levelPicker(`bot-level-${seat.seat}`);
      const add = h("button.add-bot", { type: "button", dataset: { seat: seat.seat }, onclick: () => addBots([seat.seat], picker.value) }, "Add a bot");
      return [takeButton, h("span.add-bot-box", {}, picker, add)];
    };
    const render = () => {
      const mine = heldSeats(table.id);
      const host = isHost();
      clear(seatsBox);
      for (const seat of table.seats) {
        const held = seat.seat in mine;
        seatsBox.append(
          h(
            `div.seat-row${held ? ".held" : ""}${seat.bot ? ".bot" : ""}`,
            { dataset: { seat: seat.seat } },
            h("strong", {}, seat.label),
            h("span", {}, seat.taken ? playerName(seat) : h("span.muted", {}, "free")),
            ...seatControls(seat, held, host),
          ),
        );
      }
      const full = table.seats.every((s) => s.taken);
      botsBox.hidden = !host || full;
      startButton.hidden = !host;
      hostNote.hidden = host;
      startButton.disabled = !full;
      startButton.title = full ? "" : "Every seat must be taken first.";
    };
    const take = async (seat) => {
      error.textContent = "";
      try {
        const me = await ensurePlayer(nameInput.value);
        const answer = await api.join(me.player_token, table.id, seat);
        table = answer.table;
        render();
      } catch (err) {
        error.textContent = err.message;
      }
    };
    const leave = async (seat) => {
      try {
        const me = storedPlayer();
        table = await api.leave(me.player_token, table.id, seat);
      } catch (err) {
        error.textContent = err.message;
        forgetSeat(table.id, seat);
      }
      render();
    };
    const addBots = async (seats, level) => {
      error.textContent = "";
      try {
        const me = await ensurePlayer(nameInput.value);
        for (const seat of seats) table = await api.addBot(me.player_token, table.id, seat, level);
      } catch (err) {
        error.textContent = err.message;
      }
      render();
    };
    const removeBot = async (seat) => {
      error.textContent = "";
      try {
        table = await api.removeBot(storedPlayer().player_token, table.id, seat);
      } catch (err) {
        error.textContent = err.message;
      }
      render();
    };
    fillButton.addEventListener("click", () => {
      const mine = heldSeats(table.id);
      addBots(table.seats.filter((s) => !s.taken && !(s.seat in mine)).map((s) => s.seat), fillLevel.value);
    });
    startButton.addEventListener("click", async () => {
      error.textContent = "";
      try {
        table = await api.start(storedPlayer().player_token, table.id);
        finish();
      } catch (err) {
        error.textContent = err.message;
      }
    });
    let timer = null;
    const finish = () => {
      clearInterval(timer);
      resolve(table);
    };
    timer = setInterval(async () => {
      try {
        table = await api.table(table.id);
      } catch {
        return;
      }
      if (table.status !== "open") finish();
      else render();
    }, WAITING_POLL_MS);
    render();
  });
}
