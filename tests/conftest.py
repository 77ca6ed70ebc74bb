"""Shared fixtures and helpers: a real server on 127.0.0.1 (port 0) with a SQLite file in ``tmp_path``,
clients, seating four of them, dropping one, tables brought to a known state (in play with bots, finished),
flushing pushes, and the card-secrecy check.

``start_server(**config)`` starts one (several may run at once; all stop at teardown); ``server`` is one
with the test defaults (bots act at once, 60 s grace); ``connect(server, name)`` opens a logged-in client
speaking the ``encoding`` fixture's encoding: msgpack, unless a test is marked ``@both_encodings``.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from client import Connection
from engine.cards import SEATS
from protocol import (
    LATEST_VERSION,
    PROTOCOL_VERSION,
    REPLY_LIMITS,
    EventPush,
    Hello,
    Message,
    Snapshot,
    Welcome,
)
from protocol.encodings import ENCODINGS, Encoding
from server import BarbuServer, ServerConfig
from server.barbu_table import BarbuTable
from server.peer import Peer
from server.solitaire_room import SolitaireRoom

StartServer = Callable[..., Awaitable[BarbuServer]]
Connect = Callable[..., Awaitable[Connection]]
#: Runs a test once per protocol encoding (its ``connect`` clients speak msgpack, then JSON).
both_encodings = pytest.mark.parametrize("encoding", ENCODINGS)


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps client data (resume tokens) under ``tmp_path/data``, not in the user's home."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """A factory starting servers on free loopback ports; the store defaults to ``tmp_path/barbu.sqlite3``."""
    servers: list[BarbuServer] = []

    async def start(**overrides: Any) -> BarbuServer:
        settings: dict[str, Any] = {
            "host": "127.0.0.1",
            "port": 0,
            "db": str(tmp_path / "barbu.sqlite3"),
            "bot_delay": 0.0,
            "bot_policy": "heuristic",  # quick bots; tests of search bots name it
            "ping_interval": None,
            "bad_password_delay": 0.0,
            "hint_budget": 0.5,
        }
        settings.update(overrides)
        server = BarbuServer(ServerConfig(**settings))
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()


@pytest.fixture
async def server(start_server: StartServer) -> BarbuServer:
    """A running server with the test defaults."""
    return await start_server()


@pytest.fixture
def encoding() -> Encoding:
    """The encoding ``connect`` speaks (a test parametrizes it with ``@both_encodings``)."""
    return "msgpack"


@pytest.fixture
async def connect(encoding: Encoding) -> AsyncIterator[Connect]:
    """A factory of connections (logged in as ``name`` unless it is None, with the server ``password`` and
    the personal ``secret`` given) speaking ``encoding``, all closed at teardown."""
    opened: list[Connection] = []

    async def open_one(
        server: BarbuServer, name: str | None = None, password: str | None = None, secret: str | None = None
    ) -> Connection:
        conn = await Connection.connect(server.url, timeout=20.0, encoding=encoding)
        opened.append(conn)
        if name is not None:
            await conn.login(name, password, secret)
        return conn

    yield open_one
    for conn in opened:
        await conn.close()


#: ``(server, address, name, token=None, secret=None)``: a client logged in as ``name`` (with the personal
#: ``secret``), or resuming with ``token``, or (``name`` None) only greeted.
ConnectFrom = Callable[..., Awaitable[Connection]]


@pytest.fixture
async def connect_from() -> AsyncIterator[ConnectFrom]:
    """A factory of clients connecting from a given loopback address (127.0.0.2, ... are other addresses to
    the server), logged in by name (or back with a resume ``token``), all closed at teardown."""
    opened: list[Connection] = []

    async def open_one(
        server: BarbuServer,
        address: str,
        name: str | None,
        token: str | None = None,
        secret: str | None = None,
    ) -> Connection:
        ws = await websockets.connect(
            server.url, local_addr=(address, 0), compression=None, max_size=REPLY_LIMITS.max_frame, proxy=None
        )
        conn = Connection(ws, 20.0)
        opened.append(conn)
        conn.welcome = await conn.request(
            Hello(id=conn.next_id(), version=PROTOCOL_VERSION, client="t"), Welcome
        )
        if token is not None:
            await conn.resume(token)
        elif name is not None:
            await conn.login(name, None, secret)
        return conn

    yield open_one
    for conn in opened:
        await conn.close()


@pytest.fixture
async def connect_v2() -> AsyncIterator[Connect]:
    """A factory of protocol version 2 connections (logged in as ``name``) speaking ``encoding`` (msgpack
    unless given), all closed at teardown."""
    opened: list[Connection] = []

    async def open_one(server: BarbuServer, name: str, encoding: Encoding = "msgpack") -> Connection:
        conn = await Connection.connect(server.url, timeout=20.0, encoding=encoding, version=LATEST_VERSION)
        opened.append(conn)
        await conn.login(name)
        return conn

    yield open_one
    for conn in opened:
        await conn.close()


async def until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds (polling every 20 ms), or fail naming ``what`` after ``timeout``
    seconds. Tests wait for what they check rather than sleeping a guessed time: CI machines are slow."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def until_dropped(server: BarbuServer, name: str) -> None:
    """Wait until the server has seen ``name``'s connection close: no longer online, and every room it was
    in has held or freed its seat."""
    lobby = server.lobby
    assert lobby is not None

    def present() -> bool:
        if name in lobby.online:
            return True
        for room in lobby.rooms.values():
            peers: set[Peer | None] = set(room.spectators)
            if isinstance(room, BarbuTable):
                peers.update(seat.peer for seat in room.seats)
            elif isinstance(room, SolitaireRoom):
                peers.add(room.peer)
            if any(peer is not None and peer.player == name for peer in peers):
                return True
        return False

    await until(lambda: not present(), f"the server to see {name} drop")


async def drop(server: BarbuServer, conn: Connection) -> str:
    """Close ``conn`` (a phone switching app, a laptop closed) and wait until the server has seen it; returns
    its resume token."""
    assert conn.name is not None and conn.token is not None
    token = conn.token
    await conn.close()
    await until_dropped(server, conn.name)
    return token


def server_table(server: BarbuServer, room: str) -> BarbuTable:
    """The server's own Barbu table object of ``room`` (for reading its state, seats and match)."""
    assert server.lobby is not None
    table = server.lobby.rooms[room]
    assert isinstance(table, BarbuTable)
    return table


def room_summary(rooms: list[dict[str, Any]], room: str) -> dict[str, Any]:
    """The lobby's summary of ``room`` among ``rooms`` (a ``list-rooms`` answer)."""
    return next(summary for summary in rooms if summary["room"] == room)


async def four_seated(
    server: BarbuServer, prefix: str, name: str
) -> tuple[dict[str, Connection], str, BarbuTable]:
    """Four players ``{prefix}n`` .. ``{prefix}w`` over real connections open table ``name`` and sit N, E, S, W:
    their connections by seat, the room id and the server's table, once its match has started."""
    conns = {seat: await Connection.connect(server.url) for seat in SEATS}
    for seat, conn in conns.items():
        await conn.login(f"{prefix}{seat.lower()}")
    room = await conns["N"].create_table(name)
    for seat, conn in conns.items():
        await conn.sit(room, seat)
    table = server_table(server, room)
    await until(lambda: table.match is not None, "the start")
    return conns, room, table


async def playing_with_bots(
    server: BarbuServer, host: Connection, name: str, **table: Any
) -> tuple[str, BarbuTable]:
    """``host`` opens table ``name`` (``table``: its settings), sits North and fills E, S and W with heuristic
    bots; returns the room id and the server's table once its match has started."""
    room = await host.create_table(name, **table)
    await host.sit(room, "N")
    for seat in "ESW":
        await host.add_bot(room, seat, "heuristic")
    played = server_table(server, room)
    await until(lambda: played.state == "playing", "the start")
    return room, played


async def finished_table(server: BarbuServer, host: Connection, name: str) -> str:
    """``host`` opens table ``name``, sits South with random bots at N, E and W, and leaves: a stand-in plays
    the seat at once, so the match runs to its end; then ``host`` watches, which keeps the finished table in
    the lobby. Returns its room id."""
    room = await host.create_table(name)
    await host.sit(room, "S")
    for seat in "NEW":
        await host.add_bot(room, seat, "random")
    await host.leave(room)
    lobby = server.lobby
    assert lobby is not None
    # 120 s: a whole match of 28 hands, on a CI machine shared with other runs.
    await until(lambda: lobby.rooms[room].summary()["state"] == "over", "the end", 120)
    await host.watch(room)
    return room


CARD = re.compile(r"^[2-9TJQKA][SHDC]$")


async def four_at_table(
    server: BarbuServer, connect: Connect, name: str, **table: Any
) -> tuple[str, dict[str, Connection]]:
    """Four logged-in clients seated at a new table ``name``; returns its room id and the clients by seat."""
    conns = [await connect(server, f"{name}-{i}") for i in range(4)]
    room = await conns[0].create_table(name, **table)
    by_seat: dict[str, Connection] = {}
    for conn in conns:
        snap = await conn.sit(room)
        assert snap.seat is not None
        by_seat[snap.seat] = conn
    return room, by_seat


async def play_actions(by_seat: dict[str, Connection], room: str, count: int) -> None:
    """The seat to move plays its first legal action, ``count`` times (a contract, doubles, cards)."""
    for _ in range(count):
        view = (await next(iter(by_seat.values())).snapshot(room)).view
        assert view is not None and view["to_move"] is not None
        seat = view["to_move"]
        legal = (await by_seat[seat].snapshot(room)).view
        assert legal is not None
        await by_seat[seat].act(room, seat, legal["legal"][0])


def set_action(db: Path, room: str, seq: int, text: str) -> str:
    """Write ``text`` as the logged JSON of action ``seq`` of ``room`` in the store file ``db`` (by hand, as
    damage or an older version would leave it); returns what was there."""
    with sqlite3.connect(db) as conn:
        (before,) = conn.execute(
            "SELECT action FROM actions WHERE room=? AND seq=?", (int(room), seq)
        ).fetchone()
        conn.execute("UPDATE actions SET action=? WHERE room=? AND seq=?", (text, int(room), seq))
    conn.close()
    return str(before)


def snapshot_state(snapshot: Snapshot) -> dict[str, Any]:
    """A snapshot's wire map without what differs between two asked for with nothing played between them:
    its request id and the idle hand-over's countdown (``idle_left_ms``, a clock)."""
    wire = snapshot.to_wire()
    del wire["id"]
    wire.pop("idle_left_ms", None)
    return wire


async def settled_snapshots(by_seat: dict[str, Connection], room: str) -> dict[str, dict[str, Any]]:
    """Each seat's snapshot state (``snapshot_state``) after a round trip, with all pushes before it
    discarded."""
    out = {}
    for seat, conn in by_seat.items():
        out[seat] = snapshot_state(await conn.snapshot(room))
        conn.take_pushes()
    return out


def strings(value: Any) -> Iterator[str]:
    """Every string in a nested wire value (map keys included)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def public_timeline(spectator: list[Message]) -> dict[int, tuple[int, frozenset[str], int | None]]:
    """From a spectator's pushes: for each action number ``seq``, the hand in progress after it, the cards
    already public (played in that hand, plus those of a hand that ended at ``seq``), the hand that ended."""
    timeline: dict[int, tuple[int, frozenset[str], int | None]] = {0: (1, frozenset(), None)}
    hand, played, ended, ended_played, last = 1, set[str](), None, set[str](), 0
    for push in spectator:
        if not isinstance(push, EventPush):
            continue
        if push.seq != last:
            ended, ended_played, last = None, set(), push.seq
        event = push.event
        if event["event"] == "card-played":
            played.add(event["card"])
        elif event["event"] == "hand-scored":
            ended, ended_played = hand, set(played)
            hand, played = hand + 1, set()
        timeline[push.seq] = (hand, frozenset(played | ended_played), ended)
    return timeline


def secrecy_violations(
    messages: list[Message],
    seat: str | None,
    deals: list[dict[str, Any]],
    timeline: dict[int, tuple[int, frozenset[str], int | None]],
) -> list[str]:
    """Cards in ``messages`` (received by ``seat``; None = a spectator) that were neither public yet nor in
    that seat's own hand. Returns one description per offending card."""
    bad = []
    for message in messages:
        seq = getattr(message, "seq", None)
        if seq is None:
            continue
        if isinstance(message, Snapshot) and message.view is None:
            continue
        hand, public, ended = timeline[seq]
        allowed = set(public)
        if seat is not None:
            allowed.update(deals[min(hand, len(deals)) - 1]["hands"][seat])
            if ended is not None:
                allowed.update(deals[ended - 1]["hands"][seat])
        for text in strings(message.to_wire()):
            if CARD.match(text) and text not in allowed:
                bad.append(f"{seat} got {text} at seq {seq} in {message.TYPE}")
    return bad
