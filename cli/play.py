"""``barbu play``: the full-screen terminal client; ``--local`` starts a private server with three bots, and
``--local --watch`` watches that game from another terminal (its address is kept next to its store)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import logging
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cli.args import port, seconds

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
        "--port",
        type=port,
        default=0,
        help="with --local: listen on this loopback port (default: a free one, new every run)",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="with --local: watch the local game running in another terminal (found by its store: --db), "
        "as NAME-watch unless --name is given (the player's own name watches as NAME-watch too)",
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
    local game holds it; 2 when ``--watch`` or ``--port`` come without ``--local``."""
    lone = [flag for flag, given in (("--watch", args.watch), ("--port", args.port)) if given]
    if lone and not args.local:
        print(f"barbu play: {lone[0]} goes with --local (barbu play --local {lone[0]} ...)", file=sys.stderr)
        return 2
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
    from client.tui.local import (
        LocalServer,
        default_db,
        play_command,
        read_address,
        seat_local_player,
    )
    from client.tui.tokens import TokenStore
    from server.store import StoreError, StoreInUse

    if not args.local:
        return await TuiApp(args.url, name=args.name, password=args.password).run()
    db = args.db if args.db is not None else default_db()
    if args.watch:
        return await _watch(db, args.name or f"{_user()[:18]}-watch")
    name = args.name or _user()
    tokens = TokenStore()
    try:
        server = LocalServer(db, args.bot_delay, port=args.port, player=name)
        await server.start()
    except StoreInUse as exc:
        running = read_address(db)
        if running is not None:  # a local game: the user may well want to watch it
            print(
                f"barbu: a local game is already running on this store, at {running}: watch it with "
                f"{play_command(db, watch=True)}",
                file=sys.stderr,
            )
        else:
            print(f"barbu: a local game (or barbu serve) is already using this store: {exc}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"barbu: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # --port taken
        print(f"barbu: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        server.seed_token(tokens, name)
        hint = server.watch_hint()
        tui = TuiApp(
            server.url,
            name=name,
            after_login=lambda tui: seat_local_player(tui, hint),
            tokens=tokens,
            server_key=server.key,
            local=True,
        )
        return await tui.run()
    finally:
        await server.stop()


async def _watch(db: Path, name: str) -> int:
    """``--local --watch``: watch the local game running on store ``db`` as ``name`` (not the player's:
    ``watcher_name``), found at the address
    kept next to it; 1 after one line on stderr when no game runs there (no address kept, or nothing answers
    at it: the game was killed)."""
    from client.tui.app import TuiApp
    from client.tui.local import address_file, play_command, read_address, watch_options

    url = read_address(db)
    start = f"start one with {play_command(db)}"
    if url is None:
        print(f"barbu: no local game is running on {db} ({start})", file=sys.stderr)
        return 1
    parts = urlsplit(url)
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(parts.hostname, parts.port), 5)
    except (OSError, TimeoutError, ValueError):
        print(
            f"barbu: no local game answers at {url} (kept in {address_file(db)}): {start}",
            file=sys.stderr,
        )
        return 1
    writer.close()  # it answers: the client connects for itself
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    tui = TuiApp(url, **watch_options(db, name))
    status: int = await tui.run()
    return status


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
