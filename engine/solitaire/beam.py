"""Beam searches for the solver: they find wins, they prove nothing.

A beam search keeps, move after move, the ``width`` best positions (lowest ``score`` plus a random number
from 0 to ``BEAM_NOISE``) among the children of the positions it kept, each child with the safe moves after
it; a position met before in the same search is not kept again. Where greedy best-first searches dive down
one line of play and stay there, a beam keeps several lines abreast, and wins other deals (Baker's Dozen
deals 201-300 at 18,000 positions each: one beam beside three best-first searches decided 76, four
best-first searches 74; ``docs/solitaire.md``, "Solver"). When the beam dies out (every child
met before) or holds no win, the search starts again with twice the width and new random numbers, until its
table would pass ``limit`` positions.

The view needs ``children`` (``search_open.OpenSearch``): each move's key, steps, whether it wins, and score.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Generator
from typing import Any

Move = Any
#: The perturbation: a random number from 0 to ``BEAM_NOISE`` added to each child's score.
BEAM_NOISE = 1.0


def safe_moves_made(state: Any) -> list[Move]:
    """Make on ``state`` each safe move it offers (``state.safe()``, until None); returns them in order."""
    made: list[Move] = []
    while (m := state.safe()) is not None:
        state.do(m)
        made.append(m)
    return made


def line_to(parents: dict[int, tuple[int, tuple[Move, ...]]], root: int, child: int) -> list[Move]:
    """The steps from the start to ``child`` (``parents``: position key -> (its parent's key, the steps from
    there), the ``root``'s entry holding the safe moves made before it): the root's safe moves, then each
    step on the way down (the best-first searches and the beam searches keep the same table)."""
    path: list[Move] = []
    while child != root:
        child, done = parents[child]
        path[:0] = done
    return list(parents[root][1]) + path


def beam(
    state: Any, count: Any, quota: int, limit: int, width: int, rng: random.Random
) -> Generator[None, None, list[Move] | None]:
    """Beam searches from ``state`` of width ``width``, then twice that, and so on (see the module
    docstring); ``count()`` is called once per position expanded (it raises when the budget is spent);
    yields after every ``quota`` positions; returns the winning steps, or None when the next beam's table
    would pass ``limit`` positions."""
    autos = safe_moves_made(state)
    if state.won:
        return autos
    root = state.key()
    start = state.snapshot()
    budget = quota
    while width * 100 <= limit:
        parents: dict[int, tuple[int, tuple[Move, ...]]] = {root: (0, tuple(autos))}
        level: list[tuple[Any, int]] = [(start, root)]
        while level:
            found: list[tuple[float, int, Any, int, tuple[Move, ...], int]] = []
            for snap, key in level:
                state.restore(snap)
                count()
                for child, steps, won, score in state.children(parents):
                    if child in parents:
                        continue
                    parents[child] = (key, steps)
                    if won:
                        return line_to(parents, root, child)
                    found.append((score + rng.random() * BEAM_NOISE, len(found), snap, key, steps, child))
                budget -= 1
                if budget <= 0:
                    budget = quota
                    yield
            level = []
            for _, _, snap, _, steps, child in heapq.nsmallest(width, found):
                state.restore(snap)
                for s in steps:
                    state.do(s)
                level.append((state.snapshot(), child))
            if len(parents) > limit:
                break
        width *= 2
    return None
