"""A table's chat is kept in the store (``server/store.py``, table ``chat``): a real server on a loopback port
with its SQLite file, real WebSockets. The last lines come back after a restart and follow the players to
another match (``rematch``); the store keeps only a table's newest lines."""

from __future__ import annotations

from server import BarbuServer
from server.barbu_table import CHAT_HISTORY
from tests.conftest import Connect, StartServer, until


async def test_the_chat_comes_back_after_a_restart(start_server: StartServer, connect: Connect) -> None:
    first = await start_server(chat_burst=100)
    ann = await connect(first, "ann")
    room = await ann.create_table("talky")
    await ann.sit(room, "N")
    for seat in "ESW":
        await ann.add_bot(room, seat)  # a match in play: the table is restored after the restart
    said = [f"line {i}" for i in range(CHAT_HISTORY + 5)]
    for text in said:
        await ann.chat(room, text)
    token = ann.token
    await ann.close()
    await first.stop()

    second = await start_server(chat_burst=100)
    assert second.store is not None
    assert [line["text"] for line in second.store.chat(int(room), 100)] == said[-CHAT_HISTORY:]
    back = await connect(second)
    assert token is not None and (await back.resume(token)).rooms == [room]
    watcher = await connect(second, "wes")
    snap = await watcher.watch(room)
    assert [(line["name"], line["text"]) for line in snap.chat] == [("ann", t) for t in said[-CHAT_HISTORY:]]


async def test_the_chat_follows_the_players_to_another_match(server: BarbuServer, connect: Connect) -> None:
    host = await connect(server, "host")
    room = await host.create_table("again")
    await host.sit(room, "S")
    for seat in "NEW":
        await host.add_bot(room, seat)
    await host.chat(room, "good luck all")
    await host.chat(room, "and again")
    watcher = await connect(server, "watcher")
    await watcher.watch(room)
    await host.leave(room)  # a stand-in plays the seat: the match runs to its end
    await until(
        lambda: server.lobby is not None and server.lobby.rooms[room].summary()["state"] == "over",
        "the end",
        60,
    )
    new = await host.rematch(room)
    first = await host.sit(new)
    assert [line["text"] for line in first.chat] == ["good luck all", "and again"]
    assert server.store is not None
    assert [line["text"] for line in server.store.chat(int(new), 100)] == ["good luck all", "and again"]
