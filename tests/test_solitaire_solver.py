"""The solver: solutions replay to a win; an exhausted search proves a deal unsolvable."""

from __future__ import annotations

import random

import pytest

from engine.solitaire import GAMES, Outcome, from_record, new_game, solve
from engine.solitaire.base import Game
from engine.solitaire.beam import beam
from engine.solitaire.columns import ColumnGame
from engine.solitaire.search_open import OpenSearch
from tests.test_solitaire_support import (
    UNSOLVABLE_BAKERS,
    deck_for,
    trivial_bakers_deck,
    trivial_forty_deck,
    trivial_pyramid_deck,
)

FAMILY = [name for name, info in GAMES.items() if info.columns is not None and name != "bakers-dozen"]


def replays_to_a_win(game: Game, moves: list[str]) -> bool:
    record = game.to_record()
    record["moves"] = record["moves"] + moves
    return from_record(record).won


@pytest.mark.parametrize("name", FAMILY)
def test_solves_a_winnable_forty_thieves_family_deal(name: str) -> None:
    game = new_game(name, deck=trivial_forty_deck(name))
    stock = game.state()["stock"]
    result = solve(game, timeout=10)
    assert result.outcome is Outcome.SOLVABLE
    assert replays_to_a_win(game, result.moves)
    assert game.moves == 0 and game.state()["stock"] == stock  # the game itself is left alone


@pytest.mark.parametrize("options", [{}, {"kings": "stay"}, {"build": "any-suit"}])
def test_solves_a_winnable_bakers_dozen(options: dict[str, str]) -> None:
    game = new_game("bakers-dozen", options, deck=trivial_bakers_deck())
    result = solve(game, timeout=10)
    assert result.outcome is Outcome.SOLVABLE
    assert len(result.moves) == 52
    assert replays_to_a_win(game, result.moves)


@pytest.mark.parametrize("options", [{}, {"stock-top": True}, {"redeals": 2}])
def test_solves_a_winnable_pyramid(options: dict[str, object]) -> None:
    game = new_game("pyramid", options, deck=trivial_pyramid_deck())
    result = solve(game, timeout=10)
    assert result.outcome is Outcome.SOLVABLE
    assert replays_to_a_win(game, result.moves)


def test_proves_a_bakers_dozen_deal_unsolvable() -> None:
    game = new_game("bakers-dozen", deck=deck_for("bakers-dozen", UNSOLVABLE_BAKERS))
    assert game.legal_moves()  # not over at once: the search has work to do
    result = solve(game, timeout=20)
    assert result.outcome is Outcome.UNSOLVABLE
    assert result.nodes > 1 and result.moves == []


def test_solves_from_the_middle_of_a_game() -> None:
    game = new_game("bakers-dozen", deck=trivial_bakers_deck())
    for _ in range(4):
        game.apply("t13>f")
    result = solve(game, timeout=5)
    assert result.outcome is Outcome.SOLVABLE and len(result.moves) == 48
    assert replays_to_a_win(game, result.moves)


def test_budget_gives_unknown() -> None:
    game = new_game("forty-thieves", seed=1)
    assert solve(game, max_nodes=10).outcome is Outcome.UNKNOWN


@pytest.mark.parametrize("name", sorted(GAMES))
def test_seeded_deals_are_decided_or_unknown_and_solutions_replay(name: str) -> None:
    game = new_game(name, seed=2)
    result = solve(game, timeout=0.5)
    assert result.outcome in set(Outcome)
    if result.outcome is Outcome.SOLVABLE:
        assert replays_to_a_win(game, result.moves)


def test_hint_is_a_legal_move() -> None:
    game = new_game("pyramid", deck=trivial_pyramid_deck())
    hint = game.hint()
    assert hint is not None
    game.apply(hint)


def test_the_same_seed_searches_the_same_way() -> None:
    game = new_game("bakers-dozen", seed=5)
    first = solve(game, max_nodes=3000, seed=7)
    again = solve(game, max_nodes=3000, seed=7)
    assert (first.outcome, first.moves, first.nodes) == (again.outcome, again.moves, again.nodes)


def test_a_small_table_still_proves_and_solves() -> None:
    """Past ``table_size`` the older half of the table is dropped: verdicts stay exact, only slower."""
    game = new_game("bakers-dozen", deck=deck_for("bakers-dozen", UNSOLVABLE_BAKERS))
    assert solve(game, timeout=20, table_size=8).outcome is Outcome.UNSOLVABLE
    pyramid = new_game("pyramid", deck=trivial_pyramid_deck())
    result = solve(pyramid, timeout=20, table_size=4)
    assert result.outcome is Outcome.SOLVABLE and replays_to_a_win(pyramid, result.moves)


@pytest.mark.parametrize("searches", [1, 3])
def test_any_number_of_searches_decides(searches: int) -> None:
    game = new_game("bakers-dozen", deck=trivial_bakers_deck())
    result = solve(game, timeout=10, searches=searches)
    assert result.outcome is Outcome.SOLVABLE and replays_to_a_win(game, result.moves)


def test_a_perturbed_best_first_search_finds_a_baker_s_dozen_win_the_plain_one_misses() -> None:
    # Deal 38: the plain best-first order wanders (no win in 25,000 positions); the perturbed one wins in
    # under 2,000.
    game = new_game("bakers-dozen", {}, seed=38)
    result = solve(game, max_nodes=4000)
    assert result.outcome is Outcome.SOLVABLE
    assert replays_to_a_win(game, result.moves)


def test_a_beam_search_alone_finds_a_win_that_replays() -> None:
    game = new_game("bakers-dozen", {}, seed=1)  # in about 2,000 positions
    assert isinstance(game, ColumnGame)
    state = OpenSearch(game)
    search = beam(state, lambda: None, 400, 300_000, 50, random.Random(1))
    while True:
        try:
            next(search)
        except StopIteration as done:
            steps = done.value
            break
    assert steps is not None
    assert replays_to_a_win(game, [state.text(s) for s in steps])
