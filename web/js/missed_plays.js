// "While you were away": what the server says was played for the player's seat in the updates it missed
// (docs/protocol.md, "Coming back: `since`"), told in words. Each acted event says who played it (`by`): only
// a stand-in bot's and the turn timer's plays for the seat are told; the player's own (from another tab or
// window) are not, and nothing is guessed from hands kept by the page.
import { SEAT_NAMES, cardText, contractText, listText } from "./words.js";
import { actorSeat } from "./timer_plays.js";

const AWAY = "While you were away "; // said once, before the first sentence
const WHO = { "stand-in": "a stand-in bot", timer: "the turn timer" };

/** Seats in words: "East and West", or "nobody". */
function seatsText(targets) {
  return targets.length ? listText(targets.map((seat) => SEAT_NAMES[seat] || seat)) : "nobody";
}

/** What one run of acts (same player, same kind, in order) did, in words ("played 2 cards for you: 8♦, 3♣"). */
function runText(kind, acts) {
  const first = acts[0];
  switch (kind) {
    case "card-played": {
      const cards = acts.map((event) => cardText(event.card)).join(", ");
      return acts.length === 1 ? `played ${cards} for you` : `played ${acts.length} cards for you: ${cards}`;
    }
    case "contract-chosen": return `chose ${contractText(first.contract, first.trump, first.start_rank)} for you`;
    case "doubled": return `doubled ${seatsText(first.targets)} for you`;
    case "redoubled": return `redoubled ${seatsText(first.targets)} for you`;
    case "passed": return acts.length === 1 ? "passed for you" : `passed ${acts.length} times for you`;
    default: return null;
  }
}

/**
 * The words for what a stand-in bot or the turn timer did for `seat` in the missed `updates` (each
 * `{seq, events}`, oldest first, as a snapshot asked with `since` carries them): "While you were away a
 * stand-in bot played 2 cards for you: 8♦, 3♣. The turn timer chose Barbu for you."; null when they did nothing
 * for it (or `updates` is not an array: a plain snapshot tells nothing of what was missed).
 */
export function missedPlaysText(updates, seat) {
  if (!Array.isArray(updates) || !seat) return null;
  const runs = []; // { who, kind, acts }: consecutive acts of one player and kind (cards, passes) go together
  for (const update of updates) {
    for (const event of update.events || []) {
      if (!WHO[event.by] || actorSeat(event) !== seat) continue;
      const last = runs[runs.length - 1];
      const joins = last && last.who === event.by && last.kind === event.event && ["card-played", "passed"].includes(event.event);
      if (joins) last.acts.push(event);
      else runs.push({ who: event.by, kind: event.event, acts: [event] });
    }
  }
  const said = runs.map((run) => [WHO[run.who], runText(run.kind, run.acts)]).filter(([, what]) => what);
  if (!said.length) return null;
  return said.map(([who, what], i) => (i ? `${who[0].toUpperCase()}${who.slice(1)} ${what}.` : `${AWAY}${who} ${what}.`)).join(" ");
}
