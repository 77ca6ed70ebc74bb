// Scores: the running scores with the doubles in force, the score sheet, the end-of-hand summary and the
// end-of-match ranking.
import { button, h } from "./dom.js";
import { SEATS, SEAT_NAMES, contractText, playerText } from "./words.js";

function seatHeads(snap, names = true) {
  return SEATS.map((seat) => h("th", { scope: "col", title: playerText(snap.players[seat]), "aria-label": `${SEAT_NAMES[seat]}: ${playerText(snap.players[seat])}` }, seat, names ? h("small", {}, playerText(snap.players[seat])) : null));
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The doubles of a hand in words: "E doubled N (redoubled)". */
export function doublesText(doubles, redoubles) {
  const redoubled = new Set(redoubles.map(([a, b]) => `${b}${a}`));
  const mutual = new Set(doubles.map(([a, b]) => `${a}${b}`));
  return doubles.map(([a, b]) => {
    const again = redoubled.has(`${a}${b}`) || mutual.has(`${b}${a}`);
    return `${SEAT_NAMES[a]} doubled ${SEAT_NAMES[b]}${again ? " (redoubled)" : ""}`;
  });
}

/** Totals before this hand, this hand's contract scores so far, and the doubles in force. */
export function scorePanel(snap, view) {
  const doubles = doublesText(view.doubles, view.redoubles);
  return h("section", { class: "scores", "aria-label": "scores" },
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), seatHeads(snap, false))),
      h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, "Total"), SEATS.map((s) => h("td", {}, view.totals[s]))),
        h("tr", {}, h("th", { scope: "row" }, "This hand"), SEATS.map((s) => h("td", {}, signed(view.contract_scores[s])))),
        h("tr", {}, h("th", { scope: "row" }, "Tricks"), SEATS.map((s) => h("td", {}, view.tricks_won[s]))))),
    h("p", { class: "doubles" }, doubles.length ? `Doubles: ${doubles.join("; ")}.` : "No doubles in force."));
}

/** Every finished hand, with its doubles and scores, and the running totals (a modal dialog). */
export function scoreSheet(snap, view, close) {
  const running = { N: 0, E: 0, S: 0, W: 0 };
  const rows = view.history.map((row) => {
    for (const s of SEATS) running[s] += row.scores[s];
    return h("tr", {},
      h("td", {}, row.hand_number), h("td", {}, row.declarer),
      h("td", {}, contractText(row.contract, row.trump, row.start_rank), h("br"), h("small", {}, doublesText(row.doubles, row.redoubles).join("; "))),
      SEATS.map((s) => h("td", {}, signed(row.scores[s]), h("br"), h("small", {}, running[s]))));
  });
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "sheet-title" },
    h("h2", { id: "sheet-title" }, "Score sheet"),
    rows.length ? h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { "aria-label": "hand" }, "#"), h("th", { "aria-label": "declarer" }, "Decl."), h("th", {}, "Contract"), seatHeads(snap))),
      h("tbody", {}, rows))) : h("p", {}, "No hand has finished yet."),
    h("p", { class: "muted" }, "Each cell: the hand's score (contract and doubles), then the running total."),
    button("Close", close, { class: "primary", "data-focus": "close-sheet" }));
  dialog.addEventListener("cancel", close);
  queueMicrotask(() => { if (!dialog.open) dialog.showModal(); });
  return dialog;
}

/** What the hand just finished gave: contract scores, settlements, hand results, totals. */
export function handSummary(snap, scored, dismiss) {
  const line = (label, values, sign = true) => h("tr", {}, h("th", { scope: "row" }, label), SEATS.map((s) => h("td", {}, sign ? signed(values[s]) : values[s])));
  return h("div", { class: "summary", role: "region", "aria-label": `hand ${scored.hand_number} summary` },
    h("h2", {}, `Hand ${scored.hand_number}: ${contractText(scored.contract)} by ${SEAT_NAMES[scored.declarer]}`),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), seatHeads(snap, false))),
      h("tbody", {},
        line("Contract", scored.contract_scores),
        line("Doubles", scored.settlements),
        line("Hand", scored.scores),
        line("Total", scored.totals, false))),
    button("Close", dismiss, { "data-focus": "close-summary" }));
}

/** The final ranking (places, ties sharing) with the totals, and another match with the same players. */
export function ranking(state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  const host = state.summary && state.summary.host === state.me;
  let next = null;
  if (state.rematch) next = button(snap.seat ? "Take my seat in the next match" : "Watch the next match", () => actions.joinRematch(), { class: "primary" });
  else if (host) next = button("Another match, same players", () => actions.rematch(), { class: "primary" });
  return h("div", { class: "summary ranking", role: "region", "aria-label": "final ranking" },
    h("h2", {}, "The match is over"),
    h("ol", {}, (view.ranking || []).map((place) => h("li", {},
      place.map((s) => `${playerText(snap.players[s])} (${SEAT_NAMES[s]}) ${view.totals[s]}`).join(" = ")))),
    h("div", { class: "buttons" }, next, h("a", { href: "#lobby" }, "Back to the lobby")));
}
