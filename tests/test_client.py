"""The client library and the command line over real processes: ``barbu serve`` (with SIGTERM), two
``barbu bot`` runs sharing one table, ``barbu demo``, and what a client sees when the server goes away."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from websockets.asyncio.client import connect as ws_connect

from cli.main import main as barbu
from client import Connection, ConnectionLost
from server import BarbuServer
from tests.conftest import Connect

BARBU = [sys.executable, "-m", "cli.main"]


def test_serve_bots_share_a_table_and_sigterm_stops_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "served.sqlite3"
    serve = subprocess.Popen(
        [*BARBU, "serve", "--port", "0", "--db", str(db), "--log-level", "WARNING"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        url = line.split("listening on ", 1)[1].split()[0]
        bots = [
            subprocess.Popen(
                [*BARBU, "bot", "--server", url, "--table", "shared", "--count", "2", "--policy", "random"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        outputs = [bot.communicate(timeout=60) for bot in bots]
        assert [bot.returncode for bot in bots] == [0, 0], outputs
        firsts = {out.splitlines()[0] for out, _ in outputs}
        assert firsts == {"match 1"}
        assert {out.splitlines()[1] for out, _ in outputs} == {outputs[0][0].splitlines()[1]}
    finally:
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(15) == 0
    assert barbu(["export", "--db", str(db), "1", "--out", str(tmp_path / "m.json")]) == 0
    assert barbu(["replay", str(tmp_path / "m.json")]) == 0


def test_bot_command_reports_an_unreachable_server(capsys: pytest.CaptureFixture[str]) -> None:
    assert barbu(["bot", "--server", "ws://127.0.0.1:9", "--count", "1"]) == 1
    assert "cannot reach" in capsys.readouterr().err


def test_demo_prints_the_score_sheet_and_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "demo.sqlite3"
    assert barbu(["demo", "--db", str(db), "--policy", "random"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 28
    assert "Totals" in out and "Winner" in out
    assert f"barbu export --db {db} 1" in out
    assert barbu(["matches", "--db", str(db)]) == 0
    assert capsys.readouterr().out.startswith("1\tover\t28\tdemo\t")


async def test_connection_lost_when_the_server_stops(server: BarbuServer, connect: Connect) -> None:
    conn: Connection = await connect(server, "alice")
    room = await conn.create_table("gone")
    await conn.sit(room)
    await server.stop()
    with pytest.raises(ConnectionLost):
        while True:
            await conn.next_push(5)
    with pytest.raises(ConnectionLost):
        await conn.list_rooms()


async def test_a_client_written_from_the_spec_alone_plays_a_seat(server: BarbuServer) -> None:
    """Plain websockets + msgpack, following docs/protocol.md "A minimal bot, step by step"."""
    async with ws_connect(server.url, compression=None, proxy=None, max_size=1 << 20) as ws:

        async def reply(request: dict[str, object]) -> dict[str, object]:
            await ws.send(msgpack.packb(request))
            while True:
                message = msgpack.unpackb(await ws.recv())
                if message.get("id") == request["id"]:
                    assert message["type"] != "error", message
                    return dict(message)

        assert (await reply({"type": "hello", "id": 1, "version": 1, "client": "spec-bot"}))[
            "type"
        ] == "welcome"
        token = (await reply({"type": "login", "id": 2, "name": "spec"}))["token"]
        assert isinstance(token, str)
        room = (await reply({"type": "create-table", "id": 3, "name": "spec"}))["room"]
        assert (await reply({"type": "sit", "id": 4, "room": room, "seat": "S"}))["seat"] == "S"
        for i, seat in enumerate(("N", "E", "W")):
            await reply({"type": "add-bot", "id": 5 + i, "room": room, "seat": seat, "policy": "random"})
        next_id, turns = 100, 0
        while True:
            message = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 10))
            if message["type"] == "turn":
                next_id += 1
                turns += 1
                act = {"type": "act", "id": next_id, "room": room, "seat": message["seat"]}
                sent = {**act, "action": message["view"]["legal"][0]}
                await ws.send(msgpack.packb(sent))
            elif message["type"] == "event" and message["event"]["event"] == "match-over":
                break
            elif message["type"] == "error" and message["code"] == "slow-down":
                # Step 5: over the request budget (the bots here play at once): wait, send it again.
                await asyncio.sleep(float(message["retry_after"]))
                await ws.send(msgpack.packb(sent))
            elif message["type"] == "error":
                raise AssertionError(message)
    assert turns > 13 * 28 / 4
    assert server.store is not None and server.store.room(int(str(room))).status == "over"


def test_export_refuses_a_table_that_never_started(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from server.store import Store

    db = tmp_path / "s.sqlite3"
    store = Store(str(db))
    room = store.create_room("barbu", "empty", {"seed": 1, "variants": {}, "first_declarer": "N"})
    store.set_players(room, {"E": "bot:heuristic"})
    store.close()
    assert barbu(["export", "--db", str(db), str(room)]) == 1
    assert "never started" in capsys.readouterr().err
