"""``barbu play --local``: a private server in this process on a loopback port (a free one, or ``--port``),
with its SQLite file in the user's data directory (``client.tui.tokens.data_dir``), and a table where three
server bots wait for the player in seat S. The server holds its store's lock while it runs (``server.store``),
so a second ``barbu play --local`` on the same store is refused (``StoreInUse``) rather than run a second
server on the file.

While it runs, the server's address is kept in a file next to the store (``address_file``: the port changes
every run), so that ``barbu play --local --watch`` in another terminal finds it and watches the game
(``watch_local_game``)."""

from __future__ import annotations

import contextlib
import math
import os
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from client.tui.tokens import TokenStore, data_dir
from server.app import BarbuServer
from server.config import ServerConfig
from server.lobby import fold
from server.store import StoreError

if TYPE_CHECKING:
    from client.tui.app import TuiApp

LOCAL_SEAT = "S"
BOT_SEATS = ("N", "E", "W")


def default_db() -> Path:
    """The store of ``barbu play --local`` when no ``--db`` is given: ``data_dir()/local.sqlite3``."""
    return data_dir() / "local.sqlite3"


def address_file(db: Path) -> Path:
    """The file next to store ``db`` holding the address (``ws://127.0.0.1:PORT``) of the local game running
    on it: ``local.sqlite3.url`` for ``local.sqlite3``."""
    return db.with_name(db.name + ".url")


def _address_lines(db: Path) -> list[str]:
    """The lines of ``address_file(db)``: the address, then the name of the game's player; none when the
    file cannot be read."""
    try:
        return address_file(db).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def read_address(db: Path) -> str | None:
    """The address kept in ``address_file(db)``, or None when there is none (no local game runs on ``db``, or
    one stopped without removing it: killed, say; whether it answers is for the caller to try)."""
    lines = _address_lines(db)
    text = lines[0].strip() if lines else ""
    return text if text.startswith("ws://") else None


def read_player(db: Path) -> str | None:
    """The name of the player of the local game running on ``db``, kept in ``address_file(db)`` after its
    address; None when none is kept (no game runs, or one from before names were kept)."""
    lines = _address_lines(db)
    name = lines[1].strip() if len(lines) > 1 else ""
    return name or None


def watcher_name(name: str, player: str | None) -> str:
    """The name a ``--watch`` terminal logs in as when asked for ``name``: ``name`` itself, unless it is the
    player's (as the server compares names, ``fold``), whose login would take the player's session and seat
    from the playing terminal: then ``NAME-watch``, within the 24 letters of a name."""
    if player is None or fold(name) != fold(player):
        return name
    return f"{name[:18]}-watch"


def store_key(db: Path) -> str:
    """The name among the kept resume tokens of the local game on store ``db``, for its player and its
    watchers alike: its store file, as the port changes every run."""
    return f"local:{db.resolve()}"


def play_command(db: Path, watch: bool = False) -> str:
    """The command that plays (``watch``: watches from another terminal) the local game on store ``db``:
    ``barbu play --local --watch``, with ``--db`` unless ``db`` is the default store."""
    words = ["barbu play --local", "--watch" if watch else ""]
    if db.resolve() != default_db().resolve():
        words.append(f"--db {db}")
    return " ".join(w for w in words if w)


class LocalServer:
    """A server for one player, started and stopped with ``async with``.

    Args:
        db: the SQLite file (default: ``data_dir()/local.sqlite3``); its directory is created if missing.
        bot_delay: seconds each bot waits before playing, so the player can follow the cards.
        bot_policy: the policy spec of the three bots (default: the server's, ``search``).
        port: the loopback port to listen on (0: a free one, chosen anew each run).
        player: the name of the game's player, kept after the address for ``--watch`` (``watcher_name``).

    Raises:
        StoreError: the store's directory cannot be created.
    """

    def __init__(
        self,
        db: Path | None = None,
        bot_delay: float = 0.7,
        bot_policy: str = ServerConfig.bot_policy,
        port: int = 0,
        player: str = "",
    ):
        if db is None:
            db = default_db()
        try:
            db.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{db}: cannot create its directory ({exc.strerror or exc})") from None
        # The store holds this player's resume token: keep it (and SQLite's -wal/-shm files) to this user.
        os.umask(os.umask(0o077) | 0o077)
        self.db = db
        self.player = player
        # The store is this user's alone: their token never expires (a seat held there needs it back). Nobody
        # waits for the player but bots: their turn is never handed to a stand-in however long it waits
        # (``idle_turn``; a public server's 5 minutes let a stand-in finish the whole match while the player
        # read the help or played a solitaire).
        self.config = ServerConfig(
            host="127.0.0.1",
            port=port,
            db=str(db),
            bot_delay=bot_delay,
            grace=3600.0,
            token_ttl=math.inf,
            bot_policy=bot_policy,
            idle_turn=None,
        )
        self.server = BarbuServer(self.config)
        #: The address this game wrote in ``address_file`` (None: none written, or removed).
        self._written: str | None = None

    @property
    def key(self) -> str:
        """The server's name among the kept resume tokens: its store file (``store_key``)."""
        return store_key(self.db)

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
        """Open the store (taking its lock), restore its rooms and listen, then write the address next to
        the store (``address_file``); on failure nothing stays open.

        Raises:
            StoreInUse: another barbu server (another ``barbu play --local``) has this store open.
            StoreError: the store cannot be opened (not a barbu store, damaged, a directory).
            OSError: the loopback port could not be bound (``port`` taken, or none free).
        """
        try:
            await self.server.start()
        except BaseException:
            await self.server.stop()
            raise
        # Only a watcher needs the file: a game that cannot write it (a directory in its place) plays on,
        # and says its address on the table's log all the same.
        with contextlib.suppress(OSError):
            address_file(self.db).write_text(f"{self.url}\n{self.player}\n", encoding="utf-8")
            self._written = self.url

    async def stop(self) -> None:
        """Stop the server and close the store (releasing its lock); the address file goes with it."""
        if self._written is not None and read_address(self.db) == self._written:  # not a later game's
            with contextlib.suppress(OSError):
                address_file(self.db).unlink()
        self._written = None
        await self.server.stop()

    def watch_hint(self) -> str:
        """How to watch this game from another terminal, said on the table's log."""
        return (
            f"To watch from another terminal: {play_command(self.db, watch=True)} (or barbu play {self.url})."
        )

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


async def seat_local_player(tui: TuiApp, watch_hint: str = "") -> None:
    """After the login: back to the Barbu table the player still holds, or a new table with three bots and the
    player in seat S (the match starts when the last bot sits). An unfinished solitaire room the player holds
    is not reopened in place of the table: it stays in the lobby's list (Enter, or ``t``, opens it).
    ``watch_hint`` (``LocalServer.watch_hint``) is said at the table either way: how another terminal
    watches the game."""
    session = tui.session
    if await tui.rejoin_held():
        if watch_hint:
            tui.model.say(watch_hint)
        return
    room = await session.create_table(local_table_name(), {})
    if room is None:
        return
    await tui.sit(room, LOCAL_SEAT)
    for seat in BOT_SEATS:
        await session.add_bot(room, seat)
    said = "Three bots have joined. Press ? for the keys; Enter plays the selected card."
    tui.model.say(f"{said} {watch_hint}" if watch_hint else said)


def local_game(rooms: list[dict[str, Any]]) -> str | None:
    """The room of the game ``barbu play --local`` plays among the lobby's ``rooms``: the newest Barbu table
    in play (the local player's; one over is a match they finished, one waiting was opened from the lobby),
    else the newest waiting, else the newest finished; None when there is no table at all."""

    def newest(room: dict[str, Any]) -> tuple[int, int]:
        number = str(room.get("room"))
        state = {"playing": 2, "waiting": 1}.get(str(room.get("state")), 0)
        return state, int(number) if number.isdigit() else 0

    tables = sorted((r for r in rooms if r.get("kind") == "barbu"), key=newest)
    return str(tables[-1]["room"]) if tables else None


async def watch_local_game(tui: TuiApp, renamed_from: str = "") -> None:
    """After the login of ``barbu play --local --watch``: watch the local game's table (``local_game``); with
    no table there, stay in the lobby and say so. ``renamed_from``: the name asked for, the player's, which
    this terminal does not log in as (``watcher_name``): said too."""
    await tui.session.refresh_rooms()
    room = local_game(tui.model.rooms)
    if room is None:
        tui.model.say("No Barbu table is open on this local server yet: the lobby lists what there is.")
    else:
        await tui.watch(room)
    if renamed_from:
        tui.model.say(
            f"You watch as {tui.model.name}: {renamed_from} is the player's name, and a login as "
            f"{renamed_from} would take the seat from the playing terminal."
        )


def watch_options(db: Path, name: str) -> dict[str, Any]:
    """The ``TuiApp`` options of ``barbu play --local --watch`` asked to log in as ``name`` on store ``db``:
    the watcher's own name (``watcher_name``: never the player's), its watching of the local game, its
    finding the game again when it is run again on another port, and its following the players to their
    next match (``local_game``)."""
    login = watcher_name(name, read_player(db))
    renamed_from = name if login != name else ""

    async def after_login(tui: TuiApp) -> None:
        await watch_local_game(tui, renamed_from)

    return {
        "name": login,
        "after_login": after_login,
        "server_key": store_key(db),
        "locate": lambda: read_address(db),  # the game run again listens on another port
        "follow": local_game,  # to the players' next match, or their table after a restart
    }
