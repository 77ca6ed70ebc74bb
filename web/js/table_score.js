// Scores: the running scores with the doubles in force, the score sheet, the end-of-hand summary and the
// end-of-match ranking. Seat columns start with the viewer's own seat (then clockwise), so a phone shows it
// without a sideways scroll.
import { Kept, bdi, button, h, scrollableByKeys } from "./dom.js";
import { keptStandingsChart, standingsChart } from "./standings_chart.js";
import { SEATS, SEAT_NAMES, contractText, numberText, playerText, signedText as signed, whenText } from "./words.js";

/** The seats as columns: the viewer's own first, then the others clockwise (a watcher: N E S W). */
export function seatOrder(snap) {
  const first = snap.seat ? SEATS.indexOf(snap.seat) : 0;
  return SEATS.map((_, i) => SEATS[(first + i) % 4]);
}

/**
 * The seats' column heads: the seat letter, and with `names` its player beside it on one line, "N bot",
 * "S you", "E ann", so that two bots' columns (the same name) are told apart by the seat written with the
 * name, and the words are short enough to be shown whole on a phone: a bot is "bot" when the table's bots
 * all play the same policy (its title and the screen reader say which), "bot, search" when they differ.
 */
function seatHeads(snap, names = true) {
  const policies = new Set(SEATS.map((s) => snap.players[s]).filter((p) => p && p.startsWith("bot:")));
  return seatOrder(snap).map((seat) => {
    const owner = snap.players[seat];
    const who = seat === snap.seat ? "you" : playerText(owner);
    const short = seat !== snap.seat && owner && owner.startsWith("bot:") && policies.size === 1 ? "bot" : who;
    return h("th", { scope: "col", class: seat === snap.seat ? "own" : null, title: `${SEAT_NAMES[seat]}: ${playerText(owner)}`, "aria-label": `${SEAT_NAMES[seat]}: ${who}` },
      // Narrow tables (the score box, a hand's summary) have the letters only, but for "you" on one's own.
      names ? h("span", { class: "seat-head" }, h("b", {}, seat), " ", h("small", {}, bdi(short))) : seat === snap.seat ? [seat, " ", h("small", {}, "you")] : seat);
  });
}

function seatCells(snap, cell) {
  return seatOrder(snap).map((seat) => h("td", { class: seat === snap.seat ? "own" : null }, cell(seat)));
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

/**
 * Each doubled pair of a scored hand and what it settled, as the terminal client says it: "East doubled
 * North, North redoubled (stakes ×2): East +4, North −4"; a pair doubling each other is ×2 too. `row` holds
 * `doubles`, `redoubles` ([doubler, doubled] and [redoubler, doubler] pairs) and `contract_scores`; the
 * settlement is the difference of the pair's contract scores, to the one who scored more (docs/rules/barbu.md).
 */
export function settlementLines(row) {
  const doubles = row.doubles || [];
  const redoubled = new Set((row.redoubles || []).map(([a, b]) => [a, b].sort().join()));
  const scores = row.contract_scores || {};
  const seen = new Set();
  const lines = [];
  for (const [a, b] of doubles) {
    const pair = [a, b].sort().join();
    if (seen.has(pair)) continue;
    seen.add(pair);
    const mutual = doubles.some(([x, y]) => x === b && y === a);
    const times = mutual || redoubled.has(pair) ? 2 : 1;
    const diff = ((scores[a] || 0) - (scores[b] || 0)) * times;
    const [up, down] = diff > 0 ? [a, b] : [b, a];
    const result = diff ? `${SEAT_NAMES[up]} +${Math.abs(diff)}, ${SEAT_NAMES[down]} −${Math.abs(diff)}` : "even";
    let how = mutual ? `${SEAT_NAMES[a]} and ${SEAT_NAMES[b]} doubled each other (stakes ×2)` : `${SEAT_NAMES[a]} doubled ${SEAT_NAMES[b]}`;
    if (redoubled.has(pair) && !mutual) how += `, ${SEAT_NAMES[b]} redoubled (stakes ×2)`;
    lines.push(`${how}: ${result}`);
  }
  return lines;
}

// What ends each contract that stops once nothing is left to score (docs/rules/barbu.md, `early-end`).
const LAST_SCORED = { "no-queens": "The last queen", "no-hearts": "The last heart", barbu: "The king of hearts" };

/**
 * Why a hand stopped before its 13th trick: "The last queen fell in trick 8: the hand stopped there, with
 * nothing left to score." `tricks` is the number of the hand's last trick; null for a hand of 13 tricks,
 * a contract that never stops early, or a hand whose last trick the page did not see.
 */
export function earlyEndText(contract, tricks) {
  if (!LAST_SCORED[contract] || !tricks || tricks >= 13) return null;
  return `${LAST_SCORED[contract]} fell in trick ${tricks}: the hand stopped there, with nothing left to score.`;
}

/**
 * Dominoes' finishing order (`order`, seats first out to last) in words, each place with its score
 * (`scores`, the contract's): "North (ann) went out first for +45, then you for +20, then East (bob) for +5;
 * West (cy), left with cards, came last for −5." null for another contract (or an event without the order).
 */
export function finishOrderText(snap, order, scores) {
  if (!order || order.length !== 4) return null;
  const [first, second, third, last] = order.map((s) => [s === snap.seat ? "you" : `${SEAT_NAMES[s]} (${playerText(snap.players[s])})`, signed(scores[s])]);
  const lead = first[0][0].toUpperCase() + first[0].slice(1);
  return `${lead} went out first for ${first[1]}, then ${second[0]} for ${second[1]}, then ${third[0]} for ${third[1]}; ${last[0]}, left with cards, came last for ${last[1]}.`;
}

/** The settlements of a hand as a list (or "No doubles this hand."). */
export function settlementList(row) {
  const lines = settlementLines(row);
  return h("div", { class: "settlements" },
    lines.length ? [h("h3", {}, "Settlements"), h("ul", {}, lines.map((line) => h("li", {}, line)))] : h("p", { class: "muted" }, "No doubles this hand."));
}

/** Totals before this hand, this hand's contract scores so far, tricks won (Dominoes: cards left), and the
 *  doubles in force. */
export function scorePanel(snap, view) {
  const doubles = doublesText(view.doubles, view.redoubles);
  const dominoes = view.contract === "dominoes"; // no tricks there: the cards each seat has left
  return scrollableByKeys(h("section", { class: "scores", "aria-label": "scores" },
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), seatHeads(snap, false))),
      h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, "Total"), seatCells(snap, (s) => numberText(view.totals[s]))),
        h("tr", {}, h("th", { scope: "row" }, "This hand"), seatCells(snap, (s) => signed(view.contract_scores[s]))),
        dominoes
          ? h("tr", {}, h("th", { scope: "row" }, "Cards left"), seatCells(snap, (s) => view.hand_sizes[s]))
          : h("tr", {}, h("th", { scope: "row" }, "Tricks"), seatCells(snap, (s) => view.tricks_won[s])))),
    h("p", { class: "doubles" }, doubles.length ? `Doubles: ${doubles.join("; ")}.` : "No doubles in force.")));
}

/** Every finished hand, with its doubles and scores, and the running totals (a modal dialog). */
export function scoreSheet(snap, view, close) {
  const running = { N: 0, E: 0, S: 0, W: 0 };
  const rows = view.history.map((row) => {
    for (const s of SEATS) running[s] += row.scores[s];
    const doubles = doublesText(row.doubles, row.redoubles);
    // The hand (its number, contract, declarer and doubles) heads its row, so the seats' columns follow it
    // and the whole sheet fits a phone's width, nothing cut off.
    return h("tr", {},
      h("th", { scope: "row", class: "contract-cell" }, h("b", {}, `${row.hand_number}. `), contractText(row.contract, row.trump, row.start_rank),
        h("small", {}, ` by ${row.declarer}`), doubles.length ? [h("br"), h("small", {}, doubles.join("; "))] : null),
      seatCells(snap, (s) => [signed(row.scores[s]), h("br"), h("small", {}, numberText(running[s]))]));
  });
  const dialog = h("dialog", { class: "sheet", "aria-labelledby": "sheet-title" },
    h("h2", { id: "sheet-title" }, "Score sheet"),
    rows.length ? scrollableByKeys(h("div", { class: "scroll", role: "region", "aria-label": "score sheet" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { class: "contract-cell" }, "Hand"), seatHeads(snap))),
      h("tbody", {}, rows)))) : h("p", {}, "No hand has finished yet."),
    h("p", { class: "muted" }, "Each cell: the hand's score (contract and doubles), then the running total."),
    // A finished match's sheet ends with its story: the running totals drawn (standings_chart.js).
    view.phase === "over" && rows.length ? standingsChart(view.history, snap.players) : null,
    button("Close", close, { class: "primary", "data-focus": "close-sheet" }));
  dialog.addEventListener("cancel", close);
  queueMicrotask(() => { if (!dialog.open) dialog.showModal(); });
  return dialog;
}

/**
 * The last finished hand's results as its `hand-scored` event gave them (with `tricks`, the number of its
 * last trick), from what a snapshot's `view` carries: the score sheet's last row, and the totals since. For
 * a page that did not see the hand end (opened, reloaded or come back between hands); null before any.
 */
export function lastScored(view) {
  const row = view.history[view.history.length - 1];
  if (!row) return null;
  const { hand_number, declarer, contract, contract_scores, settlements, scores, finish_order } = row;
  return { hand_number, declarer, contract, contract_scores, settlements, scores, finish_order, totals: view.totals, tricks: row.tricks_played };
}

/**
 * What the hand just finished gave: contract scores, each settlement, hand results, totals. `scored` is the
 * hand-scored event (with `tricks`, the number of its last trick, when the page saw it: a hand that stopped
 * early says why); its row of the view's history (when there) says who doubled whom. With `folded` (the
 *  table screen's state, once the seat is asked its next question) it is one line, "Hand 3 results: you −4,
 * total −12" (with the player's net from doubles when they settled any: "you +5 (doubles −25), total 5";
 * on a `phone`, "Hand 3: you −4, total −12"),
 * whose results open beside the question on a desktop, where there is room, and on a `phone` open on a tap
 * of the line's "Show all" (`folded.summaryOpen`, null until the player opens or closes it, keeps their
 * choice through redraws). With `kept` (the table screen's Kept) the box, its folded line with "Show all" and
 * its Close are the same nodes from one draw to the next, so a press straddling a push still lands.
 */
export function handSummary(snap, scored, dismiss, folded = null, phone = false, kept = new Kept()) {
  const line = (label, values, sign = true) => h("tr", {}, h("th", { scope: "row" }, label), seatCells(snap, (s) => sign ? signed(values[s]) : numberText(values[s])));
  const history = (snap.view && snap.view.history) || [];
  const row = history.find((r) => r.hand_number === scored.hand_number) || scored;
  const contract = `${contractText(row.contract || scored.contract, row.trump, row.start_rank)} by ${SEAT_NAMES[scored.declarer]}`;
  const title = `Hand ${scored.hand_number}: ${contract}`;
  const early = earlyEndText(row.contract || scored.contract, scored.tricks);
  const finished = finishOrderText(snap, scored.finish_order, scored.contract_scores);
  const body = [
    early ? h("p", { class: "early-end" }, early) : null,
    finished ? h("p", { class: "went-out" }, finished) : null,
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), seatHeads(snap, false))),
      h("tbody", {},
        line("Contract", scored.contract_scores),
        line("Doubles", scored.settlements),
        line("Hand", scored.scores),
        line("Total", scored.totals, false))),
    settlementList({ ...row, contract_scores: scored.contract_scores }),
    // A phone shows the ranking once the last hand's results are closed; a desktop, beside them.
    kept.button("close-summary", phone && snap.view && snap.view.phase === "over" ? "The final ranking" : "Close", dismiss),
  ];
  if (!folded) return scrollableByKeys(kept.el("summary-open", "div", { class: "summary", role: "region", "aria-label": `hand ${scored.hand_number} summary` }, h("h2", {}, title), body));
  const me = snap.seat;
  // A settlement of the player's is told on the line too: on a phone the next question comes at once, and
  // the line may be all they see of the hand ("you +5 (doubles −25), total 5").
  const fromDoubles = me && scored.settlements[me] ? ` (doubles ${signed(scored.settlements[me])})` : "";
  const gist = me ? `: you ${signed(scored.scores[me])}${fromDoubles}, total ${numberText(scored.totals[me])}` : "";
  const open = folded.summaryOpen === null || folded.summaryOpen === undefined ? !phone : folded.summaryOpen;
  // A phone's line drops "results": with a settlement and "Show all" it wrapped to three lines on 360 pixels.
  const head = phone && me ? `Hand ${scored.hand_number}` : `Hand ${scored.hand_number} results`;
  // The toggle is made once for the kept box: `folded` is the table screen's state, the same at every draw.
  return kept.el("summary-folded", "details", { class: "summary folded", "aria-label": `hand ${scored.hand_number} summary`, open, on: { toggle: (event) => { folded.summaryOpen = event.target.open; } } },
    kept.el("summary-line", "summary", { "data-focus": "open-summary" }, `${head}${gist}`,
      phone ? kept.el("show-all", "span", { class: "show-all" }, " · ", kept.el("show-all-link", "span", { class: "why-link" }, "Show all")) : null,
      // Why the hand vanished after a few tricks, said on the folded line too (its own once opened).
      early ? h("small", { class: "early-line" }, early) : null),
    h("h2", {}, contract), body); // under its line, which says the hand already ("Hand 3: you −4, …")
}

/** Places from first to last, each a list of seats, from the totals (highest first; equal totals share). */
export function placesOf(totals) {
  const places = [];
  for (const seat of [...SEATS].sort((a, b) => totals[b] - totals[a])) {
    const last = places[places.length - 1];
    if (last && totals[last[0]] === totals[seat]) last.push(seat);
    else places.push([seat]);
  }
  return places;
}

function placeList(places, players, totals, me) {
  return h("ol", { class: "places" }, places.map((place) => h("li", {},
    place.map((s) => h("span", { class: players[s] === me ? "own" : null }, bdi(playerText(players[s])), ` (${SEAT_NAMES[s]}) ${numberText(totals[s])}`))
      .flatMap((el, i) => (i ? [" = ", el] : [el])))));
}

/**
 * A finished match no longer at its table (a `list-matches` entry): its final ranking and totals, its score
 * sheet (`openSheet`) and its replay (`openReplay`); for its host, another match with the same players
 * (`rematch`). `openSheet` and `rematch` resolve to the words of a refusal, or nothing once done.
 */
export function finishedRanking(match, me, openReplay, openSheet, rematch = null) {
  const refused = h("p", { class: "error", role: "alert" });
  const said = (asked) => async () => { refused.textContent = (await asked()) || ""; };
  const again = rematch ? button("Another match, same players", said(rematch), { class: "primary" }) : null;
  return h("div", { class: "panel summary ranking", role: "region", "aria-label": "final ranking" },
    h("h2", {}, `The match at “${match.name}” is over: the final ranking`),
    placeList(placesOf(match.totals), match.players, match.totals, me),
    h("p", { class: "muted" }, `Finished ${whenText(match.finished)}.`),
    h("div", { class: "buttons" }, again, button(`Replay “${match.name}”`, openReplay, { class: again ? null : "primary" }),
      button("Score sheet", said(openSheet), { "data-focus": "sheet" }), h("a", { href: "#lobby" }, "Back to the lobby")),
    refused);
}

/** The final ranking (places, ties sharing) with the totals, and another match with the same players. */
export function ranking(state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  const host = state.summary && state.summary.host === state.me;
  const kept = state.kept; // the box and its buttons stay the same nodes while pushes redraw the table
  let next = null;
  if (state.rematch) next = kept.button("join-rematch", snap.seat ? "Take my seat in the next match" : "Watch the next match", () => actions.joinRematch(), { class: "primary" });
  else if (host) next = kept.button("rematch", "Another match, same players", () => actions.rematch(), { class: "primary" });
  return kept.el("ranking", "div", { class: "summary ranking", role: "region", "aria-label": "final ranking" },
    h("h2", {}, "The match is over"),
    state.rematch ? h("p", { class: "rematch-note" }, "Another match with the same players has started: join it below.") : null,
    placeList(view.ranking || placesOf(view.totals), snap.players, view.totals, state.me),
    view.history && view.history.length ? keptStandingsChart(kept, view.history, snap.players) : null,
    kept.el("ranking-buttons", "div", { class: "buttons" }, next,
      kept.el("ranking-replay", "a", { href: `#replay=${encodeURIComponent(snap.room)}` }, "Replay this match"),
      kept.el("ranking-lobby", "a", { href: "#lobby" }, "Back to the lobby")));
}
