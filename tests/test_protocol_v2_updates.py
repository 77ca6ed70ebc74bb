"""Protocol version 2 over real sockets: each accepted action at a table sends each member exactly one
``update`` (its events and what changed of its own view; no ``event`` or ``turn`` push), a spectator's holds no hidden card, a
refusal carries its rule code and arguments, a solitaire room speaks ``update`` too, and bots of both
versions play whole matches (``docs/protocol.md`` "Version 2")."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cli.bot import run_bots
from client import Connection, ServerError, play_match
from client.room_state import RoomState
from engine.barbu import make_policy
from engine.cards import SEATS
from protocol import EventPush, Message, Players, Snapshot, Turn, Update
from server import BarbuServer
from server.peer import Peer
from server.updates import ViewCache, changed
from tests.conftest import Connect, StartServer, server_table, until
from tests.v2_clients import first_legal, room_news, view_of


async def _four_v2(server: BarbuServer, connect_v2: Connect, name: str) -> tuple[str, dict[str, Connection]]:
    """Four version 2 players seated N, E, S, W at a new table ``name``, its match started."""
    conns = {seat: await connect_v2(server, f"{name}-{seat.lower()}") for seat in SEATS}
    room = await conns["N"].create_table(name)
    for seat, conn in conns.items():
        await conn.sit(room, seat)
    table = server_table(server, room)
    await until(lambda: all(c.rooms[room].view is not None for c in conns.values()), "the start")
    assert table.match is not None
    return room, conns


async def test_each_action_sends_each_seat_and_spectator_one_update_with_its_events_and_view(
    server: BarbuServer, connect: Connect, connect_v2: Connect
) -> None:
    watcher = await connect_v2(server, "watcher")
    older = await connect(server, "older-watcher")  # a version 1 spectator at the same table
    room, conns = await _four_v2(server, connect_v2, "updates")
    await watcher.watch(room)
    await older.watch(room)
    assert watcher.welcome is not None and older.welcome is not None
    assert (watcher.welcome.version, older.welcome.version) == (2, 1)  # welcome answers the version asked
    table = server_table(server, room)
    match = table.match
    assert match is not None
    for conn in [*conns.values(), watcher, older]:
        conn.take_pushes()  # the start's snapshot pushes and the seat changes
    told_publicly = 0
    dealt: dict[str, list[list[str]]] = {seat: [] for seat in SEATS}
    while match.hand_number == 1:  # the whole first hand, and the deal of the second
        to_move = SEATS[match.to_move or 0]
        view = view_of(conns[to_move], room)
        assert view["seat"] == to_move and view["legal"]
        await conns[to_move].act(room, to_move, first_legal(view))
        seq = table.seq
        public: list[dict[str, Any]] | None = None
        for seat, conn in [*conns.items(), ("spectator", watcher)]:
            news = await room_news(conn, seq)
            assert [type(m) for m in news] == [Update], (seat, news)  # one, and no event or turn push
            update = news[0]
            assert isinstance(update, Update) and update.seq == seq
            index = None if seat == "spectator" else SEATS.index(seat)
            now = match.view(index)
            assert (
                update.view is not None and "variants" not in update.view
            )  # what changed, not the whole view
            assert all(now[key] == value for key, value in update.view.items())
            assert conn.rooms[room].view == now  # merged into the view held: the view after the action
            private = [e for e in update.events if e["event"] == "hand-dealt"]
            shared = [e for e in update.events if e["event"] != "hand-dealt"]
            public = shared if public is None else public
            assert shared == public  # everyone is told the same public events
            if index is None:
                assert private == [] and now["hand"] == [] and "hand" not in update.view
            else:
                dealt[seat] += [e["hand"] for e in private]
        assert public is not None
        told_publicly += len(public)
        acted = public[0]
        assert acted["by"] == "player" and to_move in (acted.get("seat"), acted.get("declarer"))
        assert public[-1]["event"] == "turn"
    for seat in SEATS:  # each seat was told its own new hand, and only its own
        assert dealt[seat] == [match.view(SEATS.index(seat))["hand"]]
    events: list[dict[str, Any]] = []
    while len(events) < told_publicly:
        push = await older.next_push(10.0)
        assert not isinstance(push, Update)
        if isinstance(push, EventPush):
            events.append(push.event)
    assert all("by" not in e for e in events)  # version 1: only a timer's or a stand-in's action says it


async def test_a_spectator_update_holds_no_card_not_yet_public(
    start_server: StartServer, connect_v2: Connect
) -> None:
    server = await start_server(bot_delay=0.0)
    host = await connect_v2(server, "host")
    watcher = await connect_v2(server, "watcher")
    room = await host.create_table("secrets")
    for seat in "NESW":
        await host.add_bot(room, seat, "heuristic")
    seen = (await watcher.watch(room)).view  # a table of four bots starts at once: play may have begun
    table = server_table(server, room)
    await until(lambda: table.seq >= 60, "a hand and more played", 60)
    assert seen is not None
    played = set(seen["trick"]["cards"]) | {c for t in seen["tricks"] for c in t["cards"]}
    view = dict(seen)
    for push in watcher.take_pushes():
        if not isinstance(push, Update):
            continue
        assert push.view is not None
        view.update(push.view)
        assert view["hand"] == [] and view["legal"] is None and view["unplayable"] is None
        for event in push.events:
            assert "hand" not in event, event  # no hand-dealt reaches a spectator
            if event["event"] == "card-played":
                played.add(event["card"])
        shown = set(view["trick"]["cards"]) | {c for t in view["tricks"] for c in t["cards"]}
        assert shown <= played


async def test_a_refused_card_carries_its_rule_and_arguments(
    server: BarbuServer, connect_v2: Connect
) -> None:
    room, conns = await _four_v2(server, connect_v2, "refusals")
    table = server_table(server, room)
    match = table.match
    assert match is not None
    for _ in range(400):
        to_move = SEATS[match.to_move or 0]
        view = view_of(conns[to_move], room)
        if view["unplayable"]:
            break
        await conns[to_move].act(room, to_move, first_legal(view))
        mover, seq = conns[to_move], table.seq
        await until(lambda: mover.rooms[room].seq == seq, "the update")  # noqa: B023 - awaited at once
    else:
        pytest.fail("no card was ever unplayable")
    card, rule = next(iter(view["unplayable"].items()))
    with pytest.raises(ServerError) as refused:
        await conns[to_move].act(room, to_move, {"action": "play", "card": card})
    assert refused.value.code == "illegal" and refused.value.rule == rule
    assert refused.value.rule_args is not None and refused.value.rule_args["card"] == card
    if rule == "must-follow-suit":
        assert refused.value.rule_args["led"] == view["trick"]["cards"][0][1]


async def test_a_version_1_refusal_carries_the_rule_arguments_too(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(bot_delay=3600.0)  # the bots never move: the contract is still to choose
    host = await connect(server, "older")
    room = await host.create_table("older refusals")
    await host.sit(room, "N")
    for seat in "ESW":
        await host.add_bot(room, seat, "random")
    table = server_table(server, room)
    await until(lambda: table.match is not None, "the start")
    assert table.match is not None
    to_move = SEATS[table.match.to_move or 0]
    with pytest.raises(ServerError) as refused:
        await host.act(room, "N", {"action": "pass"})
    if to_move == "N":
        assert (refused.value.rule, refused.value.rule_args) == ("wrong-phase", {"phase": "contract"})
    else:
        assert (refused.value.rule, refused.value.rule_args) == ("not-your-turn", {"to_move": to_move})


async def test_a_solitaire_room_tells_a_version_2_player_by_update_and_a_refusal_by_piles(
    server: BarbuServer, connect_v2: Connect
) -> None:
    player = await connect_v2(server, "patience")
    snap = await player.open_solitaire("forty-thieves", seed=7)
    room = snap.room
    player.take_pushes()
    with pytest.raises(ServerError) as nothing:
        await player.undo(room)
    assert (nothing.value.rule, nothing.value.rule_args) == ("nothing-to-undo", {})  # a rule needing no args
    move = view_of(player, room)["legal"][0]
    await player.move(room, move)
    news = await room_news(player, 1)
    assert [type(m) for m in news] == [Update]
    update = news[0]
    assert isinstance(update, Update)
    assert update.events == [{"event": "move", "move": move}] and update.view is not None
    assert update.view["moves"] == 1 and "game" not in update.view  # what changed
    assert view_of(player, room) == server.lobby.rooms[room].view()  # type: ignore[union-attr]
    refused = None
    for source in range(1, 11):
        for target in range(1, 11):
            text = f"t{source}>t{target}"
            if source != target and text not in view_of(player, room)["legal"]:
                try:
                    await player.move(room, text)
                except ServerError as exc:
                    refused = exc
                    break
        if refused is not None:
            break
    assert refused is not None and refused.rule
    assert refused.rule_args == {"move": text, "from": f"t{source}", "to": f"t{target}"}


async def test_a_version_1_bot_plays_a_whole_match_with_turn_pushes(
    server: BarbuServer, connect: Connect
) -> None:
    bot = await connect(server, "old-bot")
    room = await bot.create_table("version one")
    await bot.sit(room, "N")
    for seat in "ESW":
        await bot.add_bot(room, seat, "random")
    kinds: set[str] = set()

    def seen(push: Message) -> None:
        kinds.add(push.TYPE)

    totals = await play_match(bot, room, make_policy("random", 3), seen)
    assert sum(totals.values()) == 0 and set(totals) == set(SEATS)
    assert {EventPush.TYPE, Turn.TYPE} <= kinds and Update.TYPE not in kinds


async def test_barbu_bot_plays_a_whole_match_over_version_2_without_asking_a_snapshot(
    server: BarbuServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = server.lobby
    assert lobby is not None
    handle = lobby.handle
    asked: dict[str, int] = {}
    versions: set[int] = set()

    async def counted(peer: Peer, request: Message) -> None:
        asked[request.TYPE] = asked.get(request.TYPE, 0) + 1
        await handle(peer, request)
        versions.add(peer.version)  # after the request: a ``hello`` sets it

    monkeypatch.setattr(lobby, "handle", counted)
    result = await run_bots(server.url, "v2 bots", 4, "heuristic", None)
    assert sum(result.totals.values()) == 0 and len(result.history) == 28
    assert versions == {2}
    assert asked.get("snapshot", 0) == 0, asked
    assert asked["act"] > 28 * 13 * 4 // 2


def test_snapshot_wire_leaves_updates_out_unless_asked() -> None:
    plain = Snapshot(None, "1", "barbu", "t", None, "playing", 3, {}, [], {}, None)
    assert "updates" not in plain.to_wire()
    asked = Snapshot(None, "1", "barbu", "t", None, "playing", 3, {}, [], {}, None, updates=[])
    assert asked.to_wire()["updates"] == []


def test_a_view_cache_tells_only_the_changed_keys_and_makes_a_shared_view_once() -> None:
    state = {"to_move": "N", "trick": [], "variants": {}}
    made: list[str | None] = []

    def view(key: str | None) -> dict[str, Any]:
        made.append(key)
        return dict(state)

    cache: ViewCache[str | None] = ViewCache(view)
    cache.before([None, None, None])  # three spectators
    state["to_move"], state["trick"] = "E", ["QS"]
    assert cache.after([None, None, None]) == {None: {"to_move": "E", "trick": ["QS"]}}
    assert made == [None, None]  # before and after, once each
    assert changed(None, {"a": 1}) == {"a": 1} and changed({"a": 1, "b": None}, {"a": 1, "b": 2}) == {"b": 2}


def test_a_room_state_merges_updates_goes_stale_on_a_gap_and_takes_seat_changes() -> None:
    snap = Snapshot(
        None, "1", "barbu", "t", "N", "playing", 3, {"N": "a"}, [], {}, {"to_move": "N", "hand": ["QS"]}
    )
    state = RoomState(snap)
    played = [{"event": "card-played", "seat": "N", "card": "QS", "by": "player"}]
    assert state.take(Update("1", 4, played, {"to_move": "E", "hand": []})) == played
    assert (state.seq, state.view) == (4, {"to_move": "E", "hand": []})
    assert state.take(Update("1", 4, played, {"to_move": "S"})) == []  # one already taken
    assert state.take(Update("1", 6, [], {"to_move": "W"})) == [] and state.stale  # action 5 never came
    missed = [
        {"type": "update", "room": "1", "seq": s, "events": [{"event": "turn", "seat": "W"}]} for s in (5, 6)
    ]
    state.reset(dataclasses.replace(snap, seq=6, view={"to_move": "W"}, updates=missed))
    assert not state.stale and state.seq == 6 and state.missed == [{"event": "turn", "seat": "W"}] * 2
    state.seats_changed(Players("1", "playing", {"N": "a"}, ["N"], paused=True))
    assert state.snapshot.away == ["N"] and state.snapshot.paused and state.view == {"to_move": "W"}
