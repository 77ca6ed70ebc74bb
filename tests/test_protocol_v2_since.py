"""Coming back in protocol version 2 (``docs/protocol.md`` "Coming back: since"), over real sockets: a
snapshot asked ``since`` an action number carries the updates missed, in order, as that member would have
received them (after a server restart too); past the bound it is a plain snapshot; and each missed event says
who played: a card the player played from another connection is told as the player's, never a stand-in's."""

from __future__ import annotations

from typing import Any

from client import Connection
from engine.cards import SEATS
from protocol import MISSED_UPDATES_MAX, Snapshot, Update
from server import BarbuServer
from server.barbu_table import ACTED, NOTHING_TO_ACT
from tests.conftest import Connect, StartServer, server_table, until
from tests.v2_clients import first_legal


def _acted(updates: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    """(seq, seat, by) of each event of ``updates`` that tells a seat's action."""
    return [
        (u["seq"], e.get("seat") or e["declarer"], e["by"])
        for u in updates
        for e in u["events"]
        if e["event"] in ACTED
    ]


def _timeless(updates: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """``updates`` without the turn clock (a restarted server starts it again)."""
    return [
        (u["seq"], [{k: v for k, v in e.items() if not k.endswith("_left_ms")} for e in u["events"]])
        for u in updates
    ]


async def _pushed_snapshot(conn: Connection, room: str) -> Snapshot:
    while True:
        push = await conn.next_push(10.0)
        if isinstance(push, Snapshot) and push.room == room:
            return push


async def test_a_resume_since_returns_the_missed_updates_in_order_each_saying_who_played(
    start_server: StartServer, connect_v2: Connect
) -> None:
    server = await start_server(grace=600.0)
    first = await connect_v2(server, "alice")
    room = await first.create_table("since")
    await first.sit(room, "N")
    for seat in "ESW":
        await first.add_bot(room, seat, "heuristic")
    table = server_table(server, room)
    await until(lambda: bool((first.rooms[room].view or {}).get("legal")), "N's turn")
    mark = first.rooms[room].seq
    token = first.token
    assert token is not None
    # The same player in a second tab: it takes the seat over, plays, and is closed.
    second = await Connection.connect(server.url, version=2)
    await second.resume(token)
    state = (await _pushed_snapshot(second, room)).view
    assert state is not None
    await second.act(room, "N", first_legal(state))
    await until(
        lambda: table.seq > mark + 1 and table.match is not None and table.match.to_move == 0, "N again"
    )
    await until(lambda: second.rooms[room].seq == table.seq, "the updates read")
    told = [p for p in second.take_pushes() if isinstance(p, Update)]
    token = second.token
    assert token is not None
    await second.close()
    await until(lambda: table.paused, "the pause: nobody left at the table")
    now = table.seq
    # The first tab comes back (a new connection) and asks what it missed since ``mark``.
    back = await Connection.connect(server.url, version=2)
    await back.resume(token, since={room: mark})
    snap = await _pushed_snapshot(back, room)
    assert snap.updates is not None
    assert [u["seq"] for u in snap.updates] == list(range(mark + 1, now + 1))
    assert [(u.seq, u.events) for u in told] == [(u["seq"], u["events"]) for u in snap.updates]
    acted = _acted(snap.updates)
    assert acted[0] == (mark + 1, "N", "player")  # the player's card, from their other tab
    assert all(by == "bot" for _, seat, by in acted[1:] if seat != "N")
    assert back.rooms[room].missed == [e for u in snap.updates for e in u["events"]]
    token = back.token
    assert token is not None
    await back.close()
    # A restarted server tells the same, from its log.
    port = server.port
    await server.stop()
    restarted = await start_server(port=port, grace=600.0)
    again = await Connection.connect(restarted.url, version=2)
    try:
        await again.resume(token, since={room: mark})
        replayed = await _pushed_snapshot(again, room)
        assert replayed.updates is not None
        assert _timeless(replayed.updates) == _timeless(snap.updates)
    finally:
        await again.close()


async def test_since_past_the_bound_gives_a_plain_snapshot_and_stand_in_plays_say_so(
    server: BarbuServer, connect_v2: Connect
) -> None:
    host = await connect_v2(server, "host")
    room = await host.create_table("bound")
    await host.sit(room, "S")
    for seat in "NEW":
        await host.add_bot(room, seat, "random")
    await host.leave(room)  # a stand-in plays S at once: the match runs to its end
    table = server_table(server, room)
    await host.watch(room)  # from their own seat: its cards, nothing to act on
    await until(lambda: table.state == "over", "the end", 120)
    end = table.seq
    await until(lambda: host.rooms[room].seq == end, "the last update read")
    assert table.match is not None
    assert host.rooms[room].view == table.match.view(SEATS.index("S")) | NOTHING_TO_ACT
    assert end > MISSED_UPDATES_MAX
    plain = await host.watch(room, since=0)
    assert plain.updates is None and plain.view is not None and plain.view["phase"] == "over"
    edge = await host.snapshot(room, since=end - MISSED_UPDATES_MAX)
    assert edge.updates is not None
    assert [u["seq"] for u in edge.updates] == list(range(end - MISSED_UPDATES_MAX + 1, end + 1))
    acted = _acted(edge.updates)
    assert {by for _, seat, by in acted if seat == "S"} == {"stand-in"}
    assert {by for _, seat, by in acted if seat != "S"} == {"bot"}
    over = await host.snapshot(room, since=end - MISSED_UPDATES_MAX - 1)
    assert over.updates is None
    nothing = await host.snapshot(room, since=end)
    assert nothing.updates == []
    future = await host.snapshot(room, since=end + 1)
    assert future.updates is None


async def test_a_solitaire_snapshot_since_carries_each_missed_move(
    server: BarbuServer, connect_v2: Connect
) -> None:
    player = await connect_v2(server, "patience")
    room = (await player.open_solitaire("forty-thieves", seed=11)).room
    made = []
    for _ in range(2):
        move = (player.rooms[room].view or {})["legal"][0]
        await player.move(room, move)
        made.append(move)
        seq = len(made)
        await until(lambda: player.rooms[room].seq == seq, "the update")  # noqa: B023 - awaited at once
    back = await player.snapshot(room, since=0)
    assert back.updates == [
        {"type": "update", "room": room, "seq": i + 1, "events": [{"event": "move", "move": m}]}
        for i, m in enumerate(made)
    ]
    assert (await player.snapshot(room, since=2)).updates == []
