"""The solver's view of Baker's Dozen: one deck, every card face up, no stock, one card moved at a time.

``OpenSearch`` holds each column as an immutable ``bytes`` (bottom first), so a move replaces two of the
thirteen and taking it back puts the two old ones back: nothing is copied but the column a card lands on,
and a snapshot for the best-first search is a tuple of references. The key is the sum of the columns'
Zobrist hashes (a random 64-bit number per depth and card, XORed; kept up to date move by move, and
computed for a best-first child without making the move): interchangeable columns count once and the column
order does not matter, as in ``ColumnSearch``. The foundations need no key: they hold exactly the cards
found in no column. Per-column facts (cards lying above a lower card of their suit, the score's part) are
cached by the column's ``bytes``.

It abandons positions where some cards can never move (``stuck``; ``docs/solitaire.md``, "Dead ends").
Safe moves to the foundations follow ``docs/solitaire.md``, "Safe moves": with one deck a card may go up
safely when it is the next card of its suit and every suit has reached the value below it.

The best-first and beam searches' ``children``, most of the solver's time, run compiled where the extension
is built (``engine/_kernels.c``, :mod:`engine.compiled`), with exactly the pure method's results.
"""

from __future__ import annotations

import random
import sys

from engine.compiled import COMPILED
from engine.solitaire.column_moves import ANY_FOUNDATION, move_text
from engine.solitaire.columns import ColumnGame
from engine.solitaire.rules import BASES, BUILDS_ON, KING, SUIT, VALUE, Empty, card_of

if COMPILED:
    from engine import _kernels

Step = tuple[int, int, int]
SearchMove = tuple[Step, ...]
#: What ``OpenSearch.undo`` needs: source, destination, card, the key before, the two old columns and hashes.
Token = tuple[int, int, int, int, bytes, bytes, int, int]

#: ``_CARD[suit][value]``: the card (value 14: none, -1).
_CARD = tuple(tuple(card_of(s, v) if 1 <= v <= 13 else -1 for v in range(15)) for s in range(4))
#: ``_ONE[card]``: the card as a one-byte ``bytes``.
_ONE = tuple(bytes((c,)) for c in range(52))
_CACHE_LIMIT = 200_000
_ZOBRIST = random.Random(20261202)
#: ``_Z[depth * 52 + card]``: the number a card at that depth of a column (0 at the bottom) XORs in.
_Z = tuple(_ZOBRIST.getrandbits(64) for _ in range(52 * 52))
#: ``_STEP[i][j]``: the step from column ``i`` to column ``j``; ``_UP[i]``: from column ``i`` to the foundations.
_STEP = tuple(tuple((i, j, 1) for j in range(13)) for i in range(13))
_UP = tuple((i, ANY_FOUNDATION, 1) for i in range(13))
#: The same as one-step moves (``SearchMove``).
_MOVE = tuple(tuple((step,) for step in row) for row in _STEP)
_MOVE_UP = tuple((step,) for step in _UP)
_TO_EMPTY = (52,)
#: ``_Z`` as the compiled kernel reads it: 8 bytes a number, in this machine's byte order.
_Z_BYTES = b"".join(z.to_bytes(8, sys.byteorder) for z in _Z)

#: What ``OpenSearch`` knows of a column (cached by its ``bytes``): per suit, the least over the column's cards
#: of that suit of the cards above the card plus its value (199 where the suit has none); the cards (with
#: their depths, 0 at the bottom) lying above a lower card of their own suit; how many those are; 1 when the
#: top card is one of them, else 0; per suit, the lowest value in the column (99: none).
Facts = tuple[int, int, int, int, tuple[tuple[int, int], ...], int, int, tuple[int, ...]]


def _column_hash(col: bytes) -> int:
    """The column's Zobrist hash (0 for an empty column)."""
    h = 0
    for d, c in enumerate(col):
        h ^= _Z[d * 52 + c]
    return h


class OpenSearch:
    """A Baker's Dozen position for the search (see the module docstring).

    Args:
        game: the position to start from (copied; the game is left alone); ``fits(game)`` must hold.
    """

    #: Best-first searches alongside find the wins (the solver runs ``BEST_FIRSTS`` of them) ...
    best_first = True
    #: ... and one depth-first search, the one that can prove a deal lost, ...
    depth_firsts = 1
    #: ... taking turns of this many positions (the best-first ones: ``solver.QUOTA``, 400).
    depth_quota = 100

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
        self.colh = [_column_hash(col) for col in self.cols]
        self.colsum = sum(self.colh)
        self.where = [0] * 52
        for i, col in enumerate(self.cols):
            for d, c in enumerate(col):
                self.where[c] = i << 8 | d
        self._facts: dict[bytes, Facts] = {}
        #: Whether :meth:`children` runs the compiled kernel (tests set it false to compare the two paths).
        self.compiled = COMPILED

    def key(self) -> int:
        """The position's key: equal for positions with the same future (column order aside)."""
        return self.colsum

    @property
    def won(self) -> bool:
        """True when every card is on the foundations."""
        return self.on_found == 52

    # -- making and taking back steps ---------------------------------------------------------------------

    def do(self, step: Step) -> Token:
        """Make one step (a column's top card onto another column or a foundation); returns what ``undo``
        needs (the two old columns and their hashes among it)."""
        src, dst, _ = step
        cols = self.cols
        colh = self.colh
        col = cols[src]
        c = col[-1]
        cols[src] = col[:-1]
        before = self.colsum
        hs = colh[src]
        h = hs ^ _Z[(len(col) - 1) * 52 + c]
        colh[src] = h
        total = before + h - hs
        if dst >= 0:
            to = cols[dst]
            cols[dst] = to + _ONE[c]
            ht = colh[dst]
            h = ht ^ _Z[len(to) * 52 + c]
            colh[dst] = h
            total += h - ht
            self.where[c] = dst << 8 | len(to)
        else:
            to = col
            ht = 0
            self.on_found += 1
            self.nextv[SUIT[c]] = VALUE[c] + 1
        self.colsum = total
        return (src, dst, c, before, col, to, hs, ht)

    def undo(self, token: Token) -> None:
        """Take back the step ``token`` came from (the most recent one still made)."""
        src, dst, c, before, col, to, hs, ht = token
        cols = self.cols
        if dst >= 0:
            cols[dst] = to
            self.colh[dst] = ht
        else:
            self.on_found -= 1
            self.nextv[SUIT[c]] = VALUE[c]
        self.where[c] = src << 8 | (len(col) - 1)
        cols[src] = col
        self.colh[src] = hs
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
        facts = self._facts
        at = [-1] * 52
        empty = -1
        urgency = [99] * 13
        n0, n1, n2, n3 = nextv
        for j, col in enumerate(cols):
            if col:
                at[col[-1]] = j
                f = facts.get(col) or self._learn(col)
                urgency[j] = min(f[0] - n0, f[1] - n1, f[2] - n2, f[3] - n3)
            elif empty < 0 and kings:
                empty = j
        to_foundation: list[SearchMove] = []
        # Moves to an empty column come after every other (scores above 10,000).
        scored: list[tuple[float, SearchMove]] = []
        noise = rng.random if rng is not None else None
        for i, col in enumerate(cols):
            if not col:
                continue
            top = col[-1]
            row = _MOVE[i]
            if VALUE[top] == nextv[SUIT[top]]:
                to_foundation.append(_MOVE_UP[i])
            size = len(col)
            churn = size > 1 and table[col[-2] * 52 + top]
            group = 0 if (size == 1 and kings) else (2 if churn else 1)
            ui = urgency[i] * 10
            for b in bases[top]:
                j = at[b]
                if j >= 0:
                    score: float = group * 1000 + ui - urgency[j]
                    if noise is not None:
                        score += noise() * 30
                    scored.append((score, row[j]))
            if empty >= 0 and size > 1 and VALUE[top] == KING:
                score = (12 if churn else 11) * 1000.0 + ui
                if noise is not None:
                    score += noise() * 30
                scored.append((score, row[empty]))
        scored.sort()
        return to_foundation + [m for _, m in scored]

    def _learn(self, col: bytes) -> Facts:
        """The column's ``Facts`` (see there), computed and cached."""
        if len(self._facts) > _CACHE_LIMIT:
            self._facts.clear()
        best = [199, 199, 199, 199]
        depth = len(col) - 1
        found: list[tuple[int, int]] = []
        low = [99, 99, 99, 99]
        for d, c in enumerate(col):
            v = VALUE[c]
            suit = SUIT[c]
            if depth + v < best[suit]:
                best[suit] = depth + v
            depth -= 1
            if low[suit] < v:
                found.append((c, d))
            else:
                low[suit] = v
        topb = 1 if found and found[-1][1] == len(col) - 1 else 0
        out = (best[0], best[1], best[2], best[3], tuple(found), len(found), topb, tuple(low))
        self._facts[col] = out
        return out

    # -- dead ends ----------------------------------------------------------------------------------------

    def stuck(self) -> bool:
        """True when the position is lost because some cards can never move (one deck, no stock, one card
        moved at a time; ``docs/solitaire.md``, "Dead ends"). The frozen set starts as every card lying above
        a lower card of its own suit (it must go onto another column before it can go up) that an empty column
        cannot take, and loses, until none is left to lose, the cards with a card to go onto: one in play and
        not covered by a card of the set. Whatever is left never moves, so never goes up."""
        kings = self.empty_rule is Empty.KING
        facts = self._facts
        frozen: list[tuple[int, int, int]] = []
        top = [-1] * 13
        for i, col in enumerate(self.cols):
            f = facts.get(col) or self._learn(col)
            if f[5]:
                for c, d in f[4]:
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
        return (
            tuple(self.cols),
            tuple(self.nextv),
            self.on_found,
            self.colsum,
            tuple(self.where),
            tuple(self.colh),
        )

    def restore(self, snap: tuple[object, ...]) -> None:
        """Go back to a position ``snapshot`` returned."""
        cols, nextv, on_found, colsum, where, colh = snap
        self.colh = list(colh)  # type: ignore[call-overload]
        self.cols = list(cols)  # type: ignore[call-overload]
        self.nextv = list(nextv)  # type: ignore[call-overload]
        self.on_found = on_found  # type: ignore[assignment]
        self.colsum = colsum  # type: ignore[assignment]
        self.where = list(where)  # type: ignore[call-overload]

    def score(self) -> int:
        """How far the position looks from a win (lower is better): the cards not yet on the foundations,
        plus the cards lying above a lower card of their own suit (each must move once more), plus the cards
        lying above the next card each foundation wants."""
        return self._misplaced() + self._above_wanted()

    def _misplaced(self) -> int:
        """The cards not on the foundations plus those lying above a lower card of their own suit."""
        facts = self._facts
        misplaced = 52 - self.on_found
        for col in self.cols:
            misplaced += (facts.get(col) or self._learn(col))[5]
        return misplaced

    def _above_wanted(self) -> int:
        """The cards lying above the next card each foundation wants."""
        cols = self.cols
        where = self.where
        above = 0
        for suit in range(4):
            wanted = _CARD[suit][self.nextv[suit]]
            if wanted >= 0:
                w = where[wanted]
                above += len(cols[w >> 8]) - 1 - (w & 255)
        return above

    def children(self, seen: dict[int, object]) -> list[tuple[int, SearchMove, bool, int]]:
        """:meth:`pure_children`, by the compiled kernel when it runs (:mod:`engine.compiled`; the same list,
        in the same order) or when :attr:`compiled` is set false by the pure Python code."""
        if self.compiled:
            return _kernels.open_children(
                self.cols,
                self.colh,
                self.nextv,
                self.where,
                self.on_found,
                self.bases,
                self.empty_rule is Empty.KING,
                seen,
                _Z_BYTES,
                _MOVE,
                _MOVE_UP,
            )
        return self.pure_children(seen)

    def pure_children(self, seen: dict[int, object]) -> list[tuple[int, SearchMove, bool, int]]:
        """For a best-first search: each move from here (those of ``moves``, dead ends not looked for) with
        the safe moves after it, as ``(key, steps, won, score)``, but those whose key is in ``seen``; the
        position is left unchanged. The same as making each move with ``do``, ``safe`` and ``score``, only
        faster: a move between columns is not made. Its key follows from the two columns' hashes; it changes
        the score by the two columns' facts (the card leaves the cards above a lower one of its suit if it
        was one, joins them if its new column holds a lower card of its suit) and by the wanted cards in the
        two columns; and it can make safe only the card it uncovers (the position here has no safe move: a
        best-first search makes them all)."""
        out: list[tuple[int, SearchMove, bool, int]] = []
        cols = self.cols
        colh = self.colh
        nextv = self.nextv
        bases = self.bases
        facts = self._facts
        known = [(facts.get(col) or self._learn(col)) for col in cols]
        here = 52 - self.on_found + self._above_wanted()
        at = [-1] * 53
        kings = self.empty_rule is Empty.KING
        for j, col in enumerate(cols):
            here += known[j][5]
            if col:
                at[col[-1]] = j
            elif kings and at[52] < 0:
                at[52] = j
        colsum = self.colsum
        low = min(nextv)
        # A card moved from ``src`` to ``dst`` lies above one card more for each wanted card in ``dst``, one
        # less for each in ``src`` but itself.
        wanted = {_CARD[suit][v] for suit, v in enumerate(nextv) if v <= 13}
        wanted_in = [0] * 13
        for c in wanted:
            wanted_in[self.where[c] >> 8] += 1
        slow: list[SearchMove] = []
        for i, col in enumerate(cols):
            if not col:
                continue
            c = col[-1]
            suit = SUIT[c]
            value = VALUE[c]
            if value == nextv[suit]:
                slow.append(_MOVE_UP[i])
            size = len(col)
            row = _MOVE[i]
            # A King has no card to go onto; slot 52 of ``at`` is the empty column it may go to.
            targets = bases[c] if value != KING else (_TO_EMPTY if size > 1 else ())
            if size > 1 and VALUE[col[-2]] == low and nextv[SUIT[col[-2]]] == low:
                for b in targets:
                    if at[b] >= 0:
                        slow.append(row[at[b]])
                continue
            hs = colh[i]
            key_here = colsum - hs + (hs ^ _Z[(size - 1) * 52 + c])
            score_here = here - known[i][6] - wanted_in[i] + (1 if c in wanted else 0)
            for b in targets:
                j = at[b]
                if j < 0:
                    continue
                ht = colh[j]
                key = key_here - ht + (ht ^ _Z[len(cols[j]) * 52 + c])
                if key not in seen:
                    score = score_here + wanted_in[j]
                    if known[j][7][suit] < value:
                        score += 1
                    out.append((key, row[j], False, score))
        for move in slow:
            tokens = [self.do(move[0])]
            steps = [move[0]]
            while (m := self.safe()) is not None:
                tokens.append(self.do(m))
                steps.append(m)
            key = self.colsum
            if key not in seen:
                won = self.on_found == 52
                out.append((key, tuple(steps), won, 0 if won else self.score()))
            for token in reversed(tokens):
                self.undo(token)
        return out
