// Drawing the Barbu table from the screen's state: header, the four seats around the felt, the trick (or the
// Dominoes rows, the hand's summary, the final ranking), the prompt for the seat to act, the hand, the side.
import { SUITS_IN_ORDER, cardBack, cardFace, cardName, sortHand } from "./cards.js";
import { chatPanel } from "./chat.js";
import { countdown, secondsLeft } from "./clock.js";
import { ask } from "./ask.js";
import { turnSettings } from "./turn_notice.js";
import { bdi, button, fill, floorAbove, h, keepFocus, revealAbove } from "./dom.js";
import { handSummary, ranking, scorePanel, scoreSheet } from "./table_score.js";
import { awayBeforeStart, noticeLine, offerBox, prompt, refusalLine, unplayableText } from "./table_prompt.js";
import { PHASE_WORDS, SEATS, SEAT_NAMES, SUIT_NAMES, SUIT_SYMBOLS, contractText, countText, numberText, playerText, rankText } from "./words.js";

const PLACES = ["bottom", "left", "top", "right"];
const COPIED_MS = 2000; // how long "Link copied" stands on the button before it offers to copy again

/** Where `seat` sits on screen for a viewer at `bottom`: "bottom", "left", "top" or "right". */
export function place(seat, bottom) {
  return PLACES[(SEATS.indexOf(seat) - SEATS.indexOf(bottom) + 4) % 4];
}

/** The phone layout (one column, the felt compact): below 720 pixels, as in style.css. */
export const PHONE = matchMedia("(max-width: 720px)");

/** Redraw the whole table into `frame`. */
export function renderTable(frame, state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  const bottom = snap.seat || "S";
  // On a phone the last trick sits beside the current one, in view with the seats and the hand; on a
  // desktop it has its box in the side column.
  const phone = PHONE.matches;
  // Built inside keepFocus: the kept hand changes as it is built (a played card leaves it), after the focus
  // on it has been noted.
  const kept = state.kept;
  // Counted, so that a test (or anyone) can tell a redraw happened now that its nodes stay the same.
  frame.dataset.draws = String(Number(frame.dataset.draws || 0) + 1);
  keepFocus(frame, () => fill(frame,
    header(state, actions),
    noticeLine(state, null),
    // Kept, down to the seats' buttons: a "Sit here" pressed as a push redraws the table still sits.
    // Quiet while a question is asked (the contract, doubles): no trick to make room for, so the felt takes
    // only its seats' height and the question comes up under them, in view with the header.
    state.kept.el("felt", "div", { class: `felt${view && view.phase !== "play" && view.phase !== "over" && !flashing(state) ? " quiet" : ""}`, role: "region", "aria-label": "the table" },
      SEATS.map((seat) => seatBox(seat, place(seat, bottom), state, actions)),
      kept.el("center", "div", { class: "center" }, center(state, actions, bottom), phone && view ? lastTrick(state) : null)),
    state.kept.el("prompt", "div", { class: "prompt", "aria-live": "polite" }, offerBox(state),
      // A phone's felt holds the next hand's first trick: the last hand's results, folded, stay under it.
      phone && view && view.phase !== "over" && playBegun(view) ? lastResults(state, actions) : null,
      state.awayPlays ? h("p", { class: "away-plays", role: "status" }, state.awayPlays) : null,
      timerPlayLine(state), idleLine(state),
      prompt(state, actions), refusalLine(state)),
    snap.seat && view ? handRow(state, actions) : null,
    kept.el("side", "div", { class: "side" },
      view ? scorePanel(snap, view) : null,
      // The last trick above the last hand's results: under them it was cut off by the window's bottom.
      view && !phone ? lastTrick(state) : null,
      view && !phone ? lastResults(state, actions) : null,
      chatPanel(state, actions),
      snap.seat && snap.state !== "over" ? turnSettings(kept, actions.redraw) : null),
    state.sheetOpen && view ? scoreSheet(snap, view, () => {
      state.sheetOpen = false;
      actions.redraw();
      const opener = frame.querySelector("[data-focus=sheet]"); // the focus goes back to the button that opened it
      if (opener) opener.focus();
    }) : null,
  ));
  kept.sweep(); // what this draw did not ask for (an answered prompt, a seat's old buttons) is let go
}

/**
 * What the turn timer played for a seat whose time ran out (`state.timerPlay`): for the player's own seat
 * until they act again; for another seat while that hand goes on. A seat's idle hand-over (`standin`) is
 * said while the stand-in plays it.
 */
function timerPlayLine(state) {
  const said = state.timerPlay;
  const view = state.snapshot.view;
  if (!said) return null;
  if (said.standin && !state.standins.includes(said.standin)) return null;
  if (!said.mine && !said.standin && (!view || view.hand_number !== said.hand)) return null;
  return h("p", { class: `timer-play${said.mine ? " mine" : ""}`, role: "status" }, said.text);
}

/**
 * The table's header: its name, where the match is, who watches, and its buttons. Kept (`state.kept`), box
 * and buttons: "Score sheet" or "Leave table" pressed as a push redraws the table still opens or leaves.
 */
function header(state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  const kept = state.kept;
  // The table's name rides along in the query, for the login page of a friend who opens the link to name it.
  const link = `${location.origin}/?at=${encodeURIComponent(snap.name)}#table=${snap.room}`;
  // As wide as the link (style.css caps it at the header's width): a field cut short hides the table's id.
  const linkBox = kept.el("invite", "input", { class: "invite", readonly: true, value: link, size: link.length, "aria-label": "invite link" });
  const copy = kept.button("copy", state.copied ? "Link copied" : ["Copy ", h("span", { class: "wide-only" }, "invite "), "link"], async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      linkBox.select();
      document.execCommand("copy");
    }
    // Said for a moment (kept through the redraws meanwhile: a push does not take the words back), then the
    // button offers to copy again.
    clearTimeout(state.copied);
    state.copied = setTimeout(() => { state.copied = null; actions.redraw(); }, COPIED_MS);
    copy.textContent = "Link copied";
  });
  const where = view
    ? `Hand ${view.hand_number} of ${view.hands_total} · ${contractText(view.contract, view.trump, view.start_rank)}${snap.paused ? " · paused" : ""}${ownTurnToDeclare(snap)}`
    : snap.state === "waiting" ? (awayBeforeStart(snap) || "Waiting for players: the match starts when the four seats are filled") : "";
  const others = state.watchers.filter((name) => name !== state.me); // the viewer is "you are watching"
  return kept.el("head", "header", { class: "table-head" },
    kept.el("head-name", "h1", {}, bdi(snap.name)),
    kept.el("head-where", "p", { class: "where" }, where,
      // A finished match has no players to watch: its own player, whose seat a stand-in ended, is no watcher.
      snap.state === "over" ? " · the match is over" : state.standin ? " · a stand-in bot plays your seat" : snap.seat ? "" : " · you are watching",
      others.length ? ` · watching: ${others.join(", ")}` : ""),
    kept.el("head-buttons", "div", { class: "buttons" },
      snap.state === "over" ? null : [copy, linkBox], // nothing more to invite anyone to
      view ? kept.button("sheet", "Score sheet", () => { state.sheetOpen = true; actions.redraw(); }) : null,
      // "Leave" on a phone: the header's buttons then fit one row of 360 pixels.
      snap.seat && snap.state !== "over" ? kept.button("Leave table", ["Leave", h("span", { class: "wide-only" }, " table")], () => {
        const now = state.snapshot;
        if (now.state !== "playing") actions.leave();
        else ask("Leave? A bot plays your seat until you come back (open the table again). With nobody left at the table, the match waits for someone to come back.", { yes: "Leave" }).then((yes) => { if (yes) actions.leave(); });
      }) : null,
      kept.button("Lobby", "Lobby", actions.lobby),
      // Lines said while the chat was off screen (on a phone, below the hand and the scores): a mark that
      // takes the player there. A desktop has the chat beside the felt.
      state.chatUnread ? kept.button("chat-unread", `Chat: ${countText(state.chatUnread, "new line")}`, () => {
        const input = document.querySelector("[data-focus=chat]");
        if (input) { input.scrollIntoView({ block: "center" }); input.focus({ preventScroll: true }); }
      }, { class: "phone-only unread" }) : null));
}

/**
 * When the player next declares, for the header (" · you declare hands 15–21", " · you declare hand 3"): a
 * newcomer seated at a table whose first declarer is another seat otherwise waits 14 hands without knowing
 * it. "" while they declare, when they declare no more hands, and for a watcher. The rotation is the
 * engine's (`Match.declarer_of`): clockwise, every 7 hands, or every hand with `rotation: each-hand`.
 */
function ownTurnToDeclare(snap) {
  const view = snap.view;
  if (!snap.seat || !view || view.phase === "over" || !view.declarer || view.declarer === snap.seat) return "";
  const each = (snap.variants || {}).rotation === "each-hand";
  const step = (hand) => (each ? hand - 1 : Math.floor((hand - 1) / 7));
  const first = SEATS.indexOf(view.declarer) - step(view.hand_number);
  const declares = (hand) => SEATS[(((first + step(hand)) % 4) + 4) % 4] === snap.seat;
  let next = view.hand_number + 1;
  while (next <= view.hands_total && !declares(next)) next += 1;
  if (next > view.hands_total) return "";
  return each ? ` · you declare hand ${next}` : ` · you declare hands ${next}–${Math.min(next + 6, view.hands_total)}`;
}

/**
 * The dealer's and the declarer's marks on `seat` for `hand` (a view, or a replay's hand: its `dealer` and
 * `declarer`), in words, for a phone shows no tooltip: "dealer", "★ declarer".
 */
export function dealerDeclarerMarks(seat, hand) {
  return spaced([
    hand.dealer === seat ? h("span", { class: "badge dealer", title: "dealer: dealt this hand" }, "dealer") : null,
    hand.declarer === seat ? h("span", { class: "badge declarer", title: "declarer" }, h("span", { "aria-hidden": "true" }, "★ "), "declarer") : null,
  ]);
}

/**
 * `marks` (badges; nulls left out) with a space between each two: the page's text, and so what a screen
 * reader reads, separates them as the screen does ("declarer away", not "declareraway").
 */
function spaced(marks) {
  return marks.filter(Boolean).flatMap((mark, i) => (i ? [" ", mark] : [mark]));
}

function seatBox(seat, where, state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  const name = snap.players[seat];
  const over = view && view.phase === "over";
  // The viewer's own seat is not "away": its player is here, watching the bot play it.
  const own = seat === snap.seat && state.standin;
  const away = state.standins.includes(seat)
    ? h("span", { class: "badge away", title: over ? "a stand-in bot played the seat to the end" : "a stand-in bot plays until they come back" },
      over ? "a bot played to the end" : own ? "a bot plays for you" : "away: bot stands in")
    : snap.away.includes(seat) ? h("span", { class: "badge away", title: "disconnected: the seat is held for them", "data-away": seat }, awayText(state, seat)) : null;
  const marks = spaced([...(view ? dealerDeclarerMarks(seat, view) : []), away]);
  const toMove = view && view.to_move === seat;
  const lines = [h("div", { class: "who" }, h("b", {}, bdi(playerText(name))), seat === snap.seat ? " (you)" : "", " ", marks)];
  if (view) {
    const count = view.hand_sizes[seat];
    // A phone draws no backs (style.css): the count says what they would show, "· 5 cards", kept whole on one
    // line; Dominoes' standing says it already ("5 cards left").
    const held = seat !== snap.seat && view.contract !== "dominoes"
      ? h("span", { class: "held" }, "\u00a0· ", h("span", {}, countText(count, "card"))) : null;
    lines.push(h("div", { class: "stats" }, `total ${numberText(view.totals[seat])} · ${standingText(view, seat)}`, held));
    if (seat !== snap.seat) {
      lines.push(h("div", { class: "backs", role: "img", "aria-label": `${countText(count, "card")} in hand` }, Array.from({ length: Math.min(count, 13) }, () => cardBack({ small: true }))));
    }
  }
  const doing = toMove ? PHASE_WORDS[view.phase] || "to play" : "";
  if (toMove) lines.push(h("div", { class: "turn" }, doing, countdown(state)));
  if (toMove && seat !== snap.seat && idleOf(state, seat)) lines.push(idleWarning(state, `idle-${seat}`, "div", { class: "idle", role: "status", "data-idle": seat }));
  const host = !state.summary || !state.summary.host || state.summary.host === state.me;
  const kept = state.kept;
  const buttons = (...children) => kept.el(`buttons-${seat}`, "div", { class: "buttons" }, children);
  if (!name && snap.state === "waiting") {
    lines.push(buttons(
      snap.seat ? null : kept.button(`sit-${seat}`, "Sit here", () => actions.sit(seat)),
      host ? kept.button(`bot-${seat}`, "Add bot", () => actions.request("add-bot", { seat }, `seat-${seat}`)) : null));
  } else if (name && name.startsWith("bot:") && snap.state === "waiting" && host) {
    lines.push(buttons(kept.button(`unbot-${seat}`, "Remove bot", () => actions.request("remove-bot", { seat }, `seat-${seat}`))));
  } else if (name && name !== state.me && snap.state === "waiting" && state.summary && state.summary.host === state.me) {
    // The host frees the seat of a player who never lets the match start; they cannot sit here again.
    lines.push(buttons(kept.button(`unseat-${seat}`, "Remove player", () => {
      ask(`Remove ${name} from this table? They cannot sit here again.`, { yes: "Remove" }).then((yes) => { if (yes) actions.request("remove-player", { seat }, `seat-${seat}`); });
    })));
  }
  lines.push(noticeLine(state, `seat-${seat}`));
  return kept.el(`seat-${seat}`, "section", { class: `seat ${where}${toMove ? " to-move" : ""}`, "aria-label": `${SEAT_NAMES[seat]}: ${playerText(name)}${toMove ? `, ${doing}` : ""}` },
    kept.el(`letter-${seat}`, "span", { class: "seat-letter", "aria-hidden": "true" }, SEAT_NAMES[seat]), lines);
}

/**
 * What a seat has done in this hand: "2 tricks" in the trick contracts; in Dominoes, where nobody takes a
 * trick, its place once out ("out 1st") or the cards it has left ("5 cards left").
 */
export function standingText(view, seat) {
  if (view.contract !== "dominoes") return countText(view.tricks_won[seat], "trick");
  const at = view.finish_order.indexOf(seat);
  if (at >= 0) return at < 3 ? `out ${PLACE_WORDS[at]}` : "last";
  return `${countText(view.hand_sizes[seat], "card")} left`;
}

/**
 * A dropped seat's mark, counting down its grace: to the stand-in during the match ("away — a bot stands in
 * in 42 s", `players.standin_in`), to the seat being freed before the start ("away — seat kept for 42 s",
 * `players.freed_in`); "away" when no grace runs (a kept seat of a rematch whose player has not come).
 */
function awayText(state, seat) {
  const standin = state.standinAt[seat];
  const freed = state.freedAt[seat];
  if (standin) return `away — a bot stands in in ${secondsLeft(standin)} s`;
  if (freed) return `away — seat kept for ${secondsLeft(freed)} s`;
  return "away";
}

/** The idle hand-over is told in its last minute (before it, a player thinking is no news). */
const IDLE_WARNING_S = 60;

/** The idle clock of `seat` now shown (`state.idle`, of the snapshot's action), or null. */
function idleOf(state, seat) {
  const idle = state.idle;
  return idle && idle.seq === state.snapshot.seq && idle.seat === seat && !state.snapshot.away.includes(seat) ? idle : null;
}

/**
 * The warning of the idle hand-over of `seat`, in its last minute, as the words around its seconds: to its
 * player "Your turn is waiting: play within 42 s, or a bot takes your seat (you may take it back).", naming
 * what is asked ("choose the contract within", "choose whom to double within"), on the seat's box "idle: a
 * bot takes the seat in 42 s"; null before that minute.
 */
/** What the idle warning says the seat is asked to do, by the hand's phase (a doubling turn is no "play"). */
const IDLE_ASKED = { contract: "choose the contract", double: "choose whom to double", redouble: "choose whom to redouble" };

function idleWords(state, seat) {
  const idle = idleOf(state, seat);
  const left = idle ? secondsLeft(idle.until) : Infinity;
  if (left > IDLE_WARNING_S) return null;
  return seat === state.snapshot.seat
    ? { turn: idle.seq, before: `Your turn is waiting: ${IDLE_ASKED[state.snapshot.view.phase] || "play"} within `, left, after: ", or a bot takes your seat (you may take it back)." }
    : { turn: idle.seq, before: "idle: a bot takes the seat in ", left, after: "" };
}

/**
 * The idle warning's box kept under `key` (a live region: `props` give its role and `data-idle`, the seat),
 * its words written in by `writeIdle`.
 */
function idleWarning(state, key, tag, props) {
  const box = state.kept.held(key, tag, props);
  writeIdle(box, state);
  return box;
}

/**
 * Write the idle warning of `box.dataset.idle` into `box`, a live region: the words go in once, when the
 * warning of a turn first shows, and are heard then, with the seconds; the seconds after it are written
 * into their `role="timer"` span alone (not announced: a countdown read out every second drowns the rest).
 */
function writeIdle(box, state) {
  const words = idleWords(state, box.dataset.idle);
  const said = words ? `${words.turn}|${words.before}|${words.after}` : "";
  if (box.idleSaid !== said) {
    box.idleSaid = said;
    const seconds = words ? h("span", { class: "idle-left", role: "timer", "aria-live": "off" }, `${words.left} s`) : null;
    box.replaceChildren(...(words ? [words.before, seconds, words.after] : []));
  }
  const timer = box.querySelector(".idle-left");
  if (timer && words && timer.textContent !== `${words.left} s`) timer.textContent = `${words.left} s`;
}

/** The idle hand-over's warning to the seat's own player, above the question they are asked. */
function idleLine(state) {
  const seat = state.snapshot.seat;
  if (!seat || !idleOf(state, seat)) return null;
  return idleWarning(state, "idle-warning", "p", { class: "idle-warning", role: "alert", "data-idle": seat });
}


/**
 * The clocks' second ticks, written into the clock and the away countdowns already drawn: nothing else
 * is redrawn, so a card the player is about to tap stays as it is.
 */
export function tickClocks(frame, state) {
  for (const clock of state.clock ? frame.querySelectorAll(".clock") : []) { // the seat's, the question's
    const left = secondsLeft(state.clock.until);
    if (clock.textContent !== ` ${left} s`) {
      clock.textContent = ` ${left} s`;
      clock.setAttribute("aria-label", `${left} seconds left`);
    }
  }
  for (const box of frame.querySelectorAll("[data-idle]")) writeIdle(box, state);
  for (const badge of frame.querySelectorAll("[data-away]")) {
    const text = awayText(state, badge.dataset.away);
    if (badge.textContent !== text) badge.textContent = text;
  }
}

/**
 * The trick just won while it stays on the felt (`state.flash`, 1.5 s from its last card), its hand's next
 * trick not led yet; or null. A hand's last trick does not hold the felt: the next question is asked at once,
 * and its results come with it ("Last trick of hand 3" beside them, `lastTrick`).
 */
function flashing(state) {
  const flash = state.flash;
  const view = state.snapshot.view;
  return flash && flash.until > Date.now() && flash.hand === view.hand_number && !view.trick.cards.length ? flash : null;
}

function center(state, actions, bottom) {
  const view = state.snapshot.view;
  if (!view) return null;
  const flash = flashing(state);
  if (flash) {
    setTimeout(actions.redraw, flash.until - Date.now() + 20); // then the felt without it
    return trickBox(flash, `won by ${SEAT_NAMES[flash.winner]}`, bottom);
  }
  const scored = state.scored;
  if (PHONE.matches && (view.phase === "over" || !playBegun(view))) { // the last hand's results on the felt (over: before the ranking)
    const results = lastResults(state, actions);
    if (results) return results;
  }
  if (view.phase === "over") return ranking(state, actions);
  if (view.contract === "dominoes") return dominoRows(view.rows, view.finish_order, view.start_rank);
  const trick = view.trick;
  if (trick.cards.length) return trickBox(trick, `led by ${SEAT_NAMES[trick.leader]}`, bottom);
  // Nothing led yet: one short line, not a trick's room of empty felt (a phone keeps the hand in view).
  const caption = view.phase === "play" ? `${SEAT_NAMES[trick.leader]} to lead` : "";
  return h("div", { class: "trick empty", role: "group", "aria-label": `current trick${caption ? ", " + caption : ""}` },
    h("p", { class: "caption" }, caption));
}

/**
 * The last hand's results until the next hand's first trick is won (Dominoes: four plays made), or the
 * match's last hand once it is over, and they are not closed; else null. A desktop shows them in the side
 * column, beside the felt and the question (or the final ranking), so the question, the seats and the
 * table's header fit the screen together; a phone shows them on the felt, folded to one line that opens on a
 * tap once the seat is asked something (the contract, a double), and over, before the ranking ("The final
 * ranking"); once the next hand's first card is played, the felt is the trick's, and the folded line goes
 * under it, in the prompt.
 */
function lastResults(state, actions) {
  const view = state.snapshot.view;
  const scored = state.scored;
  if (!view || !scored || state.dismissed === scored.hand_number) return null;
  if (view.phase === "over") {
    const last = view.history.length ? view.history[view.history.length - 1].hand_number : 0;
    return scored.hand_number === last ? handSummary(state.snapshot, scored, actions.dismiss, null, PHONE.matches, state.kept) : null;
  }
  if (scored.hand_number !== view.hand_number - 1) return null;
  // They stay through the next hand's first trick (Dominoes: its first round): a bot declarer leads at
  // once, and they went before anyone could read them.
  if (view.tricks.length || (view.plays || []).length >= 4) return null;
  const asked = Boolean(state.snapshot.seat && view.to_move === state.snapshot.seat && (view.legal || state.standin)); // its stand-in is asked
  const folded = PHONE.matches && (asked || playBegun(view)) ? state : null;
  return handSummary(state.snapshot, scored, actions.dismiss, folded, PHONE.matches, state.kept);
}

/** Whether `view`'s hand has a card played (or a pass, in Dominoes): the felt is the trick's, or the rows'. */
function playBegun(view) {
  return Boolean(view.trick.cards.length || view.tricks.length || (view.plays || []).length);
}

/** A trick on the felt (`trick`: its `leader` and `cards`), each card where its seat sits, and its `caption`. */
function trickBox(trick, caption, bottom) {
  return h("div", { class: "trick", role: "group", "aria-label": `current trick, ${caption}` },
    trick.cards.map((card, i) => {
      const seat = SEATS[(SEATS.indexOf(trick.leader) + i) % 4];
      // The seat's letter on the card, as the last trick has it: a phone's seats are far from the trick.
      return h("div", { class: `played ${place(seat, bottom)}` }, cardFace(card, { label: `played by ${SEAT_NAMES[seat]}` }),
        h("small", { class: "played-by", "aria-hidden": "true" }, seat));
    }),
    h("p", { class: "caption" }, caption));
}

/**
 * The four Dominoes rows (suit -> cards low to high) and who is out, in finishing order. A row not opened yet
 * is one short line ("♣ not opened"), so four of them do not fill a phone's screen. With `startRank` (the
 * table, not a replay) the rule follows in one line: only the declarer read it, choosing the rank.
 */
export function dominoRows(rows, finishOrder, startRank = null) {
  return h("div", { class: "rows", role: "group", "aria-label": "Dominoes rows" },
    SUITS_IN_ORDER.map((suit) => {
      const cards = rows[suit] || [];
      return h("div", { class: `row suit-${suit}${cards.length ? "" : " unopened"}`, role: "group", "aria-label": `${SUIT_NAMES[suit]} row` },
        h("span", { class: "row-suit", "aria-hidden": "true" }, SUIT_SYMBOLS[suit]),
        cards.length
          ? cards.map((card) => cardFace(card, { small: true }))
          : h("span", { class: "muted" }, h("span", { class: "sr-only" }, `${SUIT_NAMES[suit]}: `), "not opened"));
    }),
    finishOrder.length ? h("p", { class: "finish-order" }, finishText(finishOrder)) : null,
    startRank ? h("p", { class: "rule-reminder" }, dominoesRuleText(startRank)) : null);
}

/**
 * Dominoes' rule in one line, for every seat during the hand (docs/rules/barbu.md, Dominoes): "The 7 of a
 * suit opens its row; then the row grows one rank at a time, up and down; pass only when none of your cards
 * plays." (only up from a 2, only down from an ace).
 */
export function dominoesRuleText(startRank) {
  // Aces are high: a row opened by the ace can only go down, one opened by the 2 only up.
  const way = startRank === "A" ? "down" : startRank === "2" ? "up" : "up and down";
  return `The ${rankText(startRank)} of a suit opens its row; then the row grows one rank at a time, ${way}; pass only when none of your cards plays.`;
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

/**
 * The last trick won, but the one still on the felt (`flashing`: not drawn twice); once a hand is over, its
 * last trick ("Last trick of hand 3"), until the next hand has a trick of its own (Dominoes: a play).
 */
function lastTrick(state) {
  const view = state.snapshot.view;
  const flash = flashing(state);
  const tricks = flash ? view.tricks.slice(0, flash.trick_number - 1) : view.tricks; // a flash is this hand's
  let last = tricks[tricks.length - 1];
  // Over, the match's last trick is named as a finished hand's is between hands.
  let title = view.phase === "over" ? `Last trick of hand ${view.hand_number}` : "Last trick";
  const scored = state.scored;
  // Dominoes has no tricks of its own: the last hand's goes once its rows have their first play.
  const dominoesBegun = view.contract === "dominoes" && (view.plays || []).length > 0;
  if (!last && !flash && !dominoesBegun && scored && scored.last && scored.hand_number === view.hand_number - 1) {
    last = scored.last;
    title = `Last trick of hand ${scored.hand_number}`;
  }
  if (!last) return null;
  return h("section", { class: "last-trick", "aria-label": title.toLowerCase(), "data-hand": last === scored?.last ? scored.hand_number : null },
    h("h3", {}, `${title}: won by ${SEAT_NAMES[last.winner]}`),
    h("div", { class: "cards" }, last.cards.map((card, i) => {
      const seat = SEATS[(SEATS.indexOf(last.leader) + i) % 4];
      return h("span", { class: "with-seat" }, h("small", { "aria-hidden": "true" }, seat), cardFace(card, { small: true, label: `played by ${SEAT_NAMES[seat]}` }));
    })));
}

/**
 * The player's hand. Its card buttons are kept from one draw to the next (keyed by card) and only changed
 * where something changed: a redraw for a chat line or another seat's play does not replace the card a
 * finger is on, so a tap aimed at it lands.
 */
function handRow(state, actions) {
  const view = state.snapshot.view;
  const legal = view.legal || [];
  const playable = new Set(legal.filter((a) => a.action === "play").map((a) => a.card));
  const myTurn = view.to_move === state.snapshot.seat && view.phase === "play";
  const kept = state.handCards || (state.handCards = new Map());
  const held = sortHand(view.hand);
  for (const card of [...kept.keys()]) if (!held.includes(card)) kept.delete(card);
  const cards = held.map((card) => {
    const can = myTurn && playable.has(card);
    let el = kept.get(card);
    if (!el) {
      el = cardFace(card, { onClick: () => el.play() });
      el.dataset.focus = `card-${card}`;
      kept.set(card, el);
    }
    // A card that cannot be played says why when pressed (it did nothing, and the player wondered).
    el.play = can ? () => actions.act({ action: "play", card }) : () => {
      state.refusal = unplayableText(state, card);
      actions.redraw();
    };
    const words = `${cardName(card)}, ${can ? "playable" : myTurn ? "not playable" : "in your hand"}`;
    if (el.getAttribute("aria-label") !== words) {
      el.setAttribute("aria-label", words);
      el.title = words;
    }
    el.classList.toggle("playable", can);
    el.classList.toggle("unplayable", !can);
    // Not `disabled`: a card the keyboard is on stays focusable while it cannot be played (the others' turn),
    // so the focus stays in the hand after a play instead of falling back to the page.
    if (can) el.removeAttribute("aria-disabled");
    else el.setAttribute("aria-disabled", "true");
    return el;
  });
  // One Tab stop for the whole hand (the card the focus is on, else the first playable card, else the first
  // card); the arrows move within, and the card they reach becomes the stop (the row's focusin).
  const focused = cards.find((el) => el === document.activeElement);
  const stop = focused || cards.find((el) => el.classList.contains("playable")) || cards[0];
  rove(cards, stop);
  if (!state.handRow) {
    const row = h("div", { class: "hand", role: "group", "aria-label": "your hand", "data-focus-group": "hand" });
    // A keyboard player coming into the hand, or stepping along it, sees the trick they follow: scrolled
    // down (to the chat, the scores), the browser brought the focused card in view but left the trick
    // above the window. Not for a pointer's press: the card would move from under it before the click.
    const showTrick = () => {
      const trick = document.querySelector(".felt .trick");
      if (trick) revealAbove(trick, row);
    };
    // Whether the keyboard is what moves in the hand, told by the row itself (`data-keys`, style: cards.css):
    // the browser's :focus-visible guess lost the ring on a card the page focused after a keyed play (once in
    // a few runs), and a mouse's press takes it away again.
    row.addEventListener("keydown", (event) => { row.dataset.keys = ""; moveFocus(event, row); showTrick(); });
    row.addEventListener("pointerdown", () => { delete row.dataset.keys; });
    row.addEventListener("focusin", (event) => {
      rove([...row.querySelectorAll("button")], event.target);
      if (row.dataset.keys !== undefined || event.target.matches(":focus-visible")) showTrick();
    });
    state.handRow = row;
  }
  state.handRow.style.setProperty("--cards", String(cards.length)); // for the overlap on a phone (style.css)
  state.handRow.style.setProperty("--gaps", String(Math.max(cards.length - 1, 1)));
  fill(state.handRow, cards);
  return state.handRow;
}

/**
 * It has just become this seat's turn: bring what it needs on screen (the hand stays at the bottom of the
 * screen by itself, style.css): to play, the felt (the seats and the trick) down to the prompt; asked a
 * question, the question, with the last hand's results above it from their headline (a phone's: a desktop
 * has them in the side column). Nothing moves when that is already in view; a move stops at a clean edge
 * (`cleanScroll`); at other times the page leaves the user's scrolling alone. `arriving`: the page has just
 * opened the table: when the question begins on screen (its title and a row of its controls) it scrolls no
 * further than puts the table's header (its name and buttons) at the window's top, even if the question's
 * end stays under the hand.
 */
export function bringIntoView(frame, phase, arriving = false) {
  const question = frame.querySelector(phase === "play" ? ".felt" : ".prompt .choice, .prompt");
  // The last hand's results shown above the question: from their headline down, the headline kept in view
  // even when the two do not fit the screen together (the question's bottom goes under the hand then).
  const results = phase === "play" ? null : frame.querySelector(".center .summary"); // a phone's
  const above = results && question && results.getBoundingClientRect().top < question.getBoundingClientRect().top;
  const first = above ? results : question;
  const last = frame.querySelector(".prompt");
  if (!first || !last) return;
  const floor = floorAbove(frame.querySelector(".hand"));
  const top = first.getBoundingClientRect().top;
  // What the prompt holds, not its box: on a desktop its row stretches down to the hand (style.css).
  const bottom = Math.max(top, ...[...last.children].map((el) => el.getBoundingClientRect().bottom));
  if (top >= 0 && bottom <= floor) return;
  if (arriving && phase !== "play" && scrollY === 0 && top >= 0 && top + 96 <= floor) {
    // Down only as far as keeps the table's header at the window's top: more of the question in view (its
    // last contract was half under a phone's hand), the table's name and buttons still there.
    const head = frame.querySelector(".table-head");
    const most = head ? head.getBoundingClientRect().top - 4 : 0;
    if (most > 0) window.scrollBy(0, Math.min(most, bottom - floor + 4));
    return;
  }
  const need = top < 0 ? top - 4 : Math.min(top - 4, bottom - floor + 4); // its bottom in view, never its top out of it
  window.scrollBy(0, cleanScroll(frame, need, bottom - floor, top));
}

/**
 * A scroll of `need` pixels (down when positive) moved to a clean edge when one will do, so that the
 * window's top does not cut through the page's bar or the table's header: of the scrolls that put the page's
 * top, the table's header or the felt at the window's top and keep what is brought into view in it (from
 * `low` to `high` pixels), the shortest; `need` itself when none does (it does not fit the screen).
 */
function cleanScroll(frame, need, low, high) {
  // Each edge as the scroll that puts it 4 pixels under the window's top (the page's top: all the way up).
  const edges = [-scrollY, ...[".table-head", ".felt"].map((s) => frame.querySelector(s)).filter(Boolean).map((el) => el.getBoundingClientRect().top - 4)];
  // Not past the page's end either: the browser would stop the scroll short of the edge.
  const end = document.documentElement.scrollHeight - innerHeight - scrollY;
  const clean = edges.filter((edge) => edge >= low && edge <= high && edge <= end).sort((a, b) => Math.abs(a) - Math.abs(b));
  return clean.length ? clean[0] : need;
}

/** The controls of the question asked (its first in the page's order takes the focus: `focusOnTurn`). */
const PROMPT_CONTROL = ".prompt button:not([disabled]), .prompt input:not([disabled])";

/** The hand's one Tab stop: `stop` takes the focus by Tab, the other `cards` only by the arrows. */
function rove(cards, stop) {
  for (const el of cards) el.tabIndex = el === stop ? 0 : -1;
}

/**
 * On the player's turn: to play, a keyboard user whose focus is in the hand is taken to the first playable
 * card; asked a question (`phase` contract, double, redouble), a focus in the hand or on the page itself goes
 * to the question's first control, so Tab does not go the long way round to it. A focus elsewhere (typing
 * in the chat) stays.
 */
export function focusOnTurn(frame, phase) {
  const active = document.activeElement;
  const inHand = Boolean(active && active.closest(".hand"));
  if (phase === "play") {
    if (!inHand || active.classList.contains("playable")) return;
    const first = frame.querySelector(".hand .playable");
    if (first) first.focus({ preventScroll: true });
    return;
  }
  if (!inHand && active && active !== document.body) return;
  const first = frame.querySelector(PROMPT_CONTROL);
  if (first) first.focus({ preventScroll: true });
}

/**
 * A draw took away the control the focus was on (a contract, trump suit or double chosen: its prompt is
 * gone), which left the focus on the page: it goes to the question asked next, else to the hand, so that a
 * keyboard user goes on from there rather than Tab from the top. `visible`: whether the lost focus showed
 * its ring (the keyboard's), which the new one does too.
 */
export function focusAfterPrompt(frame, visible) {
  if (frame.contains(document.activeElement)) return;
  const next = frame.querySelector(`${PROMPT_CONTROL}, .hand [tabindex='0']`);
  if (next) next.focus({ preventScroll: true, focusVisible: visible });
}

/** The hand's keys: the arrows step between its cards (the playable ones on the seat's turn), Home and End go to the first and last. */
function moveFocus(event, row) {
  const playable = [...row.querySelectorAll("button.playable")];
  const cards = playable.length ? playable : [...row.querySelectorAll("button")];
  if (!cards.length) return;
  const at = cards.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  const to = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1 : step ? (at + step + cards.length) % cards.length : null;
  if (to === null) return;
  event.preventDefault();
  cards[to].focus();
}
