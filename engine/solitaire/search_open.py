"""The solver's view of Baker's Dozen: one deck, every card face up, no stock, one card moved at a time.

``OpenSearch`` holds each column as an immutable ``bytes`` (bottom first), so a move replaces two of the
thirteen and taking it back puts the two old ones back: nothing is copied but the column a card lands on,
and a snapshot for the best-first search is a tuple of references. The key is the sum of the columns'
hashes (a ``bytes`` caches its hash, so it is computed once per column made): interchangeable columns count
once and the column order does not matter, as in ``ColumnSearch``. The foundations need no key: they hold
exactly the cards found in no column. Per-column facts (cards lying above a lower card of their suit, the
score's part) are cached by the column's ``bytes``.

It abandons positions where some cards can never move (``stuck``; ``docs/solitaire.md``, "Dead ends").
Safe moves to the foundations follow ``docs/solitaire.md``, "Safe moves": with one deck a card may go up
safely when it is the next card of its suit and every suit has reached the value below it.
"""

from __future__ import annotations

import random

from engine.solitaire.column_moves import ANY_FOUNDATION, move_text
from engine.solitaire.columns import ColumnGame
from engine.solitaire.rules import BASES, BUILDS_ON, KING, SUIT, VALUE, Empty, card_of

Step = tuple[int, int, int]
SearchMove = tuple[Step, ...]

#: ``_CARD[suit][value]``: the card (value 14: none, -1).
_CARD = tuple(tuple(card_of(s, v) if 1 <= v <= 13 else -1 for v in range(15)) for s in range(4))
#: ``_ONE[card]``: the card as a one-byte ``bytes``.
_ONE = tuple(bytes((c,)) for c in range(52))
_CACHE_LIMIT = 200_000


class OpenSearch:
    """A Baker's Dozen position for the search (see the module docstring).

    Args:
        game: the position to start from (copied; the game is left alone); ``fits(game)`` must hold.
    """

    #: Best-first searches alongside find the wins (the solver runs ``BEST_FIRSTS`` of them) ...
    best_first = True
    #: ... and one depth-first search, the one that can prove a deal lost.
    depth_firsts = 1

    @staticmethod
    def fits(game: ColumnGame) -> bool:
        """True when ``game`` has the rules this view needs (see the module docstring)."""
        rules = game.rules
        return (
            rules.decks == 1
            and not rules.runs
            and not rules.supermove
            and not rules.foundation_back
            and rules.turn == 0
            and not game.stock
            and not game.waste
            and not any(game.down)
            and rules.empty is not Empty.ANY
        )

    def __init__(self, game: ColumnGame) -> None:
        rules = game.rules
        self.empty_rule = rules.empty
        self.builds_on = BUILDS_ON[rules.build]
        self.bases = BASES[rules.build]
        self.cols = [bytes(col) for col in game.columns]
        found = game.on_foundations
        self.nextv = [1] * 4
        for suit in range(4):
            while self.nextv[suit] <= 13 and found[_CARD[suit][self.nextv[suit]]]:
                self.nextv[suit] += 1
        self.on_found = sum(found)
        self.colsum = sum(map(hash, self.cols))
        self.where = [0] * 52
        for i, col in enumerate(self.cols):
            for d, c in enumerate(col):
                self.where[c] = i << 8 | d
        self._buried: dict[bytes, tuple[tuple[int, int], ...]] = {}
        self._misplaced: dict[bytes, int] = {}
        self._reaches: dict[bytes, tuple[int, int, int, int]] = {}

    def key(self) -> int:
        """The position's key: equal for positions with the same future (column order aside)."""
        return self.colsum

    @property
    def won(self) -> bool:
        """True when every card is on the foundations."""
        return self.on_found == 52

    # -- making and taking back steps ---------------------------------------------------------------------

    def do(self, step: Step) -> tuple[int, ...]:
        """Make one step (a column's top card onto another column or a foundation); returns what ``undo``
        needs."""
        src, dst, _ = step
        cols = self.cols
        col = cols[src]
        c = col[-1]
        rest = col[:-1]
        cols[src] = rest
        before = self.colsum
        total = before + hash(rest) - hash(col)
        if dst >= 0:
            to = cols[dst]
            grown = to + _ONE[c]
            cols[dst] = grown
            total += hash(grown) - hash(to)
            self.where[c] = dst << 8 | len(to)
        else:
            self.on_found += 1
            self.nextv[SUIT[c]] = VALUE[c] + 1
        self.colsum = total
        return (src, dst, c, before)

    def undo(self, token: tuple[int, ...]) -> None:
        """Take back the step ``token`` came from (the most recent one still made)."""
        src, dst, c, before = token
        cols = self.cols
        if dst >= 0:
            cols[dst] = cols[dst][:-1]
        else:
            self.on_found -= 1
            self.nextv[SUIT[c]] = VALUE[c]
        rest = cols[src]
        self.where[c] = src << 8 | len(rest)
        cols[src] = rest + _ONE[c]
        self.colsum = before

    def text(self, step: Step) -> str:
        """The notation of a step (``docs/formats.md``)."""
        return move_text(step)

    # -- safe moves and the move list ---------------------------------------------------------------------

    def safe(self) -> Step | None:
        """A safe move to the foundations (``docs/solitaire.md``, "Safe moves"), if any: with one deck, the
        next card of a suit whose value is the lowest any suit wants (so every card that could be built on
        it is up)."""
        nextv = self.nextv
        low = min(nextv)
        if low > 13:
            return None
        cols = self.cols
        where = self.where
        for suit in range(4):
            if nextv[suit] == low:
                w = where[_CARD[suit][low]]
                i = w >> 8
                if len(cols[i]) == (w & 255) + 1:
                    return (i, ANY_FOUNDATION, 1)
        return None

    def moves(self, rng: random.Random | None) -> list[SearchMove]:
        """The moves to try, best first: foundation moves, then moves that empty a column (where an empty
        column takes a King), then other column moves (a card taken off a card it is built on last, the
        columns whose cards are next wanted dug first), then Kings to an empty column; none in a dead end
        (``stuck``). One empty column stands for all. ``rng`` (a randomised search) shuffles moves of equal
        standing."""
        if self.stuck():
            return []
        cols = self.cols
        bases = self.bases
        nextv = self.nextv
        table = self.builds_on
        kings = self.empty_rule is Empty.KING
        where: dict[int, int] = {}
        empty = -1
        urgency = []
        n0, n1, n2, n3 = nextv
        for j, col in enumerate(cols):
            if col:
                where[col[-1]] = j
                m0, m1, m2, m3 = self._reach(col)
                urgency.append(min(m0 - n0, m1 - n1, m2 - n2, m3 - n3))
            else:
                urgency.append(99)
                if empty < 0 and kings:
                    empty = j
        to_foundation: list[SearchMove] = []
        scored: list[tuple[float, SearchMove]] = []
        to_empty: list[tuple[float, SearchMove]] = []
        noise = rng.random if rng is not None else None
        for i, col in enumerate(cols):
            if not col:
                continue
            top = col[-1]
            if VALUE[top] == nextv[SUIT[top]]:
                to_foundation.append(((i, ANY_FOUNDATION, 1),))
            size = len(col)
            churn = size > 1 and table[col[-2] * 52 + top]
            group = 0 if (size == 1 and kings) else (2 if churn else 1)
            ui = urgency[i] * 10
            for b in bases[top]:
                j = where.get(b, -1)
                if j >= 0:
                    score: float = group * 1000 + ui - urgency[j]
                    if noise is not None:
                        score += noise() * 30
                    scored.append((score, ((i, j, 1),)))
            if empty >= 0 and size > 1 and VALUE[top] == KING:
                score = (2 if churn else 1) * 1000.0 + ui
                if noise is not None:
                    score += noise() * 30
                to_empty.append((score, ((i, empty, 1),)))
        scored.sort()
        to_empty.sort()
        return to_foundation + [m for _, m in scored] + [m for _, m in to_empty]

    def _reach(self, col: bytes) -> tuple[int, int, int, int]:
        """Per suit, the least over the column's cards of that suit of the cards above the card plus its
        value (199 where the suit has none): the column's urgency is the least of these less the value each
        suit wants next (cached by the column)."""
        out = self._reaches.get(col)
        if out is None:
            if len(self._reaches) > _CACHE_LIMIT:
                self._reaches.clear()
            best = [199, 199, 199, 199]
            depth = len(col) - 1
            for c in col:
                score = depth + VALUE[c]
                if score < best[SUIT[c]]:
                    best[SUIT[c]] = score
                depth -= 1
            out = (best[0], best[1], best[2], best[3])
            self._reaches[col] = out
        return out

    # -- dead ends ----------------------------------------------------------------------------------------

    def _buried_in(self, col: bytes) -> tuple[tuple[int, int], ...]:
        """The column's cards (with their depths, 0 at the bottom) that lie above a lower card of their own
        suit, so must go onto another column before they can go up (cached by the column)."""
        out = self._buried.get(col)
        if out is None:
            if len(self._buried) > _CACHE_LIMIT:
                self._buried.clear()
            found: list[tuple[int, int]] = []
            low = [99, 99, 99, 99]
            for d, c in enumerate(col):
                v = VALUE[c]
                suit = SUIT[c]
                if low[suit] < v:
                    found.append((c, d))
                else:
                    low[suit] = v
            out = tuple(found)
            self._buried[col] = out
        return out

    def stuck(self) -> bool:
        """True when the position is lost because some cards can never move (one deck, no stock, one card
        moved at a time; ``docs/solitaire.md``, "Dead ends"). The frozen set starts as every card lying above
        a lower card of its own suit (it must go onto another column before it can go up) that an empty column
        cannot take, and loses, until none is left to lose, the cards with a card to go onto: one in play and
        not covered by a card of the set. Whatever is left never moves, so never goes up."""
        kings = self.empty_rule is Empty.KING
        frozen: list[tuple[int, int, int]] = []
        top = [-1] * 13
        for i, col in enumerate(self.cols):
            for c, d in self._buried_in(col):
                if kings and VALUE[c] == KING:
                    continue
                frozen.append((c, i, d))
                top[i] = d
        if not frozen:
            return False
        where = self.where
        nextv = self.nextv
        bases = self.bases
        while True:
            # Every card with a card to go onto leaves the set at once: the set only shrinks, so a card that
            # can leave now can leave later too, and the set left at the end is the same.
            keep = []
            for item in frozen:
                for b in bases[item[0]]:
                    w = where[b]
                    if VALUE[b] >= nextv[SUIT[b]] and (w & 255) >= top[w >> 8]:
                        break
                else:
                    keep.append(item)
            if not keep:
                return False
            if len(keep) == len(frozen):
                return True
            frozen = keep
            top = [-1] * 13
            for _, i, d in keep:
                if d > top[i]:
                    top[i] = d

    # -- for a best-first search --------------------------------------------------------------------------

    def snapshot(self) -> tuple[object, ...]:
        """The position as immutable data, for ``restore``."""
        return (tuple(self.cols), tuple(self.nextv), self.on_found, self.colsum, tuple(self.where))

    def restore(self, snap: tuple[object, ...]) -> None:
        """Go back to a position ``snapshot`` returned."""
        cols, nextv, on_found, colsum, where = snap
        self.cols = list(cols)  # type: ignore[call-overload]
        self.nextv = list(nextv)  # type: ignore[call-overload]
        self.on_found = on_found  # type: ignore[assignment]
        self.colsum = colsum  # type: ignore[assignment]
        self.where = list(where)  # type: ignore[call-overload]

    def score(self) -> int:
        """How far the position looks from a win (lower is better): the cards not yet on the foundations,
        plus the cards lying above a lower card of their own suit (each must move once more), plus the cards
        lying above the next card each foundation wants."""
        cache = self._misplaced
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        misplaced = 0
        for col in self.cols:
            m = cache.get(col)
            if m is None:
                m = len(self._buried_in(col))
                cache[col] = m
            misplaced += m
        cols = self.cols
        where = self.where
        for suit in range(4):
            wanted = _CARD[suit][self.nextv[suit]]
            if wanted >= 0:
                w = where[wanted]
                misplaced += len(cols[w >> 8]) - 1 - (w & 255)
        return 52 - self.on_found + misplaced
