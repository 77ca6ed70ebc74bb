"""Pyramid: exposure, pairs totalling 13, Kings alone, the waste, draw three (docs/rules/solitaire.md)."""

from __future__ import annotations

import pytest

from engine.cards import card_text
from engine.solitaire import IllegalMove, new_game
from engine.solitaire.base import Game
from tests.test_solitaire_support import cards

ROWS = [
    "KS",
    "QS JS",
    "TS 9S 8S",
    "7S 6S 5S 4S",
    "3S 2S AS KH QH",
    "JH TH 9H 8H 7H 6H",
    "2C 5H 4H 3H AH KD 6D",
]
STOCK = "8D 7D QD 9C 4C 2D"


def pyramid(options: dict[str, object] | None = None, stock: str = STOCK) -> Game:
    head = cards(" ".join(ROWS)) + cards(stock)
    rest = [c for c in range(52) if c not in head]
    return new_game("pyramid", options or {}, deck=head + rest)


def rule_of(game: Game, move: str) -> str:
    before = game.state()
    with pytest.raises(IllegalMove) as err:
        game.apply(move)
    assert game.state() == before
    return err.value.rule


def test_only_exposed_cards_and_kings_alone() -> None:
    game = pyramid()
    assert game.legal_moves() == ["p7.6", "s"]
    assert "not exposed" in rule_of(game, "p6.4+p7.2")  # 8H is still covered
    assert "only a King is removed alone" in rule_of(game, "p7.2")
    game.apply("p7.6")
    state = game.state()
    assert state["pyramid"][6][5] is None and state["removed"] == 1


def test_never_pairs_with_a_covering_card() -> None:
    game = pyramid()
    rule = rule_of(game, "p6.1+p7.1")  # JH + 2C = 13, but 2C covers JH
    assert "covered by p7.1" in rule and "never pairs" in rule


def test_only_the_waste_top_is_available() -> None:
    game = pyramid()
    game.apply("s")
    game.apply("s")
    assert game.state()["waste"] == ["8D", "7D"]
    assert "total 12, not 13" in rule_of(game, "p7.2+w")  # 5H + 7D; 8D is covered by 7D
    assert "p7.7+w" in game.legal_moves()
    game.apply("p7.7+w")  # 6D + 7D
    assert game.state()["waste"] == ["8D"]
    game.apply("p7.2+w")  # 5H + 8D: the covered waste card is available again
    assert game.state()["removed"] == 4


def test_draw_three_fills_three_waste_piles_in_order() -> None:
    game = pyramid({"draw": 3})
    game.apply("s")
    assert game.state()["waste"] == [["8D"], ["7D"], ["QD"]]
    game.apply("s")
    assert game.state()["waste"] == [["8D", "9C"], ["7D", "4C"], ["QD", "2D"]]
    assert "w1+w2" in game.legal_moves()
    game.apply("w1+w2")  # 9C + 4C
    assert game.state()["waste"] == [["8D"], ["7D"], ["QD", "2D"]]
    assert "no pile 'w'" in rule_of(game, "w+p7.1")
    assert game.state()["stock"] == 18


def test_draw_three_last_turn_may_be_short() -> None:
    game = pyramid({"draw": 3})
    for _ in range(8):
        game.apply("s")
    assert [len(p) for p in game.state()["waste"]] == [8, 8, 8]
    assert game.state()["stock"] == 0
    assert "no redeal" in rule_of(game, "s")


def test_pairs_and_kings_rules() -> None:
    game = pyramid()
    game.apply("s")
    assert "cannot pair with itself" in rule_of(game, "w+w")
    assert "already removed" not in rule_of(game, "p7.6+w")
    game.apply("p7.6")
    assert "already removed" in rule_of(game, "p7.6+w")
    assert "no pile" in rule_of(game, "p8.1")
    assert "face down" in rule_of(game, "p7.1+s")


def test_stock_goes_through_once_and_the_game_ends() -> None:
    game = pyramid()
    for _ in range(24):
        game.apply("s")
    assert "no redeal" in rule_of(game, "s")
    while game.legal_moves():
        game.apply(game.legal_moves()[0])
    assert game.over and not game.won
    assert game.state()["over"]


def test_redeals_option_turns_the_waste_back_in_order() -> None:
    game = pyramid({"redeals": 2})
    for _ in range(24):
        game.apply("s")
    first_pass = game.state()["waste"]
    game.apply("s")
    state = game.state()
    assert (state["stock"], state["waste"], state["redeals_left"]) == (24, [], 1)
    game.apply("s")
    assert game.state()["waste"] == first_pass[:1]
    game.undo()
    game.undo()
    assert game.state()["waste"] == first_pass


def test_stock_top_option_shows_and_pairs_the_stock_top() -> None:
    game = pyramid({"stock-top": True}, stock="8D 7D")
    assert game.state()["stock_top"] == "8D"
    assert "p7.2+s" in game.legal_moves()  # 5H + 8D
    game.apply("p7.2+s")
    assert game.state()["stock_top"] == "7D"


def test_state_never_shows_the_stock() -> None:
    game = new_game("pyramid", seed=4)
    text = str(game.state())
    for c in game.deck[28:]:
        assert f"'{card_text(c)}'" not in text


@pytest.mark.parametrize("move", ["p7.1+p\u0667.2", "p07.6", "p7.06", "p\u00b2.1", "p7.\u0036\u0301"])
def test_only_ascii_numbers_without_leading_zeros_name_pyramid_cards(move: str) -> None:
    assert "no pile" in rule_of(pyramid(), move)


def test_a_pair_reads_the_same_whichever_card_is_named_first() -> None:
    """``p3.3+p3.1`` and ``p3.1+p3.3`` are one move, always written as the legal list writes it: a hint of
    Pyramid 115 said ``p3.3+p3.1`` (the solver found the pair the other way) while ``legal`` had the other
    order, so a client matching the hint against ``legal`` as text missed it."""
    game: Game = new_game("pyramid", seed=115)
    pairs = [move for move in game.legal_moves() if "+" in move]
    assert pairs
    for move in pairs:
        first, second = move.split("+")
        assert game._text(game._parse(f"{second}+{first}")) == move
        assert game._text(game._parse(move)) == move
