"""Column games: build rules, runs, empty columns, stock and redeals, undo/redo (docs/rules/solitaire.md)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from engine.solitaire import GAMES, IllegalMove, new_game
from engine.solitaire.base import Game
from engine.solitaire.catalogue import full_deck
from engine.solitaire.errors import RULE_CODES
from engine.solitaire.rules import BUILDS_ON, Build
from tests.test_solitaire_support import cards, deck_for

# Ten columns of four, bottom first: tops 9H TH TS TD AS TS 4H 7H JH 3H; t5 holds four aces.
FORTY = [
    "5C 5D 6C 9H",
    "6D 7C 7D TH",
    "8C 8D 9C TS",
    "9D TC JC TD",
    "AH AH AS AS",
    "QC QD KC TS",
    "KD 2D 3D 4H",
    "4D 5H 6H 7H",
    "8H JD QH JH",
    "KH JH 2H 3H",
]


def forty(game: str = "forty-thieves", options: dict[str, object] | None = None, stock: str = "") -> Game:
    return new_game(game, options or {}, deck=deck_for(game, FORTY, stock))


def rule_of(game: Game, move: str) -> str:
    before = game.state()
    with pytest.raises(IllegalMove) as err:
        game.apply(move)
    assert game.state() == before  # an illegal move changes nothing
    assert err.value.move == move
    return err.value.rule


@pytest.mark.parametrize(
    ("rule", "below", "above", "ok"),
    [
        (Build.SAME_SUIT, "TH", "9H", True),
        (Build.SAME_SUIT, "TS", "9H", False),
        (Build.OTHER_SUIT, "TD", "9H", True),
        (Build.OTHER_SUIT, "TH", "9H", False),
        (Build.ALTERNATE_COLOUR, "TS", "9H", True),
        (Build.ALTERNATE_COLOUR, "TD", "9H", False),
        (Build.ANY_SUIT, "TH", "9H", True),
        (Build.ANY_SUIT, "JH", "9H", False),
        (Build.SAME_SUIT, "2S", "AS", True),
        (Build.ANY_SUIT, "AS", "KS", False),
    ],
)
def test_build_rules(rule: Build, below: str, above: str, ok: bool) -> None:
    assert bool(BUILDS_ON[rule][parse_card(below) * 52 + parse_card(above)]) is ok


def test_forty_thieves_builds_down_in_suit() -> None:
    game = forty()
    assert "t1>t2" in game.legal_moves()
    assert "in the same suit" in rule_of(game, "t1>t3")
    game.apply("t1>t2")
    assert game.state()["columns"][1][-2:] == ["TH", "9H"]


def test_indian_builds_on_any_suit_but_its_own() -> None:
    deck = deck_for("indian", [" ".join(c.split()[1:]) for c in FORTY])
    game = new_game("indian", deck=deck)
    assert game.state()["columns"][0] == ["??", "6C", "9H"]
    game.apply("t1>t3")  # 9H on TS
    assert game.state()["columns"][0] == ["??", "6C"]  # the bottom card stays down while covered
    assert "different suit" in rule_of(game, "t3>t2")  # 9H on TH: same suit


def test_maria_builds_in_alternate_colours() -> None:
    deck = deck_for("maria", FORTY[:9], stock="3H")
    game = new_game("maria", deck=deck)
    game.apply("t1>t3")  # 9H on TS
    assert "alternate colours" in rule_of(game, "t3>t4")  # 9H on TD


def test_little_forty_any_suit_is_an_option() -> None:
    assert "different suit" in rule_of(forty("little-forty"), "t1>t2")
    game = forty("little-forty", {"build": "any-suit"})
    game.apply("t1>t2")


def test_bakers_dozen_builds_on_a_different_suit_only() -> None:
    columns = ["2C 3C 4C 9H", "2D 3D 4D TH", "2S 3S 4S TD", "5C 5D 5S TC", "AS AH AD AC", "6C 6D 6S TS"]
    rest = [c for c in full_deck("bakers-dozen") if c not in cards(" ".join(columns))]
    while rest:
        columns.append(" ".join(_text(c) for c in rest[:4]))
        rest = rest[4:]
    deck = deck_for("bakers-dozen", columns)
    game = new_game("bakers-dozen", deck=deck)
    legal = game.legal_moves()
    assert {"t1>t3", "t1>t4", "t1>t6"} <= set(legal)  # the seed's example: 9H on TD, TC or TS
    assert "t1>t2" not in legal
    assert "different suit" in rule_of(game, "t1>t2")
    for _ in range(4):
        game.apply("t5>f")
    assert "stays empty" in rule_of(game, "t1>t5")  # an emptied column stays empty
    assert not any(m.endswith(">t5") for m in game.legal_moves())
    assert "stays there" in rule_of(game, "f1>t1")
    any_suit = new_game("bakers-dozen", {"build": "any-suit"}, deck=deck)
    any_suit.apply("t1>t2")


def test_bakers_dozen_kings_variant_fills_empty_columns_with_kings_only() -> None:
    columns = ["AS AH AD AC", "2S 3S 4S KH", "2H 3H 4H 9C"]
    rest = [c for c in full_deck("bakers-dozen") if c not in cards(" ".join(columns))]
    while rest:
        columns.append(" ".join(_text(c) for c in rest[:4]))
        rest = rest[4:]
    game = new_game("bakers-dozen", {"kings": "stay"}, deck=deck_for("bakers-dozen", columns))
    for _ in range(4):
        game.apply("t1>f")
    assert "King only" in rule_of(game, "t3>t1")
    assert "t2>t1" in game.legal_moves()
    game.apply("t2>t1")
    assert game.state()["columns"][0] == ["KH"]


def test_empty_column_takes_any_card_in_forty_thieves() -> None:
    game = forty()
    for _ in range(4):
        game.apply("t5>f")
    assert game.state()["columns"][4] == []
    assert "t1>t5" in game.legal_moves()
    game.apply("t8>t5")
    assert game.state()["columns"][4] == ["7H"]


def test_foundations_build_up_in_suit_from_the_ace() -> None:
    game = forty()
    assert "no foundation takes 9H" in rule_of(game, "t1>f")
    game.apply("t5>f3")
    assert "takes an Ace only" in rule_of(game, "t1>f1")
    assert "does not go on AS" in rule_of(game, "t1>f3")
    assert game.state()["foundations"][2] == ["AS"]
    assert "stays there" in rule_of(game, "f3>t1")


def test_foundation_back_is_an_option() -> None:
    game = forty(options={"foundation-back": True}, stock="2S")
    game.apply("t5>f")
    game.apply("s")
    game.apply("w>f")
    assert "f1>t7" not in game.legal_moves()  # 2S does not go on 4H
    game.apply("t1>t2")
    game.apply("t5>f")
    game.apply("t5>f")
    game.apply("t5>f")
    assert "f1>t5" in game.legal_moves()
    game.apply("f1>t5")
    assert game.state()["columns"][4] == ["2S"]


def test_one_card_at_a_time_unless_runs_move() -> None:
    game = forty()
    game.apply("t1>t2")
    assert "one card moves at a time" in rule_of(game, "t2>t9*2")
    assert not any("*" in m for m in game.legal_moves())


def test_supermove_option_needs_empty_columns() -> None:
    game = forty(options={"supermove": True})
    game.apply("t1>t2")
    assert "at most 1 cards" in rule_of(game, "t2>t9*2")
    for _ in range(4):
        game.apply("t5>f")
    assert "t2>t9*2" in game.legal_moves()
    game.apply("t2>t9*2")
    assert game.state()["columns"][8][-3:] == ["JH", "TH", "9H"]


def test_runs_move_in_number_ten() -> None:
    columns = [
        "2C 2D 9H 8S",
        "3C 3D 4C TS",
        "4D 5C 6C 9D",
        "6D 7C 9C 8S",
        "7D 8C 8D QC",
        "9D TC QS JH",
        "JC JD KC AH",
        "QC QD KD 3H",
        "KC KD 4H 5H",
        "6H 7H AS 2S",
    ]
    game = new_game("number-ten", deck=deck_for("number-ten", columns))
    assert game.state()["columns"][0] == ["??", "??", "9H", "8S"]
    legal = game.legal_moves()
    assert "t1>t2*2" in legal and "t1>t3" in legal
    assert "not a run built down in alternate colours" in rule_of(game, "t4>t2*2")
    assert "only 2 face-up cards" in rule_of(game, "t1>t2*3")
    game.apply("t1>t2*2")
    state = game.state()
    assert state["columns"][0] == ["??", "2D"]
    assert state["columns"][1][-3:] == ["TS", "9H", "8S"]
    game.apply("t2>t6*3")  # a whole run onto JH
    assert game.state()["columns"][5][-4:] == ["JH", "TS", "9H", "8S"]


def test_stock_turns_one_card_and_plays_straight_from_the_stock() -> None:
    game = forty(stock="2S 9S")
    assert game.state()["stock"] == 64
    assert not any(m.startswith("s>") for m in game.legal_moves())  # the stock card stays hidden
    game.apply("t5>f")
    game.apply("s>f")
    assert game.state()["foundations"][0] == ["AS", "2S"]
    game.apply("s")
    assert game.state()["waste"] == ["9S"]
    game.apply("w>t3")


def test_forty_thieves_stock_goes_through_once() -> None:
    game = forty()
    for _ in range(64):
        game.apply("s")
    state = game.state()
    assert state["stock"] == 0 and len(state["waste"]) == 64
    assert "no redeal" in rule_of(game, "s")
    assert "s" not in game.legal_moves()


def test_little_forty_turns_three_and_redeals_three_times() -> None:
    game = forty("little-forty")
    assert "3 at a time" in rule_of(game, "s>t1")
    game.apply("s")
    first = game.state()["waste"]
    assert len(first) == 3 and game.state()["stock"] == 61
    for redeal in range(3):
        while game.state()["stock"]:
            game.apply("s")
        assert len(game.state()["waste"]) == 64
        game.apply("s")  # the redeal
        state = game.state()
        assert (state["stock"], state["waste"], state["redeals_left"]) == (64, [], 2 - redeal)
        game.apply("s")
        assert game.state()["waste"] == first  # the cards come again in the same order
    while game.state()["stock"]:
        game.apply("s")
    assert "all 3 redeals are used" in rule_of(game, "s")


def test_won_when_all_foundations_are_full() -> None:
    columns = ["AS 2S 3S 4S", "5S 6S 7S 8S", "9S TS JS QS", "KS AH 2H 3H", "4H 5H 6H 7H"]
    columns += ["8H 9H TH JH", "QH KH AD 2D", "3D 4D 5D 6D", "7D 8D 9D TD", "JD QD KD AC"]
    game = new_game("forty-thieves", deck=deck_for("forty-thieves", columns))
    assert not game.won
    assert game.state()["foundations"] == [[]] * 8


def test_undo_and_redo_restore_exact_states() -> None:
    game = forty(options={"supermove": True}, stock="2S")
    states = [game.state()]
    for move in ["t5>f", "t5>f", "s", "w>f", "t1>t2", "t5>f", "t5>f", "t2>t9*2", "t8>t5"]:
        game.apply(move)
        states.append(game.state())
    for expected in reversed(states[:-1]):
        assert game.undo() is not None
        assert game.state() == expected
    assert game.undo() is None
    while game.redo():
        pass
    assert game.state() == states[-1]
    game.undo()
    game.apply("t8>f" if "t8>f" in game.legal_moves() else game.legal_moves()[0])
    assert game.redo() is None  # a new move forgets the undone ones


def test_auto_moves_play_safe_cards_only() -> None:
    game = forty(stock="2S")
    made = game.auto_moves()
    assert made == ["t5>f", "t5>f", "t5>f", "t5>f"]  # aces are always safe
    assert game.moves == 4
    assert game.hint() is not None


def test_bad_move_text_is_refused() -> None:
    game = forty()
    assert "not a move" in rule_of(game, "t1")
    assert "no pile" in rule_of(game, "t11>t1")
    assert "no pile" in rule_of(game, "x1>t1")
    assert "run length" in rule_of(game, "t1>t2*0")
    assert "own pile" in rule_of(game, "t1>t1")
    assert "the waste is empty" in rule_of(game, "w>t1")
    assert "only by turning" in rule_of(game, "t1>w")


COLUMN_GAMES = sorted(name for name, info in GAMES.items() if info.columns is not None)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_name=st.sampled_from([*COLUMN_GAMES, "pyramid"]), seed=st.integers(0, 10_000), data=st.data())
def test_random_play_undoes_to_every_earlier_state(game_name: str, seed: int, data: st.DataObject) -> None:
    options = {"draw": 3} if game_name == "pyramid" and seed % 2 else {}
    game = new_game(game_name, options, seed=seed)
    states = [game.state()]
    for _ in range(data.draw(st.integers(0, 40))):
        legal = game.legal_moves()
        if not legal:
            break
        game.apply(data.draw(st.sampled_from(legal)))
        states.append(game.state())
    assert game.moves == len(states) - 1
    for expected in reversed(states[:-1]):
        game.undo()
        assert game.state() == expected


def _text(c: int) -> str:
    from engine.cards import card_text

    return card_text(c)


@pytest.mark.parametrize("name", [n for n in COLUMN_GAMES if n != "bakers-dozen"])
def test_sequences_move_only_where_the_game_allows(name: str) -> None:
    rules = GAMES[name].columns
    assert rules is not None
    game = new_game(name, seed=3)
    for _ in range(30):
        assert rules.runs or not any("*" in m for m in game.legal_moves())
        legal = game.legal_moves()
        if not legal:
            break
        game.apply(legal[-1] if "s" not in legal else "s")
    if not rules.runs:
        assert "one card moves at a time" in rule_of(game, "t1>t2*2")


def test_stock_card_plays_straight_to_a_column() -> None:
    game = forty(stock="9S 2C")
    game.apply("s>t3")  # 9S on TS, same suit
    state = game.state()
    assert state["columns"][2][-2:] == ["TS", "9S"] and state["stock"] == 63 and state["waste"] == []
    rule = rule_of(game, "s>t10")  # 2C on 3H: not the same suit
    assert rule.startswith("the stock's top card does not go on t10 (3H)") and "2C" not in rule
    game.undo()
    assert game.state()["stock"] == 64


@pytest.mark.parametrize(
    "move",
    ["t1>t2*\u00b2", "t1>t\u0663", "t01>t2", "t1>t02", "t1>t2*02", "t1>t2*0", "t\uff11>t2", "t1>t2*+2"],
)
def test_only_ascii_numbers_without_leading_zeros_name_piles_and_runs(move: str) -> None:
    game = forty()
    rule = rule_of(game, move)
    assert "\n" not in rule and ("no pile" in rule or rule.startswith("not a move"))


def test_a_refused_stock_card_is_not_named() -> None:
    game = forty(stock="8D 9S")  # 8D on top of the stock, face down
    for move, where in (("s>t1", "t1 (9H)"), ("s>t5", "t5 (AS)")):
        rule = rule_of(game, move)
        assert rule.startswith(f"the stock's top card does not go on {where}") and "8D" not in rule
    rule = rule_of(game, "s>f")
    assert rule.startswith("no foundation takes the stock's top card") and "8D" not in rule
    game.apply("t5>f1")  # AS home
    rule = rule_of(game, "s>f1")
    assert rule.startswith("the stock's top card does not go on f1 (AS)") and "8D" not in rule


@pytest.mark.parametrize(
    ("game", "move", "code"),
    [
        ("forty-thieves", "xyz", "not-a-move"),
        ("forty-thieves", "t1>t1", "own-pile"),
        ("forty-thieves", "t99>t1", "no-such-pile"),
        ("forty-thieves", "w>t1", "empty-pile"),
        ("forty-thieves", "f1>t1", "foundation-stays"),
        ("forty-thieves", "t1>w", "wrong-target"),
        ("bakers-dozen", "s", "no-such-pile"),
        ("pyramid", "p1.1", "covered"),
        ("pyramid", "p7.1+p7.1", "own-pile"),
    ],
)
def test_a_refusal_carries_the_rules_short_id(game: str, move: str, code: str) -> None:
    """What a program tests (the protocol's ``rule``) is a short id of ``RULE_CODES``; the words stay."""
    played = new_game(game, seed=1)
    before = played.state()
    with pytest.raises(IllegalMove) as err:
        played.apply(move)
    assert err.value.code == code and err.value.code in RULE_CODES and err.value.rule
    assert played.state() == before


def test_an_unknown_rule_code_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown solitaire rule code"):
        IllegalMove("t1>t2", "some rule", code="made-up")
