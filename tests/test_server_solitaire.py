"""Solitaire rooms end to end: real server on a loopback port, real WebSocket clients, real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.main import main as barbu
from client import Connection, ServerError
from engine.solitaire import GAMES, from_record, new_game, solve
from engine.solitaire.winnable import winnable_seeds
from protocol import LoggedIn, Message, Players, Snapshot, SolitaireState
from server import BarbuServer
from server.config import ServerConfig
from server.solitaire_daily import daily_secret, daily_seed, today
from server.solitaire_room import SolitaireRoom
from server.store import Store
from tests.conftest import Connect, StartServer

#: A Baker's Dozen deal the solver wins in a few milliseconds (96 moves).
WINNABLE = ("bakers-dozen", 3)


async def state_push(conn: Connection) -> SolitaireState:
    """The next ``solitaire-state`` push (other pushes skipped)."""
    while True:
        push = await conn.next_push(5.0)
        if isinstance(push, SolitaireState):
            return push


def cards(layout: dict[str, Any]) -> str:
    """The visible layout as one comparable JSON text."""
    return json.dumps(layout, sort_keys=True)


async def test_play_illegal_undo_redo_hint_and_a_watcher(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    snap = await alice.open_solitaire("forty-thieves", seed=8)
    room, view = snap.room, snap.view
    assert snap.kind == "solitaire" and snap.seat == "player" and snap.state == "playing" and view is not None
    assert view["seed"] == 8 and view["daily"] is None and view["moves"] == 0  # alice gave it: no secret
    assert view["layout"]["stock"] == 64 and view["layout"]["waste"] == []  # a count, never the cards
    bob = await connect(server, "bob")
    watched = await bob.watch(room)
    assert watched.seat is None and watched.view == view

    first = view["legal"][0]
    await alice.move(room, first)
    mine, seen = await state_push(alice), await state_push(bob)
    assert mine == seen and mine.seq == 1 and mine.view["moves"] == 1 and mine.view["can_undo"]

    with pytest.raises(ServerError) as refused:
        await alice.move(room, "t1>t1")
    assert (refused.value.code, refused.value.rule) == ("illegal", "own-pile")  # a short id, as Barbu's
    with pytest.raises(ServerError) as not_yours:
        await bob.move(room, mine.view["legal"][0])
    assert not_yours.value.code == "not-your-room"
    with pytest.raises(ServerError) as no_seat:
        await bob.sit(room)
    assert no_seat.value.code == "not-your-room"
    with pytest.raises(ServerError) as no_hint:
        await bob.hint(room)
    assert no_hint.value.code == "not-your-room"
    after = await alice.snapshot(room)
    assert after.seq == 1 and after.view == mine.view

    await alice.undo(room)
    undone = await state_push(bob)
    assert undone.seq == 2 and cards(undone.view["layout"]) == cards(view["layout"])
    assert undone.view["can_redo"] and not undone.view["can_undo"]
    await alice.redo(room)
    assert (await state_push(bob)).view["layout"] == mine.view["layout"]
    with pytest.raises(ServerError) as nothing:
        await alice.redo(room)
    assert nothing.value.code == "illegal" and nothing.value.rule == "nothing-to-redo"
    assert nothing.value.field is None  # undo and redo have no move field to blame
    for wrong in (alice.chat(room, "hi"), alice.add_bot(room, "N")):
        with pytest.raises(ServerError) as kind:
            await wrong
        assert (kind.value.code, kind.value.field) == ("wrong-room", "type")

    hint = await alice.hint(room)
    assert hint.move is not None and hint.status in ("sure", "guess") and hint.seq == 3  # move, undo, redo
    alice.take_pushes()
    await alice.move(room, hint.move)
    assert (await state_push(alice)).view["moves"] == 2

    for game, options, code in [("klondike", {}, "unknown-game"), ("pyramid", {"draw": 5}, "unknown-option")]:
        with pytest.raises(ServerError) as bad:
            await bob.open_solitaire(game, options)
        assert bad.value.code == code
    listed = {r["room"]: r for r in await bob.list_rooms()}
    assert listed[room]["kind"] == "solitaire" and listed[room]["players"] == {"player": "alice"}
    assert listed[room]["moves"] == 2 and listed[room]["state"] == "playing"


async def test_reconnect_gets_the_full_state(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    room = (await alice.open_solitaire("pyramid", {"draw": 3}, seed=5)).room
    await alice.move(room, "s")
    before = await state_push(alice)
    token = alice.token
    assert token is not None
    await alice.close()
    again = await connect(server)
    back = await again.resume(token)
    assert isinstance(back, LoggedIn) and back.rooms == [room]
    push: Message = await again.next_push(5.0)
    while not isinstance(push, Snapshot):
        push = await again.next_push(5.0)
    assert push.seat == "player" and push.seq == 1 and push.view == before.view
    await again.move(room, "s")
    assert (await state_push(again)).seq == 2


async def test_a_win_through_the_server_is_stored_and_replays(
    server: BarbuServer, connect: Connect, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, seed = WINNABLE
    solution = solve(new_game(game, seed=seed), max_nodes=50_000)
    assert solution.moves
    alice = await connect(server, "alice")
    watcher = await connect(server, "watcher")
    room = (await alice.open_solitaire(game, seed=seed)).room
    await watcher.watch(room)
    for move in solution.moves:
        await alice.move(room, move)
    final = await alice.snapshot(room)
    assert final.state == "over" and final.view is not None
    assert final.view["result"] == "won" and final.view["seed"] == seed and final.view["legal"] == []
    with pytest.raises(ServerError) as over:
        await alice.undo(room)
    assert over.value.code == "room-over"
    pushes = [p for p in watcher.take_pushes() if isinstance(p, SolitaireState)]
    assert len(pushes) == len(solution.moves) and pushes[-1].view["result"] == "won"

    assert server.store is not None
    row = server.store.room(int(room))
    assert row.status == "over" and row.record is not None
    assert row.record["format"] == "solitaire/1" and row.record["moves"] == list(solution.moves)
    assert from_record(row.record).won
    path = tmp_path / "won.json"
    path.write_text(json.dumps(row.record))
    assert barbu(["solitaire", "replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["won"] is True
    assert server.store.results(today(), game) == []


async def test_the_days_deal_and_its_results_table(server: BarbuServer, connect: Connect) -> None:
    lobby = await (await connect(server, "carol")).lobby()
    daily = {d["game"]: d for d in lobby.daily}
    assert daily["pyramid"]["seed"] is None and daily["pyramid"]["results"] == []

    alice, bob = await connect(server, "alice"), await connect(server, "bob")
    a = await alice.open_solitaire("pyramid")
    b = await bob.open_solitaire("pyramid", {"draw": 1})  # all at their defaults: still the day's deal
    assert a.view is not None and b.view is not None
    assert a.view["daily"] == b.view["daily"] == today() and a.view["seed"] is None
    assert a.view["layout"] == b.view["layout"]
    assert server.store is not None
    seed = daily_seed(daily_secret(server.store), "pyramid", today())
    assert a.view["layout"] == new_game("pyramid", seed=seed).state()
    with pytest.raises(ServerError) as no_hint:
        await alice.hint(a.room)
    assert no_hint.value.code == "no-hint"
    moved = 0
    while True:
        legal = (await alice.snapshot(a.room)).view or {}
        if not legal["legal"] or legal["result"] is not None:
            break
        await alice.move(a.room, legal["legal"][0])
        moved += 1
        if moved == 1:
            await alice.undo(a.room)  # the results table counts the moves as the game's own counter does:
            await alice.redo(a.room)  # an undone move made again is one move
    won = (await alice.snapshot(a.room)).view["result"] == "won"  # type: ignore[index]
    if not won:  # the day's deal is winnable: playing the first legal move may win it
        await alice.resign(a.room)
    await bob.move(b.room, "s")
    await bob.resign(b.room)
    rows = {r["player"]: r for r in (await alice.lobby()).daily[list(daily).index("pyramid")]["results"]}
    over = (await alice.snapshot(a.room)).view
    assert over is not None and over["result"] == ("won" if won else "lost") and over["seed"] is None
    assert rows["alice"]["moves"] == moved == over["moves"] and rows["alice"]["won"] == won
    assert rows["bob"]["moves"] == 1 and rows["bob"]["room"] == b.room  # a room id is a string
    stored = server.store.room(int(a.room))
    assert stored.status == "over" and stored.record is not None and len(stored.record["moves"]) == moved
    assert (await bob.snapshot(b.room)).view["result"] == "resigned"  # type: ignore[index]

    with pytest.raises(ServerError) as again:
        await alice.open_solitaire("pyramid")
    assert again.value.code == "daily-played" and again.value.field == "seed"
    other = await alice.open_solitaire("pyramid", seed=seed)  # the same cards, but not ranked
    assert other.view is not None and other.view["daily"] is None
    await alice.resign(other.room)
    assert len(server.store.results(today(), "pyramid")) == 2


async def test_one_result_a_day_even_through_another_room(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    first = await alice.open_solitaire("streets")
    assert first.view is not None and first.view["daily"] == today()
    await alice.move(first.room, first.view["legal"][0])
    with pytest.raises(ServerError) as playing:
        await alice.open_solitaire("streets")
    assert playing.value.code == "daily-played" and f"room {first.room}" in playing.value.message
    random_deal = await alice.open_solitaire("pyramid", {"draw": 3})  # not the defaults: a random deal
    assert random_deal.view is not None and random_deal.view["daily"] is None
    assert server.store is not None
    rows = server.store.results(today(), "streets")
    assert [(r["player"], r["room"], r["moves"]) for r in rows] == [("alice", int(first.room), 1)]
    with pytest.raises(ServerError) as done:
        await alice.open_solitaire("streets")
    assert done.value.code == "daily-played"


def test_the_days_seed_comes_from_the_stores_secret_and_shows_only_once_the_day_is_past(
    tmp_path: Path,
) -> None:
    one, two = Store(tmp_path / "one.db"), Store(tmp_path / "two.db")
    secret = daily_secret(one)
    assert len(secret) == 32 and secret != daily_secret(two)
    one.close()
    one = Store(tmp_path / "one.db")
    assert daily_secret(one) == secret  # kept
    for name in ("pyramid", "streets"):
        # Always a deal the solver proved winnable (tests/test_server_winnable.py has more).
        seeds = {daily_seed(secret, name, d) for d in ("2026-01-01", "2026-01-02")}
        assert seeds <= set(winnable_seeds(name))
    config = ServerConfig(db=str(tmp_path / "one.db"))
    for day, shown in (("2000-01-01", True), (today(), False)):
        game = new_game("pyramid", seed=daily_seed(secret, "pyramid", day))
        room = SolitaireRoom(1, "p", one, config, player="alice", game=game, daily=day)
        assert room.summary()["seed"] is None and room.view()["seed"] is None
        room.result = "resigned"
        assert room.view()["seed"] == (game.seed if shown else None) == room.summary()["seed"]
    one.close()
    two.close()


async def test_new_deal_finishes_the_old_game(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    bob = await connect(server, "bob")
    old = await alice.open_solitaire("streets", seed=4)
    await bob.watch(old.room)
    with pytest.raises(ServerError) as not_yours:
        await bob.new_deal(old.room)
    assert not_yours.value.code == "not-your-room"
    table = await bob.create_table("not a solitaire")
    with pytest.raises(ServerError) as wrong:
        await bob.new_deal(table)
    assert wrong.value.code == "wrong-room"
    await alice.move(old.room, "s")
    new = await alice.new_deal(old.room, seed=9)
    assert new.room != old.room and new.view is not None and new.view["game"] == "streets"
    last = await state_push(bob)
    while last.view["result"] is None:
        last = await state_push(bob)
    assert last.view["result"] == "resigned" and last.view["seed"] == 4
    assert server.store is not None and server.store.room(int(old.room)).status == "over"


async def test_restart_restores_the_room(start_server: StartServer, connect: Connect) -> None:
    first = await start_server()
    alice = await connect(first, "alice")
    snap = await alice.open_solitaire("forty-thieves", seed=8)
    room = snap.room
    for _ in range(3):
        view = (await alice.snapshot(room)).view
        assert view is not None
        await alice.move(room, view["legal"][0])
    await alice.undo(room)
    before = await alice.snapshot(room)
    token = alice.token
    assert token is not None
    await alice.close()
    await first.stop()

    second = await start_server()
    again = await connect(second)
    assert (await again.resume(token)).rooms == [room]
    push: Message = await again.next_push(5.0)
    while not isinstance(push, Snapshot):
        push = await again.next_push(5.0)
    assert push.seq == before.seq == 4 and push.view == before.view
    await again.redo(room)
    assert (await state_push(again)).view["moves"] == 3
    watcher = await connect(second, "watcher")
    assert (await watcher.watch(room)).view == (await again.snapshot(room)).view
    await again.leave(room)
    players = await watcher.next_push(5.0)
    while not isinstance(players, Players):
        players = await watcher.next_push(5.0)
    assert players.away == ["player"]


async def test_every_game_opens_plays_undoes_and_resigns_in_a_room(
    server: BarbuServer, connect: Connect, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = await connect(server, "alice")
    assert server.store is not None
    for game in GAMES:
        snap = await alice.open_solitaire(game, seed=11)
        assert snap.view is not None and snap.view["game"] == game
        first = snap.view["legal"][0]
        await alice.move(snap.room, first)
        await alice.undo(snap.room)
        await alice.move(snap.room, first)
        path = tmp_path / f"{game}.json"
        assert barbu(["export", "--db", server.config.db, snap.room, "--out", str(path)]) == 0
        assert json.loads(path.read_text())["moves"] == [first]
        await alice.resign(snap.room)
        record = server.store.room(int(snap.room)).record
        assert record is not None and record["game"] == game and from_record(record).moves == 1
        assert barbu(["solitaire", "replay", str(path)]) == 0
    capsys.readouterr()
    listed = [r for r in await alice.list_rooms() if r["kind"] == "solitaire"]
    assert [r["game"] for r in listed] == ["bakers-dozen"]  # finished rooms go once their player moves on


async def test_the_days_deal_cannot_be_watched_until_it_is_finished(
    server: BarbuServer, connect: Connect
) -> None:
    alice, bob, carol = (
        await connect(server, "alice"),
        await connect(server, "bob"),
        await connect(server, "carol"),
    )
    a = await alice.open_solitaire("pyramid")
    assert a.view is not None and a.view["daily"] == today()
    await alice.move(a.room, a.view["legal"][0])
    before = cards((await alice.snapshot(a.room)).view["layout"])  # type: ignore[index]
    for look in (bob.watch, bob.snapshot):  # a watcher would see the layout, then play the same deal
        with pytest.raises(ServerError) as refused:
            await look(a.room)
        assert refused.value.code == "daily-private" and refused.value.field == "room"
        assert refused.value.message == "the day's deal cannot be watched until it is finished"
    listed = {r["room"]: r for r in (await bob.lobby()).rooms}
    assert listed[a.room]["watchable"] is False and listed[a.room]["spectators"] == 0
    mine = await alice.watch(a.room)  # the player still sees their own game, and nothing changed
    assert mine.seat == "player" and mine.view is not None and cards(mine.view["layout"]) == before
    assert mine.view["moves"] == 1

    # Someone watching a random deal does not follow its player to the day's deal.
    c = await carol.open_solitaire("pyramid", seed=5)
    assert (await bob.watch(c.room)).seat is None
    assert {r["room"]: r for r in (await bob.lobby()).rooms}[c.room]["watchable"] is True
    daily = await carol.open_solitaire("pyramid")
    assert daily.view is not None and daily.view["daily"] == today() and daily.seat == "player"
    assert {r["room"]: r for r in (await bob.lobby()).rooms}[daily.room]["spectators"] == 0

    # Finished, it may be watched (its seed stays secret while its day is current).
    await alice.resign(a.room)
    watched = await bob.watch(a.room)
    assert watched.seat is None and watched.view is not None
    assert watched.view["result"] == "resigned" and watched.view["seed"] is None
    listed = {r["room"]: r for r in (await bob.lobby()).rooms}
    assert listed[a.room]["watchable"] is True and listed[a.room]["spectators"] == 1


async def test_a_seed_the_player_gave_is_shown_to_watchers_one_the_server_chose_is_not(
    server: BarbuServer, connect: Connect
) -> None:
    alice, bob = await connect(server, "alice"), await connect(server, "bob")
    given = await alice.open_solitaire("pyramid", {"draw": 3}, seed=279988109493316)
    watched = await bob.watch(given.room)
    listed = {r["room"]: r for r in (await bob.lobby()).rooms}
    assert watched.view is not None and watched.view["seed"] == 279988109493316
    assert listed[given.room]["seed"] == 279988109493316
    dealt = await alice.new_deal(given.room)  # the server picks the seed: secret while it is played
    assert dealt.view is not None and dealt.view["seed"] is None
    assert {r["room"]: r for r in (await bob.lobby()).rooms}[dealt.room]["seed"] is None
    again = await alice.new_deal(dealt.room, seed=12)
    assert again.view is not None and again.view["seed"] == 12
    assert server.store is not None
    restored = SolitaireRoom.replayed(server.store.room(int(again.room)), server.store, server.config)
    assert restored.view()["seed"] == 12  # kept over a restart
    lucky = await alice.open_solitaire("pyramid", {"draw": 3}, winnable=True)  # picked by the server
    assert lucky.view is not None and lucky.view["seed"] is None
