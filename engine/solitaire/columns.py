"""Column solitaires: the Forty Thieves family and Baker's Dozen, as one game over ``ColumnRules``.

Rules source: ``docs/rules/solitaire.md`` ("Forty Thieves", "The Forty Thieves family", "Baker's Dozen").
A game is a row of parameters (``ColumnRules``): how many columns of how many cards and how many of them
face down, the build rule, whether runs move, what an empty column accepts, how the stock turns and how often
it is redealt. Piles are lists, bottom first (the last item is the top card).

Internal moves are ``(source, destination, count)``: a column is its index 0.., the waste ``WASTE``, the
stock ``STOCK``, foundation ``i`` is ``FOUNDATION + i`` and "whichever foundation takes it" ``ANY_FOUNDATION``;
``TURN`` turns the stock (or redeals it).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from engine.cards import card_text
from engine.solitaire.base import Game, Move, Token
from engine.solitaire.column_moves import (
    ANY_FOUNDATION,
    FOUNDATION,
    STOCK,
    TURN,
    WASTE,
    move_text,
    parse_move,
)
from engine.solitaire.rules import (
    BASES,
    BUILDERS,
    BUILDS_ON,
    KING,
    PREVIOUS,
    SUIT,
    VALUE,
    Build,
    Empty,
    card_of,
)

_UNLIMITED = 1000

_TURNED, _REDEALT, _MOVED = 0, 1, 2


@dataclass(frozen=True)
class ColumnRules:
    """The parameters of one column solitaire (``docs/rules/solitaire.md``).

    Attributes:
        columns: number of columns in the tableau.
        rows: cards dealt to each column.
        face_down: how many of each column's cards, counted from the bottom, are dealt face down.
        build: how a column is built down.
        runs: whether a built run of several top cards moves as one ("sequences move").
        empty: what an empty column accepts.
        turn: cards turned from the stock per ``s`` (1 or 3); 0 when the game has no stock.
        redeals: how many times the waste may be turned back into the stock.
        decks: 1 or 2 standard decks; the foundations are ``4 * decks``.
        aces_out: the aces start the foundations and are not dealt (Lucas).
        kings_bottom: every King is moved to the bottom of its column after the deal (Baker's Dozen).
        foundation_back: the top card of a foundation may go back to a column (PySolFC's common rule).
        supermove: several cards move at once when empty columns allow it, at most 2 ** (empty columns
            not counting the destination) (Aisleriot's common rule).
    """

    columns: int
    rows: int
    face_down: int = 0
    build: Build = Build.SAME_SUIT
    runs: bool = False
    empty: Empty = Empty.ANY
    turn: int = 1
    redeals: int = 0
    decks: int = 2
    aces_out: bool = False
    kings_bottom: bool = False
    foundation_back: bool = False
    supermove: bool = False

    @property
    def foundations(self) -> int:
        """Number of foundation piles: 4 per deck."""
        return 4 * self.decks

    @property
    def deck_size(self) -> int:
        """Cards in the dealing order: 52 per deck, less the aces when they start the foundations."""
        return 52 * self.decks - (4 * self.decks if self.aces_out else 0)


def is_safe(card: int, found: list[int], decks: int, builders: tuple[tuple[int, ...], ...]) -> bool:
    """True when moving ``card`` (a top card) to a foundation can never make a won game lost: every copy of
    the card below it in its suit is on the foundations already (so any other copy of ``card`` can still
    follow it up), and so is every copy of every card that could ever be built on it.

    Args:
        card: the card (0..51).
        found: per card, how many of its copies are on the foundations.
        decks: copies of each card in the game (1 or 2).
        builders: the game's ``BUILDERS[rule]``: per card, the cards that may be put on it.

    The proof, per build rule and for one deck and two: ``docs/solitaire.md``, "Safe moves".
    """
    if found[card] >= decks:
        return False
    below = PREVIOUS[card]
    if below >= 0 and found[below] != decks:
        return False
    return all(found[b] == decks for b in builders[card])


def dig_urgency(columns: list[list[int]], lowest: list[int]) -> list[int]:
    """Per column, how soon it needs digging: the least, over its cards, of the cards above a card plus how
    far that card is from the foundations (its value less ``lowest[suit]``, the lowest value its suit still
    needs). Columns are lists of cards, top last. Used to order moves, by the game's hint and the solver."""
    out = []
    for col in columns:
        best = 99
        depth = len(col) - 1
        for c in col:
            score = depth + VALUE[c] - lowest[SUIT[c]]
            if score < best:
                best = score
            depth -= 1
        out.append(best)
    return out


class ColumnGame(Game):
    """A column solitaire in progress (see the module docstring); built by ``new_game``.

    Args:
        name: the registry name, e.g. ``"lucas"``.
        title: the display name, e.g. ``"Lucas"``, used in rule messages.
        rules: the game's parameters.
        options: the named options, defaults filled in (kept for records).
        deck: ``rules.deck_size`` cards in dealing order (``docs/formats.md``, ``solitaire/1``).
        seed: the seed the deck came from, or ``None``.
    """

    def __init__(
        self,
        name: str,
        title: str,
        rules: ColumnRules,
        options: dict[str, Any],
        deck: list[int],
        seed: int | None,
    ) -> None:
        super().__init__(name, options, deck, seed)
        self.title = title
        self.rules = rules
        n = rules.columns
        dealt = n * rules.rows
        self.columns: list[list[int]] = [list(deck[i:dealt:n]) for i in range(n)]
        if rules.kings_bottom:
            self.columns = [
                [c for c in col if VALUE[c] == KING] + [c for c in col if VALUE[c] != KING]
                for col in self.columns
            ]
        self.down = [min(rules.face_down, max(len(col) - 1, 0)) for col in self.columns]
        self.stock: list[int] = list(reversed(deck[dealt:]))
        self.waste: list[int] = []
        f = rules.foundations
        self.foundation_suit = [i // rules.decks if rules.aces_out else -1 for i in range(f)]
        self.foundation_height = [1 if rules.aces_out else 0] * f
        self.redeals_left = rules.redeals
        self.on_foundations = [rules.decks if rules.aces_out and VALUE[c] == 1 else 0 for c in range(52)]
        self.builds_on = BUILDS_ON[rules.build]
        self._bases = BASES[rules.build]
        self._builders = BUILDERS[rules.build]
        self.several_move = rules.runs or rules.supermove

    # -- queries ------------------------------------------------------------------------------------------

    @property
    def won(self) -> bool:
        """True when every foundation holds Ace to King."""
        return sum(self.foundation_height) == 13 * len(self.foundation_height)

    def foundation_for(self, card: int) -> int:
        """The index of the leftmost foundation that takes ``card`` now, or -1."""
        v = VALUE[card]
        if v == 1:
            for i, s in enumerate(self.foundation_suit):
                if s < 0:
                    return i
            return -1
        s = SUIT[card]
        heights = self.foundation_height
        for i, fs in enumerate(self.foundation_suit):
            if fs == s and heights[i] == v - 1:
                return i
        return -1

    def goes_up(self, card: int) -> bool:
        """True when some foundation takes ``card`` now (an Ace: an empty foundation is left)."""
        below = PREVIOUS[card]
        found = self.on_foundations
        if below < 0:
            return found[card] < self.rules.decks
        return found[below] > found[card]

    def run_length(self, column: int) -> int:
        """How many top cards of a non-empty ``column`` form a built, face-up run (at least 1)."""
        col = self.columns[column]
        limit = len(col) - self.down[column]
        table = self.builds_on
        n = 1
        while n < limit and table[col[-n - 1] * 52 + col[-n]]:
            n += 1
        return n

    def max_run(self, to_empty: bool) -> int:
        """How many cards may move as one run onto a column (to an empty one with ``to_empty``)."""
        if self.rules.runs:
            return _UNLIMITED
        if self.rules.supermove:
            empty = sum(1 for col in self.columns if not col) - (1 if to_empty else 0)
            return 1 << max(empty, 0)
        return 1

    def empty_takes(self, card: int) -> bool:
        """True when an empty column accepts ``card`` (as a single card or the base of a run)."""
        rule = self.rules.empty
        return rule is Empty.ANY or (rule is Empty.KING and VALUE[card] == KING)

    # -- move generation ----------------------------------------------------------------------------------

    def _moves(self, prune: bool) -> list[Move]:
        cols = self.columns
        bases = self._bases
        goes_up = self.goes_up
        to_foundation: list[Move] = []
        revealing: list[Move] = []
        others: list[Move] = []
        to_empty: list[Move] = []
        tops: dict[int, list[int]] = {}
        empties: list[int] = []
        for j, col in enumerate(cols):
            if col:
                tops.setdefault(col[-1], []).append(j)
            else:
                empties.append(j)
        targets = empties[:1] if prune else empties
        run_cap = self.max_run(False) if self.several_move else 1
        empty_cap = self.max_run(True) if self.several_move else 1
        for i, col in enumerate(cols):
            if not col:
                continue
            if goes_up(col[-1]):
                to_foundation.append((i, ANY_FOUNDATION, 1))
            size = len(col)
            longest = min(self.run_length(i), max(run_cap, empty_cap)) if self.several_move else 1
            for n in range(1, longest + 1):
                base = col[-n]
                bucket = revealing if n == size - self.down[i] else others
                if n <= run_cap:
                    for b in bases[base]:
                        for j in tops.get(b, ()):
                            if j != i:
                                bucket.append((i, j, n))
                if targets and n <= empty_cap and self.empty_takes(base) and not (prune and n == size):
                    to_empty.extend((i, j, n) for j in targets)
        from_waste: list[Move] = []
        if self.waste:
            top = self.waste[-1]
            if goes_up(top):
                to_foundation.append((WASTE, ANY_FOUNDATION, 1))
            for b in bases[top]:
                from_waste.extend((WASTE, j, 1) for j in tops.get(b, ()))
            if targets and self.empty_takes(top):
                from_waste.extend((WASTE, j, 1) for j in targets)
        turn = [TURN] if self.stock or (self.redeals_left and self.waste) else []
        if prune and len(revealing) + len(others) + len(to_empty) > 1:
            urgency = self._urgency()
            table = self.builds_on
            down = self.down

            def order(m: Move) -> tuple[int, int, int]:
                col = cols[m[0]]
                under = len(col) - m[2] - 1
                churn = under >= down[m[0]] and under >= 0 and table[col[under] * 52 + col[under + 1]]
                return (churn, urgency[m[0]], -urgency[m[1]])

            revealing.sort(key=order)
            others.sort(key=order)
            to_empty.sort(key=order)
        # Where runs move, splitting runs gives many more column moves: the stock is tried before them.
        if self.rules.runs:
            moves = to_foundation + revealing + from_waste + turn + others + to_empty
        else:
            moves = to_foundation + revealing + from_waste + others + turn + to_empty
        if self.rules.foundation_back:
            for f, height in enumerate(self.foundation_height):
                if height:
                    card = card_of(self.foundation_suit[f], height)
                    for b in bases[card]:
                        moves.extend((FOUNDATION + f, j, 1) for j in tops.get(b, ()))
                    if targets and self.empty_takes(card):
                        moves.extend((FOUNDATION + f, j, 1) for j in targets)
        return moves

    def _urgency(self) -> list[int]:
        """Per column, how soon it needs digging: the least, over its cards, of the cards above a card plus
        how far that card is from the foundations (its value less the lowest value its suit still needs)."""
        found = self.on_foundations
        decks = self.rules.decks
        lowest = []
        for suit in range(4):
            v = 1
            while v <= 13 and found[card_of(suit, v)] >= decks:
                v += 1
            lowest.append(v)
        return dig_urgency(self.columns, lowest)

    def _safe_move(self) -> Move | None:
        found = self.on_foundations
        decks = self.rules.decks
        builders = self._builders
        for i, col in enumerate(self.columns):
            if col and is_safe(col[-1], found, decks, builders):
                return (i, ANY_FOUNDATION, 1)
        # Playing a waste card where the stock is turned several at a time and redealt would change which
        # cards later turns show: not safe there.
        waste_safe = self.rules.turn == 1 or self.rules.redeals == 0
        if self.waste and waste_safe and is_safe(self.waste[-1], found, decks, builders):
            return (WASTE, ANY_FOUNDATION, 1)
        return None

    # -- making and taking back moves ---------------------------------------------------------------------

    def _do(self, move: Move) -> Token:
        src, dst, n = move
        if move == TURN:
            if self.stock:
                k = min(self.rules.turn, len(self.stock))
                for _ in range(k):
                    self.waste.append(self.stock.pop())
                return (_TURNED, k)
            self.stock.extend(reversed(self.waste))
            self.waste.clear()
            self.redeals_left -= 1
            return (_REDEALT,)
        prev_down = 0
        if 0 <= src < FOUNDATION:
            col = self.columns[src]
            moved = col[-n:]
            del col[-n:]
            prev_down = self.down[src]
            if prev_down and prev_down >= len(col):
                self.down[src] = len(col) - 1
        elif src == WASTE:
            moved = [self.waste.pop()]
        elif src == STOCK:
            moved = [self.stock.pop()]
        else:
            moved = [self._take_foundation(src - FOUNDATION)]
        if 0 <= dst < FOUNDATION:
            self.columns[dst].extend(moved)
            f = -1
        else:
            f = dst - FOUNDATION if dst >= FOUNDATION else self.foundation_for(moved[0])
            self.foundation_suit[f] = SUIT[moved[0]]
            self.foundation_height[f] += 1
            self.on_foundations[moved[0]] += 1
        return (_MOVED, src, dst, n, prev_down, f)

    def _take_foundation(self, f: int) -> int:
        height = self.foundation_height[f]
        card = card_of(self.foundation_suit[f], height)
        self.foundation_height[f] = height - 1
        if height == 1:
            self.foundation_suit[f] = -1
        self.on_foundations[card] -= 1
        return card

    def _undo(self, token: Token) -> None:
        kind = token[0]
        if kind == _TURNED:
            for _ in range(token[1]):
                self.stock.append(self.waste.pop())
            return
        if kind == _REDEALT:
            self.waste.extend(reversed(self.stock))
            self.stock.clear()
            self.redeals_left += 1
            return
        _, src, dst, n, prev_down, f = token
        if 0 <= dst < FOUNDATION:
            col = self.columns[dst]
            moved = col[-n:]
            del col[-n:]
        else:
            moved = [self._take_foundation(f)]
        if 0 <= src < FOUNDATION:
            self.columns[src].extend(moved)
            self.down[src] = prev_down
        elif src == WASTE:
            self.waste.append(moved[0])
        elif src == STOCK:
            self.stock.append(moved[0])
        else:
            g = src - FOUNDATION
            self.foundation_suit[g] = SUIT[moved[0]]
            self.foundation_height[g] += 1
            self.on_foundations[moved[0]] += 1

    def _key(self) -> Hashable:
        down = self.down
        cols = tuple(sorted([(down[i], *col) for i, col in enumerate(self.columns)]))
        key: tuple[Any, ...] = (cols, tuple(self.waste), len(self.stock), self.redeals_left)
        if self.redeals_left < self.rules.redeals:
            key += (tuple(self.stock),)
        return key

    def _text(self, move: Move) -> str:
        return move_text(move)

    def _parse(self, text: str) -> Move:
        return parse_move(self, text)

    # -- views --------------------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The replay object of ``docs/formats.md``: face-down cards as ``"??"``, the stock as a count.

        Keys: ``game``, ``won``, ``over``, ``moves``, ``columns`` (lists bottom first), ``foundations``
        (lists Ace first), ``stock`` (int), ``waste`` (bottom first), ``redeals_left``.
        """
        columns = [
            ["??"] * self.down[i] + [card_text(c) for c in col[self.down[i] :]]
            for i, col in enumerate(self.columns)
        ]
        foundations = [
            [card_text(card_of(self.foundation_suit[f], v)) for v in range(1, h + 1)]
            for f, h in enumerate(self.foundation_height)
        ]
        return {
            "game": self.name,
            "won": self.won,
            "over": self.over,
            "moves": self.moves,
            "columns": columns,
            "foundations": foundations,
            "stock": len(self.stock),
            "waste": [card_text(c) for c in self.waste],
            "redeals_left": self.redeals_left,
        }

    def copy(self) -> ColumnGame:
        """An independent copy of the position, without the move history."""
        other = self._bare_copy()
        other.columns = [list(col) for col in self.columns]
        other.down = list(self.down)
        other.stock = list(self.stock)
        other.waste = list(self.waste)
        other.foundation_suit = list(self.foundation_suit)
        other.foundation_height = list(self.foundation_height)
        other.on_foundations = list(self.on_foundations)
        return other
