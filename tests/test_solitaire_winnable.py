"""The shipped lists of winnable deals hold deals the solver wins within the server's hint budget (a sample of
every list: the whole lists take minutes), and the tools that write them name real files."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from engine.solitaire import Outcome, from_record, new_game, solve
from engine.solitaire.winnable import is_winnable, option_sets, winnable_seeds
from server.config import ServerConfig

ROOT = Path(__file__).resolve().parent.parent

#: Every list of winnable deals: each game with its default options, and with each option changed alone.
LISTS = option_sets()


@pytest.mark.parametrize(("game", "options"), LISTS)
def test_a_sample_of_each_list_is_won_by_the_solver_within_the_hint_budget(
    game: str, options: dict[str, Any]
) -> None:
    seeds = winnable_seeds(game, options)
    assert seeds, f"{game} {options} has winnable deals"
    for seed in sorted({seeds[0], seeds[len(seeds) // 2], seeds[-1]}):
        deal = new_game(game, options, seed=seed)
        assert is_winnable(deal)
        # CPU time, the measure the lists are proved in (in half the budget, scripts/winnable_seeds.py).
        result = solve(deal, timeout=ServerConfig.hint_budget, clock=time.process_time)
        assert result.outcome is Outcome.SOLVABLE, f"{game} {options} seed {seed}"
        record = deal.to_record()
        record["moves"] = result.moves
        assert from_record(record).won


@pytest.mark.parametrize("tool", ["benchmarks/winnability.py", "scripts/winnable_seeds.py"])
def test_the_list_tools_name_files_that_exist(tool: str) -> None:
    text = (ROOT / tool).read_text()
    named = set(re.findall(r"``((?:engine|scripts|benchmarks)/[\w/]+\.\w+)``", text))
    assert named, "the tool says which files it reads or writes"
    for path in named:
        assert (ROOT / path).exists(), f"{tool} names {path}, which does not exist"
