"""The turn clock the server tells (``turn_left_ms`` in ``snapshot``, ``turn`` and the public ``turn`` event)
and the server's default bot policy in ``welcome``: a real server on a loopback port, real WebSockets."""

from __future__ import annotations

import asyncio
from typing import Any

from client import Connection
from engine.barbu import ChooseContract, Double, Redouble
from protocol import EventPush, Snapshot, Turn
from server import BarbuServer
from server.barbu_table import timer_bet
from tests.barbu_helpers import E, N, S, W, fixed_match
from tests.conftest import Connect, StartServer, both_encodings, four_at_table
from tests.test_barbu_doubling import play_hands
from tests.test_server_table_news import next_of

TURN = 60.0  # seconds: nobody acts in these tests, so the timer never plays


def _turn_event(push: EventPush) -> bool:
    return bool(push.event["event"] == "turn")


async def _to_move(by_seat: dict[str, Connection], room: str) -> tuple[str, Snapshot]:
    snap = await next(iter(by_seat.values())).snapshot(room)
    assert snap.view is not None and snap.view["to_move"] is not None
    return snap.view["to_move"], snap


@both_encodings
async def test_every_screen_is_told_the_same_time_left_and_a_comeback_does_not_restart_it(
    server: BarbuServer, connect: Connect
) -> None:
    room, by_seat = await four_at_table(server, connect, "clock", turn_time=TURN)
    seat, snap = await _to_move(by_seat, room)
    assert snap.turn_left_ms is not None and TURN * 1000 - 2000 < snap.turn_left_ms <= TURN * 1000
    watcher = await connect(server, "watcher")
    watched = await watcher.watch(room)
    assert watched.turn_left_ms is not None and abs(watched.turn_left_ms - snap.turn_left_ms) < 1000
    turn = next(p for p in by_seat[seat].take_pushes() if isinstance(p, Turn))
    assert turn.turn_left_ms is not None and abs(turn.turn_left_ms - snap.turn_left_ms) < 1000

    await asyncio.sleep(1.2)
    token = by_seat[seat].token
    assert token is not None
    await by_seat[seat].close()  # a reload: the connection drops, the player comes back with the token
    back = await connect(server)
    await back.resume(token)
    again = await back.next_push(5)
    assert isinstance(again, Snapshot) and again.turn_left_ms is not None
    assert again.turn_left_ms < snap.turn_left_ms - 1000, "coming back must not restart the turn"
    later = await watcher.snapshot(room)
    assert later.turn_left_ms is not None and abs(later.turn_left_ms - again.turn_left_ms) < 1000

    # The next turn starts a whole turn_time; the public turn event says so to everyone.
    view = again.view
    assert view is not None
    await back.act(room, seat, view["legal"][0])
    event = (await next_of(watcher, EventPush, _turn_event)).event
    assert event["turn_left_ms"] is not None and event["turn_left_ms"] > TURN * 1000 - 2000


async def test_no_clock_without_a_turn_time_nor_for_a_bot(server: BarbuServer, connect: Connect) -> None:
    room, by_seat = await four_at_table(server, connect, "untimed")
    _, snap = await _to_move(by_seat, room)
    assert snap.turn_left_ms is None
    host = await connect(server, "host")
    timed = await host.create_table("bots", turn_time=TURN)
    for seat in "NESW":
        await host.add_bot(timed, seat)
    watched = await host.watch(timed)
    assert watched.turn_left_ms is None  # bots keep their own pace: no turn timer runs for them


async def test_after_a_restart_the_seat_to_move_has_a_whole_turn_again(
    start_server: StartServer, connect: Connect
) -> None:
    first = await start_server()
    room, by_seat = await four_at_table(first, connect, "restart", turn_time=TURN)
    seat, _ = await _to_move(by_seat, room)
    token = by_seat[seat].token
    assert token is not None
    await asyncio.sleep(1.2)
    await first.stop()
    second = await start_server()
    back = await connect(second)
    await back.resume(token)
    snap = await back.next_push(5)
    assert isinstance(snap, Snapshot) and snap.turn_left_ms is not None
    assert snap.turn_left_ms > TURN * 1000 - 1000  # the server re-armed the timer: a real countdown again


async def test_welcome_names_the_servers_default_bot_policy(start_server: StartServer) -> None:
    for given, told in (("heuristic", "heuristic"), ("search", "search"), ("random", "random")):
        server = await start_server(bot_policy=given)
        conn = await Connection.connect(server.url)
        assert conn.welcome is not None and conn.welcome.bot_policy == told
        await conn.close()
        await server.stop()


@both_encodings
async def test_the_idle_hand_over_is_told_before_it_comes(
    start_server: StartServer, connect: Connect
) -> None:
    """At a table without a turn timer, the seat to move, its player connected, is told how long before a
    stand-in takes it (``idle_left_ms`` in ``snapshot``, ``turn`` and the public ``turn`` event), the same on
    every screen; a table with a turn timer has none (its ``turn_left_ms`` says it)."""
    idle = 60.0
    server = await start_server(idle_turn=idle)
    room, by_seat = await four_at_table(server, connect, "idle")
    seat, snap = await _to_move(by_seat, room)
    assert snap.turn_left_ms is None
    assert snap.idle_left_ms is not None and idle * 1000 - 2000 < snap.idle_left_ms <= idle * 1000
    turn = next(p for p in by_seat[seat].take_pushes() if isinstance(p, Turn))
    assert turn.idle_left_ms is not None and abs(turn.idle_left_ms - snap.idle_left_ms) < 1000
    watcher = await connect(server, "watcher")
    watched = await watcher.watch(room)
    assert watched.idle_left_ms is not None and abs(watched.idle_left_ms - snap.idle_left_ms) < 1000

    view = (await by_seat[seat].snapshot(room)).view
    assert view is not None
    await by_seat[seat].act(room, seat, view["legal"][0])
    event = (await next_of(watcher, EventPush, _turn_event)).event
    assert event["idle_left_ms"] is not None and event["idle_left_ms"] > idle * 1000 - 2000

    timed, _ = await four_at_table(server, connect, "timed", turn_time=TURN)
    assert (await watcher.watch(timed)).idle_left_ms is None


async def test_the_turn_timer_doubles_nobody(server: BarbuServer, connect: Connect) -> None:
    """Four silent seats, a 1 s timer: it chooses the contract, and on each doubling turn of the hand
    doubles nobody (the must-double rule forces nothing in a declarer's first hand): a player whose time
    ran out is not committed to a bet."""
    room, _ = await four_at_table(server, connect, "bets", turn_time=1)
    watcher = await connect(server, "watcher")
    await watcher.watch(room)
    doubles: list[dict[str, Any]] = []
    while len(doubles) < 3:
        push = await watcher.next_push(10)
        if isinstance(push, EventPush) and push.event["event"] == "doubled":
            doubles.append(push.event)
    assert [(d["targets"], d.get("by")) for d in doubles] == [([], "timer")] * 3


def test_the_turn_timer_doubles_only_what_the_must_double_rule_forces() -> None:
    """Two of N's hands left and two doubles owed: the timer doubles N alone; N's redouble turn, none; a
    contract or a card is its policy's choice (None here)."""
    match = fixed_match()
    play_hands(match, 5)
    assert timer_bet(match.legal_actions(N)) is None  # the contract
    match.apply(N, ChooseContract("dominoes", None, 5))
    assert match.hand.must_double == frozenset({E, S, W})
    for seat in (E, S, W):
        bet = timer_bet(match.legal_actions(seat))
        assert bet == Double(frozenset({N}))
        match.apply(seat, bet)
    assert timer_bet(match.legal_actions(N)) == Redouble(frozenset())
