"""``barbu bot``: connect N bots as ordinary clients, fill a table, play one match to the end.

The bots speak protocol version 2 (``docs/protocol.md``): they play from the views the server's updates
carry, and ask for a snapshot only after coming back (with ``since``).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import secrets
import sys
from dataclasses import dataclass
from typing import Any

from websockets.exceptions import WebSocketException

from cli.args import policy_spec
from client import BadReply, Connection, ConnectionLost, ServerError, play_match
from client.bot import come_back, patiently
from engine.barbu import POLICIES, Policy, make_policy
from engine.cards import SEATS
from protocol import LATEST_VERSION, ProtocolError, Snapshot


@dataclass(frozen=True)
class BotsResult:
    """What a bots run ends with: the ``room`` (match id), the final ``totals`` by seat letter, the
    ``players`` by seat letter and the score-sheet ``history`` rows of the final view."""

    room: str
    totals: dict[str, int]
    players: dict[str, Any]
    history: list[dict[str, Any]]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``bot`` to the ``barbu`` parser."""
    p = sub.add_parser(
        "bot",
        help="connect bots to a server and play one match",
        description="Connect COUNT bots as ordinary clients, create the table if no open table has that name, "
        "sit them, play the match to the end, then print the match id and the final totals.",
    )
    p.add_argument("--server", required=True, metavar="URL", help="e.g. ws://127.0.0.1:8765")
    p.add_argument("--table", default=None, metavar="NAME", help="table name (default: a new random name)")
    p.add_argument("--count", type=int, default=4, metavar="N", help="how many bots, 1 to 4 (default 4)")
    p.add_argument(
        "--policy",
        default="heuristic",
        type=policy_spec,
        metavar="SPEC",
        help=f"bot policy spec NAME[:KEY=VALUE...], NAME one of {', '.join(POLICIES)} (default heuristic)",
    )
    p.add_argument(
        "--password",
        default=os.environ.get("BARBU_PASSWORD"),
        help="server password (default: $BARBU_PASSWORD)",
    )
    p.set_defaults(func=run)


async def _find_or_create(conn: Connection, table: str) -> str:
    """The id of the waiting table named ``table``, created when there is none (three tries on a race)."""
    last: ServerError | None = None
    for _ in range(3):
        for room in await conn.list_rooms():
            if room["kind"] == "barbu" and room["name"] == table and room["state"] == "waiting":
                return str(room["room"])
        try:
            return await patiently(functools.partial(conn.create_table, table))
        except ServerError as exc:
            if exc.code != "name-taken":
                raise
            last = exc
    assert last is not None
    raise last


async def _play_on(conns: list[Connection], i: int, url: str, room: str, policy: Policy) -> dict[str, int]:
    """Play bot ``i``'s seat to the end; after a drop (a server restart, say) come back with its resume token
    (``conns[i]`` becomes the new connection) and play on."""
    while True:
        try:
            return await play_match(conns[i], room, policy)
        except BadReply:
            raise  # the server would send it again: no point coming back
        except ConnectionLost:
            token, since = conns[i].token, conns[i].since()
            await conns[i].close()
            if token is None:
                raise
            conns[i] = await come_back(url, token, client="barbu-bot", version=LATEST_VERSION, since=since)


async def run_bots(url: str, table: str, count: int, policy: str, password: str | None) -> BotsResult:
    """Connect ``count`` bots to ``url``, seat them at ``table`` (created if absent) and play the match;
    a bot whose connection drops comes back with its resume token (``client.bot.come_back``), and a request
    refused for now (``store-unavailable``, ``slow-down``) is sent again after growing pauses for up to a
    minute (``client.bot.patiently``).

    Raises:
        ServerError: the server refused a login, the table, a seat or a resume token.
        ConnectionLost, OSError: the server went away (for good).
    """
    tag = secrets.token_hex(2)
    conns: list[Connection] = []
    try:
        for _ in range(count):
            conns.append(await Connection.connect(url, client=f"barbu-bot/{policy}", version=LATEST_VERSION))
        for i, conn in enumerate(conns):
            # The policy's name only: a spec's options would make the name long and noisy.
            name = f"{policy.partition(':')[0]}-{tag}-{i + 1}"
            # A secret of its own claims the name: nobody else logs in as this bot while it plays.
            await patiently(functools.partial(conn.login, name, password, secrets.token_urlsafe(16)))
        room = await _find_or_create(conns[0], table)
        for conn in conns:
            await patiently(functools.partial(conn.sit, room))
        seed = secrets.randbits(32)
        async with asyncio.TaskGroup() as group:
            games = [
                group.create_task(_play_on(conns, i, url, room, make_policy(policy, seed + i)))
                for i in range(count)
            ]
        totals = games[0].result()
        state = conns[0].rooms.get(room)
        if state is not None and state.view is not None and state.view.get("phase") == "over":
            players, view = state.snapshot.players, state.view  # the last update's view: no need to ask
        else:
            final = await _final_snapshot(conns, url, room)
            players, view = final.players, final.view or {}
        return BotsResult(room, totals, players, list(view.get("history", [])))
    except BaseExceptionGroup as group:
        raise _first(group) from None
    finally:
        for conn in conns:
            await conn.close()


async def _final_snapshot(conns: list[Connection], url: str, room: str) -> Snapshot:
    """The room's snapshot after the match (coming back once more if the connection just dropped)."""
    try:
        return await conns[0].snapshot(room)
    except ConnectionLost:
        token = conns[0].token
        if token is None:
            raise
        await conns[0].close()
        conns[0] = await come_back(url, token, client="barbu-bot", version=LATEST_VERSION)
        return await conns[0].snapshot(room)


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first leaf of an exception group (the bots' task group fails with the first bot's error)."""
    first: BaseException = group
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    return first


def run(args: argparse.Namespace) -> int:
    """Run the bots; exit 0 after a finished match, 1 when the server refuses or goes away, 2 on bad args."""
    if not 1 <= args.count <= 4:
        print("barbu: --count: 1 to 4 bots", file=sys.stderr)
        return 2
    table = args.table or f"bots-{secrets.token_hex(3)}"
    try:
        result = asyncio.run(run_bots(args.server, table, args.count, args.policy, args.password))
    except ServerError as exc:
        print(f"barbu: server refused: {exc}", file=sys.stderr)
        return 1
    except BadReply as exc:
        print(f"barbu: {args.server}: {exc}", file=sys.stderr)
        return 1
    except (OSError, ConnectionLost, WebSocketException, TimeoutError, ProtocolError) as exc:
        print(f"barbu: cannot reach {args.server}: {exc or type(exc).__name__}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 1
    except Exception as exc:  # one line, never a traceback
        print(f"barbu: bots failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"match {result.room}")
    print("totals " + " ".join(f"{s} {result.totals[s]:+d}" for s in SEATS))
    return 0
