// What the seat to act is asked: the contract (with trump suit or starting rank), the doubles (with the
// doubles owed and the must-double rule), the redoubles, or a card (or a pass in Dominoes). Others are told
// whom the table waits for.
import { SUIT_ORDER } from "./cards.js";
import { countdown } from "./clock.js";
import { h, revealAbove, tapWord } from "./dom.js";
import { CONTRACTS, PHASE_WORDS, RANKS, SEATS, SEAT_NAMES, SUIT_NAMES, SUIT_SYMBOLS, cardsInText, contractText, listText, playerText, rankText } from "./words.js";

/**
 * Before the start, every seat taken but a player away (their seat kept for them a while): whom the match
 * waits for ("Waiting for ann to come back"), not "fill the empty seats" when none is empty. Null otherwise.
 */
export function awayBeforeStart(snap) {
  if (snap.state !== "waiting" || SEATS.some((seat) => !snap.players[seat]) || !snap.away.length) return null;
  return `Waiting for ${listText(snap.away.map((seat) => playerText(snap.players[seat])))} to come back`;
}

/** The prompt area's content for the current state. */
export function prompt(state, actions) {
  const snap = state.snapshot;
  const view = snap.view;
  if (!view) {
    const away = awayBeforeStart(snap);
    return snap.seat ? h("p", {}, away ? `${away}: the match starts once all four are at the table.` : "Fill the empty seats (friends or bots) to start.") : null;
  }
  if (view.phase === "over") {
    // Its player watches the seat a stand-in played to the end: said, or the ranking would seem theirs.
    return h("p", {}, "The match is over.", state.standin ? ` A stand-in bot played your seat (${SEAT_NAMES[snap.seat]}) to the end.` : "");
  }
  if (snap.paused) return pausedLine();
  const mine = snap.seat && view.to_move === snap.seat && view.legal;
  if (!mine) {
    // The player's own seat, a stand-in bot playing it meanwhile (state.standin): not "Waiting for you".
    const standin = state.standin && view.to_move === snap.seat;
    const who = standin ? "the stand-in bot playing your seat" : view.to_move ? `${SEAT_NAMES[view.to_move]} (${playerText(snap.players[view.to_move])})` : "";
    const doing = PHASE_WORDS[view.phase] || "";
    return h("p", {}, `Waiting for ${who} ${doing}.`);
  }
  if (view.phase === "contract") return contractChooser(state, actions);
  if (view.phase === "double") return doubling(state, actions, "double");
  if (view.phase === "redouble") return doubling(state, actions, "redouble");
  const pass = view.legal.find((a) => a.action === "pass");
  const kept = state.kept; // the line and its Pass stay the same nodes while pushes redraw the table
  return kept.el("your-turn", "p", { class: "your-turn" }, pass
    ? ["You have no card to play: ", kept.button("pass", "Pass", () => actions.act({ action: "pass" }), { class: "primary" })]
    : tapWord() === "tap" ? "Your turn: play a highlighted card (tap it)." : "Your turn: play a highlighted card (click it; or Tab to the hand, choose with the arrow keys, press Enter).");
}

/** A match none of whose players is connected waits for them (the server pauses it): what a watcher reads. */
export function pausedLine() {
  return h("p", { class: "paused", role: "status" }, h("b", {}, "Paused: nobody at the table. "),
    "None of its players is connected; the match goes on where it was when one of them comes back.");
}

/**
 * The declarer's choice of contract, then of the trump suit or the starting rank. Its buttons and the boxes
 * they sit in are kept (`state.kept`): a press whose release comes after a push redrew the table still
 * chooses.
 */
function contractChooser(state, actions) {
  const kept = state.kept;
  const legal = state.snapshot.view.legal;
  const names = [...new Set(legal.map((a) => a.contract))];
  const sub = state.contractPick;
  if (sub === "trumps") {
    // In the order the hand is sorted (♠ ♥ ♣ ♦), so the suit looked at in the hand is found at the same place.
    const trumps = legal.filter((a) => a.contract === "trumps").sort((a, b) => SUIT_ORDER[a.trump] - SUIT_ORDER[b.trump]);
    return choiceBox("trumps", "Trumps: choose the trump suit", trumps.map((a) =>
      kept.button(`trump-${a.trump}`, [h("span", { "aria-hidden": "true" }, SUIT_SYMBOLS[a.trump]), ` ${SUIT_NAMES[a.trump]}`], () => { state.contractPick = null; actions.act(a); }, { class: `suit-${a.trump}`, "aria-label": contractText("trumps", a.trump, null) })), state, actions);
  }
  if (sub === "dominoes") {
    const ranks = legal.filter((a) => a.contract === "dominoes").sort((a, b) => RANKS.indexOf(a.start_rank) - RANKS.indexOf(b.start_rank));
    return choiceBox("dominoes", "Dominoes: choose the starting rank", ranks.map((a) =>
      kept.button(`rank-${a.start_rank}`, rankText(a.start_rank), () => { state.contractPick = null; actions.act(a); }, { "aria-label": contractText("dominoes", null, a.start_rank) })), state, actions,
    h("p", { class: "explain" }, "Each suit's row must be opened with the card of this rank; then a row grows one rank at a time, up towards the ace and down towards the 2. ",
      "You play first. Whoever cannot play passes; the first out of cards scores most."));
  }
  return kept.el("contract-choice", "div", { class: "choice", role: "group", "aria-labelledby": "contract-title" },
    // The turn's clock in the question too (a first-timer at a 15 s table looked at the contracts, not the seat).
    h("h2", { id: "contract-title" }, "You declare: choose the contract", countdown(state, { "aria-hidden": "true" })),
    kept.el("contracts", "div", { class: "contracts" }, names.map((name) => kept.button(`contract-${name}`,
      [h("b", {}, CONTRACTS[name][0]), h("small", {}, CONTRACTS[name][1])],
      () => {
        if (name === "trumps" || name === "dominoes") { state.contractPick = name; actions.redraw(); } else actions.act({ action: "contract", contract: name });
      },
      { class: "contract", "data-contract": name }))),
    // A contract declared already is gone from the list: said, or it seems lost (docs/rules/barbu.md).
    playedContracts(names));
}

/** The contracts the declarer has declared already (those not in `left`, the names offered), said, or null. */
function playedContracts(left) {
  const played = Object.keys(CONTRACTS).filter((name) => !left.includes(name)).map((name) => CONTRACTS[name][0]);
  return played.length ? h("p", { class: "muted played-contracts" }, `Declared already: ${listText(played)}. Each player declares each of the seven contracts once.`) : null;
}

/** The second step of a contract (`key`: "trumps", "dominoes"): its kept box, its `buttons` and Back. */
function choiceBox(key, title, buttons, state, actions, explain = null) {
  const kept = state.kept;
  return kept.el(`${key}-choice`, "div", { class: "choice", role: "group", "aria-label": title },
    h("h2", {}, title, countdown(state, { "aria-hidden": "true" })),
    explain,
    kept.el(`${key}-buttons`, "div", { class: "buttons" }, buttons),
    kept.button("back", "Back", () => { state.contractPick = null; actions.redraw(); }));
}

/** sessionStorage key of the boxes ticked in the doubling dialog shown: `{room, seq, seats}`. */
const TICKED = "barbu.ticked";

/** The seats ticked in this tab before a reload, when the table is still at the same action (`snap.seq`). */
function tickedBefore(snap) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(TICKED) || "null");
    return kept && kept.room === snap.room && kept.seq === snap.seq && Array.isArray(kept.seats) ? kept.seats : [];
  } catch {
    return [];
  }
}

/** Keep the ticks of the dialog shown (`picked`, a Set of seats) for a reload of this tab at this action. */
function keepTicked(snap, picked) {
  try {
    sessionStorage.setItem(TICKED, JSON.stringify({ room: snap.room, seq: snap.seq, seats: [...picked] }));
  } catch { /* storage full or refused: the ticks go with a reload */ }
}

/**
 * The doubling (`kind` "double") or redoubling dialog of the seat to act. Its boxes, buttons and the boxes
 * they sit in are kept (`state.kept`), so a tick or a press straddling a redraw lands; what is ticked lives
 * in `state.targetsPick`, read when a box changes.
 */
function doubling(state, actions, kind) {
  const kept = state.kept;
  const snap = state.snapshot;
  const view = snap.view;
  const me = snap.seat;
  const targets = kind === "double" ? view.double_targets : [...new Set(view.legal.flatMap((a) => a.targets))];
  // The must-double rule: the declarer is ticked, and stays ticked (the server would refuse the double without).
  const forced = kind === "double" && view.must_double ? view.declarer : null;
  const chosen = state.targetsPick || (state.targetsPick = new Set([...(forced ? [forced] : []), ...tickedBefore(snap).filter((seat) => targets.includes(seat))]));
  const boxes = targets.map((seat) => {
    const locked = seat === forced;
    const box = kept.el(`target-${seat}`, "input", {
      type: "checkbox", "data-focus": `target-${seat}`, "data-seat": seat, disabled: locked, "aria-describedby": locked ? "must-note" : null,
      on: { change: () => { // made once for the kept box: the ticks of the dialog now shown
        const picked = state.targetsPick || (state.targetsPick = new Set());
        if (box.checked) picked.add(seat); else picked.delete(seat);
        keepTicked(state.snapshot, picked); // the box may outlive the draw that made it
        state.refusal = "";
      } },
    });
    box.checked = chosen.has(seat); // the property: the attribute says only how a fresh box starts
    return kept.el(`target-label-${seat}`, "label", { class: "check" }, box, ` ${SEAT_NAMES[seat]}: ${playerText(snap.players[seat])}${seat === view.declarer ? ", the declarer" : ""}${locked ? " (must be doubled)" : ""}`);
  });
  const notes = [];
  if (kind === "double") {
    const declarer = SEAT_NAMES[view.declarer];
    const only = view.contract === "trumps" || view.contract === "dominoes" ? " (in Trumps and Dominoes only the declarer may be doubled)" : "";
    notes.push(h("p", {}, `${contractText(view.contract, view.trump, view.start_rank)} by ${declarer}${only}.`));
    notes.push(owedLine(kept, view, me));
    if (view.must_double) notes.push(h("p", { class: "must", id: "must-note" }, mustDoubleText(view, me, `${declarer} (${playerText(snap.players[view.declarer])})`)));
  } else {
    const by = view.doubles.filter(([, b]) => b === me).map(([a]) => SEAT_NAMES[a]);
    // The contract is named here too: on a phone the header that names it has scrolled away.
    notes.push(h("p", {}, `${contractText(view.contract, view.trump, view.start_rank)} by ${SEAT_NAMES[view.declarer]}.`));
    notes.push(h("p", {}, `Doubled by ${by.join(", ")}: redouble them to double the stakes again.`));
  }
  const submit = () => {
    const wanted = [...chosen].sort();
    if (!wanted.length) { // nothing ticked: say so here rather than send a double of nobody by this button
      state.refusal = kind === "double" ? "Tick the players you double, or choose “No double”." : "Tick the players you redouble, or choose “No redouble”.";
      if (!view.legal.some((a) => a.targets.length === 0)) state.refusal = `Tick the players you ${kind}.`;
      actions.redraw();
      const line = document.querySelector(".refusal");
      if (line) line.scrollIntoView({ block: "nearest" });
      return;
    }
    const found = view.legal.find((a) => [...a.targets].sort().join() === wanted.join());
    state.targetsPick = null;
    if (found) actions.act(found);
    else actions.act({ action: kind, targets: wanted }); // the server says which rule it breaks
  };
  return kept.el("double-choice", "div", { class: "choice", role: "group", "aria-labelledby": "double-title" },
    h("h2", { id: "double-title" }, kind === "double" ? "Doubling: whom do you double?" : "Redoubling", countdown(state, { "aria-hidden": "true" })),
    notes,
    kept.el("targets", "div", { class: "targets" }, boxes),
    kept.el("double-buttons", "div", { class: "buttons" },
      kept.button("submit-double", kind === "double" ? "Double the ticked players" : "Redouble the ticked players", submit, { class: "primary" }),
      view.legal.some((a) => a.targets.length === 0)
        ? kept.button("no-double", kind === "double" ? "No double" : "No redouble", () => { state.targetsPick = null; actions.act({ action: kind, targets: [] }); })
        : null));
}

/** "once", "twice", "3 times". */
function timesText(n) {
  return n === 1 ? "once" : n === 2 ? "twice" : `${n} times`;
}

/**
 * Why `me` must double the declarer (`who`, named) this hand, in numbers: "You must double West (ann) this
 * hand: you must double them twice more this match, and this is one of the last 2 hands they declare."
 * (docs/rules/barbu.md, Doubling 4: the doubles still owed are as many as the hands left to declare).
 */
function mustDoubleText(view, me, who) {
  const owed = view.doubles_owed[me] || 0;
  const left = (view.contracts_left[view.declarer] || []).length + 1; // this hand's contract is chosen
  const last = left === 1 ? "this is the last hand they declare" : `this is one of the last ${left} hands they declare`;
  return `You must double ${who} this hand: you must double them ${timesText(owed)} more this match, and ${last}.`;
}

/**
 * The doubles the seat still owes the declarer, with the must-double rule in plain words behind a "Why?"
 * (docs/rules/barbu.md, Doubling 4): a newcomer is told what "owe" means where the word is shown.
 */
function owedLine(kept, view, me) {
  const owed = view.doubles_owed[me] || 0;
  const declarer = SEAT_NAMES[view.declarer];
  const still = owed ? `You must double ${declarer} ${timesText(owed)} more this match.` : `You have doubled ${declarer} twice already, as the match asks.`;
  // Kept: "Why?" pressed as the table redraws still opens, and stays open through the redraws after. Its
  // words push the dialog's buttons down, under the hand at the bottom of a desktop's screen: opened, the
  // page scrolls them back into view (the toggle made once, with the kept box).
  const why = kept.el("owed", "details", { class: "why", "aria-label": "doubles you must still make, and why", on: { toggle: () => {
    const buttons = why.closest(".choice") && why.closest(".choice").querySelector(".buttons");
    if (why.open && buttons) revealAbove(buttons, document.querySelector(".hand"));
  } } },
    kept.el("owed-summary", "summary", {}, h("span", {}, still), " ", h("span", { class: "why-link" }, "Why?")),
    h("p", {}, `A double is a side bet with one player on who scores better this hand. The rule: over the seven hands ${declarer} declares, `,
      `each other player must double ${declarer} at least twice. Once the doubles you must still make are as many as the hands ${declarer} has left to declare, you must double them in each: their box comes ticked.`));
  return why;
}

/**
 * What happened to the player's seat while they were away (freed at a waiting table, taken by a bot when
 * their turn sat idle), with the button that sits them again; a refusal of that `sit` is told inside it.
 */
export function offerBox(state) {
  const offer = state.offer;
  // Over, no seat is to be taken back: an offer set by a `removed` push handled as the match ended goes.
  if (!offer || (state.snapshot && state.snapshot.state === "over")) return null;
  const kept = state.kept;
  // Kept (box, text, button): the button under the pointer stays the same node while pushes redraw the
  // table; one sit at a time, the button given back once the sit is answered.
  const sit = offer.label ? kept.button("offer", offer.label, async () => {
    if (sit.disabled) return;
    sit.disabled = true;
    try {
      await offer.act();
    } finally {
      sit.disabled = false;
    }
  }, { class: "primary" }) : null;
  return kept.el("offer-box", "div", { class: "offer", role: "alert" },
    kept.el("offer-text", "p", {}, offer.text), sit, noticeLine(state, "offer"));
}

/**
 * A refusal of a request made by the control at `where` ("seat-E", "chat"; null: the table as a whole),
 * shown next to that control so it is in view where the player is looking (on a phone too).
 */
export function noticeLine(state, where) {
  if (!state.notice || (state.noticeAt || null) !== where) return null;
  // Most notices are refusals; one that says a thing was done (`noticeDone`, while it is the notice) is not
  // drawn in the refusals' red, which reads as "it failed".
  const done = state.noticeDone === state.notice;
  return h("p", { class: done ? "done notice" : "error notice", role: done ? "status" : "alert" }, state.notice);
}

/** A refusal of the seat's last action, shown by the control that caused it (in view on a phone too). */
export function refusalLine(state) {
  if (!state.refusal) return null;
  return h("p", { class: "error refusal", role: "alert" }, state.refusal);
}

/**
 * A table's refusal in people's words: seat letters become seat and player names ("W must double the declarer
 * E" -> "You must double the declarer East (Bea)"), card codes become cards.
 */
export function refusalText(message, snap) {
  const named = String(message)
    .replace(new RegExp(`^${snap.seat || "-"}\\b (\\w)`), (_, first) => `You ${first}`)
    .replace(/\b([NESW])\b(?![♠♥♦♣])/g, (_, seat) => seat === snap.seat ? "you"
      : snap.players[seat] ? `${SEAT_NAMES[seat]} (${playerText(snap.players[seat])})` : SEAT_NAMES[seat]);
  return cardsInText(named);
}

/** The words for each card rule of the view's `unplayable` (docs/protocol.md, "Error codes"), from the view. */
const UNPLAYABLE = {
  "must-follow-suit": (view) => {
    const led = view.trick.cards[0].slice(-1);
    return `You must follow suit: play one of your ${SUIT_NAMES[led]} ${SUIT_SYMBOLS[led]}.`;
  },
  "must-ruff": (view) => `You cannot follow suit and hold a trump: play one of your ${SUIT_NAMES[view.trump]} ${SUIT_SYMBOLS[view.trump]}.`,
  "must-overtrump": () => "You can beat the trumps played: play a higher trump.",
  "hearts-lead": () => "Hearts may not be led yet: lead another suit.",
  "king-of-hearts-lead": () => "The K♥ may not be led while you hold other cards.",
  "not-playable": () => "That card does not fit a row yet: play a highlighted card.",
};

/**
 * Why the seat's `card` (text, "QS") cannot be played now, said when it is clicked or tapped (it did
 * nothing before): not the seat's turn (the prompt above says whom the table waits for), a question to
 * answer first, or the rule the server names for it in the view's `unplayable` (card -> rule code: the suit
 * led to follow, a Dominoes row it does not fit...), else the highlighted cards.
 */
export function unplayableText(state, card) {
  const snap = state.snapshot;
  const view = snap.view;
  if (state.standin) return "A stand-in bot plays your seat: take your seat back to play.";
  // Whom the table waits for is said just above, in the prompt ("Waiting for East (bob) to play."): not twice.
  if (view.to_move !== snap.seat) return "Not your turn yet.";
  if (view.phase !== "play") return "Answer the question above first: the cards are played after it.";
  const rule = view.unplayable && UNPLAYABLE[view.unplayable[card]];
  return rule ? rule(view) : "That card cannot be played now: play a highlighted card.";
}
