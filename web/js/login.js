// The login screen: a name, and the server password when the server has one.
import { h, fill } from "./dom.js";

/** Show the login form in `root`; `done()` once logged in. */
export function showLogin(root, session, done) {
  const name = h("input", { id: "login-name", name: "name", required: true, maxlength: 24, autocomplete: "nickname", value: session.lastName });
  const password = h("input", { id: "login-password", name: "password", type: "password", autocomplete: "current-password" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "panel login", "aria-labelledby": "login-title", novalidate: true },
    h("h1", { id: "login-title" }, "Barbu"),
    invitation(),
    h("p", {}, "Pick a name to play under. Your friends see it at the table."),
    h("label", { class: "field" }, h("span", {}, "Your name"), name),
    session.needsPassword ? h("label", { class: "field" }, h("span", {}, "Server password"), password) : null,
    h("button", { type: "submit", class: "primary" }, "Log in"),
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
    try {
      await session.login(typed, password.value);
      done();
    } catch (failure) {
      error.textContent = failure.code === "seat-held" ? seatHeldText(failure.message)
        : failure.code === "name-taken" ? nameTakenText(typed, failure.message) : failure.message;
    }
  });
  fill(root, form);
  name.focus();
}

/** Who invited you where, when the page was opened from an invite link (`?at=NAME#table=ID`). */
function invitation() {
  const table = /^#table=([^&]+)$/.exec(location.hash);
  if (!table) return null;
  const name = new URLSearchParams(location.search).get("at");
  const where = name ? `“${name}” (table ${decodeURIComponent(table[1])})` : `table ${decodeURIComponent(table[1])}`;
  return h("p", { class: "invited" }, `You are invited to ${where}, to sit down or watch.`);
}

/** The server's `seat-held` refusal ("NAME holds a seat at 'TABLE': …") in plain words. */
function seatHeldText(message) {
  const table = /holds a seat at (['"])(.*)\1/.exec(message);
  const at = table ? ` at “${table[2]}”` : "";
  return `You are already seated${at} from another browser or device; come back from there, or wait for that match to end.`;
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
