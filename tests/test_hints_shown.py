"""What a hint says where people read it: the line prompt (``barbu solitaire play``) and the terminal client
against a real server. A lost position says "this game can no longer be won" and offers undo; a hint without a
known win says "no sure win found; a reasonable move: ..."; one with no new move left says "no new move left:
..." in the same words everywhere (the browser: ``test_web_browser.py``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cli.solitaire_play import play_session
from client.tui.solitaire_words import hint_words
from engine.solitaire import new_game
from engine.solitaire.hints import NO_NEW_MOVE, hint_text
from tests.conftest import StartServer, until
from tests.test_tui import on_screen, opened_solitaire, running_tui, screen_lines


def test_the_prompt_says_a_lost_game_offering_undo_and_a_guess_as_a_guess(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lost = io.StringIO()
    play_session(new_game("pyramid", {}, seed=1), io.StringIO("s\nh\nq\n"), lost)  # lost from the deal
    said = lost.getvalue()  # not "undo": no move lost it
    assert "this deal cannot be won, from the start: no move of yours lost it\n" in said, said
    # A hint budget too small to find the win of a hard deal: the hint is a guess and says so.
    monkeypatch.setattr("cli.solitaire_play.HINT_BUDGET", 0.02)
    guessed = io.StringIO()
    play_session(new_game("forty-thieves", {}, seed=1), io.StringIO("h\nq\n"), guessed)
    assert "no sure win found; a reasonable move: " in guessed.getvalue()


async def test_the_terminal_client_says_a_lost_game_offering_undo_and_a_guess_as_a_guess(
    start_server: StartServer,
) -> None:
    server = await start_server(hint_budget=0.02)  # too little to find Forty Thieves 1's win
    async with running_tui(server.url, "hal") as (tui, pipe):
        sol = await opened_solitaire(tui, "pyramid", {}, 1, what="Pyramid 1")
        pipe.send_text("d")  # turn the stock: a move to undo
        await until(lambda: sol.room.state()["moves"] == 1, "the stock turned")
        pipe.send_text("h")
        await until(lambda: "cannot be won" in sol.message, "the lost hint")
        # lost from the deal: undo would not help, and is not offered
        assert on_screen(
            tui, "This deal cannot be won, from the start: no move of yours lost it. x: resign"
        ), "\n".join(screen_lines(tui))
        tui.open_solitaire("forty-thieves", {}, 1)
        await until(lambda: tui.pending is not None, "asked before resigning the Pyramid deal with a move")
        pipe.send_text("y")
        await until(
            lambda: tui.solitaire is not None and tui.solitaire.room.state()["game"] == "forty-thieves",
            "Forty Thieves 1",
        )
        forty = tui.solitaire
        assert forty is not None
        pipe.send_text("h")
        await until(lambda: "reasonable move" in forty.message, "the guess")
        assert on_screen(tui, "No sure win found; a reasonable move: "), "\n".join(screen_lines(tui))


def test_no_new_move_is_said_in_the_same_words_by_every_client_and_the_protocol() -> None:
    root = Path(__file__).resolve().parent.parent
    assert NO_NEW_MOVE.startswith("no new move left: ")
    assert hint_text("none", None) == NO_NEW_MOVE  # the line prompt
    assert hint_words("none", None) == f"N{NO_NEW_MOVE[1:]}."  # the terminal client
    assert f"Hint: {NO_NEW_MOVE}. Undo to go back." in (root / "web/js/solitaire.js").read_text()
    assert f'| `none` | nil | "{NO_NEW_MOVE}"' in (root / "docs/protocol.md").read_text()
