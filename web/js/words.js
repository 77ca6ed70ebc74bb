// What the game's identifiers mean, in plain words (contracts, variants, seats, policies).

export const SEATS = ["N", "E", "S", "W"];
export const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };

export const CONTRACTS = {
  "no-tricks": ["No tricks", "−2 for each trick you take"],
  "no-queens": ["No queens", "−6 for each queen you take"],
  "no-last-two": ["No last two", "−10 for the 12th trick, −20 for the 13th"],
  "no-hearts": ["No hearts", "−2 for each heart, −6 for the ace of hearts"],
  barbu: ["Barbu", "−20 for the trick holding the king of hearts"],
  trumps: ["Trumps", "+5 for each trick; you name the trump suit"],
  dominoes: ["Dominoes", "build rows from a starting rank; first out +45"],
};

/** The contract of a view or event in words: "Trumps (hearts)", "Dominoes from 7". */
export function contractText(contract, trump, startRank) {
  if (!contract) return "not chosen yet";
  const name = CONTRACTS[contract] ? CONTRACTS[contract][0] : contract;
  if (trump) return `${name} (${SUIT_NAMES[trump]})`;
  if (startRank) return `${name} from ${rankText(startRank)}`;
  return name;
}

/** What the seat to move is doing, by phase (its badge, and the words for whom the table waits). */
export const PHASE_WORDS = { contract: "to choose the contract", double: "to double", redouble: "to redouble", play: "to play" };

export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
export const RANKS = "23456789TJQKA";

/** A rank as printed on a card: "10" for T. */
export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

/** A card as people write it: "7D" -> "7♦", "TH" -> "10♥". */
export function cardText(card) {
  return `${rankText(card[0])}${SUIT_SYMBOLS[card[1]]}`;
}

/** Card codes in a server's message as people read them: "7D" -> "7♦", "TH" -> "10♥". */
export function cardsInText(message) {
  return String(message).replace(/\b([2-9TJQKA])([SHDC])\b/g, (_, rank, suit) => `${rankText(rank)}${SUIT_SYMBOLS[suit]}`);
}

/**
 * A solitaire refusal as a sentence in plain words: the move's notation ahead of it dropped, piles named
 * ("t3" -> "column 3", "f1" -> "foundation 1", Pyramid's "p7.2" by its card, "6♠ (row 7)", as `cardAt(pile)`
 * gives it, and its bare waste "w" -> "the waste"), the notation's own hints dropped ("by turning the stock
 * (s)"), cards as in cardsInText, and a full stop at the end (said after "Not allowed: ").
 */
export function solitaireText(message, cardAt = () => null) {
  const rule = String(message).replace(/^\S*[>+]\S*: |^[a-z]\d*(\.\d+)?: /i, "");
  const words = cardsInText(rule
    .replace(/\bp(\d+)\.(\d+)\b/g, (pile, row, place) => {
      const card = cardAt(pile);
      return card ? `${cardText(card)} (row ${row})` : `the card at row ${row}, place ${place}`;
    })
    .replace(/\bt(\d+)\b/g, "column $1")
    .replace(/\bf(\d+)\b/g, "foundation $1")
    .replace(/\bw(\d+)\b/g, "waste $1")
    .replace(/(^|[\s(])w(?=[\s:;,)]|$)/g, "$1the waste")
    .replace(/ \(s\)/g, ""));
  return /[.!?…]$/.test(words) ? words : `${words}.`;
}

/** Rule variants of a table, each [key, label, [[value, words], ...]] with the default first. */
export const VARIANTS = [
  ["heart-lead", "Leading hearts", [
    ["seed", "as the rules say", "as the rules say: none in No hearts, K♥ only alone in Barbu"],
    ["strict", "only with only hearts", "never lead a heart unless you hold only hearts"],
    ["broken", "once one is discarded", "hearts may be led once one has been discarded"],
    ["free", "lead anything"],
  ]],
  ["trump-duty", "Trumps: when you cannot follow", [
    ["ruff", "must trump", "you must play a trump if you can"],
    ["follow-only", "any card", "play any card"],
    ["overtrump", "must overtrump", "you must play a higher trump if you can"],
  ]],
  ["dominoes-scores", "Dominoes scores", [
    // What the four numbers are: a newcomer could not tell (a review).
    ["45/20/5/-5", "45 / 20 / 5 / −5", "first out +45, second +20, third +5, last −5"],
    ["40/25/10/-10", "40 / 25 / 10 / −10", "first out +40, second +25, third +10, last −10"],
    ["45/20/10/-10", "45 / 20 / 10 / −10", "first out +45, second +20, third +10, last −10"],
  ]],
  ["rotation", "Declarer", [
    ["block", "the same for 7 hands", "the same declarer for 7 hands in a row"],
    ["each-hand", "moves every hand", "the declarer moves left every hand"],
  ]],
  ["early-end", "Ending a hand", [
    ["on", "stop early", "stop as soon as nothing is left to score"],
    ["off", "all 13 tricks", "always play all 13 tricks"],
  ]],
];

/** A table's variants (only those differing from the defaults) in words, or "standard rules". */
export function variantsText(variants) {
  const parts = [];
  for (const [key, label, choices] of VARIANTS) {
    if (!(key in (variants || {}))) continue;
    let value = variants[key];
    if (value === true) value = "on";
    if (value === false) value = "off";
    const found = choices.find(([v]) => v === value);
    parts.push(`${label}: ${found ? found[2] || found[1] : value}`); // the whole sentence: the lobby has room
  }
  return parts.length ? parts.join("; ") : "standard rules";
}

/**
 * The bot policies of the new-table form, each [spec, words, what it plays like]: a policy is named as the
 * seats, the lobby, the score sheet and the summary name a bot ("bot, random", `policyText`); what it plays
 * like is said under the form's select.
 */
export const POLICIES = [
  ["search", policyText("search"), "strong, thinks ahead"],
  ["heuristic", policyText("heuristic"), "plays by rules of thumb, quick"],
  ["random", policyText("random"), "a beginner, plays any legal card"],
];

/**
 * A moment (`seconds` since the epoch) as this browser's language writes it, the month in words so that
 * 12/5 cannot be read as 12 May: "Dec 5, 2026, 10:14 PM".
 */
export function whenText(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A bot of policy `spec` in words: "bot, heuristic"; every screen names a bot so. */
export function policyText(spec) {
  return `bot, ${spec}`;
}

/**
 * A player's name as shown: a bot as "bot, heuristic" (its policy), which reads whole inside the brackets
 * that name a seat's player ("East (bot, heuristic)"), where "bot (heuristic)" made brackets in brackets.
 */
export function playerText(name) {
  if (!name) return "empty";
  if (name.startsWith("bot:")) return policyText(name.slice(4));
  return name;
}

/**
 * A number as shown everywhere (totals, scores, places): a negative one with the minus sign U+2212 ("−12"),
 * the sign the contracts' words and the score rows use, never the hyphen "-".
 */
export function numberText(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** A change of score: "+5", "−12", "0". */
export function signedText(n) {
  return n > 0 ? `+${n}` : numberText(n);
}

/** `n` things in words: "1 trick", "3 tricks" (`noun` is the singular; an "s" makes the plural). */
export function countText(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Words in a list as a sentence has them: "North", "North and East", "North, East and South". */
export function listText(items) {
  return items.length < 3 ? items.join(" and ") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
