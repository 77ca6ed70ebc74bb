"""``barbu export``, ``barbu matches``, ``barbu standings`` and ``barbu store check``: read matches and
solitaire games back from a server's SQLite store, the standings across its finished matches
(``server.standings``), and say which rooms a server start would not restore now (``server.unrestorable``).

Each opens the store read-only: nothing is created or written, and each works while a server runs or none
does. ``barbu store check`` rebuilds every waiting or playing room from its config and log as a start-up does
and prints one line per room that does not replay, ``ROOM<TAB>KIND<TAB>SEQ<TAB>ERROR`` (``SEQ`` ``-`` when the
config is to blame, not one action); exit status 1 when there are any, 0 with ``all N rooms restore``
otherwise.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from engine.cards import SEATS
from server.barbu_table import replay_log
from server.config import ServerConfig
from server.lobby import ROOM_KINDS
from server.solitaire_room import SolitaireRoom
from server.standings import store_standings
from server.store import RoomRow, Store, StoreError
from server.unrestorable import check_rooms


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``export``, ``matches`` and ``store check`` to the ``barbu`` parser."""
    p = sub.add_parser(
        "export",
        help="write a stored match (barbu-match/1) or solitaire game (solitaire/1) as a record",
        description="Print (or write to --out) the record of room MATCH_ID from the store: a Barbu table's "
        "barbu-match/1 record or a solitaire room's solitaire/1 record; the final record of a finished game, "
        "or the record so far of one in progress or interrupted.",
    )
    p.add_argument("--db", required=True, metavar="PATH", help="the server's SQLite file")
    p.add_argument(
        "match_id", type=int, metavar="MATCH_ID", help="the room id (a table's is also its match id)"
    )
    p.add_argument("--out", metavar="FILE", help="write the record here instead of standard output")
    p.set_defaults(func=run_export)
    m = sub.add_parser(
        "matches",
        help="list the matches in a store",
        description="One line per stored Barbu match: id, status, hands played, table name, players, totals.",
    )
    m.add_argument("--db", required=True, metavar="PATH", help="the server's SQLite file")
    m.set_defaults(func=run_matches)
    t = sub.add_parser(
        "standings",
        help="the standings across the finished matches in a store",
        description="One line per player of the store's finished Barbu matches, best rating first: name, "
        "matches, firsts, average place, rating (openskill Bradley-Terry, mu - 3 sigma). Bots take their "
        "places in a match but are not listed.",
    )
    t.add_argument("--db", required=True, metavar="PATH", help="the server's SQLite file")
    t.set_defaults(func=run_standings)
    p = sub.add_parser(
        "store",
        help="look after a server's store",
        description="Commands on a server's SQLite store; they open it read-only.",
    )
    commands = p.add_subparsers(dest="store_command", required=True, metavar="COMMAND")
    c = commands.add_parser(
        "check",
        help="list the rooms a server start would not restore now",
        description="Rebuild every waiting or playing room of the store from its log, as a server start "
        "does, without writing anything; print ROOM, KIND, SEQ (the action that does not replay; - for the "
        "room's config) and the error of each room that does not restore, and exit 1 when there are any.",
    )
    c.add_argument("--db", required=True, metavar="PATH", help="the server's SQLite file")
    c.set_defaults(func=run_check)


def _open(path: str) -> Store | None:
    """The store at ``path`` opened read-only (nothing in the file is created or changed), or None after
    one line on stderr naming the file and why it cannot be read."""
    try:
        return Store(path, readonly=True)
    except StoreError as exc:
        print(f"barbu: {exc}", file=sys.stderr)
        return None


def _unreadable(path: str, exc: sqlite3.Error) -> int:
    """One line for a store that opened but failed while being read (a damaged page); exit status 1."""
    print(f"barbu: {path}: cannot read the store ({exc})", file=sys.stderr)
    return 1


def run_export(args: argparse.Namespace) -> int:
    """Print the record; exit 0, or 1 (one line on stderr) when the store is missing or not a barbu store, the
    match is missing or does not replay, or ``--out`` cannot be written. The store is opened read-only."""
    store = _open(args.db)
    if store is None:
        return 1
    try:
        row = store.room(args.match_id)
        if row.kind not in ("barbu", SolitaireRoom.kind):
            print(f"barbu: room {args.match_id} is a {row.kind} room: no record to export", file=sys.stderr)
            return 1
        if row.kind == "barbu" and row.record is None and len(row.players) < 4:
            print(
                f"barbu: match {args.match_id} never started (seats still empty): no record to export",
                file=sys.stderr,
            )
            return 1
        record = row.record if row.record is not None else _record_so_far(row, store)
    except StoreError as exc:  # names the file itself
        print(f"barbu: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"barbu: {args.db}: {exc}", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        return _unreadable(args.db, exc)
    finally:
        store.close()
    text = json.dumps(record, indent=1) + "\n"
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"barbu: {args.out}: cannot write ({exc.strerror or exc})", file=sys.stderr)
            return 1
        print(f"wrote match {args.match_id} to {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def _record_so_far(row: RoomRow, store: Store) -> dict[str, Any]:
    """The record of an unfinished room, from its log (nothing is written to the store).

    Raises:
        ValueError: the log does not replay.
    """
    if row.kind == SolitaireRoom.kind:
        return SolitaireRoom.replayed(row, store, ServerConfig(db=store.path)).game.to_record()
    match, _ = replay_log(row, store)
    return match.to_record(row.players)


def run_matches(args: argparse.Namespace) -> int:
    """List the matches; exit 0, or 1 (one line on stderr) when the store file is missing, not a barbu store
    or damaged. The store is opened read-only."""
    store = _open(args.db)
    if store is None:
        return 1
    try:
        rows = store.rooms("barbu")
        if not rows:
            # Solitaire rooms are not matches but may be all the store holds: say where their records are.
            print(
                f"barbu: no Barbu matches in {args.db} yet (solitaire games are not listed here; "
                "barbu export takes a solitaire room's id too)",
                file=sys.stderr,
            )
        for row in rows:
            hands = len(row.record["deals"]) if row.record else "-"
            players = ",".join(_printable(row.players.get(s, "-")) for s in SEATS)
            totals = ""
            if row.record and "totals" in row.record:
                totals = " ".join(f"{s}{row.record['totals'][s]:+d}" for s in SEATS)
            print(f"{row.id}\t{row.status}\t{hands}\t{_printable(row.name)}\t{players}\t{totals}".rstrip())
    except sqlite3.Error as exc:
        return _unreadable(args.db, exc)
    finally:
        store.close()
    return 0


def run_standings(args: argparse.Namespace) -> int:
    """Print the standings, a header line then ``NAME<TAB>MATCHES<TAB>FIRSTS<TAB>AVERAGE<TAB>RATING`` per
    player; exit 0 (a store without finished matches says so on stderr), or 1 (one line on stderr) when
    the store file is missing, not a barbu store or damaged. The store is opened read-only."""
    store = _open(args.db)
    if store is None:
        return 1
    try:
        rows = store_standings(store)
    except sqlite3.Error as exc:
        return _unreadable(args.db, exc)
    finally:
        store.close()
    if not rows:
        print(f"barbu: no finished Barbu matches in {args.db} yet", file=sys.stderr)
        return 0
    print("player\tmatches\tfirsts\taverage_place\trating")
    for row in rows:
        print(
            f"{_printable(row.name)}\t{row.matches}\t{row.firsts}\t{row.average_place:.2f}\t{row.rating:.1f}"
        )
    return 0


def run_check(args: argparse.Namespace) -> int:
    """List the rooms that do not restore; exit 1 when there are any, or (one line on stderr) when the store
    is missing, not a barbu store or cannot be read; else 0 with one line saying all restore."""
    store = _open(args.db)
    if store is None:
        return 1
    try:
        count, problems = check_rooms(store, ROOM_KINDS)
    except sqlite3.Error as exc:
        return _unreadable(args.db, exc)
    finally:
        store.close()
    for problem in problems:
        seq = "-" if problem.seq is None else str(problem.seq)
        print(f"{problem.room}\t{_printable(problem.kind)}\t{seq}\t{_printable(problem.error)}")
    if problems:
        return 1
    words = {0: "no room to restore", 1: "the one room restores"}
    print(words.get(count, f"all {count} rooms restore"))
    return 0


def _printable(text: str) -> str:
    """``text`` with control and format characters escaped, so a stored name cannot drive the terminal."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)
