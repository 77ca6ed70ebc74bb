// Drawing a solitaire layout (docs/protocol.md "The solitaire view"): stock, waste, foundations, columns or
// the pyramid. Every pile and card is a button carrying its pile name (t3, f1, w, w2, s, p7.1), so a click
// (or Enter) picks a source, then a target.
import { cardBack, cardFace } from "./cards.js";
import { h } from "./dom.js";

const NAMES = { s: "stock", w: "waste", t: "column", f: "foundation", p: "pyramid card" };

/** Words for a pile name: "column 3", "pyramid card row 7, 2". */
export function pileText(name) {
  if (name.startsWith("p")) return `pyramid row ${name.slice(1).replace(".", ", card ")}`;
  const number = name.slice(1);
  return `${NAMES[name[0]]}${number ? " " + number : ""}`;
}

/** Words a screen reader adds for a mark (see `layoutView`). */
const MARK_WORDS = { pick: ", picked", "hint-from": ", hint: move this", "hint-to": ", hint: it goes here" };

/** The classes of a pile button with mark `mark`: "marked" for any, and the mark itself. */
function markClasses(mark) {
  return mark ? ` marked ${mark}` : "";
}

/** An empty pile: `label` shown on it, `words` (default: `label`) for a screen reader. */
function slot(name, label, onPick, marked, words = label) {
  const mark = marked(name, -1);
  return h("button", { type: "button", class: `slot${markClasses(mark)}`, "data-pile": name, "data-focus": name, "aria-label": `${pileText(name)}, ${words}${MARK_WORDS[mark] || ""}`, on: { click: () => onPick(name, 0) } }, h("span", { class: "muted", "aria-hidden": "true" }, label));
}

function face(card, name, index, onPick, marked, extra = "") {
  if (card === "??") return h("span", { class: "card back", "aria-label": "face-down card", role: "img" });
  const mark = marked(name, index);
  const hint = mark.startsWith("hint") ? `${MARK_WORDS[mark]}` : "";
  const el = cardFace(card, { label: `${pileText(name)}${extra}${hint}`, onClick: () => onPick(name, index), selected: mark === "pick", className: hint ? mark : "" });
  el.dataset.pile = name;
  el.dataset.focus = `${name}:${index}`;
  el.addEventListener("dblclick", () => onPick(name, index, true));
  return el;
}

function pileTop(pile, name, onPick, marked, emptyLabel, emptyWords = emptyLabel) {
  if (!pile.length) return slot(name, emptyLabel, onPick, marked, emptyWords);
  return face(pile[pile.length - 1], name, pile.length - 1, onPick, marked, `, ${pile.length} card${pile.length === 1 ? "" : "s"}`);
}

/** The stock (a back with its count; a click turns it), the waste and the foundations. */
function topRow(layout, onPick, marked) {
  const stockMark = marked("s", -1);
  const stock = h("button", { type: "button", class: `stock${markClasses(stockMark)}`, "data-pile": "s", "data-focus": "stock", "aria-label": `stock, ${layout.stock} cards${layout.redeals_left ? `, ${layout.redeals_left} redeals left` : ""}: turn${MARK_WORDS[stockMark] || ""}`, on: { click: () => onPick("s", -1) } },
    layout.stock ? cardBack() : h("span", { class: "slot-text" }, layout.redeals_left ? "↺" : "∅"), h("span", { class: "count" }, layout.stock));
  const stockTop = layout.stock_top ? face(layout.stock_top, "s", 0, onPick, marked, ", top of the stock") : null;
  const waste = Array.isArray(layout.waste[0])
    ? layout.waste.map((pile, i) => pileTop(pile, `w${i + 1}`, onPick, marked, "empty"))
    : [wasteFan(layout.waste, onPick, marked)];
  const foundations = layout.foundations
    ? layout.foundations.map((pile, i) => pileTop(pile, `f${i + 1}`, onPick, marked, "A", "empty: an ace starts it"))
    : [h("span", { class: "removed" }, `${layout.removed} removed`)];
  return h("div", { class: "top-row" },
    h("div", { class: "stock-waste" }, stock, stockTop, waste),
    h("div", { class: "foundations", role: "group", "aria-label": "foundations" }, foundations));
}

function wasteFan(waste, onPick, marked) {
  if (!waste.length) return slot("w", "waste", onPick, marked);
  const shown = waste.slice(-3);
  return h("div", { class: "waste fan" }, shown.map((card, i) => i === shown.length - 1
    ? face(card, "w", waste.length - 1, onPick, marked, ", top of the waste")
    : cardFace(card, { small: true })));
}

function columns(layout, onPick, marked) {
  return h("div", { class: "columns" },
    layout.columns.map((pile, c) => {
      const name = `t${c + 1}`;
      return h("div", { class: "column", role: "group", "aria-label": `column ${c + 1}, ${pile.length} cards` },
        pile.length ? pile.map((card, i) => face(card, name, i, onPick, marked)) : slot(name, "empty", onPick, marked));
    }));
}

function pyramid(layout, onPick, marked) {
  return h("div", { class: "pyramid" }, layout.pyramid.map((row, r) => h("div", { class: "prow" },
    row.map((card, c) => card ? face(card, `p${r + 1}.${c + 1}`, 0, onPick, marked) : h("span", { class: "card gone", "aria-hidden": "true" })))));
}

/**
 * The whole layout; `onPick(pile, index, double)` on a click (index: the card's place in its pile, bottom
 * first); `marked(pile, index)` tells how a card (index -1: an empty pile) is highlighted: "pick" (the source
 * picked by a click), "hint-from" / "hint-to" (the hinted move's source cards and target), or "".
 */
export function layoutView(layout, onPick, marked) {
  const across = layout.columns ? layout.columns.length : 7;
  return h("div", { class: "layout", style: { "--columns": String(across) } }, topRow(layout, onPick, marked), layout.pyramid ? pyramid(layout, onPick, marked) : columns(layout, onPick, marked));
}
