"""solitaire/1 records: writing, reading back, and refusing malformed fields (docs/formats.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.solitaire import IllegalMove, RecordError, from_record, new_game, parse_record
from tests.test_solitaire_support import trivial_bakers_deck


def played(name: str, options: dict[str, Any], seed: int, count: int) -> Any:
    game = new_game(name, options, seed=seed)
    for _ in range(count):
        legal = game.legal_moves()
        if not legal:
            break
        game.apply(legal[len(legal) // 2])
    return game


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("forty-thieves", {}),
        ("little-forty", {"build": "any-suit"}),
        ("pyramid", {"draw": 3}),
        ("rank-and-file", {}),
    ],
)
def test_a_replayed_record_reproduces_the_state(name: str, options: dict[str, Any]) -> None:
    game = played(name, options, seed=5, count=30)
    record = game.to_record()
    assert record["seed"] == 5 and record["options"] == options
    again = from_record(json.loads(json.dumps(record)))
    assert again.state() == game.state()
    assert again.history == game.history


def test_explicit_deck_records_round_trip() -> None:
    game = new_game("bakers-dozen", {"kings": "stay"}, deck=trivial_bakers_deck())
    game.apply("t13>f")
    record = game.to_record()
    assert record["deck"][:4] == ["KS", "QS", "JS", "TS"] and "seed" not in record
    assert record == {
        "format": "solitaire/1",
        "game": "bakers-dozen",
        "options": {"kings": "stay"},
        "deck": record["deck"],
        "moves": ["t13>f"],
    }
    assert from_record(record).state() == game.state()


def test_an_illegal_move_names_its_index() -> None:
    record = new_game("pyramid", seed=1).to_record()
    record["moves"] = ["s", "s", "p1.1"]
    with pytest.raises(IllegalMove) as err:
        from_record(record)
    assert err.value.index == 2 and err.value.move == "p1.1" and err.value.code == "covered"
    assert str(err.value).startswith("moves[2] p1.1: ")


BASE: dict[str, Any] = {"format": "solitaire/1", "game": "pyramid", "options": {}, "seed": 1, "moves": []}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"extra": 1}, "extra"),
        ({"format": "solitaire/2"}, "format"),
        ({"game": "klondike"}, "game"),
        ({"options": {"draw": 4}}, "options.draw"),
        ({"options": []}, "options"),
        ({"options": None}, "options"),
        ({"seed": "x"}, "seed"),
        ({"seed": True}, "seed"),
        ({"deck": ["AS"]}, "deck"),
        ({"moves": "s"}, "moves"),
        ({"moves": ["s", 3]}, "moves[1]"),
    ],
)
def test_malformed_records_name_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RecordError) as err:
        from_record({**BASE, **change})
    assert err.value.field == field


def test_deck_errors_name_the_card() -> None:
    deck = [c for c in range(52)]
    record = {"format": "solitaire/1", "game": "pyramid", "deck": ["AS"] * 51 + ["XX"]}
    with pytest.raises(RecordError) as err:
        from_record(record)
    assert err.value.field == "deck[51]"
    record["deck"] = ["AS"] + [f"{'23456789TJQKA'[c % 13]}{'SHDC'[c // 13]}" for c in deck[1:]]
    with pytest.raises(RecordError) as err:
        from_record(record)
    assert err.value.field == "deck" and err.value.reason.startswith("2S missing (each card once")


def test_missing_fields_and_bad_json() -> None:
    with pytest.raises(RecordError) as err:
        from_record({"format": "solitaire/1", "game": "pyramid"})
    assert err.value.field == "deck"
    with pytest.raises(RecordError) as err:
        from_record({"format": "solitaire/1", "seed": 1})
    assert err.value.field == "game"
    with pytest.raises(RecordError) as err:
        parse_record("{not json")
    assert err.value.field == "record"
    with pytest.raises(RecordError):
        parse_record("[1, 2]")
