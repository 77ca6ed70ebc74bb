"""The shipped lists of winnable deals hold deals the solver wins (a sample: the whole lists take minutes)."""

from __future__ import annotations

import pytest

from engine.solitaire import Outcome, from_record, new_game, solve
from engine.solitaire.winnable import is_winnable, winnable_seeds


@pytest.mark.parametrize(
    ("game", "options"),
    [("bakers-dozen", {}), ("pyramid", {"draw": 3}), ("lucas", {}), ("limited", {})],
)
def test_a_listed_deal_is_won_by_the_solver(game: str, options: dict[str, object]) -> None:
    seed = winnable_seeds(game, options)[0]
    deal = new_game(game, options, seed=seed)
    assert is_winnable(deal)
    result = solve(deal, timeout=60)
    assert result.outcome is Outcome.SOLVABLE
    record = deal.to_record()
    record["moves"] = result.moves
    assert from_record(record).won
