// Drawing a solitaire layout (docs/protocol.md "The solitaire view"): stock, waste, foundations, columns or
// the pyramid. Every pile and card is a button carrying its pile name (t3, f1, w, w2, s, p7.1), so a click
// (or Enter) picks a source, then a target. Those buttons and the boxes they sit in are kept from one draw to
// the next (a `Kept`), so a click whose press and release straddle a redraw (a watcher's push, a hint's
// answer) lands on the card it was aimed at.
import { cardBack, cardFace, cardParts } from "./cards.js";
import { h, scrollableByKeys } from "./dom.js";

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
function slot(at, name, label, words = label) {
  const mark = at.marked(name, -1);
  return at.kept.button(`slot-${name}`, [h("span", { class: "muted", "aria-hidden": "true" }, label)], () => at.onPick(name, 0),
    { class: `slot${markClasses(mark)}`, "data-pile": name, "data-focus": name, "aria-label": `${pileText(name)}, ${words}${MARK_WORDS[mark] || ""}` });
}

/**
 * The card `card` at `index` of pile `name`, as a kept button (keyed by pile, place and card: Forty Thieves
 * deals two decks, so a card alone names no button); a click picks it, a double-click sends it home.
 */
function face(at, card, name, index, extra = "") {
  if (card === "??") return h("span", { class: "card back", "aria-label": "face-down card", role: "img" });
  const mark = at.marked(name, index);
  const hint = mark.startsWith("hint") ? `${MARK_WORDS[mark]}` : "";
  const { props, body } = cardParts(card, { label: `${pileText(name)}${extra}${hint}`, onClick: true, selected: mark === "pick", className: hint ? mark : "" });
  const el = at.kept.button(`card-${name}:${index}:${card}`, body, () => at.onPick(name, index), { ...props, "data-pile": name, "data-focus": `${name}:${index}` });
  if (!el.onDouble) el.addEventListener("dblclick", () => el.onDouble()); // made once for the kept button
  el.onDouble = () => at.onPick(name, index, true);
  return el;
}

function pileTop(at, pile, name, emptyLabel, emptyWords = emptyLabel) {
  if (!pile.length) return slot(at, name, emptyLabel, emptyWords);
  return face(at, pile[pile.length - 1], name, pile.length - 1, `, ${pile.length} card${pile.length === 1 ? "" : "s"}`);
}

// The games that deal no stock (the engine's `ColumnRules.turn` 0, as the terminal's `stockless`): no stock
// nor waste is drawn, not an empty stock that looks used up.
const STOCKLESS = new Set(["bakers-dozen"]);

/** The stock (a back with its count; a click turns it), the waste and the foundations. */
function topRow(at, layout) {
  const { kept, marked } = at;
  const stockMark = marked("s", -1);
  const stock = kept.button("stock", [layout.stock ? cardBack() : h("span", { class: "slot-text" }, layout.redeals_left ? "↺" : "∅"), h("span", { class: "count" }, layout.stock)],
    () => at.onPick("s", -1),
    { class: `stock${markClasses(stockMark)}`, "data-pile": "s", "aria-label": `stock, ${layout.stock} cards${layout.redeals_left ? `, ${layout.redeals_left} redeals left` : ""}: turn${MARK_WORDS[stockMark] || ""}` });
  const stockTop = layout.stock_top ? face(at, layout.stock_top, "s", 0, ", top of the stock") : null;
  const waste = Array.isArray(layout.waste[0])
    ? layout.waste.map((pile, i) => pileTop(at, pile, `w${i + 1}`, "empty"))
    : [wasteFan(at, layout.waste)];
  const foundations = layout.foundations
    ? layout.foundations.map((pile, i) => pileTop(at, pile, `f${i + 1}`, "A", "empty: an ace starts it"))
    : [h("span", { class: "removed" }, `${layout.removed} removed`)];
  return kept.el("top-row", "div", { class: "top-row" },
    STOCKLESS.has(layout.game) ? null : kept.el("stock-waste", "div", { class: "stock-waste" }, stock, stockTop, waste),
    kept.el("foundations", "div", { class: "foundations", role: "group", "aria-label": "foundations" }, foundations));
}

function wasteFan(at, waste) {
  if (!waste.length) return slot(at, "w", "waste");
  const shown = waste.slice(-3);
  return at.kept.el("waste-fan", "div", { class: "waste fan" }, shown.map((card, i) => i === shown.length - 1
    ? face(at, card, "w", waste.length - 1, ", top of the waste")
    : cardFace(card, { small: true })));
}

function columns(at, layout) {
  return at.kept.el("columns", "div", { class: "columns" },
    layout.columns.map((pile, c) => {
      const name = `t${c + 1}`;
      return at.kept.el(`column-${name}`, "div", { class: "column", role: "group", "aria-label": `column ${c + 1}, ${pile.length} cards` },
        pile.length ? pile.map((card, i) => face(at, card, name, i)) : slot(at, name, "empty"));
    }));
}

function pyramid(at, layout) {
  return at.kept.el("pyramid", "div", { class: "pyramid" }, layout.pyramid.map((row, r) => at.kept.el(`prow-${r}`, "div", { class: "prow" },
    row.map((card, c) => card ? face(at, card, `p${r + 1}.${c + 1}`, 0) : h("span", { class: "card gone", "aria-hidden": "true" })))));
}

/**
 * The whole layout; `onPick(pile, index, double)` on a click (index: the card's place in its pile, bottom
 * first); `marked(pile, index)` tells how a card (index -1: an empty pile) is highlighted: "pick" (the source
 * picked by a click), "hint-from" / "hint-to" (the hinted move's source cards and target), or "". Its piles'
 * and cards' buttons, and the boxes they sit in, are `kept`'s (the screen sweeps it after each draw).
 */
export function layoutView(layout, onPick, marked, kept) {
  const across = layout.columns ? layout.columns.length : 7;
  const at = { kept, onPick, marked };
  return scrollableByKeys(kept.el("layout", "div", { class: "layout", role: "region", "aria-label": "layout", style: { "--columns": String(across) } }, topRow(at, layout), layout.pyramid ? pyramid(at, layout) : columns(at, layout)));
}
