"""Traffic of a whole 28-hand match, protocol version 1 against version 2, side by side in one run.

Two tables play at once on one server (in this process, a temporary store): at each, four seats driven by
the engine's ``random`` policy (seeded) and one watcher, every client speaking JSON in text frames, as the
browser does. At the version 1 table every member does what today's web page does (``web/js/table.js``
``refresh()``): after each ``event`` push it asks for a ``snapshot``, one request at a time, 30 ms after the
push (the rest of the action's events), again once more if pushes came meanwhile; a seat acts on its
``turn`` push. At the version 2 table every member only reduces the ``update`` pushes (``client.RoomState``)
and a seat acts when its view's ``legal`` is set. Each seat waits ``--pace`` seconds before acting (a
bounded, human-ish pace; 0: flat out, where version 1's coalesced refreshes ask fewer snapshots than a human
pace would). The two matches are dealt from different seeds, so the figures per action are printed too.

Printed: bytes received (WebSocket payloads) and requests sent by seat N and by the watcher, snapshot
requests among them, and the ratio v1 / v2. Run:

    .venv/bin/python -m benchmarks.traffic [--pace 0.04] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from websockets.asyncio.client import ClientConnection, connect

from client import Connection
from engine.barbu import action_from_wire, action_to_wire, make_policy
from engine.cards import SEATS
from protocol import REPLY_LIMITS, EventPush, Hello, Snapshot, Turn, Update, Welcome
from server import BarbuServer, ServerConfig

#: Seconds the web page waits after an event push before asking its snapshot (``web/js/table.js``).
REFRESH_DELAY = 0.03


@dataclass
class Meter:
    """What one client received and sent: payload bytes, and requests by type."""

    received: int = 0
    sent: int = 0
    requests: Counter[str] = field(default_factory=Counter)


class Counted:
    """A WebSocket client connection that counts the payload bytes it receives and the requests it sends
    (``Meter``); everything else is the connection's own."""

    def __init__(self, ws: ClientConnection, meter: Meter):
        self._ws = ws
        self.meter = meter

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)

    async def send(self, frame: str | bytes) -> None:
        data = frame.encode() if isinstance(frame, str) else frame
        self.meter.sent += len(data)
        self.meter.requests[str(json.loads(data)["type"])] += 1
        await self._ws.send(frame)

    async def __aiter__(self) -> Any:
        async for frame in self._ws:
            self.meter.received += len(frame.encode() if isinstance(frame, str) else frame)
            yield frame


async def _client(url: str, name: str, version: int, meter: Meter) -> Connection:
    """A JSON connection of protocol ``version`` logged in as ``name``, its traffic counted in ``meter``."""
    ws = await connect(url, compression=None, max_size=REPLY_LIMITS.max_frame, proxy=None)
    conn = Connection(cast(ClientConnection, Counted(ws, meter)), 60.0, "json", version)
    conn.welcome = await conn.request(Hello(id=conn.next_id(), version=version, client="traffic"), Welcome)
    await conn.login(name)
    return conn


async def _web_page_v1(conn: Connection, room: str, seat: str | None, pace: float, seed: int) -> int:
    """A version 1 member as the web page is: a snapshot after each event push (coalesced, one at a time),
    and for a seat an ``act`` on each ``turn``. Returns the actions it played."""
    policy = make_policy("random", seed)
    inflight = dirty = False
    refreshes: set[asyncio.Task[None]] = set()

    async def refresh() -> None:
        nonlocal inflight, dirty
        if inflight:
            dirty = True
            return
        inflight = True
        try:
            while True:
                dirty = False
                await asyncio.sleep(REFRESH_DELAY)
                await conn.snapshot(room)
                if not dirty:
                    break
        finally:
            inflight = False

    played = 0
    answered = -1
    async for push in conn.pushes():
        if isinstance(push, EventPush) and push.room == room:
            task = asyncio.get_running_loop().create_task(refresh())
            refreshes.add(task)
            task.add_done_callback(refreshes.discard)
            if push.event.get("event") == "match-over":
                break
        elif isinstance(push, Turn) and push.room == room and seat is not None and push.seq > answered:
            answered = push.seq
            await asyncio.sleep(pace)
            legal = [action_from_wire(a) for a in push.view["legal"]]
            await conn.act(room, seat, action_to_wire(policy.choose(push.view, legal)))
            played += 1
    await asyncio.gather(*refreshes)
    return played


async def _reducer_v2(conn: Connection, room: str, seat: str | None, pace: float, seed: int) -> int:
    """A version 2 member: it reduces the updates (``conn.rooms``) and a seat acts when its view's
    ``legal`` is set. Returns the actions it played."""
    policy = make_policy("random", seed)
    played = 0
    answered = -1

    async def act() -> None:
        nonlocal played, answered
        state = conn.rooms.get(room)
        view = None if state is None else state.view
        if state is None or view is None or not view.get("legal") or seat is None or state.seq <= answered:
            return
        answered = state.seq
        await asyncio.sleep(pace)
        legal = [action_from_wire(a) for a in view["legal"]]
        await conn.act(room, seat, action_to_wire(policy.choose(view, legal)))
        played += 1

    await act()
    async for push in conn.pushes():
        if isinstance(push, Update) and push.room == room:
            if any(e.get("event") == "match-over" for e in push.events):
                break
            await act()
        elif isinstance(push, Snapshot) and push.room == room:  # the match start
            await act()
    return played


async def _table(url: str, version: int, pace: float, seed: int) -> tuple[dict[str, Meter], int, float]:
    """Play one match at a new table with members of protocol ``version``; returns the meters by member
    (``N`` .. ``W``, ``watcher``), the actions played and the seconds it took."""
    meters = {who: Meter() for who in (*SEATS, "watcher")}
    conns = {who: await _client(url, f"v{version}-{who.lower()}", version, meters[who]) for who in meters}
    room = await conns["N"].create_table(f"traffic v{version}")
    await conns["watcher"].watch(room)
    for who in SEATS:
        await conns[who].sit(room, who)
    member = _web_page_v1 if version == 1 else _reducer_v2
    started = time.perf_counter()
    played = await asyncio.gather(
        *(
            member(conns[who], room, who if who in SEATS else None, pace, seed + i)
            for i, who in enumerate(meters)
        )
    )
    elapsed = time.perf_counter() - started
    for conn in conns.values():
        await conn.close()
    return meters, sum(played), elapsed


def _row(label: str, v1: float, v2: float) -> str:
    ratio = f"{v1 / v2:8.1f}x" if v2 else "        -"
    return f"{label:<34}{v1:>14,.0f}{v2:>14,.0f}{ratio}"


async def main(pace: float, seed: int) -> None:
    """Start the server, play both matches at once, print the table."""
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            db=str(Path(tmp) / "traffic.sqlite3"),
            bot_delay=0.0,
            ping_interval=None,
            request_rate=1e6,
            request_burst=1e6,
            idle_turn=None,
        )
        server = BarbuServer(config)
        await server.start()
        try:
            (m1, actions1, t1), (m2, actions2, t2) = await asyncio.gather(
                _table(server.url, 1, pace, seed), _table(server.url, 2, pace, seed)
            )
        finally:
            await server.stop()
    print(f"one 28-hand match per version, JSON frames, pace {pace:g} s per action")
    print(f"{'':<34}{'v1':>14}{'v2':>14}{'v1/v2':>9}")
    print(_row("actions in the match", actions1, actions2))
    print(_row("seconds", t1, t2))
    for who, label in (("N", "seat N"), ("watcher", "watcher")):
        a, b = m1[who], m2[who]
        print(_row(f"{label}: bytes received", a.received, b.received))
        print(_row(f"{label}: bytes received per action", a.received / actions1, b.received / actions2))
        print(_row(f"{label}: requests sent", sum(a.requests.values()), sum(b.requests.values())))
        print(_row(f"{label}: snapshot requests", a.requests["snapshot"], b.requests["snapshot"]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pace", type=float, default=0.04, help="seconds a seat waits before acting")
    parser.add_argument("--seed", type=int, default=1, help="the bots' seed")
    args = parser.parse_args()
    asyncio.run(main(args.pace, args.seed))
