"""The view names why each card of the seat to play is not playable (``unplayable``: card -> the engine's own
rule code), and a refused card carries the rule's arguments (``IllegalAction.rule_args``), so that no client
re-derives a rule to explain it (``docs/protocol.md`` "Rule codes")."""

from __future__ import annotations

import pytest

from engine.barbu import IllegalAction, Match, Play, Variants
from engine.barbu.view import match_view
from engine.cards import parse_card
from tests.barbu_helpers import E, N, S, W, hands_of, play, start_hand

#: N: seven hearts and six low spades; E: low hearts, three spades, low diamonds; S: high spades, high
#: diamonds; W: every club.
DEAL = hands_of(
    "AH KH QH JH TH 9H 8H 2S 3S 4S 5S 6S 7S",
    "7H 6H 5H 4H 3H 2H 8S 9S TS 2D 3D 4D 5D",
    "JS QS KS AS 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)


def _view(hand_contract: str, declarer: str, trump: str | None, cards: str, seat: int) -> dict[str, object]:
    """The view of ``seat`` in a match whose first hand is ``DEAL``, ``hand_contract`` chosen by
    ``declarer``, nobody doubled, ``cards`` played."""
    match = Match(Variants(), first_declarer="NESW".index(declarer), deals=lambda index, dealer: list(DEAL))
    match.hand = start_hand(DEAL, declarer, hand_contract, trump)
    play(match.hand, cards)
    assert match.to_move == seat
    return match_view(match, seat)


def test_a_leader_holding_other_suits_may_not_lead_hearts_in_no_hearts() -> None:
    view = _view("no-hearts", "N", None, "", N)
    assert view["unplayable"] == {c: "hearts-lead" for c in ["AH", "KH", "QH", "JH", "TH", "9H", "8H"]}


def test_a_player_holding_the_led_suit_must_follow_it() -> None:
    view = _view("no-tricks", "N", None, "2S", E)
    off_suit = ["7H", "6H", "5H", "4H", "3H", "2H", "2D", "3D", "4D", "5D"]
    assert view["unplayable"] == dict.fromkeys(off_suit, "must-follow-suit")
    assert view["legal"] == [{"action": "play", "card": c} for c in ("8S", "9S", "TS")]


def test_a_player_void_in_the_led_suit_must_ruff_and_the_refusal_says_with_what() -> None:
    # S declares Trumps (hearts) and leads a diamond; W (clubs only) discards; N, void in diamonds, must ruff.
    view = _view("trumps", "S", "H", "6D 2C", N)
    assert view["unplayable"] == {c: "must-ruff" for c in ["2S", "3S", "4S", "5S", "6S", "7S"]}
    match = Match(Variants(), first_declarer=S, deals=lambda index, dealer: list(DEAL))
    match.hand = start_hand(DEAL, "S", "trumps", "H")
    play(match.hand, "6D 2C")
    with pytest.raises(IllegalAction) as refused:
        match.check(N, Play(parse_card("2S")))
    assert refused.value.code == "must-ruff"
    assert refused.value.rule_args == {"card": "2S", "led": "D", "trump": "H"}


def test_a_refused_card_that_breaks_follow_suit_names_the_led_suit() -> None:
    match = Match(Variants(), first_declarer=N, deals=lambda index, dealer: list(DEAL))
    match.hand = start_hand(DEAL, "N", "no-tricks")
    play(match.hand, "2S")
    with pytest.raises(IllegalAction) as refused:
        match.check(E, Play(parse_card("2D")))
    assert (refused.value.code, refused.value.rule_args) == ("must-follow-suit", {"card": "2D", "led": "S"})
    with pytest.raises(IllegalAction) as out_of_turn:
        match.check(W, Play(parse_card("2C")))
    assert out_of_turn.value.rule_args == {"to_move": "E"}


def test_nothing_is_unplayable_out_of_the_play_or_out_of_turn() -> None:
    match = Match.new(5)
    declarer = match.to_move
    assert declarer is not None
    assert all(match_view(match, s)["unplayable"] is None for s in range(4))
    assert match_view(match, None)["unplayable"] is None
