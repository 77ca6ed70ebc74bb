"""A solver for every solitaire of the package: depth-first search with a transposition table.

The search works on a copy of the game, making and taking back moves in place. At each position it looks
the canonical position up (``Game._key``: columns sorted, so interchangeable columns count once; only the
stock's length where that determines it) in a table of hashes of positions already searched, then makes the
safe moves to the foundations (``Game._safe_move``: moves that cannot lose a won game) and looks the result
up too, then tries
the pruned move list (``Game._moves(prune=True)``: a single empty column as destination, no whole column
moved to an empty one), best-looking moves first. Because every position reachable from the deal is visited
at most once, an exhausted search proves the deal unsolvable.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum

from engine.solitaire.base import Game, Move, Token

_CHECK_EVERY = 512


class Outcome(StrEnum):
    """What the search decided."""

    SOLVABLE = "solvable"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass
class Solution:
    """A search result.

    Attributes:
        outcome: solvable, unsolvable, or unknown (time or node budget spent).
        moves: when solvable, the moves (formats.md notation) that win from the position searched, safe
            foundation moves included; else empty.
        nodes: how many positions were expanded.
        seconds: wall time spent, in seconds.
    """

    outcome: Outcome
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class _Budget(Exception):
    pass


def solve(game: Game, timeout: float | None = None, max_nodes: int | None = None) -> Solution:
    """Search for a win from ``game``'s current position (``game`` itself is left unchanged).

    Args:
        game: any game from ``new_game``; the search knows every card, face-down and stock included.
        timeout: give up after this many seconds (``None``: no limit).
        max_nodes: give up after expanding this many positions (``None``: no limit).

    Returns:
        A ``Solution``; with ``Outcome.SOLVABLE`` its ``moves`` replay from the position to a win.
    """
    start = time.perf_counter()
    work = game.copy()
    searcher = _Search(work, start + timeout if timeout is not None else None, max_nodes)
    try:
        found = searcher.run()
    except _Budget:
        return Solution(Outcome.UNKNOWN, [], searcher.nodes, time.perf_counter() - start)
    elapsed = time.perf_counter() - start
    if found:
        return Solution(Outcome.SOLVABLE, [work._text(m) for m in searcher.path], searcher.nodes, elapsed)
    return Solution(Outcome.UNSOLVABLE, [], searcher.nodes, elapsed)


class _Search:
    """One depth-first search over ``game``, iterative (no recursion limit), making moves in place."""

    def __init__(self, game: Game, deadline: float | None, max_nodes: int | None) -> None:
        self.game = game
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.seen: set[int] = set()
        self.path: list[Move] = []
        self.autos: list[Token] = []
        self.nodes = 0

    def _expand(self) -> tuple[int, list[Move] | None]:
        """Make the safe moves; returns how many, and the moves to try (``None``: the game is won)."""
        game = self.game
        seen = self.seen
        key = hash(game._key())
        if key in seen:
            return 0, []
        seen.add(key)
        made = 0
        while (m := game._safe_move()) is not None:
            self.autos.append(game._do(m))
            self.path.append(m)
            made += 1
        if game.won:
            return made, None
        if made:
            key = hash(game._key())
            if key in seen:
                return made, []
            seen.add(key)
        self.nodes += 1
        if (
            self.nodes % _CHECK_EVERY == 0
            and self.deadline is not None
            and time.perf_counter() > self.deadline
        ):
            raise _Budget
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Budget
        return made, game._moves(prune=True)

    def _retract(self, made: int) -> None:
        for _ in range(made):
            self.game._undo(self.autos.pop())
            self.path.pop()

    def run(self) -> bool:
        """True when a win is found (``path`` then holds it); False when the search is exhausted."""
        game = self.game
        made, moves = self._expand()
        if moves is None:
            return True
        # A frame: [safe moves made on entry, moves to try, next index, token of the move that led here].
        stack: list[tuple[int, list[Move], list[int], Token | None]] = [(made, moves, [0], None)]
        while stack:
            made, moves, index, entry = stack[-1]
            i = index[0]
            if i < len(moves):
                index[0] = i + 1
                m = moves[i]
                token = game._do(m)
                self.path.append(m)
                sub_made, sub_moves = self._expand()
                if sub_moves is None:
                    return True
                stack.append((sub_made, sub_moves, [0], token))
                continue
            stack.pop()
            self._retract(made)
            if entry is not None:
                game._undo(entry)
                self.path.pop()
        return False
