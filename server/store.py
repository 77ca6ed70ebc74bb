"""The SQLite store: players and their resume tokens, rooms, each room's action log, records, results.

One file, WAL mode, stdlib ``sqlite3``; the server owns one ``Store`` and uses it from its event-loop thread
only. Schema (version 1):

- ``players(name, token, created)``: one row per player name; ``token`` is the current resume token.
- ``rooms(id, kind, name, config, players, status, created, updated, record)``: one row per room. ``kind`` is
  ``barbu`` (a table: one match) or ``solitaire``; ``config`` is the JSON needed to rebuild the game from its
  log (Barbu: ``seed``, ``variants``, ``first_declarer``, ``turn_time``, ``grace``; solitaire: ``game``,
  ``options``, ``seed``, ``daily``); ``players`` maps seat letters to player names (``bot:<policy>`` for bots;
  solitaire: ``{"player": name}``); ``status`` is ``waiting``, ``playing``, ``over`` or
  ``closed`` (abandoned before the start); ``record`` is the finished game's record JSON (``barbu-match/1``
  or ``solitaire/1``).
- ``actions(room, seq, seat, action, at)``: every accepted action in order (``seq`` from 1), ``seat`` 0..3 or
  NULL (solitaire), ``action`` its wire form as JSON, ``at`` Unix time in seconds.
- ``results(day, game, player, room, won, score, moves)``: the day's results table of each game: one row per
  player, game and day, the first day's-deal game the player finished (later ones are not added).
- ``meta(key, value)``: ``schema`` (the schema version) and ``daily-secret`` (the random secret the day's
  deals are derived from, created on first use and kept).

Times are Unix seconds (float). Errors from SQLite (``sqlite3.Error``) propagate: a store that cannot write
must stop the server rather than let it broadcast unlogged actions.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
ROOM_STATUSES = ("waiting", "playing", "over", "closed")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players(
    name TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE, created REAL NOT NULL);
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
"""


class StoreError(Exception):
    """The store file is not a barbu store of a schema version this code reads, or a row is missing."""


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


@dataclass(frozen=True)
class LoggedAction:
    """One row of ``actions``: action number ``seq`` (from 1) by ``seat`` (None: no seat), wire ``action``,
    accepted at Unix time ``at`` (seconds)."""

    seq: int
    seat: int | None
    action: Any
    at: float


class Store:
    """The server's SQLite file (created with its schema when missing).

    Raises:
        StoreError: the file holds a newer schema version.
        sqlite3.Error: the file cannot be opened or written.
    """

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta(key, value) VALUES('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: schema version {row[0]} is newer than {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the file (a checkpoint folds the WAL back into it)."""
        self._db.close()

    # Players ------------------------------------------------------------------------------------------

    def issue_token(self, name: str) -> str:
        """A fresh resume token for player ``name`` (created if new); any older token stops working."""
        token = secrets.token_urlsafe(32)
        self._db.execute(
            "INSERT INTO players(name, token, created) VALUES(?, ?, ?) "
            "ON CONFLICT(name) DO UPDATE SET token=excluded.token",
            (name, token, time.time()),
        )
        return token

    def player_for_token(self, token: str) -> str | None:
        """The player whose current resume token is ``token``, or None."""
        row = self._db.execute("SELECT name FROM players WHERE token=?", (token,)).fetchone()
        return None if row is None else str(row[0])

    def token_for_player(self, name: str) -> str | None:
        """The current resume token of player ``name``, or None if the name never logged in."""
        row = self._db.execute("SELECT token FROM players WHERE name=?", (name,)).fetchone()
        return None if row is None else str(row[0])

    # Rooms --------------------------------------------------------------------------------------------

    def create_room(self, kind: str, name: str, config: dict[str, Any]) -> int:
        """Add a ``waiting`` room of ``kind`` named ``name`` with its rebuild ``config``; returns its id."""
        now = time.time()
        cur = self._db.execute(
            "INSERT INTO rooms(kind, name, config, status, created, updated) "
            "VALUES(?, ?, ?, 'waiting', ?, ?)",
            (kind, name, json.dumps(config, sort_keys=True), now, now),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def set_players(self, room: int, players: dict[str, str]) -> None:
        """Record who holds each seat of ``room`` (seat letter to player name)."""
        self._db.execute(
            "UPDATE rooms SET players=?, updated=? WHERE id=?", (json.dumps(players), time.time(), room)
        )

    def set_status(self, room: int, status: str, record: dict[str, Any] | None = None) -> None:
        """Set the ``status`` of ``room`` (one of ``ROOM_STATUSES``) and, when given, its final ``record``.

        Raises:
            ValueError: ``status`` is not a room status.
        """
        if status not in ROOM_STATUSES:
            raise ValueError(f"unknown room status {status!r}")
        text = None if record is None else json.dumps(record)
        self._db.execute(
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

    # Action log ---------------------------------------------------------------------------------------

    def append_action(self, room: int, seq: int, seat: int | None, action: Any) -> None:
        """Append action number ``seq`` of ``room`` (committed before this returns).

        Raises:
            sqlite3.IntegrityError: ``seq`` is already logged for ``room``.
        """
        self._db.execute(
            "INSERT INTO actions(room, seq, seat, action, at) VALUES(?, ?, ?, ?, ?)",
            (room, seq, seat, json.dumps(action), time.time()),
        )

    def actions(self, room: int) -> list[LoggedAction]:
        """Every logged action of ``room`` in order."""
        rows = self._db.execute(
            "SELECT seq, seat, action, at FROM actions WHERE room=? ORDER BY seq", (room,)
        ).fetchall()
        return [LoggedAction(seq, seat, json.loads(action), at) for seq, seat, action, at in rows]

    # Settings ---------------------------------------------------------------------------------------

    def meta_once(self, key: str, value: str) -> str:
        """The value of ``key`` in ``meta``, set to ``value`` first if it has none (a later call with another
        ``value`` returns the kept one)."""
        self._db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES(?, ?)", (key, value))
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return str(row[0])

    # Solitaire results --------------------------------------------------------------------------------

    def add_result(
        self, room: int, game: str, player: str, won: bool, score: int, moves: int, day: str | None = None
    ) -> None:
        """Record a finished solitaire game of ``room`` in the results of ``game`` on ``day`` (``YYYY-MM-DD``;
        None: today, UTC), unless ``player`` has a result of ``game`` that day already (the first one stays)."""
        day = day or time.strftime("%Y-%m-%d", time.gmtime())
        self._db.execute(
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


_ROOM_COLUMNS = "id, kind, name, config, players, status, created, updated, record"


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
