// What the turn timer did for a seat whose time ran out: the server marks such an action's event with
// `by: "timer"` (docs/protocol.md, "update" and "event"), and the table says it in words, so a player who looked away
// knows a card was played, a contract chosen or a double passed in their name.
import { SEAT_NAMES, cardText, contractText, playerText } from "./words.js";

/** The seats of a double or redouble in words: "East", "East and North". */
function seatsText(seats) {
  const names = seats.map((seat) => SEAT_NAMES[seat] || seat);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
}

/** What an action's `event` did, as the timer did it: "played 7♣", "chose Trumps (hearts)", "passed"; null for others. */
function actedText(event) {
  switch (event.event) {
    case "card-played": return `played ${cardText(event.card)}`;
    case "passed": return "passed";
    case "contract-chosen": return `chose ${contractText(event.contract, event.trump, event.start_rank)}`;
    case "doubled": return event.targets.length ? `doubled ${seatsText(event.targets)}` : "passed (no double)";
    case "redoubled": return event.targets.length ? `redoubled ${seatsText(event.targets)}` : "passed (no redouble)";
    default: return null;
  }
}

/**
 * The seat an acted `event` (a contract chosen, a double, a redouble, a card played, a pass) was played for:
 * the declarer of a contract, the acting seat of the others (docs/protocol.md, "event"); null for any other
 * event.
 */
export function actorSeat(event) {
  if (!actedText(event)) return null;
  return (event.event === "contract-chosen" ? event.declarer : event.seat) || null;
}

/** The seat an `event` the turn timer played (`by` "timer") was played for (`actorSeat`); null for others. */
export function timerSeat(event) {
  return event.by === "timer" ? actorSeat(event) : null;
}

/**
 * The words for an `event` the turn timer played (`by` "timer"), or null for any other event: to the seat's
 * own player (`mine`, their seat) "Time ran out: the timer played 7♣ for you."; to the others "Time ran out
 * for East (bob): the timer played 7♣." (`players`: seat -> name, as the snapshot holds them).
 */
export function timerPlayText(event, mine, players) {
  const seat = timerSeat(event);
  if (!seat) return null;
  const what = actedText(event);
  if (seat === mine) return `Time ran out: the timer ${what} for you.`;
  return `Time ran out for ${SEAT_NAMES[seat]} (${playerText(players[seat])}): the timer ${what}.`;
}
