"""The SQLite store: players and their resume tokens, rooms, each room's action log, records, results.

One file, WAL mode, stdlib ``sqlite3``; the server owns one ``Store`` and uses it from its event-loop thread
only. Schema (version 1):

- ``players(name, token, created, used, prev, secret)``: one row per player name (deleted once their tokens
  stopped working and they hold nothing: ``forget_players``); ``token`` is the newest resume
  token, ``used`` when it was last used: handed out (a ``login`` or ``resume``), or its player still
  connected (``touch_tokens``: at the end of a connection and now and then during it); 0 when revoked by a
  version before ``revoke_tokens`` replaced the tokens instead,
  ``prev`` the token a ``resume`` replaced while ``token`` has not been used yet (NULL after a ``login``,
  and once the fresh token is used: ``confirm_token``): it still works, so a player whose connection or
  server dropped before the new token reached them is not locked out (``rotate_token``); ``secret`` the
  salted scrypt hash of the player's personal secret (``server.identity``), NULL for a name that never
  claimed one (added to older stores on open: their names claim one at their next login).
- ``rooms(id, kind, name, config, players, status, created, updated, record)``: one row per room. ``kind`` is
  ``barbu`` (a table: one match) or ``solitaire``; ``config`` is the JSON needed to rebuild the game from its
  log (Barbu: ``seed``, ``variants``, ``first_declarer``, ``turn_time``, ``grace``, ``bot_policy``,
  ``host``, and for a table opened by ``rematch`` ``rematch_of``, the finished table it follows, so a restart
  finds that table's ``rematch`` again; solitaire: ``game``, ``options``, ``seed``, ``daily``) and ``origin``,
  a keyed hash of the IP address the room was opened from (``Lobby.address_key``: per-address caps hold
  after a restart); ``players`` maps seat letters to player names (``bot:<policy>`` for bots;
  solitaire: ``{"player": name}``); ``status`` is ``waiting``, ``playing``, ``over`` or
  ``closed`` (abandoned before the start); ``record`` is the finished game's record JSON (``barbu-match/1``
  or ``solitaire/1``).
- ``actions(room, seq, seat, action, at)``: every accepted action in order (``seq`` from 1), ``seat`` 0..3 or
  NULL (solitaire), ``action`` its wire form as JSON, ``at`` Unix time in seconds.
- ``results(day, game, player, room, won, score, moves)``: the day's results table of each game: one row per
  player, game and day, the first day's-deal game the player finished (later ones are not added).
- ``chat(id, room, name, text, at, watching)``: the last chat lines of each Barbu table (``add_chat`` keeps
  the newest ``keep`` of a room), so they come back after a restart and follow the players to a rematch;
  ``watching`` 1 when the sender had no seat at the table. Added to older stores on open (no new schema
  version: nothing else changed), and ``watching`` to older ``chat`` tables, 0 in their lines.
- ``winnable(list, seed, found)``: the seeds the server proved winnable itself, for option sets no shipped
  list covers (``server.winnable_finder``), by list name (``engine.solitaire.winnable.list_key``, e.g.
  ``pyramid draw=3 stock-top=true``), with when each was found. Added to older stores on open, as ``chat``.
- ``meta(key, value)``: ``schema`` (the schema version), ``daily-secret`` (the random secret the day's
  deals are derived from, created on first use and kept), ``origin-secret`` (the key of the rooms'
  ``origin`` hashes, the same), ``password-salt`` and ``password-check`` (a salted
  scrypt hash of the server password the tokens were handed out under: ``server.tokens``), ``store-id``
  (32 hex digits drawn when the store is created, or first opened for writing by a version that keeps it;
  also kept in the marker ``REALPATH.id`` beside the file: ``server.store_marker``).

Times are Unix seconds (float). Opening refuses, with a ``StoreError`` naming the file and the reason, a file
that is not a barbu store (not SQLite, damaged, another program's database, a newer schema) or that another
server holds (``StoreInUse``); for writing, also a missing or empty file where a store was (its marker,
``-wal``, ``-shm`` or a killed server's lock beside it) and a store that is not the one its marker names, and
it logs a WARNING when the ``-wal`` is torn (``server.wal``). A write SQLite cannot make (disk full, I/O
error, file too large: an ``OperationalError`` or ``DatabaseError`` other than an ``IntegrityError``) raises
``StoreUnavailable`` and has no effect; the same ``Store`` writes again once the cause is gone. Several writes that must happen
together go in one ``transaction()``.

Durability: ``synchronous=FULL`` in WAL mode, so a write has reached the disk (fsync) before its method
returns: what the server acknowledges survives a power loss, not only a crash of the process. The server
opens its store with ``group_commit=True`` instead: a write returns once SQLite has written it to the WAL
file (``synchronous=NORMAL``: no fsync in the event loop), ``commits`` counts the writes so far, and
``server.durability.GroupCommit`` fsyncs the WAL in a thread of its own, one fsync for every write made
meanwhile, and checkpoints it there (keeping it near ``WAL_LIMIT`` bytes); the server sends nothing (no reply, no broadcast) until the writes made
before it was queued are on disk. A failed fsync makes the store ``broken``: every later write raises
``StoreUnavailable``. Opening for writing and ``close`` empty the WAL (a ``TRUNCATE`` checkpoint): a large
log left by a crash does not stay on disk.

One writer: ``Store(path)`` takes an exclusive ``flock`` on ``REALPATH.lock`` (created next to the store's
real file, holding the owner's pid, removed by ``close``) and one on the store file itself (the same file
reached by a symbolic or hard link is the same lock) for as long as it is open, so two servers never share a
file; the kernel drops the locks when the process dies, so after a crash the lock file left behind is free to
take. ``Store(path, readonly=True)`` (``barbu matches``, ``barbu export``) takes no lock, reads while a
server writes, and never creates or changes anything: the ``-wal``/``-shm`` files SQLite makes beside a
store that had none are removed again on ``close`` when no server has started on it meanwhile.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import math
import os
import resource
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from server import store_marker, wal

SCHEMA_VERSION = 1
ROOM_STATUSES = ("waiting", "playing", "over", "closed")
#: Bytes the WAL file is cut back to when SQLite starts it over (``PRAGMA journal_size_limit``): a log that
#: grew in a burst does not keep its size on disk. ``GroupCommit`` starts the log over once it passes this.
WAL_LIMIT = 4 << 20

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players(
    name TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, created REAL NOT NULL, used REAL NOT NULL DEFAULT 0,
    prev TEXT, secret TEXT);
CREATE TABLE IF NOT EXISTS rooms(
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, name TEXT NOT NULL, config TEXT NOT NULL,
    players TEXT NOT NULL DEFAULT '{}', status TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
    record TEXT);
CREATE INDEX IF NOT EXISTS rooms_status ON rooms(status);
CREATE TABLE IF NOT EXISTS actions(
    room INTEGER NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL, seat INTEGER, action TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY(room, seq));
CREATE TABLE IF NOT EXISTS results(
    day TEXT NOT NULL, game TEXT NOT NULL, player TEXT NOT NULL, room INTEGER NOT NULL REFERENCES rooms(id),
    won INTEGER NOT NULL, score INTEGER NOT NULL, moves INTEGER NOT NULL, PRIMARY KEY(room, player));
CREATE INDEX IF NOT EXISTS results_day ON results(day, game);
CREATE TABLE IF NOT EXISTS chat(
    id INTEGER PRIMARY KEY, room INTEGER NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL,
    watching INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS chat_room ON chat(room, id);
CREATE TABLE IF NOT EXISTS winnable(
    list TEXT NOT NULL, seed INTEGER NOT NULL, found REAL NOT NULL, PRIMARY KEY(list, seed));
"""


class StoreError(Exception):
    """The store cannot be used: the file is missing (read-only), is not a barbu store of a schema version
    this code reads, cannot be opened, or is held by another server; or a row is missing. ``str()`` is one
    line naming the file and the reason, e.g. ``c.sqlite3: not a barbu store (file is not a database)``."""


class StoreUnavailable(StoreError):
    """SQLite could not write (disk full, I/O error, file too large, read-only): the write, and the
    ``transaction()`` it was part of, had no effect. The store may write again later (space freed, limit
    lifted); callers leave their state as it was and retry or refuse the request (``store-unavailable``)."""


class StoreInUse(StoreError):
    """Another process holds the store's lock: a barbu server is running on it.

    Attributes:
        path: the store file, as given.
        pid: the process id written in the lock file by the holder, or None when it cannot be read.
    """

    def __init__(self, path: str, pid: int | None):
        self.path = path
        self.pid = pid
        by = "another barbu server" if pid is None else f"another barbu server (pid {pid})"
        super().__init__(f"the store {path} is in use by {by}")


class ChatLine(TypedDict):
    """A chat line as a table keeps it and its snapshots send it: who said it (``name``), what (``text``),
    and whether they watched the table then (``watching``: no seat theirs)."""

    name: str
    text: str
    watching: bool


@dataclass(frozen=True)
class RoomRow:
    """One row of ``rooms``, JSON columns decoded (see the module docstring for the fields)."""

    id: int
    kind: str
    name: str
    config: dict[str, Any]
    players: dict[str, str]
    status: str
    created: float
    updated: float
    record: dict[str, Any] | None


class BadLog(ValueError):
    """Room ``room``'s action log does not replay: action ``seq`` (from 1) does not decode, breaks the
    sequence or is refused by the game, for ``reason``. ``str()`` is ``room R: action S REASON``."""

    def __init__(self, room: int, seq: int, reason: str):
        self.room = room
        self.seq = seq
        self.reason = reason
        super().__init__(f"room {room}: action {seq} {reason}")


@dataclass(frozen=True)
class LoggedAction:
    """One row of ``actions``: action number ``seq`` (from 1) by ``seat`` (None: no seat), wire ``action``,
    accepted at Unix time ``at`` (seconds)."""

    seq: int
    seat: int | None
    action: Any
    at: float


class Store:
    """The server's SQLite file, created with its schema when missing or empty.

    Args:
        path: the SQLite file.
        readonly: open for reading only (``mode=ro``): no lock, nothing created, migrated or written; the
            file must exist and hold a barbu store. Writing methods then raise ``StoreUnavailable``.
        group_commit: writes are not fsynced before they return, and SQLite does not checkpoint by itself:
            the owner runs a ``server.durability.GroupCommit`` on the store, which does both in a thread and
            says when the writes counted in ``commits`` are on disk.

    Attributes:
        commits: writes committed so far (a statement outside a ``transaction()``, or a whole transaction).
        on_commit: called after each of them (``GroupCommit`` sets it to wake its thread).
        on_write_failure: called after a write SQLite could not make (``GroupCommit`` sets it to checkpoint:
            a WAL file that cannot grow has room again once the log starts over).
        broken: why the store stopped writing for good (a failed fsync), or None.

    Raises:
        StoreInUse: (not ``readonly``) another process has the store open.
        StoreError: the file is missing (``readonly``), is a directory, cannot be opened, is not an SQLite
            database or is damaged, is a non-empty database without barbu's schema (it is left untouched),
            or holds a newer schema version; (not ``readonly``) it is missing or empty where a store was, or
            is not the store its marker names (``server.store_marker``; nothing is created or changed).
    """

    def __init__(self, path: str | Path, *, readonly: bool = False, group_commit: bool = False):
        self.path = str(path)
        self.readonly = readonly
        self.group_commit = group_commit
        self.commits = 0
        self.on_commit: Callable[[], None] | None = None
        self.on_write_failure: Callable[[], None] | None = None
        self.broken: str | None = None
        self._lock: tuple[int, int] | None = None
        # SQLite makes these beside a WAL store even to read it: the ones this open makes, close removes.
        real = os.path.realpath(self.path)  # SQLite makes them beside the real file, not beside a link
        self._made = [f for f in (real + "-wal", real + "-shm") if not os.path.exists(f)]
        if Path(path).is_dir():
            raise StoreError(f"{self.path}: is a directory, not a store file")
        if readonly and not Path(path).is_file():
            raise StoreError(f"{self.path}: no such store file")
        if not readonly:
            self._refuse_if_lost()
            self._lock = _lock(self.path)
            # Under the lock, before SQLite's recovery drops the frames after a tear without a word.
            wal.warn_if_torn(real + "-wal")
        try:
            self._db = self._open()
        except BaseException:
            self._unlock()
            self._tidy()
            raise

    def _refuse_if_lost(self) -> None:
        """Refuse a missing or empty store file with a marker, ``-wal``, ``-shm`` or ``.lock`` beside it
        (``server.store_marker``), before anything is created. Raises ``StoreInUse`` when a server holds
        the ``.lock`` (it may be making the store right now), else ``StoreError``."""
        found = store_marker.traces(self.path)
        lock = os.path.realpath(self.path) + ".lock"
        if lock in found:
            try:
                fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
            except FileNotFoundError:  # its server just closed the store
                found.remove(lock)
            else:
                try:
                    _flock(self.path, fd, _read_pid)
                finally:
                    os.close(fd)  # a lock taken here only to look is dropped again
        if found:
            raise StoreError(store_marker.lost(self.path, found))

    def _open(self) -> sqlite3.Connection:
        """Connect, check the file is a barbu store (or, writable, an empty file to create one in), set the
        pragmas and create the schema. Raises ``StoreError``."""
        try:
            if self.readonly:
                uri = Path(self.path).resolve().as_uri() + "?mode=ro"
                db = sqlite3.connect(uri, uri=True, isolation_level=None)
            else:
                db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the store ({exc})") from None
        try:
            self._check(db)
            return db
        except sqlite3.Error as exc:
            db.close()
            if not self.readonly and _cannot_write(exc) and self._peek() is None:
                raise unwritable(self.path, exc) from None
            raise StoreError(f"{self.path}: not a barbu store ({exc})") from None
        except BaseException:
            db.close()
            raise

    def _check(self, db: sqlite3.Connection) -> None:
        """Refuse a file that is not a barbu store; writable: create the schema in an empty database."""
        tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = None
        if "meta" in tables:
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            version = None if row is None else str(row[0])
        if version is None and (tables or self.readonly):
            what = "it has other tables" if tables else "an empty database"
            raise StoreError(f"{self.path}: not a barbu store ({what})")
        if version is not None and not (version.isdigit() and int(version) <= SCHEMA_VERSION):
            raise StoreError(f"{self.path}: schema version {version} is newer than {SCHEMA_VERSION}")
        if self.readonly:
            db.execute("PRAGMA query_only=ON")
            return
        # A damaged file is refused before anything more is written into it.
        check = db.execute("PRAGMA quick_check(1)").fetchone()
        if check is None or check[0] != "ok":
            raise StoreError(f"{self.path}: not a barbu store (damaged: {check[0] if check else '?'})")
        # The marker beside the file names the store that was here: another one in its place is refused.
        found = None
        if version is not None:
            row = db.execute("SELECT value FROM meta WHERE key='store-id'").fetchone()
            found = None if row is None else str(row[0])
        kept = store_marker.kept_id(self.path)
        if kept is not None and kept != found:
            raise StoreError(store_marker.mismatch(self.path, found))
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            if self.group_commit:  # GroupCommit fsyncs and checkpoints, outside the event loop
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA wal_autocheckpoint=0")
            else:
                db.execute("PRAGMA synchronous=FULL")  # an acknowledged write survives a power loss
            db.execute("PRAGMA foreign_keys=ON")
            # One transaction: a crash leaves either no tables or the whole schema with its version.
            db.executescript(
                "BEGIN IMMEDIATE;"
                + _SCHEMA
                + f"INSERT OR IGNORE INTO meta(key, value) VALUES('schema', '{SCHEMA_VERSION}');"
                + f"INSERT OR IGNORE INTO meta(key, value) VALUES('store-id', '{secrets.token_hex(16)}');"
                + "COMMIT;"
            )
            if "used" not in {str(r[1]) for r in db.execute("PRAGMA table_info(players)")}:
                # A store from before tokens expired: its tokens count as handed out now.
                db.execute(f"ALTER TABLE players ADD COLUMN used REAL NOT NULL DEFAULT {time.time()!r}")
            if "prev" not in {str(r[1]) for r in db.execute("PRAGMA table_info(players)")}:
                db.execute(
                    "ALTER TABLE players ADD COLUMN prev TEXT"
                )  # a store from before rotation was safe
            if "secret" not in {str(r[1]) for r in db.execute("PRAGMA table_info(players)")}:
                # A store from before personal secrets: each name claims one at its next login.
                db.execute("ALTER TABLE players ADD COLUMN secret TEXT")
            if "watching" not in {str(r[1]) for r in db.execute("PRAGMA table_info(chat)")}:
                # A store from before chat lines said who watched: its lines count as said from a seat.
                db.execute("ALTER TABLE chat ADD COLUMN watching INTEGER NOT NULL DEFAULT 0")
            db.execute("CREATE INDEX IF NOT EXISTS players_prev ON players(prev)")
            db.execute("CREATE INDEX IF NOT EXISTS players_used ON players(used)")  # forget_players
            # A log left by a crash (kill -9, power cut) is folded in and emptied before anything is served:
            # SQLite would otherwise write on after its end and never give its space back.
            checkpoint(db)
        except sqlite3.Error as exc:
            raise unwritable(self.path, exc) from None
        if kept is None:  # a new store, or one from before markers: from now on its marker says it was here
            store_id = str(db.execute("SELECT value FROM meta WHERE key='store-id'").fetchone()[0])
            try:
                store_marker.keep_id(self.path, store_id)
            except OSError as exc:
                hindrance = write_hindrance(self.path)
                marker = store_marker.marker_path(self.path)
                raise StoreError(
                    f"cannot write the store {self.path}: {hindrance} ({marker}: {exc.strerror or exc})"
                ) from None

    def _peek(self) -> str | None:
        """Why the file is not a barbu store, read without writing anything (``immutable``: no ``-shm``, no
        lock; what only the ``-wal`` holds is not seen), or None when it is one or an empty file to make one
        in. Used when opening for writing failed on a write, to tell a store that cannot be written from a
        file that is no store."""
        uri = Path(self.path).resolve().as_uri() + "?mode=ro&immutable=1"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            return str(exc)
        try:
            tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                return "it has other tables"
            return None
        except sqlite3.Error as exc:
            return str(exc)
        finally:
            db.close()

    def close(self) -> None:
        """Close the file (a checkpoint folds the WAL back into it and empties it) and release the lock."""
        try:
            if not self.readonly and self.broken is None:
                # SQLite's own checkpoint on close leaves the WAL as it is while a reader (``barbu matches``)
                # has the file open; this one empties it all the same once the reader is done.
                with contextlib.suppress(sqlite3.Error):
                    checkpoint(self._db)
            self._db.close()
        finally:
            self._unlock()
            self._tidy()

    def _unlock(self) -> None:
        if self._lock is not None:
            _unlock(self.path, self._lock)
            self._lock = None

    def _tidy(self) -> None:
        """Read-only: remove the empty ``-wal`` and the ``-shm`` this open made, unless a server now holds
        the store (they are its own then)."""
        if not self.readonly or not any(os.path.exists(f) for f in self._made):
            return
        try:
            lock = _lock(self.path, create=False)
        except StoreError:
            return
        try:
            for made in self._made:
                with contextlib.suppress(OSError):
                    if made.endswith("-shm") or os.path.getsize(made) == 0:
                        os.unlink(made)
        finally:
            _unlock(self.path, lock)

    # Writing ------------------------------------------------------------------------------------------

    def _write(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Cursor:
        """Execute one writing statement.

        Raises:
            StoreUnavailable: SQLite cannot write now; nothing was written.
            sqlite3.IntegrityError: the statement breaks a constraint (a bug, not the disk).
        """
        with self._writing():
            cursor = self._db.execute(sql, params)
        return cursor

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Around one writing statement: refuse a broken store, turn SQLite's write failures into
        ``StoreUnavailable`` (an ``IntegrityError`` is a bug and passes as it is), then count the commit."""
        self._check_broken()
        try:
            yield
        except sqlite3.IntegrityError:
            raise
        except sqlite3.DatabaseError as exc:  # OperationalError (full, I/O, too big, read-only) included
            if self.on_write_failure is not None:
                self.on_write_failure()
            raise StoreUnavailable(f"{self.path}: cannot write the store ({exc})") from exc
        self._committed()

    def _check_broken(self) -> None:
        if self.broken is not None:
            raise StoreUnavailable(f"{self.path}: cannot write the store ({self.broken})")

    def _committed(self) -> None:
        """Count a write that ended outside a transaction (a commit) and tell ``on_commit``."""
        if not self._db.in_transaction:
            self.commits += 1
            if self.on_commit is not None:
                self.on_commit()

    def _write_returning(self, sql: str, params: dict[str, Any]) -> list[Any]:
        """Execute one writing statement with a ``RETURNING`` clause and return its rows: all are read here,
        as the statement (and, outside a transaction, its commit) ends only with its last row.

        Raises:
            StoreUnavailable: SQLite cannot write now; nothing was written.
        """
        with self._writing():
            rows = self._db.execute(sql, params).fetchall()
        return rows

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Make the writes of the ``with`` block one transaction: all are committed (and on disk) when the
        block ends, or none when it raises; a ``transaction()`` inside another joins the outer one.

        Raises:
            StoreUnavailable: a write or the commit failed; everything in the block was rolled back.
        """
        if self._db.in_transaction:
            yield
            return
        self._write("BEGIN IMMEDIATE")
        try:
            yield
            self._write("COMMIT")
        except BaseException:
            if self._db.in_transaction:  # SQLite may have rolled back by itself already (disk full)
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    # Players ------------------------------------------------------------------------------------------

    def issue_token(self, name: str, secret: str | None = None) -> str:
        """A fresh resume token for player ``name`` (created if new), as a ``login`` hands out: every older
        token stops working. ``secret``: the hash of a personal secret (``server.identity``) the name claims
        if it has none yet; a name's secret, once claimed, never changes.

        Raises:
            StoreUnavailable: the store cannot write; the tokens are as they were.
        """
        token = secrets.token_urlsafe(32)
        now = time.time()
        self._write(
            "INSERT INTO players(name, token, created, used, secret) VALUES(?, ?, ?, ?, ?) "
            "ON CONFLICT(name) DO UPDATE SET token=excluded.token, used=excluded.used, prev=NULL,"
            " secret=COALESCE(players.secret, excluded.secret)",
            (name, token, now, now, secret),
        )
        return token

    def player_secret(self, name: str) -> str | None:
        """The stored hash of player ``name``'s personal secret (``server.identity``), or None: the name never
        logged in here, or never claimed one."""
        row = self._db.execute("SELECT secret FROM players WHERE name=?", (name,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def claimed_players(self) -> list[str]:
        """The names that claimed a personal secret (``server.identity``), in no order."""
        return [
            str(name) for (name,) in self._db.execute("SELECT name FROM players WHERE secret IS NOT NULL")
        ]

    def rotate_token(self, token: str, max_age: float = math.inf) -> tuple[str, str] | None:
        """A ``resume`` with ``token``: returns ``(player, fresh token)``, or None when ``token`` is unknown,
        revoked, two generations old, or its player's tokens were last used (handed out, or their player
        connected: ``touch_tokens``) more than ``max_age`` seconds ago (then nothing changes).

        Rotation never locks a player out: the newest token (``players.token``) and the one it replaced
        (``prev``) both work until the newest has been used once (``confirm_token``, or a resume with it).
        Resuming with the newest makes it ``prev`` (the one before stops working); resuming with ``prev``
        (the newest was lost on the way: the connection or the server dropped before it was read) keeps
        ``prev`` and replaces the lost one. One statement: the swap is atomic.

        Raises:
            StoreUnavailable: the store cannot write; the tokens are as they were.
        """
        fresh = secrets.token_urlsafe(32)
        now = time.time()
        oldest = now - max_age if math.isfinite(max_age) else -math.inf
        rows = self._write_returning(
            "UPDATE players SET prev=CASE WHEN token=:old THEN token ELSE prev END, token=:new, used=:now "
            "WHERE (token=:old OR prev=:old) AND used>=:oldest AND used>0 RETURNING name",
            {"old": token, "new": fresh, "now": now, "oldest": oldest},
        )
        return (str(rows[0][0]), fresh) if rows else None

    def confirm_token(self, token: str) -> None:
        """The fresh token ``token`` reached its player (the connection it was handed to sent a request after
        its reply): the token it replaced stops working, so the fresh one beats a copy of the older.

        Raises:
            StoreUnavailable: the store cannot write; the older token works on.
        """
        self._write("UPDATE players SET prev=NULL WHERE token=? AND prev IS NOT NULL", (token,))

    def touch_tokens(self, names: list[str]) -> None:
        """Count now as the last use of the resume tokens of players ``names``, who are (or were until now)
        connected: a token counts as unused only from when its player's last connection ended, so a
        connection open longer than the tokens' lifetime does not leave its player locked out of their seat
        once it drops. A revoked token stays revoked.

        Raises:
            StoreUnavailable: the store cannot write; the tokens are as they were.
        """
        if names:
            self._write(
                "UPDATE players SET used=? WHERE used>0 AND name IN (SELECT value FROM json_each(?))",
                (time.time(), json.dumps(names)),
            )

    def player_for_token(self, token: str, max_age: float = math.inf) -> str | None:
        """The player whose resume token ``token`` is (the newest, or the one it replaced while the newest
        is unused: ``rotate_token``), or None (unknown, revoked, or last used more than ``max_age`` seconds
        ago: ``touch_tokens``)."""
        row = self._db.execute(
            "SELECT name, used FROM players WHERE token=? OR prev=?", (token, token)
        ).fetchone()
        if row is None or not 0 < time.time() - float(row[1]) <= max_age:
            return None
        return str(row[0])

    def revoke_tokens(self) -> None:
        """Make every resume token stop working (the server password changed): each is replaced by a random
        one nobody was given. When they were last used stays as it was, so a name with a personal secret is
        not forgotten (``forget_players``) any sooner, and takes its seats back by a ``login`` with it.

        Raises:
            StoreUnavailable: the store cannot write; every token works as before.
        """
        self._write("UPDATE players SET token='revoked:' || hex(randomblob(24)), prev=NULL")

    def forget_players(self, max_age: float, limit: int = 1000) -> int:
        """Delete up to ``limit`` players whose tokens stopped working (last used more than ``max_age``
        seconds ago, or revoked) and who hold nothing: no seat at a waiting or playing table, no open
        solitaire room, no unfinished table they host. Returns how many were deleted (``limit``: call again
        for more). Nothing else refers to a player's row: records, results and chat keep the name as
        text, so a forgotten name is only free for a new ``login``.

        Raises:
            StoreUnavailable: the store cannot write; nobody was deleted.
        """
        cursor = self._write(
            "DELETE FROM players WHERE rowid IN (SELECT rowid FROM players WHERE used<:oldest"
            " AND name NOT IN (SELECT seat.value FROM rooms, json_each(rooms.players) AS seat"
            "  WHERE rooms.status IN ('waiting', 'playing') AND seat.value IS NOT NULL)"
            " AND name NOT IN (SELECT json_extract(config, '$.host') FROM rooms"
            "  WHERE status IN ('waiting', 'playing') AND json_extract(config, '$.host') IS NOT NULL)"
            " LIMIT :limit)",
            {"oldest": time.time() - max_age, "limit": limit},
        )
        return cursor.rowcount

    def token_for_player(self, name: str) -> str | None:
        """The current resume token of player ``name``, or None if the name never logged in."""
        row = self._db.execute("SELECT token FROM players WHERE name=?", (name,)).fetchone()
        return None if row is None else str(row[0])

    # Rooms --------------------------------------------------------------------------------------------

    def create_room(
        self,
        kind: str,
        name: str,
        config: dict[str, Any],
        players: dict[str, str] | None = None,
        status: str = "waiting",
    ) -> int:
        """Add a room of ``kind`` named ``name`` with its rebuild ``config``, its ``players`` (seat letter to
        player name) and ``status`` in one write; returns its id.

        Raises:
            ValueError: ``status`` is not a room status.
            StoreUnavailable: the store cannot write; no room was added.
        """
        if status not in ROOM_STATUSES:
            raise ValueError(f"unknown room status {status!r}")
        now = time.time()
        cur = self._write(
            "INSERT INTO rooms(kind, name, config, players, status, created, updated) "
            "VALUES(?, ?, ?, ?, ?, ?, ?)",
            (kind, name, json.dumps(config, sort_keys=True), json.dumps(players or {}), status, now, now),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def delete_room(self, room: int) -> None:
        """Remove ``room`` if it has no logged action (a solitaire room left without a move): rooms nobody
        played do not grow the store. A room with actions is kept.

        Raises:
            StoreUnavailable: the store cannot write; the row is still there.
        """
        self._write(
            "DELETE FROM rooms WHERE id=? AND NOT EXISTS (SELECT 1 FROM actions WHERE room=?)", (room, room)
        )

    def set_players(self, room: int, players: dict[str, str]) -> None:
        """Record who holds each seat of ``room`` (seat letter to player name).

        Raises:
            StoreUnavailable: the store cannot write; the row is unchanged.
        """
        self._write(
            "UPDATE rooms SET players=?, updated=? WHERE id=?", (json.dumps(players), time.time(), room)
        )

    def update_config(self, room: int, changes: dict[str, Any]) -> None:
        """Add ``changes`` (JSON values) to the rebuild ``config`` of ``room`` (a key already there takes the
        new value).

        Raises:
            StoreError: no room has that id.
            StoreUnavailable: the store cannot write; the row is unchanged.
        """
        config = self.room(room).config | changes
        self._write(
            "UPDATE rooms SET config=?, updated=? WHERE id=?",
            (json.dumps(config, sort_keys=True), time.time(), room),
        )

    def set_status(self, room: int, status: str, record: dict[str, Any] | None = None) -> None:
        """Set the ``status`` of ``room`` (one of ``ROOM_STATUSES``) and, when given, its final ``record``.

        Raises:
            ValueError: ``status`` is not a room status.
            StoreUnavailable: the store cannot write; the row is unchanged.
        """
        if status not in ROOM_STATUSES:
            raise ValueError(f"unknown room status {status!r}")
        text = None if record is None else json.dumps(record)
        self._write(
            "UPDATE rooms SET status=?, record=COALESCE(?, record), updated=? WHERE id=?",
            (status, text, time.time(), room),
        )

    def room(self, room: int) -> RoomRow:
        """The row of room ``room``.

        Raises:
            StoreError: no room has that id.
        """
        row = self._db.execute(f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE id=?", (room,)).fetchone()
        if row is None:
            raise StoreError(f"no room {room} in {self.path}")
        return _room_row(row)

    def rooms(self, kind: str | None = None, statuses: tuple[str, ...] = ROOM_STATUSES) -> list[RoomRow]:
        """Rooms of ``kind`` (None: any) whose status is in ``statuses``, oldest first."""
        marks = ",".join("?" for _ in statuses)
        sql = f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE status IN ({marks})"
        params: list[Any] = list(statuses)
        if kind is not None:
            sql += " AND kind=?"
            params.append(kind)
        return [_room_row(r) for r in self._db.execute(sql + " ORDER BY id", params)]

    def finished(self, kind: str, limit: int) -> list[tuple[int, float]]:
        """The ``limit`` newest rooms of ``kind`` that are over with a record, as ``(id, updated)`` pairs
        (``updated``: Unix time, seconds), newest first; the records themselves are not read."""
        sql = (
            "SELECT id, updated FROM rooms WHERE kind=? AND status='over' AND record IS NOT NULL"
            " ORDER BY updated DESC, id DESC LIMIT ?"
        )
        return [(int(rid), float(at)) for rid, at in self._db.execute(sql, (kind, limit))]

    def match_results(self, kind: str, after: int = 0) -> list[tuple[tuple[float, int], Any, Any]]:
        """The rooms of ``kind`` that are over with a record, in the order they finished (``updated``, then
        id), but the first ``after``: ``((updated, id), players, totals)`` with the record's ``players`` and
        ``totals`` decoded (None when missing); the rest of each record is not decoded in Python."""
        # The ids are sorted and skipped first: sorting whole rows would take json_extract over every record.
        sql = (
            "SELECT updated, id, json_extract(record, '$.players'), json_extract(record, '$.totals')"
            " FROM rooms WHERE id IN (SELECT id FROM rooms WHERE kind=? AND status='over' AND record IS NOT NULL"
            " ORDER BY updated, id LIMIT -1 OFFSET ?) ORDER BY updated, id"
        )
        return [
            ((float(at), int(rid)), _json_or_none(players), _json_or_none(totals))
            for at, rid, players, totals in self._db.execute(sql, (kind, after))
        ]

    # Action log ---------------------------------------------------------------------------------------

    def append_action(self, room: int, seq: int, seat: int | None, action: Any) -> None:
        """Append action number ``seq`` of ``room`` (on disk before this returns, unless inside a
        ``transaction()``: then with it).

        Raises:
            sqlite3.IntegrityError: ``seq`` is already logged for ``room``.
            StoreUnavailable: the store cannot write; nothing was appended.
        """
        self._write(
            "INSERT INTO actions(room, seq, seat, action, at) VALUES(?, ?, ?, ?, ?)",
            (room, seq, seat, json.dumps(action), time.time()),
        )

    def actions(self, room: int) -> list[LoggedAction]:
        """Every logged action of ``room`` in order.

        Raises:
            BadLog: an action's JSON does not decode.
        """
        rows = self._db.execute(
            "SELECT seq, seat, action, at FROM actions WHERE room=? ORDER BY seq", (room,)
        ).fetchall()
        logged = []
        for seq, seat, action, at in rows:
            try:
                logged.append(LoggedAction(seq, seat, json.loads(action), at))
            except (ValueError, TypeError) as exc:  # a row damaged or written by hand
                raise BadLog(room, seq, f"does not decode ({exc})") from None
        return logged

    # Chat -------------------------------------------------------------------------------------------

    def add_chat(self, room: int, name: str, text: str, keep: int, watching: bool = False) -> None:
        """Keep chat line ``text`` said by ``name`` at table ``room`` (``watching``: they had no seat there),
        and only the newest ``keep`` lines of that room (on disk before this returns, unless inside a
        ``transaction()``: then with it).

        Raises:
            StoreUnavailable: the store cannot write; nothing changed.
        """
        with self.transaction():
            self._write(
                "INSERT INTO chat(room, name, text, at, watching) VALUES(?, ?, ?, ?, ?)",
                (room, name, text, time.time(), int(watching)),
            )
            self._write(
                "DELETE FROM chat WHERE room=? AND id NOT IN "
                "(SELECT id FROM chat WHERE room=? ORDER BY id DESC LIMIT ?)",
                (room, room, keep),
            )

    def chat(self, room: int, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines kept for ``room``, oldest first (a store opened read-only from
        before chat was kept has none; from before ``watching`` was kept, every line was said seated)."""
        try:
            rows = self._db.execute(
                "SELECT name, text, watching FROM chat WHERE room=? ORDER BY id DESC LIMIT ?", (room, limit)
            ).fetchall()
        except sqlite3.OperationalError:  # no chat table or column: a read-only store from an older version
            return self._older_chat(room, limit)
        return [ChatLine(name=str(n), text=str(t), watching=bool(w)) for n, t, w in reversed(rows)]

    def _older_chat(self, room: int, limit: int) -> list[ChatLine]:
        """``chat`` from a read-only store whose chat lines do not say who watched, or that has none."""
        try:
            rows = self._db.execute(
                "SELECT name, text FROM chat WHERE room=? ORDER BY id DESC LIMIT ?", (room, limit)
            ).fetchall()
        except sqlite3.OperationalError:  # no chat table
            return []
        return [ChatLine(name=str(n), text=str(t), watching=False) for n, t in reversed(rows)]

    # Winnable deals found ---------------------------------------------------------------------------

    def add_winnable(self, list_name: str, seed: int) -> None:
        """Keep ``seed`` as proved winnable for the option set named ``list_name`` (``list_key``); a seed kept
        already stays as it was.

        Raises:
            StoreUnavailable: the store cannot write; nothing was added.
        """
        self._write(
            "INSERT OR IGNORE INTO winnable(list, seed, found) VALUES(?, ?, ?)",
            (list_name, seed, time.time()),
        )

    def winnable(self, list_name: str) -> list[int]:
        """The seeds kept for ``list_name`` (``add_winnable``), oldest found first (none from a read-only
        store of an older version, which has no such table)."""
        try:
            rows = self._db.execute(
                "SELECT seed FROM winnable WHERE list=? ORDER BY found, seed", (list_name,)
            ).fetchall()
        except sqlite3.OperationalError:  # no winnable table: a read-only store from an older version
            return []
        return [int(seed) for (seed,) in rows]

    # Settings ---------------------------------------------------------------------------------------

    def meta_set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` in ``meta`` (replacing what was there)."""
        self._write("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (key, value))

    def meta_get(self, key: str) -> str | None:
        """The ``meta`` value of ``key``, or None."""
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def meta_once(self, key: str, value: str) -> str:
        """The value of ``key`` in ``meta``, set to ``value`` first if it has none (a later call with another
        ``value`` returns the kept one).

        Raises:
            StoreUnavailable: the key has no value and the store cannot write it.
        """
        self._write("INSERT OR IGNORE INTO meta(key, value) VALUES(?, ?)", (key, value))
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return str(row[0])

    # Solitaire results --------------------------------------------------------------------------------

    def add_result(
        self, room: int, game: str, player: str, won: bool, score: int, moves: int, day: str | None = None
    ) -> None:
        """Record a finished solitaire game of ``room`` in the results of ``game`` on ``day`` (``YYYY-MM-DD``;
        None: today, UTC), unless ``player`` has a result of ``game`` that day already (the first one stays).

        Raises:
            StoreUnavailable: the store cannot write; nothing was added.
        """
        day = day or time.strftime("%Y-%m-%d", time.gmtime())
        self._write(
            "INSERT OR IGNORE INTO results(day, game, player, room, won, score, moves) "
            "SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS "
            "(SELECT 1 FROM results WHERE day=? AND game=? AND player=?)",
            (day, game, player, room, int(won), score, moves, day, game, player),
        )

    def has_result(self, day: str, game: str, player: str) -> bool:
        """Whether ``player`` has a result of ``game`` on ``day`` (``YYYY-MM-DD``, UTC)."""
        row = self._db.execute(
            "SELECT 1 FROM results WHERE day=? AND game=? AND player=?", (day, game, player)
        ).fetchone()
        return row is not None

    def results(self, day: str, game: str) -> list[dict[str, Any]]:
        """The results of ``game`` on ``day`` (``YYYY-MM-DD``, UTC), best first: won, then score, then fewest
        moves. Each is ``{"player", "room", "won", "score", "moves"}``."""
        rows = self._db.execute(
            "SELECT player, room, won, score, moves FROM results WHERE day=? AND game=? "
            "ORDER BY won DESC, score DESC, moves ASC, room ASC",
            (day, game),
        ).fetchall()
        return [{"player": p, "room": r, "won": bool(w), "score": s, "moves": m} for p, r, w, s, m in rows]


def checkpoint(db: sqlite3.Connection, mode: str = "TRUNCATE") -> bool:
    """Fold the WAL into the store file on connection ``db`` (``PRAGMA wal_checkpoint(MODE)``) and fsync the
    file; returns whether every page of the log was copied (False: a reader or, but for ``PASSIVE``, the
    writer held part of it past ``db``'s busy timeout: the rest waits for a later checkpoint).

    ``mode``: ``PASSIVE`` copies what it can and never waits; ``RESTART`` also waits for the writer and the
    readers so that the next write starts the log over (which ``journal_size_limit`` then cuts back to
    ``WAL_LIMIT``); ``TRUNCATE`` as ``RESTART``, and cuts the log to 0 bytes at once.

    Raises:
        sqlite3.Error: the checkpoint could not write.
    """
    row = db.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
    return row is not None and row[0] == 0


#: SQLite's primary result codes of a write the disk or the system refused (``sqlite_errorcode & 0xff``):
#: PERM, READONLY, IOERR, FULL, CANTOPEN.
_WRITE_FAILURES = {3, 8, 10, 13, 14}


def _cannot_write(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLite failing to write (or create) a file, not a file that is no database."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _WRITE_FAILURES


def unwritable(path: str, exc: sqlite3.Error) -> StoreError:
    """The one-line error for a barbu store (or an empty file to make one in) at ``path`` that SQLite cannot
    write, e.g. ``cannot write the store b.sqlite3: the file size limit is 1 byte (ulimit -f) (disk I/O
    error)``."""
    return StoreError(f"cannot write the store {path}: {write_hindrance(path)} ({exc})")


def write_hindrance(path: str) -> str:
    """Why the store file ``path`` (or its ``-wal``/``-shm`` beside it) may not be writable, in a few words
    for a one-line message: this process's file-size limit (``ulimit -f``, ``prlimit --fsize``), a full or
    read-only file system, missing permission, or (none of these seen) the disk failing or full."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft != resource.RLIM_INFINITY:
        return f"the file size limit is {soft} byte{'' if soft == 1 else 's'} (ulimit -f)"
    folder = os.path.dirname(os.path.realpath(path)) or "."
    try:
        disk = os.statvfs(folder)
    except OSError:
        return "the disk failed or is full"
    if disk.f_flag & os.ST_RDONLY:
        return "the file system is read-only"
    if disk.f_bavail == 0 or disk.f_favail == 0:
        return "the disk is full"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return "no permission to write the file or its folder"
    return "the disk failed or is full"


def _lock(path: str, *, create: bool = True) -> tuple[int, int]:
    """Take the exclusive locks of store ``path``: ``flock`` on ``REALPATH.lock`` (created if missing), with
    this process's pid written in it, and on the store file (created empty if missing and ``create``; an
    empty file is a new SQLite database). Returns the two descriptors, which hold the locks until
    ``_unlock`` (or the process's end).

    Raises:
        StoreInUse: another open store holds a lock (through this path or any link to the same file).
        StoreError: a file cannot be created, opened or locked.
    """
    real = os.path.realpath(path)
    lock_path = real + ".lock"
    while True:
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as exc:
            raise StoreError(f"{path}: cannot open the store ({lock_path}: {exc.strerror or exc})") from None
        try:
            _flock(path, fd, _read_pid)
        except StoreError:
            os.close(fd)
            raise
        # The holder removes the lock file before releasing it: a lock taken on a removed file is no lock.
        try:
            if os.path.samestat(os.fstat(fd), os.stat(lock_path)):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    try:
        flags = os.O_RDONLY | os.O_CLOEXEC | (os.O_CREAT if create else 0)
        store_fd = os.open(real, flags, 0o600)
    except OSError as exc:
        _unlock(path, (fd, -1))
        raise StoreError(f"{path}: cannot open the store ({exc.strerror or exc})") from None
    try:
        _flock(path, store_fd, lambda _fd: None)  # a hard link has another .lock file but the same inode
    except StoreError:
        os.close(store_fd)
        _unlock(path, (fd, -1))
        raise
    with contextlib.suppress(OSError):  # the pid is only for the message a second server prints
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd, store_fd


def _flock(path: str, fd: int, holder: Callable[[int], int | None]) -> None:
    """``flock`` ``fd`` exclusively without waiting. Raises ``StoreInUse`` naming ``holder(fd)``'s pid when
    another process holds it, ``StoreError`` when it cannot be locked at all."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise StoreInUse(path, holder(fd)) from None
        raise StoreError(f"{path}: cannot lock the store ({exc.strerror or exc})") from None


def _unlock(path: str, fds: tuple[int, int]) -> None:
    """Release the locks ``_lock(path)`` returned: remove ``REALPATH.lock`` while still holding it (so no
    lock file is left behind), then close the descriptors, which drops the ``flock``s."""
    with contextlib.suppress(OSError):
        os.unlink(os.path.realpath(path) + ".lock")
    for fd in fds:
        if fd >= 0:
            os.close(fd)


def _read_pid(fd: int) -> int | None:
    """The pid written in a lock file, or None."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


_ROOM_COLUMNS = "id, kind, name, config, players, status, created, updated, record"


def _json_or_none(text: str | None) -> Any:
    """``text`` (a JSON object ``json_extract`` returned) decoded; None for SQL NULL or text not JSON."""
    try:
        return None if text is None else json.loads(text)
    except ValueError:
        return None


def _room_row(row: tuple[Any, ...]) -> RoomRow:
    rid, kind, name, config, players, status, created, updated, record = row
    return RoomRow(
        id=rid,
        kind=kind,
        name=name,
        config=json.loads(config),
        players=json.loads(players),
        status=status,
        created=created,
        updated=updated,
        record=None if record is None else json.loads(record),
    )
