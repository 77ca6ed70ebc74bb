// What a stand-in bot (or the turn timer) played for the player's seat while they were away: the hand this
// browser last showed at a seat is kept in localStorage, and on coming back the page says which of its cards
// are gone ("While you were away a bot played 8♦ for you."), rather than a hand of 12 where 13 were, and
// whom the stand-in doubled or redoubled for it (the turn timer doubles nobody), or that it doubled nobody.
import { SEATS, SEAT_NAMES, cardText, contractText, listText } from "./words.js";

const AWAY = "While you were away "; // how what was done for the seat is told, once
const KEY = "barbu.held-cards"; // "server|player|room" -> { hand, cards }: the hand this page last showed

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function key(player, room) {
  return `${location.host}|${player}|${room}`;
}

/**
 * The hand this browser last showed `player` at `room`: { hand: its number, cards: ["8D", …], doubles and
 * redoubles: the seats it had doubled and redoubled in that hand (["E"]; absent in what older pages kept),
 * chosen: whether its contract was chosen (absent in what older pages kept), at: when (ms since the epoch),
 * left: true once the player left the seat, ended: true once the page saw that hand scored }, or null.
 */
export function heldCards(player, room) {
  return all()[key(player, room)] || null;
}

/** Keep `held` ({ hand, cards }; null forgets) as the hand this browser last showed `player` at `room`. */
export function keepHeldCards(player, room, held) {
  try {
    const kept = all();
    delete kept[key(player, room)]; // the newest last
    if (held) kept[key(player, room)] = held;
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(Object.entries(kept).slice(-10))));
  } catch { /* storage full or off: the page says less on coming back */ }
}

/**
 * What the page keeps of `seat`'s hand in `view` (`heldCards`' shape, `at` now): its cards, the seats it
 * has doubled and redoubled, and whether its turn to double has come and gone (`doubled`).
 */
export function heldOf(view, seat) {
  const by = (pairs) => (pairs || []).filter(([a]) => a === seat).map(([, b]) => b);
  return { hand: view.hand_number, cards: [...view.hand], doubles: by(view.doubles), redoubles: by(view.redoubles), doubled: doubleTurnDone(view, seat), chosen: Boolean(view.contract), at: Date.now() };
}

/**
 * Whether `seat` has had its turn to double in `view`'s hand: the players double in turn from the
 * declarer's left, the declarer never (docs/rules/barbu.md, Doubling), so in the doubling phase the seats
 * between the declarer and the seat to move have, and every one has once it is over.
 */
function doubleTurnDone(view, seat) {
  if (seat === view.declarer || view.phase === "contract") return false;
  if (view.phase !== "double") return true;
  const after = (s) => (SEATS.indexOf(s) - SEATS.indexOf(view.declarer) + 4) % 4; // 1 on the declarer's left
  return after(seat) < after(view.to_move);
}

/**
 * The doubles and redoubles a stand-in made for `seat` in `view`'s hand since `before` (the whole hand when
 * `before` was an earlier one): "While you were away a stand-in bot doubled East and West for you." (the
 * turn timer doubles nobody, so only a stand-in can have); a turn to double that came and went meanwhile
 * with nobody doubled is told too, "… a stand-in bot doubled nobody for you." (or the turn timer, as
 * `whoPlayed` tells; `table` the room summary); or null.
 */
function awayDoublesText(before, view, seat, table) {
  const now = heldOf(view, seat);
  const same = before.hand === view.hand_number;
  // A hand kept by an older page has no doubles: nothing can be told of them.
  const fresh = (kind) => (same && !before[kind] ? [] : now[kind].filter((b) => !(same && before[kind].includes(b))).map((b) => SEAT_NAMES[b]));
  const deeds = [];
  const doubled = fresh("doubles");
  const redoubled = fresh("redoubles");
  // Nobody doubled on a turn the page did not see (kept before it, or in an earlier hand; one kept by an
  // older page does not say whether it saw the turn).
  const declined = now.doubled && !now.doubles.length && (!same || before.doubled === false);
  if (doubled.length) deeds.push(`doubled ${listText(doubled)}`);
  else if (declined) deeds.push("doubled nobody");
  if (redoubled.length) deeds.push(`redoubled ${listText(redoubled)}`);
  if (!deeds.length) return null;
  const what = `${deeds.join(" and ")} for you`;
  // The turn timer doubles nobody: it may be the one who did, but it never doubles or redoubles anyone.
  const who = declined && !redoubled.length ? whoPlayed(before, table) : "a stand-in bot";
  return `${AWAY}${who} ${what}.`;
}

/** The cards `seat` has played in the hand of `view` (its tricks, the trick on the table, Dominoes' plays). */
function playedBy(view, seat) {
  const out = [];
  for (const trick of [...view.tricks, view.trick]) {
    trick.cards.forEach((card, i) => { if (SEATS[(SEATS.indexOf(trick.leader) + i) % 4] === seat) out.push(card); });
  }
  for (const [who, card] of view.plays || []) if (who === seat && card) out.push(card);
  return out;
}

/**
 * Who played for the seat while the page was away, from what the page knows (it heard none of those events,
 * whose `by` would say): at a table without a turn timer only a stand-in plays a player's seat; with one, the
 * timer alone when the page saw the seat less than the table's grace ago (no stand-in can have taken it
 * since) and the player had not left it; a player who left it handed it to a stand-in at once. `table`: the
 * room summary (`turn_time`, `grace` in seconds), or null.
 */
function whoPlayed(before, table) {
  if (before.left) return "a stand-in bot";
  if (!table) return "a bot";
  if (!table.turn_time) return "a stand-in bot";
  const seen = typeof before.at === "number" ? Date.now() - before.at : Infinity;
  return seen < table.grace * 1000 ? "the turn timer" : "the turn timer or a stand-in bot";
}

/**
 * What was played for `seat` while its player was away, from the hand this browser last showed (`before`,
 * as `heldCards` gives it: `at` when it was shown, `left` when the player left the seat) and the `view` on
 * coming back, naming who played (`whoPlayed`; `table` the room summary): "While you were away the turn
 * timer played 8♦ for you.", "… a stand-in bot played 2 cards for you: 8♦, 3♣.", "… played the rest of
 * hand 3 for you, and in this hand 5♠.", followed by the doubles a stand-in made for them (`awayDoublesText`);
 * null when nothing was played for them (or nothing is known).
 */
export function awayPlaysText(before, view, seat, table = null) {
  if (!before || !view || before.hand > view.hand_number) return null;
  const chose = awayContractText(before, view, seat, table);
  const played = awayCardsText(before, view, seat, table);
  const doubled = awayDoublesText(before, view, seat, table);
  // In the order they were done: this hand's contract comes after the earlier hands played for the seat.
  const said = (before.hand === view.hand_number ? [chose, played, doubled] : [played, chose, doubled]).filter(Boolean);
  // "While you were away" once: "… a stand-in bot chose Barbu for you. A stand-in bot played 8♦ for you."
  const later = (sentence) => sentence[AWAY.length].toUpperCase() + sentence.slice(AWAY.length + 1);
  return said.length ? said.map((sentence, i) => (i ? later(sentence) : sentence)).join(" ") : null;
}

/**
 * The contract chosen for `seat`, the declarer of `view`'s hand, while the page was away: "While you were
 * away a stand-in bot chose Trumps (hearts) for you." (the turn timer chooses one too: `whoPlayed`), when
 * the page last showed this hand with no contract, or an earlier hand; else null (a hand kept by an older
 * page does not say whether its contract was chosen).
 */
function awayContractText(before, view, seat, table) {
  if (seat !== view.declarer || !view.contract) return null;
  if (before.hand === view.hand_number && before.chosen !== false) return null;
  return `${AWAY}${whoPlayed(before, table)} chose ${contractText(view.contract, view.trump, view.start_rank)} for you.`;
}

/** The cards part of `awayPlaysText`, or null. */
function awayCardsText(before, view, seat, table) {
  const words = (cards) => cards.map(cardText).join(", ");
  const who = `${AWAY}${whoPlayed(before, table)} played`;
  if (before.hand === view.hand_number) {
    const gone = before.cards.filter((card) => !view.hand.includes(card));
    if (!gone.length) return null;
    return gone.length === 1 ? `${who} ${words(gone)} for you.` : `${who} ${gone.length} cards for you: ${words(gone)}.`;
  }
  const now = playedBy(view, seat);
  // A hand the page saw end (`ended`: it may have stopped early, cards left) had no rest to play.
  const first = before.ended ? before.hand + 1 : before.hand;
  if (first === view.hand_number) return now.length ? `${who} ${words(now)} for you.` : null;
  const rest = first === view.hand_number - 1 ? (before.ended ? `hand ${first}` : `the rest of hand ${first}`) : `hands ${first} to ${view.hand_number - 1}`;
  return `${who} ${rest} for you${now.length ? `, and in this hand ${words(now)}` : ""}.`;
}
