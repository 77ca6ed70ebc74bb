// Cards drawn with CSS and the suit symbols: faces, backs, names for screen readers, hand order.
import { h } from "./dom.js";
import { RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, rankText } from "./words.js";

/** "queen of spades" for "QS". */
export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}

/**
 * A card face. Options: `label` (extra words for the screen reader, e.g. "playable"), `onClick` (makes it a
 * button), `disabled`, `selected`, `small`, `className`.
 */
export function cardFace(card, options = {}) {
  const { onClick } = options;
  const { props, body } = cardParts(card, options);
  if (!onClick) return h("span", { ...props, role: "img" }, body);
  return h("button", { ...props, on: { click: onClick } }, body);
}

/**
 * What a card face is made of, for a caller that keeps its button (a `Kept` one): `props` (its classes,
 * label, and as a button `type`, `disabled`, `aria-pressed`) and `body` (the corner and the pip). Options as
 * `cardFace`'s, `onClick` only telling that it is a button.
 */
export function cardParts(card, options = {}) {
  const { label, onClick, disabled, selected, small, className } = options;
  const words = label ? `${cardName(card)}, ${label}` : cardName(card);
  const classes = ["card", `suit-${card[1]}`, small ? "small" : "", selected ? "selected" : "", className || ""];
  const props = { class: classes.join(" ").trim(), "data-card": card, "aria-label": words, title: words };
  if (onClick) Object.assign(props, { type: "button", disabled: disabled || false, "aria-pressed": selected ? "true" : null });
  // The rank and suit glyphs are drawn by the style sheet from `data-glyph` (cards.css), not written in the
  // page: the card's name is its words ("nine of spades"), and a button whose text said "9♠♠" besides would
  // be named unlike what it shows (WCAG 2.5.3, axe's label-content-name-mismatch).
  const body = [
    h("span", { class: "corner", "aria-hidden": "true" }, h("b", { "data-glyph": rankText(card[0]) }), h("i", { "data-glyph": SUIT_SYMBOLS[card[1]] })),
    h("span", { class: "pip", "aria-hidden": "true", "data-glyph": SUIT_SYMBOLS[card[1]] }),
  ];
  return { props, body };
}

/** A face-down card (nothing about it is known here). */
export function cardBack(options = {}) {
  return h("span", { class: `card back${options.small ? " small" : ""}`, "aria-hidden": "true" });
}

/**
 * The suits in the order a hand is sorted (colours alternate: ♠ ♥ ♣ ♦), and where each comes in it; the trump
 * suit buttons and the Dominoes rows follow it too, so a suit is found at the same place everywhere.
 */
export const SUITS_IN_ORDER = ["S", "H", "C", "D"];
export const SUIT_ORDER = Object.fromEntries(SUITS_IN_ORDER.map((suit, at) => [suit, at]));

/** `cards` sorted as a hand is held: by suit (alternating colours), high to low within a suit. */
export function sortHand(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
}

/** The rank of a card as a number 0 (two) to 12 (ace). */
export function rankIndex(card) {
  return RANKS.indexOf(card[0]);
}
