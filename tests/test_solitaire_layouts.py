"""Deals of every game: columns, cards per column, face-down counts, stock size (docs/rules/solitaire.md)."""

from __future__ import annotations

import pytest

from engine.solitaire import GAMES, RecordError, new_game
from engine.solitaire.catalogue import FAMILY, full_deck, seeded_deck
from engine.solitaire.columns import ColumnGame
from engine.solitaire.pyramid import PyramidGame
from tests.test_solitaire_support import cards, deck_for

# game: (columns, cards per column, face down per column, stock)
LAYOUTS = {
    "forty-thieves": (10, 4, 0, 64),
    "indian": (10, 3, 1, 74),
    "limited": (12, 3, 0, 68),
    "little-forty": (10, 4, 0, 64),
    "lucas": (13, 3, 0, 57),
    "maria": (9, 4, 0, 68),
    "number-ten": (10, 4, 2, 64),
    "rank-and-file": (10, 4, 3, 64),
    "streets": (10, 4, 0, 64),
    "bakers-dozen": (13, 4, 0, 0),
}


def test_registry_lists_every_game_once() -> None:
    assert set(GAMES) == {*LAYOUTS, "pyramid"}
    assert [row.name for row in FAMILY] == [n for n in LAYOUTS if n != "bakers-dozen"]
    for info in GAMES.values():
        d = info.to_dict()
        assert d["name"] == info.name and d["rules"] and isinstance(d["options"], list)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_column_layout(name: str) -> None:
    ncols, rows, down, stock = LAYOUTS[name]
    state = new_game(name, seed=7).state()
    assert len(state["columns"]) == ncols
    for col in state["columns"]:
        assert len(col) == rows
        assert col[:down] == ["??"] * down
        assert "??" not in col[down:]
    assert state["stock"] == stock
    assert state["waste"] == []
    assert not state["won"] and not state["over"]
    assert state["moves"] == 0
    assert len(state["foundations"]) == (4 if name == "bakers-dozen" else 8)


def test_lucas_aces_start_the_foundations() -> None:
    game = new_game("lucas", seed=3)
    state = game.state()
    assert state["foundations"] == [["AS"], ["AS"], ["AH"], ["AH"], ["AD"], ["AD"], ["AC"], ["AC"]]
    assert len(full_deck("lucas")) == 96
    assert 12 not in full_deck("lucas")  # no Ace of spades in the dealing order
    assert 8 + 39 + 57 == 104


def test_little_forty_has_three_redeals() -> None:
    assert new_game("little-forty", seed=1).state()["redeals_left"] == 3
    assert new_game("forty-thieves", seed=1).state()["redeals_left"] == 0


def test_pyramid_layout() -> None:
    state = new_game("pyramid", seed=5).state()
    assert [len(row) for row in state["pyramid"]] == [1, 2, 3, 4, 5, 6, 7]
    assert state["stock"] == 24 and state["waste"] == [] and state["removed"] == 0
    three = new_game("pyramid", {"draw": 3}, seed=5).state()
    assert three["waste"] == [[], [], []]


def test_deals_follow_the_dealing_order() -> None:
    deck = seeded_deck("forty-thieves", 11)
    game = new_game("forty-thieves", deck=deck)
    assert isinstance(game, ColumnGame)
    assert game.columns[0] == [deck[0], deck[10], deck[20], deck[30]]
    assert game.stock[-1] == deck[40]  # the first card left over is the stock's top
    pyr = new_game("pyramid", deck=list(range(52)))
    assert isinstance(pyr, PyramidGame)
    assert pyr.state()["pyramid"][1] == ["3S", "4S"]


def test_seeded_deals_are_reproducible() -> None:
    assert seeded_deck("pyramid", 42) == seeded_deck("pyramid", 42)
    assert seeded_deck("pyramid", 42) != seeded_deck("pyramid", 43)
    assert new_game("maria", seed=9).state() == new_game("maria", seed=9).state()


def test_bakers_dozen_moves_kings_to_the_bottom() -> None:
    columns = ["QS 5H KD 3C"] + [""] * 12
    deck = _bakers_deck(columns)
    state = new_game("bakers-dozen", deck=deck).state()
    assert state["columns"][0] == ["KD", "QS", "5H", "3C"]
    stay = new_game("bakers-dozen", {"kings": "stay"}, deck=deck).state()
    assert stay["columns"][0] == ["QS", "5H", "KD", "3C"]


def test_bakers_dozen_kings_keep_their_dealt_order() -> None:
    deck = _bakers_deck(["5H KD 2C KS"] + [""] * 12)
    assert new_game("bakers-dozen", deck=deck).state()["columns"][0] == ["KD", "KS", "5H", "2C"]


def _bakers_deck(first: list[str]) -> list[int]:
    """A Baker's Dozen deck whose given columns are as written and the rest filled in order."""
    used = [c for spec in first for c in cards(spec)]
    rest = [c for c in full_deck("bakers-dozen") if c not in used]
    columns = []
    for spec in first:
        if spec:
            columns.append(spec)
        else:
            columns.append(" ".join(_text(c) for c in rest[:4]))
            rest = rest[4:]
    return deck_for("bakers-dozen", columns)


def _text(c: int) -> str:
    from engine.cards import card_text

    return card_text(c)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"game": "klondike", "seed": 1}, "game"),
        ({"game": "pyramid", "options": {"draw": 2}, "seed": 1}, "options.draw"),
        ({"game": "pyramid", "options": {"colour": 1}, "seed": 1}, "options.colour"),
        ({"game": "bakers-dozen", "options": {"kings": "gone"}, "seed": 1}, "options.kings"),
        ({"game": "forty-thieves", "deck": list(range(52))}, "deck"),
        ({"game": "pyramid", "deck": [0] * 52}, "deck"),
        ({"game": "pyramid"}, "seed"),
    ],
)
def test_bad_setups_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(RecordError) as err:
        new_game(**kwargs)  # type: ignore[arg-type]
    assert err.value.field == field
