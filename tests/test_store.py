"""The SQLite store: tokens, rooms, the action log, records, solitaire results; survives reopening."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from server.store import Store, StoreError


def test_tokens_rotate_on_login(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    first = store.issue_token("alice")
    assert len(first) >= 40 and store.player_for_token(first) == "alice"
    second = store.issue_token("alice")
    assert second != first
    assert store.player_for_token(first) is None
    assert store.player_for_token(second) == "alice"
    assert store.token_for_player("alice") == second
    assert store.token_for_player("bob") is None


def test_a_resume_token_works_until_its_successor_is_used(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    first = store.issue_token("alice")
    rotated = store.rotate_token(first)
    assert rotated is not None and rotated[0] == "alice"
    lost = rotated[1]
    again = store.rotate_token(first)  # the reply carrying ``lost`` never arrived
    assert again is not None and again[0] == "alice" and again[1] != lost
    assert store.rotate_token(lost) is None  # replaced before it was used
    second = again[1]
    third = store.rotate_token(second)
    assert third is not None
    assert store.rotate_token(first) is None  # two generations old
    assert store.player_for_token(second) == "alice" and store.player_for_token(third[1]) == "alice"
    assert store.player_for_token(first) is None
    assert store.rotate_token(second, max_age=0.0) is None  # too old: nothing changes
    assert store.token_for_player("alice") == third[1]
    login = store.issue_token("alice")  # a login starts afresh: no earlier token works
    assert store.rotate_token(second) is None and store.rotate_token(third[1]) is None
    assert store.rotate_token(login) is not None
    store.revoke_tokens()
    assert store.rotate_token(login) is None
    store.close()


def test_room_log_and_record_persist(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    room = store.create_room("barbu", "t", {"seed": 5, "variants": {}, "first_declarer": "E"})
    store.set_players(room, {"N": "alice", "E": "bot:random"})
    store.set_status(room, "playing")
    store.append_action(room, 1, 1, {"action": "contract", "contract": "barbu"})
    store.append_action(room, 2, 2, {"action": "double", "targets": []})
    with pytest.raises(sqlite3.IntegrityError):
        store.append_action(room, 2, 3, {"action": "pass"})
    store.close()
    again = Store(path)
    row = again.room(room)
    assert (row.kind, row.name, row.status, row.config["seed"]) == ("barbu", "t", "playing", 5)
    assert row.players == {"N": "alice", "E": "bot:random"}
    assert [(a.seq, a.seat, a.action["action"]) for a in again.actions(room)] == [
        (1, 1, "contract"),
        (2, 2, "double"),
    ]
    again.set_status(room, "over", {"format": "barbu-match/1"})
    assert again.room(room).record == {"format": "barbu-match/1"}
    assert [r.id for r in again.rooms("barbu", ("over",))] == [room]
    assert again.rooms("solitaire") == []
    with pytest.raises(StoreError):
        again.room(999)
    with pytest.raises(ValueError):
        again.set_status(room, "lost")


def test_solitaire_results_rank_by_day_and_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    rooms = [store.create_room("solitaire", f"s{i}", {"game": "pyramid", "seed": i}) for i in range(3)]
    store.add_result(rooms[0], "pyramid", "alice", won=False, score=20, moves=40)
    store.add_result(rooms[1], "pyramid", "bob", won=True, score=52, moves=60)
    store.add_result(rooms[2], "pyramid", "carol", won=True, score=52, moves=50)
    day = time.strftime("%Y-%m-%d", time.gmtime())
    assert [r["player"] for r in store.results(day, "pyramid")] == ["carol", "bob", "alice"]
    assert store.results(day, "lucas") == []


def test_a_players_first_result_of_the_day_stays(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    rooms = [store.create_room("solitaire", f"s{i}", {"game": "pyramid", "seed": i}) for i in range(3)]
    assert not store.has_result("2026-01-01", "pyramid", "alice")
    store.add_result(rooms[0], "pyramid", "alice", won=False, score=20, moves=40, day="2026-01-01")
    store.add_result(rooms[1], "pyramid", "alice", won=True, score=52, moves=60, day="2026-01-01")
    store.add_result(rooms[2], "pyramid", "alice", won=True, score=52, moves=60, day="2026-01-02")
    assert store.has_result("2026-01-01", "pyramid", "alice")
    assert [(r["room"], r["won"]) for r in store.results("2026-01-01", "pyramid")] == [(rooms[0], False)]
    assert [r["room"] for r in store.results("2026-01-02", "pyramid")] == [rooms[2]]


def test_meta_once_keeps_the_first_value(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    assert store.meta_once("daily-secret", "aa") == "aa"
    assert store.meta_once("daily-secret", "bb") == "aa"
    store.close()
    assert Store(path).meta_once("daily-secret", "cc") == "aa"


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    db.close()
    with pytest.raises(StoreError):
        Store(path)


def test_chat_lines_keep_whether_they_were_said_watching_and_older_stores_gain_it(tmp_path: Path) -> None:
    """``watching`` is kept with each chat line; a store whose ``chat`` table predates it gains the column
    on open, its lines said seated, and a later line keeps its mark."""
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    room = store.create_room("barbu", "t", {"seed": 5, "variants": {}, "first_declarer": "E"})
    store.add_chat(room, "ann", "from the seat", 20)
    store.add_chat(room, "bob", "from the rail", 20, watching=True)
    assert store.chat(room, 20) == [
        {"name": "ann", "text": "from the seat", "watching": False},
        {"name": "bob", "text": "from the rail", "watching": True},
    ]
    store.close()
    db = sqlite3.connect(path)  # as an older version left it: no watching column
    db.execute("ALTER TABLE chat DROP COLUMN watching")
    db.commit()
    db.close()
    older = Store(path, readonly=True)  # not migrated: its lines read as said seated
    assert [(line["name"], line["watching"]) for line in older.chat(room, 20)] == [
        ("ann", False),
        ("bob", False),
    ]
    older.close()
    store = Store(path)
    store.add_chat(room, "cid", "later", 20, watching=True)
    assert [(line["name"], line["watching"]) for line in store.chat(room, 20)] == [
        ("ann", False),
        ("bob", False),
        ("cid", True),
    ]
    store.close()
