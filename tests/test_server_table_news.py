"""What a table tells its people besides the game (``docs/protocol.md``): the last chat lines in every
snapshot, who watches and when a stand-in takes a dropped seat in the ``players`` push, another match with the
same players (``rematch``, host only, ``rematch-opened``), the view's keys always present, solitaire watchers
following the player to a new deal, and the day's results naming rooms by string ids."""

from __future__ import annotations

from typing import Any

import pytest

from client import Connection, ServerError
from engine.barbu import Match, action_from_wire
from engine.cards import SEATS
from protocol import ChatPush, Players, RematchOpened, Snapshot, SolitaireState
from server import BarbuServer
from tests.conftest import Connect, StartServer, four_at_table, server_table, until, until_dropped


async def next_of(conn: Connection, kind: type[Any], check: Any = lambda push: True) -> Any:
    """The next push of type ``kind`` that passes ``check`` (earlier ones are dropped)."""
    while True:
        push = await conn.next_push(10)
        if isinstance(push, kind) and check(push):
            return push


async def test_snapshots_carry_the_last_chat_lines(start_server: StartServer, connect: Connect) -> None:
    server = await start_server(chat_burst=100)
    alice, bob = await connect(server, "alice"), await connect(server, "bob")
    room = await alice.create_table("talk")
    await alice.sit(room)
    for i in range(25):
        await alice.chat(room, f"line {i}")
    snap = await bob.watch(room)
    assert len(snap.chat) == 20 and snap.chat[0] == {"name": "alice", "text": "line 5", "watching": False}
    assert snap.chat[-1] == {"name": "alice", "text": "line 24", "watching": False}
    assert (await alice.snapshot(room)).chat == snap.chat


async def test_a_chat_line_says_whether_it_was_said_watching_even_after_a_restart(
    start_server: StartServer, connect: Connect
) -> None:
    """A watcher's line is marked ``watching`` in the push and in snapshots, and stays so once they sit and
    after the server restarts (the store keeps the mark); a seated player's line is not."""
    server = await start_server()
    alice, bob = await connect(server, "alice"), await connect(server, "bob")
    room = await alice.create_table("talk")
    await alice.sit(room)
    await bob.watch(room)
    alice.take_pushes()
    await bob.chat(room, "hello from the rail")
    await alice.chat(room, "hello from the seat")
    heard = [await next_of(alice, ChatPush) for _ in range(2)]
    assert [(p.name, p.watching) for p in heard] == [("bob", True), ("alice", False)]
    await bob.sit(room)
    said = [(line["name"], line["watching"]) for line in (await alice.snapshot(room)).chat]
    assert said == [("bob", True), ("alice", False)]
    port = server.port
    await server.stop()
    again = await start_server(port=port)
    carol = await connect(again, "carol")
    said = [(line["name"], line["watching"]) for line in (await carol.watch(room)).chat]
    assert said == [("bob", True), ("alice", False)]


async def test_players_push_names_watchers_and_counts_down_to_the_standin(
    server: BarbuServer, connect: Connect
) -> None:
    room, by_seat = await four_at_table(server, connect, "grace", grace=0.5)
    anchor = by_seat["N"]
    anchor.take_pushes()
    carol = await connect(server, "carol")
    await carol.watch(room)
    watching = await next_of(anchor, Players, lambda p: p.spectators)
    assert watching.spectators == ["carol"] and watching.standins == [] and watching.standin_in == {}
    dropped = by_seat["E"]
    assert dropped.name is not None
    await dropped.close()
    await until_dropped(server, dropped.name)
    held = await next_of(anchor, Players, lambda p: p.away == ["E"])
    assert set(held.standin_in) == {"E"} and 0 < held.standin_in["E"] <= 0.5 and held.standins == []
    taken = await next_of(anchor, Players, lambda p: p.standins)
    assert taken.standins == ["E"] and taken.standin_in == {} and taken.away == ["E"]


async def test_the_host_opens_another_match_with_the_same_players(
    server: BarbuServer, connect: Connect
) -> None:
    host, guest = await connect(server, "host"), await connect(server, "guest")
    watcher = await connect(server, "watcher")
    room = await host.create_table("again", turn_time=30, variants={"rotation": "each-hand"})
    await host.sit(room, "S")
    await guest.sit(room, "N")
    for seat in "EW":
        await host.add_bot(room, seat)
    with pytest.raises(ServerError) as early:
        await host.rematch(room)
    assert early.value.code == "not-over"
    await watcher.watch(room)
    await host.leave(room)  # stand-ins play both human seats at once: the match runs to its end
    await guest.leave(room)
    await until(
        lambda: server.lobby is not None and server.lobby.rooms[room].summary()["state"] == "over",
        "the end",
        60,
    )
    with pytest.raises(ServerError) as not_host:
        await guest.rematch(room)
    assert not_host.value.code == "not-host"
    new = await host.rematch(room)
    told = await next_of(watcher, RematchOpened)
    assert (told.room, told.new_room, told.host) == (room, new, "host")
    old = next(r for r in await guest.list_rooms() if r["room"] == room)
    assert old["state"] == "over" and old["rematch"] == new  # the finished table points to the new match
    summary = next(r for r in await host.list_rooms() if r["room"] == new)
    assert summary["name"] == "again (2)" and summary["state"] == "waiting"
    assert summary["turn_time"] == 30 and summary["variants"] == {"rotation": "each-hand"}
    assert summary["players"] == {"N": "guest", "E": "bot:heuristic", "S": "host", "W": "bot:heuristic"}
    stranger = await connect(server, "stranger")
    with pytest.raises(ServerError) as kept:
        await stranger.sit(new, "N")
    assert kept.value.code == "seat-taken"
    first = await host.sit(new)  # the kept seat
    assert first.seat == "S" and first.state == "waiting"
    second = await guest.sit(new)
    assert second.seat == "N"
    started = await next_of(host, Snapshot, lambda s: s.room == new and s.state == "playing")
    assert started.seat == "S" and started.view is not None


def test_the_view_holds_every_key_with_nil_where_it_does_not_apply() -> None:
    match = Match.new(3)
    declarer = match.to_move
    assert declarer is not None
    other = (declarer + 1) % 4
    waiting = match.view(other)
    assert waiting["legal"] is None and waiting["double_targets"] is None and waiting["must_double"] is None
    assert waiting["ranking"] is None and match.view(None)["legal"] is None
    assert match.view(declarer)["legal"] and match.view(declarer)["double_targets"] is None
    match.apply(declarer, action_from_wire({"action": "contract", "contract": "no-tricks"}))
    doubling = match.view(other)
    assert doubling["phase"] == "double" and isinstance(doubling["must_double"], bool)
    assert set(doubling["double_targets"]) == set(SEATS) - {SEATS[other]}
    assert set(match.view(declarer)) == set(doubling)


async def test_watchers_follow_the_player_to_a_new_deal(server: BarbuServer, connect: Connect) -> None:
    alice, bob = await connect(server, "alice"), await connect(server, "bob")
    first = await alice.open_solitaire("streets", seed=5)
    await bob.watch(first.room)
    moved = await alice.new_deal(first.room, seed=6)
    follow = await next_of(bob, Snapshot)
    assert follow.room == moved.room != first.room and follow.seat is None and follow.id is None
    assert follow.view == moved.view
    await alice.move(moved.room, (moved.view or {})["legal"][0])
    seen = await next_of(bob, SolitaireState)
    assert seen.room == moved.room and seen.view["moves"] == 1


async def _finished_match(server: BarbuServer, host: Connection, room: str) -> None:
    """Play ``room``, where ``host`` sits at S with bots at N, E and W, to its end by a stand-in."""
    await host.leave(room)  # a stand-in plays the seat at once
    lobby = server.lobby
    assert lobby is not None
    await until(lambda: lobby.rooms[room].summary()["state"] == "over", "the end", 120)
    await host.watch(room)  # keeps the finished table in the lobby


async def test_a_rematch_is_numbered_and_found_again_after_a_restart(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    host = await connect(server, "host", secret="host's own")
    room = await host.create_table("tuesday")
    await host.sit(room, "S")
    for seat in "NEW":
        await host.add_bot(room, seat, "random")
    await _finished_match(server, host, room)
    second = await host.rematch(room)
    listed = {r["room"]: r for r in await host.list_rooms()}
    assert listed[second]["name"] == "tuesday (2)" and listed[room]["rematch"] == second

    await host.close()
    await server.stop()
    server = await start_server()
    guest = await connect(server, "guest")
    listed = {r["room"]: r for r in await guest.list_rooms()}
    assert listed[room]["state"] == "over" and listed[room]["rematch"] == second  # nobody at it, still listed
    assert listed[second]["name"] == "tuesday (2)" and listed[second]["state"] == "waiting"
    old = await guest.watch(room)  # the finished table's last position comes back with it
    assert old.state == "over" and old.view is not None and old.view["phase"] == "over"
    await guest.leave(room)

    host = await connect(server, "host", secret="host's own")
    assert (await host.sit(second)).seat == "S"  # the kept seat: the second match starts
    lobby = server.lobby
    assert lobby is not None
    await until(lambda: lobby.rooms[second].summary()["state"] == "playing", "the second match")
    assert room not in {r["room"] for r in await guest.list_rooms()}  # it started: the old table goes
    await _finished_match(server, host, second)
    third = await host.rematch(second)
    assert {r["room"]: r for r in await host.list_rooms()}[third]["name"] == "tuesday (3)"


async def test_the_lobby_says_which_seat_is_to_act(start_server: StartServer, connect: Connect) -> None:
    """A playing table's summary names the seat to act (``to_move``), so a lobby can tell a player the table
    waits for them; none before the start."""
    server = await start_server()
    waiting = await connect(server, "early")
    before = await waiting.create_table("not yet")
    assert next(r for r in await waiting.list_rooms() if r["room"] == before)["to_move"] is None
    room, by_seat = await four_at_table(server, connect, "turns")
    table = server_table(server, room)
    assert table.match is not None and table.match.to_move is not None
    summary = next(r for r in await by_seat["N"].list_rooms() if r["room"] == room)
    assert summary["to_move"] == SEATS[table.match.to_move]
