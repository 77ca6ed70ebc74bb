"""The compiled kernels follow the rules exactly as the pure engine does: on random deals, contracts, rule
switches and positions both paths give the same legal cards, trick winners, rollout cards, playout scores and
sampled deals for the same seed; ``search:playouts=N`` makes the same choices on both paths; the build falls
back to the pure path when no compiler works. The compiled-path comparisons skip when the extension is not
built (a machine without a compiler)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main as barbu
from engine.barbu import (
    ChooseContract,
    Hand,
    Match,
    PolicySpecError,
    Variants,
    make_policy,
    parse_policy_spec,
)
from engine.barbu.hand import PLAY, trick_winner
from engine.barbu.match import seeded_deals
from engine.barbu.rules import DOMINOES, DOMINOES_SCORES, HEART_LEAD, TRUMP_DUTY
from engine.barbu.search import SearchPolicy, kernels
from engine.barbu.search.infer import read_view
from engine.barbu.search.kernels import Position, pack, result_weights
from engine.barbu.search.rollout import choose_card, solve_exact
from engine.barbu.search.sample import DealSampler
from engine.cards import FULL_DECK

ROOT = Path(__file__).resolve().parent.parent
compiled_only = pytest.mark.skipif(not kernels.COMPILED, reason="the compiled kernels are not built here")
if kernels.COMPILED:
    from engine import _kernels

choices = st.one_of(
    st.sampled_from(["no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu"]).map(ChooseContract),
    st.integers(0, 3).map(lambda t: ChooseContract("trumps", trump=t)),
    st.integers(0, 12).map(lambda r: ChooseContract(DOMINOES, start_rank=r)),
)
variants = st.builds(
    Variants,
    heart_lead=st.sampled_from(HEART_LEAD),
    trump_duty=st.sampled_from(TRUMP_DUTY),
    dominoes_scores=st.sampled_from(sorted(DOMINOES_SCORES)),
    early_end=st.booleans(),
)


def _hand(deal: int, declarer: int, choice: ChooseContract, rules: Variants, doubles: int = 0) -> Hand:
    """A hand at its first trick; ``doubles`` picks each doubler's and redoubler's choice (0: none)."""
    hand = Hand(declarer, seeded_deals(deal)(0, (declarer + 3) % 4), rules)
    hand.apply(declarer, choice)
    pick = random.Random(doubles)
    while hand.phase != PLAY:
        seat = hand.to_move
        assert seat is not None
        legal = hand.legal_actions(seat)
        hand.apply(seat, pick.choice(legal) if doubles else legal[0])
    return hand


def _random_move(hand: Hand, rng: random.Random) -> None:
    seat = hand.to_move
    assert seat is not None
    mask = hand.legal_mask(seat)
    if not mask:
        hand.pass_turn(seat)
        return
    cards = [c for c in range(52) if (mask >> c) & 1]
    hand.play_card(seat, rng.choice(cards))


@compiled_only
@settings(max_examples=60, deadline=None)
@given(
    deal=st.integers(0, 10**6),
    declarer=st.integers(0, 3),
    choice=choices,
    rules=variants,
    moves=st.integers(0, 2**32),
)
def test_every_position_of_a_random_hand_has_the_same_legal_cards_rollout_card_and_winner(
    deal: int, declarer: int, choice: ChooseContract, rules: Variants, moves: int
) -> None:
    hand = _hand(deal, declarer, choice, rules)
    rng = random.Random(moves)
    while hand.phase == PLAY:
        seat = hand.to_move
        assert seat is not None
        packed = pack(hand)
        mask = hand.legal_mask(seat)
        assert _kernels.legal_mask(packed, seat) == mask
        if hand.contract != DOMINOES and mask & (mask - 1):
            assert _kernels.rollout_card(packed, mask) == choose_card(hand, mask)
        tricks = len(hand.tricks)
        _random_move(hand, rng)
        if len(hand.tricks) > tricks:
            leader, cards, winner = hand.tricks[-1]
            c0, c1, c2, c3 = cards
            trump = -1 if hand.trump is None else hand.trump
            assert (
                _kernels.trick_winner(c0, c1, c2, c3, leader, trump)
                == winner
                == trick_winner(list(cards), leader, hand.trump)
            )


@compiled_only
@settings(max_examples=80, deadline=None)
@given(
    deal=st.integers(0, 10**6),
    declarer=st.integers(0, 3),
    choice=choices,
    rules=variants,
    moves=st.integers(0, 2**32),
    depth=st.integers(0, 45),
    seed=st.integers(0, 2**64 - 1),
)
def test_playouts_from_random_positions_score_the_same_on_both_paths(
    deal: int, declarer: int, choice: ChooseContract, rules: Variants, moves: int, depth: int, seed: int
) -> None:
    hand = _hand(deal, declarer, choice, rules)
    rng = random.Random(moves)
    for _ in range(depth):
        if hand.phase != PLAY:
            return
        _random_move(hand, rng)
    if hand.phase != PLAY:
        return
    seat = hand.to_move
    assert seat is not None
    none = [0, 0, 0, 0]
    fast, pure = Position(hand, compiled=True), Position(hand, compiled=False)
    assert fast.packed is not None and pure.packed is None
    assert fast.playout(none, -1, seed) == pure.playout(none, -1, seed)
    mask = hand.legal_mask(seat)
    if mask:
        first = (mask & -mask).bit_length() - 1
        assert fast.playout(none, first, seed) == pure.playout(none, first, seed)
    # The pure playout plays a copy: the position is unchanged, so a second playout is the same.
    assert pure.playout(none, -1, seed) == fast.playout(none, -1, seed)
    # With the other seats' cards left out, each playout adds them back from the deal.
    split = [hand.hands[s] if s == seat else 0 for s in range(4)]
    deal_back = [0 if s == seat else hand.hands[s] for s in range(4)]
    hand.hands = split
    assert Position(hand, compiled=True).playout(deal_back, -1, seed) == fast.playout(none, -1, seed)


@compiled_only
@settings(max_examples=40, deadline=None)
@given(
    deal=st.integers(0, 10**6),
    declarer=st.integers(0, 3),
    choice=choices,
    rules=variants,
    moves=st.integers(0, 2**32),
    depth=st.integers(0, 40),
    seed=st.integers(0, 2**64 - 1),
)
def test_a_seats_sampled_deals_are_the_same_on_both_paths(
    deal: int, declarer: int, choice: ChooseContract, rules: Variants, moves: int, depth: int, seed: int
) -> None:
    match = Match.new(deal, rules)
    rng = random.Random(moves)
    bots = [make_policy("random", moves + s) for s in range(4)]
    for _ in range(depth + 4):  # the contract, three doubles, then the play
        seat = match.to_move
        assert seat is not None
        match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
    seat = match.to_move
    assert seat is not None
    know, _ = read_view(match.view(seat))
    fast = DealSampler(know.allowed(), know.sizes, compiled=True)
    pure = DealSampler(know.allowed(), know.sizes, compiled=False)
    for _ in range(3):
        s = rng.getrandbits(64)
        assert fast.draw(s) == pure.draw(s)
    assert fast.draw(seed) == pure.draw(seed)


@compiled_only
def test_constrained_and_huge_samplers_draw_the_same_deals_on_both_paths() -> None:
    hearts, diamonds, clubs = (0x1FFF << (13 * s) for s in (1, 2, 3))
    # N holds the spades; E holds no hearts, W no clubs: three types of card, many count matrices.
    voids = [0, diamonds | clubs, hearts | diamonds | clubs, hearts | diamonds]
    seat_sizes = [0, 13, 13, 13]
    fast = DealSampler(voids, seat_sizes, compiled=True)
    pure = DealSampler(voids, seat_sizes, compiled=False)
    assert len(fast.types) == 3 and len(fast.splits) > 10
    for seed in range(200):
        assert fast.draw(seed) == pure.draw(seed)
    # 52 cards among four seats: more deals than 2**63, drawn by the pure path whichever is asked for.
    whole = DealSampler([FULL_DECK] * 4, [13] * 4, compiled=True)
    assert whole.total >= 1 << 63
    assert whole.draw(7) == DealSampler([FULL_DECK] * 4, [13] * 4, compiled=False).draw(7)


@compiled_only
@settings(max_examples=60, deadline=None)
@given(
    deal=st.integers(0, 10**6),
    declarer=st.integers(0, 3),
    choice=choices,
    rules=variants,
    doubles=st.integers(1, 2**32),
    moves=st.integers(0, 2**32),
    depth=st.integers(20, 48),
    exact=st.integers(1, 12),
    seed=st.integers(0, 2**64 - 1),
)
def test_playouts_ending_in_exact_play_score_the_same_on_both_paths(
    deal: int,
    declarer: int,
    choice: ChooseContract,
    rules: Variants,
    doubles: int,
    moves: int,
    depth: int,
    exact: int,
    seed: int,
) -> None:
    hand = _hand(deal, declarer, choice, rules, doubles)
    rng = random.Random(moves)
    for _ in range(depth):
        if hand.phase != PLAY:
            return
        _random_move(hand, rng)
    if hand.phase != PLAY:
        return
    none = [0, 0, 0, 0]
    fast = Position(hand, compiled=True, exact=exact)
    pure = Position(hand, compiled=False, exact=exact)
    assert fast.playout(none, -1, seed) == pure.playout(none, -1, seed)


def test_exact_play_gives_each_seat_its_best_card_with_the_doubles_in_force() -> None:
    # No Queens with random doubles and redoubles: a seat's result weighs the others' scores too.
    for deal in range(6):
        hand = _hand(deal, 0, ChooseContract("no-queens"), Variants(early_end=False), doubles=deal + 1)
        rng = random.Random(deal)
        while (hand.hands[0] | hand.hands[1] | hand.hands[2] | hand.hands[3]).bit_count() > 9:
            _random_move(hand, rng)
        weights = [result_weights(hand, s) for s in range(4)]
        seat = hand.to_move
        assert seat is not None
        best = solve_exact(hand, weights)
        mask = hand.trick_mask(seat)
        options = []
        for c in (c for c in range(52) if (mask >> c) & 1):
            child = hand.copy()
            child.play_card(seat, c)
            scores = solve_exact(child, weights) if child.phase == PLAY else tuple(child.contract_scores)
            options.append(sum(w * x for w, x in zip(weights[seat], scores, strict=True)))
        assert sum(w * x for w, x in zip(weights[seat], best, strict=True)) == max(options)
        # A complete hand's scores add up to the contract's total, whoever took what.
        played = hand.copy()
        while played.phase == PLAY:
            _random_move(played, rng)
        assert sum(best) == sum(played.contract_scores) == -24


def test_exact_is_a_search_option_checked_like_the_others() -> None:
    policy = make_policy("search:playouts=5:exact=12", 1)
    assert isinstance(policy, SearchPolicy) and policy.exact == 12
    with pytest.raises(PolicySpecError, match="exact must be from 0 to 12"):
        parse_policy_spec("search:exact=13")
    with pytest.raises(ValueError, match="exact must be from 0 to 12"):
        Position(_hand(1, 0, ChooseContract("barbu"), Variants()), exact=20)


@compiled_only
def test_the_compiled_playout_refuses_a_deal_that_does_not_complete_the_hand() -> None:
    hand = _hand(2, 1, ChooseContract("no-hearts"), Variants())
    seat = hand.to_move
    assert seat is not None
    others = [0 if s == seat else hand.hands[s] for s in range(4)]
    hand.hands = [hand.hands[s] if s == seat else 0 for s in range(4)]
    position = Position(hand, compiled=True)
    assert position.playout(others, -1, 1) == Position(hand, compiled=False).playout(others, -1, 1)
    missing = [m & (m - 1) for m in others]  # a card short in each other hand
    doubled = [m | hand.hands[seat] if m else 0 for m in others]  # the seat's cards given out again
    for bad in (missing, doubled):
        with pytest.raises(ValueError, match="every unplayed card once"):
            position.playout(bad, -1, 1)
    with pytest.raises(ValueError, match="may play"):
        position.playout(others, next(c for c in range(52) if (others[(seat + 1) % 4] >> c) & 1), 1)
    packed = pack(hand)  # what is packed is checked too: here a trump suit 9
    with pytest.raises(ValueError, match="packed hand"):
        _kernels.playout((*packed[:5], 9, *packed[6:]), others, -1, 1, 0, (0,) * 16)


_CHOICES = """
from engine.barbu import Match, make_policy
from engine.barbu.search import kernels
print(kernels.PATH)
match = Match.new(6)
bots = [make_policy(spec, 24 + s) for s, spec in enumerate(
    ["search:playouts=12", "heuristic", "search:playouts=12:exact=10", "search:playouts=6:exact=12"])]
while len(match.history) < 2:
    seat = match.to_move
    action = bots[seat].choose(match.view(seat), match.legal_actions(seat))
    match.apply(seat, action)
    print(repr(action))
"""


def _choices(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "BARBU_PURE"}
    if pure:
        env["BARBU_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", _CHOICES], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.splitlines()


@compiled_only
def test_search_with_a_playout_budget_chooses_the_same_on_both_paths() -> None:
    fast, pure = _choices(pure=False), _choices(pure=True)
    assert fast[0] == "compiled" and pure[0] == "pure Python, BARBU_PURE set"
    assert len(fast) > 40 and fast[1:] == pure[1:]


def test_version_says_which_kernels_run(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        barbu(["--version"])
    assert exit_.value.code == 0
    assert f"kernels: {kernels.PATH}" in capsys.readouterr().out


def test_a_build_without_a_working_compiler_warns_and_succeeds(tmp_path: Path) -> None:
    env = {**os.environ, "CC": "/bin/false", "LDSHARED": "/bin/false"}
    out = subprocess.run(
        [
            sys.executable,
            "setup.py",
            "-q",
            "build_ext",
            "--build-lib",
            str(tmp_path / "lib"),
            "--build-temp",
            str(tmp_path / "tmp"),
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "the compiled kernels were not built" in out.stderr
    assert not list(tmp_path.rglob("*.so"))
