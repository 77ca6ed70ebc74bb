// The login screen: a name, the player's personal password (kept by this browser), and the server password
// when the server has one.
import { h, fill } from "./dom.js";

/** Show the login form in `root`; `done()` once logged in. */
export function showLogin(root, session, done) {
  // The field stops at 24 characters (the server's limit for a name): said under it, not a silent stop.
  const name = h("input", { id: "login-name", name: "name", required: true, maxlength: 24, autocomplete: "nickname", value: session.lastName, "aria-describedby": "login-name-hint" });
  const password = h("input", { id: "login-password", name: "password", type: "password", autocomplete: "current-password" });
  // The name's own password, as this browser kept it; a name typed afresh shows its own (or none).
  const secret = h("input", { id: "login-secret", name: "secret", type: "password", maxlength: 128, autocomplete: "new-password", value: session.secretFor(session.lastName), "aria-describedby": "login-secret-hint" });
  let typedSecret = false;
  secret.addEventListener("input", () => { typedSecret = true; });
  name.addEventListener("input", () => {
    if (!typedSecret) secret.value = session.secretFor(name.value.trim());
  });
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary" }, "Log in");
  // Thrown out of a session it was in, the player is told why, not "invited" to their own table.
  const opening = session.ended
    ? h("p", { class: "invited ended" }, `Your session here has ended (the server's password changed, it was unused a long while, or you logged in from another browser): log in again${session.lastName ? ` as ${session.lastName}` : ""} to come back to your seat.`)
    : invitation();
  const form = h("form", { class: "panel login", "aria-labelledby": "login-title", novalidate: true },
    h("h1", { id: "login-title" }, "Barbu"),
    opening,
    h("p", {}, "Pick a name to play under. Your friends see it at the table."),
    h("label", { class: "field" }, h("span", {}, "Your name"), name, h("small", { class: "choice-hint", id: "login-name-hint" }, "Up to 24 characters.")),
    h("label", { class: "field" }, h("span", {}, "Personal password"), secret, h("small", { class: "choice-hint", id: "login-secret-hint" }, "Only you know it; it takes your seat back from any browser (left empty, this browser keeps one of its own).")),
    session.needsPassword ? h("label", { class: "field" }, h("span", {}, "Server password"), password) : null,
    submit,
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const typed = name.value.trim();
    if (!typed) { // said in the page's words, not the browser's "Please fill out this field"
      error.textContent = "Type a name.";
      name.focus();
      return;
    }
    // A wrong password is answered after a pause (the server slows guessing): the button says it is busy.
    submit.disabled = true;
    submit.textContent = "Logging in…";
    try {
      await session.login(typed, password.value, secret.value);
      done();
    } catch (failure) {
      error.textContent = refusalText(typed, failure, session.needsPassword, Boolean(secret.value) && typedSecret);
      // "You are invited … to sit down" above "You are already seated … from another browser" says two
      // things at once: while that refusal stands, only it is said.
      if (opening) opening.hidden = failure.code === "seat-held";
    } finally {
      submit.disabled = false;
      submit.textContent = "Log in";
    }
  });
  fill(root, form);
  name.focus();
}

/** Who invited you where, when the page was opened from an invite link (`?at=NAME#table=ID`). */
function invitation() {
  const table = /^#table=([^&]+)$/.exec(location.hash);
  if (!table) return null;
  let id;
  try {
    id = decodeURIComponent(table[1]);
  } catch { // a damaged link ("#table=%", a URIError): it names no table, and the page goes on
    return h("p", { class: "invited" }, "The link you opened is damaged: it names no table. Once in, find the table in the lobby.");
  }
  const name = new URLSearchParams(location.search).get("at");
  const where = name ? `“${name}” (table ${id})` : `table ${id}`;
  return h("p", { class: "invited" }, `You are invited to ${where}, to sit down or watch.`);
}

/**
 * A refusal of `login` (a ServerError: its `code`, `field`, `message`) in a plain sentence saying what to do,
 * for every refusal the server sends there (server/lobby.py `check_player_name` and `_login`, the `login`
 * message's own checks in protocol/messages.py; docs/protocol.md, `login`): the server's words are for
 * programs. A `bad-message` on the name says which rule by its message, the code being the same for all.
 */
export function refusalText(typed, failure, needsPassword, typedSecret = false) {
  const message = String(failure.message || "");
  switch (failure.code) {
    case "seat-held": return seatHeldText(message);
    case "bad-secret":
    case "secret-needed":
      return typedSecret
        ? `That is not the personal password of “${typed}”: type the one chosen for it, or pick another name.`
        : `“${typed}” is someone's name here, with a personal password: type it, or pick another name.`;
    case "name-taken": return nameTakenText(typed, message);
    case "bad-password": return needsPassword ? "Wrong server password: ask whoever runs the server for it." : "This server needs its password: reload the page to type it.";
    case "slow-down": return failure.field === "secret" ? "Too many wrong personal passwords from here lately: wait a minute, then try again." : "Too many wrong passwords from here lately: wait a minute, then try again.";
    case "store-unavailable": return "The server cannot save anything just now: try again in a moment.";
    case "closed": return "Connection lost: try again once the page says it is back.";
    case "bad-message": break;
    default: return `Cannot log in: ${message}`;
  }
  if (failure.field === "password") return "That password is too long: a server password is at most 128 characters.";
  if (failure.field === "secret") return "That personal password is too long: it is at most 128 characters.";
  if (/longer than/.test(message)) return "That name is too long: a name is at most 24 characters.";
  if (/shorter than/.test(message)) return "Type a name.";
  if (/full-width|compatibility/.test(message)) return "Type the name in ordinary letters: full-width letters (like “ａｎｎ”) and other look-alike forms are not allowed.";
  if (/look like a bot/.test(message)) return "That name would pass for a bot (“bot”, “bot, random”): pick another name.";
  if (/printable|show as text|blank letters/.test(message)) return "A name is made of letters you can see: no invisible characters (such as a zero-width space), no spaces at either end, no accents standing alone.";
  return "That name cannot be used: pick another name.";
}

/**
 * The server's `seat-held` refusal ("NAME holds a seat at 'TABLE' and has no personal password: …", or
 * "NAME hosts 'TABLE' …"): a name that logged in without a personal password (before they existed) comes back
 * only where its resume token is.
 */
function seatHeldText(message) {
  const table = /(holds a seat at|hosts) (['"])(.*)\2/.exec(message);
  const what = !table ? "already seated" : table[1] === "hosts" ? `hosting “${table[3]}”` : `already seated at “${table[3]}”`;
  return `You are ${what} from another browser or device, logged in without a personal password: come back from there.`;
}

/**
 * The server's `name-taken` refusal in plain words, saying what to do: "“ann” is in use by someone connected
 * now: pick another name.", "“Ann” is too like “ann”, who is playing here: pick another name." (the
 * look-alike rule, docs/protocol.md "Error codes").
 */
function nameTakenText(typed, message) {
  const twin = /is too like (.+), who is playing here/.exec(message);
  if (twin) return `“${typed}” is too like “${twin[1]}”, who is playing here: pick another name.`;
  return `“${typed}” is in use by someone connected now: pick another name.`;
}
