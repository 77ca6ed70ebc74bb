// Choosing a solitaire game and its options in the lobby, then opening the day's deal, a random one or one the
// solver proved winnable.
import { button, fill, h, select } from "./dom.js";
import { countText } from "./words.js";

/** A random deal's seed (0 to 2^48, within the protocol's 2^53). */
export function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return words[0] * 65536 + (words[1] & 0xffff);
}

function choiceText(value) {
  if (value === true) return "on";
  if (value === false) return "off";
  return String(value);
}

/**
 * Each option's short name, as the Barbu options have ("Leading hearts"): the server's `help` (what the
 * other choice does) is said under the select, without the name of the program the rule comes from
 * ("(PySolFC)"), which a player does not know.
 */
const OPTION_LABELS = {
  "foundation-back": "Cards back from a foundation",
  supermove: "Runs move at once",
  draw: "Cards turned from the stock",
  "stock-top": "Stock's top card in play",
  redeals: "Redeals",
  kings: "Kings",
  build: "Building on columns",
};

function optionHint(help) {
  return help.replace(/\s*\([^)]*\)$/, "");
}

/** The picker: `{element}`; loads the games with list-games. */
export function gamePicker(app) {
  const { session } = app;
  const element = h("div", { class: "picker" }, h("p", {}, "Loading the games…"));
  const error = h("p", { class: "error", role: "alert" });
  let games = [];
  let game = null;
  let options = {};

  async function open(seed, winnable = false) {
    error.textContent = "";
    try {
      // One open game a player: a new one ends the game in progress, so ask first (as Resign does).
      const { rooms } = await session.request("list-rooms");
      const mine = rooms.find((room) => room.kind === "solitaire" && room.players.player === session.name && !room.result && room.moves > 0);
      if (mine && !confirm(`This ends your game in progress (${mine.name}, ${countText(mine.moves, "move")}). Start a new one?`)) return;
      const snapshot = await session.request("open-solitaire", { game: game.name, options, seed, winnable }, winnable); // the solver looks for one
      app.go("solitaire", snapshot.room);
    } catch (failure) {
      error.textContent = failure.message;
    }
  }

  function render() {
    const defaults = Object.keys(options).length === 0;
    fill(element,
      select("Game", games.map((g) => [g.name, g.title]), game.name, (value) => { game = games.find((g) => g.name === value); options = {}; render(); }, { id: "game" }),
      game.options.map((option) => select(OPTION_LABELS[option.name] || optionHint(option.help), option.choices.map((c, i) => [i, choiceText(c)]), option.choices.indexOf(option.name in options ? options[option.name] : option.default), (index) => {
        const value = option.choices[Number(index)];
        if (value === option.default) delete options[option.name];
        else options[option.name] = value;
        render();
      }, { name: option.name, hint: OPTION_LABELS[option.name] ? optionHint(option.help) : null })),
      h("details", { class: "rules" }, h("summary", {}, `How ${game.title} is played`), h("pre", {}, game.rules)),
      h("div", { class: "buttons" },
        button("Play the day's deal", () => open(null), { class: "primary", disabled: !defaults, title: defaults ? null : "the day's deal is played with the standard options" }),
        button("Play a random deal", () => open(randomSeed())),
        button("Play a winnable deal", () => open(null, true), { title: "a deal the solver proved winnable" })),
      error);
  }

  session.request("list-games").then((reply) => {
    games = reply.games;
    game = games[0];
    render();
  }).catch((failure) => fill(element, failure.message));
  return { element };
}
