"""``barbu solitaire`` deal, replay and solve, run through the real ``barbu`` parser."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from engine.cards import card_text
from engine.solitaire import new_game, solve
from tests.test_solitaire_support import UNSOLVABLE_BAKERS, deck_for, reversals, trivial_bakers_deck


def write(tmp_path: Path, record: dict[str, Any]) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return str(path)


def test_deal_prints_the_layout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solitaire", "deal", "number-ten", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Seed: 3\nNumber Ten")
    assert "??" in out and "t10" in out
    assert main(["solitaire", "deal", "pyramid", "--seed", "3", "--option", "draw=3"]) == 0
    assert "w3:" in capsys.readouterr().out


def test_deal_refuses_a_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solitaire", "deal", "pyramid", "--seed", "3", "--option", "draw=5"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("options.draw: ")


@pytest.mark.parametrize("seed", ["-1", str(2**53 + 1), "3.5", "x"])
def test_deal_refuses_a_seed_the_server_would_not_take(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["solitaire", "deal", "pyramid", "--seed", seed])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--seed" in err and ("from 0 to 2**53" in err or "is not an integer" in err)


def test_replay_prints_the_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = new_game("forty-thieves", seed=8)
    for move in ["s", "s"]:
        game.apply(move)
    assert main(["solitaire", "replay", write(tmp_path, game.to_record())]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state == game.state()
    assert state["moves"] == 2 and state["stock"] == 62 and len(state["waste"]) == 2


def test_replay_refuses_an_illegal_move_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = new_game("pyramid", seed=1).to_record()
    record["moves"] = ["s", "p1.1+p2.1"]
    assert main(["solitaire", "replay", write(tmp_path, record)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("moves[1] p1.1+p2.1: ")


def test_replay_refuses_a_malformed_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = {"format": "solitaire/1", "game": "pyramid", "seed": 1, "moves": [], "colour": "red"}
    assert main(["solitaire", "replay", write(tmp_path, record)]) == 1
    assert capsys.readouterr().err == "colour: unknown field\n"
    path = tmp_path / "bad.json"
    path.write_text("{oops")
    assert main(["solitaire", "replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("record: not JSON")
    assert main(["solitaire", "replay", str(tmp_path / "missing.json")]) == 2


def test_solve_prints_a_record_that_replays_to_a_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = new_game("bakers-dozen", deck=trivial_bakers_deck()).to_record()
    record["moves"] = ["t13>f"]
    assert main(["solitaire", "solve", write(tmp_path, record), "--timeout", "5"]) == 0
    verdict, line = capsys.readouterr().out.splitlines()
    assert verdict == "solvable"
    winning = json.loads(line)
    assert winning["moves"][0] == "t13>f" and len(winning["moves"]) == 52
    assert main(["solitaire", "replay", write(tmp_path, winning)]) == 0
    assert json.loads(capsys.readouterr().out)["won"] is True


def test_solve_prints_the_solvers_line_with_its_detours_cut(capsys: pytest.CaptureFixture[str]) -> None:
    """The solver's own line wanders (Forty Thieves 5 moves the 6♠ between the two 7♠ again and again):
    ``solve`` prints it shortened as a hint's line is, with no cards moved and later moved back for nothing
    (Maria 294257950 printed 1,158 moves, 242 such pairs among them; shortened, 426 and none)."""
    game = new_game("forty-thieves", seed=5)
    found = solve(game, timeout=30)
    assert reversals(game, found.moves, limit=1), "the solver's line has detours: a real test"
    assert main(["solitaire", "solve", "--game", "forty-thieves", "--seed", "5", "--timeout", "30"]) == 0
    verdict, line = capsys.readouterr().out.splitlines()
    moves = json.loads(line)["moves"]
    assert verdict == "solvable" and len(moves) < len(found.moves) and reversals(game, moves) == []


def test_solve_says_unsolvable_and_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = [card_text(c) for c in deck_for("bakers-dozen", UNSOLVABLE_BAKERS)]
    record = {"format": "solitaire/1", "game": "bakers-dozen", "deck": deck, "moves": []}
    assert main(["solitaire", "solve", write(tmp_path, record)]) == 0
    assert capsys.readouterr().out == "unsolvable\n"
    assert main(["solitaire", "solve", "--game", "forty-thieves", "--seed", "1", "--timeout", "0.05"]) == 0
    assert capsys.readouterr().out.splitlines()[0] in {"unknown", "solvable"}


def test_solve_needs_a_file_or_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solitaire", "solve", "--game", "pyramid"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_solve_help_tells_the_exit_status_each_mistake_gets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["solitaire", "solve", "--help"])
    assert "1 for a refused record or option, or for FILE and --game" in " ".join(
        capsys.readouterr().out.split()
    )
    deal = ["solitaire", "solve", "--game", "pyramid", "--seed", "1"]
    for refused in [
        [*deal, "--option", "draw=5"],
        [*deal, "--option", "draw"],
        [*deal[:4]],
        [*deal, "x.json"],
    ]:
        assert main(refused) == 1, refused
    assert main(["solitaire", "solve", str(tmp_path / "missing.json")]) == 2
    for bad in [["--game", "nope"], ["--bogus"], [*deal[2:], "--seed", "x"], [*deal[2:], "--timeout", "0"]]:
        with pytest.raises(SystemExit) as info:
            main(["solitaire", "solve", *bad])
        assert info.value.code == 2, bad
        assert "usage:" in capsys.readouterr().err


@pytest.mark.parametrize("move", ["t1>t2*\u00b2", "t1>t\u0663", "t01>t2"])
def test_replay_refuses_a_move_with_non_ascii_or_padded_numbers(
    move: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = new_game("forty-thieves", seed=3).to_record()
    record["moves"] = [move]
    assert main(["solitaire", "replay", write(tmp_path, record)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"moves[0] {move}: ")


def test_a_record_without_options_takes_the_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = new_game("pyramid", seed=1).to_record()
    del record["options"]
    assert main(["solitaire", "replay", write(tmp_path, record)]) == 0
    record["options"] = None
    assert main(["solitaire", "replay", write(tmp_path, record)]) == 1
    assert capsys.readouterr().err.splitlines()[-1].startswith("options: ")


@pytest.mark.parametrize("timeout", ["nan", "inf", "-1", "0", "x", "86401"])
def test_solve_refuses_a_timeout_that_is_not_a_positive_number_of_seconds(
    timeout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["solitaire", "solve", "--game", "forty-thieves", "--seed", "1", "--timeout", timeout])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--timeout" in err and "seconds" in err


@pytest.mark.parametrize("seed", [-1, 2**53 + 1, 2**60])
def test_replay_refuses_a_seed_outside_the_servers_range(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = {"format": "solitaire/1", "game": "pyramid", "options": {}, "seed": seed, "moves": []}
    assert main(["solitaire", "replay", write(tmp_path, record)]) == 1
    assert capsys.readouterr().err == "seed: must be an integer from 0 to 2**53\n"


def test_replay_takes_the_largest_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = {"format": "solitaire/1", "game": "pyramid", "options": {}, "seed": 2**53, "moves": []}
    assert main(["solitaire", "replay", write(tmp_path, record)]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == 0
