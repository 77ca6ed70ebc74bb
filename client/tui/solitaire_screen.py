"""A solitaire room: the layout (tableau, foundations, stock and waste, or the pyramid), a cursor over the
piles, a source and a target chosen with the keyboard, undo, redo, hint, new deal, resign, won or lost.

The game runs in a server room (``docs/protocol.md`` "Solitaire rooms"): ``SolitaireRoom`` reads the room's
latest view from the model and hands every request to ``submit`` (the app sends it in the background; the
new state arrives as a push). Moves use the notation of ``docs/formats.md`` (``t3>t5``, ``s``, ``w>f``,
``p7.1+w``); a move the view does not list as legal is refused here without a round trip.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.columns import counted, width, wrap
from client.tui.cards import card_fragment
from client.tui.model import Model
from client.tui.solitaire_words import (
    card_words,
    covered_text,
    hint_words,
    move_example,
    move_words,
    moved_text,
    option_text,
    pile_card,
    pile_words,
    turned_text,
)
from engine.solitaire import GAMES, IllegalMove
from protocol import Move

#: ``submit(kind, move)``: send solitaire request ``kind`` (``move``, ``undo``, ``redo``, ``auto``, ``hint``,
#: ``new-deal``, ``resign``) for the current room, ``move`` the move text for ``move``.
Submit = Callable[[str, str | None], None]

#: The longest move the protocol carries (``Move.move``): a longer typed one is refused here, in one line,
#: rather than sent for the codec's or the server's raw refusal.
MOVE_LENGTH: int = next(f for f in fields(Move) if f.name == "move").metadata["max_len"]


class SolitaireRoom:
    """The solitaire room of ``model.solitaire`` as the screen sees it.

    Args:
        model: the client's model (its ``solitaire`` is kept up to date by the session).
        submit: sends a request for the room (see ``Submit``).
    """

    def __init__(self, model: Model, submit: Submit):
        self.model = model
        self.submit = submit

    @property
    def view(self) -> dict[str, Any]:
        """The room's solitaire view (``docs/protocol.md`` "The solitaire view"), ``{}`` before the first."""
        room = self.model.solitaire
        return {} if room is None else room.view

    @property
    def seq(self) -> int:
        """The number of the last action the view reflects (-1 before the first view)."""
        room = self.model.solitaire
        return -1 if room is None else room.seq

    @property
    def title(self) -> str:
        """The game's title, e.g. ``Forty Thieves``."""
        return str(self.view.get("title", "solitaire"))

    @property
    def watching(self) -> bool:
        """Whether this client only watches (someone else plays)."""
        room = self.model.solitaire
        return room is None or room.seat is None

    def over(self) -> bool:
        """Whether the game is over (won, lost or resigned): no move is left to make."""
        return self.view.get("result") is not None

    def state(self) -> dict[str, Any]:
        """The position: the view's ``layout`` (``docs/formats.md`` ``solitaire replay`` object)."""
        layout: dict[str, Any] = self.view.get("layout", {})
        return layout

    def legal(self) -> list[str]:
        """The legal moves now."""
        legal: list[str] = self.view.get("legal") or []
        return legal

    def apply(self, move: str) -> None:
        """Send ``move`` if the view lists it as legal.

        Raises:
            IllegalMove: this client watches, or the move is not legal now; nothing is sent.
        """
        if self.watching:
            raise IllegalMove(move, f"you are watching {self.view.get('player', 'someone')}'s game")
        if move not in self.legal():
            raise IllegalMove(move, "not a legal move now")
        self.submit("move", move)

    def send(self, kind: str, move: str | None = None) -> None:
        """Send request ``kind`` as is (the server's answer, or its refusal, comes back as the notice)."""
        self.submit(kind, move)


def pyramid_alone_refusal(state: dict[str, Any], pile: str) -> str:
    """Why the card of Pyramid ``pile`` cannot be removed alone (``f``) in ``state``, the rule it breaks in
    words: covered (``covered_text``, as Enter says it), not a King (``only a King is removed alone``), a King
    on the stock's top (turned onto the waste first), or nothing there."""
    covered = covered_text(state, pile)
    if covered:
        return covered
    words = card_words(pile, state)
    if words is None:
        if pile == "s":
            return "A card of the stock is removed once turned onto the waste (d)."
        return f"Nothing to remove from {pile_words(pile)}."
    card = pile_card(state, pile) or ""
    if not card.startswith("K"):
        return (
            f"Not allowed: remove {words}: only a King is removed alone; "
            "other cards go in pairs totalling 13 (Enter on each)."
        )
    if pile == "s":
        return f"Not allowed: remove {words}: a King on the stock is turned onto the waste (d) first."
    return f"Not allowed: remove {words}."


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
    top = ([] if stockless(state) else ["s", "w"]) + [f"f{i + 1}" for i in range(len(state["foundations"]))]
    return [top, [f"t{i + 1}" for i in range(len(state["columns"]))]]


def stockless(state: dict[str, Any]) -> bool:
    """Whether the game of ``state`` deals no stock (Baker's Dozen: ``ColumnRules.turn`` 0): its screen has
    no stock nor waste to show or to move the cursor to."""
    info = GAMES.get(str(state.get("game")))
    return info is not None and info.columns is not None and info.columns.turn == 0


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
    #: A turn of the stock sent whose state has not come yet: the view's ``seq`` and ``layout`` then (the
    #: card turned is named once the state after it shows it).
    turning: tuple[int, dict[str, Any]] | None = None
    #: A typed move sent to the server and the position it was typed in (its cards are gone once made).
    trying: tuple[str, dict[str, Any]] | None = None

    def said_made(self, move: str, state: dict[str, Any] | None = None) -> None:
        """Say ``move`` was made in position ``state`` (None: the current one, before the server's state after
        it comes), its cards named (Pyramid's); a turn of the stock names its card once the state after it
        comes (``notice``)."""
        self.message = moved_text(move, self.room.state() if state is None else state)
        self.turning = (self.room.seq, self.room.state()) if move == "s" else None

    def notice(self) -> str:
        """The message for the notice line: ``Turned the stock.`` becomes ``Turned the stock: 7♣.`` as soon
        as the state after the turn is here (unless something else was said meanwhile)."""
        turning = self.turning
        if turning is not None and self.room.seq > turning[0]:
            self.turning = None
            if self.message == moved_text("s"):
                self.message = turned_text(turning[1], self.room.state())
        return self.message

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
            self.said_made(move)
            self.source = self.hint = None
            return True
        return False

    def select(self) -> None:
        """Enter: turn the stock, choose the source, or make the move from the source to the cursor."""
        here = self.cursor()
        state = self.room.state()
        pyramid = "pyramid" in state
        covered = covered_text(state, here) if pyramid else ""
        if self.source is None:
            if here == "s" and self._try(["s"]):
                return
            hint = self.hint
            if hint is not None and hint.replace("+", ">").split(">")[0] == here and self._try([hint]):
                return
            if covered:  # it can take part in no move: said at once rather than after a target is chosen
                self.message = covered
                return
            self.source, self.message = (
                here,
                f"From {card_words(here, state) or pile_words(here)}: choose where to (Enter), Esc to cancel.",
            )
            return
        src = self.source
        if covered:
            self.source, self.message = None, covered
            return
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
        if self._try(candidates):
            return
        if pyramid:
            self.message = (
                f"Not allowed: {move_words(f'{src}+{here}', state)}: "
                "two cards are removed when they total 13, a King alone."
            )
        else:
            self.message = f"Not allowed: {pile_words(src)} → {pile_words(here)}."
        self.source = None

    def to_foundation(self) -> None:
        """``f``: send the top card of the pile under the cursor (or the source) to a foundation; in Pyramid,
        remove its card alone (a King), saying why not when it cannot be (``pyramid_alone_refusal``)."""
        pile = self.source or self.cursor()
        state = self.room.state()
        if "pyramid" in state:
            if pile == "s" or not self._try([pile]):  # ``s`` alone turns the stock: d does that
                self.source, self.message = None, pyramid_alone_refusal(state, pile)
            return
        if not self._try([f"{pile}>f"]):
            self.message = f"The top card of {pile_words(pile)} cannot go to a foundation."

    def typed(self, move: str) -> None:
        """Make a move typed in the notation (``t3>t5``); one the view does not list (``s>t4``) goes to the
        server, which makes it or says which rule it breaks."""
        move = move.strip()
        if len(move) > MOVE_LENGTH:
            self.source, self.trying = None, None
            example = move_example(self.room.state().get("game"))
            self.message = f"That move is too long: a move has at most {MOVE_LENGTH} characters ({example})."
            return
        if not self._try([move]) and not self.room.watching:
            self.room.send("move", move)
            self.trying = (move, self.room.state())
            self.message = self._trying_text()

    def _trying_text(self) -> str:
        return "" if self.trying is None else f"Trying {move_words(*self.trying)}..."

    def typed_made(self, move: str) -> None:
        """The server made the typed ``move``: say so (its cards as they were when typed), unless something
        else was said meanwhile."""
        trying = self.trying
        if trying is not None and trying[0] == move and self.message == self._trying_text():
            self.said_made(move, trying[1])
        self.trying = None

    def _request(self, kind: str, allowed: bool, refused: str) -> None:
        self.source = None
        if self.room.watching:
            self.message = "You are watching: only the player moves."
        elif not allowed:
            self.message = refused
        else:
            self.room.send(kind)

    def undo(self) -> None:
        """Take back the last move."""
        self._request("undo", bool(self.room.view.get("can_undo")), "Nothing to undo.")

    def redo(self) -> None:
        """Make the undone move again."""
        self._request("redo", bool(self.room.view.get("can_redo")), "Nothing to redo.")

    def show_hint(self) -> None:
        """Ask the server for a good move (``hinted`` shows it)."""
        state = self.room.state()
        result = self.room.view.get("result")
        done = (  # a game over needs no hint: say how it ended, not that no move is left
            "The game is won: n for a new deal."
            if state.get("won")
            else f"The game is over ({result}): n for a new deal."
            if result is not None
            else "No move left."
        )
        playing = bool(self.room.legal()) and not state.get("won") and result is None
        self._request("hint", playing, done)
        if playing and not self.room.watching:
            self.message = "Looking for a good move..."

    def hinted(
        self, move: str | None, status: str, undo: int | None = None, from_start: bool = False
    ) -> None:
        """Show the hint ``move`` with what its ``status`` says (``docs/protocol.md``, reply ``hint``; a lost
        game's ``undo`` and ``from_start``) and put the cursor on its source pile. Undo is offered unless
        the deal was lost from the start, where it would not help."""
        self.hint = move
        words = hint_words(status, move, self.room.state(), undo, from_start)
        if move is None:
            undo_key = "u: undo, " if self.room.view.get("can_undo") and not from_start else ""
            self.message = f"{words} {undo_key}x: resign, n: new deal."
            return
        self.message = words
        self.place(move.replace("+", ">").split(">")[0])

    def auto(self) -> None:
        """Make every safe move to the foundations."""
        self._request("auto", not self.room.over(), "The game is over.")

    def new_deal(self) -> None:
        """Deal again (a new room; the unfinished game counts as resigned)."""
        self.hint = None
        self._request("new-deal", True, "")

    def resign(self) -> None:
        """Give the game up (lost when no move is left)."""
        self._request("resign", not self.room.over(), "The game is over.")


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


def status_text(
    state: dict[str, Any], title: str, result: str | None = None, watched: str | None = None
) -> tuple[str, str]:
    """The style and the words for won, lost, resigned or in play (``result`` from the server's view); for a
    watcher (``watched``: the player's name) about that player, with no keys to press."""
    moves = state["moves"]
    if watched is not None:
        if state["won"]:
            return "class:won", f"{title}: {watched} won in {counted(moves, 'move')}."
        if result is not None:  # "dave resigned after 3 moves", "dave lost after 40 moves"
            return "class:warn", f"{title}: {watched} {result} after {counted(moves, 'move')}."
        if state["over"]:
            return "class:warn", f"{title}: no move left for {watched} - move {moves}."
        return "class:title", f"{title} - move {moves}"
    if state["won"]:
        return "class:won", f"{title}: you won in {counted(moves, 'move')}! n: new deal"
    if result is not None:
        return "class:warn", f"{title}: {result} after {counted(moves, 'move')}. n: new deal"
    if state["over"]:
        return "class:warn", f"{title}: no move left - this game is lost. u: undo, x: resign, n: new deal"
    return "class:title", f"{title} - move {moves}"


def deal_text(view: dict[str, Any]) -> str:
    """The deal in words: the day's deal, or its seed when known, the options set away from their defaults,
    and ``winnable`` for a deal the solver proved winnable, e.g. ``seed 12, draw=3, winnable``."""
    parts = [f"the deal of {view['daily']}" if view.get("daily") else ""]
    if view.get("seed") is not None:
        parts.append(f"seed {view['seed']}")
    game = GAMES.get(str(view.get("game")))
    defaults = {o.name: o.default for o in game.options} if game is not None else {}
    options = view.get("options") or {}
    changed = [f"{k}={option_text(v)}" for k, v in options.items() if k in defaults and defaults[k] != v]
    parts.append(" ".join(changed))
    if view.get("winnable"):  # a winnable deal the server picked: its seed only once the game is over
        hidden = view.get("seed") is None and not view.get("daily")  # the day's deal is named by its day
        parts.append("winnable (seed shown at the end)" if hidden else "winnable")
    return ", ".join(p for p in parts if p)


def header_lines(words: str, more: str, cols: int) -> tuple[str, str, list[str]]:
    """The header's state ``words`` and the deal's ``more`` (seed, options, who plays) in ``cols`` columns:
    the first line of ``words`` (wrapped), ``more`` beside it when both fit one line, and the lines below:
    else the rest of ``words`` and ``more``, wrapped."""
    head = wrap(words, cols)
    if not more or width(f"{words}  {more}") <= cols:
        return head[0], (f"  {more}" if more else ""), []
    return head[0], "", head[1:] + wrap(more, cols)


def solitaire_lines(screen: SolitaireScreen, height: int, cols: int = 80) -> StyleAndTextTuples:
    """The whole layout in ``height`` lines of ``cols`` columns at most (the header wraps: nothing of it is
    cut)."""
    state = screen.room.state()
    if not state:
        return [("class:dim", "Waiting for the server...")]
    view = screen.room.view
    watched = str(view.get("player", "someone")) if screen.room.watching else None
    style, words = status_text(state, screen.room.title, view.get("result"), watched)
    who = f"({watched} plays; you watch)" if watched and view.get("result") is None else ""
    model = screen.room.model.solitaire
    known = model.seed if model is not None and model.seat is not None else None
    deal = deal_text(view if view.get("seed") is not None or known is None else {**view, "seed": known})
    first, beside, below = header_lines(words, "  ".join(p for p in (deal, who) if p), cols)
    out: StyleAndTextTuples = [(style, first), ("class:dim", beside)]
    out += [("class:dim", "\n" + line) for line in below]
    out.append(("", "\n\n"))
    height -= len(below)
    if "pyramid" in state:
        return out + _pyramid(state, screen)
    if not stockless(state):
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
