// The lobby: tables (live), a new table, solitaire games with the day's deals, finished matches to replay,
// the standings across them.
import { Kept, fill, h, keepFocus, select } from "./dom.js";
import { gamePicker } from "./solitaire_picker.js";
import { POLICIES, SEATS, SEAT_NAMES, VARIANTS, countText, numberText, playerText, policyText, variantsText, whenText } from "./words.js";

const REFRESH_MS = 3000;

/** The lobby screen (polls list-rooms every few seconds while shown). */
export function lobbyScreen(app) {
  const { session, root } = app;
  const tables = h("div", { class: "rooms", "aria-live": "polite" });
  const watchable = h("div", { class: "rooms" });
  const daily = h("div", { class: "daily" });
  const matches = h("div", { class: "matches" });
  const standings = h("div", { class: "standings" });
  const picker = gamePicker(app);
  // Each table's and game's card and button are the same nodes from one refresh to the next: a click
  // whose press comes before a refresh and its release after still opens the table.
  const kept = new Kept();
  const replays = new Kept(); // the finished matches' Replay buttons, asked for apart from the tables
  fill(root,
    h("section", { class: "panel", "aria-labelledby": "tables-title" }, h("h2", { id: "tables-title" }, "Tables"), tables),
    h("section", { class: "panel", "aria-labelledby": "new-title" }, h("h2", { id: "new-title" }, "New table"), newTableForm(app)),
    h("section", { class: "panel", "aria-labelledby": "sol-title" }, h("h2", { id: "sol-title" }, "Solitaire"), picker.element, daily, watchable),
    h("section", { class: "panel", "aria-labelledby": "matches-title" }, h("h2", { id: "matches-title" }, "Finished matches"), matches),
    h("section", { class: "panel", "aria-labelledby": "standings-title" }, h("h2", { id: "standings-title" }, "Standings"), standings),
  );

  let playing = new Set(); // the tables whose match was under way at the last refresh
  let over = null; // the tables listed over at the last refresh (null before the first)
  async function refresh() {
    const reply = await session.request("list-rooms");
    const barbu = reply.rooms.filter((room) => room.kind === "barbu");
    // A match over since (or its table gone: a match that ended with nobody at it) is a finished match now;
    // so is a table listed over that was not (a match may start and end between two refreshes).
    const now = new Set(barbu.filter((room) => room.state === "playing").map((room) => room.room));
    const overNow = new Set(barbu.filter((room) => room.state === "over").map((room) => room.room));
    if ([...playing].some((room) => !now.has(room)) || (over && [...overNow].some((room) => !over.has(room)))) refreshFinished();
    playing = now;
    over = overNow;
    const others = reply.rooms.filter((room) => room.kind === "solitaire" && !room.result); // being played
    keepFocus(root, () => { // a refresh leaves the keyboard user on the control they were on
      fill(tables, barbu.length ? barbu.map((room) => tableCard(app, kept, room)) : h("p", {}, "No table yet: start one below."));
      fill(watchable, others.length ? h("h3", {}, "Games being played") : null, others.map((room) => solitaireCard(app, kept, room)));
      fill(daily, dailyTables(reply.daily));
    });
    kept.sweep(); // a table or game gone from the list is let go
  }

  async function refreshMatches() {
    const reply = await session.request("list-matches");
    // Each match: its replay button and when it finished on one line, then the players by seat with their
    // totals, a list that wraps between players, never inside one.
    // Kept as the tables are (a list asked again, on a reconnect, leaves a Replay under the pointer in place).
    fill(matches, reply.matches.length
      ? replays.el("matches-list", "ul", { class: "plain" }, reply.matches.map((match) => replays.el(`match-${match.match}`, "li", { class: "match" },
        replays.el(`match-buttons-${match.match}`, "div", { class: "buttons" },
          replays.button(`replay-${match.match}`, `Replay “${match.name}”`, () => app.go("replay", match.match)),
          h("span", { class: "muted" }, `finished ${whenText(match.finished)}`)),
        h("ul", { class: "seat-totals", "aria-label": "totals" }, SEATS.map((seat) => h("li", {},
          seatLetter(seat), " ", playerText(match.players[seat]), " ", numberText(match.totals[seat])))))))
      : h("p", {}, "No match has finished on this server yet."));
    replays.sweep();
  }

  async function refreshStandings() {
    const reply = await session.request("standings");
    fill(standings, standingsTable(reply.players));
  }

  const refreshFinished = () => { refreshMatches().catch(() => {}); refreshStandings().catch(() => {}); };

  const tick = () => refresh().catch(() => {});
  tick();
  refreshFinished();
  const timer = setInterval(tick, REFRESH_MS);
  return {
    title: "Barbu — lobby",
    onPush() {},
    onReconnect() { tick(); refreshFinished(); },
    unmount() { clearInterval(timer); },
  };
}

function stateText(room) {
  if (room.state === "waiting") return "waiting for players";
  if (room.state === "over") return "match over";
  if (room.paused) return `paused at hand ${room.hand_number} of 28: nobody at the table`;
  return `playing hand ${room.hand_number} of 28`;
}

/** A seat's letter ("N"), read as its name ("North:") by a screen reader. */
function seatLetter(seat) {
  return [h("b", { "aria-hidden": "true" }, seat), h("span", { class: "sr-only" }, `${SEAT_NAMES[seat]}:`)];
}

/** A Barbu table's card in the lobby: its seats, state and rules, and the button to open it (kept in `kept`). */
function tableCard(app, kept, room) {
  const mine = Object.values(room.players).includes(app.session.name);
  const seats = SEATS.map((seat) => h("li", {},
    seatLetter(seat), " ", playerText(room.players[seat]),
    room.away.includes(seat) ? h("span", { class: "mark" }, " (away)") : null));
  const over = room.state === "over";
  return kept.el(`room-${room.room}`, "article", { class: `room${over ? " over" : ""}`, "data-room": room.room },
    h("h3", {}, room.name, over ? h("span", { class: "muted" }, " — finished") : null),
    h("p", { class: "muted" }, stateText(room), " · ", `${room.spectators} watching`,
      room.turn_time ? ` · ${room.turn_time} s a turn` : "", " · ", variantsText(room.variants)),
    h("ul", { class: "seats-list" }, seats),
    // Gone to the lobby on their turn (not "Leave", which hands the seat to a bot at once: the seat is then
    // away, and nobody waits for them): the table waits for them.
    mine && room.state === "playing" && room.to_move && room.players[room.to_move] === app.session.name && !room.away.includes(room.to_move)
      ? h("p", { class: "your-turn-note" }, "Your turn: the table is waiting for you.") : null,
    over && room.rematch
      ? kept.button(`rematch-${room.room}`, "Another match started: join it", () => app.go("table", room.rematch), { class: "primary" })
      : kept.button(`table-${room.room}`, mine && !over ? "Back to my seat" : over ? "See the final ranking" : room.state === "waiting" ? "Open (sit or watch)" : "Watch",
        () => app.go("table", room.room), { class: mine && !over ? "primary" : "" }),
  );
}

/** A solitaire game being played, in the lobby: its moves and watchers, and the button to watch it (kept). */
function solitaireCard(app, kept, room) {
  const mine = room.players.player === app.session.name;
  // The day's deal being played: the server shows it to nobody else until it is finished (daily-private).
  const hidden = !mine && room.watchable === false;
  return kept.el(`game-card-${room.room}`, "article", { class: "room" },
    h("h3", {}, room.name),
    h("p", { class: "muted" }, room.result ? `finished: ${room.result}` : countText(room.moves, "move"), " · ", `${room.spectators} watching`),
    hidden
      ? kept.button(`game-${room.room}`, "Watch once finished", () => {}, { disabled: true, title: "the day's deal cannot be watched until it is finished" })
      : kept.button(`game-${room.room}`, mine ? "Back to my game" : "Watch", () => app.go("solitaire", room.room)),
  );
}

let dailyOpen = false; // the results panel stays as the user left it when the lobby refreshes

/** The standings reply's players (best rating first) as a table: docs/protocol.md, "standings". */
function standingsTable(players) {
  if (!players.length) return h("p", {}, "No match has finished on this server yet: the standings start with the first.");
  const decimal = (n, digits) => (n < 0 ? `−${(-n).toFixed(digits)}` : n.toFixed(digits));
  return [
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, ["Player", "Played", "Firsts", "Avg place", "Rating"].map((title) => h("th", { scope: "col" }, title)))),
      h("tbody", {}, players.map((row) => h("tr", {},
        h("th", { scope: "row" }, h("bdi", {}, row.name)), h("td", {}, row.matches), h("td", {}, row.firsts),
        h("td", {}, decimal(row.average_place, 2)), h("td", {}, decimal(row.rating, 1)))))),
    h("p", { class: "muted" }, "Finished Barbu matches; bots take their places but are not listed. Equal totals share a place. "
      + "Rating: openskill, mu − 3 sigma (0 before a first match)."),
  ];
}

function dailyTables(days) {
  if (!days || !days.length) return null;
  return h("details", { class: "daily-results", open: dailyOpen, on: { toggle: (event) => { dailyOpen = event.target.open; } } },
    h("summary", { "data-focus": "daily-results" }, "The day's deals: results"),
    days.map((day) => h("div", {},
      h("h4", {}, `${day.title}, ${day.day}`),
      day.results.length
        ? h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Result"), h("th", {}, "Cards home"), h("th", {}, "Moves"))),
          h("tbody", {}, day.results.map((row) => h("tr", {},
            h("td", {}, row.player), h("td", {}, row.won ? "won" : "not won"), h("td", {}, numberText(row.score)), h("td", {}, row.moves)))))
        : h("p", { class: "muted" }, "Nobody has finished it yet today."))));
}

/** What the turn timer does when it runs out (docs/protocol.md, "Seats, stand-ins and timers"). */
const TIMER_HINT = "When it runs out, a legal move is played for you; on a doubling turn, no double.";

/** What "no limit" means on a server that hands an idle turn's seat to a bot after `idle` seconds (welcome.idle_turn). */
function noLimitHint(idle) {
  if (!idle) return "No clock: the table waits for each player as long as it takes.";
  const wait = idle % 60 ? `${idle} seconds` : idle === 60 ? "1 minute" : `${idle / 60} minutes`;
  return `No clock; but a turn left unplayed ${wait} hands the seat to a bot, until its player takes it back.`;
}

/**
 * The server's `name-taken` refusal of a new table ("an open table is named 'X', too like this") in words
 * that say what to do; `typed`: the name asked for. "Friday" and "friday" are taken for one another.
 */
function takenText(typed, message) {
  const open = /named (['"])(.*)\1/.exec(message);
  const other = open ? open[2] : typed;
  return other === typed
    ? `An open table is already named “${other}”: pick another name for yours.`
    : `An open table is named “${other}”, too like “${typed}” to tell apart: pick another name for yours.`;
}

function newTableForm(app) {
  const { session } = app;
  // The field stops at 40 characters (the server's limit for a table's name): said under it, not a silent stop.
  const name = h("input", { id: "table-name", required: true, maxlength: 40, value: `${session.name}'s table`, "aria-describedby": "table-name-hint" });
  const variants = {};
  const timer = { value: "" };
  // The server's own default (welcome.bot_policy: barbu serve --bot-policy) comes first chosen.
  const told = session.defaultPolicy;
  const policies = !told || POLICIES.some(([spec]) => spec === told) ? POLICIES : [...POLICIES, [told, policyText(told), "the server's default"]];
  const policy = { value: told || POLICIES[0][0] };
  const bots = { count: 0 }; // bots sat at the other seats once the host is seated: 0 to 3
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "new-table" },
    h("label", { class: "field" }, h("span", {}, "Table name"), name, h("small", { class: "choice-hint", id: "table-name-hint" }, "Up to 40 characters.")),
    VARIANTS.map(([key, label, choices]) =>
      select(label, choices, choices[0][0], (value) => { if (value === choices[0][0]) delete variants[key]; else variants[key] = value; }, { name: key })),
    select("Turn timer", [["", "no limit", noLimitHint(session.idleTurn)], ...[[15, "15 seconds"], [30, "30 seconds"], [60, "1 minute"], [120, "2 minutes"]].map(([v, t]) => [v, t, TIMER_HINT])], "",
      (value) => { timer.value = value; }, { name: "turn_time" }),
    select("Bots play", policies, policy.value, (value) => { policy.value = value; }, { name: "bot_policy" }),
    select("Bots at the table", [[0, "none", "friends fill the seats"], [1, "1 bot", "on your left; friends take the other two seats"],
      [2, "2 bots", "on your left and across; a friend takes the seat on your right"], [3, "3 bots", "play at once"]], 0,
      (value) => { bots.count = Number(value); }, { name: "bots" }),
    h("button", { type: "submit", class: "primary" }, "Create and sit down"),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!name.value.trim()) { // in the page's words, not the server's "name is shorter than 1"
      error.textContent = "Type a name for the table.";
      name.focus();
      return;
    }
    try {
      const created = await session.request("create-table", {
        name: name.value.trim(), variants, turn_time: timer.value ? Number(timer.value) : null, bot_policy: policy.value,
      });
      const snapshot = await session.request("sit", { room: created.room });
      // The first free seats after the host's, clockwise: with one or two bots, friends take the rest.
      const others = [1, 2, 3].map((i) => SEATS[(SEATS.indexOf(snapshot.seat) + i) % 4]);
      for (const seat of others.slice(0, bots.count)) await session.request("add-bot", { room: created.room, seat });
      app.go("table", created.room);
    } catch (failure) {
      // The name's own characters refused: said as the login form says it of a player's name.
      const named = failure.code === "bad-message" && failure.field === "name";
      const taken = failure.code === "name-taken";
      error.textContent = named
        ? "A table's name is made of letters you can see: invisible and direction characters (like U+202E), and a mark with no letter before it, are not allowed."
        : taken ? takenText(name.value.trim(), failure.message)
        : failure.message;
      // Said under the button, and the field to mend ready: not a refusal out of view below the fold.
      if (named || taken) name.focus();
      error.scrollIntoView({ block: "nearest" });
    }
  });
  return form;
}
