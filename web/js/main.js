// The browser client's entry point: the session, the header, and the screens chosen by the address's
// hash: #lobby, #table=ID (also the invite link), #solitaire=ID, #replay=ID.
import { button, fill, h } from "./dom.js";
import { showLogin } from "./login.js";
import { lobbyScreen } from "./lobby.js";
import { replayScreen } from "./replay.js";
import { PRESS_PLAY_HERE, Session, TAKEN } from "./session.js";
import { solitaireScreen } from "./solitaire.js";
import { tableScreen } from "./table.js";
import { forgetWaitingSeat, freedText, waitingSeat, waitingSeatRooms } from "./waiting_seat.js";
import { SEAT_NAMES } from "./words.js";

/** localStorage key (then `.NAME`): the table or solitaire room the player's last screen here showed. */
const LAST_ROOM = "barbu.last-room";
const SCREENS = { lobby: lobbyScreen, table: tableScreen, solitaire: solitaireScreen, replay: replayScreen };

const session = new Session();
const root = document.getElementById("app");
const app = { session, root, screen: null, shown: null, go }; // shown: the hash of the screen shown

/** The address's hash of screen `name` with its room or match `id`: "#table=12", "#lobby". */
function hashOf(name, id) {
  return id === undefined ? `#${name}` : `#${name}=${encodeURIComponent(id)}`;
}

/**
 * Show screen `name` (with its room or match `id`) by changing the address's hash: a new history entry, or
 * with `replace` the current one (coming back to a seat by itself: Back does not land on the bare address).
 */
function go(name, id, { replace = false } = {}) {
  const hash = hashOf(name, id);
  if (location.hash === hash) route();
  else if (replace) {
    history.replaceState(history.state, "", hash);
    route();
  } else location.hash = hash;
}

function parseHash() {
  const [name, id] = location.hash.replace(/^#/, "").split("=");
  if (!SCREENS[name]) return { name: "lobby" };
  try {
    return { name, id: id === undefined ? undefined : decodeURIComponent(id) };
  } catch { // a damaged link ("#table=%", a URIError) names nothing: the lobby, like an unknown hash
    return { name: "lobby" };
  }
}

function route() {
  if (app.screen) app.screen.unmount();
  app.screen = null;
  if (!session.name) {
    showLogin(root, session, async () => {
      showWho();
      // Logged in again with a kept token: straight back to the seat.
      if (!(await backToSeat().catch(() => false))) route();
    });
    return;
  }
  const { name, id } = parseHash();
  // The address names the screen shown (a reload or a copied address comes back to it): "" or an unknown
  // hash shows the lobby, and says so. An invite link's `?at=NAME` was for the login page: once logged in,
  // it goes, so that no other screen's address carries an old table's name.
  const address = `${location.pathname}${searchWithoutInvite()}${hashOf(name, id)}`;
  if (`${location.pathname}${location.search}${location.hash}` !== address) history.replaceState(history.state, "", address);
  // A freed seat's news above the screen goes once its table is shown: the table says it itself.
  for (const box of document.querySelectorAll("#news [data-freed]")) if (name === "table" && box.dataset.freed === id) box.remove();
  // Another screen starts at the top of the page, not where the last one was scrolled to (a table created from
  // the foot of the lobby opened with its header above the window).
  const shown = hashOf(name, id);
  if (app.shown !== shown) window.scrollTo(0, 0);
  app.shown = shown;
  if ((name === "table" || name === "solitaire") && id) localStorage.setItem(`${LAST_ROOM}.${session.name}`, id);
  app.screen = SCREENS[name](app, id);
  document.title = app.screen.title || "Barbu";
  root.focus({ preventScroll: true });
}

/** The address's query without the invite's table name (`at`, login.js): "" when nothing else is left. */
function searchWithoutInvite() {
  const query = new URLSearchParams(location.search);
  query.delete("at");
  const rest = query.toString();
  return rest ? `?${rest}` : "";
}

function showWho() {
  const who = document.getElementById("who");
  if (!session.name) return fill(who);
  fill(who, session.name, " ", button("Log out", logOut, { class: "link" }));
}

/** Log out; holding a seat in an unfinished match, only once the player confirms, keeping the seat's token. */
async function logOut() {
  let seated = null;
  try {
    const { rooms } = await session.request("list-rooms");
    seated = rooms.find((room) => room.kind === "barbu" && room.state !== "over" && Object.values(room.players).includes(session.name));
  } catch { /* the connection is down: log out all the same */ }
  const kept = seated && seated.state === "waiting"
    ? `It is kept for ${Math.round(seated.grace)} s, then freed: log in again as ${session.name} on this browser within that time to keep it.`
    : `A bot plays it until you come back (and if no other player is left at the table, the match waits for one): log in again as ${session.name} on this browser to take it back.`;
  if (seated && !confirm(`You hold a seat at “${seated.name}”. ${kept} Log out?`)) return;
  session.logout(Boolean(seated));
  // The bare address: `location.hash = ""` left a "#" (and the screen logged out of) behind.
  history.replaceState(null, "", location.pathname);
  location.reload();
}

/**
 * After a resume with no screen asked for: back to the seat held (table or solitaire); with none held, to the
 * last waiting table where this browser's player held a seat (freed while they were away), which says so.
 * Every other such seat freed meanwhile is said above that screen (`tellFreedSeats`). True when it showed a
 * screen.
 */
async function backToSeat() {
  if (location.hash.length > 1) return false;
  const held = waitingSeatRooms(session.name);
  if (!session.rooms.length && !held.length) return false;
  const { rooms } = await session.request("list-rooms");
  // The room this browser showed last, of those the player holds a seat at (two tables in play: the one
  // left last, not the server's first); else the newest.
  const last = localStorage.getItem(`${LAST_ROOM}.${session.name}`);
  const mine = rooms.find((room) => room.room === (session.rooms.includes(last) ? last : session.rooms[session.rooms.length - 1]));
  if (mine) go(mine.kind === "barbu" ? "table" : "solitaire", mine.room, { replace: true });
  else if (held.length) go("table", held[held.length - 1], { replace: true });
  tellFreedSeats(rooms, mine ? mine.room : held[held.length - 1]);
  return Boolean(mine || held.length);
}

/**
 * Coming back (`rooms`: the lobby's list), every seat this browser's player held at a table waiting for
 * players and freed meanwhile, but at table `shown` (which says it itself), is said above the screen, with
 * a button to that table (which offers to sit again) and one to dismiss it.
 */
function tellFreedSeats(rooms, shown) {
  const news = document.getElementById("news");
  const freed = waitingSeatRooms(session.name).filter((id) => id !== shown).map((id) => rooms.find((room) => room.room === id))
    .filter((room) => room && room.kind === "barbu" && room.state !== "over" && !Object.values(room.players).includes(session.name));
  fill(news, freed.map((room) => {
    const held = waitingSeat(session.name, room.room);
    const box = h("div", { class: "offer", role: "alert", "data-freed": room.room },
      h("p", {}, freedText(held, SEAT_NAMES[held.seat] || held.seat),
        room.state === "waiting" ? " The table still waits for players." : " The match has started without you."),
      button(room.state === "waiting" ? `Go to “${room.name}” and sit again` : `Go to “${room.name}”`, () => {
        box.remove();
        go("table", room.room);
      }, { class: "primary", "data-focus": `freed-${room.room}` }),
      " ", button("Dismiss", () => { forgetWaitingSeat(session.name, room.room); box.remove(); }, { "data-focus": `dismiss-${room.room}` }));
    return box;
  }));
}

session.addEventListener("push", (event) => app.screen && app.screen.onPush(event.detail));
session.addEventListener("resumed", () => {
  document.getElementById("taken")?.remove(); // taken back (by "Play here", or the other tab gone)
  setInUse(true);
  if (app.screen && app.screen.onReconnect) app.screen.onReconnect();
});
session.addEventListener("status", (event) => {
  document.getElementById("status").textContent = event.detail;
  // The connection lost, the screen is dimmed until it is back: a clock counting down and cards that look
  // playable said the table was live.
  document.body.classList.toggle("offline", session.offline);
});
// Another tab took this session: a banner fixed at the top of the window says so wherever the page is
// scrolled (the header's status line is out of view beside a phone's hand or a desktop's prompt), and its
// "Play here" button resumes here, taking the game back. Nothing else on the page can be sent meanwhile, so
// the rest of the page is greyed and out of use (inert), not a dialog whose buttons silently do nothing; a
// click on it says what to press.
session.addEventListener("taken", () => {
  document.getElementById("taken")?.remove(); // one banner, however often it is taken
  const here = button("Play here", () => { banner.remove(); session.takeBack(); }, { class: "primary", id: "play-here" });
  const hint = h("div", { class: "taken-hint", role: "status" });
  const banner = h("div", { id: "taken", class: "taken", role: "alert" }, h("p", {}, TAKEN), here, hint);
  document.body.append(banner);
  setInUse(false);
  here.focus({ preventScroll: true });
});
// A click on the page taken over lands here (its inert parts take no clicks): the banner says what to do.
document.addEventListener("click", (event) => {
  const banner = document.getElementById("taken");
  if (!session.taken || !banner || banner.contains(event.target)) return;
  banner.querySelector(".taken-hint").textContent = PRESS_PLAY_HERE;
  document.getElementById("play-here").focus({ preventScroll: true });
});

/** The page's header, news and screen in use (`inUse`), or greyed and inert while another tab has the game. */
function setInUse(inUse) {
  for (const part of [document.querySelector("header.bar"), document.getElementById("news"), root]) part.inert = !inUse;
  document.body.classList.toggle("taken-away", !inUse);
}
window.addEventListener("hashchange", route);

(async () => {
  try {
    await session.start();
  } catch (error) {
    fill(root, `Cannot reach the server: ${error.message}`);
    return;
  }
  showWho();
  if (!(await backToSeat().catch(() => false))) route();
})();
