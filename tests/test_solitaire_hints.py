"""Hints that never mislead (``engine.solitaire.hints``): following ``sure`` hints wins every deal the solver
proves solvable, in every game; guesses never go back to a position already seen, so hinting repeatedly
always ends in a win, a loss or "no move"; a lost position says so."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pytest

from engine.solitaire import new_game
from engine.solitaire.base import Game
from engine.solitaire.hints import HintLine, HintStatus, advise, advise_record, fresh_move, positions_seen
from tests.test_solitaire_support import UNSOLVABLE_BAKERS, deck_for

#: Per game (and option set), deals the solver proves solvable within a few thousand positions, two wanted.
SOLVABLE: list[tuple[str, dict[str, Any], list[int]]] = [
    ("forty-thieves", {}, [35, 5, 47, 51]),
    ("indian", {}, [12, 13, 3, 7]),
    ("limited", {}, [2, 11, 4, 1]),
    ("little-forty", {}, [4, 9, 1, 6]),
    ("lucas", {}, [3, 1, 2, 4]),
    ("maria", {}, [107, 111]),
    ("number-ten", {}, [25, 35, 45, 20]),
    ("rank-and-file", {}, [4, 1, 6, 7]),
    ("streets", {}, [40, 35, 50, 13]),
    ("pyramid", {}, [66, 115, 179, 81]),
    ("pyramid", {"draw": 3}, [2, 7, 8, 19]),
    ("bakers-dozen", {}, [3, 13, 14, 22]),
    ("bakers-dozen", {"kings": "stay"}, [46, 28, 6, 9]),
    ("bakers-dozen", {"build": "any-suit"}, [1, 3, 13, 11]),
]

#: Deals whose hints, with a search too small to find a win, are guesses for a while.
HARD = [("forty-thieves", 1), ("forty-thieves", 2), ("limited", 1), ("bakers-dozen", 1), ("pyramid", 2)]


def follow_hints(game: Game, max_nodes: int, limit: int = 2000) -> tuple[list[Any], int]:
    """Press hint and make its move until the game is won or a hint has no move; returns the hints given and
    how many searches they took."""
    line, hints, searches = HintLine(), [], 0
    for _ in range(limit):
        hint = line.known(game.history)
        if hint is None:
            hint, searches = advise(game, max_nodes=max_nodes), searches + 1
            line.keep(game.history, hint)
        hints.append(hint)
        if hint.move is None:
            break
        game.apply(hint.move)
        if game.won:
            break
    return hints, searches


@pytest.mark.parametrize(("name", "options", "seeds"), SOLVABLE)
def test_pressing_hint_repeatedly_wins_the_deals_the_solver_proved(
    name: str, options: dict[str, Any], seeds: list[int]
) -> None:
    won = 0
    for seed in seeds:
        game = new_game(name, options, seed=seed)
        if advise(game, max_nodes=20_000).status is not HintStatus.SURE:
            continue  # not proved within the search: another deal of the list is
        hints, searches = follow_hints(game, max_nodes=20_000)
        assert game.won, seed
        assert {h.status for h in hints} == {HintStatus.SURE}, seed
        assert searches == 1, "the winning line is kept between hints"
        won += 1
        if won == 2:
            break
    assert won >= 1, f"the solver proved none of {seeds} of {name} {options}"


def test_leaving_the_line_starts_a_new_search_and_undo_comes_back_onto_it() -> None:
    game = new_game("bakers-dozen", seed=3)
    line = HintLine()
    first = advise(game, max_nodes=20_000)
    line.keep(game.history, first)
    assert first.status is HintStatus.SURE and first.move is not None
    game.apply(first.move)
    second = line.known(game.history)
    assert second is not None and second.move == first.line[1]
    other = next(m for m in game.legal_moves() if m != second.move)
    game.apply(other)
    assert line.known(game.history) is None, "off the line: the next hint searches again"
    game.undo()
    assert line.known(game.history) == second, "back on the line with undo"


@pytest.mark.parametrize(("name", "seed"), HARD)
def test_guesses_never_go_back_and_hinting_always_ends(name: str, seed: int) -> None:
    game = new_game(name, seed=seed)
    hints, _ = follow_hints(game, max_nodes=20)
    last = hints[-1]
    assert game.won or (last.move is None and last.status in (HintStatus.LOST, HintStatus.NONE))
    assert any(h.status is HintStatus.GUESS for h in hints), "the small search left guesses to make"
    seen = positions_seen(game)
    assert len(seen) == game.moves + 1, "no position was visited twice: no move undone, no circle"


def test_a_lost_position_says_so_without_a_move() -> None:
    bakers = new_game("bakers-dozen", deck=deck_for("bakers-dozen", UNSOLVABLE_BAKERS))
    assert advise(bakers, timeout=20).status is HintStatus.LOST
    pyramid = new_game("pyramid", seed=1)  # proved lost at once
    hint = advise(pyramid, max_nodes=1000)
    assert (hint.status, hint.move) == (HintStatus.LOST, None)


def test_a_guess_avoids_every_position_seen_and_none_is_left_when_all_are() -> None:
    game = new_game("forty-thieves", seed=1)
    game.apply(game.legal_moves()[0])
    seen = positions_seen(game)
    assert len(seen) == 2
    guess = fresh_move(game, seen)
    assert guess is not None
    successors: set[Hashable] = set(seen)
    for move in game.legal_moves():
        game.apply(move)
        successors.add(game._key())
        game.undo()
    assert fresh_move(game, successors) is None


def test_a_won_game_has_no_hint_and_the_worker_job_reads_a_record() -> None:
    game = new_game("bakers-dozen", seed=3)
    hints, _ = follow_hints(game, max_nodes=20_000)
    assert game.won and advise(game).status is HintStatus.NONE
    fresh = new_game("bakers-dozen", seed=3)
    assert advise_record(fresh.to_record(), budget=5.0).move == hints[0].move
