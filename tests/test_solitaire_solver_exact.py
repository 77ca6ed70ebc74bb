"""The solver's verdicts against an exhaustive search through the public API on small positions.

Each position is a real deal with most cards put on the foundations (column games) or most of the pyramid and
stock taken away (Pyramid), so a plain search over ``legal_moves`` that tries everything, without safe moves
or pruning, decides it. "Unsolvable" must then be a proof, and "solvable" must come with moves that win.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from engine.solitaire import Outcome, new_game, solve
from engine.solitaire.base import Game
from engine.solitaire.columns import ColumnGame
from engine.solitaire.pyramid import SIZE, PyramidGame
from engine.solitaire.rules import card_of
from engine.solitaire.search_open import OpenSearch
from engine.solitaire.search_pyramid import PyramidSearch


def shrink_columns(game: ColumnGame, rng: random.Random, left: int) -> None:
    """Put on the foundations, suit by suit from the Ace, every copy of the lowest cards until about ``left``
    cards are still in play (columns, stock and waste keep their order)."""
    decks = game.rules.decks
    height = [1 if game.rules.aces_out else 0] * 4
    in_play = 52 * decks - 4 * decks * height[0]
    while in_play > left:
        suit = rng.randrange(4)
        if height[suit] < 13:
            height[suit] += 1
            in_play -= decks
    up = {card_of(s, v) for s in range(4) for v in range(1, height[s] + 1)}
    game.columns = [[c for c in col if c not in up] for col in game.columns]
    game.down = [min(d, max(len(col) - 1, 0)) for d, col in zip(game.down, game.columns, strict=True)]
    game.stock = [c for c in game.stock if c not in up]
    game.waste = [c for c in game.waste if c not in up]
    for f in range(4 * decks):
        suit = f // decks
        game.foundation_suit[f] = suit if height[suit] else -1
        game.foundation_height[f] = height[suit]
    game.on_foundations = [decks if c in up else 0 for c in range(52)]


def shrink_pyramid(game: PyramidGame, rng: random.Random, removals: int, stock: int) -> None:
    """Remove ``removals`` pyramid cards (each exposed when removed) and keep only the top ``stock`` stock
    cards; the cards taken away are out of play."""
    for _ in range(removals):
        exposed = [p for p in range(SIZE) if game.exposed(p)]
        if not exposed:
            break
        p = rng.choice(exposed)
        game.present &= ~(1 << p)
        game.in_play &= ~(1 << game.cards[p])
    for c in game.stock[:-stock]:
        game.in_play &= ~(1 << c)
    game.stock = game.stock[-stock:]
    game.pass_order = list(reversed(game.stock))


def exhaustive(game: Game) -> bool:
    """True when some sequence of legal moves wins: every move tried from every position (no pruning)."""

    def key(g: Game) -> str:
        state = g.state()
        del state["moves"]
        return json.dumps(state, sort_keys=True) + repr(getattr(g, "stock", []))

    g = game.copy()
    if g.won:
        return True
    seen = {key(g)}
    stack = [iter(g.legal_moves())]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            g.undo()
            continue
        g.apply(move)
        if g.won:
            return True
        k = key(g)
        if k in seen:
            g.undo()
            continue
        seen.add(k)
        stack.append(iter(g.legal_moves()))
    return False


def check(game: Game) -> Outcome:
    expected = exhaustive(game)
    result = solve(game, timeout=60)
    assert result.outcome is (Outcome.SOLVABLE if expected else Outcome.UNSOLVABLE)
    if expected:
        replay = game.copy()
        for move in result.moves:
            replay.apply(move)
        assert replay.won
    return result.outcome


COLUMN_CASES = [
    ("bakers-dozen", {}, 12),
    ("bakers-dozen", {"build": "any-suit"}, 12),
    ("bakers-dozen", {"kings": "stay"}, 12),
    ("forty-thieves", {}, 16),
    ("indian", {}, 16),
    ("maria", {}, 16),
    ("little-forty", {}, 14),
    ("number-ten", {}, 16),
    ("lucas", {"foundation-back": True}, 12),
]


@pytest.mark.parametrize(("name", "options", "left"), COLUMN_CASES)
def test_column_verdicts_match_an_exhaustive_search(name: str, options: dict[str, str], left: int) -> None:
    outcomes = set()
    for seed in range(12):
        game = new_game(name, options, seed=seed)
        assert isinstance(game, ColumnGame)
        shrink_columns(game, random.Random(seed), left)
        outcomes.add(check(game))
    assert outcomes  # both verdicts usually occur; each one checked either way


@pytest.mark.parametrize("draw", [1, 3])
def test_pyramid_verdicts_match_an_exhaustive_search(draw: int) -> None:
    for seed in range(16):
        game = new_game("pyramid", {"draw": draw}, seed=seed)
        assert isinstance(game, PyramidGame)
        shrink_pyramid(game, random.Random(seed), removals=18, stock=9)
        check(game)


@pytest.mark.parametrize("options", [{}, {"build": "any-suit"}, {"kings": "stay"}])
def test_bakers_dozen_dead_ends_are_lost(options: dict[str, str]) -> None:
    """Positions met in random play that the search abandons as dead ends (``OpenSearch.stuck``) are lost by
    the exhaustive search, and the solver says unsolvable there; some are met."""
    met = 0
    for seed in range(40):
        game = new_game("bakers-dozen", options, seed=seed)
        assert isinstance(game, ColumnGame)
        rng = random.Random(seed)
        shrink_columns(game, rng, 15)
        for _ in range(40):
            if OpenSearch(game).stuck():
                assert check(game) is Outcome.UNSOLVABLE
                met += 1
                break
            moves = game.legal_moves()
            if not moves:
                break
            game.apply(rng.choice(moves))
        if met == 3:
            break
    assert met == 3


def _pyramid_positions(draw: int, count: int) -> Iterator[PyramidGame]:
    """Positions met in random play from small Pyramid deals (most of the pyramid and stock taken away)."""
    for seed in range(count):
        game = new_game("pyramid", {"draw": draw}, seed=seed)
        assert isinstance(game, PyramidGame)
        rng = random.Random(seed)
        shrink_pyramid(game, rng, removals=rng.randrange(10, 19), stock=rng.randrange(6, 13))
        for _ in range(30):
            yield game
            moves = game.legal_moves()
            if not moves:
                break
            game.apply(rng.choice(moves))


@pytest.mark.parametrize("draw", [1, 3])
def test_pyramid_dead_ends_are_lost_and_forced_pairs_keep_a_win(draw: int) -> None:
    """Positions the Pyramid search abandons (``blocked``, ``unbalanced``) are lost by the exhaustive search;
    a pair it makes without branching (``_forced``) leaves a won position won; some of each are met."""
    blocked = unbalanced = forced = 0
    for game in _pyramid_positions(draw, 30):
        view = PyramidSearch(game)
        if view.blocked():
            assert not exhaustive(game)
            blocked += 1
        if view.dead_rule and view.unbalanced():
            assert not exhaustive(game)
            unbalanced += 1
        step = view._forced()
        if step is not None:
            after = game.copy()
            after.apply(view.text(step))
            assert exhaustive(after) is exhaustive(game)
            forced += 1
    assert blocked > 5 and forced > 5
    if draw == 1:
        assert unbalanced > 0


@pytest.mark.parametrize("draw", [1, 3])
def test_pyramid_positions_with_one_key_are_won_alike(draw: int) -> None:
    """The search's key forgets suits, buried Kings and waste cards that can never be played again: positions
    met with one key are all won or all lost by the exhaustive search."""
    verdicts: dict[int, bool] = {}
    shared = 0
    for game in _pyramid_positions(draw, 30):
        key = PyramidSearch(game).key()
        won = exhaustive(game)
        if key in verdicts:
            assert verdicts[key] is won
            shared += 1
        verdicts[key] = won
    assert shared > 0
