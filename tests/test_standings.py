"""Standings across finished matches (``server.standings``): places with ties, firsts and average places
checked against values worked out by hand, bots not listed, and the rating's order in obvious cases."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from protocol import REPLY_LIMITS, decode_frame
from server.standings import MatchResult, Standing, StandingsKeeper, places, standings, store_standings
from server.store import Store

FRIENDS = {"N": "ann", "E": "bob", "S": "cat", "W": "dan"}


def result(n: int, e: int, s: int, w: int, players: dict[str, str] = FRIENDS) -> MatchResult:
    return MatchResult(players=players, totals={"N": n, "E": e, "S": s, "W": w})


def by_name(rows: list[Standing]) -> dict[str, Standing]:
    return {row.name: row for row in rows}


def test_places_share_the_better_place_on_equal_totals() -> None:
    assert places({"N": 40, "E": 10, "S": -20, "W": -30}) == {"N": 1, "E": 2, "S": 3, "W": 4}
    assert places({"N": 10, "E": 10, "S": -5, "W": -7}) == {"N": 1, "E": 1, "S": 3, "W": 4}
    assert places({"N": 0, "E": 5, "S": 5, "W": 5}) == {"N": 4, "E": 1, "S": 1, "W": 1}
    assert places({"N": 0, "E": 0, "S": 0, "W": 0}) == {"N": 1, "E": 1, "S": 1, "W": 1}


def test_matches_firsts_and_average_places_by_hand() -> None:
    rows = by_name(
        standings(
            [
                result(40, 10, -20, -30),  # ann 1, bob 2, cat 3, dan 4
                result(10, 10, -5, -15),  # ann 1, bob 1, cat 3, dan 4
                result(-30, 20, 20, -10),  # ann 4, bob 1, cat 1, dan 3
            ]
        )
    )
    assert {n: (r.matches, r.firsts, r.average_place) for n, r in rows.items()} == {
        "ann": (3, 2, 2.0),  # (1 + 1 + 4) / 3
        "bob": (3, 2, 4 / 3),  # (2 + 1 + 1) / 3
        "cat": (3, 1, 7 / 3),  # (3 + 3 + 1) / 3
        "dan": (3, 0, 11 / 3),  # (4 + 4 + 3) / 3
    }
    assert rows["bob"].to_wire() == {
        "name": "bob",
        "matches": 3,
        "firsts": 2,
        "average_place": 1.33,
        "rating": rows["bob"].rating,
    }


def test_bots_take_places_but_are_not_listed() -> None:
    seats = {"N": "ann", "E": "bot:heuristic", "S": "bot:heuristic", "W": "bot:random"}
    rows = standings([result(-10, 30, 0, -20, seats), result(5, 5, 5, -15, seats)])
    assert [(r.name, r.matches, r.firsts, r.average_place) for r in rows] == [("ann", 2, 1, 2.0)]


def test_a_player_who_always_wins_is_rated_above_one_who_always_loses() -> None:
    rows = standings([result(30, 10, -10, -30)] * 5)
    assert [r.name for r in rows] == ["ann", "bob", "cat", "dan"]
    assert rows[0].rating > rows[1].rating > rows[2].rating > rows[3].rating
    assert rows[0].rating > 0 > rows[3].rating


def test_tied_winners_are_rated_above_the_seats_behind_them() -> None:
    """The order openskill's Plackett-Luce model gets wrong in 6.2 (the third place rated above the two
    tied winners): each tied winner is above the third, who is above the fourth."""
    rows = by_name(standings([result(10, 10, -5, -15)]))
    assert rows["ann"].rating == rows["bob"].rating > rows["cat"].rating > rows["dan"].rating
    rows = by_name(standings([result(20, -5, -5, -10)]))
    assert rows["ann"].rating > rows["bob"].rating == rows["cat"].rating > rows["dan"].rating


def test_more_wins_rate_higher_and_a_lone_player_among_bots_is_counted() -> None:
    once = by_name(standings([result(30, 10, -10, -30)]))
    many = by_name(standings([result(30, 10, -10, -30)] * 3))
    assert many["ann"].rating > once["ann"].rating > 0 > once["dan"].rating > many["dan"].rating
    lone = standings([result(0, 0, 0, 0, {"N": "eve", "E": "bot:a", "S": "bot:b", "W": "bot:c"})])
    assert lone[0].firsts == 1 and lone[0].average_place == 1.0


def test_replay_order_is_the_order_given_and_the_same_every_time() -> None:
    matches = [result(30, 10, -10, -30), result(-30, 10, -10, 30), result(0, 40, -20, -20)]
    first = standings(matches)
    assert standings(matches) == first
    assert [r.rating for r in standings(matches[::-1])] != [r.rating for r in first]


def test_a_name_at_two_seats_counts_once_at_its_better_place() -> None:
    rows = standings([result(10, 20, -10, -20, {"N": "ann", "E": "bob", "S": "ann", "W": "dan"})])
    assert [(r.name, r.matches, r.average_place) for r in by_name(rows).values() if r.name == "ann"] == [
        ("ann", 1, 2.0)
    ]


def test_store_standings_reads_only_finished_barbu_matches_in_finish_order(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    try:
        finished = [result(30, 10, -10, -30), result(-30, 10, -10, 30)]
        for match in finished:
            finish(store, match)
        store.create_room("barbu", "still playing", {}, FRIENDS, status="playing")
        solitaire = store.create_room("solitaire", "one", {}, {"N": "ann"}, status="playing")
        store.set_status(solitaire, "over", {"totals": {"N": 1}})
        assert store_standings(store) == standings(finished)
    finally:
        store.close()


def finish(store: Store, match: MatchResult) -> int:
    room = store.create_room("barbu", "t", {}, match.players, status="playing")
    store.set_status(room, "over", {"players": match.players, "totals": match.totals, "deals": []})
    return room


def kept_table(keeper: StandingsKeeper) -> list[dict[str, Any]]:
    players: list[dict[str, Any]] = decode_frame(keeper.reply()(7), REPLY_LIMITS)["players"]
    return players


def test_the_kept_standings_rate_only_new_matches_and_replay_all_when_one_finished_earlier(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    try:
        keeper = StandingsKeeper(store)
        finish(store, result(30, 10, -10, -30))
        assert kept_table(keeper) == [r.to_wire() for r in store_standings(store)]
        finish(store, result(-30, 10, -10, 30))
        assert len(kept_table(keeper)) == 4 and kept_table(keeper)[0]["matches"] == 1  # kept until changed
        keeper.changed()
        assert kept_table(keeper) == [r.to_wire() for r in store_standings(store)]
        assert kept_table(keeper)[0]["matches"] == 2

        # A match stored as finished before those already counted (a clock set back): all replayed in order.
        early = finish(store, result(0, 40, -20, -20))
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE rooms SET updated=1 WHERE id=?", (early,))
        keeper.changed()
        assert kept_table(keeper) == [r.to_wire() for r in store_standings(store)]
        in_order = [result(0, 40, -20, -20), result(30, 10, -10, -30), result(-30, 10, -10, 30)]
        assert kept_table(keeper) == [r.to_wire() for r in standings(in_order)]
    finally:
        store.close()
