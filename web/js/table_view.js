// Drawing the Barbu table from the screen's state: header, the four seats around the felt, the trick (or the
// Dominoes rows, the hand's summary, the final ranking), the prompt for the seat to act, the hand, the side.
import { cardBack, cardFace, sortHand } from "./cards.js";
import { chatPanel } from "./chat.js";
import { button, h, redraw } from "./dom.js";
import { handSummary, ranking, scorePanel, scoreSheet } from "./table_score.js";
import { prompt, refusalLine } from "./table_prompt.js";
import { PHASE_WORDS, SEATS, SEAT_NAMES, SUIT_NAMES, SUIT_SYMBOLS, contractText, countText, playerText } from "./words.js";

const PLACES = ["bottom", "left", "top", "right"];

/** Where `seat` sits on screen for a viewer at `bottom`: "bottom", "left", "top" or "right". */
export function place(seat, bottom) {
  return PLACES[(SEATS.indexOf(seat) - SEATS.indexOf(bottom) + 4) % 4];
}

/** Redraw the whole table into `frame`. */
export function renderTable(frame, state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  const bottom = snap.seat || "S";
  redraw(frame,
    header(state, actions),
    state.notice ? h("p", { class: "error", role: "alert" }, state.notice) : null,
    h("div", { class: "felt", role: "region", "aria-label": "the table" },
      SEATS.map((seat) => seatBox(seat, place(seat, bottom), state, actions)),
      h("div", { class: "center" }, center(state, actions, bottom))),
    h("div", { class: "prompt", "aria-live": "polite" }, prompt(state, actions), refusalLine(state)),
    snap.seat && view ? handRow(state, actions) : null,
    h("div", { class: "side" },
      view ? scorePanel(snap, view) : null,
      view ? lastTrick(view) : null,
      chatPanel(state, actions)),
    state.sheetOpen && view ? scoreSheet(snap, view, () => {
      state.sheetOpen = false;
      actions.redraw();
      const opener = frame.querySelector("[data-focus=sheet]"); // the focus goes back to the button that opened it
      if (opener) opener.focus();
    }) : null,
  );
}

function header(state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  // The table's name rides along in the query, for the login page of a friend who opens the link to name it.
  const link = `${location.origin}/?at=${encodeURIComponent(snap.name)}#table=${snap.room}`;
  const linkBox = h("input", { class: "invite", readonly: true, value: link, "aria-label": "invite link" });
  const copy = button("Copy invite link", async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      linkBox.select();
      document.execCommand("copy");
    }
    copy.textContent = "Link copied";
  }, { "data-focus": "copy" });
  const where = view
    ? `Hand ${view.hand_number} of ${view.hands_total} · ${contractText(view.contract, view.trump, view.start_rank)}`
    : snap.state === "waiting" ? "Waiting for players: the match starts when the four seats are filled" : "";
  return h("header", { class: "table-head" },
    h("h1", {}, snap.name),
    h("p", { class: "where" }, where, snap.seat ? "" : " · you are watching",
      state.watchers.length ? ` · watching: ${state.watchers.join(", ")}` : ""),
    h("div", { class: "buttons" },
      copy, linkBox,
      view ? button("Score sheet", () => { state.sheetOpen = true; actions.redraw(); }, { "data-focus": "sheet" }) : null,
      snap.seat && snap.state !== "over" ? button("Leave table", () => {
        if (snap.state !== "playing" || confirm("Leave? A bot plays your seat until you come back (open the table again).")) actions.leave();
      }) : null,
      button("Lobby", actions.lobby)));
}

function seatBox(seat, where, state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  const name = snap.players[seat];
  const marks = [];
  if (view && view.dealer === seat) marks.push(h("span", { class: "badge", title: "dealer" }, h("span", { "aria-hidden": "true" }, "D"), h("span", { class: "sr-only" }, "dealer")));
  if (view && view.declarer === seat) marks.push(h("span", { class: "badge declarer", title: "declarer" }, h("span", { "aria-hidden": "true" }, "★ "), "declarer"));
  if (state.standins.includes(seat)) marks.push(h("span", { class: "badge away", title: "a stand-in bot plays until they come back" }, "away: bot stands in"));
  else if (snap.away.includes(seat)) {
    const at = state.standinAt[seat];
    const left = at ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : null;
    marks.push(h("span", { class: "badge away", title: "disconnected: the seat is held for them" },
      left === null ? "away" : `away — a bot stands in in ${left} s`));
  }
  const toMove = view && view.to_move === seat;
  const lines = [h("div", { class: "who" }, h("b", {}, playerText(name)), seat === snap.seat ? " (you)" : "", " ", marks)];
  if (view) {
    lines.push(h("div", { class: "stats" }, `total ${view.totals[seat]} · ${countText(view.tricks_won[seat], "trick")}`));
    if (seat !== snap.seat) {
      const count = view.hand_sizes[seat];
      lines.push(h("div", { class: "backs", role: "img", "aria-label": `${countText(count, "card")} in hand` }, Array.from({ length: Math.min(count, 13) }, () => cardBack({ small: true }))));
    }
  }
  const doing = toMove ? PHASE_WORDS[view.phase] || "to play" : "";
  if (toMove) lines.push(h("div", { class: "turn" }, doing, countdown(state)));
  const host = !state.summary || !state.summary.host || state.summary.host === state.me;
  if (!name && snap.state === "waiting") {
    lines.push(h("div", { class: "buttons" },
      snap.seat ? null : button("Sit here", () => actions.sit(seat), { "data-focus": `sit-${seat}` }),
      host ? button("Add bot", () => actions.request("add-bot", { seat }), { "data-focus": `bot-${seat}` }) : null));
  } else if (name && name.startsWith("bot:") && snap.state === "waiting" && host) {
    lines.push(h("div", { class: "buttons" }, button("Remove bot", () => actions.request("remove-bot", { seat }), { "data-focus": `unbot-${seat}` })));
  } else if (name && name !== state.me && snap.state === "waiting" && state.summary && state.summary.host === state.me) {
    // The host frees the seat of a player who never lets the match start; they cannot sit here again.
    lines.push(h("div", { class: "buttons" }, button("Remove player", () => {
      if (confirm(`Remove ${name} from this table? They cannot sit here again.`)) actions.request("remove-player", { seat });
    }, { "data-focus": `unseat-${seat}` })));
  }
  return h("section", { class: `seat ${where}${toMove ? " to-move" : ""}`, "aria-label": `${SEAT_NAMES[seat]}: ${playerText(name)}${toMove ? `, ${doing}` : ""}` }, h("span", { class: "seat-letter", "aria-hidden": "true" }, SEAT_NAMES[seat]), lines);
}

function countdown(state) {
  const clock = state.clock;
  if (!clock || clock.seq !== state.snapshot.seq) return null;
  const left = Math.max(0, Math.ceil((clock.until - Date.now()) / 1000));
  return h("span", { class: "clock", role: "timer", "aria-label": `${left} seconds left` }, ` ${left} s`);
}

function center(state, actions, bottom) {
  const view = state.snapshot.view;
  if (!view) return null;
  const scored = state.scored;
  if (view.phase === "over") { // the last hand's summary first, then the ranking
    const last = view.history.length ? view.history[view.history.length - 1].hand_number : 0;
    if (scored && scored.hand_number === last && state.dismissed !== last) return handSummary(state.snapshot, scored, actions.dismiss);
    return ranking(state, actions);
  }
  const fresh = scored && scored.hand_number === view.hand_number - 1 && state.dismissed !== scored.hand_number;
  if (fresh && view.trick.cards.length === 0 && view.tricks.length === 0 && !(view.plays || []).length && !Object.values(view.rows).some((row) => row.length)) {
    return handSummary(state.snapshot, scored, actions.dismiss);
  }
  if (view.contract === "dominoes") return dominoRows(view.rows, view.finish_order);
  let trick = view.trick;
  let caption = trick.cards.length ? `led by ${SEAT_NAMES[trick.leader]}` : "";
  if (!trick.cards.length && state.flash && state.flash.until > Date.now() && state.flash.hand === view.hand_number) {
    trick = state.flash;
    caption = `won by ${SEAT_NAMES[trick.winner]}`;
    setTimeout(actions.redraw, state.flash.until - Date.now() + 20);
  }
  return h("div", { class: "trick", role: "group", "aria-label": `current trick${caption ? ", " + caption : ""}` },
    trick.cards.map((card, i) => {
      const seat = SEATS[(SEATS.indexOf(trick.leader) + i) % 4];
      return h("div", { class: `played ${place(seat, bottom)}` }, cardFace(card, { label: `played by ${SEAT_NAMES[seat]}` }));
    }),
    h("p", { class: "caption" }, caption));
}

/** The four Dominoes rows (suit -> cards low to high) and who is out, in finishing order. */
export function dominoRows(rows, finishOrder) {
  return h("div", { class: "rows", role: "group", "aria-label": "Dominoes rows" },
    ["S", "H", "D", "C"].map((suit) => h("div", { class: `row suit-${suit}`, role: "group", "aria-label": `${SUIT_NAMES[suit]} row` },
      h("span", { class: "row-suit", "aria-hidden": "true" }, SUIT_SYMBOLS[suit]),
      (rows[suit] || []).length
        ? rows[suit].map((card) => cardFace(card, { small: true }))
        : h("span", { class: "muted" }, h("span", { class: "sr-only" }, `${SUIT_NAMES[suit]}: `), "not opened"))),
    finishOrder.length ? h("p", { class: "finish-order" }, finishText(finishOrder)) : null);
}

const PLACE_WORDS = ["1st", "2nd", "3rd"];

/**
 * Who is out, in order: "Out: South 1st, West 2nd". Once three are out the hand ends and the fourth comes
 * last (place 4) with cards still in hand: "North 3rd; East last (cards left)".
 */
export function finishText(finishOrder) {
  const out = finishOrder.slice(0, 3).map((s, i) => `${SEAT_NAMES[s]} ${PLACE_WORDS[i]}`).join(", ");
  return `Out: ${out}${finishOrder.length === 4 ? `; ${SEAT_NAMES[finishOrder[3]]} last (cards left)` : ""}`;
}

function lastTrick(view) {
  const last = view.tricks[view.tricks.length - 1];
  if (!last) return null;
  return h("section", { class: "last-trick", "aria-label": "last trick" },
    h("h3", {}, `Last trick: won by ${SEAT_NAMES[last.winner]}`),
    h("div", { class: "cards" }, last.cards.map((card, i) => {
      const seat = SEATS[(SEATS.indexOf(last.leader) + i) % 4];
      return h("span", { class: "with-seat" }, h("small", { "aria-hidden": "true" }, seat), cardFace(card, { small: true, label: `played by ${SEAT_NAMES[seat]}` }));
    })));
}

function handRow(state, actions) {
  const view = state.snapshot.view;
  const legal = view.legal || [];
  const playable = new Set(legal.filter((a) => a.action === "play").map((a) => a.card));
  const myTurn = view.to_move === state.snapshot.seat && view.phase === "play";
  const cards = sortHand(view.hand).map((card) => {
    const can = myTurn && playable.has(card);
    const el = cardFace(card, {
      label: can ? "playable" : myTurn ? "not playable" : "in your hand",
      onClick: can ? () => actions.act({ action: "play", card }) : () => {},
      className: can ? "playable" : "unplayable",
    });
    // Not `disabled`: a card the keyboard is on stays focusable while it cannot be played (the others' turn),
    // so the focus stays in the hand after a play instead of falling back to the page.
    if (!can) el.setAttribute("aria-disabled", "true");
    el.dataset.focus = `card-${card}`;
    return el;
  });
  // One Tab stop for the whole hand (the first playable card, else the first card); the arrows move within.
  const stop = cards.find((el) => el.classList.contains("playable")) || cards[0];
  for (const el of cards) if (el !== stop) el.tabIndex = -1;
  const row = h("div", { class: "hand", role: "group", "aria-label": "your hand", "data-focus-group": "hand", on: { keydown: (event) => moveFocus(event, row) } }, cards);
  return row;
}

/** On the player's turn, a keyboard user whose focus is in the hand is taken to the first playable card. */
export function focusPlayable(frame) {
  const active = document.activeElement;
  if (!active || !active.closest(".hand") || active.classList.contains("playable")) return;
  const first = frame.querySelector(".hand .playable");
  if (first) first.focus({ preventScroll: true });
}

function moveFocus(event, row) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) return;
  const playable = [...row.querySelectorAll("button.playable")];
  const cards = playable.length ? playable : [...row.querySelectorAll("button")];
  const at = cards.indexOf(document.activeElement);
  if (!cards.length) return;
  event.preventDefault();
  cards[(at + step + cards.length) % cards.length].focus();
}
