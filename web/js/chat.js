// The table's chat: what was said, and a line to say something.
import { bdi, h, scrollableByKeys } from "./dom.js";
import { noticeLine } from "./table_prompt.js";

/** The longest chat line the server takes (docs/protocol.md, `chat`), and what a full field says. */
const CHAT_MAX = 500;
const FULL = "A chat line holds up to 500 characters: the rest was not kept.";

/**
 * The chat panel; `state.chat` holds the table's chat lines (the snapshot's, then the pushes), each marked
 * by the server `watching` when its sender had no seat then (docs/protocol.md, `chat`), which stays so
 * when they sit later and through a restart. The panel, its line and its Send are kept (`state.kept`): a
 * push redrawing the table neither takes the half-typed words nor the press of Send, and the field keeps
 * its own value.
 */
export function chatPanel(state, actions) {
  const kept = state.kept;
  // A line stops at the server's 500 characters: said once the field is full, not a paste silently cut.
  const full = kept.held("chat-full", "small", { class: "choice-hint", id: "chat-full", "aria-live": "polite" });
  const input = kept.el("chat-input", "input", { maxlength: CHAT_MAX, "aria-label": "chat message", placeholder: "Say something", "data-focus": "chat",
    "aria-describedby": "chat-full", on: { input: () => { full.textContent = input.value.length >= CHAT_MAX ? FULL : ""; } } });
  const form = kept.el("chat-form", "form", {
    class: "say",
    on: { submit: (event) => { // made once for the kept form: its kept field
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      full.textContent = "";
      // A refused line (too many too fast, the connection lost) comes back into the field, to send again,
      // unless something else was typed meanwhile; the refusal goes once the server's 10 s have passed.
      actions.request("chat", { text }, "chat").then((sent) => {
        if (sent) return;
        if (!input.value) input.value = text;
        const said = state.notice;
        setTimeout(() => {
          if (state.noticeAt !== "chat" || state.notice !== said) return;
          state.notice = "";
          state.noticeAt = null;
          actions.redraw();
        }, 10_000);
      });
    } },
  }, input, kept.el("chat-send", "button", { type: "submit" }, "Send"), full);
  const log = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "chat" },
    state.chat.slice(-50).map((m) => h("li", {}, saidAt(m), h("b", {}, bdi(m.name)), m.watching ? h("span", { class: "watching" }, " (watching)") : null, " ", m.text)));
  queueMicrotask(() => { log.scrollTop = log.scrollHeight; });
  scrollableByKeys(log);
  return kept.el("chat", "section", { class: "chat", "aria-label": "chat" }, h("h3", {}, "Chat"), log, form, noticeLine(state, "chat"));
}

/** When a line was said, local HH:MM (24-hour), before its sender; nothing for a line whose time is not known. */
function saidAt(line) {
  if (!line.at) return null;
  const at = new Date(line.at);
  const hhmm = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  return [h("time", { class: "said-at", datetime: at.toISOString() }, hhmm), " "];
}

/**
 * The chat lines of a snapshot (`lines`, oldest first: name, text, watching, no time; docs/protocol.md)
 * with the time `at` (ms since the epoch) of each one this page had already, heard as a push (`old`), so a
 * reconnection's snapshot keeps the times shown. A line first seen in a snapshot (said before the page
 * came) has none: the server does not say when it was said.
 */
export function mergeChat(old, lines) {
  const times = old.filter((m) => m.at);
  return lines.map((line) => {
    const at = times.findIndex((m) => m.name === line.name && m.text === line.text && Boolean(m.watching) === Boolean(line.watching));
    return at < 0 ? line : { ...line, at: times.splice(at, 1)[0].at };
  });
}

/** Whether the chat panel is on screen (above the hand kept at the bottom): lines said there are read. */
export function chatInView() {
  const chat = document.querySelector(".table-screen .chat");
  const hand = document.querySelector(".table-screen .hand");
  if (!chat) return false;
  const box = chat.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight - (hand ? hand.offsetHeight : 0) - 16;
}
