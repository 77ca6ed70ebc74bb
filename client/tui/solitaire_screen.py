"""A solitaire room: the layout (tableau, foundations, stock and waste, or the pyramid), a cursor over the
piles, a source and a target chosen with the keyboard, undo, redo, hint, new deal, won or lost.

The game runs in this process through ``engine.solitaire`` (``SolitaireRoom``); moves use the notation of
``shared/formats.md`` (``t3>t5``, ``s``, ``w>f``, ``p7.1+w``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.tui.cards import card_fragment
from engine.solitaire import GAMES, Game, IllegalMove, new_game

HINT_NODES = 4000


class SolitaireRoom:
    """One solitaire game being played: deal, moves, undo, redo, hint.

    Args:
        game: a name of ``engine.solitaire.GAMES``.
        seed: the deal's seed (None: a random one).
    """

    def __init__(self, game: str, seed: int | None = None):
        self.game_name = game
        self.title = GAMES[game].title
        self.seed = secrets.randbits(31) if seed is None else seed
        self.game: Game = new_game(game, seed=self.seed)

    def state(self) -> dict[str, Any]:
        """The position as ``Game.state()`` (``shared/formats.md``)."""
        return self.game.state()

    def legal(self) -> list[str]:
        """The legal moves now."""
        return self.game.legal_moves()

    def apply(self, move: str) -> None:
        """Make ``move``.

        Raises:
            IllegalMove: the move breaks a rule; nothing changed.
        """
        self.game.apply(move)

    def undo(self) -> str | None:
        """Take back the last move (its text, or None)."""
        return self.game.undo()

    def redo(self) -> str | None:
        """Make the last undone move again (its text, or None)."""
        return self.game.redo()

    def hint(self) -> str | None:
        """A good next move, or None when none is left."""
        return self.game.hint(max_nodes=HINT_NODES)

    def auto(self) -> list[str]:
        """Every safe move to the foundations."""
        return self.game.auto_moves()

    def new_deal(self) -> None:
        """A fresh deal of the same game."""
        self.seed = secrets.randbits(31)
        self.game = new_game(self.game_name, seed=self.seed)


def pile_rows(state: dict[str, Any]) -> list[list[str]]:
    """The pile names the cursor moves over, row by row (top row first)."""
    if "pyramid" in state:
        rows: list[list[str]] = [
            [f"p{r}.{c}" for c, card in enumerate(row, start=1) if card is not None]
            for r, row in enumerate(state["pyramid"], start=1)
        ]
        waste = state["waste"]
        wastes = [f"w{k + 1}" for k in range(len(waste))] if waste and isinstance(waste[0], list) else ["w"]
        return [row for row in rows if row] + [["s", *wastes]]
    top = ["s", "w"] + [f"f{i + 1}" for i in range(len(state["foundations"]))]
    return [top, [f"t{i + 1}" for i in range(len(state["columns"]))]]


@dataclass
class SolitaireScreen:
    """Keyboard state: the cursor (row, index into ``pile_rows``), the selected source pile, the last hint."""

    room: SolitaireRoom
    row: int = 1
    col: int = 0
    source: str | None = None
    hint: str | None = None
    message: str = ""
    seen: dict[str, int] = field(default_factory=dict)

    def rows(self) -> list[list[str]]:
        """The pile rows of the current position."""
        return pile_rows(self.room.state())

    def cursor(self) -> str:
        """The pile under the cursor."""
        rows = self.rows()
        self.row = min(self.row, len(rows) - 1)
        row = rows[self.row]
        self.col = min(self.col, len(row) - 1)
        return row[self.col]

    def move_cursor(self, drow: int, dcol: int) -> None:
        """Move the cursor by rows and piles."""
        rows = self.rows()
        self.row = (self.row + drow) % len(rows)
        row = rows[self.row]
        self.col = (self.col + dcol) % len(row) if dcol else min(self.col, len(row) - 1)

    def place(self, pile: str) -> None:
        """Put the cursor on ``pile`` (if it is in the layout)."""
        for r, row in enumerate(self.rows()):
            if pile in row:
                self.row, self.col = r, row.index(pile)

    def _try(self, moves: list[str]) -> bool:
        for move in moves:
            try:
                self.room.apply(move)
            except IllegalMove:
                continue
            self.message = f"Moved {move}."
            self.source = self.hint = None
            return True
        return False

    def select(self) -> None:
        """Enter: turn the stock, choose the source, or make the move from the source to the cursor."""
        here = self.cursor()
        pyramid = "pyramid" in self.room.state()
        if self.source is None:
            if here == "s" and self._try(["s"]):
                return
            hint = self.hint
            if hint is not None and hint.replace("+", ">").split(">")[0] == here and self._try([hint]):
                return
            self.source, self.message = here, f"From {here}: choose where to (Enter), Esc to cancel."
            return
        src = self.source
        if here == src:
            single = [src] if pyramid else [f"{src}>f"]
            if not self._try(single):
                self.source, self.message = None, "No move from there."
            return
        if pyramid:
            candidates = [f"{src}+{here}", f"{here}+{src}"]
        elif here.startswith("f"):
            candidates = [f"{src}>f", f"{src}>{here}"]
        else:
            runs = [m for m in self.room.legal() if m.startswith(f"{src}>{here}*")]
            candidates = [f"{src}>{here}", *sorted(runs, key=lambda m: -int(m.split("*")[1]))]
        if not self._try(candidates):
            self.message = f"{src} to {here} is not a legal move."
            self.source = None

    def to_foundation(self) -> None:
        """``f``: send the top card of the pile under the cursor (or the source) to a foundation."""
        pile = self.source or self.cursor()
        if not self._try([f"{pile}>f", pile]):
            self.message = f"The top card of {pile} cannot go to a foundation."

    def typed(self, move: str) -> None:
        """Make a move typed in the notation (``t3>t5``)."""
        if not self._try([move.strip()]):
            try:
                self.room.apply(move.strip())
            except IllegalMove as exc:
                self.message = str(exc)

    def undo(self) -> None:
        """Take back the last move."""
        undone = self.room.undo()
        self.source = None
        self.message = f"Undid {undone}." if undone else "Nothing to undo."

    def redo(self) -> None:
        """Make the undone move again."""
        done = self.room.redo()
        self.message = f"Redid {done}." if done else "Nothing to redo."

    def show_hint(self) -> None:
        """Find a good move and put the cursor on its source pile."""
        self.hint = self.room.hint()
        if self.hint is None:
            self.message = "No move left."
            return
        self.message = f"Hint: {self.hint}"
        first = self.hint.replace("+", ">").split(">")[0]
        self.place(first)

    def auto(self) -> None:
        """Make every safe move to the foundations."""
        made = self.room.auto()
        self.message = f"Auto: {' '.join(made)}" if made else "No safe move to the foundations."

    def new_deal(self) -> None:
        """Deal again."""
        self.room.new_deal()
        self.source = self.hint = None
        self.message = "New deal."


def _pile(name: str, card: str | None, screen: SolitaireScreen, label: str = "") -> StyleAndTextTuples:
    here = screen.cursor()
    extra = " class:cursor" if name == here else ""
    if name == screen.source:
        extra += " class:selected"
    text: StyleAndTextTuples = []
    if label:
        text.append((f"class:label{extra}", label))
    if card is None:
        text.append((f"class:dim{extra}", "--"))
    else:
        text.append(card_fragment(card, extra))
    return text


def _stock(count: int, screen: SolitaireScreen) -> StyleAndTextTuples:
    extra = " class:cursor" if screen.cursor() == "s" else ""
    return [(f"class:label{extra}", f"Stock {count:<2}"), ("", "  ")]


def status_text(state: dict[str, Any], title: str) -> tuple[str, str]:
    """The style and the words for won, lost or in play."""
    if state["won"]:
        return "class:won", f"{title}: you won in {state['moves']} moves! n: new deal"
    if state["over"]:
        return "class:warn", f"{title}: no move left - this game is lost. u: undo, n: new deal"
    return "class:title", f"{title} - move {state['moves']}"


def solitaire_lines(screen: SolitaireScreen, height: int) -> StyleAndTextTuples:
    """The whole layout in ``height`` lines at most."""
    state = screen.room.state()
    style, words = status_text(state, screen.room.title)
    out: StyleAndTextTuples = [(style, words), ("", "\n\n")]
    if "pyramid" in state:
        return out + _pyramid(state, screen)
    out += _stock(state["stock"], screen)
    waste: list[str] = state["waste"]
    out += _pile("w", waste[-1] if waste else None, screen, "Waste ")
    out.append(("class:dim", f"({len(waste)})  " if waste else "     "))
    out.append(("class:label", "Found. "))
    for i, pile in enumerate(state["foundations"]):
        out += _pile(f"f{i + 1}", pile[-1] if pile else None, screen)
        out.append(("", " "))
    out.append(("", f"\n{'redeals left ' + str(state['redeals_left']) if state['redeals_left'] else ''}\n"))
    columns: list[list[str]] = state["columns"]
    for i in range(len(columns)):
        name = f"t{i + 1}"
        style = "class:cursor" if name == screen.cursor() else "class:label"
        if name == screen.source:
            style += " class:selected"
        out += [(style, f"{name:>3}"), ("", "  ")]
    out.append(("", "\n"))
    room = max(height - 6, 3)
    shown = [
        col if len(col) <= room else ["+" + str(len(col) - room + 1), *col[-(room - 1) :]] for col in columns
    ]
    for r in range(max((len(c) for c in shown), default=0)):
        for col in shown:
            card = col[r] if r < len(col) else ""
            if card.startswith("+"):
                out.append(("class:dim", f"{card:>3}  "))
            elif card:
                frag = card_fragment(card)
                out += [(frag[0], f"{frag[1]:>3}"), ("", "  ")]
            else:
                out.append(("", "     "))
        out.append(("", "\n"))
    return out


def _pyramid(state: dict[str, Any], screen: SolitaireScreen) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    rows: list[list[str | None]] = state["pyramid"]
    for r, row in enumerate(rows, start=1):
        out.append(("", " " * (3 + 2 * (len(rows) - r))))
        for c, card in enumerate(row, start=1):
            if card is None:
                out.append(("", "    "))
                continue
            frag = _pile(f"p{r}.{c}", card, screen)
            out += frag
            out.append(("", " " * (4 - sum(len(f[1]) for f in frag))))
        out.append(("", "\n"))
    out.append(("", "\n"))
    top = state.get("stock_top")
    out += _stock(state["stock"], screen)
    if top:
        out += [("class:dim", "top "), card_fragment(str(top)), ("", "  ")]
    waste = state["waste"]
    if waste and isinstance(waste[0], list):
        for k, pile in enumerate(waste):
            out += _pile(f"w{k + 1}", pile[-1] if pile else None, screen, f"w{k + 1} ")
            out.append(("", "  "))
    else:
        out += _pile("w", waste[-1] if waste else None, screen, "Waste ")
    out.append(("class:dim", f"   removed {state['removed']}  redeals left {state['redeals_left']}\n"))
    return out
