// The page's own yes-or-no question, in place of the browser's `confirm()` box: a modal <dialog> in the
// page's style, its words read by a screen reader, answered by click, tap, Enter or Escape.
import { button, h } from "./dom.js";

/**
 * Ask `question` in a modal dialog: a Promise of true when the player picks `yes` (the words of the button
 * that goes on), false for `no` or Escape. The focus starts on `no` (nothing is done by a stray Enter) and
 * goes back where it was once answered.
 */
export function ask(question, { yes = "OK", no = "Cancel" } = {}) {
  return new Promise((answer) => {
    const back = document.activeElement;
    const words = h("p", { id: `ask-${++asked}` }, question);
    const done = (said) => {
      dialog.close();
      dialog.remove();
      if (back && back.isConnected) back.focus({ preventScroll: true });
      answer(said);
    };
    const dialog = h("dialog", { class: "ask", "aria-labelledby": words.id },
      words,
      h("div", { class: "buttons" },
        button(no, () => done(false), { "data-focus": "ask-no" }),
        button(yes, () => done(true), { class: "primary", "data-focus": "ask-yes" })));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("[data-focus=ask-no]").focus();
  });
}

let asked = 0; // the ids of the questions' words
