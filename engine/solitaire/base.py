"""The game object every solitaire shares: moves by text, history with undo/redo, records, hints.

A concrete game (``engine.solitaire.columns.ColumnGame``, ``engine.solitaire.pyramid.PyramidGame``) holds
its layout in plain lists and supplies the rule-specific primitives below; this class turns them into the
public API. Internally a move is a ``Move`` (three ints, meaning fixed by the game) applied *in place* and
taken back from an undo ``Token``, so the solver can search without copying the layout.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any, TypeVar

from engine.cards import card_text

Move = tuple[int, int, int]
"""A game's internal move: three ints whose meaning the game defines."""

Token = tuple[Any, ...]
"""What a game needs to take an applied move back."""


G = TypeVar("G", bound="Game")


class Game(ABC):
    """One solitaire game in progress: the layout, the moves made and those undone.

    Attributes:
        name: the game's name as in the ``GAMES`` registry, e.g. ``"forty-thieves"``.
        options: the game's named switches with every default filled in.
        deck: the cards (0..51, repeated in two-deck games) in dealing order (``docs/formats.md``,
            ``solitaire/1``).
        seed: the seed the deck was shuffled from, or ``None`` for an explicit deck.
    """

    def __init__(self, name: str, options: dict[str, Any], deck: list[int], seed: int | None) -> None:
        self.name = name
        self.options = dict(options)
        self.deck = list(deck)
        self.seed = seed
        self._history: list[tuple[str, Move, Token]] = []
        self._redo: list[tuple[str, Move]] = []

    # -- primitives each game supplies -------------------------------------------------------------------

    @abstractmethod
    def _parse(self, text: str) -> Move:
        """The move ``text`` names, checked against the rules; raises ``IllegalMove`` if it breaks one."""

    @abstractmethod
    def _text(self, move: Move) -> str:
        """The canonical notation of ``move``."""

    @abstractmethod
    def _do(self, move: Move) -> Token:
        """Apply a legal ``move`` in place; returns what ``_undo`` needs to take it back."""

    @abstractmethod
    def _undo(self, token: Token) -> None:
        """Take back the move ``token`` came from (the most recent one still applied)."""

    @abstractmethod
    def _moves(self, prune: bool) -> list[Move]:
        """Every legal move, or with ``prune`` only those a search needs (symmetry and dominance cut)."""

    @abstractmethod
    def _safe_move(self) -> Move | None:
        """A move that can never make a won game lost (a safe move to the foundations), if any."""

    @abstractmethod
    def _key(self) -> Hashable:
        """The canonical position for the solver: equal for positions with the same future."""

    @property
    @abstractmethod
    def won(self) -> bool:
        """True when the game is won (``docs/rules/solitaire.md``: foundations full / pyramid cleared)."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The position as sent to the player: the ``solitaire replay`` object of ``docs/formats.md``."""

    @abstractmethod
    def copy(self) -> Game:
        """An independent copy of the position (without the move history)."""

    def _bare_copy(self: G) -> G:
        """A copy sharing nothing mutable that this class owns (options, deck, an empty history); each game's
        :meth:`copy` then copies its own piles."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.deck = list(self.deck)
        other._history = []
        other._redo = []
        return other

    # -- the public API ----------------------------------------------------------------------------------

    @property
    def moves(self) -> int:
        """How many moves have been made (undone ones not counted)."""
        return len(self._history)

    @property
    def history(self) -> list[str]:
        """The moves made so far, in canonical notation, oldest first."""
        return [text for text, _, _ in self._history]

    @property
    def over(self) -> bool:
        """True when the game is won or no legal move is left (stock and redeals included)."""
        return self.won or not self._moves(prune=False)

    def legal_moves(self) -> list[str]:
        """Every legal move in the notation of ``docs/formats.md`` (``"t3>t5"``, ``"s"``, ``"p7.1+w"``).

        A move to the foundations is listed as ``"A>f"``. Moves straight from the stock (``"s>t4"``) are
        accepted by ``apply`` but not listed, as listing them would reveal the face-down stock card.
        """
        return [self._text(m) for m in self._moves(prune=False)]

    def apply(self, move: str) -> None:
        """Make ``move`` (formats.md notation) and forget any undone moves.

        Raises:
            IllegalMove: the text is not a move of this game or breaks a rule; nothing is changed.
        """
        m = self._parse(move)
        token = self._do(m)
        self._history.append((self._text(m), m, token))
        self._redo.clear()

    def undo(self) -> str | None:
        """Take back the last move; returns its text, or ``None`` when there is nothing to undo."""
        if not self._history:
            return None
        text, m, token = self._history.pop()
        self._undo(token)
        self._redo.append((text, m))
        return text

    def redo(self) -> str | None:
        """Make again the last move undone; returns its text, or ``None`` when there is nothing to redo."""
        if not self._redo:
            return None
        text, m = self._redo.pop()
        self._history.append((text, m, self._do(m)))
        return text

    def auto_moves(self) -> list[str]:
        """Make every safe move to the foundations (one that can never lose a won game); returns them.

        Each is an ordinary move (counted, recorded, undoable); it clears the redo list only if any is made.
        """
        made: list[str] = []
        while (m := self._safe_move()) is not None:
            text = self._text(m)
            self._history.append((text, m, self._do(m)))
            made.append(text)
        if made:
            self._redo.clear()
        return made

    def hint(self, max_nodes: int = 5000) -> str | None:
        """A good next move: the move of ``engine.solitaire.hints.advise`` within ``max_nodes`` search
        positions (the first of a winning line, else a move to a position not seen yet); ``None`` when the
        game is lost or every move goes back to a position seen before. ``advise`` also says which.

        The search knows the face-down and stock cards, so a hint may reflect them."""
        from engine.solitaire.hints import advise

        return advise(self, max_nodes=max_nodes).move

    def to_record(self) -> dict[str, Any]:
        """The game as a ``solitaire/1`` record (``docs/formats.md``): ``options`` only those set away from
        their default; ``seed`` if dealt from one, else ``deck``; ``moves`` the history in canonical notation."""
        from engine.solitaire.catalogue import GAMES

        defaults = {o.name: o.default for o in GAMES[self.name].options}
        options = {
            k: v
            for k, v in self.options.items()
            if defaults.get(k) != v or type(defaults.get(k)) is not type(v)
        }
        record: dict[str, Any] = {"format": "solitaire/1", "game": self.name, "options": options}
        if self.seed is not None:
            record["seed"] = self.seed
        else:
            record["deck"] = [card_text(c) for c in self.deck]
        record["moves"] = self.history
        return record

    def render(self) -> str:
        """The layout as text, from ``state()`` (what the player may see), for ``solitaire deal``."""
        from engine.solitaire.render import render_state

        return render_state(self.state())
