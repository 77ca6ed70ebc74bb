"""Properties of whole matches between the built-in bots (``random`` and ``heuristic``) over random seeds and
rule sets: contract totals, zero-sum settlement, the 28-hand structure and rotation, records that replay to
the same scores, and views and events that never show a seat another seat's unplayed cards."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.barbu import IllegalAction, Match, Play, Variants, make_policy
from engine.barbu.hand import Hand
from engine.barbu.match import seeded_deals
from engine.barbu.rules import CONTRACT_TOTALS, CONTRACTS, DOMINOES_SCORES, HEART_LEAD, TRUMP_DUTY
from engine.cards import SEATS, texts
from tests.barbu_helpers import check_deal, views_json

POLICY = st.sampled_from(["random", "heuristic"])
POLICIES = st.lists(POLICY, min_size=4, max_size=4)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
VARIANTS = st.builds(
    Variants,
    heart_lead=st.sampled_from(HEART_LEAD),
    trump_duty=st.sampled_from(TRUMP_DUTY),
    dominoes_scores=st.sampled_from(tuple(DOMINOES_SCORES)),
    rotation=st.sampled_from(("block", "each-hand")),
    early_end=st.booleans(),
)

#: The rules' table: what each contract's scores add up to over the four players.
TOTALS = {
    "no-tricks": -26,
    "no-queens": -24,
    "no-last-two": -30,
    "no-hearts": -30,
    "barbu": -20,
    "trumps": 65,
    "dominoes": 65,
}

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_finished_hand(hand: Hand, variants: Variants) -> None:
    assert hand.contract is not None
    check_deal(hand.dealt)  # 13 distinct cards each
    assert sum(hand.contract_scores) == TOTALS[hand.contract] == CONTRACT_TOTALS[hand.contract]
    assert sum(hand.settlements()) == 0
    if hand.contract == "dominoes":
        assert len(hand.finish_order) == 4 and sorted(hand.finish_order) == [0, 1, 2, 3]
        points = variants.dominoes_points
        assert [hand.contract_scores[s] for s in hand.finish_order] == list(points)
        assert hand.tricks == []
    else:
        early = hand.contract in ("no-queens", "no-hearts", "barbu") and variants.early_end
        assert len(hand.tricks) == 13 or (early and len(hand.tricks) < 13)
        assert sum(hand.tricks_won) == len(hand.tricks)
        if hand.contract == "no-tricks":
            assert hand.contract_scores == [-2 * t for t in hand.tricks_won]
        if hand.contract == "trumps":
            assert hand.contract_scores == [5 * t for t in hand.tricks_won]


def play_checked(seed: int, policies: list[str], variants: Variants) -> Match:
    match = Match.new(seed, variants)
    bots = [make_policy(name, seed * 4 + s) for s, name in enumerate(policies)]
    while not match.over:
        seat = match.to_move
        assert seat is not None
        before = len(match.history)
        match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
        if len(match.history) > before:
            check_finished_hand(match.history[-1], variants)
    return match


@SETTINGS
@given(seed=SEEDS, policies=POLICIES, variants=VARIANTS)
def test_whole_match_contract_totals_zero_sum_structure_and_record_replay(
    seed: int, policies: list[str], variants: Variants
) -> None:
    match = play_checked(seed, policies, variants)
    # 28 hands; each declarer plays each contract exactly once
    assert len(match.history) == 28
    declared: dict[int, list[str]] = {s: [] for s in range(4)}
    for index, hand in enumerate(match.history):
        step = index if variants.rotation == "each-hand" else index // 7
        assert hand.declarer == (match.first_declarer + step) % 4
        assert hand.dealer == (hand.declarer + 3) % 4
        assert hand.contract is not None
        declared[hand.declarer].append(hand.contract)
    assert all(sorted(c) == sorted(CONTRACTS) for c in declared.values())
    # without doubles the match would sum to zero; settlement is zero-sum, so it does anyway
    assert sum(match.totals) == 0
    assert match.totals == [sum(r[2][s] for r in match.results) for s in range(4)]
    # the must-double rule was kept: every other player doubled every declarer at least twice
    for hand_declarer in range(4):
        for doubler in range(4):
            if doubler != hand_declarer:
                assert match.doubles_made[doubler][hand_declarer] >= 2
    # the written record replays to the same scores
    record = json.loads(json.dumps(match.to_record()))
    replayed = Match.from_record(record)
    assert replayed.totals == match.totals
    assert replayed.results == match.results
    assert [h.contract for h in replayed.history] == [h.contract for h in match.history]


def check_views(match: Match) -> None:
    hand = match.hand
    for seat in (0, 1, 2, 3, None):
        view = match.view(seat)
        text = json.dumps(view)
        if seat is not None:
            assert view["hand"] == texts(hand.hands[seat])
        else:
            assert view["hand"] == []
        for other in range(4):
            if other == seat:
                continue
            for card in texts(hand.hands[other]):
                assert f'"{card}"' not in text, (seat, other, card)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, policies=POLICIES, variants=VARIANTS)
def test_views_and_events_never_show_another_seats_unplayed_cards(
    seed: int, policies: list[str], variants: Variants
) -> None:
    match = Match(variants, seed % 4, seeded_deals(seed))
    bots = [make_policy(name, seed * 4 + s) for s, name in enumerate(policies)]
    rng = random.Random(seed)
    steps = 0
    while not match.over:
        check_views(match)
        seat = match.to_move
        assert seat is not None
        if steps % 7 == 0:
            # now and then, an illegal card changes nothing
            legal = set(match.legal_actions(seat))
            illegal = [Play(c) for c in range(52) if Play(c) not in legal]
            before = views_json(match)
            try:
                match.apply(seat, rng.choice(illegal))
            except IllegalAction:
                pass
            else:
                raise AssertionError("an illegal card was accepted")
            assert views_json(match) == before
        steps += 1
        events = match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
        dealt = [e for e in events if e.kind == "hand-dealt"]
        if dealt:
            assert sorted(e.to for e in dealt if e.to is not None) == [0, 1, 2, 3]
            for e in dealt:
                assert e.to is not None
                assert e.visible_to(e.to)
                assert not e.visible_to(None)
                assert all(not e.visible_to(s) for s in range(4) if s != e.to)
                assert e.data["hand"] == texts(match.hand.dealt[e.to])
        for e in events:
            if e.kind != "hand-dealt":
                assert e.to is None
            assert e.kind == "hand-dealt" or "hand" not in e.data
    check_views(match)
    assert match.view(None)["seat"] is None and [match.view(s)["seat"] for s in range(4)] == list(SEATS)
