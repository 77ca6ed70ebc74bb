"""``barbu play --local``: a private server in this process on a free loopback port, with its SQLite file in
the user's data directory (``client.tui.tokens.data_dir``), and a table where three server bots wait for the
player in seat S. The server holds its store's lock while it runs (``server.store``), so a second ``barbu play
--local`` on the same store is refused (``StoreInUse``) rather than run a second server on the file."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from client.tui.tokens import TokenStore, data_dir
from server.app import BarbuServer
from server.config import ServerConfig
from server.store import StoreError

if TYPE_CHECKING:
    from client.tui.app import TuiApp

LOCAL_SEAT = "S"
BOT_SEATS = ("N", "E", "W")


class LocalServer:
    """A server for one player, started and stopped with ``async with``.

    Args:
        db: the SQLite file (default: ``data_dir()/local.sqlite3``); its directory is created if missing.
        bot_delay: seconds each bot waits before playing, so the player can follow the cards.
        bot_policy: the policy spec of the three bots (default: the server's, ``search``).

    Raises:
        StoreError: the store's directory cannot be created.
    """

    def __init__(
        self, db: Path | None = None, bot_delay: float = 0.7, bot_policy: str = ServerConfig.bot_policy
    ):
        if db is None:
            db = data_dir() / "local.sqlite3"
        try:
            db.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{db}: cannot create its directory ({exc.strerror or exc})") from None
        # The store holds this player's resume token: keep it (and SQLite's -wal/-shm files) to this user.
        os.umask(os.umask(0o077) | 0o077)
        self.db = db
        # The store is this user's alone: their token never expires (a seat held there needs it back). Nobody
        # waits for the player but bots: their turn is never handed to a stand-in however long it waits
        # (``idle_turn``; a public server's 5 minutes let a stand-in finish the whole match while the player
        # read the help or played a solitaire).
        self.config = ServerConfig(
            host="127.0.0.1",
            port=0,
            db=str(db),
            bot_delay=bot_delay,
            grace=3600.0,
            token_ttl=math.inf,
            bot_policy=bot_policy,
            idle_turn=None,
        )
        self.server = BarbuServer(self.config)

    @property
    def key(self) -> str:
        """The server's name among the kept resume tokens: its store file (the port changes every run)."""
        return f"local:{self.db.resolve()}"

    def seed_token(self, tokens: TokenStore, name: str) -> None:
        """When ``tokens`` has no token of ``name`` for this server (a store from before tokens were kept),
        take the one in the server's own store: the player of a private server owns it, and a login by name
        would be refused for a seat held there."""
        store = self.server.store
        if tokens.get(self.key, name) is None and store is not None:
            token = store.token_for_player(name)
            if token is not None:
                tokens.put(self.key, name, token)

    @property
    def url(self) -> str:
        """The server's ``ws://127.0.0.1:PORT``."""
        return self.server.url

    async def start(self) -> None:
        """Open the store (taking its lock), restore its rooms and listen; on failure nothing stays open.

        Raises:
            StoreInUse: another barbu server (another ``barbu play --local``) has this store open.
            StoreError: the store cannot be opened (not a barbu store, damaged, a directory).
            OSError: no loopback port could be bound.
        """
        try:
            await self.server.start()
        except BaseException:
            await self.server.stop()
            raise

    async def stop(self) -> None:
        """Stop the server and close the store (releasing its lock)."""
        await self.server.stop()

    async def __aenter__(self) -> LocalServer:
        await self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()


def local_table_name() -> str:
    """A fresh table name (names of open tables must differ)."""
    return time.strftime("game %m-%d %H:%M:%S")


async def seat_local_player(tui: TuiApp) -> None:
    """After the login: back to the Barbu table the player still holds, or a new table with three bots and the
    player in seat S (the match starts when the last bot sits). An unfinished solitaire room the player holds
    is not reopened in place of the table: it stays in the lobby's list (Enter, or ``t``, opens it)."""
    session = tui.session
    if await tui.rejoin_held():
        return
    room = await session.create_table(local_table_name(), {})
    if room is None:
        return
    await tui.sit(room, LOCAL_SEAT)
    for seat in BOT_SEATS:
        await session.add_bot(room, seat)
    tui.model.say("Three bots have joined. Press ? for the keys; Enter plays the selected card.")
