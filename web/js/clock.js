// The turn clock as the page shows it: the seconds left of a turn the server times (`turn_left_ms`,
// docs/protocol.md), counted down from when the page heard it (`state.clock`, table.js).
import { h } from "./dom.js";

/** Whole seconds left until `until` (a `Date.now()` time in milliseconds), never below 0. */
export function secondsLeft(until) {
  return Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

/**
 * The clock of the turn now shown (" 12 s"), as a span `tickClocks` (table_view.js) rewrites each second;
 * null when no turn timer runs or the clock is of an older position. `props`: more attributes (a copy for
 * the eye only is `aria-hidden`: the seat box's clock is the one a screen reader reads).
 */
export function countdown(state, props = {}) {
  const clock = state.clock;
  if (!clock || clock.seq !== state.snapshot.seq) return null;
  const left = secondsLeft(clock.until);
  return h("span", { class: "clock", role: "timer", "aria-label": `${left} seconds left`, ...props }, ` ${left} s`);
}
