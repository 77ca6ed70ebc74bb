"""The server end to end: real server on a loopback port, real WebSocket clients, real SQLite file."""

from __future__ import annotations

import asyncio
import json
import unicodedata
from pathlib import Path
from typing import Any

import msgpack
import pytest
import websockets

from cli.bot import run_bots
from cli.main import main as barbu
from client import Connection, ConnectionLost, ServerError, play_match
from engine.barbu import Match, make_policy
from engine.cards import SEATS
from protocol import ChatPush, Error, EventPush, Message, Players, Snapshot, Turn
from server import BarbuServer
from server.ratelimit import TokenBucket
from tests.conftest import (
    Connect,
    StartServer,
    both_encodings,
    four_at_table,
    public_timeline,
    secrecy_violations,
    settled_snapshots,
    until_dropped,
)


def _record(server: BarbuServer, room: str) -> dict[str, Any]:
    assert server.store is not None
    record = server.store.room(int(room)).record
    assert record is not None
    return record


@both_encodings
async def test_full_match_replays_and_hides_unplayed_cards(
    server: BarbuServer, connect: Connect, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conns = [await connect(server, f"p{i}") for i in range(4)]
    room = await conns[0].create_table("full")
    watcher = await connect(server, "watcher")
    seen: dict[str | None, list[Message]] = {None: [await watcher.watch(room)]}
    by_seat: dict[str, Connection] = {}
    for conn in conns:
        snap = await conn.sit(room)
        assert snap.seat is not None and snap.state == "waiting" and snap.view is None
        by_seat[snap.seat] = conn
        seen[snap.seat] = [snap]
    games = [
        play_match(c, room, make_policy("heuristic" if i % 2 else "random", i), seen[s].append)
        for i, (s, c) in enumerate(by_seat.items())
    ]
    results = await asyncio.gather(*games)
    assert all(r == results[0] for r in results)
    await watcher.snapshot(room)
    seen[None].extend(watcher.take_pushes())

    record = _record(server, room)
    assert len(record["deals"]) == 28
    assert record["players"] == {s: by_seat[s].name for s in SEATS}
    replayed = Match.from_record(record)
    assert {s: replayed.totals[i] for i, s in enumerate(SEATS)} == results[0] == record["totals"]

    timeline = public_timeline(seen[None])
    assert max(timeline) >= 28 * 13
    for seat, messages in seen.items():
        assert secrecy_violations(messages, seat, record["deals"], timeline) == []
    assert secrecy_violations(seen["N"], "E", record["deals"], timeline), "the check can see a leak"
    dealt = [m for m in seen["N"] if isinstance(m, EventPush) and m.event["event"] == "hand-dealt"]
    assert len(dealt) == 27 and all(len(m.event["hand"]) == 13 for m in dealt)
    assert not any(isinstance(m, EventPush) and m.event["event"] == "hand-dealt" for m in seen[None])

    out = tmp_path / "match.json"
    assert barbu(["export", "--db", server.config.db, room, "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == record
    capsys.readouterr()
    assert barbu(["replay", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == results[0]
    assert barbu(["matches", "--db", server.config.db]) == 0
    assert capsys.readouterr().out.startswith(f"{room}\tover\t28\tfull\t")


async def _into_play(by_seat: dict[str, Connection], room: str) -> dict[str, Any]:
    """Choose No Tricks and let everybody decline to double; returns the declarer's view to lead."""
    view = (await by_seat["N"].snapshot(room)).view
    assert view is not None
    declarer = view["declarer"]
    await by_seat[declarer].act(room, declarer, {"action": "contract", "contract": "no-tricks"})
    while True:
        view = (await by_seat["N"].snapshot(room)).view
        assert view is not None
        if view["phase"] == "play":
            break
        seat = view["to_move"]
        kind = "double" if view["phase"] == "double" else "redouble"
        await by_seat[seat].act(room, seat, {"action": kind, "targets": []})
    lead = (await by_seat[declarer].snapshot(room)).view
    assert lead is not None and lead["to_move"] == declarer
    return lead


async def _refused(conn: Connection, frame: bytes | str) -> Error:
    await conn.send_raw(frame)
    push = await conn.next_push(5)
    assert isinstance(push, Error), push
    return push


@both_encodings
async def test_refusals_leave_table_and_connection_unchanged(server: BarbuServer, connect: Connect) -> None:
    room, by_seat = await four_at_table(server, connect, "errors")
    lead = await _into_play(by_seat, room)
    declarer = lead["seat"]
    other = next(s for s in SEATS if s != declarer)
    before = await settled_snapshots(by_seat, room)
    other_view = before[other]["view"]

    async def refused_act(seat_conn: str, seat: str, action: dict[str, Any]) -> ServerError:
        with pytest.raises(ServerError) as info:
            await by_seat[seat_conn].act(room, seat, action)
        return info.value

    out_of_turn = await refused_act(other, other, {"action": "play", "card": other_view["hand"][0]})
    assert (out_of_turn.code, out_of_turn.rule) == ("illegal", "not-your-turn")
    not_held = await refused_act(declarer, declarer, {"action": "play", "card": other_view["hand"][0]})
    assert (not_held.code, not_held.rule) == ("illegal", "not-in-hand")
    bad_action = await refused_act(declarer, declarer, {"action": "fly"})
    assert (bad_action.code, bad_action.rule, bad_action.field) == ("illegal", "bad-action", "action")
    someone_else = await refused_act(declarer, other, {"action": "play", "card": other_view["hand"][0]})
    assert someone_else.code == "not-your-seat"

    conn = by_seat[declarer]
    json_conn = conn.encoding == "json"
    malformed = ['{"type": "chat",', "[1, 2]", '{"id": NaN}'] if json_conn else [b"\xc1", b"\x01"]
    for frame in malformed:
        assert (await _refused(conn, frame)).code == "bad-frame", frame
    other_kind = msgpack.packb({"type": "list-rooms", "id": 89}) if json_conn else '{"type": "list-rooms"}'
    assert (await _refused(conn, other_kind)).code == "bad-frame"  # the first frame chose the encoding
    big = conn.encode({"type": "chat", "id": 90, "room": room, "text": "x" * 40000})
    assert (await _refused(conn, big)).code == "too-large"
    deep = conn.encode({"type": "chat", "id": 91, "room": room, "text": [[[[[["x"]]]]]]})
    assert (await _refused(conn, deep)).code == "limit"
    long_text = conn.encode({"type": "chat", "id": 94, "room": room, "text": "é" * 1100})  # 2,200 bytes
    assert (await _refused(conn, long_text)).code == "limit"
    unknown = await _refused(conn, conn.encode({"type": "fly", "id": 92}))
    assert (unknown.code, unknown.id, unknown.field) == ("unknown-type", 92, "type")
    missing = await _refused(conn, conn.encode({"type": "act", "id": 93, "room": room, "seat": declarer}))
    assert (missing.code, missing.id, missing.field) == ("bad-message", 93, "action")
    wrong = await _refused(conn, conn.encode({"type": "snapshot", "id": 95.5, "room": room}))
    assert (wrong.code, wrong.field) == ("bad-message", "id")

    stranger = await connect(server)
    with pytest.raises(ServerError) as info:
        await stranger.resume("not-a-token")
    assert info.value.code == "bad-token"
    with pytest.raises(ServerError) as info:
        await stranger.login("errors-0")
    assert info.value.code == "name-taken"
    await stranger.login("stranger")
    await stranger.watch(room)
    with pytest.raises(ServerError) as info:
        await stranger.act(room, declarer, {"action": "play", "card": lead["hand"][0]})
    assert info.value.code == "not-seated"

    assert await settled_snapshots(by_seat, room) == before
    first = lead["legal"][0]
    await conn.act(room, declarer, first)
    after = (await conn.snapshot(room)).view
    assert after is not None and after["trick"]["cards"] == [first["card"]]


@both_encodings
async def test_password_and_session_order(start_server: StartServer, connect: Connect) -> None:
    server = await start_server(password="open sesame")
    conn = await connect(server)
    assert conn.welcome is not None and conn.welcome.password is True
    for password in (None, "wrong"):
        with pytest.raises(ServerError) as info:
            await conn.login("alice", password)
        assert (info.value.code, info.value.field) == ("bad-password", "password")
    with pytest.raises(ServerError) as info:
        await conn.list_rooms()
    assert info.value.code == "login-first"
    with pytest.raises(ServerError) as info:
        await conn.login("bot:sneaky", "open sesame")
    assert info.value.code == "bad-message"
    reply = await conn.login("alice", "open sesame")
    assert reply.name == "alice" and len(reply.token) >= 40
    with pytest.raises(ServerError) as info:
        await conn.login("alice", "open sesame")
    assert info.value.code == "already-logged-in"
    assert await conn.list_rooms() == []

    raw = await connect(server)
    first = await _refused(raw, raw.encode({"type": "hello", "id": 1, "version": 99, "client": "x"}))
    assert first.code == "version"


async def test_hello_first(server: BarbuServer) -> None:
    from websockets.asyncio.client import connect as ws_connect

    async with ws_connect(server.url, compression=None, proxy=None) as ws:
        await ws.send(msgpack.packb({"type": "list-rooms", "id": 1}))
        reply = msgpack.unpackb(await ws.recv())
        assert (reply["type"], reply["id"], reply["code"]) == ("error", 1, "hello-first")


@both_encodings
async def test_lobby_bots_chat_and_spectators(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    room = await alice.create_table("lobby", variants={"rotation": "each-hand"})
    for same in ("lobby", "LOBBY"):  # case aside, the two would be taken for one another
        with pytest.raises(ServerError) as info:
            await alice.create_table(same)
        assert info.value.code == "name-taken"
    with pytest.raises(ServerError) as info:
        await alice.create_table("bad", variants={"no-such": 1})
    assert (info.value.code, info.value.field) == ("bad-message", "variants")
    with pytest.raises(ServerError) as info:
        await alice.sit("999")
    assert info.value.code == "no-such-room"
    snap = await alice.sit(room, "S")
    assert (snap.seat, snap.state) == ("S", "waiting")
    with pytest.raises(ServerError) as info:
        await alice.add_bot(room, "S")
    assert info.value.code == "seat-taken"
    with pytest.raises(ServerError) as info:
        await alice.add_bot(room, "N", "genius")
    assert (info.value.code, info.value.field) == ("bad-message", "policy")
    bob = await connect(server, "bob")
    await bob.watch(room)
    await alice.chat(room, "hello all")
    said = await bob.next_push(5)
    while not isinstance(said, ChatPush):
        said = await bob.next_push(5)
    assert (said.room, said.name, said.text) == (room, "alice", "hello all")
    [summary] = await bob.list_rooms()
    assert summary["players"] == {"N": None, "E": None, "S": "alice", "W": None}
    assert summary["variants"] == {"rotation": "each-hand"} and summary["spectators"] == 1

    for seat in ("N", "E", "W"):
        await alice.add_bot(room, seat, "random")
    totals = await play_match(alice, room, make_policy("random", 3))
    assert sum(totals.values()) == 0 or len(totals) == 4
    record = _record(server, room)
    assert record["players"]["N"] == "bot:random" and record["players"]["S"] == "alice"
    assert record["variants"] == {"rotation": "each-hand"}
    [listed] = await bob.list_matches()
    assert (listed["match"], listed["name"], listed["hands"]) == (room, "lobby", 28)
    assert listed["totals"] == record["totals"] and listed["players"] == record["players"]
    replay = await bob.replay(room)
    assert (replay.name, replay.totals, replay.players) == ("lobby", record["totals"], record["players"])
    assert [h["hands"] for h in replay.hands] == [d["hands"] for d in record["deals"]]
    for shown, deal in zip(replay.hands, record["deals"], strict=True):
        played = [e["card"] for e in shown["events"] if e["event"] == "card-played"]
        assert played == [card for card in deal["play"] if card != "pass"]
    assert replay.hands[-1]["totals"] == record["totals"]
    with pytest.raises(ServerError) as info:
        await bob.replay(str(int(room) + 1))
    assert (info.value.code, info.value.field) == ("no-such-match", "match")
    games = await bob.list_games()
    assert len(games) == 11 and {"name", "title", "rules", "options"} <= set(games[0])
    bob_saw = [p for p in bob.take_pushes() if isinstance(p, EventPush)]
    assert bob_saw and all(p.room == room for p in bob_saw)
    with pytest.raises(ServerError) as info:
        await bob.sit(room)
    assert info.value.code == "room-over"


async def _play_until_lead_followed(conn: Connection, room: str, seed: int) -> Turn:
    """Answer turns until this seat must play to a trick someone else has led; return that turn."""
    policy = make_policy("random", seed)
    from engine.barbu import action_from_wire, action_to_wire

    while True:
        push = await conn.next_push(20)
        if not isinstance(push, Turn):
            continue
        if push.view["phase"] == "play" and push.view["trick"]["cards"]:
            return push
        legal = [action_from_wire(a) for a in push.view["legal"]]
        await conn.act(room, push.seat, action_to_wire(policy.choose(push.view, legal)))


async def test_drop_resume_then_standin_and_hand_back(server: BarbuServer, connect: Connect) -> None:
    room, by_seat = await four_at_table(
        server, connect, "drop", grace=3.0
    )  # part 1 must beat it on a slow machine
    victim_seat = "E"
    victim = by_seat.pop(victim_seat)
    others = [
        asyncio.create_task(play_match(c, room, make_policy("random", i)))
        for i, c in enumerate(by_seat.values())
    ]
    watcher = await connect(server, "watcher")
    watched: list[Message] = [await watcher.watch(room)]

    # 1. Dropped mid-trick on its turn, back within the grace period: same hand, same trick, plays on.
    turn = await _play_until_lead_followed(victim, room, 7)
    token = victim.token
    assert token is not None
    await victim.close()
    assert victim.name is not None
    await until_dropped(server, victim.name)
    held = await watcher.snapshot(room)
    assert held.away == [victim_seat] and held.seq == turn.seq
    back = await connect(server)
    reply = await back.resume(token)
    assert reply.rooms == [room] and reply.token != token  # a fresh token: the old one stops working
    snap = await back.next_push(5)
    assert isinstance(snap, Snapshot) and snap.id is None and snap.seat == victim_seat
    assert snap.view is not None and snap.view["trick"] == turn.view["trick"]
    assert snap.view["hand"] == turn.view["hand"] and snap.view["legal"] == turn.view["legal"]
    again = await back.next_push(5)
    while not isinstance(again, Turn):
        assert isinstance(again, Players) and again.away == []
        again = await back.next_push(5)
    assert again.seq == turn.seq and again.view == snap.view

    await back.act(room, victim_seat, again.view["legal"][0])

    # 2. Dropped again past the grace period: the stand-in plays the seat, then hands it back on return.
    turn = await _play_until_lead_followed(back, room, 8)
    await back.close()
    standin_played = False
    while not standin_played:
        push = await watcher.next_push(5)
        watched.append(push)
        if isinstance(push, EventPush) and push.seq > turn.seq:
            event = push.event
            standin_played = event["event"] == "card-played" and event["seat"] == victim_seat
    final = await connect(server)
    await final.resume(reply.token)
    turns: list[Turn] = []
    totals = await play_match(
        final, room, make_policy("random", 6), lambda p: turns.append(p) if isinstance(p, Turn) else None
    )
    assert turns, "the seat was handed back: its player got turns again"
    assert await asyncio.gather(*others) == [totals] * 3
    await watcher.snapshot(room)
    watched.extend(watcher.take_pushes())
    away = [p.away for p in watched if isinstance(p, Players | Snapshot)]
    assert [victim_seat] in away and away[-1] == []


@both_encodings
async def test_turn_timer_plays_for_a_silent_seat(server: BarbuServer, connect: Connect) -> None:
    room, _ = await four_at_table(server, connect, "timer", turn_time=1)
    watcher = await connect(server, "watcher")
    await watcher.watch(room)
    chosen = None
    while chosen is None:
        push = await watcher.next_push(5)
        if isinstance(push, EventPush) and push.event["event"] == "contract-chosen":
            chosen = push
    assert chosen.seq == 1


async def test_two_tables_without_crosstalk(server: BarbuServer, connect: Connect) -> None:
    room_a, seats_a = await four_at_table(server, connect, "alpha")
    solo = await connect(server, "solo")
    room_b = await solo.create_table("beta")
    await solo.sit(room_b, "N")
    for seat in ("E", "S", "W"):
        await solo.add_bot(room_b, seat, "random")
    assert room_a != room_b
    seen: dict[str, list[Message]] = {room_a: [], room_b: []}
    games = [
        play_match(c, room_a, make_policy("random", i), seen[room_a].append)
        for i, c in enumerate(seats_a.values())
    ]
    games.append(play_match(solo, room_b, make_policy("random", 9), seen[room_b].append))
    totals = await asyncio.gather(*games)
    assert totals[:4] == [totals[0]] * 4
    for room, messages in seen.items():
        assert messages and all(getattr(m, "room", room) == room for m in messages)
    for room, total in ((room_a, totals[0]), (room_b, totals[4])):
        assert _record(server, room)["totals"] == total


async def test_restart_rebuilds_table_from_its_log(start_server: StartServer, connect: Connect) -> None:
    first = await start_server()
    room, by_seat = await four_at_table(first, connect, "crash")
    tokens = {seat: conn.token for seat, conn in by_seat.items()}
    watcher = await connect(first, "watcher")
    await watcher.watch(room)
    games = [
        asyncio.create_task(play_match(c, room, make_policy("random", i)))
        for i, c in enumerate(by_seat.values())
    ]
    seq = 0
    while seq < 120:
        push = await watcher.next_push(5)
        seq = getattr(push, "seq", seq)
    await first.stop()
    await asyncio.gather(*games, return_exceptions=True)

    second = await start_server()
    assert second.store is not None
    logged = len(second.store.actions(int(room)))
    assert logged >= 120
    back: dict[str, Connection] = {}
    for seat, token in tokens.items():
        assert token is not None
        conn = await connect(second)
        assert (await conn.resume(token)).rooms == [room]
        snap = await conn.next_push(5)
        assert isinstance(snap, Snapshot) and snap.seq == logged and snap.seat == seat
        back[seat] = conn
    results = await asyncio.gather(
        *(play_match(c, room, make_policy("random", 9 + i)) for i, c in enumerate(back.values()))
    )
    record = _record(second, room)
    replayed = Match.from_record(record)
    assert {s: replayed.totals[i] for i, s in enumerate(SEATS)} == results[0]


async def test_healthz_over_plain_http(server: BarbuServer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    await writer.drain()
    head = await asyncio.wait_for(reader.read(1024), 5)
    writer.close()
    await writer.wait_closed()
    assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"ok\n")


async def test_a_new_table_survives_another_players_lobby_listing(
    start_server: StartServer, connect: Connect
) -> None:
    """A table nobody sits at yet stays listed until ``empty_table_ttl`` has passed (then it is swept)."""
    server = await start_server(empty_table_ttl=1.5)  # room for a slow machine before the first listing
    alice, bob = await connect(server, "alice"), await connect(server, "bob")
    room = await alice.create_table("fresh")
    assert room in [r["room"] for r in await bob.list_rooms()]
    snap = await alice.sit(room, "N")
    assert snap.seat == "N"
    await alice.leave(room)
    await asyncio.sleep(1.6)
    assert room not in [r["room"] for r in await bob.list_rooms()]


@both_encodings
async def test_a_held_seat_is_taken_back_only_with_its_resume_token(
    server: BarbuServer, connect: Connect
) -> None:
    """Knowing the server password and a friend's name is not enough to sit in their seat mid-match."""
    room, by_seat = await four_at_table(server, connect, "held", grace=60)
    victim = by_seat["N"]
    name, token = victim.name, victim.token
    assert name is not None and token is not None
    await victim.close()
    await until_dropped(server, name)
    impostor = await connect(server)
    with pytest.raises(ServerError) as info:
        await impostor.login(name)
    assert (info.value.code, info.value.field) == ("seat-held", "name")
    reply = await impostor.resume(token)
    assert reply.rooms == [room]


@both_encodings
async def test_table_creation_is_bounded_per_player_and_listing_is_capped(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(max_listed=4)
    flooder = await connect(server, "flooder")
    for i in range(3):
        await flooder.create_table(f"t{i}")
    with pytest.raises(ServerError) as info:
        await flooder.create_table("t3")
    assert info.value.code == "too-many-tables"
    others = [await connect(server, f"p{i}") for i in range(3)]
    for i, conn in enumerate(others):
        await conn.create_table(f"o{i}")
    assert len(await others[0].list_rooms()) == 4


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"turn_time": float("nan")}, "turn_time"),
        ({"grace": float("nan")}, "grace"),
        ({"name": "\x1b[2Jevil"}, "name"),
        ({"name": "abc\u202edef"}, "name"),
        ({"name": "\u0301" * 10}, "name"),  # combining marks only
        ({"name": "a" + "\u0301" * 5}, "name"),  # a tower of marks
        ({"name": "   "}, "name"),
    ],
)
async def test_non_finite_numbers_and_control_characters_are_refused(
    server: BarbuServer, connect: Connect, fields: dict[str, Any], field: str
) -> None:
    alice = await connect(server, "alice")
    settings: dict[str, Any] = {"name": "ok"}
    settings.update(fields)
    name = settings.pop("name")
    with pytest.raises(ServerError) as info:
        await alice.create_table(name, **settings)
    assert (info.value.code, info.value.field) == ("bad-message", field)
    room = await alice.create_table("fine")
    await alice.sit(room)
    with pytest.raises(ServerError) as info:
        await alice.chat(room, "line one\nline two")
    assert (info.value.code, info.value.field) == ("bad-message", "text")
    with pytest.raises(ServerError) as info:
        await alice.chat(room, "\u0301" * 10)
    assert (info.value.code, info.value.field) == ("bad-message", "text")
    await alice.chat(room, "ស្ត្រី café")  # Khmer vowel signs and accents are text


@both_encodings
async def test_chat_floods_are_slowed_down(start_server: StartServer, connect: Connect) -> None:
    server = await start_server(chat_burst=3, chat_window=30)
    alice = await connect(server, "alice")
    room = await alice.create_table("talk")
    await alice.sit(room)
    for i in range(3):
        await alice.chat(room, f"hello {i}")
    with pytest.raises(ServerError) as info:
        await alice.chat(room, "one too many")
    assert info.value.code == "slow-down"
    assert (await alice.snapshot(room)).room == room  # the connection carries on


async def test_a_connection_that_never_logs_in_is_closed(start_server: StartServer) -> None:
    server = await start_server(login_timeout=0.3)
    async with websockets.connect(server.url) as ws:
        with pytest.raises(websockets.ConnectionClosed) as info:
            await asyncio.wait_for(ws.recv(), 5)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008


@both_encodings
async def test_password_guessing_is_slowed_and_cut_off(start_server: StartServer, connect: Connect) -> None:
    server = await start_server(password="sesame", bad_password_delay=0.05, max_failed_logins=3)
    guesser = await connect(server)
    for guess in ("a", "b"):
        with pytest.raises(ServerError) as info:
            await guesser.login("mallory", guess)
        assert info.value.code == "bad-password"
    with pytest.raises((ServerError, ConnectionLost)):
        await guesser.login("mallory", "c")
    with pytest.raises(ConnectionLost):
        await guesser.login("mallory", "sesame")


async def test_guessing_over_many_connections_is_cut_off_by_address(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(password="sesame", max_wrong_passwords=3, wrong_password_window=60)
    friend = await connect(server, "friend", "sesame")  # logged in before: keeps playing, resumes freely
    for guess in ("a", "b", "c"):  # one guess per connection: the per-connection limit never bites
        guesser = await connect(server)
        with pytest.raises(ServerError) as info:
            await guesser.login("mallory", guess)
        assert info.value.code == "bad-password"
    late = await connect(server)
    with pytest.raises(ServerError) as info:
        await late.login("mallory", "sesame")  # even the right password waits: guessing must stop
    assert (info.value.code, info.value.field) == ("slow-down", "password")
    assert "password logins resume in" in info.value.message
    with pytest.raises(ServerError) as again:  # the connection carries on, still refused
        await late.login("mallory", "sesame")
    assert again.value.code == "slow-down"
    token = friend.token
    assert token is not None
    await friend.close()
    back = await connect(server)
    assert (await back.resume(token)).name == "friend"


@both_encodings
async def test_an_unfinished_solitaire_room_does_not_lock_its_player_out(
    server: BarbuServer, connect: Connect
) -> None:
    solo = await connect(server, "solo")
    await solo.open_solitaire("pyramid", {}, seed=3)
    await solo.close()
    await until_dropped(server, "solo")
    again = await connect(server, "solo")  # login by name, without the token
    assert again.name == "solo"


@both_encodings
async def test_a_name_typed_with_separate_accent_marks_is_one_player(
    server: BarbuServer, connect: Connect
) -> None:
    typed = unicodedata.normalize("NFD", "Zoë Nguyễn")  # as macOS input gives it
    zoe = await connect(server, typed)
    assert zoe.name == "Zoë Nguyễn" and zoe.name != typed
    with pytest.raises(ServerError) as info:
        await connect(server, "Zoë Nguyễn")
    assert info.value.code == "name-taken"


@pytest.mark.parametrize("name", ["alice\u2800", "\u1160alice", "ＡＬＩＣＥ"])
async def test_blank_edges_and_wide_forms_do_not_slip_past_a_name(
    server: BarbuServer, connect: Connect, name: str
) -> None:
    alice = await connect(server, "alice")
    with pytest.raises(ServerError) as info:
        await connect(server, name)
    assert (info.value.code, info.value.field) == ("bad-message", "name")
    for table in ("friday", "ＦＲＩＤＡＹ", "friday\u2800"):
        if table == "friday":
            await alice.create_table(table)
            continue
        with pytest.raises(ServerError) as refused:
            await alice.create_table(table)
        assert refused.value.code in ("name-taken", "bad-message")


@both_encodings
async def test_a_name_differing_only_in_case_from_a_player_here_is_refused(
    server: BarbuServer, connect: Connect
) -> None:
    _room, by_seat = await four_at_table(server, connect, "case")
    alice = by_seat["N"]
    name = alice.name
    assert name is not None and name.startswith("case-")
    with pytest.raises(ServerError) as info:
        await connect(server, name.upper())  # connected now
    assert (info.value.code, info.value.field) == ("name-taken", "name")
    assert f"too like {name}" in info.value.message
    await alice.close()
    await until_dropped(server, name)
    with pytest.raises(ServerError) as info:
        await connect(server, name.capitalize())  # away, but holding the seat
    assert info.value.code == "name-taken"
    assert (await connect(server, "case-9")).name == "case-9"


@pytest.mark.parametrize(
    "name",
    ["ａｌｉｃｅ", "bot：x", "Bot:x", "bot :x", "\u0301", "\u0301a", "\u20dd", "\u115f\u1160", "\u2800"],
)
async def test_look_alike_and_bot_like_names_are_refused(
    server: BarbuServer, connect: Connect, name: str
) -> None:
    conn = await connect(server)
    with pytest.raises(ServerError) as info:
        await conn.login(name)
    assert (info.value.code, info.value.field) == ("bad-message", "name")


@pytest.mark.parametrize("name", ["  ", " x", "x "])
async def test_table_names_without_outer_spaces(server: BarbuServer, connect: Connect, name: str) -> None:
    alice = await connect(server, "alice")
    with pytest.raises(ServerError) as info:
        await alice.create_table(name)
    assert (info.value.code, info.value.field) == ("bad-message", "name")


@both_encodings
async def test_finished_matches_are_read_once_and_their_requests_count_against_the_budget(
    start_server: StartServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await start_server()
    result = await run_bots(server.url, "cached", 4, "heuristic", None)
    store = server.store
    assert store is not None
    reads: list[int] = []
    room_row = store.room

    def counted(room: int) -> Any:
        reads.append(room)
        return room_row(room)

    monkeypatch.setattr(store, "room", counted)
    reader = await connect(server, "reader")
    first = await reader.list_matches()
    assert [m["match"] for m in first] == [result.room] and reads == [int(result.room)]
    assert await reader.list_matches() == first and len(reads) == 1  # the summary is kept
    replay = await reader.replay(result.room)
    assert replay.totals == result.totals and len(reads) == 2
    again = await reader.replay(result.room)
    assert again.to_wire() == {**replay.to_wire(), "id": again.id}
    assert len(reads) == 2  # the encoded reply is kept: the record is not read again
    assert server.lobby is not None
    server.lobby.online["reader"].budget = TokenBucket(rate=1.0, burst=4)
    for i in range(10):  # both requests spend the connection's budget like any other
        kind = {"type": "list-matches"} if i % 2 else {"type": "replay", "match": result.room}
        await reader.send_raw(reader.encode({**kind, "id": 1000 + i}))
    replies = [await reader.next_push(5) for _ in range(10)]
    refused = [r for r in replies if isinstance(r, Error)]
    assert len(refused) >= 5 and all(r.code == "slow-down" for r in refused)


@both_encodings
async def test_the_finished_matches_listing_is_kept_encoded_until_a_match_finishes(
    start_server: StartServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flood of ``list-matches`` neither queries the store nor encodes the list again; the match that
    finishes next is listed at once; ``list-matches`` costs 5 of the budget (``server.costs``)."""
    server = await start_server()
    store = server.store
    assert store is not None
    queries: list[int] = []
    finished = store.finished

    def counted(kind: str, limit: int) -> Any:
        queries.append(limit)
        return finished(kind, limit)

    monkeypatch.setattr(store, "finished", counted)
    first = await run_bots(server.url, "listed-1", 4, "random", None)
    reader = await connect(server, "reader")
    listed = await reader.list_matches()
    assert [m["match"] for m in listed] == [first.room]
    asked = len(queries)
    for _ in range(5):
        assert await reader.list_matches() == listed
    assert len(queries) == asked
    second = await run_bots(server.url, "listed-2", 4, "random", None)
    assert [m["match"] for m in await reader.list_matches()] == [second.room, first.room]
    assert server.lobby is not None
    server.lobby.online["reader"].budget = TokenBucket(rate=1.0, burst=10)
    for i in range(3):
        await reader.send_raw(reader.encode({"type": "list-matches", "id": 2000 + i}))
    replies = [await reader.next_push(5) for _ in range(3)]
    assert [type(r).__name__ for r in replies] == ["Matches", "Matches", "Error"]
