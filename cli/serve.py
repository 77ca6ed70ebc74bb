"""``barbu serve`` (the server) and ``barbu demo`` (a local server and four bots playing one match over real
WebSockets, then the score sheet and where the record is)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import ipaddress
import logging
import os
import shlex
import signal
import sqlite3
import sys
from pathlib import Path

from cli.args import policy_spec, port, positive, seconds, whole
from cli.bot import BotsResult, run_bots
from client.sheet import score_sheet
from engine.barbu import POLICIES
from protocol import Login
from server import BarbuServer, ServerConfig, StoreError, run_server
from server.hosts import host_name
from server.origins import origin_key


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` and ``demo`` to the ``barbu`` parser."""
    p = sub.add_parser(
        "serve",
        help="run the game server",
        description="Run the Barbu WebSocket server (msgpack or JSON protocol, docs/protocol.md) until "
        "SIGINT/SIGTERM. GET / serves the browser client (it prints the address to share); GET /healthz "
        "answers 'ok' over plain HTTP.",
    )
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=port, default=8765, help="TCP port (default 8765; 0 = any free port)")
    p.add_argument(
        "--db", default="barbu.sqlite3", metavar="PATH", help="SQLite store (default barbu.sqlite3)"
    )
    p.add_argument(
        "--password",
        default=os.environ.get("BARBU_PASSWORD"),
        help="server password players must give at login (default: $BARBU_PASSWORD, else none)",
    )
    p.add_argument(
        "--grace",
        type=seconds(0, 3600),
        default=60.0,
        metavar="SECONDS",
        help="default seconds a dropped player's seat is held before a stand-in bot plays it, or before it is"
        " freed at a table waiting for players (default 60)",
    )
    p.add_argument(
        "--bot-delay",
        type=seconds(0, 60),
        default=0.3,
        metavar="SECONDS",
        help="seconds a server or stand-in bot waits before acting (default 0.3)",
    )
    p.add_argument(
        "--bot-policy",
        type=policy_spec,
        default=ServerConfig.bot_policy,
        metavar="SPEC",
        help="policy spec of a table's bots and stand-ins when its creator names none "
        f"(default {ServerConfig.bot_policy})",
    )
    p.add_argument(
        "--workers",
        type=whole(1, 64),
        default=ServerConfig.workers,
        metavar="N",
        help="worker processes for solver hints and search bots (default 1: the other core stays with "
        "the players' moves)",
    )
    p.add_argument(
        "--request-rate",
        type=positive,
        default=ServerConfig.request_rate,
        metavar="N",
        help="requests per second one connection may send on average; more get 'slow-down' (default 200)",
    )
    p.add_argument(
        "--request-burst",
        type=positive,
        default=ServerConfig.request_burst,
        metavar="N",
        help="requests one connection may send back to back before --request-rate applies (default 400)",
    )
    p.add_argument(
        "--address-request-rate",
        type=positive,
        default=None,
        metavar="N",
        help="requests per second all connections from one IP address may send together (default 5 times "
        "--request-rate; behind a reverse proxy everyone shares its address: raise it)",
    )
    p.add_argument(
        "--address-request-burst",
        type=positive,
        default=None,
        metavar="N",
        help="requests one address's connections may send back to back (default 5 times --request-burst)",
    )
    p.add_argument(
        "--token-days",
        type=positive,
        default=ServerConfig.token_ttl / 86400,
        metavar="DAYS",
        help="days a resume token works unused; each login or resume hands out a fresh one (default 30)",
    )
    p.add_argument(
        "--hint-budget",
        type=seconds(0, 60, above_low=True),
        default=ServerConfig.hint_budget,
        metavar="SECONDS",
        help=f"seconds the solver may search for a solitaire hint (default {ServerConfig.hint_budget:g})",
    )
    p.add_argument(
        "--max-connections",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_connections,
        metavar="N",
        help="connections held at most; more get HTTP 503 before the upgrade (default 2000)",
    )
    p.add_argument(
        "--max-connections-per-address",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_connections_per_address,
        metavar="N",
        help="connections one IP address may hold (HTTP 503 beyond; default 100; behind a reverse proxy, "
        "where all share its address, raise it to --max-connections)",
    )
    p.add_argument(
        "--max-tables",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_tables,
        metavar="N",
        help="Barbu tables held at most (default 1000)",
    )
    p.add_argument(
        "--max-tables-per-player",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_tables_per_player,
        metavar="N",
        help="tables not over (waiting or playing) one player may host "
        f"(default {ServerConfig.max_tables_per_player})",
    )
    p.add_argument(
        "--max-tables-per-address",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_tables_per_address,
        metavar="N",
        help="tables not over that the players of one IP address may have created "
        f"(default {ServerConfig.max_tables_per_address}; behind a reverse proxy raise it to --max-tables)",
    )
    p.add_argument(
        "--max-solitaire-rooms",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_solitaire_rooms,
        metavar="N",
        help="solitaire rooms held at most, counted apart from the tables (default 1000)",
    )
    p.add_argument(
        "--max-solitaire-rooms-per-address",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_solitaire_rooms_per_address,
        metavar="N",
        help="solitaire rooms the players of one IP address may hold "
        f"(default {ServerConfig.max_solitaire_rooms_per_address}; behind a reverse proxy raise it)",
    )
    p.add_argument(
        "--deals-per-minute",
        type=whole(1, 1_000_000),
        default=ServerConfig.deals_per_minute,
        metavar="N",
        help="solitaire rooms (new deals) the players of one IP address may open a minute "
        f"(default {ServerConfig.deals_per_minute}; behind a reverse proxy raise it)",
    )
    p.add_argument(
        "--secret-hashes-per-minute",
        type=whole(1, 1_000_000),
        default=ServerConfig.secret_hashes_per_minute,
        metavar="N",
        help="personal passwords the logins of one IP address may have hashed (claimed or checked) a minute "
        f"(default {ServerConfig.secret_hashes_per_minute}; behind a reverse proxy raise it)",
    )
    p.add_argument(
        "--max-bot-time",
        type=seconds(0, 60, above_low=True),
        default=ServerConfig.max_bot_time,
        metavar="SECONDS",
        help="most a server bot may think about one decision; a table asking more is refused "
        f"(default {ServerConfig.max_bot_time:g})",
    )
    p.add_argument(
        "--max-spectators",
        type=whole(1, 100_000),
        default=ServerConfig.max_spectators,
        metavar="N",
        help=f"spectators one room holds at most (default {ServerConfig.max_spectators})",
    )
    p.add_argument(
        "--max-spectators-per-address",
        type=whole(1, 100_000),
        default=ServerConfig.max_spectators_per_address,
        metavar="N",
        help="spectators of one room from one IP address at most "
        f"(default {ServerConfig.max_spectators_per_address}; behind a reverse proxy raise it)",
    )
    p.add_argument(
        "--max-waiting-seats",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_waiting_seats,
        metavar="N",
        help=f"tables waiting for players one player may sit at (default {ServerConfig.max_waiting_seats})",
    )
    p.add_argument(
        "--max-waiting-seats-per-address",
        type=whole(1, 1_000_000),
        default=ServerConfig.max_waiting_seats_per_address,
        metavar="N",
        help="seats at tables waiting for players the players of one IP address may hold "
        f"(default {ServerConfig.max_waiting_seats_per_address}; behind a reverse proxy raise it)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        type=ip_address,
        default=[],
        metavar="ADDRESS",
        help="the IP address of a reverse proxy in front of the server (repeat for several): its connections "
        "count, for every per-address cap, as the client its X-Forwarded-For header names (deploy/README.md)",
    )
    p.add_argument(
        "--allowed-origin",
        action="append",
        type=web_origin,
        default=[],
        metavar="ORIGIN",
        help="an origin (http(s)://HOST[:PORT]) whose pages may open the WebSocket besides the server's own "
        "(repeat for several): a TLS proxy serving the page under another name (deploy/README.md); "
        "programs, which send no Origin, always may",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        type=allowed_host,
        default=[],
        metavar="NAME",
        help="a DNS name (no port) browsers may reach the server under besides its addresses, localhost, "
        "--host and the --allowed-origin hosts (repeat for several): any other name is refused, against DNS "
        "rebinding; programs, which send no Origin, are not concerned",
    )
    p.add_argument(
        "--idle-turn",
        type=seconds(0, 7 * 86400),
        default=ServerConfig.idle_turn,
        metavar="SECONDS",
        help="at a table without a turn timer, a stand-in bot takes the seat of a player who leaves their "
        "turn unplayed this long; 0: never (default 300)",
    )
    p.add_argument(
        "--solitaire-idle",
        type=seconds(1, 365 * 86400),
        default=ServerConfig.solitaire_idle,
        metavar="SECONDS",
        help="an unfinished solitaire room without a move this long is finished, its record kept "
        "(default 86400: a day)",
    )
    p.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    p.set_defaults(func=run_serve)
    d = sub.add_parser(
        "demo",
        help="a local server and four bots play one match over WebSockets",
        description="Start a server on a free loopback port, connect four bots to one table, play a full "
        "match over real WebSockets, print the score sheet and where the record is stored.",
    )
    d.add_argument(
        "--db", default="barbu-demo.sqlite3", metavar="PATH", help="store (default barbu-demo.sqlite3)"
    )
    d.add_argument(
        "--policy",
        default="heuristic",
        type=policy_spec,
        metavar="SPEC",
        help=f"bot policy spec NAME[:KEY=VALUE...], NAME one of {', '.join(POLICIES)} (default heuristic)",
    )
    d.set_defaults(func=run_demo)


def ip_address(text: str) -> str:
    """An argparse type: an IP address (v4 or v6), as the server's sockets write it."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an IP address") from None


def web_origin(text: str) -> str:
    """An argparse type: a web origin, ``http(s)://HOST[:PORT]`` (``server.origins.origin_key``)."""
    try:
        origin_key(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def allowed_host(text: str) -> str:
    """An argparse type: a bare host name (``server.hosts.host_name``)."""
    try:
        return host_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def login_limit(name: str) -> int:
    """The longest value field ``name`` of a ``login`` request may hold (``protocol.messages.Login``)."""
    field = next(f for f in dataclasses.fields(Login) if f.name == name)
    return int(field.metadata["max_len"])


def run_serve(args: argparse.Namespace) -> int:
    """Serve until a signal; exit 0, or 1 (one line on stderr) when ``--password`` is longer than a login may
    carry, or the address or the store cannot be opened
    (not a barbu store, damaged, another program's database, or in use by another server) or the store
    fails."""
    longest = login_limit("password")
    if args.password and len(args.password) > longest:  # every login would be refused
        print(
            f"barbu: --password is {len(args.password)} characters long; a login carries {longest} at most",
            file=sys.stderr,
        )
        return 1
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # A file-size limit reached (ulimit -f) must fail the write (EFBIG: the store refuses the action and
    # retries later), not kill the server.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        db=args.db,
        password=args.password or None,
        grace=args.grace,
        bot_delay=args.bot_delay,
        bot_policy=args.bot_policy,
        workers=args.workers,
        request_rate=args.request_rate,
        request_burst=args.request_burst,
        address_request_rate=args.address_request_rate,
        address_request_burst=args.address_request_burst,
        token_ttl=args.token_days * 86400,
        hint_budget=args.hint_budget,
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
        max_tables=args.max_tables,
        max_tables_per_player=args.max_tables_per_player,
        max_tables_per_address=args.max_tables_per_address,
        max_solitaire_rooms=args.max_solitaire_rooms,
        max_solitaire_rooms_per_address=args.max_solitaire_rooms_per_address,
        deals_per_minute=args.deals_per_minute,
        secret_hashes_per_minute=args.secret_hashes_per_minute,
        solitaire_idle=args.solitaire_idle,
        max_spectators=args.max_spectators,
        max_spectators_per_address=args.max_spectators_per_address,
        max_waiting_seats=args.max_waiting_seats,
        max_waiting_seats_per_address=args.max_waiting_seats_per_address,
        idle_turn=args.idle_turn or None,
        trusted_proxies=tuple(args.trusted_proxy),
        allowed_origins=tuple(args.allowed_origin),
        allowed_hosts=tuple(args.allowed_host),
        max_bot_time=args.max_bot_time,
    )
    try:
        asyncio.run(run_server(config))
    except StoreError as exc:
        print(f"barbu: {exc}", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(f"barbu: {args.db}: the store failed ({exc})", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"barbu: cannot serve on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    return 0


async def _demo(db: str, policy: str) -> tuple[str, BotsResult]:
    config = ServerConfig(host="127.0.0.1", port=0, db=db, bot_delay=0.0)
    async with BarbuServer(config) as server:
        print(
            f"server on {server.url}, store {db}; four {policy} bots playing over WebSockets...", flush=True
        )
        result = await run_bots(server.url, "demo", 4, policy, None)
        return server.url, result


def run_demo(args: argparse.Namespace) -> int:
    """Play the demo match; exit 0, or 1 (one line on stderr) when the store cannot be opened."""
    db = str(Path(args.db).resolve())
    try:
        _, result = asyncio.run(_demo(db, args.policy))
    except StoreError as exc:
        print(f"barbu: {exc}", file=sys.stderr)
        return 1
    players = {seat: str(name) for seat, name in result.players.items() if name}
    print(score_sheet(result.history, players))
    print(f"\nmatch id {result.room} ({len(result.history)} hands) stored in {db}")
    print(f"record:  barbu export --db {shlex.quote(db)} {result.room}")
    print(f"matches: barbu matches --db {shlex.quote(db)}")
    return 0
