"""Who is who: a name is claimed by its first login with a personal secret, and from then on only that
secret logs in by it; the server password only lets people in. Seats and host powers go with the name, so a
friend who knows the server password can neither sit in a dropped player's place nor become an absent
host; the player's own secret takes their seat back from a new browser. A name without a secret (a bot
written before secrets) logs in as before while it holds nothing, and its seats are reachable by its resume
tokens only. And the token a resume handed out beats the one it replaced as soon as it is used."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import msgpack
import pytest
import websockets

from client import Connection, ServerError
from protocol import Snapshot
from server import BarbuServer
from server.store import Store
from tests.conftest import Connect, StartServer, playing_with_bots, server_table, until, until_dropped

PASSWORD = "friends only"


async def _refused(
    connect: Connect, server: BarbuServer, name: str, secret: str | None, password: str | None = PASSWORD
) -> ServerError:
    """The refusal of a login as ``name`` with the server ``password`` and ``secret``."""
    with pytest.raises(ServerError) as info:
        await connect(server, name, password, secret)
    return info.value


async def _ask(ws: websockets.ClientConnection, request: dict[str, Any]) -> dict[str, Any]:
    """Send ``request`` on the raw ``ws`` and return the next message it reads."""
    await ws.send(msgpack.packb(request))
    reply: dict[str, Any] = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 20))
    return reply


async def _greeted(url: str) -> websockets.ClientConnection:
    """A raw WebSocket to ``url`` that has said ``hello``, as a bot written from docs/protocol.md."""
    ws = await websockets.connect(url, compression=None, proxy=None, max_size=None)
    await _ask(ws, {"type": "hello", "id": 1, "version": 1, "client": "raw"})
    return ws


async def test_an_absent_host_cannot_be_impersonated_with_the_server_password(
    start_server: StartServer, connect: Connect
) -> None:
    """ann opened a table, seated bots and left it to bob, waiting for a fourth: a login as ann with the server password alone,
    or with a guess at her secret, is refused, so nobody becomes that table's host; a host who never chose
    a secret (a bot of before) cannot be logged in by name while the table is open either."""
    server = await start_server(password=PASSWORD)
    ann = await connect(server, "ann", PASSWORD, "ann's own")
    bob = await connect(server, "bob", PASSWORD, "bob's own")
    room = await ann.create_table("friday")
    await bob.sit(room, "N")
    for seat in "ES":
        await ann.add_bot(room, seat, "heuristic")
    hal = await connect(server, "hal", PASSWORD)  # no secret: a guest
    await hal.create_table("hal's")
    for conn in (ann, hal):
        assert conn.name is not None
        await conn.close()
        await until_dropped(server, conn.name)
    refusal = await _refused(connect, server, "ann", None)
    assert (refusal.code, refusal.field) == ("secret-needed", "secret")
    refusal = await _refused(connect, server, "ann", "a guess")
    assert (refusal.code, refusal.field) == ("bad-secret", "secret")
    for secret in (None, "a guess"):
        refusal = await _refused(connect, server, "hal", secret)
        assert (refusal.code, refusal.field) == ("seat-held", "name")
        assert 'hosts "hal\'s"' in refusal.message
    assert server_table(server, room).host == "ann"
    back = await connect(server, "ann", PASSWORD, "ann's own")  # her own secret: the host again
    await back.remove_bot(room, "E")  # a host's power, hers


async def test_a_held_seat_cannot_be_taken_by_another_login(
    start_server: StartServer, connect: Connect
) -> None:
    """bob dropped mid-match: no login by his name takes his seat (no secret, a wrong one), nor does a guest
    name's seat go to a login that brings a secret; and no host can hand a seat to someone else any more
    (``revoke-tokens`` is gone)."""
    server = await start_server(password=PASSWORD)
    bob = await connect(server, "bob", PASSWORD, "bob's own")
    room, table = await playing_with_bots(server, bob, "held")
    gus = await connect(server, "gus", PASSWORD)  # no secret
    guest_room, _ = await playing_with_bots(server, gus, "guest's")
    for conn in (bob, gus):
        await conn.close()
    await until_dropped(server, "bob")
    await until_dropped(server, "gus")
    assert (await _refused(connect, server, "bob", None)).code == "secret-needed"
    assert (await _refused(connect, server, "bob", "bob's")).code == "bad-secret"
    for secret in (None, "claiming it"):
        refusal = await _refused(connect, server, "gus", secret)
        assert refusal.code == "seat-held" and 'holds a seat at "guest\'s"' in refusal.message
    assert table.seats[0].owner == "bob" and table.seats[0].peer is None
    assert server_table(server, guest_room).seats[0].peer is None
    ws = await _greeted(server.url)
    try:
        login = {"type": "login", "id": 2, "name": "hostile", "password": PASSWORD, "secret": "x"}
        assert (await _ask(ws, login))["type"] == "logged-in"
        reply = await _ask(ws, {"type": "revoke-tokens", "id": 3, "room": room, "seat": "N"})
        assert (reply["type"], reply["code"]) == ("error", "unknown-type")
    finally:
        await ws.close()


async def test_the_players_own_secret_takes_the_seat_back_from_a_new_browser(
    server: BarbuServer, connect: Connect
) -> None:
    """bob's browser is lost with its token: his name and secret, from another, take his seat back, hand
    and all; the lost browser's token stops working. A browser still connected is taken over, as by a
    ``resume``."""
    bob = await connect(server, "bob", secret="bob's own")
    room, table = await playing_with_bots(server, bob, "lost phone")
    lost = bob.token
    await bob.close()
    await until_dropped(server, "bob")
    back = await connect(server)
    reply = await back.login("bob", None, "bob's own")
    assert reply.rooms == [room] and reply.token != lost
    snap = await back.next_push(20)
    assert isinstance(snap, Snapshot) and snap.seat == "N" and snap.view is not None
    assert snap.view["hand"]  # his cards
    await until(lambda: table.seats[0].peer is not None, "bob at his seat again")
    stale = await connect(server)
    with pytest.raises(ServerError) as info:
        assert lost is not None
        await stale.resume(lost)
    assert info.value.code == "bad-token"
    third = await connect(server)
    assert (await third.login("bob", None, "bob's own")).rooms == [room]
    await until(lambda: back.ws.close_reason is not None, "the older connection to close")
    assert back.ws.close_reason == "resumed on another connection"


async def test_wrong_secrets_are_slowed_down_and_counted_per_address(
    start_server: StartServer, connect: Connect
) -> None:
    """A wrong secret waits ``bad_password_delay``; a connection's ``max_failed_logins``-th closes it after
    its reply; an address's ``max_wrong_passwords`` make even the right secret wait (``slow-down``)."""
    server = await start_server(bad_password_delay=0.2, max_failed_logins=2, max_wrong_passwords=3)
    await (await connect(server, "ann", secret="right")).close()
    await until_dropped(server, "ann")
    guesser = await connect(server)
    started = asyncio.get_running_loop().time()
    with pytest.raises(ServerError) as info:
        await guesser.login("ann", None, "wrong 1")
    assert (info.value.code, info.value.field) == ("bad-secret", "secret")
    assert asyncio.get_running_loop().time() - started >= 0.2
    with pytest.raises(ServerError) as info:
        await guesser.login("ann", None, "wrong 2")
    assert info.value.code == "bad-secret"
    await until(lambda: guesser.ws.close_code is not None, "the guessing connection to close")
    assert (guesser.ws.close_code, guesser.ws.close_reason) == (1008, "too many wrong personal passwords")
    again = await connect(server)
    with pytest.raises(ServerError) as info:
        await again.login("ann", None, "wrong 3")
    assert info.value.code == "bad-secret"
    with pytest.raises(ServerError) as info:  # the address's window is full: even the right one waits
        await again.login("ann", None, "right")
    assert (info.value.code, info.value.field) == ("slow-down", "secret")
    assert "personal passwords" in info.value.message


async def test_a_secret_that_is_no_short_string_is_refused_and_the_connection_goes_on(
    server: BarbuServer,
) -> None:
    ws = await _greeted(server.url)
    try:
        for bad in (5, "", "x" * 129, ["a"], {"a": 1}, True):
            reply = await _ask(ws, {"type": "login", "id": 2, "name": "raw", "secret": bad})
            assert (reply["type"], reply["code"], reply["field"]) == ("error", "bad-message", "secret"), bad
        reply = await _ask(ws, {"type": "login", "id": 3, "name": "raw", "secret": "x" * 128})
        assert (reply["type"], reply["name"]) == ("logged-in", "raw")
    finally:
        await ws.close()


def _secrets(db: Path) -> dict[str, str | None]:
    with contextlib.closing(sqlite3.connect(db)) as raw:
        return {str(name): secret for name, secret in raw.execute("SELECT name, secret FROM players")}


async def test_a_store_from_before_secrets_upgrades_in_place(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    """A store whose ``players`` has no ``secret`` column: its seated player comes back by his token as
    before, and a name holding nothing claims a secret at its next login, kept only as a salted hash."""
    db = tmp_path / "barbu.sqlite3"
    first = await start_server()
    pete = await connect(first, "pete")
    room, _ = await playing_with_bots(first, pete, "old times")
    token = pete.token
    await (await connect(first, "olga")).close()
    await first.stop()
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("ALTER TABLE players DROP COLUMN secret")  # as the store was before secrets
    upgraded = await start_server()
    assert set(_secrets(db)) == {"pete", "olga"}
    back = await connect(upgraded)
    assert token is not None and (await back.resume(token)).rooms == [room]
    olga = await connect(upgraded, "olga", secret="olga's own")
    await olga.close()
    twin = await connect(upgraded, "twin", secret="olga's own")  # the same secret, another salt
    await twin.close()
    await until_dropped(upgraded, "olga")
    kept = _secrets(db)
    assert kept["pete"] is None and kept["olga"] is not None and kept["twin"] is not None
    assert "olga's own" not in kept["olga"] and kept["olga"] != kept["twin"]
    assert (await _refused(connect, upgraded, "olga", "another", None)).code == "bad-secret"
    assert (await _refused(connect, upgraded, "olga", None, None)).code == "secret-needed"
    assert (await connect(upgraded, "olga", secret="olga's own")).name == "olga"
    store = Store(db, readonly=True)
    try:
        assert store.player_secret("olga") == kept["olga"]
    finally:
        store.close()


async def test_the_fresh_token_beats_the_one_it_replaced_once_used(
    server: BarbuServer, connect: Connect
) -> None:
    """A copy of an older token (another tab, a stolen one) no longer takes over the player once the
    connection that got the fresh token has used it (sent a request after its reply); until then it still
    works (the reply may have been lost: tests/test_tokens_hosts.py)."""
    alice = await connect(server, "alice")
    older = alice.token
    assert older is not None
    await alice.close()
    await until_dropped(server, "alice")
    fresh = await connect(server)
    reply = await fresh.resume(older)
    await fresh.list_rooms()  # the fresh token reached its client: it is used
    copy = await Connection.connect(server.url)
    try:
        with pytest.raises(ServerError) as info:
            await copy.resume(older)
        assert (info.value.code, info.value.field) == ("bad-token", "token")
    finally:
        await copy.close()
    await fresh.list_rooms()  # not taken over
    assert fresh.ws.close_code is None
    await fresh.close()
    await until_dropped(server, "alice")
    assert (await (await connect(server)).resume(reply.token)).name == "alice"


async def test_a_bot_from_the_docs_plays_a_whole_match_without_a_secret(server: BarbuServer) -> None:
    """docs/protocol.md "A minimal bot": login with a name and no secret, play, drop mid-match, resume with
    the token, play on to ``match-over``."""
    ws = await _greeted(server.url)
    token = (await _ask(ws, {"type": "login", "id": 2, "name": "docbot"}))["token"]
    room = (await _ask(ws, {"type": "create-table", "id": 3, "name": "docs"}))["room"]
    await _ask(ws, {"type": "sit", "id": 4, "room": room, "seat": "N"})
    for number, seat in enumerate("ESW", 5):
        bot = {"type": "add-bot", "id": number, "room": room, "seat": seat, "policy": "random"}
        await ws.send(msgpack.packb(bot))
    next_id, acted, dropped = 10, 0, False
    act: dict[str, Any] = {}
    while True:
        try:
            message = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 60))
        except websockets.ConnectionClosed:
            ws = await _greeted(server.url)
            reply = await _ask(ws, {"type": "resume", "id": 2, "token": token})
            assert reply["type"] == "logged-in", reply
            token = reply["token"]
            continue
        if message["type"] == "turn":
            act = {"type": "act", "id": next_id, "room": room, "seat": message["seat"]}
            act["action"] = message["view"]["legal"][0]
            await ws.send(msgpack.packb(act))
            next_id += 1
            acted += 1
            if acted == 20 and not dropped:
                dropped = True
                await ws.close()
        elif message["type"] == "error" and message["code"] == "slow-down":  # faster than its budget
            await asyncio.sleep(message["retry_after"])
            await ws.send(msgpack.packb(act))
        elif message["type"] == "event" and message["event"]["event"] == "match-over":
            break
    assert dropped and acted > 20
    await ws.close()
