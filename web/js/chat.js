// The table's chat: what was said, and a line to say something.
import { h } from "./dom.js";
import { noticeLine } from "./table_prompt.js";

/** The chat panel; `state.chat` holds the chat pushes received at this table. */
export function chatPanel(state, actions) {
  const input = h("input", { maxlength: 500, "aria-label": "chat message", placeholder: "Say something", "data-focus": "chat", value: state.draft || "" });
  input.addEventListener("input", () => { state.draft = input.value; });
  const form = h("form", { class: "say" }, input, h("button", { type: "submit" }, "Send"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    state.draft = "";
    actions.request("chat", { text }, "chat");
  });
  const log = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "chat" },
    state.chat.slice(-50).map((m) => h("li", {}, h("b", {}, m.name), " ", m.text)));
  queueMicrotask(() => { log.scrollTop = log.scrollHeight; });
  return h("section", { class: "chat", "aria-label": "chat" }, h("h3", {}, "Chat"), log, form, noticeLine(state, "chat"));
}
