"""A solver for every solitaire of the package: randomised depth-first searches sharing a table of positions.

Several depth-first searches start from the same position and take turns (``QUOTA`` positions each), each
trying the moves in its own order: the first in the game's best-first order, the others in that order
perturbed by a random generator seeded from ``seed`` (so a search is the same every time it is run with the
same seed). They share one table of the positions already searched, keyed by a compact position key kept up
to date move by move (``search_columns``, ``search_pyramid``). A search that meets a position in the table
goes back: some search has expanded it, or is expanding it now and will finish it. Safe moves to the
foundations are made without branching (``docs/solitaire.md``, "Safe moves"). Where the game's view asks
for it (no stock: Baker's Dozen), ``BEST_FIRSTS`` best-first searches take turns with them too, to find wins.

Exactness: a win found is the path of moves that search made, so it replays. "Unsolvable" is said only when
every search has run out of moves: then every position reachable from the start has been expanded by some
search (each expanded position's successors were all expanded, or met in the table, which holds only
positions expanded or being expanded), and none was won. The table is bounded: past ``table_size`` entries
the older half is dropped, never a position on a search's current path; a dropped position met again is
simply searched again, so the argument holds and memory stays flat, and a search never runs round a cycle.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from engine.solitaire.base import Game, Move
from engine.solitaire.beam import beam, line_to, safe_moves_made
from engine.solitaire.columns import ColumnGame
from engine.solitaire.pyramid import PyramidGame
from engine.solitaire.search_columns import ColumnSearch
from engine.solitaire.search_open import OpenSearch
from engine.solitaire.search_pyramid import PyramidSearch

#: Positions a search expands before the next one takes its turn.
QUOTA = 400
#: Searches taking turns (the first in best-first order, the others randomised).
SEARCHES = 4
#: Positions the shared table holds before its older half is dropped (about 100 bytes each).
TABLE_SIZE = 1_500_000

BEST_FIRST = True
#: Best-first searches where the game has them: the first in plain order, the others perturbed. Measured on
#: Baker's Dozen deals 1-40 at 1 CPU second: 4 (beside one depth-first search) decided 35, 2 decided 32;
#: since issue 12, three beside one beam search (``BEAMS``; docs/solitaire.md, "Solver").
BEST_FIRSTS = 3
#: The perturbation: a random number from 0 to ``NOISE`` added to each position's score.
NOISE = 3.0
#: Beam searches where the view has ``children`` (``beam.py``), and the first one's width (the k-th: twice
#: the one before). Baker's Dozen deals 201-300 at 18,000 positions each: one beam beside three best-first
#: searches decided 76, four best-first searches 74; kings=stay 78 and 75.
BEAMS = 1
BEAM_WIDTH = 50

_CHECK_EVERY = 256


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
        nodes: how many positions were expanded (all searches together).
        seconds: wall time spent, in seconds.
    """

    outcome: Outcome
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class SearchState(Protocol):
    """A position the search makes moves on in place (``ColumnSearch``, ``PyramidSearch``, ``_GameSearch``)."""

    @property
    def won(self) -> bool: ...

    def key(self) -> int: ...

    def safe(self) -> Move | None: ...

    def moves(self, rng: random.Random | None) -> list[tuple[Move, ...]]: ...

    def do(self, step: Move) -> Any: ...

    def undo(self, token: Any) -> None: ...

    def text(self, step: Move) -> str: ...


class _GameSearch:
    """Any game through its own primitives (``Game._moves(prune=True)``, ``_key``): the slow general path,
    used where the fast views do not apply (Forty Thieves family with ``foundation-back``). No safe moves
    there: a card on a foundation may come back, so the proof of "Safe moves" does not hold."""

    def __init__(self, game: Game) -> None:
        self.game = game.copy()

    @property
    def won(self) -> bool:
        return self.game.won

    def key(self) -> int:
        return hash(self.game._key())

    def safe(self) -> Move | None:
        return None

    def moves(self, rng: random.Random | None) -> list[tuple[Move, ...]]:
        out: list[tuple[Move, ...]] = [(m,) for m in self.game._moves(prune=True)]
        if rng is not None:
            rng.shuffle(out)
        return out

    def do(self, step: Move) -> Any:
        return self.game._do(step)

    def undo(self, token: Any) -> None:
        self.game._undo(token)

    def text(self, step: Move) -> str:
        return self.game._text(step)


def search_state(game: Game) -> SearchState:
    """The fastest search view of ``game``'s position (a copy: ``game`` is left alone)."""
    if isinstance(game, ColumnGame) and ColumnSearch.supports(game):
        return OpenSearch(game) if OpenSearch.fits(game) else ColumnSearch(game)
    if isinstance(game, PyramidGame):
        return PyramidSearch(game)
    return _GameSearch(game)


class _Budget(Exception):
    pass


class _Shared:
    """What the searches share: the table of positions, the budget, the count of positions expanded."""

    def __init__(
        self, deadline: float | None, max_nodes: int | None, table_size: int, clock: Callable[[], float]
    ) -> None:
        self.clock = clock
        self.table: dict[int, None] = {}
        self.paths: list[list[int]] = []
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.table_size = max(table_size, 2)
        self.nodes = 0

    def evict(self) -> None:
        """Drop the older half of the table, keeping every position on a search's current path."""
        keys = list(self.table)
        kept = dict.fromkeys(keys[len(keys) // 2 :])
        for path in self.paths:
            kept.update(dict.fromkeys(path))
        self.table.clear()
        self.table.update(kept)

    def count(self) -> None:
        """Count one expanded position; raises ``_Budget`` when the time or node budget is spent."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Budget
        if self.nodes % _CHECK_EVERY == 0:
            if self.deadline is not None and self.clock() > self.deadline:
                raise _Budget
            if len(self.table) > self.table_size:
                self.evict()


def _search(
    state: SearchState, rng: random.Random | None, shared: _Shared, quota: int
) -> Generator[None, None, list[Move] | None]:
    """One depth-first search; yields after every ``quota`` positions; returns the winning steps, or None
    when it has run out of moves."""
    table = shared.table
    keys: list[int] = []
    shared.paths.append(keys)
    steps: list[Move] = []
    # A frame: moves to try, next index, tokens of the move that led here and of the safe moves made after.
    stack: list[tuple[list[tuple[Move, ...]], list[int], list[Any], list[Any]]] = []
    entry: list[Any] = []
    budget = quota
    while True:
        # Expand the position reached by ``entry`` (the start when the stack is empty).
        moves: list[tuple[Move, ...]] | None = None
        autos: list[Any] = []
        if state.key() not in table:
            while (m := state.safe()) is not None:
                autos.append(state.do(m))
                steps.append(m)
            if state.won:
                return steps
            key = state.key()
            if not autos or key not in table:
                table[key] = None
                keys.append(key)
                shared.count()
                moves = state.moves(rng)
        if moves is not None:
            stack.append((moves, [0], entry, autos))
        else:
            for token in reversed(autos):
                state.undo(token)
            del steps[len(steps) - len(autos) :]
            for token in reversed(entry):
                state.undo(token)
            del steps[len(steps) - len(entry) :]
        budget -= 1
        if budget <= 0:
            budget = quota
            yield
        # Find the next move to make, going back up while a frame has none left.
        while stack:
            frame_moves, index, frame_entry, frame_autos = stack[-1]
            i = index[0]
            if i < len(frame_moves):
                index[0] = i + 1
                move = frame_moves[i]
                entry = [state.do(s) for s in move]
                steps.extend(move)
                break
            stack.pop()
            keys.pop()
            for token in reversed(frame_autos):
                state.undo(token)
            for token in reversed(frame_entry):
                state.undo(token)
            del steps[len(steps) - len(frame_autos) - len(frame_entry) :]
        else:
            return None


def _best_first(
    state: Any, shared: _Shared, quota: int, limit: int, rng: random.Random | None = None
) -> Generator[None, None, list[Move] | None]:
    """A best-first search (lowest ``state.score()`` first, the newest first among equals; with ``rng``, each
    score plus a random number from 0 to ``NOISE``, so searches differ) with its own table
    of at most ``limit`` positions: it finds wins, it proves nothing (it gives up when its table is full). A
    waiting position is kept as its parent's snapshot and the steps from there, so only expanded positions
    are copied."""
    parents: dict[int, tuple[int, tuple[Move, ...]]] = {}
    autos = safe_moves_made(state)
    if state.won:
        return autos
    root = state.key()
    parents[root] = (0, tuple(autos))
    heap: list[tuple[float, int, Any, tuple[Move, ...], int]] = [(0.0, 0, state.snapshot(), (), root)]
    count = 0
    budget = quota
    children = getattr(state, "children", None)
    while heap:
        _, _, snap, steps_to, key = heapq.heappop(heap)
        state.restore(snap)
        for s in steps_to:
            state.do(s)
        shared.count()
        here = state.snapshot()
        if children is not None:
            for child, steps_here, won, score in children(parents):
                if child in parents:
                    continue
                parents[child] = (key, steps_here)
                if won:
                    return line_to(parents, root, child)
                count += 1
                if rng is not None:
                    score += rng.random() * NOISE
                heapq.heappush(heap, (score, -count, here, steps_here, child))
        else:
            for move in state.moves(None):
                tokens = [state.do(s) for s in move]
                steps = list(move)
                while (m := state.safe()) is not None:
                    tokens.append(state.do(m))
                    steps.append(m)
                child = state.key()
                if child not in parents:
                    parents[child] = (key, tuple(steps))
                    if state.won:
                        return line_to(parents, root, child)
                    count += 1
                    score = state.score() + (rng.random() * NOISE if rng is not None else 0.0)
                    heapq.heappush(heap, (score, -count, here, tuple(steps), child))
                for token in reversed(tokens):
                    state.undo(token)
        if len(parents) > limit:
            return None
        budget -= 1
        if budget <= 0:
            budget = quota
            yield
    return None


def solve(
    game: Game,
    timeout: float | None = None,
    max_nodes: int | None = None,
    *,
    seed: int = 0,
    searches: int | None = None,
    table_size: int = TABLE_SIZE,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """Search for a win from ``game``'s current position (``game`` itself is left unchanged).

    Args:
        game: any game from ``new_game``; the search knows every card, face-down and stock included.
        timeout: give up after this many seconds (``None``: no limit).
        max_nodes: give up after expanding this many positions, all searches together (``None``: no limit).
        seed: seeds the randomised searches; the same seed searches the same way (the result differs only
            where a timeout cuts the search short).
        searches: how many depth-first searches take turns (at least 1); ``None``: the view's own number
            (``depth_firsts``: Baker's Dozen runs one, its best-first searches finding the wins), else
            ``SEARCHES``.
        table_size: positions the shared table holds before it drops its older half.
        clock: the clock ``timeout`` and ``Solution.seconds`` are measured on, in seconds: wall time by
            default; ``time.process_time`` counts only this process's CPU time (benchmarks on a busy machine).

    Returns:
        A ``Solution``; with ``Outcome.SOLVABLE`` its ``moves`` replay from the position to a win; with
        ``Outcome.UNSOLVABLE`` no win exists from the position.
    """
    start = clock()
    shared = _Shared(start + timeout if timeout is not None else None, max_nodes, table_size, clock)
    first = search_state(game)
    count = searches if searches is not None else getattr(first, "depth_firsts", SEARCHES)
    states = [first] + [search_state(game) for _ in range(max(count, 1) - 1)]
    quota = getattr(first, "depth_quota", QUOTA)
    runs: list[tuple[SearchState, Generator[None, None, list[Move] | None], bool]] = [
        (state, _search(state, None if k == 0 else random.Random(seed * 1_000_003 + k), shared, quota), True)
        for k, state in enumerate(states)
    ]
    if BEST_FIRST and getattr(states[0], "best_first", False):
        for k in range(BEST_FIRSTS):
            state = search_state(game)
            rng = random.Random(seed * 1_000_003 + SEARCHES + k) if k else None
            runs.insert(k, (state, _best_first(state, shared, QUOTA, table_size // 5, rng), False))
        if hasattr(states[0], "children"):
            for k in range(BEAMS):
                state = search_state(game)
                rng = random.Random(seed * 1_000_003 + 2 * SEARCHES + k)
                search = beam(state, shared.count, QUOTA, table_size // 5, BEAM_WIDTH << k, rng)
                runs.insert(k, (state, search, False))
    try:
        while any(proves for _, _, proves in runs):
            for item in list(runs):
                state, run, _ = item
                try:
                    next(run)
                except StopIteration as done:
                    if done.value is not None:
                        moves = [state.text(s) for s in done.value]
                        return Solution(Outcome.SOLVABLE, moves, shared.nodes, clock() - start)
                    runs.remove(item)
    except _Budget:
        return Solution(Outcome.UNKNOWN, [], shared.nodes, clock() - start)
    return Solution(Outcome.UNSOLVABLE, [], shared.nodes, clock() - start)
