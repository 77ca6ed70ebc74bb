// The table's chat: what was said, and a line to say something.
import { h } from "./dom.js";
import { noticeLine } from "./table_prompt.js";

/**
 * Whether `name` watches the table rather than sits at it (`state.watchers`, from the `players` push; the
 * viewer watching too): their chat lines are marked so, as players are told who is not at the table.
 */
function watching(state, name) {
  const snap = state.snapshot;
  if (Object.values(snap.players).includes(name)) return false;
  return state.watchers.includes(name) || (name === state.me && !snap.seat);
}

/**
 * The chat panel; `state.chat` holds the chat pushes received at this table. The panel, its line and its
 * Send are kept (`state.kept`): a push redrawing the table neither takes the half-typed words nor the press
 * of Send, and the field keeps its own value.
 */
export function chatPanel(state, actions) {
  const kept = state.kept;
  const input = kept.el("chat-input", "input", { maxlength: 500, "aria-label": "chat message", placeholder: "Say something", "data-focus": "chat" });
  const form = kept.el("chat-form", "form", {
    class: "say",
    on: { submit: (event) => { // made once for the kept form: its kept field
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      actions.request("chat", { text }, "chat");
    } },
  }, input, kept.el("chat-send", "button", { type: "submit" }, "Send"));
  const log = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "chat" },
    state.chat.slice(-50).map((m) => h("li", {}, h("b", {}, m.name), watching(state, m.name) ? h("span", { class: "watching" }, " (watching)") : null, " ", m.text)));
  queueMicrotask(() => { log.scrollTop = log.scrollHeight; });
  return kept.el("chat", "section", { class: "chat", "aria-label": "chat" }, h("h3", {}, "Chat"), log, form, noticeLine(state, "chat"));
}
