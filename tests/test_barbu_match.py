"""The match (``rules/barbu.md``, "The match: 28 hands"): a first declarer drawn at random, 28 hands, the
highest total wins and ties share the place; the same seed and actions give the same match."""

from __future__ import annotations

from engine.barbu import Match
from engine.barbu.match import first_declarer_for, seeded_deals
from engine.cards import SEATS
from tests.barbu_helpers import (
    E,
    N,
    S,
    W,
    check_deal,
    declare_and_double,
    first_card_play,
    fixed_match,
    play_match,
)


def test_first_declarer_is_drawn_from_the_seed_and_every_seat_can_be_drawn() -> None:
    drawn = {first_declarer_for(seed) for seed in range(60)}
    assert drawn == {N, E, S, W}
    assert all(Match.new(seed).hand.declarer == first_declarer_for(seed) for seed in range(8))
    assert Match.new(3, first_declarer=W).hand.declarer == W


def test_seeded_deals_are_full_deals_fixed_by_seed_and_index() -> None:
    deals = seeded_deals(42)
    for index in range(28):
        check_deal(deals(index, 0))
    assert seeded_deals(42)(5, 1) == deals(5, 1)
    assert deals(5, 1) != deals(6, 1)
    assert seeded_deals(43)(5, 1) != deals(5, 1)


def test_same_seed_and_policies_give_the_same_match() -> None:
    a = play_match(9, ["heuristic", "random", "random", "heuristic"])
    b = play_match(9, ["heuristic", "random", "random", "heuristic"])
    assert a.to_record() == b.to_record()


def test_highest_total_wins_and_ties_share_the_place() -> None:
    match = fixed_match(hands_total=1)
    match.totals = [10, 10, -5, -15]
    assert match.ranking() == [[N, E], [S], [W]]
    match.totals = [0, 7, 7, 7]
    assert match.ranking() == [[E, S, W], [N]]


def test_match_over_after_the_last_hand_with_ranking_event_and_view() -> None:
    match = fixed_match(hands_total=1)
    declare_and_double(match, "trumps")
    # suit_hands with spades trump: N leads spades and takes all 13 tricks
    events = first_card_play(match)
    assert match.totals == [65, 0, 0, 0]
    kinds = [e.kind for e in events]
    assert "hand-scored" in kinds and kinds[-2:] == ["match-over", "turn"]
    assert next(e for e in events if e.kind == "hand-scored").data["finish_order"] is None  # not Dominoes
    over = next(e for e in events if e.kind == "match-over")
    assert over.data["ranking"] == [["N"], ["E", "S", "W"]]
    assert match.view(None)["ranking"] == [["N"], ["E", "S", "W"]]
    assert match.to_move is None and match.legal_actions(N) == []


def test_a_dominoes_hand_scored_says_its_finishing_order() -> None:
    match = fixed_match(hands_total=1)
    declare_and_double(match, "dominoes")
    events = first_card_play(match)
    scored = next(e for e in events if e.kind == "hand-scored").data
    assert scored["finish_order"] == [SEATS[s] for s in match.history[-1].finish_order]
    assert sorted(scored["finish_order"]) == sorted(SEATS)


def test_totals_are_the_sum_of_hand_scores() -> None:
    match = fixed_match(hands_total=3)
    for contract in ("no-tricks", "trumps", "barbu"):
        declare_and_double(match, contract, {E: frozenset({N})})
        first_card_play(match)
    assert match.totals == [sum(r[2][s] for r in match.results) for s in range(4)]
    # suit_hands: N takes every trick: No Tricks -26, Trumps +65, Barbu 0 (N holds no heart, E's KH is
    # discarded on N's spade: N takes it)
    assert [r[0] for r in match.results] == [[-26, 0, 0, 0], [65, 0, 0, 0], [-20, 0, 0, 0]]
    # E doubled N each hand: E gains the difference
    assert [r[1] for r in match.results] == [[-26, 26, 0, 0], [65, -65, 0, 0], [-20, 20, 0, 0]]
