"""Doubling (``rules/barbu.md``, "Doubling"): the order from the declarer's left, who may double whom,
redoubles, mutual doubles, and the must-double rule, in a hand, a match and a match record."""

from __future__ import annotations

import copy

import pytest

from engine.barbu import (
    ChooseContract,
    Double,
    IllegalAction,
    Match,
    RecordError,
    Redouble,
    Variants,
    action_from_wire,
)
from engine.barbu.hand import DOUBLE, PLAY, REDOUBLE, Hand
from engine.barbu.rules import CONTRACTS
from tests.barbu_helpers import (
    E,
    N,
    S,
    W,
    declare_and_double,
    first_card_play,
    fixed_match,
    suit_hands,
)


def fresh(declarer: int, contract: str = "no-tricks") -> Hand:
    hand = Hand(declarer, suit_hands(), Variants())
    trump = 0 if contract == "trumps" else None
    start = 5 if contract == "dominoes" else None
    hand.apply(declarer, ChooseContract(contract, trump, start))
    return hand


def refuse(hand: Hand, seat: int, action: Double | Redouble) -> str:
    before = (list(hand.doubles), list(hand.redoubles), hand.phase, hand.to_move)
    with pytest.raises(IllegalAction) as err:
        hand.apply(seat, action)
    assert (list(hand.doubles), list(hand.redoubles), hand.phase, hand.to_move) == before
    return err.value.code


def targets(*seats: int) -> frozenset[int]:
    return frozenset(seats)


@pytest.mark.parametrize("declarer", [N, E, S, W])
def test_doubling_goes_clockwise_from_declarers_left_and_ends_before_declarer(declarer: int) -> None:
    hand = fresh(declarer)
    order = []
    while hand.phase == DOUBLE:
        assert hand.to_move is not None
        order.append(hand.to_move)
        hand.apply(hand.to_move, Double(targets()))
    assert order == [(declarer + 1) % 4, (declarer + 2) % 4, (declarer + 3) % 4]
    # nobody doubled: no redouble round, the declarer leads
    assert hand.phase == PLAY and hand.to_move == declarer


def test_declarer_doubles_nobody() -> None:
    hand = fresh(N)
    assert hand.double_targets(N) == frozenset()
    assert refuse(hand, N, Double(targets(E))) == "not-your-turn"


@pytest.mark.parametrize("contract", ["no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu"])
def test_negative_contracts_any_other_player_may_be_doubled(contract: str) -> None:
    hand = fresh(N, contract)
    assert hand.double_targets(E) == targets(N, S, W)
    hand.apply(E, Double(targets(N, S, W)))
    assert hand.doubles == [(E, N), (E, S), (E, W)]


def test_a_player_cannot_double_themselves() -> None:
    hand = fresh(N)
    assert refuse(hand, E, Double(targets(E))) == "double-not-allowed"


@pytest.mark.parametrize("contract", ["trumps", "dominoes"])
def test_trumps_and_dominoes_only_the_declarer_may_be_doubled(contract: str) -> None:
    hand = fresh(N, contract)
    assert hand.double_targets(E) == targets(N)
    assert refuse(hand, E, Double(targets(S))) == "double-not-allowed"
    assert refuse(hand, E, Double(targets(N, W))) == "double-not-allowed"
    hand.apply(E, Double(targets(N)))
    assert refuse(hand, S, Double(targets(E))) == "double-not-allowed"
    assert hand.doubles == [(E, N)]


def test_redouble_order_from_declarers_left_ending_with_declarer_and_only_doublers() -> None:
    hand = fresh(N)
    hand.apply(E, Double(targets(N)))
    hand.apply(S, Double(targets()))
    hand.apply(W, Double(targets(S, E)))
    # doubled: N (by E), S (by W), E (by W); in turn from the declarer's left: E, S, then N last
    assert hand.phase == REDOUBLE
    assert hand.to_move == E
    assert hand.redouble_targets(E) == targets(W)
    assert refuse(hand, E, Redouble(targets(N))) == "redouble-not-allowed"
    hand.apply(E, Redouble(targets(W)))
    assert hand.to_move == S
    assert refuse(hand, S, Redouble(targets(E))) == "redouble-not-allowed"
    hand.apply(S, Redouble(targets()))
    assert hand.to_move == N
    assert hand.redouble_targets(N) == targets(E)
    assert refuse(hand, N, Redouble(targets(W))) == "redouble-not-allowed"
    hand.apply(N, Redouble(targets(E)))
    assert hand.phase == PLAY and hand.to_move == N
    assert hand.redoubles == [(E, W), (N, E)]


def test_players_not_doubled_get_no_redouble_turn() -> None:
    hand = fresh(S)
    hand.apply(W, Double(targets(E)))
    hand.apply(N, Double(targets()))
    hand.apply(E, Double(targets()))
    assert hand.phase == REDOUBLE and hand.to_move == E
    hand.apply(E, Redouble(targets()))
    assert hand.phase == PLAY and hand.to_move == S


def test_mutual_doubles_are_redoubled_without_a_redouble() -> None:
    hand = fresh(N)
    hand.apply(E, Double(targets(S)))
    hand.apply(S, Double(targets(E)))
    hand.apply(W, Double(targets()))
    # E and S doubled each other: already redoubled, nothing left to redouble
    assert hand.phase == PLAY
    hand.contract_scores = [0, -2, -10, 0]
    assert hand.settlements() == [0, 16, -16, 0]


def test_double_in_redouble_round_and_redouble_in_double_round_are_wrong_phase() -> None:
    hand = fresh(N)
    assert refuse(hand, E, Redouble(targets())) == "wrong-phase"
    hand.apply(E, Double(targets(N)))
    hand.apply(S, Double(targets()))
    hand.apply(W, Double(targets()))
    assert refuse(hand, N, Double(targets())) == "wrong-phase"


# ---------------------------------------------------------------------- must-double rule in a match


def play_hands(match: Match, count: int, doubles: dict[int, frozenset[int]] | None = None) -> None:
    for _ in range(count):
        contract = next(c for c in CONTRACTS if c not in match.contracts_played[match.hand.declarer])
        declare_and_double(match, contract, doubles)
        first_card_play(match)


def test_must_double_when_doubles_owed_equal_hands_left() -> None:
    match = fixed_match()
    assert match.hand.declarer == N
    play_hands(match, 5)
    # E, S and W owe N two doubles with two of N's hands left (this one included)
    assert match.hand.must_double == frozenset({E, S, W})
    declarer = match.hand.declarer
    match.apply(declarer, ChooseContract("dominoes", None, 5))
    assert match.view(E)["must_double"] is True
    assert match.view(E)["doubles_owed"] == {"E": 2, "S": 2, "W": 2}
    assert all(N in a.targets for a in match.legal_actions(E) if isinstance(a, Double))
    before = [match.view(s) for s in (N, E, S, W, None)]
    with pytest.raises(IllegalAction, match="must double") as err:
        match.apply(E, Double(frozenset()))
    assert err.value.code == "must-double"
    assert [match.view(s) for s in (N, E, S, W, None)] == before
    for seat in (E, S, W):
        match.apply(seat, Double(frozenset({N})))
    match.apply(N, Redouble(frozenset()))
    first_card_play(match)
    # the last hand: one owed, one left
    assert match.hand.must_double == frozenset({E, S, W})
    assert match.view(S)["doubles_owed"]["S"] == 1


def test_must_double_not_forced_while_more_hands_than_doubles_owed() -> None:
    match = fixed_match()
    play_hands(match, 4)
    assert match.hand.must_double == frozenset()
    # a player who doubled early owes less
    match2 = fixed_match()
    play_hands(match2, 1, {E: frozenset({N})})
    play_hands(match2, 4)
    assert match2.hand.must_double == frozenset({S, W})
    play_hands(match2, 1, {E: frozenset(), S: frozenset({N}), W: frozenset({N})})
    assert match2.hand.must_double == frozenset({E, S, W})


def test_must_double_done_once_owed_is_zero() -> None:
    match = fixed_match()
    play_hands(match, 2, {E: frozenset({N}), S: frozenset({N}), W: frozenset({N})})
    play_hands(match, 4)
    assert match.hand.must_double == frozenset()
    assert match.view(E)["doubles_owed"] == {"E": 0, "S": 0, "W": 0}


def test_doubles_of_other_players_do_not_pay_the_debt() -> None:
    match = fixed_match()
    play_hands(match, 5, {E: frozenset({S})})
    assert E in match.hand.must_double


def test_match_record_breaking_must_double_is_refused() -> None:
    match = fixed_match(hands_total=7)
    play_hands(match, 5)
    play_hands(match, 2, {E: frozenset({N}), S: frozenset({N}), W: frozenset({N})})
    assert match.over
    record = match.to_record()
    Match.from_record(copy.deepcopy(record))  # the record as played is accepted
    broken = copy.deepcopy(record)
    broken["deals"][5]["doubles"] = [p for p in broken["deals"][5]["doubles"] if p[0] != "E"]
    broken.pop("totals")
    with pytest.raises(RecordError) as err:
        Match.from_record(broken)
    assert err.value.where.startswith("deals[5].doubles")
    assert "E" in str(err.value) and "must double" in str(err.value)


def test_each_declarer_plays_each_contract_once() -> None:
    match = fixed_match()
    declare_and_double(match, "barbu")
    first_card_play(match)
    with pytest.raises(IllegalAction) as err:
        match.apply(N, ChooseContract("barbu"))
    assert err.value.code == "contract-played"
    assert ChooseContract("barbu") not in match.legal_actions(N)
    assert "barbu" not in match.view(N)["contracts_left"]["N"]


def test_block_rotation_seven_hands_then_declarers_left_dealer_on_the_right() -> None:
    match = fixed_match(first_declarer="E")
    seen = []
    for _ in range(14):
        seen.append((match.hand.declarer, match.hand.dealer))
        play_hands(match, 1)
    assert [d for d, _ in seen] == [E] * 7 + [S] * 7
    assert all(dealer == (d + 3) % 4 for d, dealer in seen)


def test_each_hand_rotation_moves_declarer_left_every_hand() -> None:
    match = fixed_match(first_declarer="W", variants=Variants(rotation="each-hand"))
    seen = []
    for _ in range(8):
        seen.append(match.hand.declarer)
        play_hands(match, 1)
    assert seen == [W, N, E, S, W, N, E, S]


@pytest.mark.parametrize("kind", ["double", "redouble"])
def test_a_seat_named_twice_in_targets_is_refused_not_guessed_at(kind: str) -> None:
    with pytest.raises(IllegalAction) as err:
        action_from_wire({"action": kind, "targets": ["S", "S"]})
    assert err.value.code == "bad-action" and "named twice" in str(err.value)
    both = action_from_wire({"action": kind, "targets": ["S", "N"]})
    assert isinstance(both, Double | Redouble) and both.targets == targets(N, S)
