"""Tables one person cannot multiply: tables of four server bots (which start at once) count against their
host's and their address's caps as long as their match is not over, a finished table gives one rematch, and
a rematch table whose players do not come is dropped like any waiting table."""

from __future__ import annotations

import pytest

from client import Connection, ServerError
from server.barbu_table import BarbuTable
from tests.conftest import Connect, StartServer, finished_table, server_table, until


async def _bot_table(host: Connection, name: str) -> str:
    room = await host.create_table(name, bot_policy="random")
    for seat in "NESW":
        await host.add_bot(room, seat)
    return room


async def _refused(host: Connection, name: str, says: str) -> None:
    with pytest.raises(ServerError) as info:
        await host.create_table(name)
    assert info.value.code == "too-many-tables" and says in info.value.message


async def test_tables_of_bots_count_against_their_hosts_and_addresses_caps(
    start_server: StartServer, connect: Connect
) -> None:
    # Bots take a second a card: the bot-only matches stay in play through the test.
    server = await start_server(bot_delay=1.0, max_tables_per_player=2, max_tables_per_address=3)
    assert server.lobby is not None
    mallory = await connect(server, "mallory")
    first = await _bot_table(mallory, "m1")
    await _bot_table(mallory, "m2")
    assert server.lobby.rooms[first].summary()["state"] == "playing"
    await _refused(mallory, "m3", "mallory hosts 2 tables")
    # Another name from the same address: the address's cap.
    other = await connect(server, "mallory2")
    await _bot_table(other, "n1")
    await _refused(other, "n2", "this address")
    assert sum(isinstance(r, BarbuTable) for r in server.lobby.rooms.values()) == 3


async def test_a_finished_table_gives_one_rematch_that_counts_and_expires(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(max_waiting_tables=2, empty_table_ttl=1.0)
    lobby = server.lobby
    assert lobby is not None
    host = await connect(server, "host")
    room = await finished_table(server, host, "once")
    new = await host.rematch(room)
    assert [await host.rematch(room) for _ in range(5)] == [new] * 5  # asked again: the same table
    assert sum(isinstance(r, BarbuTable) and r.state == "waiting" for r in lobby.rooms.values()) == 1

    # The rematch table counts as one of the host's waiting tables.
    await host.create_table("second")
    await _refused(host, "third", "2 tables waiting")

    # Nobody came to the rematch table: it is dropped like any waiting table, its kept seats with it, and
    # with it the host's waiting-table count; a rematch may then be asked again.
    await until(lambda: lobby.rooms[new].idle, "the rematch table to go idle")
    await host.list_rooms()  # the listing drops idle tables
    assert new not in lobby.rooms
    assert server.store is not None and server.store.room(int(new)).status == "closed"
    again = await host.rematch(room)
    assert again != new


async def test_a_finished_table_nobody_is_at_still_gives_its_rematch(
    start_server: StartServer, connect: Connect
) -> None:
    """Once everyone left a finished table it is no longer listed, but its host may still open the rematch
    (an old invite link, the list of finished matches): the table comes back from the store, pointing to the
    new one. Anyone else is refused (`not-host`) and nothing is rebuilt; the host's caps hold first."""
    server = await start_server(max_waiting_tables=1, empty_table_ttl=0.5)
    lobby = server.lobby
    assert lobby is not None
    host = await connect(server, "host")
    room = await finished_table(server, host, "swept")
    await host.leave(room)
    assert room not in lobby.rooms  # nobody at it: dropped from the lobby
    matches = await host.list_matches()
    assert [(m["match"], m["host"]) for m in matches] == [(room, "host")]

    other = await connect(server, "other")
    with pytest.raises(ServerError) as info:
        await other.rematch(room)
    assert info.value.code == "not-host" and "only host" in info.value.message
    assert room not in lobby.rooms
    waiting = await host.create_table("waiting")  # the host's one waiting table: the cap comes first
    with pytest.raises(ServerError) as info:
        await host.rematch(room)
    assert info.value.code == "too-many-tables"
    assert room not in lobby.rooms
    await host.leave(waiting)
    await until(lambda: lobby.rooms[waiting].idle, "the waiting table to go idle")

    new = await host.rematch(room)
    assert await host.rematch(room) == new  # the same one, asked again
    listed = {r["room"]: r for r in await other.list_rooms()}
    assert listed[room]["rematch"] == new and listed[room]["state"] == "over"
    assert listed[new]["state"] == "waiting" and listed[new]["name"] == "swept (2)"
    with pytest.raises(ServerError) as info:
        await host.rematch("999")
    assert info.value.code == "no-such-room"


async def test_a_rematch_of_four_bots_starts_at_once(start_server: StartServer, connect: Connect) -> None:
    """Another match of a table of four bots: every seat is kept for a bot, and no `sit` will come, so it
    starts as the first one did."""
    server = await start_server()
    store = server.store
    assert store is not None
    host = await connect(server, "host")
    room = await _bot_table(host, "robots")
    await until(lambda: store.room(int(room)).status == "over", "the bots' match to end", 120)
    new = await host.rematch(room)
    assert server_table(server, new).state == "playing"
    assert store.room(int(new)).status == "playing"
