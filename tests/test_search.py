"""The ``search`` policy: what it infers from a view is true, its deal sampler is exact (every sample
consistent, frequencies uniform over the consistent deals), its choices are legal and repeatable, and it keeps
the must-double rule over whole matches. Small playout counts keep these fast; nothing here measures strength
or time."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest

from cli.main import main as barbu
from engine.barbu import (
    ChooseContract,
    Double,
    Match,
    Play,
    PolicySpecError,
    Variants,
    make_policy,
    parse_policy_spec,
)
from engine.barbu.match import seeded_deals
from engine.barbu.rules import DOUBLES_OWED
from engine.barbu.search import SearchPolicy
from engine.barbu.search.infer import read_view
from engine.barbu.search.sample import DealSampler, NoConsistentDeal
from engine.cards import mask_of, parse_card


def _mask(*cards: str) -> int:
    return mask_of(parse_card(c) for c in cards)


def _views(match: Match, policies: list[Any], every: int = 1) -> list[tuple[dict[str, Any], list[int]]]:
    """Play ``match`` out; every ``every``-th decision, keep the mover's view and the true hands."""
    out = []
    i = 0
    while not match.over:
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        if i % every == 0:
            out.append((view, list(match.hand.hands)))
        match.apply(seat, policies[seat].choose(view, match.legal_actions(seat)))
        i += 1
    return out


@pytest.mark.parametrize(
    "variants",
    [
        Variants(),
        Variants(trump_duty="overtrump", heart_lead="strict"),
        Variants(heart_lead="broken", early_end=False),
    ],
)
def test_what_the_view_implies_is_true_and_every_sample_consistent(variants: Variants) -> None:
    rng = random.Random(5)
    for seed in (1, 2):
        match = Match.new(seed, variants)
        bots = [make_policy("random" if s % 2 else "heuristic", seed + s) for s in range(4)]
        for view, hands in _views(match, bots, every=3):
            know, base = read_view(view)
            seat = know.seat
            assert base.hands[seat] == hands[seat] and base.to_move == seat
            assert sum(h.bit_count() for h in hands) - hands[seat].bit_count() == know.unseen.bit_count()
            for s in range(4):
                if s != seat:
                    assert hands[s] & know.forbidden[s] == 0, (view["contract"], s)
                    assert base.hands[s] == 0
            sampler = DealSampler(know.allowed(), know.sizes)
            for _ in range(3):
                deal = sampler.sample(rng)
                assert deal[seat] == 0
                assert sum(deal) == know.unseen and all(
                    deal[a] & deal[b] == 0 for a in range(4) for b in range(a)
                )
                for s in range(4):
                    if s != seat:
                        assert deal[s].bit_count() == know.sizes[s] and deal[s] & know.forbidden[s] == 0


def _fixed(hands: list[int], declarer: int = 0, variants: Variants | None = None) -> Match:
    return Match(variants or Variants(), declarer, lambda index, dealer: list(hands))


def _deal_from(cards: list[str]) -> list[int]:
    """Four 13-card hands from 52 card texts, 13 by 13 for N, E, S, W."""
    return [_mask(*cards[13 * s : 13 * s + 13]) for s in range(4)]


def _deck_texts() -> list[str]:
    return [r + s for s in "SHDC" for r in "23456789TJQKA"]


def test_a_failure_to_follow_and_a_missing_ruff_are_inferred() -> None:
    hands = seeded_deals(3)(0, 3)
    match = _fixed(hands)
    match.apply(0, ChooseContract("trumps", trump=1))
    for doubler in (1, 2, 3):
        match.apply(doubler, Double(frozenset()))
    # Play the highest legal card each time until someone has shown a void in hearts (the trumps).
    inferred = False
    while match.hand.phase == "play" and not inferred:
        mover = match.to_move
        assert mover is not None
        match.apply(mover, match.legal_actions(mover)[-1])
        for other in range(4):
            view = match.view(other) if match.to_move == other else None
            if view is None:
                continue
            know, _ = read_view(view)
            for s in range(4):
                true = match.hand.hands[s]
                assert true & know.forbidden[s] == 0
                if s != other and know.forbidden[s] & _mask("2H", "AH"):
                    inferred = True
    assert inferred, "some player failed to follow or ruff in a whole hand of Trumps"


def test_a_dominoes_pass_means_no_fitting_card() -> None:
    deck = _deck_texts()
    # N holds all the sevens and sixes, so E, S, W must pass at once on a start rank of 7... except that N
    # plays first: after N's 7S, E can play nothing (6S, 8S are N's and W's).
    n = ["7S", "7H", "7D", "7C", "6S", "6H", "6D", "6C", "2S", "2H", "2D", "2C", "3S"]
    w = ["8S", "8H", "8D", "8C", "9S", "9H", "9D", "9C", "TS", "TH", "TD", "TC", "JS"]
    rest = [c for c in deck if c not in n + w]
    hands = [_mask(*n), _mask(*rest[:13]), _mask(*rest[13:26]), _mask(*w)]
    match = _fixed(hands)
    match.apply(0, ChooseContract("dominoes", start_rank=5))
    for doubler in (1, 2, 3):
        match.apply(doubler, Double(frozenset()))
    match.apply(0, Play(parse_card("7S")))
    assert match.to_move == 1
    match.apply(1, match.legal_actions(1)[0])  # a pass: E has no 7 and no 6S/8S
    know, _ = read_view(match.view(2))
    assert know.forbidden[1] & _mask("6S", "8S", "7H", "7D", "7C") == _mask("6S", "8S", "7H", "7D", "7C")


def _consistent(allowed: list[int], sizes: list[int]) -> list[tuple[int, ...]]:
    """Every deal by brute force: each seat's cards as a mask tuple."""
    unseen = sorted(c for c in range(52) if any((m >> c) & 1 for m in allowed))
    out = []
    for owners in itertools.product(range(4), repeat=len(unseen)):
        deal = [0, 0, 0, 0]
        ok = True
        for c, s in zip(unseen, owners, strict=True):
            if not (allowed[s] >> c) & 1:
                ok = False
                break
            deal[s] |= 1 << c
        if ok and all(deal[s].bit_count() == (sizes[s] if allowed[s] else 0) for s in range(4)):
            out.append(tuple(deal))
    return out


def _chi_square_bound(df: int) -> float:
    """The 99.9 % quantile of chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    z = 3.09
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(
    ("allowed", "sizes"),
    [
        # 6 unseen cards, E void in spades, W holds no hearts: uneven counts per type.
        (
            [
                0,
                _mask("2H", "3H", "4D", "5D"),
                _mask("2S", "3S", "2H", "3H", "4D", "5D"),
                _mask("2S", "3S", "4D", "5D"),
            ],
            [0, 2, 2, 2],
        ),
        # 8 cards, sizes 3/3/2, one card only S may hold, one only W, a pair type and a triple type.
        (
            [
                0,
                _mask("AS", "KS", "QS", "JS", "TS", "9S"),
                _mask("AS", "KS", "QS", "JS", "TS", "9S", "2C"),
                _mask("AS", "KS", "QS", "JD"),
            ],
            [0, 3, 3, 2],
        ),
    ],
)
def test_sampler_frequencies_are_uniform_over_consistent_deals(allowed: list[int], sizes: list[int]) -> None:
    deals = _consistent(allowed, sizes)
    sampler = DealSampler(allowed, sizes)
    assert sampler.count == len(deals) > 5
    rng = random.Random(11)
    draws = 200 * len(deals)
    counts = Counter(tuple(sampler.sample(rng)) for _ in range(draws))
    assert set(counts) <= set(deals)
    expected = draws / len(deals)
    chi2 = sum((counts.get(d, 0) - expected) ** 2 / expected for d in deals)
    assert chi2 < _chi_square_bound(len(deals) - 1)


def test_an_impossible_position_is_refused() -> None:
    with pytest.raises(NoConsistentDeal):
        DealSampler([0, _mask("2S"), _mask("2S"), _mask("3S")], [0, 1, 1, 0])


def _play(
    seed: int, specs: list[str], hands: int, variants: Variants | None = None
) -> tuple[Match, list[str]]:
    match = Match.new(seed, variants)
    bots = [make_policy(spec, seed * 4 + s) for s, spec in enumerate(specs)]
    log = []
    while not match.over and len(match.history) < hands:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions(seat)
        action = bots[seat].choose(match.view(seat), legal)
        assert action in legal
        match.apply(seat, action)
        log.append(repr(action))
    return match, log


def test_same_seed_same_choices() -> None:
    specs = ["search:playouts=12", "heuristic", "search:playouts=12", "random"]
    _, first = _play(4, specs, hands=2)
    _, again = _play(4, specs, hands=2)
    assert first == again


def test_whole_matches_are_legal_and_keep_the_must_double_rule() -> None:
    for seed, variants in ((8, Variants()), (9, Variants(trump_duty="overtrump", heart_lead="broken"))):
        match, _ = _play(seed, ["search:playouts=4"] * 4, hands=28, variants=variants)
        assert match.over
        for declarer in range(4):
            for seat in range(4):
                if seat != declarer:
                    assert match.doubles_made[seat][declarer] >= DOUBLES_OWED


def test_search_specs() -> None:
    assert str(parse_policy_spec("search:time=0.5")) == "search:time=0.5"
    assert parse_policy_spec("search:playouts=200").get("playouts") == 200
    for bad, says in (
        ("search:time=0", "time must be from"),
        ("search:time=nan", "time must be from"),
        ("search:playouts=1.5", "not an integer"),
        ("search:playouts=10:time=1", "not both"),
        ("search:time=1:time=2", "given twice"),
        ("search:time", "needs a value"),
    ):
        with pytest.raises(PolicySpecError, match=says):
            parse_policy_spec(bad)
    policy = make_policy("search:playouts=7", 3)
    assert isinstance(policy, SearchPolicy) and policy.playouts == 7


def test_selfplay_takes_search_specs(capsys: pytest.CaptureFixture[str]) -> None:
    # The example is search:playouts=200; 10 keeps the test quick.
    assert (
        barbu(["selfplay", "--players", "search:playouts=10,heuristic,heuristic,heuristic", "--seed", "2"])
        == 0
    )
    out = capsys.readouterr().out
    assert "match 1 seed 2:" in out and "N=bot:se" in out
