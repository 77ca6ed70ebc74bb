"""Today's ``heuristic`` kept for the benchmarks as ``heuristic-2026``: reachable by the arena, refused as a
product policy; and the arena's margin a hand by contract, paired by declarer and contract."""

from __future__ import annotations

import pytest

from benchmarks.arena import Played, main, play, summarize
from engine.barbu import POLICIES, PolicySpecError, make_policy, parse_policy_spec
from engine.barbu.bots import Heuristic2026Policy
from engine.barbu.rules import CONTRACTS, DOMINOES, TRUMPS


def test_heuristic_2026_is_for_benchmarks_only() -> None:
    assert "heuristic-2026" not in POLICIES
    with pytest.raises(PolicySpecError, match="unknown policy 'heuristic-2026'"):
        parse_policy_spec("heuristic-2026")
    with pytest.raises(PolicySpecError, match="unknown policy"):
        make_policy("heuristic-2026")
    spec = parse_policy_spec("heuristic-2026", benchmark=True)
    assert str(spec) == "heuristic-2026"
    assert isinstance(make_policy(spec, 3), Heuristic2026Policy)


def test_the_arena_refuses_an_unknown_policy_but_plays_heuristic_2026(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--a", "heuristic-2027", "--b", "heuristic"]) == 2
    assert "unknown policy 'heuristic-2027'" in capsys.readouterr().err
    p = play(5, "heuristic", "heuristic-2026", 0)
    assert len(p.hands) == 28
    assert sum(p.totals) == sum(sum(scores) for _, _, scores in p.hands)


def test_the_margin_a_hand_by_contract_pairs_hands_of_one_declarer_and_contract() -> None:
    # The baseline and A's match played N's two hands in a different order: they pair by contract.
    base = Played(
        1, None, [0] * 4, [[0, 1, 2, 3]], [], [(0, TRUMPS, [10, 0, 0, 0]), (0, DOMINOES, [5, 0, 0, 0])]
    )
    a = Played(1, 0, [0] * 4, [[0, 1, 2, 3]], [], [(0, DOMINOES, [45, 0, 0, 0]), (0, TRUMPS, [20, 0, 0, 0])])
    a2 = Played(1, 0, [0] * 4, [[0, 1, 2, 3]], [], [(0, DOMINOES, [-5, 0, 0, 0]), (0, TRUMPS, [10, 0, 0, 0])])
    summary = summarize([base, a, a2])
    assert summary.by_contract == {TRUMPS: [10, 0], DOMINOES: [40, -10]}
    lines = summary.lines("heuristic", "heuristic-2026")
    assert any(line.split()[:1] == [TRUMPS] and "+5.00" in line for line in lines)
    assert any(line.split()[:1] == [DOMINOES] and "+15.00" in line for line in lines)
    assert not any(
        line.split()[:1] == [c] for c in CONTRACTS if c not in (TRUMPS, DOMINOES) for line in lines
    )
