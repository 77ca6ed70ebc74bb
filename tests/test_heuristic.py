"""The ``heuristic`` policy's card play in Trumps and Dominoes (``engine/barbu/trumps_play.py``,
``engine/barbu/dominoes_play.py``): situations a card player knows, on hand-built views of one seat, each
played differently (worse) by today's play kept as ``heuristic-2026``; and a legal action always, in random
positions of every contract."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.barbu import Match
from engine.barbu.actions import Action, ChooseContract, Play
from engine.barbu.bots import Heuristic2026Policy, HeuristicPolicy
from engine.barbu.hand import PLAY
from engine.barbu.rules import CONTRACTS, DOMINOES, TRUMPS
from engine.cards import parse_card


def _view(contract: str, seat: str, hand: str, **rest: Any) -> dict[str, Any]:
    """A view of ``seat`` in the play of ``contract`` holding ``hand`` (card texts, space-separated), with
    the keys the card play reads; ``rest`` overrides them."""
    view: dict[str, Any] = {
        "seat": seat,
        "phase": PLAY,
        "contract": contract,
        "trump": None,
        "start_rank": None,
        "hand": hand.split(),
        "trick": {"leader": seat, "cards": []},
        "tricks": [],
        "rows": {},
        "variants": {},
    }
    view.update(rest)
    return view


def _plays(view: dict[str, Any], legal: str) -> tuple[str, str]:
    """The cards ``heuristic`` and ``heuristic-2026`` play in ``view`` among the ``legal`` card texts."""
    actions: list[Action] = [Play(parse_card(c)) for c in legal.split()]
    new, old = (p.choose(view, actions) for p in (HeuristicPolicy(1), Heuristic2026Policy(1)))
    assert isinstance(new, Play) and isinstance(old, Play)
    return _text(new.card), _text(old.card)


def _text(c: int) -> str:
    return "23456789TJQKA"[c % 13] + "SHDC"[c // 13]


def _trick(leader: str, cards: str, winner: str) -> dict[str, Any]:
    return {"leader": leader, "cards": cards.split(), "winner": winner}


# ---------------------------------------------------------------------- Trumps


def test_trumps_a_seat_with_the_top_trumps_draws_trumps_before_cashing_a_side_ace() -> None:
    hand = "AS KS QS AH 5H 4H 9D 8D 7D 3D 6C 4C 2C"
    view = _view(TRUMPS, "N", hand, trump="S")
    new, old = _plays(view, hand)
    assert new in ("AS", "KS", "QS")  # the three are equals: drawing the others' trumps
    assert old == "AH"


def test_trumps_a_king_whose_ace_has_gone_is_cashed_as_a_winner() -> None:
    # Trick 1: E led AH, all followed; N ruffed trick 2 and is on lead with KH, now the top heart.
    tricks = [_trick("E", "AH 3H 9H 2H", "E"), _trick("E", "AD 4D 6D 5S", "N")]
    hand = "KH 7H 8C 6C 5C 4C 3C 2C TS 9S 2S"
    view = _view(TRUMPS, "N", hand, trump="S", tricks=tricks, trick={"leader": "N", "cards": []})
    new, old = _plays(view, "KH 7H 8C 6C 5C 4C 3C 2C TS 9S 2S")
    assert new == "KH"
    assert old == "2S"  # its lowest card: it does not count the ace as gone


def test_trumps_second_hand_plays_low_when_its_king_would_fall_to_an_ace_still_out() -> None:
    hand = "KH 8H 4H 3H 9S 8S 7D 6D 5D 4C 3C 2C 5S"
    view = _view(TRUMPS, "E", hand, trump="S", trick={"leader": "N", "cards": ["6H"]})
    new, old = _plays(view, "KH 8H 4H 3H")
    assert new == "3H"
    assert old == "KH"


def test_trumps_a_sure_winner_is_played_as_cheaply_as_its_equals_allow() -> None:
    # N led the QH, E followed low: S's AH and KH are equals; the KH wins as surely and keeps the AH.
    hand = "AH KH 2H 9S 8S 7D 6D 5D 4C 3C 2C 5S 4S"
    view = _view(TRUMPS, "S", hand, trump="S", trick={"leader": "N", "cards": ["QH", "3H"]})
    new, old = _plays(view, "AH KH 2H")
    assert new == "KH"
    assert old == "AH"


# ---------------------------------------------------------------------- Dominoes


def test_dominoes_a_seat_opens_its_own_run_rather_than_the_others() -> None:
    # Rows start at 7. 9S would free TS..AS, all in the others' hands; 8H frees 9H and TH, both its own.
    rows = {"S": ["6S", "7S", "8S"], "H": ["7H"], "D": [], "C": []}
    hand = "9S 4S 3S 2S 8H 9H TH"
    view = _view(DOMINOES, "W", hand, start_rank="7", rows=rows)
    new, old = _plays(view, "9S 8H")
    assert new == "8H"
    assert old == "9S"  # three of its spades lie below the 7: it counts them though 9S does not free them


def test_dominoes_of_plays_that_serve_its_own_cards_alike_it_keeps_the_stopper() -> None:
    # 8S serves its QS but frees 9S TS JS for the others; 6H serves its 5H and frees nothing.
    rows = {"S": ["7S"], "H": ["7H"], "D": [], "C": []}
    hand = "8S QS 6H 5H 2C"
    view = _view(DOMINOES, "N", hand, start_rank="7", rows=rows)
    new, old = _plays(view, "8S 6H")
    assert new == "6H"
    assert old == "8S"  # one of its cards beyond either, and it prefers the card nearer the middle


# ---------------------------------------------------------------------- every contract: a legal action


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(CONTRACTS))
def test_heuristic_always_returns_a_legal_action(seed: int, contract: str) -> None:
    """The first hand of a match in ``contract`` (random trump or starting rank), every other decision
    random: at each of them the heuristic's choice is one of the legal actions."""
    rng = random.Random(seed)
    match = Match.new(seed)
    policy = HeuristicPolicy(seed)
    while not match.history:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions(seat)
        choice = policy.choose(match.view(seat), legal)
        assert choice in legal
        action: Action
        if isinstance(legal[0], ChooseContract):
            action = rng.choice(
                [a for a in legal if isinstance(a, ChooseContract) and a.contract == contract]
            )
        else:
            action = rng.choice([choice, rng.choice(legal)])
        match.apply(seat, action)
    assert match.history[0].contract == contract
