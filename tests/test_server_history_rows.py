"""A snapshot's score sheet (the view's ``history``) says how each finished hand ended, as its ``hand-scored``
event did, over real WebSockets: a client that joins or comes back between hands tells the last hand's
results as one that saw it end."""

from __future__ import annotations

from typing import Any

from client import Connection
from protocol import EventPush
from server import BarbuServer
from tests.barbu_helpers import play_match
from tests.conftest import four_seated, until


def _dominoes_first(view: dict[str, Any]) -> dict[str, Any]:
    """Dominoes when declaring; no double (unless the rules require one); else the first action offered."""
    legal: list[dict[str, Any]] = view["legal"]
    if view["phase"] == "contract":
        return next((a for a in legal if a["contract"] == "dominoes"), legal[0])
    return min(legal, key=lambda a: len(a.get("targets", [])))


async def _hand_scored(conn: Connection) -> dict[str, Any]:
    """The next ``hand-scored`` event ``conn`` hears."""
    while True:
        push = await conn.next_push(30)
        if isinstance(push, EventPush) and push.event["event"] == "hand-scored":
            return push.event


async def test_the_score_sheet_of_a_snapshot_between_hands_tells_how_the_last_hand_ended(
    server: BarbuServer,
) -> None:
    conns, room, table = await four_seated(server, "h", "history rows")
    listener = conns["N"]
    scored = None
    while scored is None:
        assert table.match is not None
        to_move = table.match.to_move
        assert to_move is not None
        seat = "NESW"[to_move]
        view = (await conns[seat].snapshot(room)).view
        assert view is not None
        if view["hand_number"] > 1:
            scored = await _hand_scored(listener)
        elif view["legal"] and view["to_move"] == seat:
            await conns[seat].act(room, seat, _dominoes_first(view))
    await until(lambda: table.match is not None and table.match.hand_number == 2, "hand 2")
    watcher = await Connection.connect(server.url)
    await watcher.login("hwatcher")
    for snap in (await watcher.watch(room), await conns["E"].snapshot(room)):
        assert snap.view is not None
        (row,) = snap.view["history"]
        assert row["contract"] == scored["contract"] == "dominoes"
        assert row["finish_order"] == scored["finish_order"] and sorted(row["finish_order"]) == sorted("NESW")
        assert row["tricks_played"] == 0
        for key in ("contract_scores", "settlements", "scores"):
            assert row[key] == scored[key], key
        assert snap.view["totals"] == scored["totals"]
    for conn in (*conns.values(), watcher):
        await conn.close()


def test_every_row_of_a_whole_matchs_score_sheet_says_its_tricks_and_finishing_order() -> None:
    """A match of 28 hands by heuristic bots: each row gives its hand's tricks played (fewer than 13 in a
    hand that stopped early, which some do) and, in Dominoes only, the finishing order."""
    match = play_match(7, ["heuristic"] * 4)
    rows = match.view(None)["history"]
    assert len(rows) == len(match.history) == 28
    for row, hand in zip(rows, match.history, strict=True):
        dominoes = hand.contract == "dominoes"
        assert row["tricks_played"] == len(hand.tricks) and (row["tricks_played"] == 0) == dominoes
        assert row["finish_order"] == (["NESW"[s] for s in hand.finish_order] if dominoes else None)
    assert any(0 < row["tricks_played"] < 13 for row in rows), "no hand stopped early"
