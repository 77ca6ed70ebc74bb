"""Seats, tokens and hosts: a resume hands out a fresh token (the old one stops working once the fresh one
is used; a lost reply locks nobody out, also across a kill -9), tokens expire
unused and when the server password changes, only a table's host adds or removes its bots, and names that
look alike across scripts are refused. Personal secrets: tests/test_identity.py."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest
import websockets

from client import Connection, ConnectionLost, ServerError
from client.bot import come_back
from server import BarbuServer
from server.lookalike import skeleton
from server.store import Store
from tests.conftest import (
    Connect,
    StartServer,
    four_at_table,
    playing_with_bots,
    server_table,
    until,
    until_dropped,
)
from tests.test_store_faults import Serve, _all_but_the_last_action, _my_turn


async def test_resume_hands_out_a_fresh_token_and_the_old_one_stops_working(
    server: BarbuServer, connect: Connect
) -> None:
    """The token sent to ``resume`` works on until the fresh one is used once (its reply may have been
    lost), then stops; a token two generations old never works."""
    alice = await connect(server, "alice")
    first = alice.token
    assert first is not None
    await alice.close()
    await until_dropped(server, "alice")
    back = await connect(server)
    reply = await back.resume(first)
    assert reply.name == "alice" and reply.token != first and back.token == reply.token
    await back.close()
    await until_dropped(server, "alice")
    again = await connect(server)
    second = await again.resume(reply.token)  # the fresh token is used: the first one stops working
    assert second.name == "alice" and second.token not in (first, reply.token)
    await again.close()
    await until_dropped(server, "alice")
    conn = await connect(server)
    with pytest.raises(ServerError) as info:
        await conn.resume(first)
    assert (info.value.code, info.value.field) == ("bad-token", "token")
    later = await connect(server)
    assert (await later.resume(second.token)).name == "alice"
    await later.close()
    await until_dropped(server, "alice")
    conn = await connect(server)
    with pytest.raises(ServerError) as info:
        await conn.resume(reply.token)  # two generations old now
    assert info.value.code == "bad-token"


async def test_a_token_unused_longer_than_its_lifetime_stops_working(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(token_ttl=0.5)
    alice = await connect(server, "alice")
    token = alice.token
    assert token is not None
    await alice.close()
    await until_dropped(server, "alice")
    time.sleep(0.6)
    late = await connect(server)
    with pytest.raises(ServerError) as info:
        await late.resume(token)
    assert info.value.code == "bad-token"


async def test_a_token_expires_only_counted_from_its_last_connection_end(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    """A connection open longer than the tokens' lifetime leaves its player a working token: while it is
    open the store notes the token as used now and then (a server killed then locks nobody out), and when
    it ends; the token stops working a lifetime after that, not after its ``login``."""
    db = tmp_path / "barbu.sqlite3"
    server = await start_server(token_ttl=1.0)
    assert server.store is not None
    alice = await connect(server, "alice")
    room = await alice.create_table("long night")
    await alice.sit(room, "N")
    for seat in "ESW":
        await alice.add_bot(room, seat)  # a match in play: her seat is held for her when she drops
    token = alice.token
    assert token is not None
    for _ in range(6):  # three lifetimes connected: her token keeps working meanwhile
        await asyncio.sleep(0.5)
        assert server.store.player_for_token(token, 1.0) == "alice"
        await alice.list_rooms()
    ended = time.time()
    await alice.close()
    await until_dropped(server, "alice")
    with contextlib.closing(sqlite3.connect(db)) as raw:
        (used,) = raw.execute("SELECT used FROM players WHERE name='alice'").fetchone()
    assert used >= ended  # counted from the end of the connection
    back = await connect(server)
    assert (await back.resume(token)).rooms == [room]
    fresh = back.token
    await back.close()
    await until_dropped(server, "alice")
    await asyncio.sleep(1.2)  # a lifetime after the last connection ended: the token has expired
    late = await connect(server)
    with pytest.raises(ServerError) as info:
        assert fresh is not None
        await late.resume(fresh)
    assert info.value.code == "bad-token"


async def test_another_server_password_revokes_every_token(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    first = await start_server(password="old")
    alice = await connect(first, "alice", "old")
    bob = await connect(first, "bob", "old")
    tokens = [alice.token, bob.token]
    await first.stop()
    same = await start_server(password="old")  # a restart with the same password keeps them
    for token in tokens:
        conn = await connect(same)
        assert token is not None and (await conn.resume(token)).token != token
        await conn.close()
    tokens = []
    for name in ("alice", "bob"):
        conn = await connect(same, name, "old")
        tokens.append(conn.token)
        await conn.close()
    await same.stop()
    changed = await start_server(password="new")
    for token in tokens:
        conn = await connect(changed)
        with pytest.raises(ServerError) as info:
            assert token is not None
            await conn.resume(token)
        assert info.value.code == "bad-token"
    assert (await connect(changed, "alice", "new")).name == "alice"
    await changed.stop()
    store = Store(tmp_path / "barbu.sqlite3", readonly=True)
    try:  # the store keeps a hash of the password, not the password
        assert store.meta_get("password-check") not in (None, "new", "old")
    finally:
        store.close()


async def test_bots_reconnect_with_their_fresh_tokens(server: BarbuServer) -> None:
    """``barbu bot`` comes back with ``conn.token`` each time (tests/test_client_recovery.py plays a match
    across a restart); the token it got from its last resume is the one that works."""
    url = server.url
    conn = await Connection.connect(url)
    await conn.login("dropper")
    token = conn.token
    assert token is not None
    await conn.close()
    await until_dropped(server, "dropper")
    back = await come_back(url, token, delays=(0.0,), give_up_after=10)
    fresh = back.token
    assert fresh is not None and fresh != token
    await back.close()
    await until_dropped(server, "dropper")
    again = await come_back(url, fresh, delays=(0.0,), give_up_after=10)  # the fresh token works next time
    assert again.name == "dropper"
    await again.close()


async def test_only_the_host_adds_or_removes_bots(server: BarbuServer, connect: Connect) -> None:
    host = await connect(server, "host")
    guest = await connect(server, "guest")
    room = await host.create_table("hosted")
    await guest.sit(room, "N")
    with pytest.raises(ServerError) as info:
        await guest.add_bot(room, "E")
    assert info.value.code == "not-host" and "host" in info.value.message
    await host.add_bot(room, "E")
    with pytest.raises(ServerError) as info:
        await guest.remove_bot(room, "E")
    assert info.value.code == "not-host"
    with pytest.raises(ServerError) as info:
        await host.remove_bot(room, "N")  # a human's seat is not the host's to empty
    assert (info.value.code, info.value.field) == ("bad-message", "seat")
    await host.remove_bot(room, "E")
    [summary] = await guest.list_rooms()
    assert summary["players"] == {"N": "guest", "E": None, "S": None, "W": None}
    for seat in ("E", "S", "W"):
        await host.add_bot(room, seat, "random")
    with pytest.raises(ServerError) as info:  # the match started: its bots play it out
        await host.remove_bot(room, "E")
    assert info.value.code == "seat-taken"


async def test_the_host_survives_a_restart(start_server: StartServer, connect: Connect) -> None:
    first = await start_server()
    host = await connect(first, "host", secret="hosting")
    room = await host.create_table("kept")
    await first.stop()
    again = await start_server()
    guest = await connect(again, "guest")
    with pytest.raises(ServerError) as info:
        await guest.add_bot(room, "E")
    assert info.value.code == "not-host"
    host = await connect(again, "host", secret="hosting")  # the host's own secret: the table's host again
    await host.add_bot(room, "E")


@pytest.mark.parametrize(
    ("present", "lookalike"),
    [
        ("alice", "\u0430lice"),  # Cyrillic а
        ("paypal", "\u03c1aypal"),  # Greek ρ
        ("bill", "bi11"),
        ("ΒΕΝ", "BEN"),  # Greek capitals
        ("Alice", "alice"),  # case aside, as before
    ],
)
async def test_a_name_that_looks_like_a_present_players_is_refused(
    server: BarbuServer, connect: Connect, present: str, lookalike: str
) -> None:
    assert skeleton(present) != present or skeleton(lookalike) != lookalike or present.lower() == lookalike
    await connect(server, present)
    impostor = await connect(server)
    with pytest.raises(ServerError) as info:
        await impostor.login(lookalike)
    assert (info.value.code, info.value.field) == ("name-taken", "name")
    assert present in info.value.message


async def test_a_lookalike_of_a_seated_absent_player_is_refused_and_others_pass(
    server: BarbuServer, connect: Connect
) -> None:
    _, by_seat = await four_at_table(server, connect, "seated")
    name = by_seat["N"].name
    assert name is not None
    await by_seat["N"].close()
    await until_dropped(server, name)
    impostor = await connect(server)
    with pytest.raises(ServerError) as info:
        await impostor.login(name.replace("e", "\u0435"))  # Cyrillic е: the seat's player is away
    assert info.value.code == "name-taken"
    for fine in ("Zoë", "anne", "\u0430\u0431\u0432"):  # different names, in any script, pass
        assert (await connect(server, fine)).name == fine


@pytest.mark.parametrize(
    "name",
    [
        "bot:heuristic",
        "BOT:heuristic",
        "b\u043et:heuristic",  # Cyrillic о
        "bot\u2236heuristic",  # RATIO ∶ for the colon
        "bot\u02d0heuristic",  # MODIFIER LETTER TRIANGULAR COLON ː
        "B\u041eT:search",  # Cyrillic capital О
    ],
)
async def test_a_name_that_passes_for_a_bot_is_refused(
    server: BarbuServer, connect: Connect, name: str
) -> None:
    conn = await connect(server)
    with pytest.raises(ServerError) as info:
        await conn.login(name)
    assert (info.value.code, info.value.field) == ("bad-message", "name")
    assert (await conn.login("botany")).name == "botany"  # a name merely starting with "bot" passes


async def _raw(url: str, *requests: dict[str, Any], read: bool = True) -> dict[str, Any] | None:
    """Open a WebSocket, say hello, send ``requests``; return the reply to the last one, or (``read``
    False) drop the connection at once without reading it."""
    ws = await websockets.connect(url, compression=None, proxy=None)
    try:
        await ws.send(msgpack.packb({"type": "hello", "id": 1, "version": 1, "client": "raw"}))
        await ws.recv()
        for number, request in enumerate(requests, 2):
            await ws.send(msgpack.packb({**request, "id": number}))
        if not read:
            return None
        reply: dict[str, Any] = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 20))
        return reply
    finally:
        ws.transport.abort()


async def _newest_token(db: Path, than: str) -> str:
    """Wait until the store (read as ``barbu export`` does, while the server runs) holds a newer token for
    alice than ``than``; return it."""
    for _ in range(400):
        store = Store(db, readonly=True)
        try:
            token = store.token_for_player("alice")
        finally:
            store.close()
        if token is not None and token != than:
            return token
        await asyncio.sleep(0.025)
    raise AssertionError("the server did not rotate the token")


async def test_a_resume_reply_lost_to_a_drop_or_a_kill_locks_nobody_out(tmp_path: Path) -> None:
    db = tmp_path / "barbu.sqlite3"
    server = Serve(db)
    try:
        reply = await _raw(server.url, {"type": "login", "name": "alice"})
        assert reply is not None and reply["type"] == "logged-in"
        first = reply["token"]
        # The connection drops before the reply carrying the fresh token is read.
        await _raw(server.url, {"type": "resume", "token": first}, read=False)
        lost = await _newest_token(db, first)
        reply = await _raw(server.url, {"type": "resume", "token": first})
        assert reply is not None and (reply["type"], reply["name"]) == ("logged-in", "alice")
        second = reply["token"]
        # The server is killed (kill -9) after storing the fresh token, before the client read it.
        await _raw(server.url, {"type": "resume", "token": second}, read=False)
        killed = await _newest_token(db, second)
        server.kill()
        server = Serve(db)
        reply = await _raw(server.url, {"type": "resume", "token": second})
        assert reply is not None and (reply["type"], reply["name"]) == ("logged-in", "alice")
        third = reply["token"]
        reply = await _raw(server.url, {"type": "resume", "token": third})
        assert reply is not None and reply["type"] == "logged-in"
        fourth = reply["token"]
        # Two generations old (or lost and replaced): refused; the newest works.
        stale = [first, lost, second, killed]
        replies = await asyncio.gather(*(_raw(server.url, {"type": "resume", "token": t}) for t in stale))
        assert [(r or {}).get("code") for r in replies] == ["bad-token"] * 4
        reply = await _raw(server.url, {"type": "resume", "token": fourth})
        assert reply is not None and reply["type"] == "logged-in"
    finally:
        server.kill()


def _players(db: Path) -> set[str]:
    with contextlib.closing(sqlite3.connect(db)) as raw:
        return {str(name) for (name,) in raw.execute("SELECT name FROM players")}


async def test_players_whose_tokens_expired_are_forgotten_unless_they_hold_something(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    """Throwaway names leave the store once their tokens expire; a seat at a waiting table, a table hosted
    and an open solitaire room keep their players' rows, a finished solitaire game does not."""
    db = tmp_path / "barbu.sqlite3"
    server = await start_server(token_ttl=0.5)
    alice, carol, bob, erin = [await connect(server, name) for name in ("alice", "carol", "bob", "erin")]
    await alice.sit(await alice.create_table("waiting"), "N")
    await carol.create_table("hosted")
    await bob.open_solitaire("forty-thieves", seed=3)
    finished = await erin.open_solitaire("forty-thieves", seed=4)
    assert finished.view is not None
    await erin.move(finished.room, finished.view["legal"][0])
    await erin.resign(finished.room)
    # A player connected counts as using their token: they are never forgotten, so each row is checked
    # while its connection is open (counted after the last close, a slow machine had forgotten the first).
    assert {"alice", "carol", "bob", "erin"} <= _players(db)
    await erin.close()
    for number in range(30):
        throwaway = await connect(server, f"throwaway{number}")
        assert f"throwaway{number}" in _players(db)
        await throwaway.close()
    kept = {"alice", "carol", "bob"}
    await until(lambda: _players(db) == kept, "the players holding nothing to be forgotten", 20)
    assert (await connect(server, "throwaway0")).token is not None  # a forgotten name is free again


async def test_a_start_forgets_the_players_whose_tokens_expired_while_it_was_stopped(
    start_server: StartServer, tmp_path: Path
) -> None:
    db = tmp_path / "barbu.sqlite3"
    _, tokens, _ = _all_but_the_last_action(db)  # four players seated at a table in play
    store = Store(db)
    for number in range(20):
        store.issue_token(f"throwaway{number}")
    store.close()
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("UPDATE players SET used=used-7200")  # two hours ago, unused since
    server = await start_server(token_ttl=3600.0)  # its hourly round is an hour away: this is the start's
    assert server.store is not None
    seated = {f"p-{seat}" for seat in tokens}
    await until(lambda: _players(db) == seated, "the start to forget the throwaway names")


async def _greeted(url: str) -> websockets.ClientConnection:
    """A raw WebSocket to ``url`` that has said ``hello``."""
    ws = await websockets.connect(url, compression=None, proxy=None)
    await ws.send(msgpack.packb({"type": "hello", "id": 1, "version": 1, "client": "raw"}))
    await asyncio.wait_for(ws.recv(), 20)
    return ws


async def _next(ws: websockets.ClientConnection) -> dict[str, Any] | None:
    """The next message ``ws`` receives (20 s at most), or None once it is closed."""
    try:
        message: dict[str, Any] = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 20))
    except websockets.ConnectionClosed:
        return None
    return message


async def _ask(ws: websockets.ClientConnection, request: dict[str, Any]) -> dict[str, Any] | None:
    """Send ``request`` on ``ws`` and return the next message, or None when ``ws`` is (or gets) closed."""
    try:
        await ws.send(msgpack.packb(request))
    except websockets.ConnectionClosed:
        return None
    return await _next(ws)


async def test_two_resumes_at_once_each_get_their_reply_and_one_a_clear_close(
    server: BarbuServer, connect: Connect
) -> None:
    alice = await connect(server, "alice")
    token = alice.token
    await alice.close()
    await until_dropped(server, "alice")
    both = [await _greeted(server.url), await _greeted(server.url)]
    try:
        resume = msgpack.packb({"type": "resume", "id": 2, "token": token})
        await asyncio.gather(*(ws.send(resume) for ws in both))
        replies = [await _next(ws) for ws in both]
        assert [(r or {}).get("type") for r in replies] == ["logged-in", "logged-in"], replies
        # The one taken over is told so in its close; the other plays on.
        after = [await _ask(ws, {"type": "list-games", "id": 3}) for ws in both]
        [closed] = [ws for ws, reply in zip(both, after, strict=True) if reply is None]
        assert closed.protocol.close_rcvd is not None
        assert (closed.protocol.close_rcvd.code, closed.protocol.close_rcvd.reason) == (
            1000,
            "resumed on another connection",
        )
        assert [r["type"] for r in after if r is not None] == ["games"]
    finally:
        for ws in both:
            ws.transport.abort()


async def test_an_action_acknowledged_before_a_takeover_reaches_the_old_connection(
    start_server: StartServer, connect: Connect
) -> None:
    """``act`` on one connection and, at once, ``resume`` on another: the action is stored only if the old
    connection hears its ``ok`` before its close, never stored and its ``ok`` dropped."""
    server = await start_server(bot_delay=0.05)
    assert server.store is not None
    for attempt in range(5):  # a few rounds: which of the two the server reads first varies
        alice = await connect(server, f"alice{attempt}")
        room = await alice.create_table(f"takeover{attempt}")
        await alice.sit(room, "N")
        for seat in "ESW":
            await alice.add_bot(room, seat, "random")
        turn = await _my_turn(alice)
        other = await _greeted(server.url)
        try:
            acting = asyncio.ensure_future(alice.act(room, "N", turn.view["legal"][0]))
            await asyncio.sleep(0)  # the act is on its way
            await other.send(msgpack.packb({"type": "resume", "id": 2, "token": alice.token}))
            try:
                await acting
                acknowledged = True
            except ConnectionLost:
                acknowledged = False
            reply = await _next(other)
            assert reply is not None and reply["type"] == "logged-in", reply
            stored = any(a.seq == turn.seq + 1 and a.seat == 0 for a in server.store.actions(int(room)))
            assert stored == acknowledged, f"stored {stored}, acknowledged {acknowledged}"
        finally:
            other.transport.abort()


async def test_a_seat_held_across_a_password_change_is_taken_back_with_the_secret(
    start_server: StartServer, connect: Connect
) -> None:
    """No token works after the password changed: a player with a personal secret takes a held seat back by
    a login with the new password and the secret; a name without one cannot be logged in by name while it
    holds its seat (anyone knowing the new password could sit there), and its seat stays the stand-in's."""
    first = await start_server(password="old")
    alice = await connect(first, "alice", "old", "alice's own")
    room, _ = await playing_with_bots(first, alice, "across")
    guest = await connect(first, "gus", "old")
    await playing_with_bots(first, guest, "guest's")
    await connect(first, "olga", "old", "olga's own")  # holds nothing
    await first.stop()
    changed = await start_server(password="new")
    # Her claim outlived the revoked tokens and the start's forgetting of expired ones.
    with pytest.raises(ServerError) as info:
        await connect(changed, "olga", "new")
    assert info.value.code == "secret-needed"
    with pytest.raises(ServerError) as info:
        await connect(changed, "alice", "new")
    assert (info.value.code, info.value.field) == ("secret-needed", "secret")
    back = await connect(changed, "alice", "new", "alice's own")
    assert back.token is not None
    seat = server_table(changed, room).seats[0]
    assert seat.owner == "alice"
    await back.sit(room)  # her seat, taken back
    await until(lambda: seat.peer is not None, "alice at her seat again")
    for secret in (None, "a guess"):
        with pytest.raises(ServerError) as info:
            await connect(changed, "gus", "new", secret)
        assert info.value.code == "seat-held"
