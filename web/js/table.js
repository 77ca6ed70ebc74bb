// The Barbu table screen: joins the room (its seat back, or watching), and redraws. It is a reducer over the
// server's messages (docs/protocol.md, "Version 2"): a snapshot, then one `update` per action, whose view keys
// are merged into the view held and whose events are told; it asks for a snapshot again only on coming back
// (`since`: the updates missed come with it, and what a bot played for the seat meanwhile is told from them)
// or when an update's seq says one was missed. The engine decides what a seat may see.
import { Kept, button, fill, h } from "./dom.js";
import { finishedRanking, lastScored } from "./table_score.js";
import { replaySheet } from "./replay.js";
import { refusalText } from "./table_prompt.js";
import { PHONE, bringIntoView, focusAfterPrompt, focusOnTurn, renderTable, tickClocks } from "./table_view.js";
import { missedPlaysText } from "./missed_plays.js";
import { timerPlayText, timerSeat } from "./timer_plays.js";
import { forgetWaitingSeat, freedText, keepWaitingSeat, waitingSeat } from "./waiting_seat.js";
import { PHASE_WORDS, SEAT_NAMES } from "./words.js";
import { TURN_TITLE, noticeTurn } from "./turn_notice.js";
import { TAKEN_REQUEST } from "./session.js";
import { chatInView, mergeChat } from "./chat.js";
import { ask } from "./ask.js";

/** The tab's title at a table (but while it is the player's turn: `TURN_TITLE`). */
const TITLE = "Barbu — table";

/** The table screen for room `roomId` (from #table=ID: the lobby or an invite link). */
export function tableScreen(app, roomId) {
  const { session, root } = app;
  const state = {
    room: roomId, me: session.name, snapshot: null, summary: null, turnSeq: -1, clock: null,
    scored: null, dismissed: 0, flash: null, chat: [], chatUnread: 0, notice: "", noticeAt: null, noticeDone: "", sheetOpen: false, standins: [], watchers: [], standinAt: {}, freedAt: {},
    summaryOpen: null, handCards: null, handRow: null, // the hand's card buttons, kept from draw to draw
    awayPlays: null, // what a stand-in or the turn timer played for this seat in the updates missed while away
    kept: new Kept(), // the felt, the seats and their buttons, the prompt area: the same nodes from draw to draw
    offer: null, // { text, label, act }: what happened to the player's seat while away, and the button to sit again
    idle: null, // { seq, seat, until }: when a stand-in takes the idle seat to move (`idle_left_ms`)
    lastTrick: null, // the number of the hand's latest trick-won, for the summary of a hand that stopped early
    timerPlay: null, // { text, mine, hand | standin }: what the turn timer last played for a seat, or a seat's idle hand-over
    standin: false, // a stand-in bot plays this player's seat, which they watch from it (standinSeat)
  };
  const frame = h("div", { class: "table-screen" });
  fill(root, frame);
  let resyncing = false; // a `snapshot` asked after a missed update, not yet answered
  let closed = false;
  let early = null; // a `players` push that came before the first snapshot: kept for when it comes

  // A request that failed because the connection dropped is told in the status line's words, never as the
  // raw "connection closed"; the reconnect (onReconnect) clears it.
  // Taken over by another tab, the session's own words say so ("taken": it does not try again by itself).
  const LOST = "Connection lost: trying again…";
  const CHAT_TEXT_REFUSED = "A chat line is made of letters you can see: invisible and direction characters (like U+202E) are not allowed.";
  const seatTaken = (seat) => `Someone sat at ${SEAT_NAMES[seat] || seat} just before you: pick another free seat.`;
  const SEATS_TAKEN = "Every seat was taken just before you: you can watch the match from here.";
  const failed = (failure) => (failure.code === "closed" ? LOST : failure.message);
  const connectionLost = (failure) => failure.code === "closed" || failure.code === "taken";

  const actions = {
    // `at`: where the control that sent it is ("seat-E", "chat"): a refusal is told there, in view.
    request: async (type, fields, at = null) => {
      state.notice = "";
      state.noticeAt = null;
      try {
        return await session.request(type, { room: roomId, ...fields });
      } catch (failure) {
        state.notice = connectionLost(failure) || !state.snapshot ? failed(failure)
          // A chat line's own words refused (a control or direction character): said as the name form says it.
          : at === "chat" && failure.field === "text" ? CHAT_TEXT_REFUSED
          // Someone sat down first (the page had not heard yet): said plainly, not as the server's "seat W".
          : type === "sit" && failure.code === "seat-taken" ? (fields.seat ? seatTaken(fields.seat) : SEATS_TAKEN)
          : refusalText(failure.message, state.snapshot);
        state.noticeAt = at;
        draw();
        const line = frame.querySelector(".notice");
        if (line) line.scrollIntoView({ block: "nearest" });
        return null;
      }
    },
    act: async (action) => {
      // A refused action is told by the control that sent it (the prompt), in people's words.
      state.refusal = "";
      state.awayPlays = null; // playing on: what was played while away is old news
      state.timerPlay = null; // and so is what the timer played for anyone
      try {
        return await session.request("act", { room: roomId, seat: state.snapshot.seat, action });
      } catch (failure) {
        state.refusal = connectionLost(failure) ? failed(failure) : refusalText(failure.message, state.snapshot);
        draw();
        const line = frame.querySelector(".refusal");
        if (line) line.scrollIntoView({ block: "nearest" });
        return null;
      }
    },
    sit: async (seat) => { const snap = await actions.request("sit", { seat }, `seat-${seat}`); if (snap) take(snap); },
    // The button of an offer: sit at `seat` (its old seat when free, else any), told at the offer on refusal.
    sitAgain: async (seat) => {
      const snap = await actions.request("sit", { seat: seat || null }, "offer");
      if (snap) take(snap);
    },
    dismiss: () => {
      state.dismissed = state.scored ? state.scored.hand_number : 0;
      draw(); // the summary's Close is gone: the focus goes on to the question asked or the hand
    },
    redraw: () => draw(),
    leave: async () => {
      forgetWaitingSeat(session.name, roomId); // left on purpose: nothing to tell on coming back
      // but what the stand-in, which takes the seat at once, played meanwhile (the updates missed `since`)
      await actions.request("leave", {});
      app.go("lobby");
    },
    lobby: () => app.go("lobby"),
    rematch: async () => {
      const created = await actions.request("rematch", {});
      if (created) state.rematch = created.room;
      if (created && state.snapshot.seat) await actions.joinRematch();
    },
    // A player takes their kept seat there first; a watcher, or a seat no longer to be taken (the next match
    // of four bots may be played out already), just goes and watches.
    joinRematch: async () => {
      const lost = await goToRematch(state.rematch, Boolean(state.snapshot && state.snapshot.seat));
      if (lost) { state.notice = lost; draw(); }
    },
  };

  /** Go to rematch table `room`, taking the kept seat there first when `seated`; the words of a lost
   * connection (nothing done), or "" once gone. */
  async function goToRematch(room, seated) {
    if (seated) {
      try {
        await session.request("sit", { room });
      } catch (failure) {
        if (connectionLost(failure)) return failed(failure);
      }
    }
    app.go("table", room);
    return "";
  }

  function draw() {
    if (closed || !state.snapshot) return;
    const active = document.activeElement;
    const had = frame.contains(active);
    const visible = had && active.matches(":focus-visible");
    renderTable(frame, state, actions);
    if (had) focusAfterPrompt(frame, visible); // its control gone with the question answered: not to the page
  }

  function take(sent) {
    const standin = standinSeat(sent);
    const snapshot = standin ? { ...sent, seat: standin } : sent;
    if (state.snapshot && snapshot.seq < state.snapshot.seq && snapshot.state === state.snapshot.state) return;
    state.standin = Boolean(standin);
    if (!state.snapshot || snapshot.seq !== state.snapshot.seq) {
      state.targetsPick = null; // a choice half made belongs to the position it was made in
      state.contractPick = null;
      if (state.snapshot) state.refusal = "";
    }
    const first = !state.snapshot;
    state.snapshot = snapshot;
    session.saw(roomId, snapshot.seq);
    // A seat at a waiting table is remembered, to tell its player on coming back if it was freed meanwhile.
    if (snapshot.seat && snapshot.state === "waiting") {
      keepWaitingSeat(session.name, roomId, snapshot.seat, snapshot.name, state.summary ? state.summary.grace : null);
    } else if (snapshot.seat || snapshot.state !== "waiting") forgetWaitingSeat(session.name, roomId);
    // Seated again, or the match over (no seat left to take back, no match to start without them): the offer
    // is done with; while a stand-in plays the seat, it says so, with the button that takes the seat back.
    if ((snapshot.seat && !state.standin) || snapshot.state === "over") state.offer = null;
    else if (state.standin && !state.offer) standinOffer(snapshot.seat);
    // Back at the seat (the page opened, or the connection back): what a stand-in or the turn timer played
    // for it meanwhile is said, from the updates missed (a snapshot asked `since` the last one taken).
    if (snapshot.seat && !state.standin && snapshot.view && snapshot.view.phase !== "over") {
      state.awayPlays = missedPlaysText(sent.updates, snapshot.seat) || state.awayPlays;
    }
    if (first && early) {
      state.standins = early.standins || [];
      state.watchers = early.spectators || [];
      setGraceClocks(early);
      early = null;
    }
    // A hand that ended before the page came (a reload, a second tab, a watcher arriving between hands): its
    // results from the score sheet, as the pages that heard its `hand-scored` show them.
    const last = snapshot.view && snapshot.view.phase !== "over" ? lastScored(snapshot.view) : null;
    if (last && (!state.scored || state.scored.hand_number < last.hand_number)) state.scored = last;
    if (Array.isArray(snapshot.chat)) state.chat = mergeChat(state.chat, snapshot.chat);
    setClock(snapshot.turn_left_ms, snapshot.seq);
    setIdle(snapshot.idle_left_ms, snapshot.seq, snapshot.view);
    const view = snapshot.view;
    let reveal = false;
    if (view && view.to_move && snapshot.seq !== state.turnSeq) {
      state.turnSeq = snapshot.seq;
      reveal = Boolean(snapshot.seat && view.to_move === snapshot.seat && view.legal && view.legal.length);
    }
    // The tab's title says so all through the turn; its start is noticed away from the table too (a page
    // just opened, at its turn already, makes no sound: the player is looking at it).
    const mine = Boolean(snapshot.seat && !state.standin && view && view.to_move === snapshot.seat && view.legal && view.legal.length);
    if (!closed) document.title = mine ? TURN_TITLE : TITLE;
    if (reveal && mine && !first && !closed) noticeTurn(snapshot.name, PHASE_WORDS[view.phase] || "");
    draw();
    if (reveal && !closed) focusOnTurn(frame, view.phase);
    if (reveal && !closed) bringIntoView(frame, view.phase, first);
  }

  /**
   * The player's own seat when a stand-in plays it, or played it to the end of the match, and they watch it
   * (they left it, or it was handed over idle): the server sends `seat` nil and that seat's view, with
   * nothing to act on (docs/protocol.md, `watch`); else null. The page keeps the snapshot with that seat, so
   * it stays the seat's page (its hand, at the bottom, its column first, the summary folded as before),
   * `state.standin` telling a bot plays it.
   */
  function standinSeat(sent) {
    return !sent.seat && sent.state !== "waiting" && sent.view && sent.view.seat ? sent.view.seat : null;
  }

  /** What the seat's player reads while a stand-in plays it, with the button that takes it back (`sit`). */
  function standinOffer(seat) {
    state.offer = {
      text: `A stand-in bot plays your seat (${SEAT_NAMES[seat]}) for now: take it back to play on.`,
      label: "Take my seat back", act: () => actions.sitAgain(seat),
    };
  }

  /**
   * The turn clock: the server says how many milliseconds are left (`turn_left_ms`, nil when no turn timer
   * runs); the page counts down from the moment it heard it, so every screen shows the same time.
   */
  function setClock(leftMs, seq) {
    if (leftMs === undefined) return; // a message that does not carry it: keep what was known
    state.clock = leftMs === null ? null : { seq, until: Date.now() + leftMs };
  }

  /**
   * The idle hand-over's clock: the server says how many milliseconds are left before a stand-in takes the
   * seat to move, its player connected but idle at a table without a turn timer (`idle_left_ms`, nil when
   * none is coming), so the player and the table are warned before it happens.
   */
  function setIdle(leftMs, seq, view) {
    if (leftMs === undefined) return;
    state.idle = leftMs === null || !view ? null : { seq, seat: view.to_move, until: Date.now() + leftMs };
  }

  /**
   * A `players` push in which a stand-in took a seat whose idle clock had run out: the hand-over the table
   * was warned of. Said to everyone at the table (the idle player is told by their `removed`), with who is
   * host since: the same player, for the hand-over changes nothing else (docs/protocol.md, "An idle seat").
   */
  function idleHandOver(push) {
    const idle = state.idle;
    if (!idle || idle.seat === state.snapshot.seat || state.standins.includes(idle.seat)) return;
    if (!(push.standins || []).includes(idle.seat) || idle.until - Date.now() > 3000) return;
    const name = state.snapshot.players[idle.seat];
    const host = state.summary && state.summary.host === name ? ` ${name} is still the table's host.` : "";
    state.timerPlay = {
      text: `${SEAT_NAMES[idle.seat]} (${name}) left the turn unplayed too long: a bot plays the seat until ${name} comes back.${host}`,
      standin: idle.seat, // said while the bot plays it
    };
    state.idle = null;
  }

  /**
   * When each dropped seat's grace ends, from a `players` push (seconds from now, by seat): a stand-in bot
   * plays it (`standin_in`, the match started) or it is freed (`freed_in`, the table waiting for players).
   */
  function setGraceClocks(push) {
    const now = Date.now();
    const at = (secondsBySeat) => Object.fromEntries(Object.entries(secondsBySeat || {}).map(([seat, s]) => [seat, now + s * 1000]));
    state.standinAt = at(push.standin_in);
    state.freedAt = at(push.freed_in);
  }

  /**
   * Start again from a snapshot asked `since` the last action taken, with the updates missed: after an
   * update whose seq skipped one (docs/protocol.md, "Version 2"), or a paused match going on (its turn
   * clock starts again with no action to tell it). One at a time.
   */
  async function resync() {
    if (resyncing || !state.snapshot) return;
    resyncing = true;
    try {
      take(await session.request("snapshot", { room: roomId, since: state.snapshot.seq }));
    } catch (failure) {
      state.notice = failed(failure);
      draw();
    } finally {
      resyncing = false;
    }
  }

  /**
   * An action's `update` (docs/protocol.md, "update"): its events told (the turn clocks, what the timer played,
   * a hand scored, a trick won), then its view keys merged into the view held. One already taken is
   * dropped; one that does not follow the last taken means some were missed: `resync`.
   */
  function advance(update) {
    if (!state.snapshot || resyncing || update.seq <= state.snapshot.seq) return;
    if (update.seq !== state.snapshot.seq + 1) { resync(); return; }
    for (const event of update.events || []) told(event, update.seq);
    const view = state.snapshot.view || update.view ? { ...(state.snapshot.view || {}), ...(update.view || {}) } : null;
    // The snapshot's own seat (nil while a stand-in plays it: `take` finds it again), and no clock or chat
    // to take again: the turn event set the clocks.
    const seat = state.standin ? null : state.snapshot.seat;
    take({ ...state.snapshot, seat, seq: update.seq, view, turn_left_ms: undefined, idle_left_ms: undefined, chat: undefined, updates: undefined });
  }

  /** One event of an update at action `seq`, told as it happens. */
  function told(event, seq) {
    if (event.event === "turn") {
      setClock(event.turn_left_ms, seq);
      if (event.idle_left_ms !== undefined) state.idle = event.idle_left_ms === null ? null : { seq, seat: event.seat, until: Date.now() + event.idle_left_ms };
    }
    const timed = timerPlayText(event, state.snapshot.seat, state.snapshot.players);
    if (timed) {
      const hand = state.snapshot.view ? state.snapshot.view.hand_number : 0;
      // The viewer's own seat by the seats, not by the words (which may change): a watcher has none.
      state.timerPlay = { text: timed, hand, mine: Boolean(state.snapshot.seat) && timerSeat(event) === state.snapshot.seat };
    }
    if (event.event === "hand-scored") {
      // Its last trick goes with it: "Last trick of hand 3" beside the summary, until the next hand has a
      // trick of its own (the felt is the summary's at once: the next question is already asked).
      const last = state.flash && state.flash.hand === event.hand_number ? state.flash : null;
      state.scored = { ...event, tricks: state.lastTrick, last };
      state.lastTrick = null; // the next hand's tricks (none in Dominoes) start afresh
      state.summaryOpen = null; // the new results: open on a desktop, folded on a phone
    }
    if (event.event === "trick-won") state.lastTrick = event.trick_number; // a hand's last one: did it stop early?
    if (event.event === "trick-won" && state.snapshot.view) {
      state.flash = { ...event, hand: state.snapshot.view.hand_number, until: Date.now() + 1500 };
    }
  }

  /** The server took this player off the table (`removed`): the host removed them before the start, a bot
   * took their seat left idle, or their seat was freed as they came back from an address whose players sit
   * at as many waiting tables as one may (`too-many-seats`). They watch the table, told why; an idle seat
   * comes with a button that takes it back (`sit`). */
  async function removed(message) {
    const idle = message.reason === "idle";
    if (!idle) forgetWaitingSeat(session.name, roomId);
    try {
      if (idle) {
        state.idle = null;
        const host = state.summary && state.summary.host === session.name ? " You are still the table's host." : "";
        state.offer = {
          text: `You left your turn unplayed a long while: a bot now plays your seat (${SEAT_NAMES[message.seat] || message.seat}).${host}`,
          label: "Take my seat back", act: () => actions.sitAgain(message.seat),
        };
      } else {
        state.noticeAt = null; // told at the top of the table
        state.notice = message.reason === "too-many-seats"
          ? "Your seat was freed: the players of your address sit at as many waiting tables as one address may."
          : `${message.by || "The host"} removed you from this table: you may watch it.`;
      }
      take(await session.request("watch", { room: roomId }));
      showOffer();
    } catch (failure) {
      state.notice = failed(failure);
      draw();
    }
  }

  /** The offer just made is brought into view (on a phone it may be below the felt). */
  function showOffer() {
    const box = frame.querySelector(".offer");
    if (box) box.scrollIntoView({ block: "nearest" });
  }

  /**
   * Back at a table where this browser's player held a seat while it waited for players, and the seat is no
   * longer theirs: its grace ran out while they were away (a reload, a resume, another visit). Said plainly,
   * once, with a button to sit again while the table still waits.
   */
  function freedOffer(held) {
    forgetWaitingSeat(session.name, roomId);
    const said = freedText(held, SEAT_NAMES[held.seat] || held.seat);
    if (state.summary.state !== "waiting") {
      state.offer = { text: `${said} The match has started without you: you may watch it.`, label: null, act: null };
      return;
    }
    const free = !state.summary.players[held.seat];
    state.offer = { text: `${said} Sit again?`, label: free ? "Sit again" : "Sit at a free seat", act: () => actions.sitAgain(free ? held.seat : null) };
  }

  async function join() {
    try {
      const { rooms } = await session.request("list-rooms");
      state.summary = rooms.find((room) => room.room === roomId) || null;
      if (state.summary && state.summary.rematch) state.rematch = state.summary.rematch; // an old invite link
      const mine = state.summary && Object.values(state.summary.players).includes(session.name);
      const over = state.summary && state.summary.state === "over"; // its seats are no longer taken: watch it
      const held = waitingSeat(session.name, roomId);
      if (held && !mine && state.summary && !over) freedOffer(held);
      // `since` the last action this tab (or, after a reload, this browser) took: the updates missed come back.
      const since = state.snapshot ? state.snapshot.seq : session.sinceOf(roomId);
      take(await session.request(mine && !over ? "sit" : "watch", { room: roomId, since }));
      showOffer();
    } catch (failure) {
      if (failure.code !== "no-such-room") {
        fill(frame, h("div", { class: "panel" }, h("p", { role: "alert" }, `Cannot open table ${roomId}: ${failure.message}`),
          h("a", { href: "#lobby" }, "Back to the lobby")));
        return;
      }
      let finished = null; // a finished match keeps its room's id: its ranking, and its replay
      try {
        finished = (await session.request("list-matches")).matches.find((match) => match.match === roomId) || null;
      } catch { /* no ranking to show */ }
      if (closed) return;
      if (finished) {
        // Its host (or, for an old table, any of its players) may still open another match: the server
        // brings the table back for it.
        const mine = finished.host ? finished.host === session.name : Object.values(finished.players).includes(session.name);
        const rematch = async () => {
          try {
            const created = await session.request("rematch", { room: finished.match });
            return await goToRematch(created.room, Object.values(finished.players).includes(session.name));
          } catch (failure) {
            return failed(failure);
          }
        };
        const sheet = async () => {
          try {
            const data = await session.request("replay", { match: finished.match }, true);
            if (closed) return "";
            const dialog = replaySheet(data, session.name, () => { dialog.close(); dialog.remove(); });
            frame.append(dialog);
            return "";
          } catch (failure) {
            return failure.code === "busy" ? "The server is busy: press “Score sheet” again in a moment." : failed(failure);
          }
        };
        fill(frame, finishedRanking(finished, session.name, () => app.go("replay", finished.match), sheet, mine ? rematch : null));
        return;
      }
      const held = waitingSeat(session.name, roomId); // its seat freed, then the table closed, nobody left at it
      if (held) forgetWaitingSeat(session.name, roomId);
      const said = held ? `${freedText(held, SEAT_NAMES[held.seat] || held.seat)} The table has closed since: nobody was left at it.` : `No table ${roomId} is open here: a table whose match never started closes once nobody is left at it, or the link is mistyped.`;
      fill(frame, h("div", { class: "panel" }, h("p", { role: "alert" }, said),
        h("a", { href: "#lobby" }, "Back to the lobby")));
    }
  }

  join();
  const ticker = setInterval(() => {
    if (!closed && (state.clock || state.idle || Object.keys(state.standinAt).length || Object.keys(state.freedAt).length)) tickClocks(frame, state);
  }, 1000);
  PHONE.addEventListener("change", draw); // a phone turned sideways: the other layout
  // The chat scrolled to: its new lines are read, and the header's mark goes.
  function chatRead() {
    if (!state.chatUnread || !chatInView()) return;
    state.chatUnread = 0;
    draw();
  }
  addEventListener("scroll", chatRead, { passive: true });

  return {
    title: TITLE,
    /** Where the rules panel opens (rules.js): at the contract in play, if one is chosen. */
    rules: () => ({ doc: "barbu", code: (state.snapshot && state.snapshot.view && state.snapshot.view.contract) || null }),
    onPush(message) {
      if (message.room !== roomId) return;
      if (message.type === "snapshot") take(message);
      else if (message.type === "update") advance(message);
      else if (message.type === "players" && !state.snapshot) early = message;
      else if (message.type === "players") {
        const resumed = state.snapshot.paused && !message.paused; // its turn clock runs again: asked (`resync`)
        Object.assign(state.snapshot, { players: message.players, away: message.away, state: message.state, paused: Boolean(message.paused) });
        if (message.paused) { state.clock = null; state.idle = null; } // nothing plays meanwhile: no clock runs
        idleHandOver(message);
        state.standins = message.standins || [];
        state.watchers = message.spectators || [];
        setGraceClocks(message);
        draw();
        if (resumed) resync();
      } else if (message.type === "removed") {
        removed(message);
      } else if (message.type === "rematch-opened") {
        state.rematch = message.new_room;
        state.notice = `${message.host} opened another match with the same players.`;
        draw();
      } else if (message.type === "chat") {
        state.chat.push({ ...message, at: Date.now() });
        // A line from someone else while the chat is off screen (a phone's chat is below the hand): the
        // header says so until the chat is scrolled to (`chatUnread`, table_view.js).
        if (message.name !== state.me && !chatInView()) state.chatUnread += 1;
        draw();
      }
    },
    onReconnect() {
      if (state.notice === LOST || state.notice === TAKEN_REQUEST) { state.notice = ""; state.noticeAt = null; }
      if (state.refusal === LOST || state.refusal === TAKEN_REQUEST) state.refusal = "";
      join();
    },
    unmount() {
      closed = true;
      removeEventListener("scroll", chatRead);
      clearInterval(ticker);
      PHONE.removeEventListener("change", draw);
      // A watcher who goes elsewhere stops watching (the table's watcher count, and a finished table nobody
      // is at leaves the lobby); a seated player keeps the seat.
      if (state.snapshot && (!state.snapshot.seat || state.standin)) session.request("leave", { room: roomId }).catch(() => {});
    },
  };
}
