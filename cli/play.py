"""``barbu play``: the full-screen terminal client; ``--local`` starts a private server with three bots."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cli.args import seconds

DEFAULT_URL = "ws://127.0.0.1:8765"


def register(sub: Any) -> None:
    """Add ``barbu play`` to the ``barbu`` parser."""
    p = sub.add_parser(
        "play",
        help="play in the terminal (full screen); --local for a game against three bots",
        description="The terminal client: lobby, Barbu tables, solitaire. Press ? in it for the keys.",
    )
    p.add_argument(
        "url",
        nargs="?",
        type=server_url,
        default=DEFAULT_URL,
        help=f"server address, ws://HOST:PORT or wss://HOST[:PORT] (default {DEFAULT_URL})",
    )
    p.add_argument("--name", help="log in with this player name (default: ask)")
    p.add_argument("--password", help="the server password (default: ask if the server wants one)")
    p.add_argument(
        "--local",
        action="store_true",
        help="start a private server on a free loopback port and sit at a table with three bots",
    )
    p.add_argument(
        "--db",
        type=Path,
        help="with --local: the SQLite file (default: local.sqlite3 in $XDG_DATA_HOME/barbu, or in "
        "~/.local/share/barbu)",
    )
    p.add_argument(
        "--bot-delay",
        type=seconds(0, 60),
        default=0.7,
        metavar="SECONDS",
        help="with --local: seconds a bot waits to play (default 0.7)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the client until the user quits; exit status its result, or 1 after one line on stderr when
    standard input or output is not a terminal, or (``--local``) the store cannot be opened or another
    local game holds it."""
    if not _has_terminal():
        print(
            "barbu: the terminal client needs a terminal (standard input and output must not be redirected)",
            file=sys.stderr,
        )
        return 1
    logging.basicConfig(level=logging.CRITICAL)
    status: int = asyncio.run(_main(args))
    return status


def _has_terminal() -> bool:
    """Whether standard input and output are both terminals (the full-screen client reads keys and draws)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


async def _main(args: argparse.Namespace) -> int:
    from client.tui.app import TuiApp
    from client.tui.local import LocalServer, seat_local_player
    from client.tui.tokens import TokenStore
    from server.store import StoreError, StoreInUse

    if not args.local:
        return await TuiApp(args.url, name=args.name, password=args.password).run()
    name = args.name or _user()
    tokens = TokenStore()
    try:
        server = LocalServer(args.db, args.bot_delay)
        await server.start()
    except StoreInUse as exc:
        print(f"barbu: a local game (or barbu serve) is already using this store: {exc}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"barbu: {exc}", file=sys.stderr)
        return 1
    try:
        server.seed_token(tokens, name)
        tui = TuiApp(
            server.url,
            name=name,
            after_login=seat_local_player,
            tokens=tokens,
            server_key=server.key,
            local=True,
        )
        return await tui.run()
    finally:
        await server.stop()


def server_url(text: str) -> str:
    """An argparse type: a server address ``ws://HOST[:PORT]`` or ``wss://HOST[:PORT]`` (``wss`` for TLS)."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a server address ({exc})") from None
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a server address: give ws://HOST:PORT (or wss://HOST for TLS)"
        )
    return text


def _user() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    name = "".join(ch for ch in name if ch.isprintable()).strip()[:24]
    return name if name and not name.lower().startswith("bot:") else "player"
