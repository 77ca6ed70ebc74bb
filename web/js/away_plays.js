// What a stand-in bot (or the turn timer) played for the player's seat while they were away: the hand this
// browser last showed at a seat is kept in localStorage, and on coming back the page says which of its cards
// are gone ("While you were away a bot played 8♦ for you."), rather than a hand of 12 where 13 were.
import { SEATS, cardText } from "./words.js";

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

/** The hand this browser last showed `player` at `room`: { hand: its number, cards: ["8D", …] }, or null. */
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
 * What was played for `seat` while its player was away, from the hand this browser last showed (`before`,
 * as `heldCards` gives it) and the `view` on coming back: "While you were away a bot played 8♦ for you.",
 * "… played 2 cards for you: 8♦, 3♣.", "… played the rest of hand 3 for you, and in this hand 5♠."; null
 * when nothing was played for them (or nothing is known).
 */
export function awayPlaysText(before, view, seat) {
  if (!before || !view || before.hand > view.hand_number) return null;
  const words = (cards) => cards.map(cardText).join(", ");
  if (before.hand === view.hand_number) {
    const gone = before.cards.filter((card) => !view.hand.includes(card));
    if (!gone.length) return null;
    return gone.length === 1
      ? `While you were away a bot played ${words(gone)} for you.`
      : `While you were away a bot played ${gone.length} cards for you: ${words(gone)}.`;
  }
  const now = playedBy(view, seat);
  const rest = view.hand_number - before.hand === 1 ? `the rest of hand ${before.hand}` : `hands ${before.hand} to ${view.hand_number - 1}`;
  return `While you were away a bot played ${rest} for you${now.length ? `, and in this hand ${words(now)}` : ""}.`;
}
