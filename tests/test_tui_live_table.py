"""The terminal client's table keeps step with the log and the turn line (``docs/client.md``: a finished
trick stays until the next card is played, and a card shows the moment it is said): the events of a whole
match put into a seat's and a watcher's model give, after each action, the engine's own view of the trick,
the tricks, the hand, the Dominoes rows and the seat to move; and at a real server a watcher's table shows
each card as the log says it was played."""

from __future__ import annotations

import re
from typing import Any

from client.tui.barbu_screen import BarbuScreen, side_lines, summary_lines, table_lines
from client.tui.cards import card_label
from client.tui.events import event_text
from client.tui.model import TableModel
from engine.barbu import Match, make_policy
from engine.cards import SEATS
from protocol import EventPush, Message
from tests.conftest import Connect, StartServer, until
from tests.test_tui import running_tui, text

#: The view's keys the events keep up to date between snapshots.
FOLLOWED = ("trick", "tricks", "tricks_won", "hand", "hand_sizes", "rows", "plays", "to_move", "phase")


def test_events_keep_the_view_as_the_engine_has_it() -> None:
    match = Match.new(5)
    bots = [make_policy("heuristic", s) for s in range(4)]
    tables = {seat: TableModel(room="1", seat=None if seat is None else SEATS[seat]) for seat in (0, None)}
    for seat, table in tables.items():
        table.set_view(match.view(seat), 0)
    seq = 0
    while not match.over and match.hand_number <= 8:  # Dominoes and trick contracts both come up
        mover = match.to_move
        assert mover is not None
        hand = match.hand_number
        events = match.apply(mover, bots[mover].choose(match.view(mover), match.legal_actions(mover)))
        seq += 1
        for seat, table in tables.items():
            for event in events:
                if event.visible_to(seat):
                    table.take_event(event.to_wire(), seq)
            if match.hand_number != hand or events[0].kind not in ("card-played", "passed"):
                table.set_view(match.view(seat), seq)  # what the snapshot asked for after them brings
                continue
            truth: dict[str, Any] = match.view(seat)
            shown = table.view or {}
            assert {k: shown[k] for k in FOLLOWED} == {k: truth[k] for k in FOLLOWED}, (seat, seq)
            assert not shown.get("legal")  # this seat's legal actions come only with its turn push


def test_a_view_already_holding_an_action_takes_none_of_its_events_again() -> None:
    """A snapshot can come between an action's pushes (``docs/protocol.md``, "Order of pushes"): its events,
    of a ``seq`` the view already holds, must not play the card a second time."""
    match = Match.new(5)
    bot = make_policy("heuristic", 0)
    while match.phase != "play":
        mover = match.to_move
        assert mover is not None
        match.apply(
            mover, make_policy("heuristic", mover).choose(match.view(mover), match.legal_actions(mover))
        )
    mover = match.to_move
    assert mover is not None
    events = match.apply(mover, bot.choose(match.view(mover), match.legal_actions(mover)))
    table = TableModel(room="1")
    table.set_view(match.view(None), 7)  # the snapshot after action 7: its card is on the trick
    before = dict(table.view or {})
    for event in events:
        table.take_event(event.to_wire(), 7)
    assert {k: (table.view or {})[k] for k in FOLLOWED} == {k: before[k] for k in FOLLOWED}


async def test_a_watcher_sees_each_card_as_it_is_said(start_server: StartServer, connect: Connect) -> None:
    """A watcher of four bots: each ``card-played`` push, once taken, is on the drawn table (or, the trick
    it ended, in the finished trick kept there), before any snapshot comes."""
    server = await start_server(bot_delay=0.05)  # the match lasts long enough to watch forty cards
    host = await connect(server, "hoy")
    room = await host.create_table("quick")
    for seat in SEATS:
        await host.add_bot(room, seat, "heuristic")
    async with running_tui(server.url, "wes") as (tui, _pipe):
        missing: list[str] = []
        checked: list[str] = []
        take = tui.session._on_push

        def checking(push: Message) -> None:
            take(push)
            table = tui.model.table
            if not isinstance(push, EventPush) or table is None or push.event.get("event") != "card-played":
                return
            card, view = str(push.event["card"]), table.view or {}
            if view.get("start_rank") is not None:  # Dominoes: on its row (drawn by ranks under the suit)
                shown = card in (view.get("rows") or {}).get(card[-1], [])
            else:
                shown = card_label(card) in text(table_lines(table))
            (checked if shown else missing).append(card)

        tui.session._on_push = checking  # type: ignore[method-assign]
        await tui.watch(room)
        await until(lambda: len(checked) + len(missing) >= 40, "forty cards played", timeout=60)
        assert not missing, (missing, checked)


def test_the_last_hands_summary_is_right_before_its_snapshot() -> None:
    """At the match's end the summary drawn from the ``hand-scored`` event alone (the first frame) is the
    one drawn once the final snapshot comes: its doubles, its totals beside it, and "the match's end"."""
    match = Match.new(11)
    bots = [make_policy("heuristic", s) for s in range(4)]
    table = TableModel(room="1", seat="N", state="playing", players={s: f"p{s}" for s in SEATS})
    seq = 0
    while not match.over:
        mover = match.to_move
        assert mover is not None
        table.set_view(match.view(0), seq)  # each snapshot before the action
        events = match.apply(mover, bots[mover].choose(match.view(mover), match.legal_actions(mover)))
        seq += 1
        if not any(e.kind == "hand-scored" for e in events):
            continue
        for event in events:
            if event.visible_to(0):
                table.take_event(event.to_wire(), seq)
                event_text(event.to_wire(), table)
        first = text(summary_lines(table))
        panel = text(side_lines(table, BarbuScreen()))
        table.set_view(match.view(0), seq)  # the snapshot asked for after the events
        assert first == text(summary_lines(table)), table.summary
        for seat in SEATS:  # the panel's totals are the summary's (its contract column: the hand scored)
            assert re.search(rf"^{seat} .* {match.totals[SEATS.index(seat)]}$", panel, re.M), (seat, panel)
    assert "the match's end" in text(summary_lines(table))
    assert any(row["doubles"] for row in (table.view or {})["history"])  # the frames had doubles to show
