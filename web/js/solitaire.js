// The solitaire screen: play (click a source, then a target; double-click sends a card home), undo, redo,
// hint, auto, new deal, resign; or watch someone else's game.
import { ask } from "./ask.js";
import { Kept, fill, h, redraw, tapWord } from "./dom.js";
import { randomSeed } from "./solitaire_picker.js";
import { layoutView, pileText } from "./solitaire_view.js";
import { cardText, cardsInText, countText, solitaireText } from "./words.js";

/** A hint's verdict on a deal that was never winnable. */
const LOST_FROM_START = "This deal cannot be won, from the start (the solver proved it): no move of yours lost it. You may still play it out, or deal again.";

/** What a click on a foundation says in a game where its cards never leave it. */
const FOUNDATION_STAYS = "Cards on a foundation stay there.";

/** Said when a hint is refused `busy` (docs/protocol.md: the workers are taken; ask again shortly). */
const BUSY_HINT = "The server is busy: try the hint again in a moment.";

const RESULTS = { won: "You won: every card is home!", lost: "Lost: no move was left.", resigned: "Resigned." };

/**
 * What the player reads of their finished game `view`: Pyramid is won once the pyramid is cleared, cards
 * left in the stock and waste or not (docs/rules/solitaire.md), so it does not say every card is home.
 */
export function resultText(view) {
  if (view.result === "won" && view.layout && view.layout.pyramid) return "You won: the pyramid is cleared!";
  return RESULTS[view.result];
}

/** The pile names a move touches: "t3>t5*2" -> ["t3", "t5"], "p7.1+w" -> ["p7.1", "w"], "s" -> ["s"]. */
export function movePiles(move) {
  return move.replace(/\*\d+$/, "").split(/[>+]/);
}

/** The rank that makes 13 with Pyramid's `card` (not a King), with its article: "a 7", "an 8", "a queen". */
function pairText(card) {
  const pair = 13 - (" A23456789TJQ".indexOf(card[0]));
  return { 1: "an ace", 8: "an 8", 11: "a jack", 12: "a queen" }[pair] || `a ${pair}`;
}

/** Whether Pyramid card `pile` ("p6.2") is still covered by a card of the row below (row r's card i lies
 *  under row r + 1's cards i and i + 1). */
function covered(layout, pile) {
  const match = /^p(\d+)\.(\d+)$/.exec(pile);
  if (!match) return false;
  const below = layout.pyramid[Number(match[1])];
  const at = Number(match[2]);
  return Boolean(below && (below[at - 1] || below[at]));
}

/** The question asked before an action that ends the unfinished game `view` (a new deal finishes it). */
export function endGameQuestion(view) {
  return `This ends your game in progress (${view.title}, ${countText(view.moves, "move")}). Start a new one?`;
}

const SEEN = "barbu.solitaire-seen"; // room -> what this browser last saw of it (to tell a finished game's end)

function remember(roomId, view) {
  try {
    const seen = JSON.parse(localStorage.getItem(SEEN) || "{}");
    delete seen[roomId];
    seen[roomId] = { title: view.title, moves: view.moves, result: view.result, player: view.player };
    const kept = Object.entries(seen).slice(-20); // the last few games are enough
    localStorage.setItem(SEEN, JSON.stringify(Object.fromEntries(kept)));
  } catch { /* storage full or off: the words below stay general */ }
}

/** Words for a link to solitaire room `roomId` that is no longer open (finished, and the lobby dropped it). */
function finishedText(roomId) {
  let seen = null;
  try {
    seen = JSON.parse(localStorage.getItem(SEEN) || "{}")[roomId] || null;
  } catch { /* nothing known */ }
  if (!seen) return `No solitaire game ${roomId} is open here: it has finished (a player has one game at a time, so starting another ends the one before), or the link is mistyped.`;
  const end = { won: "won", lost: "lost (no move was left)", resigned: "resigned" }[seen.result] || "ended when a new game was started";
  return `Game ${roomId} is finished: ${seen.title}, played by ${seen.player}, ${countText(seen.moves, "move")}, ${end}.`;
}

/** The solitaire screen for room `roomId`. */
export function solitaireScreen(app, roomId) {
  const { session, root } = app;
  // `hinted`: the notice is a hint's answer (a move, in the hint's green; without one, a verdict: lost, or none left).
  const state = { snapshot: null, view: null, pick: null, hint: null, hinted: false, thinking: false, notice: "" };
  // The control buttons, the board's cards and piles stay the same nodes from draw to draw: an Undo (or a
  // card) pressed as a hint's answer redraws the screen still lands.
  const kept = new Kept();
  const frame = h("div", { class: "solitaire-screen" });
  fill(root, frame);
  let closed = false;

  async function send(type, fields = {}) {
    state.notice = "";
    state.hint = null;
    state.hinted = false;
    try {
      return await session.request(type, { room: roomId, ...fields }, type === "hint"); // "Thinking about a hint…"
    } catch (failure) {
      if (failure.code === "illegal") state.notice = `Not allowed: ${solitaireText(failure.message, topCard)}`;
      // The server's workers were all taken (a storm of hints): said in words, not its queue's figures.
      else if (failure.code === "busy" && type === "hint") state.notice = BUSY_HINT;
      else state.notice = cardsInText(failure.message);
      draw();
      return null;
    }
  }

  function candidates(source, count, target) {
    const legal = state.view.legal;
    const exact = count > 1 ? `${source}>${target}*${count}` : `${source}>${target}`;
    const tries = [exact, `${source}+${target}`, `${target}+${source}`];
    if (target.startsWith("f")) tries.push(`${source}>f`);
    const found = tries.find((move) => legal.includes(move));
    if (found) return found;
    // An illegal move is sent all the same: the server says why (in Pyramid, why the two make no pair).
    if (state.view.layout.pyramid) return `${source}+${target}`;
    const runs = legal.filter((move) => move.startsWith(`${source}>${target}*`) || move === `${source}>${target}`);
    return runs.length === 1 ? runs[0] : exact;
  }

  function pick(pile, index, double) {
    if (!state.snapshot.seat || state.view.result) return;
    const legal = state.view.legal;
    const layout = state.view.layout;
    if (double) {
      if (legal.includes(`${pile}>f`)) send("move", { move: `${pile}>f` });
      state.pick = null;
      return;
    }
    if (pile === "s" && index === -1) { // the stock itself (not its face-up top card): turn it
      state.pick = null;
      send("move", { move: "s" });
      return;
    }
    if (!state.pick) {
      // A King alone (Pyramid); not the stock's top card (option stock-top), whose pile name "s" turns the stock.
      if (pile !== "s" && legal.includes(pile)) { send("move", { move: pile }); return; }
      if (layout.pyramid) {
        const card = topCard(pile);
        if (!card) return; // an empty waste: nothing to pair
        // A King pairs with nothing: one not removable alone is sent all the same, the server says why (on
        // the stock, "s" turns it onto the waste, where it is removed).
        if (card[0] === "K") { send("move", { move: pile }); return; }
        // A covered card pairs with nothing yet: it is sent alone at once, for the server to say which card
        // covers it, rather than picked and refused only at the next click.
        if (covered(layout, pile)) { send("move", { move: pile }); return; }
      }
      // A foundation is no move's source unless the game takes its top card back (option foundation-back):
      // not selected, to be refused only at the next click, but said at once.
      if (/^f\d+$/.test(pile) && !(state.view.options || {})["foundation-back"]) {
        state.notice = FOUNDATION_STAYS;
        state.hint = null;
        state.hinted = false;
        draw();
        return;
      }
      const column = pile.startsWith("t") ? layout.columns[Number(pile.slice(1)) - 1] : null;
      if (column && !column.length) return;
      state.pick = { pile, count: column ? column.length - index : 1, index };
      draw();
      return;
    }
    const from = state.pick;
    state.pick = null;
    if (from.pile === pile) { draw(); return; }
    send("move", { move: candidates(from.pile, from.count, pile) });
  }

  /** How the card at `index` of `pile` (-1: the empty pile itself) is marked: "pick", "hint-from", "hint-to" or "". */
  function marked(pile, index) {
    if (state.pick && state.pick.pile === pile) return (pile.startsWith("t") ? index >= state.pick.index : true) ? "pick" : "";
    if (!state.hint) return "";
    const { from, to } = hintMarks(state.hint);
    if (from.includes(pile)) return index === -1 || index >= hintStart(pile, state.hint) ? "hint-from" : "";
    if (pile === to || (to === "f" && pile === homeOf(from[0]))) return index === -1 || isTop(pile, index) ? "hint-to" : "";
    return "";
  }

  /** A hinted move's source piles and target ("t3>t5*2": t3 to t5; a Pyramid pair "p7.1+w": two sources). */
  function hintMarks(move) {
    const piles = movePiles(move);
    return move.includes(">") ? { from: [piles[0]], to: piles[1] } : { from: piles, to: null };
  }

  /** Where the hinted cards start in the source pile (a run "t3>t5*3": three from the top). */
  function hintStart(pile, move) {
    if (!pile.startsWith("t")) return 0;
    const count = Number((/\*(\d+)$/.exec(move) || [0, 1])[1]);
    return state.view.layout.columns[Number(pile.slice(1)) - 1].length - count;
  }

  /** The foundation pile ("f2") the top card of `source` goes to with a "source>f" move. */
  function homeOf(source) {
    const layout = state.view.layout;
    const card = topCard(source);
    if (!card || !layout.foundations) return null;
    const order = "A23456789TJQK";
    const at = layout.foundations.findIndex((pile) => pile.length
      ? pile[pile.length - 1][1] === card[1] && order.indexOf(pile[pile.length - 1][0]) + 1 === order.indexOf(card[0])
      : card[0] === "A");
    return at === -1 ? null : `f${at + 1}`;
  }

  function isTop(pile, index) {
    const layout = state.view.layout;
    if (pile.startsWith("t")) return index === layout.columns[Number(pile.slice(1)) - 1].length - 1;
    return true;
  }

  function topCard(pile) {
    const layout = state.view.layout;
    let cards = [];
    if (pile.startsWith("t")) cards = layout.columns[Number(pile.slice(1)) - 1];
    else if (/^f\d+$/.test(pile) && layout.foundations) cards = layout.foundations[Number(pile.slice(1)) - 1];
    else if (/^p\d+\.\d+$/.test(pile)) {
      const [row, at] = pile.slice(1).split(".").map(Number);
      cards = [layout.pyramid[row - 1][at - 1]].filter(Boolean);
    } else if (pile === "w") cards = layout.waste;
    else if (/^w\d+$/.test(pile)) cards = layout.waste[Number(pile.slice(1)) - 1];
    else if (pile === "s") cards = layout.stock_top ? [layout.stock_top] : [];
    return cards.length ? cards[cards.length - 1] : null;
  }

  function status() {
    const view = state.view;
    if (view.result) return h("p", { class: `result ${view.result}`, role: "status" }, state.snapshot.seat ? resultText(view) : `${view.player}: ${view.result}.`);
    if (!view.legal.length) return h("p", { class: "result stuck", role: "status" }, "No move is left: undo, or resign to finish the game.");
    return null;
  }

  function controls() {
    const view = state.view;
    if (!state.snapshot.seat) return h("p", {}, `You are watching ${view.player} play.`);
    const over = Boolean(view.result);
    // A finished game (won, lost, resigned) takes no move: its move buttons go, a new deal and the lobby stay.
    return kept.el("controls", "div", { class: "buttons controls" }, over ? null : [
      kept.button("undo", "Undo", () => send("undo"), { disabled: !view.can_undo }),
      kept.button("redo", "Redo", () => send("redo"), { disabled: !view.can_redo }),
      kept.button("hint", state.thinking ? "Thinking…" : "Hint", async () => {
        state.thinking = true; // the solver may take a moment: say so, and ask once
        state.pick = null;
        draw();
        const reply = await send("hint");
        state.thinking = false;
        if (reply) {
          state.hint = reply.move; // none for a verdict (lost, or no new move left)
          state.hinted = true;
          state.notice = hintWords(reply);
        }
        draw();
      }, { disabled: view.daily !== null || state.thinking, title: view.daily ? "no hints on the day's deal" : null, "aria-busy": state.thinking ? "true" : null, "aria-describedby": view.daily ? "no-daily-hints" : null }),
      kept.button("auto", "Auto", () => send("auto"), { title: "every safe move to the foundations" }),
      // Said, not only in the greyed button's tooltip, which a phone never shows.
      view.daily ? h("small", { class: "muted", id: "no-daily-hints" }, "No hints on the day's deal: everyone plays it alone.") : null],
      kept.button("new-deal", "New deal", async () => {
        if (!over && !(await ask(endGameQuestion(view), { yes: "Start a new one" }))) return;
        // A winnable deal's next one is winnable too (the server looks for one when no seed is given).
        const snap = await send("new-deal", view.winnable ? {} : { seed: randomSeed() });
        if (snap) app.go("solitaire", snap.room);
      }),
      over ? null : kept.button("Resign", "Resign", async () => { if (await ask("Give up this game?", { yes: "Resign" })) send("resign"); }),
      kept.button("Lobby", "Lobby", () => app.go("lobby")));
  }

  function draw() {
    if (closed || !state.view) return;
    const view = state.view;
    frame.dataset.draws = String(Number(frame.dataset.draws || 0) + 1); // a redraw is told, its nodes staying
    redraw(frame,
      h("header", { class: "table-head" },
        h("h1", {}, view.title),
        h("p", { class: "where" }, view.daily ? `The day's deal, ${view.daily}` : view.seed !== null ? `Deal ${view.seed}` : "A random deal",
          view.winnable ? " · winnable" : "",
          ` · ${countText(view.moves, "move")} · played by ${view.player}`)),
      controls(),
      status(),
      message(),
      layoutView(view.layout, pick, marked, kept));
    kept.sweep(); // a card gone from a pile, a button a finished game no longer shows, are let go
  }

  /** The line above the board (the move half made, a hint being thought of, a notice): its room is kept
   *  when it is empty, so that the board never moves between the two clicks of a move. */
  function message() {
    let line = null;
    if (state.pick) line = h("p", { class: "muted" }, pickText(state.pick.pile));
    else if (state.thinking) line = h("p", { class: "thinking", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), "Thinking about a hint…");
    // A hint's green is for a move to make; a verdict without one (lost, no new move left) is said plainly.
    else if (state.notice) line = h("p", { class: state.hinted ? (state.hint ? "hint" : "verdict") : "error", role: "alert" }, state.notice);
    else if (state.snapshot.seat && !state.view.result) line = h("p", { class: "muted how" }, howText());
    return h("div", { class: "message-line" }, line);
  }

  /** What the first click of a move asks for next: where it goes, or in Pyramid the card making 13 with it. */
  function pickText(pile) {
    const card = state.view.layout.pyramid ? topCard(pile) : null;
    if (!card) return `Moving from ${pileText(pile)}: now ${tapWord()} where it goes.`;
    return `Selected ${cardText(card)}: now ${tapWord()} ${pairText(card)} to make 13 with it.`;
  }

  /** What to do, in the line's room while nothing else is said there (a new deal does not open on a blank). */
  function howText() {
    const tap = tapWord();
    const pyramid = state.view.layout.pyramid;
    // Two lines at most on a phone: the room kept for the line (style.css) must hold it.
    if (pyramid) return `${tap === "tap" ? "Tap" : "Click"} two free cards that make 13 to remove them (a King alone).`;
    return `${tap === "tap" ? "Tap" : "Click"} a card, then where it goes; a double ${tap} sends a card to its foundation.`;
  }

  function hintWords(reply) {
    switch (reply.status) {
      case "sure": return `Hint: ${hintText(reply.move)}; following the hints wins this game.`;
      case "guess": return `Hint: no sure win found; a reasonable move: ${hintText(reply.move)}.`;
      // A verdict, not a move: the legal moves left may still be played, so it does not forbid them.
      // Whether undo helps: the deal lost from the start (no move lost it), or the moves back to a
      // position the solver proved winnable, or neither known (its time ran out).
      case "lost":
        if (reply.from_start || state.view.moves === 0) return LOST_FROM_START;
        if (reply.undo) return `Your moves lost this game: undo ${countText(reply.undo, "move")} to get back to a position that can be won, or play it out.`;
        return "This game can no longer be won from here (the solver proved it), and it could not tell in time whether it ever could: you may undo and ask again, or play it out.";
      // The engine's words (engine/solitaire/hints.py NO_NEW_MOVE), as the terminal client says them.
      case "none": return "Hint: no new move left: every move left goes back to an earlier position, puts a card back where it was, or leads into a lost one. Undo to go back.";
      default: return reply.move ? `Hint: ${hintText(reply.move)}.` : "No move is left.";
    }
  }

  /** The hinted move in words, with its cards: "move 6♠ from column 4 onto 7♠ in column 5". */
  function hintText(move) {
    if (move === "s") return "turn the stock";
    const piles = movePiles(move);
    const named = (pile, card = topCard(pile)) => (card ? `${cardText(card)} (${pileText(pile)})` : pileText(pile));
    if (move.includes("+")) return `remove ${piles.map((pile) => named(pile)).join(" and ")}`;
    if (piles.length === 1) return `remove ${named(piles[0])}`;
    const [from, to] = piles;
    const column = from.startsWith("t") ? state.view.layout.columns[Number(from.slice(1)) - 1] : null;
    const moving = column ? column[hintStart(from, move)] : topCard(from);
    const count = column ? column.length - hintStart(from, move) : 1;
    const what = moving ? `${cardText(moving)}${count > 1 ? ` and the ${countText(count - 1, "card")} on it` : ""}` : "the card";
    if (to === "f") return `move ${what} from ${pileText(from)} to its foundation`;
    const onto = topCard(to);
    return `move ${what} from ${pileText(from)} ${onto ? `onto ${cardText(onto)} in` : "to the empty"} ${pileText(to)}`;
  }

  function take(snapshot) {
    state.snapshot = snapshot;
    state.view = snapshot.view;
    remember(roomId, snapshot.view);
    draw();
  }

  /**
   * An action's `update` (docs/protocol.md, "Version 2"): its view keys merged into the view held. One
   * already taken is dropped; one that does not follow the last taken (an `auto` of several actions has the
   * last one's seq, one event each) means some were missed: the room's snapshot is asked again.
   */
  function advance(update) {
    if (!state.snapshot || update.seq <= state.snapshot.seq) return;
    const follows = update.seq === state.snapshot.seq + 1 || update.seq === state.snapshot.seq + (update.events || []).length;
    if (!follows) {
      session.request("snapshot", { room: roomId }).then(take, () => {});
      return;
    }
    state.snapshot = { ...state.snapshot, seq: update.seq };
    state.view = { ...state.view, ...update.view };
    remember(roomId, state.view);
    draw();
  }

  async function join() {
    const { rooms } = await session.request("list-rooms");
    const room = rooms.find((r) => r.room === roomId);
    const mine = room && room.players.player === session.name;
    try {
      take(await session.request(mine ? "sit" : "watch", { room: roomId }));
    } catch (failure) {
      const words = failure.code === "no-such-room" ? finishedText(roomId) : `Cannot open game ${roomId}: ${failure.message}`;
      fill(frame, h("div", { class: "panel" }, h("p", { role: "alert" }, words), h("a", { href: "#lobby" }, "Back to the lobby")));
    }
  }

  join();
  return {
    title: "Barbu — solitaire",
    /** Where the rules panel opens (rules.js): at the game played here. */
    rules: () => ({ doc: "solitaire", title: (state.view && state.view.title) || null }),
    onPush(message) {
      if (message.room !== roomId) return;
      if (message.type === "snapshot") take(message);
      else if (message.type === "update") advance(message);
    },
    onReconnect() { join(); },
    unmount() { closed = true; },
  };
}
