"""The solver's view of a column solitaire (the Forty Thieves family, Baker's Dozen): flat, fast, exact.

``ColumnSearch`` copies a ``ColumnGame``'s piles into plain lists and keeps a position key up to date as
moves are made and taken back (Zobrist hashing: one random 64-bit number per (depth, card) of a column,
XORed into that column's hash; the columns' hashes are *added*, so interchangeable columns count once and
two equal columns do not cancel out; the waste is hashed the same way and the stock by its length). The
foundations need no key: they hold exactly the cards found nowhere else.

A search move is a tuple of ``ColumnGame`` moves ``(source, destination, count)`` made one after the other:
usually one; a *stock move* turns the stock until a wanted card is its top, then plays it (``s>t4``), in one
step. Safe moves to the foundations follow ``ColumnGame.is_safe`` (the rule and its proof:
``docs/solitaire.md``, "Safe moves").

Baker's Dozen (one deck, every card face up, no stock) has its own, faster view: ``search_open.OpenSearch``.
"""

from __future__ import annotations

import random

from engine.solitaire.column_moves import ANY_FOUNDATION, STOCK, TURN, WASTE, move_text
from engine.solitaire.columns import ColumnGame, dig_urgency, is_safe
from engine.solitaire.rules import KING, PREVIOUS, SUIT, VALUE, Empty, card_of

Step = tuple[int, int, int]
SearchMove = tuple[Step, ...]

_DEPTHS = 112
_ZOBRIST = random.Random(20261201)
_Z = [_ZOBRIST.getrandbits(64) for _ in range(_DEPTHS * 52)]
_ZW = [_ZOBRIST.getrandbits(64) for _ in range(_DEPTHS * 52)]
_ZD = [_ZOBRIST.getrandbits(64) for _ in range(8)]
_ZS = [_ZOBRIST.getrandbits(64) for _ in range(_DEPTHS)]
_ZR = [_ZOBRIST.getrandbits(64) for _ in range(8)]

_UNLIMITED = 1000
#: ``_CARD[suit][value]``: the card (value 14: none, -1).
_CARD = tuple(tuple(card_of(s, v) if 1 <= v <= 13 else -1 for v in range(15)) for s in range(4))


class ColumnSearch:
    """A column game's position for the search (see the module docstring).

    Args:
        game: the position to start from (copied; the game is left alone). ``foundation-back`` is not
            supported here (``supports`` says which games are).
    """

    @staticmethod
    def supports(game: ColumnGame) -> bool:
        """True when this view handles ``game``'s rules (all but ``foundation-back``)."""
        return not game.rules.foundation_back

    def __init__(self, game: ColumnGame) -> None:
        rules = game.rules
        self.rules = rules
        self.decks = rules.decks
        self.cols = [list(col) for col in game.columns]
        self.down = list(game.down)
        self.stock = list(game.stock)
        self.waste = list(game.waste)
        self.found = list(game.on_foundations)
        self.redeals_left = game.redeals_left
        self.builds_on = game.builds_on
        self.bases = game._bases
        self.builders = game._builders
        self.runs = rules.runs
        self.supermove = rules.supermove
        self.empty_rule = rules.empty
        self.turn = rules.turn
        self.won_total = 13 * rules.foundations
        self.on_found = sum(game.foundation_height)
        # A waste card is safe to play only where removing it cannot change later turns of the stock.
        self.safe_waste = rules.turn == 1 or rules.redeals == 0
        self.stock_moves = rules.turn == 1 and rules.redeals == 0
        # Measured: a best-first search alongside finds wins where there is no stock, and slows the others.
        self.best_first = rules.turn == 0
        self.nextv = [self._lowest(suit) for suit in range(4)]
        self._cache: dict[int, int] = {}
        self.colh = [self._column_hash(i) for i in range(len(self.cols))]
        self.colsum = sum(self.colh)
        self.wasteh = 0
        for d, c in enumerate(self.waste):
            self.wasteh ^= _ZW[d * 52 + c]

    def _lowest(self, suit: int) -> int:
        """The lowest value of ``suit`` not all of whose copies are on the foundations (14: none)."""
        v = 1
        while v <= 13 and self.found[_CARD[suit][v]] >= self.decks:
            v += 1
        return v

    def _column_hash(self, i: int) -> int:
        h = _ZD[self.down[i]]
        for d, c in enumerate(self.cols[i]):
            h ^= _Z[d * 52 + c]
        return h

    # -- the key ------------------------------------------------------------------------------------------

    def key(self) -> int:
        """The position's key: equal for positions with the same future (interchangeable columns once)."""
        k = self.colsum ^ self.wasteh ^ _ZS[len(self.stock)]
        if self.redeals_left != self.rules.redeals:
            k ^= _ZR[self.redeals_left] ^ hash(tuple(self.stock))
        return k

    @property
    def won(self) -> bool:
        """True when every card is on the foundations."""
        return self.on_found == self.won_total

    # -- making and taking back steps ---------------------------------------------------------------------

    def _push(self, j: int, cards: list[int]) -> None:
        col = self.cols[j]
        h = self.colh[j]
        d = len(col)
        for c in cards:
            h ^= _Z[d * 52 + c]
            d += 1
        col.extend(cards)
        self.colsum += h - self.colh[j]
        self.colh[j] = h

    def _pop(self, i: int, n: int) -> list[int]:
        col = self.cols[i]
        h = self.colh[i]
        d = len(col) - n
        moved = col[d:]
        del col[d:]
        for c in moved:
            h ^= _Z[d * 52 + c]
            d += 1
        self.colsum += h - self.colh[i]
        self.colh[i] = h
        return moved

    def _set_down(self, i: int, down: int) -> None:
        old = self.down[i]
        if old != down:
            h = self.colh[i] ^ _ZD[old] ^ _ZD[down]
            self.colsum += h - self.colh[i]
            self.colh[i] = h
            self.down[i] = down

    def do(self, step: Step) -> tuple[int, ...]:
        """Make one step; returns what ``undo`` needs."""
        src, dst, n = step
        if step == TURN:
            stock, waste = self.stock, self.waste
            if stock:
                k = min(self.turn, len(stock))
                for _ in range(k):
                    c = stock.pop()
                    self.wasteh ^= _ZW[len(waste) * 52 + c]
                    waste.append(c)
                return (0, k)
            stock.extend(reversed(waste))
            waste.clear()
            self.wasteh = 0
            self.redeals_left -= 1
            return (1,)
        prev_down = -1
        if src >= 0:
            moved = self._pop(src, n)
            prev_down = self.down[src]
            if prev_down and prev_down >= len(self.cols[src]):
                self._set_down(src, len(self.cols[src]) - 1)
        elif src == WASTE:
            c = self.waste.pop()
            self.wasteh ^= _ZW[len(self.waste) * 52 + c]
            moved = [c]
        else:
            moved = [self.stock.pop()]
        if dst >= 0:
            self._push(dst, moved)
        else:
            c = moved[0]
            self.found[c] += 1
            self.on_found += 1
            if self.found[c] == self.decks:
                suit = SUIT[c]
                self.nextv[suit] = self._lowest(suit)
        return (2, src, dst, n, prev_down, moved[0])

    def undo(self, token: tuple[int, ...]) -> None:
        """Take back the step ``token`` came from (the most recent one still made)."""
        kind = token[0]
        if kind == 0:
            stock, waste = self.stock, self.waste
            for _ in range(token[1]):
                c = waste.pop()
                self.wasteh ^= _ZW[len(waste) * 52 + c]
                stock.append(c)
            return
        if kind == 1:
            self.waste.extend(reversed(self.stock))
            self.stock.clear()
            for d, c in enumerate(self.waste):
                self.wasteh ^= _ZW[d * 52 + c]
            self.redeals_left += 1
            return
        _, src, dst, n, prev_down, card = token
        if dst >= 0:
            moved = self._pop(dst, n)
        else:
            self.found[card] -= 1
            self.on_found -= 1
            if VALUE[card] < self.nextv[SUIT[card]]:
                self.nextv[SUIT[card]] = VALUE[card]
            moved = [card]
        if src >= 0:
            self._push(src, moved)
            self._set_down(src, prev_down)
        elif src == WASTE:
            self.wasteh ^= _ZW[len(self.waste) * 52 + card]
            self.waste.append(card)
        else:
            self.stock.append(card)

    def text(self, step: Step) -> str:
        """The notation of a step (``docs/formats.md``)."""
        return move_text(step)

    # -- safe moves and the move list ---------------------------------------------------------------------

    def safe(self) -> Step | None:
        """A safe move to the foundations (``docs/solitaire.md``, "Safe moves"), if any."""
        found = self.found
        decks = self.decks
        builders = self.builders
        nextv = self.nextv
        for i, col in enumerate(self.cols):
            # Only a card its suit wants next can be safe (every copy of the card below it is up).
            if col and VALUE[col[-1]] == nextv[SUIT[col[-1]]] and is_safe(col[-1], found, decks, builders):
                return (i, ANY_FOUNDATION, 1)
        if self.waste and self.safe_waste and is_safe(self.waste[-1], found, decks, builders):
            return (WASTE, ANY_FOUNDATION, 1)
        return None

    def _goes_up(self, c: int) -> bool:
        p = PREVIOUS[c]
        found = self.found
        if p < 0:
            return found[c] < self.decks
        return found[p] > found[c]

    def _max_run(self, to_empty: bool) -> int:
        if self.runs:
            return _UNLIMITED
        if self.supermove:
            empty = sum(1 for col in self.cols if not col) - (1 if to_empty else 0)
            return 1 << max(empty, 0)
        return 1

    def _empty_takes(self, card: int) -> bool:
        rule = self.empty_rule
        return rule is Empty.ANY or (rule is Empty.KING and VALUE[card] == KING)

    def _urgency(self) -> list[int]:
        """Per column, how soon it needs digging: the least, over its cards, of the cards above a card plus
        how far that card is from the foundations (its value less the lowest value its suit still needs)."""
        return dig_urgency(self.cols, self.nextv)

    def moves(self, rng: random.Random | None) -> list[SearchMove]:
        """The moves to try, best first. Pruned: one empty column stands for all, a whole column never moves
        to an empty one; none in a dead end (``stuck``). ``rng`` (a randomised search) shuffles moves of equal
        standing."""
        if self.stuck():
            return []
        cols = self.cols
        bases = self.bases
        goes_up = self._goes_up
        where: dict[int, int] = {}
        twins: list[tuple[int, int]] = []
        empty = -1
        for j, col in enumerate(cols):
            if col:
                t = col[-1]
                if t in where:
                    twins.append((t, j))
                else:
                    where[t] = j
            elif empty < 0 and self.empty_rule is not Empty.NONE:
                empty = j
        several = self.runs or self.supermove
        run_cap = self._max_run(False) if several else 1
        empty_cap = self._max_run(True) if several else 1
        down = self.down
        table = self.builds_on
        to_foundation: list[SearchMove] = []
        scored: list[tuple[float, SearchMove]] = []
        to_empty: list[tuple[float, SearchMove]] = []
        urgency = self._urgency()
        noise = rng.random if rng is not None else None
        for i, col in enumerate(cols):
            if not col:
                continue
            top = col[-1]
            if goes_up(top):
                to_foundation.append(((i, ANY_FOUNDATION, 1),))
            size = len(col)
            face_up = size - down[i]
            longest = 1
            if several:
                cap = max(run_cap, empty_cap)
                while longest < face_up and longest < cap and table[col[-longest - 1] * 52 + col[-longest]]:
                    longest += 1
            ui = urgency[i]
            for n in range(1, longest + 1):
                base = col[-n]
                under = size - n - 1
                # A card taken off a card it is built on ("churn") is tried last in its group.
                churn = under >= down[i] and under >= 0 and table[col[under] * 52 + base]
                # Uncovering a face-down card, or emptying a column where an empty column takes cards.
                reveals = n == face_up and (down[i] > 0 or (n == size and self.empty_rule is not Empty.NONE))
                group = 0 if reveals else (2 if churn else 1)
                if n <= run_cap:
                    for b in bases[base]:
                        j = where.get(b, -1)
                        if j >= 0 and j != i:
                            score: float = group * 1000 + ui * 10 - urgency[j]
                            if noise is not None:
                                score += noise() * 30
                            scored.append((score, ((i, j, n),)))
                            for t, k in twins:
                                if t == b and k != i:
                                    scored.append((score + 0.5, ((i, k, n),)))
                if empty >= 0 and n <= empty_cap and n < size and self._empty_takes(base):
                    score = (2 if churn else 1) * 1000.0 + ui * 10
                    if noise is not None:
                        score += noise() * 30
                    to_empty.append((score, ((i, empty, n),)))
        waste_moves: list[SearchMove] = []
        if self.waste:
            top = self.waste[-1]
            if goes_up(top):
                to_foundation.append(((WASTE, ANY_FOUNDATION, 1),))
            for b in bases[top]:
                j = where.get(b, -1)
                if j >= 0:
                    waste_moves.append(((WASTE, j, 1),))
                for t, k in twins:
                    if t == b:
                        waste_moves.append(((WASTE, k, 1),))
            if empty >= 0 and self._empty_takes(top):
                waste_moves.append(((WASTE, empty, 1),))
        stock_moves: list[SearchMove] = []
        if self.stock:
            stock_moves.append((TURN,))
            if self.stock_moves:
                stock_moves += self._stock_moves()
        elif self.redeals_left and self.waste:
            stock_moves.append((TURN,))
        scored.sort()
        to_empty.sort()
        revealing = [m for s, m in scored if s < 500]
        others = [m for s, m in scored if s >= 500]
        if rng is not None and len(waste_moves) > 1:
            rng.shuffle(waste_moves)
        # Where runs move, splitting runs gives many more column moves: the stock is tried before them.
        if self.runs:
            return to_foundation + revealing + waste_moves + stock_moves + others + [m for _, m in to_empty]
        return to_foundation + revealing + waste_moves + others + stock_moves + [m for _, m in to_empty]

    def _stock_moves(self) -> list[SearchMove]:
        """Turn the stock until a card a foundation takes is its top, then play it up, as one move (turning
        changes no foundation). Other stock cards are reached by turning one at a time."""
        out: list[SearchMove] = []
        stock = self.stock
        goes_up = self._goes_up
        turns: list[Step] = []
        for k in range(len(stock) - 1, -1, -1):
            c = stock[k]
            if goes_up(c):
                out.append((*turns, (STOCK, ANY_FOUNDATION, 1)))
            turns.append(TURN)
        return out

    def stuck(self) -> bool:
        """True when the position is known lost without searching it (never here; ``search_open.OpenSearch``
        knows dead ends in Baker's Dozen)."""
        return False

    # -- for a best-first search --------------------------------------------------------------------------

    def snapshot(self) -> tuple[object, ...]:
        """The position as immutable data, for ``restore``."""
        return (
            tuple(tuple(col) for col in self.cols),
            tuple(self.down),
            tuple(self.stock),
            tuple(self.waste),
            tuple(self.found),
            self.redeals_left,
            tuple(self.colh),
            self.colsum,
            self.wasteh,
            self.on_found,
        )

    def restore(self, snap: tuple[object, ...]) -> None:
        """Go back to a position ``snapshot`` returned."""
        cols, down, stock, waste, found, redeals, colh, colsum, wasteh, on_found = snap
        self.cols = [list(col) for col in cols]  # type: ignore[attr-defined]
        self.down = list(down)  # type: ignore[call-overload]
        self.stock = list(stock)  # type: ignore[call-overload]
        self.waste = list(waste)  # type: ignore[call-overload]
        self.found = list(found)  # type: ignore[call-overload]
        self.redeals_left = redeals  # type: ignore[assignment]
        self.colh = list(colh)  # type: ignore[call-overload]
        self.colsum = colsum  # type: ignore[assignment]
        self.wasteh = wasteh  # type: ignore[assignment]
        self.on_found = on_found  # type: ignore[assignment]

    def score(self) -> int:
        """How far the position looks from a win (lower is better): the cards not yet on the foundations,
        plus the cards lying above a lower card of their own suit (each must move once more), plus the cards
        lying above the next card each foundation wants."""
        cache = self._cache
        if len(cache) > 200_000:
            cache.clear()
        misplaced = 0
        for h, col in zip(self.colh, self.cols, strict=True):
            m = cache.get(h)
            if m is None:
                m = 0
                low = [99, 99, 99, 99]
                for c in col:
                    v = VALUE[c]
                    s = SUIT[c]
                    if low[s] < v:
                        m += 1
                    else:
                        low[s] = v
                cache[h] = m
            misplaced += m
        for suit in range(4):
            wanted = _CARD[suit][self.nextv[suit]]
            if wanted >= 0:
                for col in self.cols:
                    if wanted in col:
                        misplaced += len(col) - 1 - col.index(wanted)
        return self.won_total - self.on_found + misplaced
