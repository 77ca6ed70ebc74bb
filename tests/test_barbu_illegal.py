"""Illegal actions are refused with the right ``code`` and leave the match exactly as it was: every seat's
view and the spectator's are the same before and after, and the game goes on normally afterwards."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.barbu import (
    PASS,
    Action,
    ChooseContract,
    Double,
    IllegalAction,
    Match,
    Play,
    Redouble,
    Variants,
)
from engine.barbu.rules import CONTRACTS
from engine.cards import parse_card
from tests.barbu_helpers import (
    DOMINOES_PASSES,
    MIXED,
    E,
    N,
    S,
    W,
    declare_and_double,
    first_card_play,
    fixed_match,
    views_json,
)


def card(text: str) -> Play:
    return Play(parse_card(text))


def apply_all(match: Match, actions: str) -> None:
    for text in actions.split():
        seat = match.to_move
        assert seat is not None
        match.apply(seat, PASS if text == "pass" else card(text))


def at_contract() -> Match:
    return fixed_match(MIXED)


def at_double_trumps() -> Match:
    match = fixed_match(MIXED)
    match.apply(N, ChooseContract("trumps", trump=1))
    return match


def at_double_no_tricks() -> Match:
    match = fixed_match(MIXED)
    match.apply(N, ChooseContract("no-tricks"))
    return match


def at_redouble() -> Match:
    match = at_double_no_tricks()
    match.apply(E, Double(frozenset({N})))
    match.apply(S, Double(frozenset()))
    match.apply(W, Double(frozenset()))
    return match


def playing(contract: str, trump: int | None = None, variants: Variants | None = None) -> Callable[[], Match]:
    def build() -> Match:
        match = fixed_match(MIXED, variants=variants)
        declare_and_double(match, contract, trump=trump)
        return match

    return build


def after(build: Callable[[], Match], actions: str) -> Callable[[], Match]:
    def run() -> Match:
        match = build()
        apply_all(match, actions)
        return match

    return run


def second_hand() -> Match:
    match = fixed_match(MIXED)
    declare_and_double(match, "no-queens")
    first_card_play(match)
    return match


def must_double_hand() -> Match:
    match = fixed_match(MIXED)
    for contract in CONTRACTS[:5]:
        declare_and_double(match, contract)
        first_card_play(match)
    match.apply(N, ChooseContract("trumps", trump=0))
    return match


def dominoes_hand() -> Match:
    match = fixed_match(DOMINOES_PASSES)
    declare_and_double(match, "dominoes", start_rank=5)
    return match


def finished_match() -> Match:
    match = fixed_match(MIXED, hands_total=1)
    declare_and_double(match, "barbu")
    first_card_play(match)
    assert match.over
    return match


THREE_SPADES = "AS TS 7S 4S KS 9S 6S 3S QS 8S 5S 2S"

CASES: list[tuple[str, Callable[[], Match], int, Action, str]] = [
    ("contract out of turn", at_contract, E, ChooseContract("no-tricks"), "not-your-turn"),
    ("card in the contract phase", at_contract, N, card("AS"), "wrong-phase"),
    ("double in the contract phase", at_contract, N, Double(frozenset()), "wrong-phase"),
    ("trumps without a suit", at_contract, N, ChooseContract("trumps"), "trump-suit"),
    ("a suit without trumps", at_contract, N, ChooseContract("no-tricks", trump=1), "trump-suit"),
    ("dominoes without a rank", at_contract, N, ChooseContract("dominoes"), "start-rank"),
    ("a rank without dominoes", at_contract, N, ChooseContract("barbu", start_rank=3), "start-rank"),
    ("unknown contract", at_contract, N, ChooseContract("misere"), "bad-action"),
    ("contract already played", second_hand, N, ChooseContract("no-queens"), "contract-played"),
    ("trumps: doubling a non-declarer", at_double_trumps, E, Double(frozenset({S})), "double-not-allowed"),
    ("doubling oneself", at_double_no_tricks, E, Double(frozenset({E})), "double-not-allowed"),
    ("double out of turn", at_double_no_tricks, S, Double(frozenset({N})), "not-your-turn"),
    ("declarer doubling", at_double_no_tricks, N, Double(frozenset({E})), "not-your-turn"),
    ("card in the doubling round", at_double_no_tricks, E, card("TS"), "wrong-phase"),
    ("must-double rule", must_double_hand, E, Double(frozenset()), "must-double"),
    ("redouble of a non-doubler", at_redouble, N, Redouble(frozenset({S})), "redouble-not-allowed"),
    ("double in the redouble round", at_redouble, N, Double(frozenset()), "wrong-phase"),
    ("card not held", playing("no-tricks"), N, card("TS"), "not-in-hand"),
    ("card out of turn", playing("no-tricks"), E, card("TS"), "not-your-turn"),
    ("contract during play", playing("no-tricks"), N, ChooseContract("barbu"), "wrong-phase"),
    ("pass in a trick contract", playing("no-tricks"), N, PASS, "wrong-phase"),
    ("not following suit", after(playing("no-queens"), "AS"), E, card("2H"), "must-follow-suit"),
    ("leading a heart in No Hearts", playing("no-hearts"), N, card("3H"), "hearts-lead"),
    ("leading KH in Barbu", playing("barbu"), N, card("KH"), "king-of-hearts-lead"),
    (
        "not ruffing",
        after(playing("trumps", trump=1), THREE_SPADES + " JS"),
        E,
        card("4C"),
        "must-ruff",
    ),
    (
        "not overtrumping a trump lead",
        after(playing("trumps", trump=1, variants=Variants(trump_duty="overtrump")), "3H"),
        E,
        card("2H"),
        "must-overtrump",
    ),
    (
        "heart lead before hearts are broken",
        playing("barbu", variants=Variants(heart_lead="broken")),
        N,
        card("3H"),
        "hearts-lead",
    ),
    ("pass holding a playable card", dominoes_hand, N, PASS, "must-play"),
    ("card off the rows", dominoes_hand, N, card("8S"), "not-playable"),
    ("dominoes card not held", after(dominoes_hand, "7S"), E, card("3S"), "not-in-hand"),
    ("any action after the match", finished_match, N, card("AS"), "match-over"),
]


@pytest.mark.parametrize(
    ("build", "seat", "action", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_illegal_action_refused_with_code_and_state_unchanged(
    build: Callable[[], Match], seat: int, action: Action, code: str
) -> None:
    match = build()
    before = views_json(match)
    legal_before = [match.legal_actions(s) for s in range(4)]
    totals, history = list(match.totals), len(match.history)
    with pytest.raises(IllegalAction) as err:
        match.apply(seat, action)
    assert err.value.code == code
    assert str(err.value)
    assert views_json(match) == before
    assert [match.legal_actions(s) for s in range(4)] == legal_before
    assert (match.totals, len(match.history)) == (totals, history)
    # the refused action is not among the legal ones, and the game goes on with a legal one
    assert action not in match.legal_actions(seat)
    if not match.over:
        mover = match.to_move
        assert mover is not None
        match.apply(mover, match.legal_actions(mover)[0])


def test_every_legal_action_is_accepted_and_others_refused_at_a_trick() -> None:
    match = after(playing("trumps", trump=1), THREE_SPADES + " JS")()
    legal = {a for a in match.legal_actions(E) if isinstance(a, Play)}
    for c in range(52):
        action = Play(c)
        if action in legal:
            continue
        before = views_json(match)
        with pytest.raises(IllegalAction):
            match.apply(E, action)
        assert views_json(match) == before
    assert {card(t) for t in ("2H", "6H", "9H")} == legal
