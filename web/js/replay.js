// A finished match watched again from its stored record: hand by hand and card by card, all four hands
// face up (the server lays the record out: protocol request "replay").
import { cardFace, cardName, rankIndex, sortHand } from "./cards.js";
import { bdi, button, fill, h, redraw } from "./dom.js";
import { standingsChart } from "./standings_chart.js";
import { doublesText, earlyEndText, scoreSheet, settlementList } from "./table_score.js";
import { PHONE, dealerDeclarerMarks, dominoRows, place } from "./table_view.js";
import { SEATS, SEAT_NAMES, cardsInText, contractText, listText, numberText, playerText, signedText } from "./words.js";

/** The pauses before asking again for a replay the server is too busy to lay out: growing, then the last. */
const BUSY_PAUSES_MS = [500, 1000, 2000, 4000, 8000];

/** The position after the first `step` events of `hand` (a "replay" hand). */
export function position(hand, step) {
  const pos = {
    hands: Object.fromEntries(SEATS.map((s) => [s, [...hand.hands[s]]])),
    trick: { leader: hand.declarer, cards: [] }, tricks: [], contract: null, trump: null, start_rank: null,
    doubles: [], redoubles: [], rows: { S: [], H: [], D: [], C: [] }, out: [], last: null,
  };
  for (const event of hand.events.slice(0, step)) {
    pos.last = event;
    if (event.event === "contract-chosen") Object.assign(pos, { contract: event.contract, trump: event.trump || null, start_rank: event.start_rank || null });
    else if (event.event === "doubled") for (const t of event.targets) pos.doubles.push([event.seat, t]);
    else if (event.event === "redoubled") for (const t of event.targets) pos.redoubles.push([event.seat, t]);
    else if (event.event === "card-played") {
      pos.hands[event.seat] = pos.hands[event.seat].filter((c) => c !== event.card);
      if (pos.contract === "dominoes") {
        const row = pos.rows[event.card[1]];
        row.push(event.card);
        row.sort((a, b) => rankIndex(a) - rankIndex(b));
      } else {
        if (!pos.trick.cards.length) pos.trick.leader = event.seat;
        pos.trick.cards.push(event.card);
      }
    } else if (event.event === "trick-won") {
      pos.tricks.push(event);
      pos.trick = { leader: event.winner, cards: [] };
    } else if (event.event === "player-out") pos.out.push(event.seat);
  }
  return pos;
}

/**
 * The score sheet of a finished match (`data`: the `replay` reply), as its table showed it: each hand's
 * contract, declarer, doubles and score, and the running totals; `me`'s seat (when they played) is "you".
 * A modal dialog (table_score.js `scoreSheet`); `close` is called when it is closed.
 */
export function replaySheet(data, me, close) {
  const history = data.hands.map((hand) => {
    const end = position(hand, hand.events.length);
    return { hand_number: hand.hand_number, declarer: hand.declarer, contract: end.contract, trump: end.trump,
      start_rank: end.start_rank, doubles: end.doubles, redoubles: end.redoubles, scores: hand.scores };
  });
  const seat = SEATS.find((s) => data.players[s] === me) || null;
  return scoreSheet({ seat, players: data.players }, { history, phase: "over" }, close); // a finished match
}

/** A Dominoes finish in words: the first three are out of cards; the fourth is last with cards left. */
function outText(event, pos) {
  const who = SEAT_NAMES[event.seat];
  if (event.place < 4) return `${who} is out of cards: ${["first", "second", "third"][event.place - 1]}.`;
  const left = sortHand(pos.hands[event.seat]).map((card) => cardsInText(card)).join(" ");
  return `The hand ends: ${who} comes last (4th), left with ${left}.`;
}

function eventText(event, pos) {
  if (!event) return "The cards are dealt.";
  const who = SEAT_NAMES[event.seat] || "";
  switch (event.event) {
    case "contract-chosen": return `${SEAT_NAMES[event.declarer]} chooses ${contractText(event.contract, event.trump, event.start_rank)}.`;
    case "doubled": return event.targets.length ? `${who} doubles ${listText(event.targets.map((s) => SEAT_NAMES[s]))}.` : `${who} doubles nobody.`;
    case "redoubled": return event.targets.length ? `${who} redoubles ${listText(event.targets.map((s) => SEAT_NAMES[s]))}.` : `${who} does not redouble.`;
    case "card-played": return `${who} plays the ${cardName(event.card)}.`;
    case "passed": return `${who} passes.`;
    case "trick-won": return `Trick ${event.trick_number} won by ${SEAT_NAMES[event.winner]}.`;
    case "player-out": return outText(event, pos);
    default: return event.event;
  }
}

/** The replay screen for finished match `matchId`. */
export function replayScreen(app, matchId) {
  const { session, root } = app;
  const frame = h("div", { class: "replay-screen" });
  fill(root, frame);
  const state = { data: null, bottom: "S", hand: 0, step: 0, playing: null, doublesOpen: null, sheet: null }; // doublesOpen: null until toggled

  function go(hand, step) {
    const hands = state.data.hands;
    state.hand = Math.max(0, Math.min(hands.length - 1, hand));
    const length = hands[state.hand].events.length;
    state.step = step === Infinity ? length : Math.max(0, Math.min(length, step));
    draw();
  }

  // "« Hand" and Page Up: within a hand, back to its start (hand 1 had no way but 75 steps back); at its
  // start, the hand before.
  const handBack = () => go(state.step > 0 ? state.hand : state.hand - 1, 0);

  function next() {
    const hand = state.data.hands[state.hand];
    if (state.step < hand.events.length) go(state.hand, state.step + 1);
    else if (state.hand + 1 < state.data.hands.length) go(state.hand + 1, 0);
    else stop();
  }

  function stop() {
    clearInterval(state.playing);
    state.playing = null;
    draw();
  }

  function seatHand(pos, seat, data) {
    return h("section", { class: `seat ${place(seat, state.bottom)}`, "aria-label": `${SEAT_NAMES[seat]}'s hand` },
      h("div", { class: "who" }, h("b", {}, `${SEAT_NAMES[seat]}: `, bdi(playerText(data.players[seat]))), " ", dealerDeclarerMarks(seat, data.hands[state.hand])),
      h("div", { class: "open-hand" }, sortHand(pos.hands[seat]).map((card) => cardFace(card, { small: true }))));
  }

  function center(pos, hand) {
    if (pos.contract === "dominoes") return dominoRows(pos.rows, pos.out);
    const trick = pos.trick.cards.length ? pos.trick : pos.tricks[pos.tricks.length - 1];
    if (!trick) return h("p", { class: "muted" }, "No card played yet.");
    return h("div", { class: "trick", role: "group", "aria-label": "the trick" }, trick.cards.map((card, i) => {
      const seat = SEATS[(SEATS.indexOf(trick.leader) + i) % 4];
      return h("div", { class: `played ${place(seat, state.bottom)}` }, cardFace(card, { label: `played by ${SEAT_NAMES[seat]}` }));
    }), hand && trick.winner ? h("p", { class: "caption" }, `won by ${SEAT_NAMES[trick.winner]}`) : null);
  }

  function result(hand, pos) {
    const row = (label, values, text = signedText) => h("tr", {}, h("th", {}, label), SEATS.map((s) => h("td", {}, text(values[s]))));
    return [h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), SEATS.map((s) => h("th", { scope: "col", "aria-label": `${SEAT_NAMES[s]}: ${playerText(state.data.players[s])}` }, s)))),
      h("tbody", {}, row("Contract", hand.contract_scores), row("Doubles", hand.settlements), row("Hand", hand.scores), row("Total", hand.totals, numberText))),
    settlementList({ doubles: pos.doubles, redoubles: pos.redoubles, contract_scores: hand.contract_scores })];
  }

  /**
   * The doubles in force, apart from the step's words (which a screen reader hears at each step): open on a
   * desktop; on a phone folded to one line, "Doubles in force: 5", so the hands stay in view (opened, it
   * stays open from step to step, as the player left it).
   */
  function doublesBox(doubles) {
    if (!doubles.length) return null;
    const open = state.doublesOpen === null ? !PHONE.matches : state.doublesOpen;
    return h("details", { class: "replay-doubles", open, on: { toggle: (event) => { state.doublesOpen = event.target.open; } } },
      h("summary", { "data-focus": "doubles" }, `Doubles in force: ${doubles.length}`),
      h("ul", {}, doubles.map((line) => h("li", {}, line))));
  }

  function draw() {
    const data = state.data;
    const hand = data.hands[state.hand];
    const pos = position(hand, state.step);
    const end = state.step === hand.events.length;
    const doubles = doublesText(pos.doubles, pos.redoubles);
    // A hand with fewer than 13 tricks says why from its first step: its step count alone looked cut short.
    const whole = position(hand, hand.events.length);
    const early = earlyEndText(whole.contract, whole.tricks.length);
    redraw(frame,
      h("header", { class: "table-head" },
        h("h1", {}, `Replay: ${data.name}`),
        h("p", { class: "where" }, `Hand ${hand.hand_number} of ${data.hands.length} · ${contractText(pos.contract, pos.trump, pos.start_rank)} · step ${state.step} of ${hand.events.length}`),
        early ? h("p", { class: "early-end" }, early) : null),
      h("div", { class: "buttons controls", role: "toolbar", "aria-label": "replay controls" },
        button("« Hand", handBack, { disabled: state.hand === 0 && state.step === 0, "aria-label": state.step > 0 ? "start of this hand" : "previous hand" }),
        button("‹ Back", () => go(state.hand, state.step - 1), { disabled: state.step === 0, "aria-label": "one step back" }),
        button(state.playing ? "Pause" : "Play", () => { if (state.playing) stop(); else { state.playing = setInterval(next, 700); draw(); } }),
        button("Next ›", next, { "aria-label": "one step forward", "data-focus": "next" }),
        button("Hand »", () => go(state.hand + 1, 0), { disabled: state.hand + 1 === data.hands.length, "aria-label": "next hand" }),
        button("End of hand", () => go(state.hand, Infinity)),
        button("Score sheet", openSheet, { "data-focus": "sheet" }),
        button("Lobby", () => app.go("lobby"))),
      h("p", { class: "narration", "aria-live": "polite" }, eventText(pos.last, pos)),
      doublesBox(doubles),
      h("div", { class: "felt open" }, SEATS.map((seat) => seatHand(pos, seat, data)), h("div", { class: "center" }, center(pos, end))),
      end ? h("section", { class: "panel" }, h("h2", {}, `Hand ${hand.hand_number} result`), result(hand, pos)) : null,
      state.hand === data.hands.length - 1 && end
        ? [h("p", {}, "Final ranking: ", data.ranking.map((place, i) => `${i + 1}. ${place.map((s) => playerText(data.players[s])).join(" = ")}`).join("  ")),
          standingsChart(data.hands, data.players)]
        : null);
  }

  // The whole match's score sheet, over the replay (a modal dialog of its own: the steps redraw beneath it).
  function openSheet() {
    stop();
    state.sheet?.remove();
    const sheet = replaySheet(state.data, session.name, () => { sheet.close(); sheet.remove(); });
    state.sheet = sheet;
    document.body.append(sheet);
  }

  // The keys are heard on the whole document, wherever the focus is: on the main area when the replay opens,
  // on a control once one is clicked, on the page itself once a pressed button turns disabled. Never in a
  // form field, nor with a modifier (Alt+Left is the browser's Back); the listener goes with the screen.
  function onKey(event) {
    if (!state.data || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable], dialog")) return;
    const moves = { ArrowRight: () => next(), ArrowLeft: () => go(state.hand, state.step - 1), PageDown: () => go(state.hand + 1, 0), PageUp: handBack };
    if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
  }
  document.addEventListener("keydown", onKey);

  let closed = false;
  let again = null; // the timeout of the next ask, while the server is busy

  /**
   * Ask for the record; `busy` (the workers cannot lay it out now: docs/protocol.md, "ask again shortly") is
   * asked again after growing pauses, saying so meanwhile; any other refusal is said with a way back.
   */
  async function load(attempt = 0) {
    try {
      const data = await session.request("replay", { match: matchId });
      if (closed) return;
      state.data = data;
      // The seat the viewer played in this match at the bottom, as at the table; else South.
      state.bottom = SEATS.find((seat) => data.players[seat] === session.name) || "S";
      go(0, 0);
    } catch (failure) {
      if (closed) return;
      if (failure.code === "busy") {
        fill(frame, h("div", { class: "panel" }, h("p", { role: "status", class: "busy" }, "The server is busy; trying again…"),
          h("a", { href: "#lobby" }, "Back to the lobby")));
        again = setTimeout(() => load(attempt + 1), BUSY_PAUSES_MS[Math.min(attempt, BUSY_PAUSES_MS.length - 1)]);
        return;
      }
      const words = failure.code === "no-such-match"
        ? `No finished match ${matchId} is kept here: the match may still be in play (its table's link shows it), or the link is mistyped.`
        : `Cannot open match ${matchId}: ${failure.message}`;
      fill(frame, h("div", { class: "panel" }, h("p", { role: "alert" }, words), h("a", { href: "#lobby" }, "Back to the lobby")));
    }
  }

  load();
  return { title: "Barbu — replay", onPush() {}, onReconnect() {},
    /** Where the rules panel opens (rules.js): at the contract of the hand shown. */
    rules: () => ({ doc: "barbu", code: state.data ? position(state.data.hands[state.hand], state.step).contract : null }),
    unmount() {
    closed = true;
    clearTimeout(again);
    if (state.playing) clearInterval(state.playing);
    document.removeEventListener("keydown", onKey);
    state.sheet?.remove(); // the sheet goes with the screen (the browser's Back while it was open)
  } };
}
