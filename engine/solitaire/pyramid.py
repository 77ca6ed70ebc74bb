"""Pyramid (Solitaire 13): pair available cards totalling 13 until the pyramid is cleared.

Rules source: ``docs/rules/solitaire.md`` ("Pyramid"). The pyramid is 28 positions, row 1 (the apex)
first, each row left to right; position ``(row, i)`` is covered by ``(row + 1, i)`` and ``(row + 1, i + 1)``
and is *exposed* once neither is left. The waste is one pile, or three with the seed's draw-three rule.

Internal moves are ``(kind, a, b)``: ``TURN`` turns the stock (or redeals it); ``(REMOVE, a, b)`` removes the
cards of piles ``a`` and ``b`` (``b`` = -1 for a King alone), where a pile is a pyramid position 0..27,
``WASTE + k`` the k-th waste pile, or ``STOCK`` (its top card, with the ``stock-top`` option).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from engine.cards import card_text
from engine.solitaire.base import Game, Move, Token
from engine.solitaire.errors import IllegalMove
from engine.solitaire.rules import KING, VALUE, number

ROWS = 7
SIZE = ROWS * (ROWS + 1) // 2
WASTE = 100
STOCK = 200
TURN_KIND, REMOVE = 0, 1
TURN: Move = (TURN_KIND, -1, -1)

_TURNED, _REDEALT, _REMOVED = 0, 1, 2


def position(row: int, index: int) -> int:
    """The pyramid position (0..27) of the card at ``row`` (1..7), ``index``-th from the left (1..row)."""
    return row * (row - 1) // 2 + index - 1


def row_index(pos: int) -> tuple[int, int]:
    """The ``(row, index)`` (both 1-based) of pyramid position ``pos`` (0..27)."""
    row = 1
    while pos >= row:
        pos -= row
        row += 1
    return row, pos + 1


COVERS: tuple[tuple[int, ...], ...] = tuple(
    () if r == ROWS else (position(r + 1, i), position(r + 1, i + 1))
    for r, i in (row_index(p) for p in range(SIZE))
)
"""``COVERS[pos]``: the positions of the cards that cover ``pos`` (none on row 7)."""

_COVER_MASK = tuple(sum(1 << q for q in covers) for covers in COVERS)


def _below(pos: int) -> int:
    mask = 0
    for q in COVERS[pos]:
        mask |= 1 << q | _below(q)
    return mask


BELOW: tuple[int, ...] = tuple(_below(p) for p in range(SIZE))
"""``BELOW[pos]``: the mask of positions covering ``pos`` directly or through other cards."""

_OF_VALUE = tuple(sum(1 << c for c in range(52) if VALUE[c] == v) for v in range(14))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Piles:
    """Taking a card from a pile and putting it back, on the state a Pyramid position keeps: ``cards`` (the
    pyramid's card per position), ``present`` (mask of positions still there), ``stock`` and ``waste`` (lists,
    top last), ``in_play`` (mask of cards not yet removed). Shared by the game and the solver's search view,
    which hold the same state. Piles are numbered: pyramid positions ``0..SIZE-1``, ``STOCK``, ``WASTE + i``.
    """

    cards: list[int]
    present: int
    stock: list[int]
    waste: list[list[int]]
    in_play: int

    def _take(self, pile: int) -> int:
        if pile < SIZE:
            self.present &= ~(1 << pile)
            card = self.cards[pile]
        elif pile == STOCK:
            card = self.stock.pop()
        else:
            card = self.waste[pile - WASTE].pop()
        self.in_play &= ~(1 << card)
        return card

    def _put(self, pile: int, card: int) -> None:
        self.in_play |= 1 << card
        if pile < SIZE:
            self.present |= 1 << pile
        elif pile == STOCK:
            self.stock.append(card)
        else:
            self.waste[pile - WASTE].append(card)


class PyramidGame(Piles, Game):
    """A Pyramid game in progress (see the module docstring); built by ``new_game``.

    Args:
        name: the registry name, ``"pyramid"``.
        options: ``draw`` (1 or 3), ``redeals`` (0 or 2), ``stock-top`` (bool), defaults filled in.
        deck: 52 cards in dealing order: the pyramid row 1 to row 7, then the stock, top first.
        seed: the seed the deck came from, or ``None``.
    """

    def __init__(self, name: str, options: dict[str, Any], deck: list[int], seed: int | None) -> None:
        super().__init__(name, options, deck, seed)
        self.title = "Pyramid"
        self.draw = int(options.get("draw", 1))
        self.stock_top = bool(options.get("stock-top", False))
        self.redeals = int(options.get("redeals", 0))
        self.cards = list(deck[:SIZE])
        self.present = (1 << SIZE) - 1
        self.stock: list[int] = list(reversed(deck[SIZE:]))
        self.waste: list[list[int]] = [[] for _ in range(self.draw)]
        self.pass_order: list[int] = list(deck[SIZE:])
        self.redeals_left = self.redeals
        self.removed = 0
        self.position_of = [-1] * 52
        for p, c in enumerate(self.cards):
            self.position_of[c] = p
        self.in_play = (1 << 52) - 1
        self._unchecked: set[int] = set(range(1, KING))

    # -- queries ------------------------------------------------------------------------------------------

    @property
    def won(self) -> bool:
        """True when the pyramid is cleared (the seed's win rule)."""
        return self.present == 0

    def exposed(self, pos: int) -> bool:
        """True when the pyramid card at ``pos`` is still there and no card covers it."""
        return bool(self.present >> pos & 1) and not self.present & _COVER_MASK[pos]

    def exposed_mask(self) -> int:
        """The positions (bit ``pos``) of the exposed pyramid cards."""
        present = self.present
        mask = 0
        for r in range(1, ROWS + 1):
            base = r * (r - 1) // 2
            row = present >> base & ((1 << r) - 1)
            if r < ROWS:
                below = present >> (base + r) & ((1 << (r + 1)) - 1)
                row &= ~(below | below >> 1)
            mask |= row << base
        return mask

    def available(self) -> list[tuple[int, int]]:
        """The available cards as ``(pile, card)``: exposed pyramid cards, waste tops, the stock top (option)."""
        cards = self.cards
        out = [(p, cards[p]) for p in _bits(self.exposed_mask())]
        out += [(WASTE + k, pile[-1]) for k, pile in enumerate(self.waste) if pile]
        if self.stock_top and self.stock:
            out.append((STOCK, self.stock[-1]))
        return out

    # -- move generation ----------------------------------------------------------------------------------

    def _moves(self, prune: bool) -> list[Move]:
        if prune and self._stranded():
            return []
        avail = self.available()
        kings: list[Move] = [(REMOVE, p, -1) for p, c in avail if VALUE[c] == KING and p != STOCK]
        pairs: list[Move] = []
        for x, (p, c) in enumerate(avail):
            need = 13 - VALUE[c]
            for q, d in avail[x + 1 :]:
                if VALUE[d] == need:
                    pairs.append((REMOVE, p, q))
        moves = kings + pairs
        if self.stock or (self.redeals_left and any(self.waste)):
            moves.append(TURN)
        return moves

    def _stranded(self) -> bool:
        """True when some pyramid card has no partner left that could ever be available with it (each
        remaining card of the wanted value covers it or is covered by it), so the pyramid cannot be cleared.

        Only the values whose partners were removed since the last call are looked at (all at first)."""
        values = self._unchecked
        self._unchecked = set()
        in_play = self.in_play
        position_of = self.position_of
        for v in values:
            if v == KING or v == 0:
                continue
            for c in _bits(_OF_VALUE[v] & in_play):
                p = position_of[c]
                if p < 0 or not self.present >> p & 1:
                    continue
                for d in _bits(_OF_VALUE[13 - v] & in_play):
                    q = position_of[d]
                    if q < 0 or not (BELOW[p] >> q & 1 or BELOW[q] >> p & 1):
                        break
                else:
                    return True
        return False

    def _safe_move(self) -> Move | None:
        for p, c in self.available():
            if VALUE[c] == KING and p != STOCK:
                return (REMOVE, p, -1)
        return None

    # -- making and taking back moves ---------------------------------------------------------------------

    def _do(self, move: Move) -> Token:
        kind, a, b = move
        if kind == TURN_KIND:
            if self.stock:
                k = min(self.draw, len(self.stock))
                for i in range(k):
                    self.waste[i if self.draw > 1 else 0].append(self.stock.pop())
                return (_TURNED, k)
            saved = ([list(pile) for pile in self.waste], self.pass_order)
            left = {c for pile in self.waste for c in pile}
            self.pass_order = [c for c in self.pass_order if c in left]
            self.stock = list(reversed(self.pass_order))
            for pile in self.waste:
                pile.clear()
            self.redeals_left -= 1
            return (_REDEALT, saved)
        card_a = self._take(a)
        card_b = self._take(b) if b >= 0 else -1
        self._unchecked.add(13 - VALUE[card_a])
        if b >= 0:
            self._unchecked.add(13 - VALUE[card_b])
        self.removed += 2 if b >= 0 else 1
        return (_REMOVED, a, b, card_a, card_b)

    def _undo(self, token: Token) -> None:
        kind = token[0]
        if kind == _TURNED:
            k = token[1]
            for i in reversed(range(k)):
                self.stock.append(self.waste[i if self.draw > 1 else 0].pop())
        elif kind == _REDEALT:
            piles, order = token[1]
            self.waste = [list(pile) for pile in piles]
            self.pass_order = order
            self.stock = []
            self.redeals_left += 1
        else:
            _, a, b, card_a, card_b = token
            if b >= 0:
                self._put(b, card_b)
            self._put(a, card_a)
            self.removed -= 2 if b >= 0 else 1

    def _key(self) -> Hashable:
        key: tuple[Any, ...] = (self.present, len(self.stock), tuple(tuple(p) for p in self.waste))
        if self.redeals:
            key += (self.redeals_left, tuple(self.stock), tuple(self.pass_order))
        return key

    # -- notation -----------------------------------------------------------------------------------------

    def _pile_name(self, pile: int) -> str:
        if pile < SIZE:
            r, i = row_index(pile)
            return f"p{r}.{i}"
        if pile == STOCK:
            return "s"
        return "w" if self.draw == 1 else f"w{pile - WASTE + 1}"

    def _text(self, move: Move) -> str:
        kind, a, b = move
        if kind == TURN_KIND:
            return "s"
        if b < 0:
            return self._pile_name(a)
        # A pair is one move whichever card is named first: named in one order (the lower place first), so a
        # hint's move reads as the same move in the legal list (the solver may find the pair either way).
        a, b = sorted((a, b))
        return f"{self._pile_name(a)}+{self._pile_name(b)}"

    def _pile(self, name: str, text: str) -> int:
        if name == "s":
            if not self.stock_top:
                raise IllegalMove(
                    text,
                    "the stock is face down: turn it with s (option stock-top is off)",
                    code="stock-face-down",
                )
            return STOCK
        if self.draw == 1 and name == "w":
            return WASTE
        if self.draw > 1 and name in ("w1", "w2", "w3"):
            return WASTE + int(name[1]) - 1
        if name.startswith("p"):
            r, dot, i = name[1:].partition(".")
            row, index = number(r), number(i)
            if dot and row is not None and index is not None and 1 <= row <= ROWS and 1 <= index <= row:
                return position(row, index)
        raise IllegalMove(
            text, f"no pile {name!r} in Pyramid (piles: p1.1 .. p7.7, w or w1 w2 w3, s)", code="no-such-pile"
        )

    def _card(self, pile: int, other: int, text: str) -> int:
        """The card of ``pile`` if it is available to pair with the card of ``other`` (-1: none)."""
        name = self._pile_name(pile)
        if pile < SIZE:
            if not self.present >> pile & 1:
                raise IllegalMove(text, f"{name} is already removed", code="already-removed")
            covering = [q for q in COVERS[pile] if self.present >> q & 1]
            if covering:
                cover = self._pile_name(covering[0])
                if other in covering:
                    raise IllegalMove(
                        text,
                        f"{name} is covered by {cover}: a card never pairs with a card that covers it",
                        code="covered",
                    )
                raise IllegalMove(text, f"{name} is not exposed: {cover} still covers it", code="covered")
            return self.cards[pile]
        if pile == STOCK:
            if not self.stock:
                raise IllegalMove(text, "the stock is empty", code="empty-pile")
            return self.stock[-1]
        waste = self.waste[pile - WASTE]
        if not waste:
            raise IllegalMove(text, f"{name} is empty", code="empty-pile")
        return waste[-1]

    def _parse(self, text: str) -> Move:
        t = text.strip().lower() if isinstance(text, str) else ""
        if t == "s":
            if not self.stock:
                if not any(self.waste):
                    raise IllegalMove(text, "the stock and the waste are empty", code="empty-pile")
                if not self.redeals:
                    raise IllegalMove(
                        text, "the stock is empty: it is gone through once, no redeal", code="no-redeal"
                    )
                if not self.redeals_left:
                    raise IllegalMove(
                        text, f"the stock is empty and all {self.redeals} redeals are used", code="no-redeal"
                    )
            return TURN
        first, plus, second = t.partition("+")
        if not first or (plus and not second):
            raise IllegalMove(
                text, "not a move (moves are s, a pair like p7.1+w, or a King like p7.1)", code="not-a-move"
            )
        a = self._pile(first, text)
        if not plus:
            card = self._card(a, -1, text)
            if VALUE[card] != KING:
                raise IllegalMove(
                    text,
                    f"only a King is removed alone; {card_text(card)} needs a pair totalling 13",
                    code="pair-needed",
                )
            if a == STOCK:
                raise IllegalMove(
                    text,
                    "a King on the stock is turned onto the waste before it is removed",
                    code="turn-king-first",
                )
            return (REMOVE, a, -1)
        b = self._pile(second, text)
        if a == b:
            raise IllegalMove(text, "a card cannot pair with itself", code="own-pile")
        ca, cb = self._card(a, b, text), self._card(b, a, text)
        if KING in (VALUE[ca], VALUE[cb]):
            raise IllegalMove(text, "a King is removed alone, not in a pair", code="king-alone")
        if VALUE[ca] + VALUE[cb] != 13:
            total = VALUE[ca] + VALUE[cb]
            raise IllegalMove(
                text, f"{card_text(ca)} and {card_text(cb)} total {total}, not 13", code="not-thirteen"
            )
        return (REMOVE, a, b)

    # -- views --------------------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The replay object of ``docs/formats.md`` for Pyramid.

        Keys: ``game``, ``won``, ``over``, ``moves``, ``pyramid`` (7 rows, apex first, each left to right:
        card text or ``None`` where removed), ``removed`` (cards discarded), ``stock`` (int), ``waste`` (one
        list bottom first, or a list of three such piles when drawing three), ``redeals_left``; with the
        ``stock-top`` option also ``stock_top`` (the visible top card of the stock, or ``None``).
        """
        rows = [
            [
                card_text(self.cards[position(r, i)]) if self.present >> position(r, i) & 1 else None
                for i in range(1, r + 1)
            ]
            for r in range(1, ROWS + 1)
        ]
        piles = [[card_text(c) for c in pile] for pile in self.waste]
        out: dict[str, Any] = {
            "game": self.name,
            "won": self.won,
            "over": self.over,
            "moves": self.moves,
            "pyramid": rows,
            "removed": self.removed,
            "stock": len(self.stock),
            "waste": piles[0] if self.draw == 1 else piles,
            "redeals_left": self.redeals_left,
        }
        if self.stock_top:
            out["stock_top"] = card_text(self.stock[-1]) if self.stock else None
        return out

    def copy(self) -> PyramidGame:
        """An independent copy of the position, without the move history."""
        other = self._bare_copy()
        other.stock = list(self.stock)
        other.waste = [list(pile) for pile in self.waste]
        other.pass_order = list(self.pass_order)
        other.position_of = list(self.position_of)
        other._unchecked = set(range(1, KING))
        return other
