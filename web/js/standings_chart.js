// The match's standings chart: each seat's running total over the hands played (28 in a whole match), as
// an inline SVG drawn here (no chart library), with a title and a description naming every seat's player
// and final total for a screen reader. Each seat's line has its own colour and dash, and its label at its
// end, so the lines are told apart without colour too.
import { h } from "./dom.js";
import { SEATS, SEAT_NAMES, numberText, playerText } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
/** The drawing's size in its own units (it scales to the width it is given: a phone's 390 pixels too). */
const WIDTH = 420;
const HEIGHT = 270;
/** Room for the axis labels on the left and bottom, the seat labels on the right, and a margin on top. */
const PAD = { left: 40, right: 62, top: 12, bottom: 34 };
/** Each seat's dash pattern (its colour is in story.css, `.chart-N` …). */
const DASHES = { N: null, E: "8 4", S: "2 4", W: "10 3 2 3" };

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child);
  return el;
}

/**
 * Each seat's running totals, from 0 before hand 1 to the total after the last hand of `history` (rows
 * with `scores`, each seat's result of the hand): `{ N: [0, -4, …], … }`.
 */
export function runningTotals(history) {
  const totals = Object.fromEntries(SEATS.map((s) => [s, [0]]));
  for (const row of history) for (const s of SEATS) totals[s].push(totals[s][totals[s].length - 1] + (row.scores[s] || 0));
  return totals;
}

/** Round steps for the vertical axis: about five lines between `low` and `high`, at 10, 20, 50, 100 … */
function ticks(low, high) {
  const rough = (high - low) / 5 || 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const found = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) found.push(v);
  return found;
}

/**
 * The standings chart of a match (`history`: its finished hands, in order; `players`: seat to player),
 * a `<figure>` holding the SVG. Its `<svg>` carries `data-zero` (the y of a total of 0) and `data-unit`
 * (units per point), so a point's total is `(zero - y) / unit`; each seat's `<polyline>` its `data-seat`.
 */
export function standingsChart(history, players) {
  const totals = runningTotals(history);
  const all = SEATS.flatMap((s) => totals[s]);
  const low = Math.min(0, ...all);
  const high = Math.max(0, ...all);
  const hands = history.length;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const unit = plotH / (high - low || 1);
  const zero = PAD.top + high * unit;
  const x = (hand) => PAD.left + (hands ? (hand / hands) * plotW : 0);
  const y = (total) => zero - total * unit;
  const round = (v) => Math.round(v * 100) / 100;
  const name = (s) => playerText(players[s]);
  const finals = SEATS.map((s) => `${SEAT_NAMES[s]} (${name(s)}) ${numberText(totals[s][hands])}`).join(", ");

  const grid = ticks(low, high).map((v) => svg("g", { class: v === 0 ? "chart-zero" : "chart-grid" },
    svg("line", { x1: PAD.left, x2: PAD.left + plotW, y1: round(y(v)), y2: round(y(v)) }),
    svg("text", { x: PAD.left - 6, y: round(y(v)) + 4, "text-anchor": "end" }, numberText(v))));
  const handMarks = [];
  for (let hand = 0; hand <= hands; hand += 7) {
    handMarks.push(svg("text", { x: round(x(hand)), y: HEIGHT - PAD.bottom + 17, "text-anchor": "middle", class: "chart-axis" }, String(hand)));
  }
  // The seats' labels at their lines' ends, pushed apart so that close totals do not write over each other.
  const ends = SEATS.map((s) => ({ seat: s, at: y(totals[s][hands]) })).sort((a, b) => a.at - b.at);
  for (let i = 1; i < ends.length; i++) ends[i].at = Math.max(ends[i].at, ends[i - 1].at + 16);
  const lines = SEATS.map((s) => svg("polyline", {
    class: `chart-line chart-${s}`, "data-seat": s, fill: "none", "stroke-dasharray": DASHES[s],
    points: totals[s].map((total, hand) => `${round(x(hand))},${round(y(total))}`).join(" "),
  }));
  const labels = ends.map(({ seat, at }) => svg("text", { x: PAD.left + plotW + 6, y: round(at) + 4, class: `chart-label chart-${seat}` },
    `${seat} ${numberText(totals[seat][hands])}`)); // the players' names are in the caption, in full

  const id = `chart-${Math.random().toString(36).slice(2, 8)}`;
  const drawing = svg("svg", {
    class: "standings-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-labelledby": `${id}-title ${id}-desc`,
    "data-zero": round(zero), "data-unit": unit, preserveAspectRatio: "xMidYMid meet",
  },
  svg("title", { id: `${id}-title` }, `Running totals over ${hands} hands`),
  svg("desc", { id: `${id}-desc` }, `Each seat's total after every hand, from 0 before hand 1. At the end: ${finals}.`),
  grid, handMarks,
  svg("text", { x: PAD.left + plotW / 2, y: HEIGHT - 2, "text-anchor": "middle", class: "chart-axis" }, "hand"),
  lines, labels);
  return h("figure", { class: "standings-figure" }, drawing,
    h("figcaption", {}, "Running totals, hand by hand: ",
      SEATS.map((s, i) => [i ? " · " : "", h("span", { class: `chart-key chart-${s}` }, `${s} ${name(s)}`)])));
}

/**
 * The standings chart kept by `kept` (a screen's Kept, dom.js) from one draw to the next: the same nodes
 * while the match's hands and players are the same, so the table's redraws (a push, a clock's tick) neither
 * rebuild it under a reader's eyes nor make a screen reader hear it again.
 */
export function keptStandingsChart(kept, history, players) {
  const drawn = JSON.stringify([history.map((row) => row.scores), players]);
  const box = kept.held("standings-chart", "div", { class: "standings-box" });
  if (box.dataset.drawn !== drawn) {
    box.dataset.drawn = drawn;
    box.replaceChildren(standingsChart(history, players));
  }
  return box;
}
