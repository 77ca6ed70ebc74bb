"""Flood test: while one client pipelines 20,000 requests, how long does another player wait?

A server runs in its own process (``barbu serve`` on a free loopback port, default settings) with ``--tables``
waiting tables, so a lobby listing is a few KiB. A *victim* client sends one ``list-rooms`` every 20 ms and
measures its round trips; meanwhile a *flooder* logs in and sends ``--requests`` ``list-rooms`` back to back:

- case ``quiet``: no flooder (the baseline);
- case ``reading``: the flooder reads its replies as they come;
- case ``never-reads``: the flooder never reads a reply;
- case ``split``: the flooder sends each request split into 16 WebSocket fragments (the most a message may
  come in: the server parses each, and charges each after the first to the request budget), reading replies;
- case ``ping-flood``: the flooder, on a raw socket from 127.0.0.9 with a 4 KiB receive buffer, upgrades to a
  WebSocket without logging in and sends masked pings (125-byte payloads) in batches of 100 as fast as the
  socket takes them, never reading a pong, until the server cuts it off or ``--seconds`` pass;
- case ``ping-flood-reading``: 10 such flooders at once, each logged in and reading every pong;
- case ``ping-flood-many``: 100 at once (one address's whole share of connections), reading nothing;
- case ``login-storm``: ``--logins`` new names (4,000 by default) log in, spread evenly over
  ``--storm-seconds`` (20 s), each on a connection of its own (``hello``, ``login``, read the reply, close):
  every login writes its player's resume token to the store;
- case ``replays``: the flooder pipelines ``--replays`` ``replay`` requests (reading the replies), cycling
  through the ``--matches`` finished matches stored before the start (more than the server keeps laid out,
  so every request makes the server replay a whole match from its record);
- case ``hint-storm``: ``--hint-players`` players from each of ``--hint-addresses`` loopback addresses
  (127.0.0.2 on) each open a Forty Thieves deal (one the solver finds no win of in a hint's budget) and ask
  for hints for ``--storm-seconds``: the next a second after each answer (a person reading it), the server
  (``--hint-budget``, one worker) working them out; a hint still unanswered ``--seconds`` after the storm
  ends is counted unanswered. Prints the answers' p50 / p99 / worst time, how many were hints (and their
  own p50 / p99) and how many ``busy``, and how many went unanswered.

A flood case lasts until the flooder has read its last reply (``reading``) or its last request went out
(``never-reads``: the server stops reading a connection it dropped; the ping floods: the last ping of the
last flooder cut off), or
``--seconds`` pass; the victim's
round trips of that span (and half a second after) are counted. Prints per case the victim's round trips
(p50, p99, worst, in ms), what the flooder got (requests sent, replies, ``slow-down`` refusals, whether the
server dropped it, how long the flood lasted; the storm: logins answered, refused, failed; the hint storm:
above), and the
server's resident memory (largest seen during the case, MiB) and CPU time over the case (s). Run:

    .venv/bin/python -m benchmarks.flood [--requests 20000] [--tables 40] [--seconds 30]
        [--logins 4000] [--storm-seconds 20] [--replays 150] [--matches 40]
        [--hint-addresses 49] [--hint-players 2] [--hint-budget 2]
        [--cases quiet,reading,never-reads,split,ping-flood,ping-flood-reading,ping-flood-many,login-storm,replays,hint-storm]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import os
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import msgpack
import websockets

from benchmarks.load import start_server
from cli.selfplay import play_match
from client import Connection
from engine.cards import SEATS
from server.peer import LOGGED_IN_FRAGMENTS
from server.store import Store

#: The cases, in the order they run.
CASES = (
    "quiet",
    "reading",
    "never-reads",
    "split",
    "ping-flood",
    "ping-flood-reading",
    "ping-flood-many",
    "login-storm",
    "replays",
    "hint-storm",
)
#: Seconds between two round trips of the victim.
VICTIM_PACE = 0.02


@dataclass
class Case:
    """What one case measured: the victim's round trips (s), the flooder's replies and refusals, whether
    the server dropped it, and the server's largest resident set (bytes)."""

    name: str
    trips: list[float] = field(default_factory=list)
    at: list[float] = field(default_factory=list)  # when each round trip ended (time.time())
    sent: int = 0
    replies: int = 0
    refused: int = 0
    dropped: int = 0  # flooders the server dropped (0 or 1 but in the ping floods)
    failed: int = 0  # the storm's logins with no reply
    rss: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # the server's CPU seconds over the case
    hints: dict[str, float] = field(default_factory=dict)  # the hint storm's figures (``hint_storm``)


def cpu_of(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` has used so far (0 if it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_of(pid: int) -> int:
    """Resident set size of process ``pid`` in bytes (0 if it cannot be read)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


async def victim(url: str, stop: asyncio.Event, case: Case, pid: int) -> None:
    """Log in and time one ``list-rooms`` every ``VICTIM_PACE`` seconds until ``stop`` is set."""
    async with await Connection.connect(url, client="victim", timeout=60) as conn:
        await conn.login(f"victim-{CASES.index(case.name)}")  # a name of 24 characters at most
        while not stop.is_set():
            start = time.perf_counter()
            await conn.list_rooms()
            case.trips.append(time.perf_counter() - start)
            case.at.append(time.time())
            case.rss = max(case.rss, rss_of(pid))
            await asyncio.sleep(VICTIM_PACE)


def store_matches(db: str, count: int) -> None:
    """Store ``count`` finished matches of random bots in a new store ``db`` (ids 1 to ``count``)."""
    store = Store(db)
    try:
        for seed in range(count):
            players = {seat: f"player-{seat}" for seat in SEATS}
            match = play_match(seed, ["random"] * 4)
            config = {"seed": seed, "variants": {}, "first_declarer": "N", "turn_time": None, "grace": 60}
            room = store.create_room("barbu", f"finished {seed}", config, players, "playing")
            store.set_status(room, "over", match.to_record(players))
    finally:
        store.close()


def request_frames(case: str, requests: int, matches: int) -> list[bytes]:
    """The flooder's ``requests`` frames: ``replay`` requests cycling through match ids 1 to ``matches``
    (case ``replays``), else ``list-rooms``."""
    if case == "replays":
        wires = [{"type": "replay", "id": 10 + i, "match": str(1 + i % matches)} for i in range(requests)]
    else:
        wires = [{"type": "list-rooms", "id": 10 + i} for i in range(requests)]
    return [msgpack.packb(wire) for wire in wires]


async def flooder(
    url: str, requests: int, read: bool, name: str, limit: float, matches: int = 0
) -> dict[str, float]:
    """Log in over a raw WebSocket, send ``requests`` requests (``request_frames``) back to back, and
    (``read``) read every reply, or never read one; returns (as a map) the replies and ``slow-down``
    refusals it read and whether the server dropped it, when done, dropped, or after ``limit`` seconds."""
    ws = await websockets.connect(url, compression=None, max_size=None, proxy=None)
    hello = {"type": "hello", "id": 1, "version": 1, "client": "flooder"}
    await ws.send(msgpack.packb(hello))
    await ws.recv()
    await ws.send(msgpack.packb({"type": "login", "id": 2, "name": f"flooder-{name}"}))
    await ws.recv()
    got = {"replies": 0, "refused": 0, "sent": 0}
    span = {"began": time.time(), "ended": time.time()}

    async def send_all() -> None:
        frames = request_frames(name, requests, matches)
        for i, frame in enumerate(frames):
            await ws.send(in_fragments(frame) if name == "split" else frame)
            got["sent"] += 1
            if not read:
                span["ended"] = time.time()
            if read and i % 64 == 0:
                await asyncio.sleep(0)  # a client that reads its replies lets its reader run

    async def read_all() -> None:
        while got["replies"] + got["refused"] < requests:
            reply = msgpack.unpackb(await ws.recv())
            got["refused" if reply["type"] == "error" else "replies"] += 1
            span["ended"] = time.time()

    tasks = [asyncio.create_task(send_all())]
    tasks.append(asyncio.create_task(read_all() if read else ws.wait_closed()))
    try:
        await asyncio.wait(tasks, timeout=limit, return_when=asyncio.ALL_COMPLETED)
    finally:
        dropped = ws.close_code is not None and ws.close_code != 1000
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        ws.transport.abort()
    return {**got, **span, "dropped": int(dropped)}


def in_fragments(frame: bytes) -> Iterator[bytes]:
    """``frame`` cut into ``LOGGED_IN_FRAGMENTS`` - 1 pieces, for ``ws.send`` (which ends the message with an
    empty fragment of its own): a message in as many fragments as the server takes."""
    count = LOGGED_IN_FRAGMENTS - 1
    cuts = [len(frame) * k // count for k in range(count + 1)]
    return (frame[a:b] for a, b in itertools.pairwise(cuts))


def masked(opcode: int, payload: bytes) -> bytes:
    """One final WebSocket frame of ``opcode`` as a client sends it (masked), carrying ``payload`` (under
    64 KiB; a ping's at most 125 bytes)."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    size = bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0xFE]) + len(payload).to_bytes(2)
    return bytes([0x80 | opcode]) + size + mask + body


#: The flooders' ping: a 125-byte payload, the longest a control frame may carry (131 bytes on the wire).
PING = masked(0x9, b"p" * 125)
#: How each ping-flood case floods: (connections, whether they log in and read everything the server
#: sends, or say nothing and read nothing).
PING_FLOODS = {"ping-flood": (1, False), "ping-flood-reading": (10, True), "ping-flood-many": (100, False)}


async def ping_flooder(url: str, limit: float, number: int, read: bool, host: str) -> dict[str, float]:
    """One ping flooder: a TCP connection from ``host`` upgraded to a WebSocket by hand, then pings
    (``PING``) in batches of 100 as fast as the socket takes them until the server cuts the connection (a
    reset, a broken pipe, or, ``read``, the end of its stream) or ``limit`` seconds pass. ``read``: it
    logs in first (``hello``, ``login`` as ``pinger-<pid>-<number>``) and reads all the server sends (its
    pongs); else it has a 4 KiB receive buffer, logs in not and reads nothing after the upgrade's response.
    Returns (as a map) the pings sent, whether the server dropped it, when it began and ended."""
    split = urlsplit(url)
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if not read:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    sock.bind((host, 0))
    got = {"sent": 0, "dropped": 0, "began": time.time()}
    try:
        await loop.sock_connect(sock, (split.hostname, split.port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET / HTTP/1.1\r\nHost: {split.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await loop.sock_sendall(sock, request.encode())
        response = b""
        while b"\r\n\r\n" not in response:  # byte by byte: nothing after the response is read
            chunk = await loop.sock_recv(sock, 1)
            if not chunk:
                raise RuntimeError(f"the server refused the upgrade: {response!r}")
            response += chunk
        if read:
            hello = {"type": "hello", "id": 1, "version": 1, "client": "pinger"}
            login = {"type": "login", "id": 2, "name": f"pinger-{os.getpid()}-{number}"}
            await loop.sock_sendall(
                sock, masked(0x2, msgpack.packb(hello)) + masked(0x2, msgpack.packb(login))
            )
        batch = PING * 100

        async def send() -> None:
            while True:
                await loop.sock_sendall(sock, batch)
                got["sent"] += 100

        async def drain() -> None:
            while await loop.sock_recv(sock, 65536):
                pass

        tasks = [asyncio.create_task(send())] + ([asyncio.create_task(drain())] if read else [])
        try:
            done, _ = await asyncio.wait(tasks, timeout=limit, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for task in done:
            if task.exception() is None or isinstance(
                task.exception(), (ConnectionResetError, BrokenPipeError)
            ):
                got["dropped"] = 1  # the end of the stream, a reset, a broken pipe: the server cut it
    finally:
        sock.close()
    return {**got, "ended": time.time()}


async def ping_flood(url: str, limit: float, case: str, host: str = "127.0.0.9") -> dict[str, float]:
    """Case ``case`` of ``PING_FLOODS``: its flooders (``ping_flooder``) all at once from ``host``; returns
    (as a map) the pings sent, how many flooders the server dropped, when the first began and the last
    ended."""
    connections, read = PING_FLOODS[case]
    results = await asyncio.gather(
        *(ping_flooder(url, limit, i, read, host) for i in range(connections)), return_exceptions=True
    )
    each = [got for got in results if isinstance(got, dict)]  # the others were refused (HTTP 503)
    return {
        "replies": 0,
        "refused": connections - len(each),
        "sent": sum(got["sent"] for got in each),
        "dropped": sum(got["dropped"] for got in each),
        "began": min((got["began"] for got in each), default=time.time()),
        "ended": max((got["ended"] for got in each), default=time.time()),
    }


async def storm(url: str, logins: int, span: float, limit: float) -> dict[str, float]:
    """Log ``logins`` new names in, one every ``span / logins`` seconds, each on a connection of its own
    (``hello``, ``login``, read the reply, close); returns (as a map) how many got ``logged-in``, an
    ``error`` reply, or no reply (a refused or failed connection), and when the storm began and ended.
    Logins still open ``limit`` seconds after the start are abandoned (counted as failed)."""
    got = {"replies": 0, "refused": 0, "failed": 0, "sent": 0}
    tag = os.getpid()

    async def one(number: int) -> None:
        try:
            async with websockets.connect(url, compression=None, proxy=None, open_timeout=limit) as ws:
                await ws.send(msgpack.packb({"type": "hello", "id": 1, "version": 1, "client": "storm"}))
                await ws.recv()
                await ws.send(msgpack.packb({"type": "login", "id": 2, "name": f"storm-{tag}-{number}"}))
                got["sent"] += 1
                reply = msgpack.unpackb(await ws.recv())
                got["refused" if reply["type"] == "error" else "replies"] += 1
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as exc:
            got["failed"] += 1
            why = f"failed: {type(exc).__name__}"
            got[why] = got.get(why, 0) + 1

    began = time.time()
    tasks = []
    for number in range(logins):
        await asyncio.sleep(max(0.0, began + number * span / logins - time.time()))
        tasks.append(asyncio.create_task(one(number)))
    _, pending = await asyncio.wait(tasks, timeout=max(0.1, began + limit - time.time()))
    for task in pending:
        task.cancel()
    got["failed"] += len(pending)
    return {**got, "began": began, "ended": time.time(), "dropped": 0}


#: The hint storm's first address: the players of address k (0 on) come from 127.0.0.(2 + k).
HINT_HOST = 2
#: Seconds a hint storm's player takes to read an answer before asking again.
HINT_READING = 1.0


async def hint_asker(
    url: str, address: int, number: int, span: float, limit: float, answers: list[tuple[str, float]]
) -> int:
    """One player of the hint storm, from 127.0.0.(``HINT_HOST`` + ``address``): log in, open Forty Thieves
    (deal ``address * 100 + number + 1``), then ask for hints for ``span`` seconds, the next
    ``HINT_READING`` seconds after each answer; each answer's kind (``hint`` or the error code) and time
    go to ``answers``. Returns 1 if a hint was still unanswered ``limit`` seconds after the span, else 0."""
    ws = await websockets.connect(
        url, compression=None, max_size=None, proxy=None, local_addr=(f"127.0.0.{HINT_HOST + address}", 0)
    )
    ids = itertools.count(1)

    async def ask(wire: dict[str, object], timeout: float) -> dict[str, object]:
        asked = next(ids)
        await ws.send(msgpack.packb({**wire, "id": asked}))
        async with asyncio.timeout(timeout):
            while True:  # pushes (the room's state) come between the replies
                reply: dict[str, object] = msgpack.unpackb(await ws.recv())
                if reply.get("id") == asked:
                    return reply

    try:
        await ask({"type": "hello", "version": 1, "client": "hint-storm"}, 60)
        await ask({"type": "login", "name": f"storm-{os.getpid()}-{address}-{number}"}, 60)
        opened = await ask(
            {"type": "open-solitaire", "game": "forty-thieves", "seed": address * 100 + number + 1}, 60
        )
        room = opened["room"]
        began = time.monotonic()
        while time.monotonic() < began + span:
            started = time.monotonic()
            try:
                reply = await ask({"type": "hint", "room": room}, began + span + limit - started)
            except TimeoutError:
                return 1
            kind = str(reply["code"]) if reply["type"] == "error" else "hint"
            answers.append((kind, time.monotonic() - started))
            await asyncio.sleep(HINT_READING)
        return 0
    finally:
        ws.transport.abort()


async def hint_storm(url: str, addresses: int, players: int, span: float, limit: float) -> dict[str, float]:
    """The hint storm (``hint_asker`` for ``players`` players from each of ``addresses`` addresses); returns
    (as a map) the answers' p50, p99 and worst time (s), the hints' own p50 and p99, how many were hints,
    ``busy`` or other errors, how many went unanswered, and when the storm began and ended."""
    answers: list[tuple[str, float]] = []
    began = time.time()
    unanswered = await asyncio.gather(
        *(hint_asker(url, a, p, span, limit, answers) for a in range(addresses) for p in range(players))
    )

    def spread(times: list[float]) -> tuple[float, float, float]:
        times = sorted(times) or [0.0]
        p99 = statistics.quantiles(times, n=100, method="inclusive")[98] if len(times) >= 2 else times[-1]
        return statistics.median(times), p99, times[-1]

    p50, p99, worst = spread([seconds for _, seconds in answers])
    hint_p50, hint_p99, _ = spread([seconds for kind, seconds in answers if kind == "hint"])
    kinds = [kind for kind, _ in answers]
    return {
        "p50": p50,
        "p99": p99,
        "worst": worst,
        "hint_p50": hint_p50,
        "hint_p99": hint_p99,
        "hints": kinds.count("hint"),
        "busy": kinds.count("busy"),
        "other": len(kinds) - kinds.count("hint") - kinds.count("busy"),
        "unanswered": sum(unanswered),
        "sent": len(kinds) + sum(unanswered),
        "replies": len(kinds),
        "refused": 0,
        "dropped": 0,
        "began": began,
        "ended": time.time(),
    }


async def flood_in_a_process(
    url: str,
    requests: int,
    name: str,
    limit: float,
    logins: int = 0,
    span: float = 0.0,
    matches: int = 0,
    storm: tuple[int, int] = (0, 0),
) -> dict[str, float]:
    """Run ``flooder`` (or, case ``login-storm``, ``storm``; case ``hint-storm``, ``hint_storm`` with
    ``storm`` = (addresses, players per address)) in a process of its own (its CPU does not slow the
    victim's client down)."""
    command = [sys.executable, "-m", "benchmarks.flood", "--flooder", url, "--requests", str(requests)]
    command += [
        "--case",
        name,
        "--seconds",
        str(limit),
        "--logins",
        str(logins),
        "--storm-seconds",
        str(span),
        "--matches",
        str(matches),
        "--hint-addresses",
        str(storm[0]),
        "--hint-players",
        str(storm[1]),
    ]
    proc = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    result: dict[str, float] = json.loads(out)
    return result


async def run_case(
    url: str,
    pid: int,
    name: str,
    requests: int,
    limit: float,
    logins: int = 0,
    span: float = 0.0,
    matches: int = 0,
    storm: tuple[int, int] = (0, 0),
) -> Case:
    """One case: the victim measures while the flooder (if any) floods."""
    case = Case(name)
    cpu = cpu_of(pid)
    stop = asyncio.Event()
    watching = asyncio.create_task(victim(url, stop, case, pid))
    await asyncio.sleep(0.5)
    began = time.time()
    if name == "quiet":
        await asyncio.sleep(3.0)
        ended = time.time()
    else:
        got = await flood_in_a_process(url, requests, name, limit, logins, span, matches, storm)
        if name == "hint-storm":
            case.hints = {
                key: got[key]
                for key in (
                    "p50",
                    "p99",
                    "worst",
                    "hint_p50",
                    "hint_p99",
                    "hints",
                    "busy",
                    "other",
                    "unanswered",
                )
            }
        case.replies, case.refused, case.sent = int(got["replies"]), int(got["refused"]), int(got["sent"])
        case.dropped, case.failed = int(got["dropped"]), int(got.get("failed", 0))
        began, ended = got["began"], got["ended"]
    case.seconds = ended - began
    case.cpu = cpu_of(pid) - cpu
    await asyncio.sleep(1.0)
    stop.set()
    await watching
    during = [(at, trip) for at, trip in zip(case.at, case.trips, strict=True) if began <= at <= ended + 0.5]
    case.trips = [trip for _, trip in during]
    return case


async def run(
    url: str,
    pid: int,
    requests: int,
    tables: int,
    limit: float,
    cases: list[str],
    logins: int,
    span: float,
    replays: int = 0,
    matches: int = 0,
    storm: tuple[int, int] = (0, 0),
) -> list[Case]:
    """Open the tables, then run the ``cases`` one after another (case ``replays`` sends ``replays``
    requests over ``matches`` stored matches, case ``hint-storm`` is ``storm``'s (addresses, players per
    address), the others send ``requests``)."""
    for start in range(0, tables, 3):  # a player may have 3 tables waiting at a time
        async with await Connection.connect(url, client="setup", timeout=60) as host:
            await host.login(f"host-{start}")
            for i in range(start, min(start + 3, tables)):
                await host.create_table(f"table {i:03d} waiting for players")
    return [
        await run_case(
            url, pid, name, replays if name == "replays" else requests, limit, logins, span, matches, storm
        )
        for name in cases
    ]


def report(case: Case) -> str:
    """One line of figures for ``case``."""
    trips = sorted(case.trips)
    p99 = statistics.quantiles(trips, n=100, method="inclusive")[98] if len(trips) >= 2 else trips[-1]
    line = (
        f"{case.name:12} victim: {len(trips):4d} round trips  p50 {statistics.median(trips) * 1000:6.1f} ms"
        f"  p99 {p99 * 1000:6.1f} ms  worst {trips[-1] * 1000:6.1f} ms  | server RSS {case.rss / 2**20:5.1f} MiB,"
        f" CPU {case.cpu:5.1f} s"
    )
    if case.name == "hint-storm":
        got = case.hints
        line += (
            f"  | hints: p50 {got['p50']:.2f} s, p99 {got['p99']:.2f} s, worst {got['worst']:.2f} s;"
            f" {got['hints']:.0f} hints (p50 {got['hint_p50']:.2f} s, p99 {got['hint_p99']:.2f} s),"
            f" {got['busy']:.0f} busy, {got['other']:.0f} other errors,"
            f" {got['unanswered']:.0f} unanswered, {case.seconds:.1f} s"
        )
    elif case.name == "login-storm":
        line += (
            f"  | storm: {case.replies} logged in, {case.refused} refused, {case.failed}"
            f" failed, {case.seconds:.1f} s"
        )
    elif case.name in PING_FLOODS:
        connections = PING_FLOODS[case.name][0]
        line += (
            f"  | flooders: {case.sent} pings sent by {connections}, {case.dropped} dropped,"
            f" {case.refused} refused, {case.seconds:.1f} s"
        )
    elif case.name != "quiet":
        line += (
            f"  | flooder: {case.sent} sent, {case.replies} replies, {case.refused} slow-down,"
            f" {'dropped' if case.dropped else 'not dropped'}, {case.seconds:.1f} s"
        )
    return line


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, start the server process, run the cases, print the figures; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000, help="requests the flooder pipelines")
    parser.add_argument("--tables", type=int, default=40, help="waiting tables in the lobby (default 40)")
    parser.add_argument("--seconds", type=float, default=30.0, help="longest a flood case lasts (default 30)")
    parser.add_argument(
        "--logins", type=int, default=4000, help="new names in the login storm (default 4000)"
    )
    parser.add_argument(
        "--storm-seconds",
        type=float,
        default=20.0,
        help="span the storm's logins are spread over (default 20)",
    )
    parser.add_argument(
        "--cases", default=",".join(CASES), help=f"cases to run, comma-separated (default {','.join(CASES)})"
    )
    parser.add_argument("--replays", type=int, default=150, help="replay requests pipelined (default 150)")
    parser.add_argument("--matches", type=int, default=40, help="finished matches stored (default 40)")
    parser.add_argument(
        "--hint-addresses", type=int, default=49, help="addresses the hint storm comes from (default 49)"
    )
    parser.add_argument(
        "--hint-players", type=int, default=2, help="players of each address in the hint storm (default 2)"
    )
    parser.add_argument(
        "--hint-budget", type=float, default=2.0, help="the server's --hint-budget, seconds (default 2)"
    )
    parser.add_argument("--flooder", metavar="URL", help=argparse.SUPPRESS)  # the flooder's own process
    parser.add_argument("--case", default="reading", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    cases = args.cases.split(",")
    if unknown := set(cases) - set(CASES):
        parser.error(f"unknown case(s) {', '.join(sorted(unknown))}: choose from {', '.join(CASES)}")
    if args.flooder and args.case in PING_FLOODS:
        print(json.dumps(asyncio.run(ping_flood(args.flooder, args.seconds, args.case))))
        return 0
    if args.flooder and args.case == "hint-storm":
        storming = hint_storm(
            args.flooder, args.hint_addresses, args.hint_players, args.storm_seconds, args.seconds
        )
        print(json.dumps(asyncio.run(storming)))
        return 0
    if args.flooder and args.case == "login-storm":
        limit = max(args.seconds, args.storm_seconds + 10)
        print(json.dumps(asyncio.run(storm(args.flooder, args.logins, args.storm_seconds, limit))))
        return 0
    if args.flooder:
        got = asyncio.run(
            flooder(
                args.flooder,
                args.requests,
                args.case in ("reading", "split", "replays"),
                args.case,
                args.seconds,
                args.matches,
            )
        )
        print(json.dumps(got))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "flood.sqlite3")
        if "replays" in cases:
            store_matches(db, args.matches)
        proc, url = start_server(db, ["--workers", "1", "--hint-budget", str(args.hint_budget)])
        try:
            measured = asyncio.run(
                run(
                    url,
                    proc.pid,
                    args.requests,
                    args.tables,
                    args.seconds,
                    cases,
                    args.logins,
                    args.storm_seconds,
                    args.replays,
                    args.matches,
                    (args.hint_addresses, args.hint_players),
                )
            )
        finally:
            proc.terminate()
            with contextlib.suppress(Exception):
                proc.wait(10)
    print(
        f"flooder pipelines {args.requests} list-rooms ({args.replays} replay of {args.matches} matches in"
        f" case replays); storm: {args.logins} logins over {args.storm_seconds:g} s; hint storm:"
        f" {args.hint_players} players from each of {args.hint_addresses} addresses for"
        f" {args.storm_seconds:g} s, hint budget {args.hint_budget:g} s, 1 worker;"
        f" {args.tables} tables listed; victim every 20 ms"
    )
    for case in measured:
        print(report(case))
    return 0


if __name__ == "__main__":
    sys.exit(main())
