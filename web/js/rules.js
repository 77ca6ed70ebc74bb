// The rules panel: the full rules of Barbu and of the solitaires, as docs/rules/*.md say them (the server
// renders them to /rules/barbu.html and /rules/solitaire.html: server/rules_pages.py), in a dialog opened
// from the header's "Rules" button on every screen; at a table it opens at the contract in play, in a
// solitaire room at the game played.
import { button, fill, h } from "./dom.js";

/** The rules documents the panel shows, in its tab order: name (as served) and tab label. */
const DOCUMENTS = [["barbu", "Barbu"], ["solitaire", "Solitaire"]];
/** Each document's body once fetched: a promise of its `<main>`'s child nodes (fetched once a page). */
const fetched = {};

function rulesNodes(name) {
  fetched[name] ||= fetch(`/rules/${name}.html`).then((reply) => {
    if (!reply.ok) throw new Error(`the server answered ${reply.status}`);
    return reply.text();
  }).then((text) => {
    const main = new DOMParser().parseFromString(text, "text/html").querySelector("main");
    return main ? [...main.childNodes] : [];
  }).catch((error) => { delete fetched[name]; throw error; });
  return fetched[name];
}

/**
 * Where `place` ({ doc, code, title }) is in the shown document `body`: the heading whose id is `code`
 * ("dominoes") or whose words start with `title` ("Pyramid (Solitaire 13)"), else the table row naming it
 * (the contract's `code` in a cell, `no-queens`, or `title` as its first cell, "Indian"); null without.
 */
export function findPlace(body, place) {
  if (!place) return null;
  const headings = [...body.querySelectorAll("h1, h2, h3, h4")];
  const heading = headings.find((el) => (place.code && el.id === place.code) || (place.title && el.textContent.startsWith(place.title)));
  if (heading) return heading;
  return [...body.querySelectorAll("tbody tr")].find((row) =>
    (place.code && [...row.querySelectorAll("code")].some((code) => code.textContent === place.code))
    || (place.title && row.cells[0] && row.cells[0].textContent.trim() === place.title)) || null;
}

/**
 * Open the rules panel (a modal dialog) at `place` ({ doc: "barbu" | "solitaire", code, title }, from the
 * screen shown; null: Barbu's rules from the top). The place found is marked (`.rules-here`) and scrolled to.
 */
export function openRules(place = null) {
  document.getElementById("rules")?.remove();
  const body = h("div", { class: "rules-body", tabindex: "0", role: "region", "aria-label": "the rules" });
  const tabs = DOCUMENTS.map(([name, label]) => button(label, () => show(name, null), { "data-doc": name, "aria-pressed": "false" }));
  const close = () => { dialog.close(); dialog.remove(); };
  const dialog = h("dialog", { id: "rules", class: "sheet rules", "aria-labelledby": "rules-title" },
    h("div", { class: "rules-top" }, h("h2", { id: "rules-title" }, "Rules"),
      h("div", { class: "buttons", role: "group", "aria-label": "which rules" }, tabs),
      button("Close", close, { class: "primary", "data-focus": "close-rules" })),
    body);
  dialog.addEventListener("cancel", close);

  async function show(name, at) {
    for (const tab of tabs) tab.setAttribute("aria-pressed", String(tab.dataset.doc === name));
    fill(body, h("p", { class: "muted", role: "status" }, "Loading the rules…"));
    let nodes;
    try {
      nodes = await rulesNodes(name);
    } catch (error) {
      fill(body, h("p", { role: "alert" }, `The rules could not be loaded (${error.message}). Try again in a moment.`));
      return;
    }
    fill(body, nodes.map((node) => document.importNode(node, true)));
    body.dataset.doc = name;
    const found = findPlace(body, at);
    if (found) {
      found.classList.add("rules-here");
      found.scrollIntoView({ block: "start" });
    } else body.scrollTop = 0;
  }

  document.body.append(dialog);
  dialog.showModal();
  show(place ? place.doc : "barbu", place);
  return dialog;
}

/** The header's "Rules" button: opens the panel at `placeOf()` (the screen's place in the rules, or null). */
export function rulesButton(placeOf) {
  return button("Rules", () => openRules(placeOf()), { class: "link", id: "rules-button", "aria-haspopup": "dialog" });
}
