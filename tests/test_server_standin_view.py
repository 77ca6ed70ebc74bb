"""A player whose seat a stand-in bot plays (the idle hand-over, or ``leave``) and who watches the table gets
their own seat's view over real WebSockets: their cards and the seat's standing, nothing to act on, and
never another seat's cards; anyone else watching still gets the public view."""

from __future__ import annotations

from engine.cards import SEATS
from protocol import Removed
from server.barbu_table import BarbuTable
from tests.conftest import Connect, StartServer, four_at_table, server_table, until
from tests.test_server_table_news import next_of


def _hand_of(table: BarbuTable, seat: str) -> list[str]:
    """The unplayed cards of ``seat`` as the engine shows them to that seat."""
    assert table.match is not None
    return list(table.match.view(SEATS.index(seat))["hand"])


async def test_a_player_watching_their_seat_played_by_a_stand_in_sees_its_cards_and_nothing_else(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(idle_turn=0.5)
    room, by_seat = await four_at_table(server, connect, "stand-in view")
    table = server_table(server, room)
    assert table.match is not None and table.match.to_move is not None
    first = SEATS[table.match.to_move]
    idle = by_seat[first]
    told = await next_of(idle, Removed)
    assert told.reason == "idle"
    await until(lambda: table.seats[SEATS.index(first)].standin, "the stand-in to take the seat")
    watched = await idle.watch(room)
    asked = await idle.snapshot(room)
    for snap in (watched, asked):
        assert snap.seat is None  # the connection plays no seat: the stand-in does
        assert snap.view is not None and snap.view["seat"] == first
        assert snap.view["hand"] == _hand_of(table, first) and snap.view["hand"]
        assert (snap.view["legal"], snap.view["double_targets"], snap.view["must_double"]) == (
            None,
            None,
            None,
        )
    stranger = await connect(server, "stranger")
    public = await stranger.watch(room)
    assert public.view is not None and public.view["seat"] is None and public.view["hand"] == []
    back = await idle.sit(room)
    assert back.seat == first and back.view is not None and back.view["hand"] == _hand_of(table, first)


async def test_a_player_who_left_during_the_match_watches_from_their_own_seat(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    room, by_seat = await four_at_table(server, connect, "left view", turn_time=60)
    table = server_table(server, room)
    await by_seat["E"].leave(room)
    await until(lambda: table.seats[1].standin, "the stand-in to take the seat")
    snap = await by_seat["E"].watch(room)
    assert snap.seat is None and snap.view is not None
    assert snap.view["seat"] == "E" and snap.view["hand"] == _hand_of(table, "E")
    assert snap.view["legal"] is None


async def test_a_match_a_stand_in_played_to_its_end_is_watched_from_the_seat_it_played(
    start_server: StartServer, connect: Connect
) -> None:
    """All four leave: stand-ins play the match to its end; each player watching the finished table sees it
    from their own seat (their column first, their place in the ranking), with nothing to act on."""
    server = await start_server()
    room, by_seat = await four_at_table(server, connect, "played out")
    table = server_table(server, room)
    for conn in by_seat.values():
        await conn.leave(room)
    await until(lambda: table.state == "over", "the stand-ins to finish the match", 60)
    for seat, conn in by_seat.items():
        snap = await conn.watch(room)
        assert snap.seat is None and snap.state == "over"
        assert snap.view is not None and snap.view["seat"] == seat and snap.view["phase"] == "over"
        assert snap.view["legal"] is None
    stranger = await connect(server, "stranger")
    public = await stranger.watch(room)
    assert public.view is not None and public.view["seat"] is None
