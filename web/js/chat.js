// The table's chat: what was said, and a line to say something.
import { h } from "./dom.js";
import { noticeLine } from "./table_prompt.js";

/**
 * Whether `name` watches the table rather than sits at it (`state.watchers`, from the `players` push; the
 * viewer watching too): their chat lines are marked so, as players are told who is not at the table.
 * Undefined when the page cannot tell (neither seated nor among the watchers it knows of yet).
 */
function watching(state, name) {
  const snap = state.snapshot;
  if (!snap) return undefined;
  if (Object.values(snap.players).includes(name)) return false;
  if (state.watchers.includes(name) || (name === state.me && !snap.seat)) return true;
  return undefined;
}

/**
 * Mark each chat line not yet marked with whether its sender watches (`watching`) as far as the page now
 * knows: called when a line comes and when the seats or the watchers change, so a watcher who sits later
 * keeps their earlier lines said watching (a line drawn from the seats of the moment lost its mark).
 */
export function markChat(state) {
  for (const line of state.chat) if (line.watching === undefined) line.watching = watching(state, line.name);
}

/**
 * The chat panel; `state.chat` holds the chat pushes received at this table, each marked `watching` as its
 * sender was when the page first could tell (`markChat`). The panel, its line and its
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
  }, input, kept.el("chat-send", "button", { type: "submit" }, "Send"));
  const log = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "chat" },
    state.chat.slice(-50).map((m) => h("li", {}, h("b", {}, m.name), (m.watching ?? watching(state, m.name)) ? h("span", { class: "watching" }, " (watching)") : null, " ", m.text)));
  queueMicrotask(() => { log.scrollTop = log.scrollHeight; });
  return kept.el("chat", "section", { class: "chat", "aria-label": "chat" }, h("h3", {}, "Chat"), log, form, noticeLine(state, "chat"));
}

/**
 * A snapshot's chat lines (`lines`: { name, text }, oldest first) with the `watching` marks the same lines
 * had in `old` (the page's lines, as pushed), matched from the newest back: a snapshot taken after a watcher
 * sits does not unmark what they said watching. Lines the page had not heard keep no mark (drawn as now).
 */
export function withMarks(old, lines) {
  const out = lines.map((line) => ({ ...line }));
  for (let i = out.length - 1, j = old.length - 1; i >= 0 && j >= 0; i--, j--) {
    if (old[j].name !== out[i].name || old[j].text !== out[i].text) break;
    if (old[j].watching !== undefined) out[i].watching = old[j].watching;
  }
  return out;
}
