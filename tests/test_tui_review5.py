"""A fresh reviewer's points of issue 10 (fifth round): a key that does nothing says so on the notice line,
``t`` says why it goes nowhere, the hands played while away are counted from the hand the player left, the
lobby's columns line up whatever the names, watchers and states, a random deal with moves made is not
resigned without asking, and a watcher who follows the players to their next match is told it begins.

Flows run against a real server on loopback (fixtures in ``conftest.py``, helpers in ``test_tui.py``); the
lobby is drawn from the model alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from client.columns import width
from client.tui.lobby_screen import LobbyScreen, lobby_lines
from client.tui.model import Model
from tests.test_tui import text


def columns(line: str) -> dict[int, str]:
    """The characters of ``line`` by the terminal column each starts at (a CJK character takes two)."""
    out, at = {}, 0
    for char in line:
        out[at] = char
        at += width(char)
    return out


def start_of(line: str, words: str) -> int:
    """The terminal column where ``words`` begins in ``line``."""
    return width(line[: line.index(words)])


#: Rooms of every state, with names long and short, wide and narrow, and up to the 50 watchers a room holds.
LOBBY_ROOMS: list[dict[str, Any]] = [
    {"room": "1", "kind": "barbu", "name": "x", "state": "waiting", "spectators": 0,
     "players": {"N": "al", "E": None, "S": None, "W": None}, "away": []},
    {"room": "2", "kind": "barbu", "name": "the long friday evening table of the club", "state": "playing",
     "hand_number": 12, "spectators": 50, "away": ["E"],
     "players": {"N": "heuristic-2fa8-1", "E": "bartholomew", "S": "bot:a", "W": "maximiliana"}},
    {"room": "3", "kind": "barbu", "name": "金曜日のテーブル", "state": "playing", "paused": True,
     "spectators": 7, "players": {"N": "さくら", "E": "bot:b", "S": "bot:c", "W": "bot:d"}, "away": ["N"]},
    {"room": "4", "kind": "barbu", "name": "done", "state": "over", "spectators": 12,
     "players": {"N": "ann", "E": "bob", "S": "cy", "W": "dee"}, "away": []},
    {"room": "5", "kind": "solitaire", "name": "Pyramid (ann)", "state": "playing", "spectators": 3,
     "players": {"player": "ann"}, "game": "pyramid", "moves": 123, "away": False},
    {"room": "6", "kind": "solitaire", "name": "Forty Thieves (a-very-long-player-name)", "state": "playing",
     "spectators": 0, "players": {"player": "a-very-long-player-name"}, "game": "forty-thieves",
     "daily": "2026-12-02", "watchable": False, "moves": 4, "away": True},
    {"room": "7", "kind": "solitaire", "name": "Baker's Dozen (bo)", "state": "over", "result": "resigned",
     "spectators": 1, "players": {"player": "bo"}, "game": "bakers-dozen", "away": False},
]  # fmt: skip


@pytest.mark.parametrize("cols", [80, 120])
@pytest.mark.parametrize("rooms", [LOBBY_ROOMS, LOBBY_ROOMS[:1], LOBBY_ROOMS[1:2], LOBBY_ROOMS[4:]])
def test_the_lobby_columns_line_up_with_any_names_watchers_and_states(
    rooms: list[dict[str, Any]], cols: int
) -> None:
    model = Model("ws://127.0.0.1:1234", name="ann")
    model.rooms = rooms
    lines = text(lobby_lines(model, LobbyScreen(), cols)).splitlines()
    head = next(line for line in lines if "watch" in line and "state" in line)
    state, seats, watch_end = start_of(head, "state"), start_of(head, "seats"), width(head.rstrip()) - 1
    rows = lines[lines.index(head) + 1 : lines.index(head) + 1 + len(rooms)]
    for line, room in zip(rows, rooms, strict=True):
        cells = columns(line)
        assert width(line) <= cols, line
        assert cells[state - 1] == " " and cells[state] != " ", (line, "state")  # each column starts there
        assert cells[seats - 1] == " " and cells[seats] != " ", (line, "seats")
        count = "no" if room.get("watchable") is False else str(room["spectators"])
        assert line.rstrip().endswith(f" {count}"), line
        assert width(line.rstrip()) - 1 == watch_end, (line, "the count ends under watch")
