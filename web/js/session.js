// The player's session: log in or resume with the token kept in localStorage, and reconnect (resume) when
// the connection drops. Events: "push" (a server push), "status" (detail: words for the status line),
// "resumed" (the session is back after a drop: screens ask again for what they show), "taken" (another tab
// or window of this browser resumed with the same token: this one stops and offers to take the seat back,
// and takes it back by itself once that tab goes).
import { Connection } from "./net.js";

// The server's close reason when the same token resumed on a newer connection (docs/protocol.md, code 1000).
const RESUMED_ELSEWHERE = "resumed on another connection";
/** Said on the status line while a request has waited `SLOW_MS` for its reply (a stalled network, a busy server). */
export const WAITING = "Waiting for the server…";
const SLOW_MS = 1500;

/** What a tab taken over by another says, and what a request sent from it is told. */
export const TAKEN = "This game is open in another tab or window.";
export const TAKEN_REQUEST = "This game is open in another tab or window: press “Play here” to play in this tab.";
/** What a click on the rest of a tab taken over is told, under its banner. */
export const PRESS_PLAY_HERE = "Press “Play here” to play in this tab.";

// The tabs of this browser say to each other when one holding the session goes (closed, or gone elsewhere):
// a tab it took the session from takes it back by itself.
const TABS = typeof BroadcastChannel === "function" ? new BroadcastChannel("barbu.session") : null;
const TAB_GONE = "gone";

const TOKEN = "barbu.token";
// Set when the kept token is refused, until the next login: across the reload back to the login form, and
// for this browser's other tabs, which find the token gone (localStorage: they share it).
const ENDED = "barbu.session-ended";
const NAME = "barbu.name";
const KEPT = "barbu.kept-tokens"; // "server|name" -> token, kept at a log out with a seat in play
const SECRETS = "barbu.secrets"; // name -> the personal secret it logs in with (localStorage is per server)
// name -> { room: seq }: the last action of each room a page of this browser took (version 2 `since`), so
// that a reload asks for the updates it missed; at most SEEN_MAX rooms (a `resume` names at most 16).
const SEEN = "barbu.seen";
const SEEN_MAX = 10;

function keptSeen() {
  try {
    return JSON.parse(localStorage.getItem(SEEN) || "{}") || {};
  } catch {
    return {};
  }
}

function keptSecrets() {
  try {
    return JSON.parse(localStorage.getItem(SECRETS) || "{}") || {};
  } catch {
    return {};
  }
}

/** A personal secret made for a player who typed none: 24 random bytes, base64url. */
function madeSecret() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

function keptKey(name) {
  return `${location.host}|${name}`;
}

function keptTokens() {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || "{}") || {};
  } catch {
    return {};
  }
}

export class Session extends EventTarget {
  constructor() {
    super();
    this.conn = null;
    this.name = null;
    this.rooms = [];
    this.retry = 0;
    this.ended = false; // the kept token no longer works (a new server password, or long unused)
    this.taken = false; // another tab or window resumed this session: nothing is sent until takeBack()
    this.late = 0; // requests waiting past SLOW_MS for their reply
    this.said = ""; // what the status line says
    this.seen = {}; // room -> the seq of the last update this tab took of it (before the kept ones: `sinceOf`)
    TABS?.addEventListener("message", (event) => {
      if (event.data === TAB_GONE && this.taken) this.takeBack().catch(() => {}); // a failed start() retries by itself
    });
    addEventListener("pagehide", () => {
      if (!this.taken && this.conn && this.conn.isOpen) TABS?.postMessage(TAB_GONE);
    });
  }

  /** The name last used in this browser (to prefill the login form). */
  get lastName() {
    return localStorage.getItem(NAME) || "";
  }

  /** The personal secret this browser logs in as `name` with, or "" (none kept). */
  secretFor(name) {
    return keptSecrets()[name] || "";
  }

  /**
   * Note that this tab took room `room` up to action `seq` (a snapshot or an update): asked again on coming
   * back (`since`), in this tab and, kept in localStorage, after a reload.
   */
  saw(room, seq) {
    this.seen[room] = seq;
    if (!this.name) return;
    try {
      const kept = keptSeen();
      const mine = { ...(kept[this.name] || {}) };
      delete mine[room]; // the newest last
      mine[room] = seq;
      kept[this.name] = Object.fromEntries(Object.entries(mine).slice(-SEEN_MAX));
      localStorage.setItem(SEEN, JSON.stringify(kept));
    } catch { /* storage full or off: a reload then starts from a plain snapshot */ }
  }

  /** The seq of the last update this tab (else, kept, a page of this browser) took of room `room`, or null. */
  sinceOf(room) {
    if (room in this.seen) return this.seen[room];
    const kept = (keptSeen()[this.name || this.lastName] || {})[room];
    return Number.isInteger(kept) ? kept : null;
  }

  /** `since` for a `resume` as `lastName`: room -> seq, this tab's before the kept ones; null when none. */
  resumeSince() {
    const kept = keptSeen()[this.lastName] || {};
    const all = Object.entries({ ...kept, ...this.seen }).filter(([, seq]) => Number.isInteger(seq));
    return all.length ? Object.fromEntries(all.slice(-SEEN_MAX)) : null;
  }

  /** Whether the server asks for its password at login. */
  get needsPassword() {
    return Boolean(this.conn && this.conn.welcome && this.conn.welcome.password);
  }

  /** The server's default bot policy spec (welcome.bot_policy), or null from a server that does not say. */
  get defaultPolicy() {
    return (this.conn && this.conn.welcome && this.conn.welcome.bot_policy) || null;
  }

  /** Seconds a turn may wait at a table without a turn timer before a stand-in takes the seat (welcome.idle_turn), or null. */
  get idleTurn() {
    return (this.conn && this.conn.welcome && this.conn.welcome.idle_turn) || null;
  }

  /** Whether the connection is down and being tried again (not taken by another tab, not logging out). */
  get offline() {
    return !this.taken && !this.closing && !(this.conn && this.conn.isOpen);
  }

  /** Connect, and resume with the stored token if there is one; true when logged in. */
  async start() {
    this.conn = new Connection();
    this.conn.addEventListener("push", (event) => this.dispatchEvent(new CustomEvent("push", { detail: event.detail })));
    this.conn.addEventListener("close", (event) => this.dropped(event.detail));
    await this.conn.open();
    this.status("");
    this.retry = 0;
    const token = localStorage.getItem(TOKEN);
    if (!token) {
      // The kept token was refused, here (a reconnect reloads the page) or in another tab: the login says why.
      this.ended = localStorage.getItem(ENDED) === "1";
      return false;
    }
    try {
      this.loggedIn(await this.conn.request("resume", { token, since: this.resumeSince() }));
      return true;
    } catch (error) {
      if (error.code !== "bad-token") throw error;
      localStorage.removeItem(TOKEN);
      this.ended = true; // the login screen says why it is back, also after the reload `dropped` makes
      localStorage.setItem(ENDED, "1");
      return false;
    }
  }

  /**
   * Log in as `name` (with the server password when it has one) and the personal `secret` typed, else the
   * one kept for `name`, else one made here (it claims a new name; kept once the login is accepted). When
   * this browser kept `name`'s token at a log out with a seat in play, resume with it instead: the seat is
   * theirs. Rejects with a ServerError.
   */
  async login(name, password, secret) {
    const kept = keptTokens();
    const token = kept[keptKey(name)];
    if (token) {
      let reply = null;
      try {
        reply = await this.conn.request("resume", { token });
      } catch (error) {
        if (error.code !== "bad-token") throw error; // kept for another try
      }
      delete kept[keptKey(name)]; // used, or dead
      localStorage.setItem(KEPT, JSON.stringify(kept));
      if (reply) {
        this.loggedIn(reply);
        return;
      }
    }
    const personal = secret || this.secretFor(name) || madeSecret();
    const reply = await this.conn.request("login", { name, password: password || null, secret: personal });
    localStorage.setItem(SECRETS, JSON.stringify({ ...keptSecrets(), [reply.name]: personal }));
    this.loggedIn(reply);
  }

  loggedIn(reply) {
    localStorage.removeItem(ENDED);
    this.name = reply.name;
    this.rooms = reply.rooms;
    localStorage.setItem(TOKEN, reply.token);
    localStorage.setItem(NAME, reply.name);
  }

  /**
   * Log out (another player may log in from this browser). With `keepSeat` the token is kept aside, keyed by
   * server and name, so that logging in again under this name here takes the seat back; else it is forgotten.
   */
  logout(keepSeat = false) {
    const token = localStorage.getItem(TOKEN);
    if (keepSeat && token && this.name) {
      const kept = keptTokens();
      kept[keptKey(this.name)] = token;
      localStorage.setItem(KEPT, JSON.stringify(kept));
    }
    localStorage.removeItem(TOKEN);
    this.name = null;
    this.closing = true;
    this.conn.close();
  }

  /**
   * Send a request (see net.js). Taken over by another tab, it fails with code "taken" and words saying so
   * (not "connection closed": this tab does not try again by itself). `patient`: a reply known to take a
   * while (a solver's hint, a winnable deal), which its screen says it waits for.
   */
  async request(type, fields, patient = false) {
    // A reply slow to come is said on the status line, so that a tap into a stalled connection is not met
    // with nothing; the words go once no request is late, unless the line has said something else since.
    let late = false;
    const timer = patient ? null : setTimeout(() => {
      late = true;
      this.late += 1;
      if (!this.said) this.status(WAITING);
    }, SLOW_MS);
    try {
      return await this.conn.request(type, fields);
    } catch (error) {
      if (!this.taken || error.code !== "closed") throw error;
      throw Object.assign(new Error(TAKEN_REQUEST), { code: "taken" });
    } finally {
      clearTimeout(timer);
      if (late && --this.late === 0 && this.said === WAITING) this.status("");
    }
  }

  status(text) {
    this.said = text;
    this.dispatchEvent(new CustomEvent("status", { detail: text }));
  }

  /**
   * The connection closed (`closed`: its code and reason). Resumed in another tab or window of this browser
   * (same stored token): stop here, or the two tabs would take the seat from each other forever; the page
   * offers "Play here" (takeBack). Any other close: resume after a growing wait (1, 2, 4… 10 s).
   */
  dropped(closed = {}) {
    if (this.closing) return;
    if (closed.code === 1000 && closed.reason === RESUMED_ELSEWHERE) {
      this.taken = true;
      this.status("");
      this.dispatchEvent(new Event("taken"));
      return;
    }
    const wait = Math.min(10, 2 ** this.retry);
    this.retry += 1;
    this.status(`Connection lost: trying again in ${wait} s…`);
    setTimeout(async () => {
      try {
        const back = await this.start();
        if (back) this.dispatchEvent(new Event("resumed"));
        else location.reload(); // the token is gone: start over at the login form
      } catch {
        // start() failed before its close event: dropped() runs again from that event
      }
    }, wait * 1000);
  }

  /** Take the seat back in this tab after another one resumed it ("Play here"): resume with the token. */
  async takeBack() {
    this.retry = 0;
    this.taken = false;
    const back = await this.start();
    if (back) this.dispatchEvent(new Event("resumed"));
    else location.reload(); // the token is gone: start over at the login form
  }
}
