"""``barbu solitaire play``: a game played at the line prompt, to a win and to a loss."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cli.main import main
from cli.solitaire_play import play_session
from engine.solitaire import Outcome, new_game, solve
from engine.solitaire.hints import advise


def test_a_solvable_deal_is_played_to_a_win_at_the_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    solution = solve(new_game("bakers-dozen", {}, seed=3), timeout=30)
    assert solution.outcome is Outcome.SOLVABLE
    lines = ["zz", solution.moves[0], "u", "r", *solution.moves[1:]]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    out = tmp_path / "game.json"
    assert main(["solitaire", "play", "bakers-dozen", "--seed", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "refused: not a move" in printed
    assert f"Won in {len(solution.moves)} moves." in printed
    assert main(["solitaire", "replay", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["won"] is True


def test_a_game_with_no_moves_left_is_said_lost() -> None:
    game = new_game("pyramid", {}, seed=1)
    rehearsal, lines = game.copy(), []
    while not rehearsal.over:  # turn the stock whenever possible: the stock runs out before the pyramid
        legal = rehearsal.legal_moves()
        lines.append("s" if "s" in legal else legal[0])
        rehearsal.apply(lines[-1])
    assert not rehearsal.won
    script = io.StringIO("\n".join(lines) + "\n")
    shown = io.StringIO()
    play_session(game, script, shown)
    assert game.over and not game.won
    assert "No moves left: the game is lost" in shown.getvalue()


def test_quit_and_an_illegal_move_change_nothing() -> None:
    game = new_game("forty-thieves", {}, seed=7)
    before = game.state()
    shown = io.StringIO()
    play_session(game, io.StringIO("f1>t1\nq\n"), shown)
    assert game.state() == before
    assert "refused:" in shown.getvalue()


def test_a_move_with_a_non_ascii_digit_is_refused_at_the_prompt() -> None:
    game = new_game("forty-thieves", {}, seed=7)
    before = game.state()
    shown = io.StringIO()
    play_session(game, io.StringIO("t1>t2*\u00b2\nt1>t\u0663\nq\n"), shown)
    assert game.state() == before
    assert shown.getvalue().count("refused:") == 2


def test_hints_at_the_prompt_say_what_they_are_worth() -> None:
    line = advise(new_game("bakers-dozen", {}, seed=3), max_nodes=20_000).line
    shown = io.StringIO()
    play_session(new_game("bakers-dozen", {}, seed=3), io.StringIO(f"h\n{line[0]}\nh\nq\n"), shown)
    said = shown.getvalue()
    assert f"hint: {line[0]} (a sure win: keep following the hints)" in said
    assert f"hint: {line[1]} (a sure win" in said, "the next hint follows the kept line"
    lost = io.StringIO()
    play_session(new_game("pyramid", {}, seed=1), io.StringIO("h\nq\n"), lost)
    # No move made yet: the deal was never winnable, nothing is "no longer" so (and nothing to undo).
    assert "this deal cannot be won" in lost.getvalue() and "no longer" not in lost.getvalue()
