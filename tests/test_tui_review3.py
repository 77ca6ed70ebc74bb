"""A newcomer's whole-match review (third round): the day's deal left untouched for another game counts as
resigned, ``p`` at the wrong time says so, names are cut only when they do not fit, solitaire refusals stay
out of a table's log and say a repeated refusal once, keys after the summary do their own job, the words of
a few prompts and rules.

Flows run against a real server on loopback (fixtures in ``conftest.py``, helpers in ``test_tui.py``); the
screens of a state set by hand run in ``offline_tui`` or are drawn alone.
"""

from __future__ import annotations

from pathlib import Path

from client.tui.app import TuiApp
from client.tui.keys import quit_question
from client.tui.model import Model, TableModel
from client.tui.refusals import typed_card_refusal
from server import BarbuServer
from server.solitaire_daily import today
from tests.conftest import StartServer, until
from tests.test_tui import opened_solitaire, opened_table, running_tui, screen_lines
from tests.test_tui_match_review import notice_is, offline_tui, scored_table


async def test_leaving_an_untouched_days_deal_for_another_game_resigns_it(server: BarbuServer) -> None:
    async with running_tui(server.url, "newt") as (tui, pipe):
        await opened_solitaire(tui, "pyramid", what="the day's deal")
        room = tui.model.solitaire
        assert room is not None and room.view["daily"] and room.view["moves"] == 0
        tui.open_solitaire("streets", seed=3)
        await until(lambda: tui.pending is not None, "the warning")
        assert "opening another game resigns it" in tui.question
        pipe.send_text("y")
        await until(lambda: tui.model.solitaire is not None and tui.model.solitaire is not room, "streets")
        assert server.store is not None
        assert server.store.has_result(today(), "pyramid", "newt"), "the untouched day's deal counted"
        assert not await tui.session.open_solitaire("pyramid", {}, None, False)
        await until(lambda: "one game a day counts" in tui.model.notice, "refused again")


async def test_p_outside_the_play_says_it_is_not_the_decision_now() -> None:
    async with offline_tui() as (tui, pipe):
        legal = [{"action": "redouble", "targets": ["W"]}, {"action": "no-redouble"}]
        view = {"phase": "redouble", "contract": "dominoes", "declarer": "S", "hand": ["2C"], "legal": legal}
        tui.model.table = scored_table(view)
        tui.model.table.summary_seen = True
        tui.show("table")
        pipe.send_text("p")
        await until(notice_is(tui, "That is not the decision to make now."), "p in the redouble")
        assert "may not pass" not in tui.model.notice


async def test_names_are_cut_only_when_they_do_not_fit() -> None:
    async with offline_tui() as (tui, _pipe):
        tui.model.name = "bartholomew_the_great"
        tui.model.status = "connected"
        waiting = TableModel(room="2", seat=None, state="waiting", me=tui.model.name, players={"S": "ann"})
        waiting.name = "the long friday table"
        waiting.host = "maximilian_von_habsburg_x"
        tui.model.table = waiting
        tui.show("table")
        lines = screen_lines(tui)
        assert lines[0].startswith(" connected  bartholomew_the_great │ the long friday table watching")
        pane = " ".join(line[:46].rstrip() for line in lines[1:3])
        assert "Table the long friday table: waiting for" in pane, lines[:3]
        assert "(the host, maximilian_von_habsburg_x, adds bots)" in on_screen_text(tui)


def on_screen_text(tui: TuiApp) -> str:
    """The screen's text in one line, a line break read as a space or as nothing (a wrapped word)."""
    return "".join(screen_lines(tui))


def test_the_resign_question_and_bakers_dozen_rule_read_right() -> None:
    from client.tui import keys
    from engine.solitaire import catalogue

    source = Path(keys.__file__).read_text(encoding="utf-8")
    assert (
        "It ends here (n deals" not in source and "Resign this game (after it, n deals a new one)?" in source
    )
    assert "(9♥ on 10♦, 10♣ or 10♠, not 10♥)" in catalogue._BAKERS_CARD


def test_a_typed_card_when_no_card_fits_a_dominoes_row_says_to_pass() -> None:
    view = {
        "seat": "S",
        "phase": "play",
        "contract": "dominoes",
        "hand": ["3C"],
        "legal": [{"action": "pass"}],
    }
    assert typed_card_refusal("3c", view) == "No card fits a row: pass (Enter or p)."


async def test_quit_before_the_start_says_the_seat_is_kept_for_the_grace_then_freed(
    server: BarbuServer,
) -> None:
    async with running_tui(server.url, "quin") as (tui, pipe):
        await opened_table(tui, "early", "S")
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "the table")
        pipe.send_text("q")
        await until(lambda: tui.pending is not None, "the question")
        assert "Your seat is kept for 1 min while you are away, then freed." in tui.question, tui.question
        assert "a bot plays it" not in tui.question
        pipe.send_text("n")
        await until(lambda: tui.pending is None, "answered no")
    assert "kept for a while (the server's grace period), then freed" in quit_question(
        True, False, True, None
    )
    assert "a bot plays it until you come back" in quit_question(True, False, False, 60.0)


async def test_solitaire_refusals_stay_out_of_a_watched_tables_log_and_a_repeat_is_said_once(
    start_server: StartServer,
) -> None:
    server = await start_server(deals_per_minute=1)
    async with running_tui(server.url, "sol") as (tui, _pipe):
        await opened_solitaire(tui, "streets", seed=5, what="the solitaire room")
        await opened_table(tui, "watched", "S")
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "the table")
        assert tui.model.solitaire is not None, "the solitaire room still open"
        for _ in range(3):
            assert not await tui.session.solitaire("new-deal")
        assert "new deals a minute" in tui.model.notice and tui.model.notice_place == "solitaire"
        assert not any("new deals a minute" in line for line in tui.model.earlier()), "not in the table's log"
        assert "new deals a minute" not in on_screen_text(tui)
        tui.show("solitaire")
        said = [line for line in tui.model.log if "new deals a minute" in line]
        assert len(said) == 1, said
    model = Model(url="ws://127.0.0.1:1")
    model.screen = "solitaire"
    for wait in (50, 49, 49):
        model.say(f"at most 60 new deals a minute from one address: wait {wait} s", error=True)
    assert model.earlier() == [] and list(model.log) == [
        "at most 60 new deals a minute from one address: wait 49 s"
    ]


async def test_keys_after_the_summary_do_their_own_job_and_decision_keys_only_close_it() -> None:
    async with offline_tui() as (tui, pipe):
        play = [{"action": "play", "card": "2C"}]
        view = {"phase": "play", "contract": "barbu", "hand": ["2C"], "legal": play}

        async def summary_up() -> None:
            tui.model.table = scored_table(dict(view))
            tui.show("table")
            assert tui.summary_up()

        await summary_up()
        pipe.send_text("s")
        await until(lambda: tui.screen == "sheet", "s shows the score sheet")
        assert tui.model.table is not None and tui.model.table.summary_seen
        await summary_up()
        pipe.send_text("?")
        await until(lambda: tui.screen == "help", "? shows the help")
        await summary_up()
        pipe.send_text("c")
        await until(lambda: tui.input_mode == "chat", "c opens the chat line")
        tui.cancel_input()
        await summary_up()
        pipe.send_text("l")
        await until(lambda: tui.screen == "lobby", "l goes to the lobby")
        await summary_up()
        pipe.send_text(" ")
        await until(lambda: not tui.summary_up(), "Space only closes it")
        assert tui.screen == "table" and tui.input_mode is None
