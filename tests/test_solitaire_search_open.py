"""Baker's Dozen's search view (``engine/solitaire/search_open.py``): steps taken back exactly, snapshots that
restore the whole position, a key blind to column order, and the same moves as the game allows."""

from __future__ import annotations

import random

import pytest

from engine.solitaire import new_game
from engine.solitaire.column_moves import ANY_FOUNDATION
from engine.solitaire.columns import ColumnGame
from engine.solitaire.search_open import OpenSearch
from tests.test_solitaire_support import trivial_bakers_deck

OPTIONS = [{}, {"build": "any-suit"}, {"kings": "stay"}]


def view(options: dict[str, str], seed: int) -> tuple[ColumnGame, OpenSearch]:
    game = new_game("bakers-dozen", options, seed=seed)
    assert isinstance(game, ColumnGame) and OpenSearch.fits(game)
    return game, OpenSearch(game)


def position(state: OpenSearch) -> tuple[object, ...]:
    return (tuple(state.cols), tuple(state.nextv), state.on_found, state.key(), tuple(state.where))


@pytest.mark.parametrize("options", OPTIONS)
def test_steps_are_taken_back_exactly_and_follow_the_game(options: dict[str, str]) -> None:
    for seed in range(1, 6):
        game, state = view(options, seed)
        rng = random.Random(seed)
        tokens = []
        seen = [position(state)]
        for _ in range(60):
            moves = [m[0] for m in state.moves(None)]
            if not moves:
                break
            step = rng.choice(moves)
            # Every move the view offers is legal in the game, and leads to the same columns.
            game.apply(state.text(step))
            tokens.append(state.do(step))
            seen.append(position(state))
            assert [list(col) for col in state.cols] == game.columns
            assert state.key() == OpenSearch(game).key()
        for token in reversed(tokens):
            seen.pop()
            state.undo(token)
            assert position(state) == seen[-1]


def test_a_snapshot_restores_the_foundations_too() -> None:
    game = new_game("bakers-dozen", deck=trivial_bakers_deck())
    assert isinstance(game, ColumnGame)
    state = OpenSearch(game)
    snap = state.snapshot()
    before = position(state)
    for _ in range(6):  # the four Aces and two Twos
        step = state.safe()
        assert step is not None and step[1] == ANY_FOUNDATION
        state.do(step)
    assert state.on_found == 6 and state.safe() is not None
    state.restore(snap)
    assert position(state) == before
    assert state.nextv == [1, 1, 1, 1]  # nothing up: every suit wants its Ace
    assert state.safe() is not None and state.moves(None)


def test_the_key_ignores_column_order() -> None:
    game, state = view({}, 7)
    game.columns = game.columns[::-1]
    assert OpenSearch(game).key() == state.key()
    game.columns[0], game.columns[1] = game.columns[1][:-1], game.columns[1][-1:] + game.columns[0]
    assert OpenSearch(game).key() != state.key()


Child = tuple[int, tuple[tuple[int, int, int], ...], bool, int]


def reference_children(state: OpenSearch) -> set[Child]:
    """Each move of ``moves`` made with ``do``, the safe moves after it, then keyed and scored."""
    out: set[Child] = set()
    for (step,) in state.moves(None):
        tokens = [state.do(step)]
        steps = [step]
        while (m := state.safe()) is not None:
            tokens.append(state.do(m))
            steps.append(m)
        won = state.won
        out.add((state.key(), tuple(steps), won, 0 if won else state.score()))
        for token in reversed(tokens):
            state.undo(token)
    return out


@pytest.mark.parametrize("options", OPTIONS)
def test_best_first_children_are_the_moves_made(options: dict[str, str]) -> None:
    """``children`` (keys and scores worked out without making a move) gives what making each move does, but
    the children already seen, and leaves the position as it was."""
    met = 0
    for seed in range(1, 9):
        _, state = view(options, seed)
        rng = random.Random(seed)
        for _ in range(80):
            while (m := state.safe()) is not None:
                state.do(m)
            if state.won or state.stuck():
                break
            before = position(state)
            expected = reference_children(state)
            seen: dict[int, object] = {k: None for k, *_ in list(expected)[:1]}
            got = state.children(seen)
            assert position(state) == before
            assert len(got) == len({k for k, *_ in got})
            assert set(got) == {child for child in expected if child[0] not in seen}
            met += len(got)
            moves = [m[0] for m in state.moves(None)]
            if not moves:
                break
            state.do(rng.choice(moves))
    assert met > 1000
