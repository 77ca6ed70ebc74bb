"""``barbu play``: the full-screen terminal client; ``--local`` starts a private server with three bots."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
from pathlib import Path
from typing import Any

DEFAULT_URL = "ws://127.0.0.1:8765"


def register(sub: Any) -> None:
    """Add ``barbu play`` to the ``barbu`` parser."""
    p = sub.add_parser(
        "play",
        help="play in the terminal (full screen); --local for a game against three bots",
        description="The terminal client: lobby, Barbu tables, solitaire. Press ? in it for the keys.",
    )
    p.add_argument("url", nargs="?", default=DEFAULT_URL, help=f"server address (default {DEFAULT_URL})")
    p.add_argument("--name", help="log in with this player name (default: ask)")
    p.add_argument("--password", help="the server password (default: ask if the server wants one)")
    p.add_argument(
        "--local",
        action="store_true",
        help="start a private server on a free loopback port and sit at a table with three bots",
    )
    p.add_argument("--db", type=Path, help="with --local: the SQLite file (default: ~/.local/share/barbu)")
    p.add_argument("--bot-delay", type=float, default=0.7, help="with --local: seconds a bot waits to play")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the client until the user quits."""
    logging.basicConfig(level=logging.CRITICAL)
    status: int = asyncio.run(_main(args))
    return status


async def _main(args: argparse.Namespace) -> int:
    from client.tui.app import TuiApp
    from client.tui.local import LocalServer, seat_local_player
    from client.tui.tokens import TokenStore

    if not args.local:
        return await TuiApp(args.url, name=args.name, password=args.password).run()
    name = args.name or _user()
    tokens = TokenStore()
    async with LocalServer(args.db, args.bot_delay) as server:
        server.seed_token(tokens, name)
        tui = TuiApp(
            server.url, name=name, after_login=seat_local_player, tokens=tokens, server_key=server.key
        )
        return await tui.run()


def _user() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    name = "".join(ch for ch in name if ch.isprintable()).strip()[:24]
    return name if name and not name.lower().startswith("bot:") else "player"
