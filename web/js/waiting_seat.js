// The seat this browser's player held at a table waiting for players, kept in localStorage: a seat dropped
// there is held for the table's grace, then freed (docs/protocol.md, "A dropped seat before the start").
// Coming back after that, by a reload, a resume or another visit, the page says plainly what happened
// rather than showing the table as if the player had never sat there.

const KEY = "barbu.waiting-seats"; // "server|player|room" -> { seat, name, grace }

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function save(seats) {
  try {
    const kept = Object.entries(seats).slice(-10); // a few tables are enough
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch { /* storage full or off: the page says less on coming back */ }
}

function key(player, room) {
  return `${location.host}|${player}|${room}`;
}

/** `player` sits at `seat` of waiting table `room` (its `name`, its `grace` in seconds, null when unknown). */
export function keepWaitingSeat(player, room, seat, name, grace) {
  const seats = all();
  delete seats[key(player, room)]; // the newest last
  seats[key(player, room)] = { seat, name, grace };
  save(seats);
}

/** Forget `player`'s seat at `room` (they left it, the match started, or they were told it was freed). */
export function forgetWaitingSeat(player, room) {
  const seats = all();
  if (!(key(player, room) in seats)) return;
  delete seats[key(player, room)];
  save(seats);
}

/** The seat `player` held at waiting table `room` ({ seat, name, grace }), or null. */
export function waitingSeat(player, room) {
  return all()[key(player, room)] || null;
}

/** Every room of a waiting table where `player` held a seat on this server, oldest first. */
export function waitingSeatRooms(player) {
  const prefix = `${location.host}|${player}|`;
  return Object.keys(all()).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
}

/** "Your seat at table “friday” (North) was freed after 60 s away.": what happened to a seat held at a
 *  waiting table while its player was away longer than its grace. */
export function freedText(held, seatName) {
  const away = held.grace ? `after ${Math.round(held.grace)} s away` : "while you were away";
  return `Your seat at table “${held.name}” (${seatName}) was freed ${away}.`;
}
