// Choosing a solitaire game and its options in the lobby, then opening the day's deal, a random one or one the
// solver proved winnable.
import { ask } from "./ask.js";
import { button, fill, h, select } from "./dom.js";
import { countText } from "./words.js";

/** A random deal's seed (0 to 2^48, within the protocol's 2^53). */
export function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return words[0] * 65536 + (words[1] & 0xffff);
}

/**
 * Each option's short name, as the Barbu options have ("Leading hearts"), and each of its choices in words
 * with the rule it makes, said under the select for the choice made (as the Barbu table's options do). The
 * server's `help` says only what the other choice does, in the engine's words ("any-suit: …", "(PySolFC)"):
 * it is said only for an option the page does not know.
 */
const OPTION_WORDS = {
  "foundation-back": ["Cards back from a foundation", {
    false: ["off", "a card on a foundation stays there"],
    true: ["on", "the top card of a foundation may go back to a column"],
  }],
  supermove: ["Runs move at once", {
    false: ["off", "one card moves at a time"],
    true: ["on", "several cards move at once when empty columns allow it"],
  }],
  draw: ["Cards turned from the stock", {
    1: ["1 at a time", "the stock turns one card at a time onto the waste"],
    3: ["3 at a time", "the stock turns three cards at a time, one onto each of three wastes; each top is available"],
  }],
  "stock-top": ["Stock's top card in play", {
    false: ["off", "a card of the stock plays once it is turned onto the waste"],
    true: ["on", "the top card of the stock is available too"],
  }],
  redeals: ["Redeals", {
    0: ["none", "once through the stock, no redeal"],
    2: ["2", "the waste may be turned back into the stock twice"],
  }],
  kings: ["Kings", {
    bottom: ["to the bottom", "every King goes to the bottom of its column at the deal; an emptied column stays empty"],
    stay: ["stay where dealt", "Kings are not moved; an empty column takes a King only"],
  }],
  build: ["Building on columns", {
    "other-suit": ["on another suit", "build down on a card of a different suit (9♥ on 10♣, not on 10♥)"],
    "any-suit": ["on any suit", "build down regardless of suit"],
  }],
};

/** A choice of an option the page has no words for: its value as it is ("on" and "off" for true and false). */
function choiceText(value) {
  if (value === true) return "on";
  if (value === false) return "off";
  return String(value);
}

/** The select's choices, `[index, text, rule]` each, for server option `option` (`list-games`). */
function optionChoices(option) {
  const words = OPTION_WORDS[option.name];
  return option.choices.map((choice, i) => {
    const said = words && words[1][String(choice)];
    return said ? [i, said[0], said[1]] : [i, choiceText(choice)];
  });
}

/** The option's short name; for an option the page does not know, the server's help without the program's name. */
function optionLabel(option) {
  const words = OPTION_WORDS[option.name];
  return words ? words[0] : option.help.replace(/\s*\([^)]*\)$/, "");
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
      if (mine && !(await ask(`This ends your game in progress (${mine.name}, ${countText(mine.moves, "move")}). Start a new one?`, { yes: "Start a new one" }))) return;
      const snapshot = await session.request("open-solitaire", { game: game.name, options, seed, winnable }, winnable); // the solver looks for one
      app.go("solitaire", snapshot.room);
    } catch (failure) {
      if (failure.code === "daily-played") {
        // The day's deal open in a room of the player's: back to it. Finished: said in words, not the
        // server's "give a seed", which the page has no field for.
        const room = /in room (\d+)/.exec(String(failure.message));
        if (room) return app.go("solitaire", room[1]);
        error.textContent = `You have played today's deal of ${game.title}: one game a day counts. Play a random deal, or come back tomorrow for the next one.`;
        return;
      }
      error.textContent = failure.message;
    }
  }

  function render() {
    const defaults = Object.keys(options).length === 0;
    fill(element,
      select("Game", games.map((g) => [g.name, g.title]), game.name, (value) => { game = games.find((g) => g.name === value); options = {}; render(); }, { id: "game" }),
      game.options.map((option) => select(optionLabel(option), optionChoices(option), option.choices.indexOf(option.name in options ? options[option.name] : option.default), (index) => {
        const value = option.choices[Number(index)];
        if (value === option.default) delete options[option.name];
        else options[option.name] = value;
        render();
      }, { name: option.name })),
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
