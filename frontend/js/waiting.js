// The waiting room of an open table: the invite link, taking or leaving a seat, and the
// host's Start. It ends with the table as it started (or as someone else started it).
import { api, ensurePlayer, forgetSeat, heldSeats, storedPlayer, tableUrl } from "./api.js";
import { clockText } from "./clocks.js";
import { clear, copyText, h, setTopbar, titleCase, toast } from "./ui.js";

const WAITING_POLL_MS = 1500;

export async function waitingRoom(root, initial, { topbar = [] } = {}) {
  return new Promise((resolve) => {
    let table = initial;
    const nameInput = h("input#player-name", { type: "text", maxlength: 40, placeholder: "Your name", value: storedPlayer()?.name || "" });
    const error = h("p.error", { role: "alert" });
    const seatsBox = h("div.seat-list");
    const startButton = h("button#start-table.primary", { type: "button" }, "Start the game");
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
      h("label.field", {}, h("span", {}, "Your name"), nameInput),
      seatsBox,
      h("div.actions", {}, startButton, h("a.button", { href: `/table/${encodeURIComponent(table.id)}?watch=1` }, "Just watch")),
      hostNote,
      error,
    );
    clear(root).append(card);
    setTopbar(h("span.muted", {}, "Waiting room"), ...topbar);

    const render = () => {
      const mine = heldSeats(table.id);
      clear(seatsBox);
      for (const seat of table.seats) {
        const held = seat.seat in mine;
        seatsBox.append(
          h(
            `div.seat-row${held ? ".held" : ""}`,
            { dataset: { seat: seat.seat } },
            h("strong", {}, seat.label),
            h("span", {}, seat.taken ? seat.player_name : h("span.muted", {}, "free")),
            held
              ? h("span.badge.badge-live", {}, "you")
              : !seat.taken
                ? h("button.take-seat", { type: "button", dataset: { seat: seat.seat }, onclick: () => take(seat.seat) }, "Take this seat")
                : null,
            held ? h("button.ghost.leave-seat", { type: "button", onclick: () => leave(seat.seat) }, "Leave") : null,
          ),
        );
      }
      const me = storedPlayer();
      const full = table.seats.every((s) => s.taken);
      const isHost = me && (table.host === me.name || table.host === me.player_id); // the table names its host
      startButton.hidden = !isHost;
      hostNote.hidden = Boolean(isHost);
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
