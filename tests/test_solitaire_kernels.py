"""The solver's compiled kernel gives exactly what the pure code gives: Baker's Dozen's best-first children
(keys, steps, won, scores, in the same order, the children already seen left out) on positions reached by
random moves under each build and empty-column rule, and the solver's results and position counts. Skipped
where the extension is not built."""

from __future__ import annotations

import random

import pytest

from engine.compiled import COMPILED
from engine.solitaire import new_game, solve
from engine.solitaire.columns import ColumnGame
from engine.solitaire.search_open import OpenSearch

pytestmark = pytest.mark.skipif(not COMPILED, reason="the compiled kernels are not built here")

OPTIONS = [{}, {"build": "any-suit"}, {"kings": "stay"}]


@pytest.mark.parametrize("options", OPTIONS)
def test_children_are_the_same_on_both_paths(options: dict[str, str]) -> None:
    compared = 0
    for seed in range(1, 13):
        game = new_game("bakers-dozen", options, seed=seed)
        assert isinstance(game, ColumnGame) and OpenSearch.fits(game)
        state = OpenSearch(game)
        assert state.compiled
        rng = random.Random(seed)
        for _ in range(120):
            pure = state.pure_children({})
            seen: dict[int, object] = {k: None for k, *_ in rng.sample(pure, min(2, len(pure)))}
            assert state.children(seen) == state.pure_children(seen)
            assert state.children({}) == pure
            compared += len(pure)
            # A random move, or a random safe one up, to reach positions of every kind.
            moves = [m[0] for m in state.moves(rng)]
            safe = state.safe()
            if safe is not None and rng.random() < 0.5:
                state.do(safe)
            elif moves:
                state.do(rng.choice(moves))
            else:
                break
    assert compared > 2000


@pytest.mark.parametrize("options", OPTIONS)
def test_the_solver_decides_the_same_on_both_paths(
    options: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = [solve(new_game("bakers-dozen", options, seed=s), max_nodes=3000) for s in (1, 2, 3)]
    monkeypatch.setattr("engine.solitaire.search_open.COMPILED", False)
    pure = [solve(new_game("bakers-dozen", options, seed=s), max_nodes=3000) for s in (1, 2, 3)]
    assert [(r.outcome, r.moves, r.nodes) for r in fast] == [(r.outcome, r.moves, r.nodes) for r in pure]
