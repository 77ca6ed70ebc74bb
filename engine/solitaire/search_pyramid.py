"""The solver's view of Pyramid: bit masks and a key that is one integer.

Without redeals the stock only ever loses its top card, so its length fixes it, and the key is the mask of
pyramid positions left, the stock's length and the values of the waste cards that may still be played, pile
by pile: suits never matter, a buried King goes the moment it is uncovered, and (drawing one, without the
stock's top) nothing under a waste card that can never go is ever available again (``docs/solitaire.md``,
"Pyramid's key"). With redeals (or the ``stock-top`` option with three waste piles, where taking the stock's
top card shifts later turns), the cards in play, the stock's order and the piles make the key.

A search move is a tuple of ``PyramidGame`` moves made one after the other (here always one). The safe moves
are removing a King and a pair every win makes (``docs/solitaire.md``, "Safe moves"). Without redeals a
position is abandoned when some pyramid card can never be removed even if no card were ever used up
(``blocked``) or, drawing one, when the values cannot balance (``unbalanced``); with redeals, when some pyramid
card has no partner left that could ever be available with it (``stranded``); proofs in "Dead ends".
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
#: Per position, the positions it covers, directly or through other cards.
_COVERED = tuple(sum(1 << q for q in range(SIZE) if BELOW[q] >> p & 1) for p in range(SIZE))


def _exposed_of(present: int) -> int:
    """The exposed positions (a mask) of a pyramid whose positions still there are ``present`` (cached)."""
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
        # Per length of the stock, how many of its cards have each value, and which values (without redeals
        # the stock only ever loses its top card, so a stock of length L is the first L cards of this one).
        self.stock_counts = [[0] * 14]
        self.stock_values = [0]
        for c in self.stock:
            counts = list(self.stock_counts[-1])
            counts[VALUE[c]] += 1
            self.stock_counts.append(counts)
            self.stock_values.append(self.stock_values[-1] | 1 << VALUE[c])
        #: Per value, the pyramid positions holding a card of that value.
        self.positions_of = [
            sum(1 << p for p, c in enumerate(self.cards) if VALUE[c] == v) for v in range(14)
        ]
        self.blocked_rule = not game.redeals
        self.kings = self.positions_of[KING]
        self._closures: dict[int, int] = {}
        #: Per position, the bit of the value its card pairs with, and the positions of its possible partners
        #: on the pyramid (those neither covering it nor covered by it).
        self.wants = [1 << (13 - VALUE[c]) if VALUE[c] != KING else 0 for c in self.cards]
        self.partners = [
            0 if VALUE[c] == KING else self.positions_of[13 - VALUE[c]] & ~BELOW[p] & ~_COVERED[p]
            for p, c in enumerate(self.cards)
        ]
        self.off_pairs = game.draw > 1 or game.stock_top

    def key(self) -> int:
        """The position's key (see the module docstring)."""
        if self.simple_key:
            # Exact and canonical: the pyramid's positions left, the stock's length, and the values (suits never
            # matter) of the waste cards that may still be played: a buried King goes as soon as it is
            # uncovered, and under a card that can never be removed (``_dead``) nothing is ever available.
            live = 0
            if self.dead_rule:
                pyramid_of = self.pyramid_of
                in_play = self.in_play
                for c in reversed(self.waste[0]):
                    v = VALUE[c]
                    if v != KING:
                        if not pyramid_of[13 - v] & in_play:
                            break
                        live = live << 4 | v
            else:
                for pile in self.waste:
                    for c in pile:
                        v = VALUE[c]
                        if v != KING:
                            live = live << 4 | v
                    live <<= 4
            return live << 33 | len(self.stock) << 28 | self.present
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
        return _exposed_of(self.present)

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
        return self._forced()

    def _forced(self) -> Step | None:
        """A pair every win makes (``docs/solitaire.md``, "Safe moves"): an exposed pyramid card with one
        partner left that could ever be available with it (a pyramid card neither covering it nor covered by
        it, or a card off the pyramid not lying under a waste card that can never go, ``_dead``), that
        partner available now (a pyramid card, or a waste pile's top where there is no redeal)."""
        in_play = self.in_play
        position_of = self.position_of
        cards = self.cards
        exposed = self._exposed()
        mask = exposed
        live = in_play & ~self._dead() if self.dead_rule else in_play
        while mask:
            low = mask & -mask
            mask ^= low
            p = low.bit_length() - 1
            v = VALUE[cards[p]]
            if v == KING:
                continue
            off = self.off_pyramid_of[13 - v] & live
            if off & (off - 1):
                continue
            only = -1
            for d in _OF_VALUE[13 - v]:
                if not in_play >> d & 1:
                    continue
                q = position_of[d]
                if q >= 0:
                    if BELOW[p] >> q & 1 or BELOW[q] >> p & 1:
                        continue
                elif not off >> d & 1:
                    continue
                if only >= 0:
                    only = -2
                    break
                only = d
            if only < 0:
                continue
            q = position_of[only]
            if q >= 0:
                if exposed >> q & 1:
                    return (REMOVE, p, q)
            elif not self.redeals_left and not self.game.redeals:
                for k, pile in enumerate(self.waste):
                    if pile and pile[-1] == only:
                        return (REMOVE, p, WASTE + k)
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

    def blocked(self) -> bool:
        """True when some pyramid card can never be removed even if no card were ever used up by a pair
        (no redeal; ``docs/solitaire.md``, "Dead ends"). Cards are marked removable until nothing changes: a
        pyramid card once every card covering it is marked and it is a King or has a partner that could then
        be available (a pyramid card every card covering which is marked, not covering it, marked or not; a
        stock card; a waste card every card above which is marked); a waste card once every card above it is
        marked and it is a King or has such a partner on the pyramid (or, drawing three or with the stock's
        top available, off it: a stock card, or such a waste card of another pile)."""
        present = self.present
        stock_values = self.stock_values[len(self.stock)]
        piles = self.waste
        top = [len(pile) - 1 for pile in piles]
        reach = [1 << VALUE[pile[-1]] if pile else 0 for pile in piles]
        off = stock_values
        for r in reach:
            off |= r
        positions_of = self.positions_of
        off_pairs = self.off_pairs
        while True:
            rem = self._closure(present, off)
            if not rem:
                return False
            seen = _exposed_of(rem) | (present & ~rem)
            changed = False
            for k, pile in enumerate(piles):
                j = top[k]
                while j >= 0:
                    v = VALUE[pile[j]]
                    if v != KING and not positions_of[13 - v] & seen:
                        if not off_pairs:
                            break
                        others = stock_values
                        for i, r in enumerate(reach):
                            if i != k:
                                others |= r
                        if not others >> (13 - v) & 1:
                            break
                    j -= 1
                    changed = True
                    if j >= 0:
                        reach[k] |= 1 << VALUE[pile[j]]
                top[k] = j
                off |= reach[k]
            if not changed:
                return True

    def _closure(self, present: int, off: int) -> int:
        """The pyramid positions left unmarked by ``blocked``'s rule for pyramid cards, when the values of
        the cards off the pyramid that could be available are ``off`` (a mask by value; cached)."""
        key = present | off << 28
        rem = self._closures.get(key)
        if rem is not None:
            return rem
        if len(self._closures) > 200_000:
            self._closures.clear()
        kings = self.kings
        wants = self.wants
        partners = self.partners
        rem = present
        changed = True
        while changed:
            changed = False
            uncovered = _exposed_of(rem)
            seen = uncovered | (present & ~rem)
            mask = uncovered
            while mask:
                low = mask & -mask
                mask ^= low
                p = low.bit_length() - 1
                if low & kings or off & wants[p] or partners[p] & seen:
                    rem ^= low
                    changed = True
        self._closures[key] = rem
        return rem

    def unbalanced(self) -> bool:
        """True when no choice of the cards off the pyramid to pair with pyramid cards balances every pair of
        values (draw one, no redeal, no stock-top; ``docs/solitaire.md``, "Dead ends")."""
        in_play = self.in_play
        pyramid_of = self.pyramid_of
        a = [(pyramid_of[u] & in_play).bit_count() for u in range(14)]
        s = self.stock_counts[len(self.stock)]
        w = [0] * 14
        waste = self.waste[0]
        k = len(waste)
        while True:
            for v in range(1, 7):
                b = 13 - v
                wv = w[v]
                wb = w[b] - a[v] + a[b]
                lo = wv if wv > wb else wb
                if lo > wv + s[v] or lo > a[b] or lo > wb + s[b]:
                    break
            else:
                return False
            if k == 0:
                return True
            k -= 1
            u = VALUE[waste[k]]
            if u != KING:
                w[u] += 1
                if w[u] > a[13 - u]:
                    return True

    def moves(self, rng: random.Random | None) -> list[SearchMove]:
        """The moves to try: pairs taking pyramid cards first (two before one), then the others, then the
        turn of the stock; none when the position is stranded. ``rng`` shuffles pairs of equal standing."""
        if self.blocked() if self.blocked_rule else self.stranded():
            return []
        if self.dead_rule and self.unbalanced():
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
