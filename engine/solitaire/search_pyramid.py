"""The solver's view of Pyramid: bit masks and a key that is one integer.

Without redeals, a position is fixed by which cards are still in play (a 52-bit mask) and how many cards
are left in the stock: the stock's order never changes, so the cards turned are known, and the waste holds
those still in play, each on the pile it was turned onto. That pair is the key. With redeals (or the
``stock-top`` option with three waste piles, where taking the stock's top card shifts later turns), the
stock's order and the piles join the key.

A search move is a tuple of ``PyramidGame`` moves made one after the other (here always one). The safe move
is removing a King (``docs/solitaire.md``, "Safe moves"). A position where some pyramid card has no partner
left that could ever be available with it is abandoned (``stranded``).
"""

from __future__ import annotations

import random
from typing import Any

from engine.solitaire.pyramid import BELOW, REMOVE, ROWS, SIZE, STOCK, TURN, WASTE, Piles, PyramidGame
from engine.solitaire.rules import KING, VALUE

Step = tuple[int, int, int]
SearchMove = tuple[Step, ...]

_OF_VALUE = tuple(tuple(c for c in range(52) if VALUE[c] == v) for v in range(14))
#: The exposed positions of each pyramid (mask of positions present) met so far.
_EXPOSED: dict[int, int] = {}
_ROW_BASE = tuple(r * (r - 1) // 2 for r in range(1, ROWS + 1))


class PyramidSearch(Piles):
    """A Pyramid position for the search (see the module docstring).

    Args:
        game: the position to start from (copied; the game is left alone).
    """

    def __init__(self, game: PyramidGame) -> None:
        self.game = game
        self.draw = game.draw
        self.stock_top = game.stock_top
        self.cards = list(game.cards)
        self.present = game.present
        self.in_play = game.in_play
        self.stock = list(game.stock)
        self.waste = [list(pile) for pile in game.waste]
        self.pass_order = list(game.pass_order)
        self.redeals_left = game.redeals_left
        self.position_of = list(game.position_of)
        self.simple_key = not game.redeals and not (game.stock_top and game.draw > 1)
        # A King on the waste is safe to remove unless that would change how a redeal groups three cards.
        self.safe_waste = game.draw == 1 or not game.redeals
        self.pyramid_of = [sum(1 << c for c in _OF_VALUE[v] if self.position_of[c] >= 0) for v in range(14)]
        self.off_pyramid_of = [
            sum(1 << c for c in _OF_VALUE[v] if self.position_of[c] < 0) for v in range(14)
        ]
        self.dead_rule = game.draw == 1 and not game.stock_top and not game.redeals

    def key(self) -> int:
        """The position's key (see the module docstring)."""
        if self.simple_key:
            return self.in_play | len(self.stock) << 52
        return hash(
            (
                self.in_play,
                len(self.stock),
                self.redeals_left,
                tuple(self.pass_order),
                tuple(tuple(p) for p in self.waste),
            )
        )

    @property
    def won(self) -> bool:
        """True when the pyramid is cleared."""
        return self.present == 0

    def text(self, step: Step) -> str:
        """The notation of a step (``docs/formats.md``)."""
        return self.game._text(step)

    # -- making and taking back steps ---------------------------------------------------------------------

    def do(self, step: Step) -> tuple[Any, ...]:
        """Make one step; returns what ``undo`` needs."""
        _, a, b = step
        if step == TURN:
            if self.stock:
                k = min(self.draw, len(self.stock))
                waste = self.waste
                for i in range(k):
                    waste[i].append(self.stock.pop())
                return (0, k)
            saved = ([list(pile) for pile in self.waste], self.pass_order)
            left = {c for pile in self.waste for c in pile}
            self.pass_order = [c for c in self.pass_order if c in left]
            self.stock = list(reversed(self.pass_order))
            for pile in self.waste:
                pile.clear()
            self.redeals_left -= 1
            return (1, saved)
        card_a = self._take(a)
        card_b = self._take(b) if b >= 0 else -1
        return (2, a, b, card_a, card_b)

    def undo(self, token: tuple[Any, ...]) -> None:
        """Take back the step ``token`` came from (the most recent one still made)."""
        kind = token[0]
        if kind == 0:
            for i in reversed(range(token[1])):
                self.stock.append(self.waste[i].pop())
        elif kind == 1:
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

    # -- safe moves and the move list ---------------------------------------------------------------------

    def _exposed(self) -> int:
        present = self.present
        mask = _EXPOSED.get(present)
        if mask is not None:
            return mask
        if len(_EXPOSED) > 100_000:
            _EXPOSED.clear()
        mask = 0
        for r in range(1, ROWS + 1):
            base = _ROW_BASE[r - 1]
            row = present >> base & ((1 << r) - 1)
            if r < ROWS:
                below = present >> (base + r) & ((1 << (r + 1)) - 1)
                row &= ~(below | below >> 1)
            mask |= row << base
        _EXPOSED[present] = mask
        return mask

    def _available(self) -> list[tuple[int, int]]:
        cards = self.cards
        out = []
        mask = self._exposed()
        while mask:
            low = mask & -mask
            p = low.bit_length() - 1
            out.append((p, cards[p]))
            mask ^= low
        for k, pile in enumerate(self.waste):
            if pile:
                out.append((WASTE + k, pile[-1]))
        if self.stock_top and self.stock:
            out.append((STOCK, self.stock[-1]))
        return out

    def safe(self) -> Step | None:
        """Removing an available King (from the waste only where that cannot change a redeal), if any."""
        cards = self.cards
        mask = self._exposed()
        while mask:
            low = mask & -mask
            p = low.bit_length() - 1
            if VALUE[cards[p]] == KING:
                return (REMOVE, p, -1)
            mask ^= low
        if self.safe_waste:
            for k, pile in enumerate(self.waste):
                if pile and VALUE[pile[-1]] == KING:
                    return (REMOVE, WASTE + k, -1)
        return None

    def _dead(self) -> int:
        """The mask of waste cards that can never be available again (draw one, no redeal, no stock-top):
        those under a card that can never be removed. There only a pyramid card pairs with a card off the
        pyramid (the waste's top is the only one of those available), so a waste card is removable only when
        it is a King or a pyramid card of the partner value is still in play."""
        if not self.dead_rule:
            return 0
        in_play = self.in_play
        waste = self.waste[0]
        for k in range(len(waste) - 1, 0, -1):
            v = VALUE[waste[k]]
            if v != KING and not self.pyramid_of[13 - v] & in_play:
                dead = 0
                for c in waste[:k]:
                    dead |= 1 << c
                return dead
        return 0

    def stranded(self) -> bool:
        """True when some pyramid card has no partner left that could ever be available with it: no card of
        the partner value off the pyramid that is not dead (``_dead``), and every one on the pyramid covers
        it or is covered by it."""
        in_play = self.in_play
        present = self.present
        live = in_play & ~self._dead()
        position_of = self.position_of
        off = self.off_pyramid_of
        for v in range(1, KING):
            if off[13 - v] & live:
                continue
            mine = self.pyramid_of[v] & in_play
            if not mine:
                continue
            partners = self.pyramid_of[13 - v] & in_play
            for c in _OF_VALUE[v]:
                if not mine >> c & 1:
                    continue
                p = position_of[c]
                if not present >> p & 1:
                    continue
                for d in _OF_VALUE[13 - v]:
                    if partners >> d & 1:
                        q = position_of[d]
                        if not (BELOW[p] >> q & 1 or BELOW[q] >> p & 1):
                            break
                else:
                    return True
        return False

    def moves(self, rng: random.Random | None) -> list[SearchMove]:
        """The moves to try: pairs taking pyramid cards first (two before one), then the others, then the
        turn of the stock; none when the position is stranded. ``rng`` shuffles pairs of equal standing."""
        if self.stranded():
            return []
        avail = self._available()
        both: list[SearchMove] = []
        one: list[SearchMove] = []
        kings: list[SearchMove] = []
        rest: list[SearchMove] = []
        for x, (p, c) in enumerate(avail):
            v = VALUE[c]
            if v == KING:
                if p != STOCK:
                    kings.append(((REMOVE, p, -1),))
                continue
            need = 13 - v
            for q, d in avail[x + 1 :]:
                if VALUE[d] == need:
                    if q < SIZE:
                        both.append(((REMOVE, p, q),))
                    elif p < SIZE:
                        one.append(((REMOVE, p, q),))
                    else:
                        rest.append(((REMOVE, p, q),))
        if rng is not None:
            rng.shuffle(both)
            rng.shuffle(one)
        moves = kings + both + one + rest
        if self.stock or (self.redeals_left and any(self.waste)):
            moves.append((TURN,))
        return moves
