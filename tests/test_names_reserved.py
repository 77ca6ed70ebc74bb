"""What a name holds stays its own while it cannot be used: a table kept out of the lobby at start-up (its
log does not replay) keeps its players' seats, its host and its name from every login and new table, so the
seat is still its player's when a repaired row brings the table back; and a name claimed with a personal
secret keeps its look-alikes (``Ann``, a Cyrillic ``аnn``) from being claimed while its player is away,
while the player's own secret always logs in, look-alikes or not."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from client import Connection, ServerError
from server import BarbuServer
from tests.conftest import Connect, StartServer, play_actions, set_action, until_dropped

PASSWORD = "friends only"


async def _refused(connect: Connect, server: BarbuServer, name: str, secret: str | None) -> ServerError:
    """The refusal of a login as ``name`` with the server password and ``secret``."""
    with pytest.raises(ServerError) as info:
        await connect(server, name, PASSWORD, secret)
    return info.value


async def test_a_table_kept_out_at_start_up_keeps_its_seats_host_and_name(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    """carol (no secret) sits at S with ann (the host), bob and dave (secrets); action 2 of the table is
    damaged and the server restarts: the table is kept out, and still nobody claims carol (nor ``Carol``, a
    Cyrillic ``cаrol``, the host's look-alike ``Ann``), logs in as her, or opens a table under its name.
    Repaired and restarted, carol's own token takes her seat S and her cards back."""
    db = tmp_path / "barbu.sqlite3"
    first = await start_server(db=str(db), password=PASSWORD)
    players = {"ann": "ann's own", "bob": "bob's own", "carol": None, "dave": "dave's own"}
    conns = {name: await connect(first, name, PASSWORD, secret) for name, secret in players.items()}
    room = await conns["ann"].create_table("friday")
    by_seat: dict[str, Connection] = {}
    for name, seat in zip(players, "NESW", strict=True):
        await conns[name].sit(room, seat)
        by_seat[seat] = conns[name]
    await play_actions(by_seat, room, 3)
    token = conns["carol"].token
    assert token is not None
    for conn in conns.values():
        await conn.close()
    await first.stop()
    original = set_action(db, room, 2, "{not json")

    kept = await start_server(db=str(db), password=PASSWORD)
    assert kept.lobby is not None and room in kept.lobby.unrestorable
    for secret in ("the attacker's", None):
        refusal = await _refused(connect, kept, "carol", secret)
        assert (refusal.code, refusal.field) == ("seat-held", "name")
        assert "holds a seat at 'friday'" in refusal.message
    for twin, of in (("Carol", "carol"), ("c\u0430rol", "carol"), ("Ann", "ann")):
        refusal = await _refused(connect, kept, twin, "the attacker's")
        assert (refusal.code, refusal.field) == ("name-taken", "name"), twin
        assert f"too like {of}" in refusal.message
    mallory = await connect(kept, "mallory", PASSWORD, "mallory's own")
    for name in ("friday", "FRIDAY", "frid\u0430y"):
        with pytest.raises(ServerError) as info:
            await mallory.create_table(name)
        assert (info.value.code, info.value.field) == ("name-taken", "name")
    await mallory.close()
    await kept.stop()

    set_action(db, room, 2, original)
    back = await start_server(db=str(db), password=PASSWORD)
    carol = await connect(back)
    reply = await carol.resume(token)
    assert (reply.name, reply.rooms) == ("carol", [room])
    snap = await carol.snapshot(room)
    assert snap.seat == "S" and snap.view is not None and snap.view["hand"]


def _copy_secret(db: Path, source: str, name: str) -> None:
    """Give ``name`` the stored secret of ``source``, as a store from before look-alike claims were refused
    may hold two look-alike names, both claimed."""
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:
        raw.execute(
            "INSERT INTO players(name, token, created, used, secret) SELECT ?, 'copied', created, used, secret"
            " FROM players WHERE name=?",
            (name, source),
        )


async def test_a_claimed_name_keeps_its_look_alikes_while_its_player_is_away(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    """ann claimed her name and left, holding nothing: ``Ann`` and a Cyrillic ``аnn`` are refused, with a
    secret or without, and ann's own secret logs her in; a store holding a claimed look-alike already
    (``Ann``, from before) does not lock ann out either, even while ``Ann`` is connected."""
    db = tmp_path / "barbu.sqlite3"
    server = await start_server(db=str(db))
    await (await connect(server, "ann", secret="ann's own")).close()
    await until_dropped(server, "ann")
    for twin in ("Ann", "\u0430nn", "ANN"):
        for secret in ("a thief's", None):
            with pytest.raises(ServerError) as info:
                await connect(server, twin, None, secret)
            assert (info.value.code, info.value.field) == ("name-taken", "name"), (twin, secret)
            assert "too like ann" in info.value.message
    ann = await connect(server, "ann", None, "ann's own")
    assert ann.name == "ann"
    await ann.close()
    await until_dropped(server, "ann")
    await server.stop()

    _copy_secret(db, "ann", "Ann")
    again = await start_server(db=str(db))
    look_alike = await connect(again, "Ann", None, "ann's own")
    assert look_alike.name == "Ann"
    assert (await connect(again, "ann", None, "ann's own")).name == "ann"
